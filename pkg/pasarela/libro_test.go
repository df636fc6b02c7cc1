package pasarela

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"cursohttp/internal/prueba"
	"cursohttp/internal/prueba/servidortest"
	"cursohttp/pkg/bitacora"
	"cursohttp/pkg/eventos"
	"cursohttp/pkg/revisor"
	"cursohttp/pkg/topes"
	"cursohttp/pkg/traza"
)

// conRevisor is the gateway in front of a real revisor (its save pause shortened).
func conRevisor(t *testing.T) (addrPasarela, urlRevisor string, log *prueba.Buffer) {
	t.Helper()
	rv := revisor.Nuevo(revisor.Opciones{Log: zerolog.Nop(), Guardar: time.Millisecond})
	t.Cleanup(rv.Cerrar)
	ts := servidortest.Nuevo(t, rv)
	addr, log := levantar(t, ts.URL)
	return addr, ts.URL, log
}

func pedirPor(t *testing.T, base, metodo, ruta, cuerpo string, cabeceras ...string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(metodo, base+ruta, strings.NewReader(cuerpo))
	req.Header.Set("Authorization", "Bearer escritura-a")
	req.Header.Set("Content-Type", "application/json")
	for _, c := range cabeceras {
		n, v, _ := strings.Cut(c, ": ")
		req.Header.Set(n, v)
	}
	resp, err := (&http.Client{Transport: &http.Transport{}}).Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

type libroJSON struct {
	Resumen struct {
		Resumen
		Frase string `json:"frase"`
	} `json:"resumen"`
	Peticiones []asientoJSON `json:"peticiones"`
}

func leerLibro(t *testing.T, addr string) libroJSON {
	t.Helper()
	codigo, cuerpo := pedirPor(t, "http://"+addr, "GET", RutaLibro, "")
	var l libroJSON
	if err := json.Unmarshal([]byte(cuerpo), &l); codigo != 200 || err != nil {
		t.Fatalf("GET %s: %d %v\n%s", RutaLibro, codigo, err, cuerpo)
	}
	return l
}

// Lesson 6's question, answered by the ledger for each way a write can go: with a key the lost 201
// was one write, the retry a repeated answer; without a key, one write and no success; refused
// before forwarding, no write at all; a gateway that answers 201 itself, a success without a write.
func TestLibroResponde(t *testing.T) {
	t.Parallel()
	alta := func(nombre string) string {
		return `{"nombre":"` + nombre + `","url":"http://127.0.0.1:18081/codigo/200"}`
	}
	casos := []struct {
		nombre  string
		pedidos []struct{ simular, llave string }
		frase   string
		resumen Resumen
	}{
		{"perder-primera con llave", []struct{ simular, llave string }{{"perder-primera", "k"}, {"perder-primera", "k"}},
			"el revisor hizo 1 escritura; los clientes vieron 1 éxito",
			Resumen{Peticiones: 2, AlRevisor: 2, Escrituras: 1, Repetidas: 1, Exitos: 1, Perdidas: 1}},
		{"perder-primera sin llave", []struct{ simular, llave string }{{"perder-primera", ""}, {"perder-primera", ""}},
			"el revisor hizo 1 escritura; los clientes vieron 0 éxitos",
			Resumen{Peticiones: 2, AlRevisor: 2, Escrituras: 1, Perdidas: 1}},
		{"rechazar", []struct{ simular, llave string }{{"rechazar", "k"}, {"rechazar", "k"}, {"rechazar", "k"}},
			"el revisor hizo 0 escrituras; los clientes vieron 0 éxitos",
			Resumen{Peticiones: 3, NuncaLlegaron: 3}},
		{"codigo:201", []struct{ simular, llave string }{{"codigo:201", "k"}},
			"el revisor hizo 0 escrituras; los clientes vieron 1 éxito",
			Resumen{Peticiones: 1, NuncaLlegaron: 1, Exitos: 1}},
		{"perder-siempre", []struct{ simular, llave string }{{"perder-siempre", "k"}, {"perder-siempre", "k"}},
			"el revisor hizo 1 escritura; los clientes vieron 0 éxitos",
			Resumen{Peticiones: 2, AlRevisor: 2, Escrituras: 1, Repetidas: 1, Perdidas: 2}},
		{"cortar", []struct{ simular, llave string }{{"cortar", "k"}, {"", "k"}},
			"el revisor hizo 1 escritura; los clientes vieron 1 éxito",
			Resumen{Peticiones: 2, AlRevisor: 2, Escrituras: 1, Repetidas: 1, Exitos: 1, Perdidas: 1}},
	}
	for _, c := range casos {
		t.Run(c.nombre, func(t *testing.T) {
			t.Parallel()
			addr, _, _ := conRevisor(t)
			for _, p := range c.pedidos {
				var cab []string
				if p.simular != "" {
					cab = append(cab, "X-Simular: "+p.simular)
				}
				if p.llave != "" {
					cab = append(cab, "Idempotency-Key: "+p.llave)
				}
				pedirPor(t, "http://"+addr, "POST", "/servicios", alta("agenda"), cab...)
			}
			l := leerLibro(t, addr)
			if l.Resumen.Frase != c.frase || l.Resumen.Resumen != c.resumen {
				t.Errorf("resumen %+v «%s»\nse esperaba %+v «%s»", l.Resumen.Resumen, l.Resumen.Frase, c.resumen, c.frase)
			}
			if len(l.Peticiones) != len(c.pedidos) {
				t.Fatalf("%d asientos", len(l.Peticiones))
			}
			_, texto := pedirPor(t, "http://"+addr, "GET", RutaResumen, "")
			if !strings.HasPrefix(texto, c.frase+"\npeticiones ") {
				t.Errorf("resumen en texto:\n%s", texto)
			}
		})
	}
}

// Each entry says what the revisor answered and what the client got, with the key and the trace.
func TestAsientos(t *testing.T) {
	t.Parallel()
	addr, _, _ := conRevisor(t)
	tc := traza.Nueva()
	pedirPor(t, "http://"+addr, "POST", "/servicios", `{"nombre":"agenda","url":"http://127.0.0.1:18081/codigo/200"}`,
		"X-Simular: perder-primera", "Idempotency-Key: alta-1", "traceparent: "+tc.Valor())
	pedirPor(t, "http://"+addr, "GET", "/servicios/1", "", "X-Simular: rechazar")
	l := leerLibro(t, addr)
	a, b := l.Peticiones[0], l.Peticiones[1]
	if a.Metodo != "POST" || a.Ruta != "/servicios" || a.Llave != "alta-1" || a.Falla != "perder-primera" || !a.Llego ||
		a.Revisor != 201 || a.Cliente != 502 || a.Resultado != "respuesta perdida" || !a.Escritura || a.Exito ||
		a.Traza != tc.Traza.String() || a.Hora == "" {
		t.Errorf("primer asiento %+v", a)
	}
	if b.Metodo != "GET" || b.Llego || b.Revisor != 0 || b.Cliente != 502 || b.Resultado != "nunca llegó al revisor" || b.Escritura || b.Traza != "" {
		t.Errorf("segundo asiento %+v", b)
	}
}

// The ledger keeps the newest topes.Libro entries and counts them all, under concurrent requests.
func TestLibroAcotado(t *testing.T) {
	t.Parallel()
	l := nuevoLibro()
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range topes.Libro {
				l.anotar(Asiento{Metodo: "GET", Ruta: "/x", Llego: true, Revisor: 200, Cliente: 200, Resultado: string(rune('a' + g)), Inicio: time.Unix(int64(i), 0)}, "")
			}
		}()
	}
	wg.Wait()
	r, asientos := l.leer()
	if r.Peticiones != 4*topes.Libro || len(asientos) != topes.Libro || r.Escrituras != 0 || r.Exitos != 0 {
		t.Fatalf("resumen %+v, %d asientos", r, len(asientos))
	}
}

