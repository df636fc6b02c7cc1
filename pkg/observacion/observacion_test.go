package observacion

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"cursohttp/internal/prueba"
	"cursohttp/pkg/bitacora"
	"cursohttp/pkg/traza"
)

const padre = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

// Without --log-json, --log-detalle or --panel the server is the course's: Envolver adds nothing.
func TestSinObservarNoEnvuelve(t *testing.T) {
	t.Parallel()
	h := http.NotFoundHandler()
	if got := (Observador{Log: bitacora.NuevoLogger(io.Discard, io.Discard, false)}).Envolver(h); reflect.ValueOf(got).Pointer() != reflect.ValueOf(h).Pointer() {
		t.Fatal("sin observar, Envolver cambió el manejador")
	}
}

// The JSON log: each line has the time to the microsecond, and a request's lines its trace.
func TestJSONConTrazaYHoraFina(t *testing.T) {
	t.Parallel()
	var out prueba.Buffer
	log := bitacora.NuevoLogger(&out, io.Discard, true)
	obs := Observador{Programa: "revisor", Log: log, JSON: true}
	h := obs.Envolver(bitacora.Registrar(log, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.Info().Ctx(r.Context()).Msg("dentro")
	})))
	log.Info().Msg("sin petición")
	r := httptest.NewRequest("GET", "/servicios", nil)
	r.Header.Set("traceparent", padre)
	h.ServeHTTP(httptest.NewRecorder(), r)

	lineas := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lineas) != 3 {
		t.Fatalf("líneas:\n%s", out.String())
	}
	for i, l := range lineas {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		if _, err := time.Parse(bitacora.FormatoHora, m["time"].(string)); err != nil || len(m["time"].(string)) < len("2006-01-02T15:04:05.000000Z") {
			t.Errorf("hora %q", m["time"])
		}
		if i == 0 {
			if _, hay := m["traza"]; hay {
				t.Errorf("una línea sin petición no tiene traza: %s", l)
			}
			continue
		}
		if m["traza"] != "4bf92f3577b34da6a3ce929d0e0e4736" || m["padre"] != "00f067aa0ba902b7" || len(m["tramo"].(string)) != 16 {
			t.Errorf("línea de la petición sin su traza: %s", l)
		}
	}
}

// The detailed line says what a student asks of a request; the gateway's also what the revisor did.
func TestLineaDetalle(t *testing.T) {
	t.Parallel()
	tc, _ := traza.Leer(padre)
	base := Registro{Contexto: tc, Metodo: "POST", Ruta: "/servicios"}
	casos := []struct {
		cambiar func(*Registro)
		dur     time.Duration
		want    string
	}{
		{func(r *Registro) { r.Codigo = 201; r.Llave = "alta-1" }, 503 * time.Millisecond,
			"detalle: POST /servicios → 201 Created en 503 ms · llave alta-1 · traza 4bf92f3577b34da6a3ce929d0e0e4736"},
		{func(r *Registro) { r.Codigo = 201; r.Resultado = "respuesta repetida" }, 420 * time.Microsecond,
			"detalle: POST /servicios → 201 Created (respuesta repetida) en 0.42 ms · traza 4bf92f3577b34da6a3ce929d0e0e4736"},
		{func(r *Registro) {
			r.Pasarela, r.Llego, r.Revisor, r.Codigo, r.Falla, r.Resultado = true, true, 201, 502, "perder-primera", "respuesta perdida"
		}, 505 * time.Millisecond,
			"detalle: POST /servicios → revisor 201 Created · cliente 502 Bad Gateway (perder-primera: respuesta perdida) en 505 ms · traza 4bf92f3577b34da6a3ce929d0e0e4736"},
		{func(r *Registro) { r.Pasarela, r.Codigo, r.Falla = true, 502, "rechazar" }, 2 * time.Second,
			"detalle: POST /servicios → el revisor no la vio · cliente 502 Bad Gateway (rechazar) en 2000 ms · traza 4bf92f3577b34da6a3ce929d0e0e4736"},
		{func(r *Registro) { r.Pasarela, r.Llego, r.Codigo = true, true, 502 }, 12 * time.Second,
			"detalle: POST /servicios → el revisor no respondió · cliente 502 Bad Gateway en 12.0 s · traza 4bf92f3577b34da6a3ce929d0e0e4736"},
		{func(r *Registro) {
			r.Pasarela, r.Llego, r.Revisor, r.Falla, r.Resultado = true, true, 201, "reiniciar", "conexión reiniciada"
		}, 3 * time.Millisecond,
			"detalle: POST /servicios → revisor 201 Created · cliente sin respuesta (reiniciar: conexión reiniciada) en 3.00 ms · traza 4bf92f3577b34da6a3ce929d0e0e4736"},
	}
	for _, c := range casos {
		reg := base
		c.cambiar(&reg)
		if got := LineaDetalle(&reg, c.dur); got != c.want {
			t.Errorf("\n got %s\nwant %s", got, c.want)
		}
	}
}

// --log-detalle writes its line when the request ends, with the status written and the key; a
// handler that cuts the connection still gets its line.
func TestDetalleAlTerminar(t *testing.T) {
	t.Parallel()
	var out prueba.Buffer
	log := bitacora.NuevoLogger(&out, io.Discard, false)
	obs := Observador{Programa: "revisor", Log: log, Detalle: true}
	h := obs.Envolver(bitacora.Registrar(log, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/cortar" {
			w.WriteHeader(200)
			panic(http.ErrAbortHandler)
		}
		w.WriteHeader(http.StatusCreated)
	})))
	r := httptest.NewRequest("POST", "/servicios", nil)
	r.Header.Set("Idempotency-Key", "alta-1")
	r.Header.Set("traceparent", padre)
	h.ServeHTTP(httptest.NewRecorder(), r)
	func() {
		defer func() { recover() }()
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/cortar", nil))
	}()
	lineas := strings.Split(out.String(), "\n")
	if len(lineas) != 5 || lineas[0] != "POST /servicios" || lineas[2] != "GET /cortar" ||
		!strings.HasPrefix(lineas[1], "detalle: POST /servicios → 201 Created en ") ||
		!strings.HasSuffix(lineas[1], " ms · llave alta-1 · traza 4bf92f3577b34da6a3ce929d0e0e4736") ||
		!strings.HasPrefix(lineas[3], "detalle: GET /cortar → 200 OK en ") {
		t.Fatalf("bitácora:\n%s", out.String())
	}
}

// BenchmarkObservar is what --log-detalle adds to a request (without the write itself).
func BenchmarkObservar(b *testing.B) {
	log := bitacora.NuevoLogger(io.Discard, io.Discard, false)
	h := Observador{Programa: "revisor", Log: log, Detalle: true}.Envolver(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(200)
	}))
	r, _ := http.NewRequest("GET", "/servicios/1", nil)
	r.RequestURI = "/servicios/1"
	w := httptest.NewRecorder()
	b.ReportAllocs()
	for b.Loop() {
		h.ServeHTTP(w, r)
	}
}
