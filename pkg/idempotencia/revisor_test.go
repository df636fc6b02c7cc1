package idempotencia_test

// The store wired into the real revisor's POST /servicios: the guarantees a student relies on.

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cursohttp/internal/prueba"
	"cursohttp/internal/prueba/almacentest"
	"cursohttp/internal/prueba/servidortest"
	"cursohttp/pkg/almacen"
	"cursohttp/pkg/bitacora"
	"cursohttp/pkg/destinos"
	"cursohttp/pkg/idempotencia"
	"cursohttp/pkg/ordenes/comprobar"
	"cursohttp/pkg/revisor"

	"github.com/rs/zerolog"
)

// conLlaves is the course's store in memory with the key records configured by o.
func conLlaves(o idempotencia.Opciones) *almacen.Memoria {
	return almacen.NuevaMemoria(almacen.Opciones{Semillas: almacen.Semillas(), Llaves: o})
}

func levantarRevisor(t *testing.T, llaves idempotencia.Opciones) (string, *prueba.Buffer) {
	t.Helper()
	log := &prueba.Buffer{}
	rv := revisor.Nuevo(revisor.Opciones{Log: bitacora.NuevoLogger(log, log, false), Almacen: conLlaves(llaves)})
	ts := servidortest.Nuevo(t, rv)
	t.Cleanup(rv.Cerrar)
	return ts.URL, log
}

type respuestaAlta struct {
	codigo   int
	location string
	etag     string
	cuerpo   string
}