// The gateway's own routes: the live control of the process-wide fault, and clear errors.
func TestRutasPropias(t *testing.T) {
	t.Parallel()
	destino, vistas := revisorFalso(t)
	u, _ := url.Parse(destino)
	var log prueba.Buffer
	p := Nueva(Opciones{Destinos: []*url.URL{u}, Log: bitacora.NuevoLogger(&log, &log, false), Token: "profe"})
	addr := "http://" + servidortest.Nuevo(t, p).Listener.Addr().String()
	// The control's PUTs carry the lab's token (TestElControlPideElToken: without it, nothing).
	pedirPor := func(t *testing.T, base, metodo, ruta, cuerpo string) (int, string) {
		if metodo == "PUT" {
			return pedirPor(t, base, metodo, ruta, cuerpo, "Authorization: Bearer profe")
		}
		return pedirPor(t, base, metodo, ruta, cuerpo)
	}
	for _, c := range []struct {
		metodo, ruta, cuerpo string
		codigo               int
		respuesta            string
	}{
		{"GET", RutaSimular, "", 200, "pasarela: sin --simular: solo fallan las peticiones con X-Simular\n"},
		{"PUT", RutaSimular + "?semilla=7", "rechazar@0.5", 200, "pasarela: --simular rechazar@0.5 --semilla 7 (las peticiones sin X-Simular)\n"},
		{"GET", RutaSimular, "", 200, "pasarela: --simular rechazar@0.5 --semilla 7 (las peticiones sin X-Simular)\n"},
		{"PUT", RutaSimular, "perder", 200, "pasarela: --simular perder-siempre --semilla 7 (las peticiones sin X-Simular)\n"},
		{"PUT", RutaSimular, "perder@3", 400, `{"type":"about:blank","title":"Bad Request","status":400,"detail":"«perder@3»: la probabilidad tras «@» va de 0 a 1 (0.3 es el 30 %)"}` + "\n"},
		{"PUT", RutaSimular + "?semilla=-1", "perder", 400, `{"type":"about:blank","title":"Bad Request","status":400,"detail":"?semilla= lleva un número entero no negativo, no «-1»"}` + "\n"},
		{"DELETE", RutaLibro, "", 405, `{"type":"about:blank","title":"Method Not Allowed","status":405,"detail":"DELETE no se admite en /_pasarela/libro: GET, HEAD"}` + "\n"},
		{"PUT", RutaResumen, "", 405, `{"type":"about:blank","title":"Method Not Allowed","status":405,"detail":"PUT no se admite en /_pasarela/resumen: GET, HEAD"}` + "\n"},
		{"POST", RutaSimular, "perder", 405, `{"type":"about:blank","title":"Method Not Allowed","status":405,"detail":"POST no se admite en /_pasarela/simular: GET, HEAD, PUT"}` + "\n"},
		{"GET", RutaLibro + "/", "", 404, `{"type":"about:blank","title":"Not Found","status":404,"detail":"la pasarela no tiene «/_pasarela/libro/»: tiene /_pasarela/libro, /_pasarela/resumen y /_pasarela/simular"}` + "\n"},
		{"GET", RutaPropia + "otra", "", 404, `{"type":"about:blank","title":"Not Found","status":404,"detail":"la pasarela no tiene «/_pasarela/otra»: tiene /_pasarela/libro, /_pasarela/resumen y /_pasarela/simular"}` + "\n"},
	} {
		codigo, cuerpo := pedirPor(t, addr, c.metodo, c.ruta, c.cuerpo)
		if codigo != c.codigo || cuerpo != c.respuesta {
			t.Errorf("%s %s %q: %d %q", c.metodo, c.ruta, c.cuerpo, codigo, cuerpo)
		}
	}
	// perder-siempre is now in force for requests without X-Simular; «ninguna» turns it off.
	if c, _ := pedirPor(t, addr, "POST", "/servicios", cuerpoPorPasarela); c != 502 {
		t.Errorf("con perder en vigor: %d", c)
	}
	pedirPor(t, addr, "PUT", RutaSimular, "ninguna")
	if c, _ := pedirPor(t, addr, "POST", "/servicios", cuerpoPorPasarela); c != 201 {
		t.Errorf("sin simulación: %d", c)
	}
	if len(vistas()) != 2 {
		t.Errorf("el revisor vio %d peticiones; las rutas propias no se reenvían", len(vistas()))
	}
	if !strings.Contains(log.String(), "pasarela: --simular rechazar@0.5 --semilla 7 (las peticiones sin X-Simular)\n") ||
		!strings.HasSuffix(log.String(), "pasarela: sin --simular: solo fallan las peticiones con X-Simular\n") {
		t.Errorf("bitácora:\n%s", log.String())
	}
}

