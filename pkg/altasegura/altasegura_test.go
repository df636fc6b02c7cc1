package altasegura

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"cursohttp/internal/prueba"
	"cursohttp/pkg/curso"
	"cursohttp/pkg/reintento"
	"cursohttp/pkg/traza"
)

const (
	llaveFija = "bf0d47f7-f895-4945-8e27-2215869c5fc8"
	perdida   = `{"type":"about:blank","title":"Bad Gateway","status":502,"detail":"la pasarela no recibió una respuesta completa del revisor"}`
	sinRev    = `{"type":"about:blank","title":"Bad Gateway","status":502,"detail":"la pasarela no recibió respuesta del revisor"}`
	agenda    = `{"id":9,"nombre":"agenda","url":"http://127.0.0.1:18081/codigo/200","limite_ms":2000}`
	repetido  = `{"type":"https://revisor.example/problemas/nombre-repetido","title":"Ya existe un servicio con ese nombre","status":409,"detail":"ya existe un servicio llamado nomina2","instance":"/servicios","existente":"/servicios/10"}`
	invalida  = `{"type":"https://revisor.example/problemas/datos-invalidos","title":"Los datos no se pueden cumplir","status":422,"detail":"1 dato(s) no se pueden cumplir","instance":"/servicios","errors":[{"detail":"debe ser una dirección http o https","pointer":"#/url"}]}`
	mant      = `{"type":"https://revisor.example/problemas/en-mantenimiento","title":"El revisor está en mantenimiento","status":503,"detail":"el revisor está en mantenimiento","instance":"/servicios"}`
	enCurso   = `{"type":"https://revisor.example/problemas/llave-en-curso","title":"respuesta de mentira","status":409}`
	otro409   = `{"type":"about:blank","title":"respuesta de mentira","status":409}`
)

// guion is one scripted answer: code, Retry-After ("" = none), body (a newline is added).
type guion struct {
	codigo int
	ra     string
	cuerpo string
}

type vistaPeticion struct {
	cabeceras http.Header
	cuerpo    string
}

// guionista answers each request with the next scripted answer (the last one repeats).
func guionista(t *testing.T, respuestas ...guion) (string, func() []vistaPeticion) {
	var (
		mu     sync.Mutex
		vistas []vistaPeticion
	)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		n := len(vistas)
		vistas = append(vistas, vistaPeticion{r.Header.Clone(), string(b)})
		mu.Unlock()
		g := respuestas[min(n, len(respuestas)-1)]
		if r.Method != "POST" || r.URL.Path != "/servicios" {
			t.Errorf("petición %s %s", r.Method, r.URL)
		}
		if g.ra != "" {
			w.Header().Set("Retry-After", g.ra)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(g.codigo)
		io.WriteString(w, g.cuerpo+"\n")
	}))
	t.Cleanup(ts.Close)
	return ts.URL, func() []vistaPeticion { mu.Lock(); defer mu.Unlock(); return append([]vistaPeticion(nil), vistas...) }
}

type corrida struct {
	salida  string
	codigo  int
	esperas []time.Duration
}

func correrCon(t *testing.T, base string, sinLlave bool, nombre, url string, limite time.Duration) corrida {
	t.Helper()
	var (
		out     bytes.Buffer
		esperas []time.Duration
	)
	politica := reintento.PoliticaAlta()
	politica.Azar = func() float64 { return 0.5 }
	politica.Dormir = func(_ context.Context, d time.Duration) error { esperas = append(esperas, d); return nil }
	codigo := Correr(context.Background(), Opciones{
		Nombre: nombre, URL: url, SinLlave: sinLlave, Pasarela: base, Limite: limite, Politica: politica,
		Salida: &out,
		Llave:  func() string { return llaveFija },
	})
	return corrida{out.String(), codigo, esperas}
}