func alta(t *testing.T, base, credencial, llave, cuerpo string) respuestaAlta {
	t.Helper()
	req, _ := http.NewRequest("POST", base+"/servicios", strings.NewReader(cuerpo))
	req.Header.Set("Authorization", "Bearer "+credencial)
	req.Header.Set("Content-Type", "application/json")
	if llave != "" {
		req.Header["Idempotency-Key"] = []string{llave}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Error(err)
		return respuestaAlta{}
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return respuestaAlta{resp.StatusCode, resp.Header.Get("Location"), resp.Header.Get("ETag"), string(b)}
}

func pedir(t *testing.T, metodo, url string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(metodo, url, nil)
	req.Header.Set("Authorization", "Bearer escritura-a")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

const avisos = `{"nombre":"avisos","url":"http://127.0.0.1:18081/codigo/200"}`

// 100 simultaneous POSTs with one key and one body create exactly one service; every answer is
// that 201 (same Location, same bytes) or the 409 en curso.
func TestCienAltasSimultaneas(t *testing.T) {
	t.Parallel()
	base, _ := levantarRevisor(t, idempotencia.Opciones{})
	var wg sync.WaitGroup
	respuestas := make([]respuestaAlta, 100)
	inicio := make(chan struct{})
	for i := range respuestas {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-inicio
			respuestas[i] = alta(t, base, "escritura-a", "cien-1", `{"nombre":"cien","url":"http://127.0.0.1:18081/codigo/200"}`)
		}()
	}
	close(inicio)
	wg.Wait()
	creadas := 0
	var primera respuestaAlta
	for _, r := range respuestas {
		switch {
		case r.codigo == 201:
			creadas++
			if primera.codigo == 0 {
				primera = r
			} else if r != primera {
				t.Errorf("dos 201 distintos:\n%+v\n%+v", primera, r)
			}
		case r.codigo == 409 && strings.Contains(r.cuerpo, `"type":"https://revisor.example/problemas/llave-en-curso"`):
		default:
			t.Errorf("respuesta inesperada %+v", r)
		}
	}
	if creadas == 0 || primera.location != "/servicios/7" {
		t.Fatalf("ningún 201 con /servicios/7: %+v", primera)
	}
	// After the original finishes, a repeat is the same 201.
	if r := alta(t, base, "escritura-a", "cien-1", `{"nombre":"cien","url":"http://127.0.0.1:18081/codigo/200"}`); r != primera {
		t.Fatalf("la repetición dio %+v", r)
	}
	_, lista := pedir(t, "GET", base+"/servicios")
	if n := strings.Count(lista, `"nombre":"cien"`); n != 1 {
		t.Fatalf("%d servicios «cien»: %s", n, lista)
	}
}

// Series D and G against the real handler.
func TestSeriesDyG(t *testing.T) {
	t.Parallel()
	base, log := levantarRevisor(t, idempotencia.Opciones{})
	primera := alta(t, base, "escritura-a", "alta-avisos-1", avisos)
	if primera.codigo != 201 || primera.location != "/servicios/7" ||
		primera.cuerpo != `{"id":7,"nombre":"avisos","url":"http://127.0.0.1:18081/codigo/200","limite_ms":2000}`+"\n" {
		t.Fatalf("S-D1: %+v", primera)
	}
	casos := []struct {
		nombre, credencial, llave, cuerpo string
		codigo                            int
		contiene                          string
	}{
		{"S-D2 la misma", "escritura-a", "alta-avisos-1", avisos, 201, primera.cuerpo},
		{"S-G2 con espacios", "escritura-a", "alta-avisos-1", `{ "nombre" : "avisos" ,  "url" : "http://127.0.0.1:18081/codigo/200" }`, 201, primera.cuerpo},
		{"S-D3 otro cuerpo", "escritura-a", "alta-avisos-1", `{"nombre":"correo","url":"http://127.0.0.1:18081/codigo/200"}`, 422,
			`{"type":"https://revisor.example/problemas/llave-reutilizada","title":"Esa Idempotency-Key ya se usó con otra petición","status":422,"detail":"la llave alta-avisos-1 ya se usó con un cuerpo distinto","instance":"/servicios"}` + "\n"},
		{"S-G3 otro orden", "escritura-a", "alta-avisos-1", `{"url":"http://127.0.0.1:18081/codigo/200","nombre":"avisos"}`, 422, "llave-reutilizada"},
		{"S-G4 con el valor por omisión", "escritura-a", "alta-avisos-1", `{"nombre":"avisos","url":"http://127.0.0.1:18081/codigo/200","limite_ms":2000}`, 422, "llave-reutilizada"},
		{"S-G5 datos inválidos", "escritura-a", "alta-agenda-1", `{"nombre":"agenda","url":"ftp://agenda"}`, 422, "datos-invalidos"},
		{"S-G6 corregida con la misma llave", "escritura-a", "alta-agenda-1", `{"nombre":"agenda","url":"http://127.0.0.1:18081/codigo/200"}`, 201, `"id":8`},
		{"S-G10 la llave es de quien la manda", "escritura-b", "alta-agenda-1", `{"nombre":"agenda","url":"http://127.0.0.1:18081/codigo/200"}`, 201, `"id":9`},
		{"S-G11 las comillas son parte de la llave", "escritura-a", `"alta-agenda-1"`, `{"nombre":"agenda","url":"http://127.0.0.1:18081/codigo/200"}`, 409, "nombre-repetido"},
		{"una llave vacía es no tener llave", "escritura-a", "", avisos, 409, "nombre-repetido"},
		{"un cuerpo que no se lee no aparta la llave", "escritura-a", "alta-avisos-1", "", 400, "cuerpo-ilegible"},
	}
	for _, c := range casos {
		r := alta(t, base, c.credencial, c.llave, c.cuerpo)
		if r.codigo != c.codigo || !strings.Contains(r.cuerpo, c.contiene) {
			t.Errorf("%s: %d %s", c.nombre, r.codigo, r.cuerpo)
		}
	}
	// S-G7..G9: the recorded response is replayed even after the service was retired.
	if c, _ := pedir(t, "DELETE", base+"/servicios/7"); c != 204 {
		t.Fatalf("DELETE: %d", c)
	}
	if r := alta(t, base, "escritura-a", "alta-avisos-1", avisos); r != primera {
		t.Fatalf("S-G8: %+v, se esperaba %+v", r, primera)
	}
	if c, _ := pedir(t, "GET", base+"/servicios/7"); c != 410 {
		t.Fatalf("S-G9: %d", c)
	}
	if n := strings.Count(log.String(), "idempotencia: la llave alta-avisos-1 ya se atendió; repito su respuesta\n"); n != 3 {
		t.Fatalf("bitácora:\n%s", log.String())
	}
}

// S-D4: the same key while the original is inside its 500 ms save → 409 at once; the original 201.
// The store holds the original at its creation until the second has its answer: a 409 that waited
// for the original would never come.
func TestEnCursoRevisor(t *testing.T) {
	t.Parallel()
	av := &almacentest.Avisador{Almacen: conLlaves(idempotencia.Opciones{})}
	tomada, soltar := make(chan struct{}), make(chan struct{})
	var una sync.Once
	av.Al(almacentest.Ganchos{
		AlTomar: func(llave string, tipo idempotencia.Tipo) {
			if tipo == idempotencia.Nueva {
				una.Do(func() { close(tomada) })
			}
		},
		AlCrear: func(string) { <-soltar },
	})
	rv := revisor.Nuevo(revisor.Opciones{Log: zerolog.Nop(), Almacen: av})
	t.Cleanup(rv.Cerrar)
	base := servidortest.Nuevo(t, rv).URL
	correo := `{"nombre":"correo","url":"http://127.0.0.1:18081/codigo/200"}`
	original := make(chan respuestaAlta, 1)
	go func() { original <- alta(t, base, "escritura-a", "alta-correo-1", correo) }()
	<-tomada
	segunda := alta(t, base, "escritura-a", "alta-correo-1", correo)
	close(soltar)
	want := `{"type":"https://revisor.example/problemas/llave-en-curso","title":"Esa Idempotency-Key sigue en curso","status":409,"detail":"la petición original con la llave alta-correo-1 todavía no termina","instance":"/servicios"}` + "\n"
	if segunda.codigo != 409 || segunda.cuerpo != want {
		t.Fatalf("segunda: %+v", segunda)
	}
	if p := <-original; p.codigo != 201 {
		t.Fatalf("primera: %+v", p)
	}
}

// Series N (exercise 3) with a fake clock: an expired key is served as new.
func TestVigenciaRevisor(t *testing.T) {
	t.Parallel()
	var (
		mu    sync.Mutex
		ahora = time.Date(2026, 10, 21, 22, 0, 0, 0, time.UTC)
	)
	reloj := func() time.Time { mu.Lock(); defer mu.Unlock(); return ahora }
	pasar := func(d time.Duration) { mu.Lock(); ahora = ahora.Add(d); mu.Unlock() }
	base, _ := levantarRevisor(t, idempotencia.Opciones{Vigencia: 5 * time.Second, Reloj: reloj})
	if r := alta(t, base, "escritura-a", "vence-1", avisos); r.codigo != 201 || r.location != "/servicios/7" {
		t.Fatalf("1: %+v", r)
	}
	if r := alta(t, base, "escritura-a", "vence-1", avisos); r.codigo != 201 || r.location != "/servicios/7" {
		t.Fatalf("2: %+v", r)
	}
	pasar(6 * time.Second)
	if r := alta(t, base, "escritura-a", "vence-1", avisos); r.codigo != 409 || !strings.Contains(r.cuerpo, `"existente":"/servicios/7"`) {
		t.Fatalf("3: %+v", r)
	}
	agenda := `{"nombre":"agenda","url":"http://127.0.0.1:18081/codigo/200"}`
	if r := alta(t, base, "escritura-a", "vence-2", agenda); r.location != "/servicios/8" {
		t.Fatalf("4: %+v", r)
	}
	pedir(t, "DELETE", base+"/servicios/8")
	pasar(6 * time.Second)
	if r := alta(t, base, "escritura-a", "vence-2", agenda); r.codigo != 201 || r.location != "/servicios/9" {
		t.Fatalf("5: %+v", r)
	}
}

// S-J: the course's five checks pass against the real revisor.
func TestComprobadorContraElRevisor(t *testing.T) {
	t.Parallel()
	base, _ := levantarRevisor(t, idempotencia.Opciones{})
	var out bytes.Buffer
	if codigo := comprobar.ComprobarIdempotencia(context.Background(), base, &out); codigo != 0 ||
		!strings.HasSuffix(out.String(), "\n5 de 5 comprobaciones de idempotencia pasaron\n") {
		t.Fatalf("código %d:\n%s", codigo, out.String())
	}
}

// Issue 16: escritura-a's registration under «victima-1» is still replayed after escritura-b used
// many more keys than the store holds (on the shared store it became 409 nombre-repetido, a
// definitive failure for a registration that happened).
func TestLlavesDeOtraCredencialNoDesalojanLaTuya(t *testing.T) {
	t.Parallel()
	rv := revisor.Nuevo(revisor.Opciones{Guardar: time.Millisecond, Almacen: conLlaves(idempotencia.Opciones{Tope: 50})})
	t.Cleanup(rv.Cerrar)
	base := servidortest.Nuevo(t, rv).URL
	victima := `{"nombre":"victima","url":"http://127.0.0.1:18081/codigo/200"}`
	primera := alta(t, base, "escritura-a", "victima-1", victima)
	if primera.codigo != 201 {
		t.Fatalf("el alta original: %+v", primera)
	}
	for i := range 120 {
		n := strconv.Itoa(i)
		if r := alta(t, base, "escritura-b", "b-"+n, `{"nombre":"b-`+n+`","url":"http://127.0.0.1:18081/codigo/200"}`); r.codigo != 201 {
			t.Fatalf("alta %d de escritura-b: %+v", i, r)
		}
	}
	if r := alta(t, base, "escritura-a", "victima-1", victima); r != primera {
		t.Fatalf("tras 120 llaves de escritura-b, repetir victima-1 dio %d %s; se esperaba el mismo 201", r.codigo, r.cuerpo)
	}
}

// dnsColgado answers nothing until soltar is closed: a resolver as slow as an attacker can make it.
type dnsColgado struct {
	soltar    chan struct{}
	preguntas atomic.Int64
}

func (d *dnsColgado) LookupNetIP(ctx context.Context, _, _ string) ([]netip.Addr, error) {
	d.preguntas.Add(1)
	select {
	case <-d.soltar:
		return []netip.Addr{netip.MustParseAddr("93.184.216.34")}, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Issue 16: registrations hanging on a slow DNS lookup cannot pile up reservations: past the
// credential's bound on keys in progress, one more is refused at once with 429, and another
// credential is not affected.
func TestAltasColgadasEnElDNS(t *testing.T) {
	t.Parallel()
	dns := &dnsColgado{soltar: make(chan struct{})}
	const enCurso = 4
	rv := revisor.Nuevo(revisor.Opciones{Guardar: time.Millisecond,
		Verificador: destinos.Nuevo(nil, dns),
		Almacen:     conLlaves(idempotencia.Opciones{EnCursoPorCredencial: enCurso})})
	t.Cleanup(rv.Cerrar)
	base := servidortest.Nuevo(t, rv).URL
	colgadas := make(chan respuestaAlta, enCurso)
	for i := range enCurso {
		n := strconv.Itoa(i)
		go func() {
			colgadas <- alta(t, base, "escritura-b", "dns-"+n, `{"nombre":"dns-`+n+`","url":"http://colgado.example/"}`)
		}()
	}
	prueba.Esperar(t, "las altas colgadas preguntan al DNS", func() bool { return dns.preguntas.Load() >= enCurso })
	t0 := time.Now()
	r := alta(t, base, "escritura-b", "dns-mas", `{"nombre":"dns-mas","url":"http://colgado.example/"}`)
	if r.codigo != 429 || !strings.Contains(r.cuerpo, `"type":"https://revisor.example/problemas/demasiadas-altas-en-curso"`) || time.Since(t0) > time.Second {
		t.Errorf("con %d altas colgadas en el DNS, una más: %d %s (en %s); se esperaba 429 enseguida", enCurso, r.codigo, r.cuerpo, time.Since(t0))
	}
	if r := alta(t, base, "escritura-a", "de-a-1", avisos); r.codigo != 201 {
		t.Errorf("escritura-a no debía notar las de escritura-b: %+v", r)
	}
	close(dns.soltar)
	for range enCurso {
		if r := <-colgadas; r.codigo != 201 {
			t.Errorf("una alta colgada, al responder el DNS: %+v", r)
		}
	}
}