// Only the instructor changes the process-wide fault for everybody: without the lab's token, with
// another one, or from a page of another site even with the right one, a PUT changes nothing, and
// each refusal says why in the gateway's Problem Details and in its log. Reading it stays open.
func TestElControlPideElToken(t *testing.T) {
	t.Parallel()
	destino, _ := revisorFalso(t)
	u, _ := url.Parse(destino)
	var log prueba.Buffer
	p := Nueva(Opciones{Destinos: []*url.URL{u}, Log: bitacora.NuevoLogger(&log, &log, false), Token: "profe"})
	addr := "http://" + servidortest.Nuevo(t, p).Listener.Addr().String()
	const falta = `{"type":"about:blank","title":"Unauthorized","status":401,"detail":"cambiar el laboratorio para todos pide el token del laboratorio (Authorization: Bearer …): la pasarela lo toma de --token o de CURSOHTTP_TOKEN (el laboratorio se lo da: «laboratorio lab token» lo muestra)"}` + "\n"
	const malo = `{"type":"about:blank","title":"Unauthorized","status":401,"detail":"ese no es el token del laboratorio: la pasarela lo toma de --token o de CURSOHTTP_TOKEN (el laboratorio se lo da: «laboratorio lab token» lo muestra)"}` + "\n"
	const sitio = `{"type":"about:blank","title":"Forbidden","status":403,"detail":"una página de otro sitio no puede cambiar el laboratorio"}` + "\n"
	origen := "Origin: " + addr
	for _, c := range []struct {
		nombre    string
		cabeceras []string
		codigo    int
		cuerpo    string
	}{
		{"sin token", []string{"Authorization: "}, 401, falta},
		{"una credencial del revisor", nil, 401, malo},
		{"otro token", []string{"Authorization: Bearer profe2"}, 401, malo},
		{"con el token, desde otro sitio", []string{"Authorization: Bearer profe", "Sec-Fetch-Site: cross-site"}, 403, sitio},
		{"con el token, desde otro puerto", []string{"Authorization: Bearer profe", "Origin: http://127.0.0.1:1"}, 403, sitio},
		{"sin token, desde otro sitio", []string{"Authorization: ", "Sec-Fetch-Site: same-site"}, 403, sitio},
	} {
		codigo, cuerpo := pedirPor(t, addr, "PUT", RutaSimular, "codigo:201", c.cabeceras...)
		if codigo != c.codigo || cuerpo != c.cuerpo {
			t.Errorf("%s: %d %q", c.nombre, codigo, cuerpo)
		}
		if p.Simulando() != nil {
			t.Fatalf("%s: la pasarela simula %v", c.nombre, p.Simulando())
		}
	}
	if c, _ := pedirPor(t, addr, "POST", "/servicios", cuerpoPorPasarela); c != 201 {
		t.Errorf("tras los rechazos, un alta: %d", c)
	}
	if n := strings.Count(log.String(), "pasarela: rechazo el cambio de falla: "); n != 6 {
		t.Errorf("%d rechazos en la bitácora:\n%s", n, log.String())
	}
	// A 401 names the scheme it wants.
	req, _ := http.NewRequest("PUT", addr+RutaSimular, strings.NewReader("perder"))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 401 || resp.Header.Get("WWW-Authenticate") != `Bearer realm="laboratorio"` {
		t.Errorf("%d WWW-Authenticate %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
	// The page's own fetch (same origin) with the token is the instructor.
	if c, b := pedirPor(t, addr, "PUT", RutaSimular, "rechazar", "Authorization: Bearer profe", "Sec-Fetch-Site: same-origin", origen); c != 200 ||
		b != "pasarela: --simular rechazar --semilla "+strconv.FormatUint(p.Simulando().Semilla, 10)+" (las peticiones sin X-Simular)\n" {
		t.Errorf("con el token: %d %q", c, b)
	}
	// A gateway started without a token has one nobody knows.
	sola := Nueva(Opciones{Destinos: []*url.URL{u}, Log: zerolog.Nop()})
	if sola.puerta.Instructor == "" {
		t.Fatal("una pasarela sin --token queda abierta")
	}
	addr = "http://" + servidortest.Nuevo(t, sola).Listener.Addr().String()
	if c, _ := pedirPor(t, addr, "PUT", RutaSimular, "perder", "Authorization: Bearer "); c != 401 || sola.Simulando() != nil {
		t.Errorf("sin token de nadie: %d", c)
	}
}

// Each mode's outcome, as its client lived it, is in the ledger as a word the panel draws from
// (never from Resultado's sentence): a cut answer is no answer, whatever its status line said.
func TestDesenlaceDeCadaModo(t *testing.T) {
	t.Parallel()
	addr, _, _ := conRevisor(t)
	if !strings.HasPrefix(addr, "http") {
		addr = "http://" + addr
	}
	for i, c := range []struct {
		modo, desenlace string
		cliente         int
	}{
		{"", eventos.Entregada, 201},
		{"perder-primera", eventos.Perdida, 502},
		{"perder:2", eventos.Perdida, 502},
		{"perder-siempre", eventos.Perdida, 502},
		{"rechazar", eventos.NuncaLlego, 502},
		{"codigo:201", eventos.NuncaLlego, 201},
		{"cortar", eventos.Cortada, 0},
		{"reiniciar", eventos.Reiniciada, 0},
		{"lento:5", eventos.Entregada, 201},
	} {
		cuerpo := `{"nombre":"modo-` + strconv.Itoa(i) + `","url":"http://127.0.0.1:18081/codigo/200"}`
		var cabeceras []string
		if c.modo != "" {
			cabeceras = append(cabeceras, "X-Simular: "+c.modo)
		}
		pedirPor(t, addr, "POST", "/servicios", cuerpo, cabeceras...)
		// A cut or reset reaches the client before the gateway's handler returns and notes it:
		// wait for the entry.
		var l libroJSON
		prueba.Esperar(t, c.modo+" en el libro", func() bool {
			_, b := pedirPor(t, addr, "GET", RutaLibro, "")
			l = libroJSON{}
			return json.Unmarshal([]byte(b), &l) == nil && len(l.Peticiones) == i+1
		})
		a := l.Peticiones[i]
		if a.Desenlace != c.desenlace || a.Cliente != c.cliente {
			t.Errorf("%q: desenlace %q, cliente %d; se esperaba %q, %d", c.modo, a.Desenlace, a.Cliente, c.desenlace, c.cliente)
		}
	}
}