// The lesson's runs (§1 D, E, F, H, I), with the scripted answers a gateway or fake server gives.
func TestEscenas(t *testing.T) {
	t.Parallel()
	casos := []struct {
		nombre     string
		respuestas []guion
		sinLlave   bool
		alta       [2]string
		salida     string
		codigo     int
		esperas    []time.Duration
	}{
		{"S-D5 502 y luego 201", []guion{{502, "", perdida}, {201, "", agenda}}, false,
			[2]string{"agenda", "http://127.0.0.1:18081/codigo/200"},
			"intento 1: 502 " + perdida + "\n  espero entre 0 y 500 ms y reintento con la misma llave\nintento 2: 201 " + agenda + "\n",
			0, []time.Duration{250 * time.Millisecond}},
		{"S-D6 sin llave: 502 y luego 409 nombre-repetido", []guion{{502, "", perdida}, {409, "", repetido}}, true,
			[2]string{"nomina2", "http://127.0.0.1:18081/codigo/200"},
			"intento 1: 502 " + perdida + "\n  espero entre 0 y 500 ms y reintento sin llave (podría duplicar)\nintento 2: 409 " + repetido +
				"\nel servidor respondió 409: repetir lo mismo no lo arregla; sin llave no se sabe si lo que ya existe lo creó un intento anterior\n",
			1, []time.Duration{250 * time.Millisecond}},
		{"S-E2 cuatro 502", []guion{{502, "", sinRev}}, false,
			[2]string{"sin-revisor", "http://127.0.0.1:18081/codigo/200"},
			"intento 1: 502 " + sinRev + "\n  espero entre 0 y 500 ms y reintento con la misma llave\n" +
				"intento 2: 502 " + sinRev + "\n  espero entre 0 y 1000 ms y reintento con la misma llave\n" +
				"intento 3: 502 " + sinRev + "\n  espero entre 0 y 2000 ms y reintento con la misma llave\n" +
				"intento 4: 502 " + sinRev + "\nse agotaron los 4 intentos sin una respuesta definitiva; repetir más tarde con la llave " + llaveFija + " es seguro\n",
			1, []time.Duration{250 * time.Millisecond, 500 * time.Millisecond, time.Second}},
		{"S-E3 cuatro 502 sin llave", []guion{{502, "", sinRev}}, true,
			[2]string{"sin-revisor", "http://127.0.0.1:18081/codigo/200"},
			"intento 1: 502 " + sinRev + "\n  espero entre 0 y 500 ms y reintento sin llave (podría duplicar)\n" +
				"intento 2: 502 " + sinRev + "\n  espero entre 0 y 1000 ms y reintento sin llave (podría duplicar)\n" +
				"intento 3: 502 " + sinRev + "\n  espero entre 0 y 2000 ms y reintento sin llave (podría duplicar)\n" +
				"intento 4: 502 " + sinRev + "\nse agotaron los 4 intentos sin una respuesta definitiva; no se sabe si el alta ocurrió\n",
			1, []time.Duration{250 * time.Millisecond, 500 * time.Millisecond, time.Second}},
		{"S-F1 un 4xx no se reintenta", []guion{{502, "", perdida}, {422, "", invalida}}, false,
			[2]string{"invalida", "ftp://archivos"},
			"intento 1: 502 " + perdida + "\n  espero entre 0 y 500 ms y reintento con la misma llave\nintento 2: 422 " + invalida +
				"\nel servidor respondió 422: repetir lo mismo no lo arregla\n",
			1, []time.Duration{250 * time.Millisecond}},
		{"S-F2 Retry-After de 120 s: no insiste", []guion{{502, "", perdida}, {503, "120", mant}}, false,
			[2]string{"enmantenimiento", "http://127.0.0.1:18081/codigo/200"},
			"intento 1: 502 " + perdida + "\n  espero entre 0 y 500 ms y reintento con la misma llave\nintento 2: 503 " + mant +
				"\nel servidor pidió esperar 120 s (Retry-After), más de los 5 s que este programa espera; no se reintenta; repetir más tarde con la llave " + llaveFija + " es seguro\n",
			1, []time.Duration{250 * time.Millisecond}},
		{"S-F3 503:2 y luego 201", []guion{{503, "2", `{"type":"about:blank","title":"respuesta de mentira","status":503}`}, {201, "", `{"id":99}`}}, false,
			[2]string{"paciente", "http://127.0.0.1:18081/codigo/200"},
			"intento 1: 503 {\"type\":\"about:blank\",\"title\":\"respuesta de mentira\",\"status\":503}\n  el servidor pide esperar 2 s (Retry-After); espero 2 s y reintento con la misma llave\nintento 2: 201 {\"id\":99}\n",
			0, []time.Duration{2 * time.Second}},
		{"S-F4 409 en curso se reintenta", []guion{{409, "", enCurso}, {201, "", `{"id":99}`}}, false,
			[2]string{"en-curso", "http://127.0.0.1:18081/codigo/200"},
			"intento 1: 409 " + enCurso + "\n  espero entre 0 y 500 ms y reintento con la misma llave\nintento 2: 201 {\"id\":99}\n",
			0, []time.Duration{250 * time.Millisecond}},
		{"S-F5 otro 409 no", []guion{{409, "", otro409}}, false,
			[2]string{"repetida", "http://127.0.0.1:18081/codigo/200"},
			"intento 1: 409 " + otro409 + "\nel servidor respondió 409: repetir lo mismo no lo arregla\n",
			1, nil},
		{"429 no se reintenta", []guion{{429, "1", `{"type":"about:blank","status":429}`}}, false,
			[2]string{"x", "http://127.0.0.1:18081/codigo/200"},
			"intento 1: 429 {\"type\":\"about:blank\",\"status\":429}\nel servidor respondió 429: repetir lo mismo no lo arregla\n",
			1, nil},
		{"500 no se reintenta", []guion{{500, "", `{}`}}, true,
			[2]string{"x", "http://127.0.0.1:18081/codigo/200"},
			"intento 1: 500 {}\nel servidor respondió 500: repetir lo mismo no lo arregla\n",
			1, nil},
		{"un Retry-After ilegible no se obedece", []guion{{503, "1.5", `{}`}, {201, "", `{}`}}, false,
			[2]string{"x", "http://127.0.0.1:18081/codigo/200"},
			"intento 1: 503 {}\n  espero entre 0 y 500 ms y reintento con la misma llave\nintento 2: 201 {}\n",
			0, []time.Duration{250 * time.Millisecond}},
		{"el Retry-After del cuarto intento no importa", []guion{{503, "1", `{}`}, {503, "1", `{}`}, {503, "1", `{}`}, {503, "600", `{}`}}, false,
			[2]string{"x", "http://127.0.0.1:18081/codigo/200"},
			"intento 1: 503 {}\n  el servidor pide esperar 1 s (Retry-After); espero 1 s y reintento con la misma llave\n" +
				"intento 2: 503 {}\n  el servidor pide esperar 1 s (Retry-After); espero 1 s y reintento con la misma llave\n" +
				"intento 3: 503 {}\n  el servidor pide esperar 1 s (Retry-After); espero 1 s y reintento con la misma llave\n" +
				"intento 4: 503 {}\nse agotaron los 4 intentos sin una respuesta definitiva; repetir más tarde con la llave " + llaveFija + " es seguro\n",
			1, []time.Duration{time.Second, time.Second, time.Second}},
	}
	for _, c := range casos {
		t.Run(c.nombre, func(t *testing.T) {
			t.Parallel()
			base, vistas := guionista(t, c.respuestas...)
			got := correrCon(t, base, c.sinLlave, c.alta[0], c.alta[1], 0)
			if got.salida != c.salida {
				t.Errorf("salida:\n%s\nse esperaba:\n%s", got.salida, c.salida)
			}
			if got.codigo != c.codigo {
				t.Errorf("código de salida %d, se esperaba %d", got.codigo, c.codigo)
			}
			if len(got.esperas) != len(c.esperas) {
				t.Fatalf("esperas %v, se esperaba %v", got.esperas, c.esperas)
			}
			for i := range c.esperas {
				if got.esperas[i] != c.esperas[i] {
					t.Errorf("espera %d: %v, se esperaba %v", i, got.esperas[i], c.esperas[i])
				}
			}
			// Every attempt sends the same bytes and the same key.
			cuerpo := `{"nombre":"` + c.alta[0] + `","url":"` + c.alta[1] + `"}`
			for i, v := range vistas() {
				if v.cuerpo != cuerpo {
					t.Errorf("intento %d mandó %q", i+1, v.cuerpo)
				}
				llave, hay := v.cabeceras["Idempotency-Key"]
				if c.sinLlave == hay || (hay && llave[0] != llaveFija) {
					t.Errorf("intento %d: Idempotency-Key %q", i+1, llave)
				}
				if v.cabeceras.Get("Authorization") != "Bearer escritura-a" || v.cabeceras.Get("Content-Type") != "application/json" ||
					v.cabeceras.Get("X-Simular") != "perder-primera" {
					t.Errorf("intento %d: cabeceras %v", i+1, v.cabeceras)
				}
			}
		})
	}
}

// S-F6 / S-I36: a server that accepts and never answers; each attempt is cut by the limit. Time is
// what is under test, so the client and the silent server run in a testing/synctest bubble, over
// in-memory connections: its clock moves only when both wait, and four attempts take exactly four
// limits, however loaded the machine is.
func TestMudo(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		ln := prueba.NuevaEscuchaEnMemoria()
		var atendiendo sync.WaitGroup
		atendiendo.Go(func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				atendiendo.Go(func() { io.Copy(io.Discard, c); c.Close() }) // never answers
			}
		})
		transporte := &http.Transport{DialContext: ln.Dial}
		limite, texto := LimiteDeEntorno("300", true)
		var out bytes.Buffer
		inicio := time.Now()
		politica := reintento.PoliticaAlta()
		politica.Dormir = func(context.Context, time.Duration) error { return nil }
		codigo := Correr(context.Background(), Opciones{
			Nombre: "muda", URL: "http://127.0.0.1:18081/codigo/200", Pasarela: "http://127.0.0.1:18082",
			Limite: limite, LimiteTexto: texto, Salida: &out, Llave: func() string { return llaveFija },
			Politica: politica, Cliente: &http.Client{Transport: transporte},
		})
		duro := time.Since(inicio)
		transporte.CloseIdleConnections()
		ln.Close()
		atendiendo.Wait()
		want := "intento 1: sin respuesta (tiempo agotado: 300 ms)\n  espero entre 0 y 500 ms y reintento con la misma llave\n" +
			"intento 2: sin respuesta (tiempo agotado: 300 ms)\n  espero entre 0 y 1000 ms y reintento con la misma llave\n" +
			"intento 3: sin respuesta (tiempo agotado: 300 ms)\n  espero entre 0 y 2000 ms y reintento con la misma llave\n" +
			"intento 4: sin respuesta (tiempo agotado: 300 ms)\nse agotaron los 4 intentos sin una respuesta definitiva; repetir más tarde con la llave " + llaveFija + " es seguro\n"
		if out.String() != want || codigo != 1 {
			t.Fatalf("código %d, salida:\n%s", codigo, out.String())
		}
		if duro != 4*300*time.Millisecond {
			t.Fatalf("cuatro intentos de 300 ms tardaron %v", duro)
		}
		if n := ln.Marcadas(); n != 4 {
			t.Errorf("%d conexiones para cuatro intentos", n)
		}
	})
}

// Network failures are named with Node's codes.
func TestCodigoDeNode(t *testing.T) {
	t.Parallel()
	servir := func(atender func(net.Conn)) string {
		return "http://" + prueba.ServidorCrudo(t, func(c net.Conn) {
			bufio.NewReader(c).ReadString('\n')
			atender(c)
		})
	}
	rechaza := "http://127.0.0.1:" + strconv.Itoa(prueba.PuertosLibres(t, 1)[0]) // nobody listens
	casos := []struct {
		nombre, base, want string
	}{
		{"nadie escucha", rechaza, "ECONNREFUSED"},
		{"cuelga sin responder", servir(func(c net.Conn) { c.Close() }), "UND_ERR_SOCKET"},
		{"responde algo que no es HTTP", servir(func(c net.Conn) { io.WriteString(c, "esto no es HTTP\r\n\r\n"); c.Close() }), "HPE_INVALID_CONSTANT"},
		{"reinicia la conexión", servir(func(c net.Conn) { c.(*net.TCPConn).SetLinger(0); c.Close() }), "ECONNRESET"},
		{"trozos mal contados", servir(func(c net.Conn) {
			io.WriteString(c, "HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nab\n\r\n")
			c.Close()
		}), "HPE_INVALID_CHUNK_SIZE"},
		{"corta a media respuesta", servir(func(c net.Conn) { io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nab"); c.Close() }), "UND_ERR_SOCKET"},
		// NXDOMAIN where a DNS server answers, EAI_AGAIN where none can be reached (CI, a private
		// network): Node reports the same two codes.
		{"nombre que no existe", "http://no-existe.invalid", "ENOTFOUND|EAI_AGAIN"},
	}
	for _, c := range casos {
		t.Run(c.nombre, func(t *testing.T) {
			t.Parallel()
			o := Opciones{Pasarela: c.base, Limite: 2 * time.Second}
			o.completar()
			i := o.intentar(context.Background(), "k", []byte("{}"), traza.Nueva())
			if !slices.Contains(strings.Split(c.want, "|"), i.SinRespuesta) {
				t.Fatalf("sin respuesta %q (código %d), se esperaba %q", i.SinRespuesta, i.Codigo, c.want)
			}
		})
	}
}

func TestLimiteDeEntorno(t *testing.T) {
	t.Parallel()
	casos := []struct {
		valor string
		hay   bool
		want  time.Duration
		texto string
	}{
		{"", false, 2000 * time.Millisecond, "2000"},
		{"", true, 2000 * time.Millisecond, "2000"},
		{"300", true, 300 * time.Millisecond, "300"},
		{" 150 ", true, 150 * time.Millisecond, "150"},
		{"3e2", true, 300 * time.Millisecond, "300"},
		{"0x12c", true, 300 * time.Millisecond, "300"},
		{"300.5", true, 300500 * time.Microsecond, "300.5"},
		{"0", true, 2000 * time.Millisecond, "2000"},
		{"-5", true, 2000 * time.Millisecond, "2000"},
		{"abc", true, 2000 * time.Millisecond, "2000"},
		{"1_000", true, 2000 * time.Millisecond, "2000"},
		{"Infinity", true, 2000 * time.Millisecond, "2000"},
	}
	for _, c := range casos {
		d, texto := LimiteDeEntorno(c.valor, c.hay)
		if d != c.want || texto != c.texto {
			t.Errorf("ALTA_LIMITE_MS=%q: %v %q, se esperaba %v %q", c.valor, d, texto, c.want, c.texto)
		}
	}
}

func TestCuerpo(t *testing.T) {
	t.Parallel()
	if got := string(Cuerpo("ñandú <a>", "http://x/\u2028")); got != `{"nombre":"ñandú <a>","url":"http://x/`+"\u2028"+`"}` {
		t.Fatalf("%s", got)
	}
}

// What alta-segura says about its waits and attempts comes from the policy it runs, not from the
// course's numbers: another policy, other lines.
func TestLoQueDiceSaleDeLaPolitica(t *testing.T) {
	t.Parallel()
	base, _ := guionista(t, guion{502, "", sinRev})
	var out bytes.Buffer
	var esperas []time.Duration
	politica := reintento.PoliticaAlta()
	politica.Intentos, politica.Base, politica.Tope = 3, 100*time.Millisecond, 300*time.Millisecond
	politica.Azar = func() float64 { return 1 }
	politica.Dormir = func(_ context.Context, d time.Duration) error { esperas = append(esperas, d); return nil }
	codigo := Correr(context.Background(), Opciones{Nombre: "a", URL: "u", Pasarela: base, Salida: &out,
		Llave: func() string { return llaveFija }, Politica: politica})
	want := "intento 1: 502 " + sinRev + "\n  espero entre 0 y 200 ms y reintento con la misma llave\n" +
		"intento 2: 502 " + sinRev + "\n  espero entre 0 y 300 ms y reintento con la misma llave\n" +
		"intento 3: 502 " + sinRev + "\nse agotaron los 3 intentos sin una respuesta definitiva; repetir más tarde con la llave " + llaveFija + " es seguro\n"
	if codigo != 1 || out.String() != want || !slices.Equal(esperas, []time.Duration{200 * time.Millisecond, 300 * time.Millisecond}) {
		t.Fatalf("código %d, esperas %v, salida:\n%s", codigo, esperas, out.String())
	}
}

// What the retry policy sees of an attempt: the 409's type is read from the body whatever its
// Content-Type, and only a JSON object whose last "type" is a string counts (JSON.parse's reading).
func TestResultadoDeUnIntento(t *testing.T) {
	t.Parallel()
	regla := reintento.ReglaAlta()
	casos := []struct {
		intento Intento
		want    bool
	}{
		{Intento{SinRespuesta: "ECONNREFUSED"}, true},
		{Intento{SinRespuesta: "tiempo agotado: 2000 ms"}, true},
		{Intento{Codigo: 502, Cuerpo: sinRev}, true},
		{Intento{Codigo: 503, Cuerpo: mant}, true},
		{Intento{Codigo: 409, Cuerpo: enCurso}, true},
		{Intento{Codigo: 409, Cuerpo: repetido}, false},
		{Intento{Codigo: 409, Cuerpo: otro409}, false},
		{Intento{Codigo: 409, Cuerpo: `{"type":"https://revisor.example/problemas/llave-en-curso","type":"about:blank"}`}, false},
		{Intento{Codigo: 409, Cuerpo: `["https://revisor.example/problemas/llave-en-curso"]`}, false},
		{Intento{Codigo: 409, Cuerpo: `no es JSON`}, false},
		{Intento{Codigo: 422, Cuerpo: invalida}, false},
		{Intento{Codigo: 429, Cuerpo: "{}"}, false},
		{Intento{Codigo: 500, Cuerpo: "{}"}, false},
		{Intento{Codigo: 201, Cuerpo: agenda}, false},
	}
	for _, c := range casos {
		if got := regla.Reintentable(c.intento.resultado()); got != c.want {
			t.Errorf("%+v: reintentable %v", c.intento, got)
		}
	}
	r := Intento{Codigo: 503, Cuerpo: mant, ReintentarEn: 120, HayReintentar: true}.resultado()
	if r != (reintento.Resultado{Respondio: true, Codigo: 503, Type: "https://revisor.example/problemas/en-mantenimiento", RetryAfter: 120, HayRetryAfter: true}) {
		t.Errorf("resultado %+v", r)
	}
}

// Ctrl+C mid-attempt or mid-wait stops quietly with 130, as the course's program dies of SIGINT:
// the cut attempt is not reported as "sin respuesta" and nothing more is tried.
func TestInterrumpido(t *testing.T) {
	t.Parallel()
	// Ctrl+C comes while the first attempt waits for an answer that never comes.
	ctx, cancelar := context.WithCancel(context.Background())
	var peticiones atomic.Int32
	addr := prueba.ServidorCrudo(t, func(c net.Conn) {
		peticiones.Add(1)
		cancelar()
		io.Copy(io.Discard, c) // never answers
	})
	var out bytes.Buffer
	codigo := Correr(ctx, Opciones{Nombre: "a", URL: "http://127.0.0.1:18081/codigo/200", Pasarela: "http://" + addr, Salida: &out})
	if codigo != curso.Interrumpido || out.Len() != 0 || peticiones.Load() != 1 {
		t.Fatalf("durante el intento: código %d, %d peticiones, salida %q", codigo, peticiones.Load(), out.String())
	}

	// During the wait between attempts.
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Retry-After"] = []string{"3"}
		w.WriteHeader(503)
	}))
	t.Cleanup(ts.Close)
	ctx, cancelar = context.WithCancel(context.Background())
	defer cancelar()
	out.Reset()
	politica := reintento.PoliticaAlta()
	politica.Dormir = func(context.Context, time.Duration) error { cancelar(); return context.Canceled }
	codigo = Correr(ctx, Opciones{Nombre: "a", URL: "u", Pasarela: ts.URL, Salida: &out, Politica: politica})
	if codigo != curso.Interrumpido || out.String() != "intento 1: 503 \n  el servidor pide esperar 3 s (Retry-After); espero 3 s y reintento con la misma llave\n" {
		t.Fatalf("durante la espera: código %d, salida %q", codigo, out.String())
	}
}
