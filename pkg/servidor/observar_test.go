package servidor

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"cursohttp/internal/prueba"
	"cursohttp/pkg/eventos"
	"cursohttp/pkg/traza"
)

const padre = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

// Without --log-json, --log-detalle or --panel the server is the course's: Envolver adds nothing.
func TestSinObservarNoEnvuelve(t *testing.T) {
	t.Parallel()
	h := http.NotFoundHandler()
	if got := (Observacion{Log: NuevoLogger(io.Discard, io.Discard, false)}).Envolver(h); reflect.ValueOf(got).Pointer() != reflect.ValueOf(h).Pointer() {
		t.Fatal("sin observar, Envolver cambió el manejador")
	}
}

// The JSON log: each line has the time to the microsecond, and a request's lines its trace.
func TestJSONConTrazaYHoraFina(t *testing.T) {
	t.Parallel()
	var out prueba.Buffer
	log := NuevoLogger(&out, io.Discard, true)
	obs := Observacion{Programa: "revisor", Log: log, JSON: true}
	h := obs.Envolver(Registrar(log, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
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
		if _, err := time.Parse(FormatoHora, m["time"].(string)); err != nil || len(m["time"].(string)) < len("2006-01-02T15:04:05.000000Z") {
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
	log := NuevoLogger(&out, io.Discard, false)
	obs := Observacion{Programa: "revisor", Log: log, Detalle: true}
	h := obs.Envolver(Registrar(log, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
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

// --panel sends one event per request, in its trace, to a real panel endpoint.
func TestEventoAlPanel(t *testing.T) {
	t.Parallel()
	recibidos := make(chan eventos.Evento, 10)
	panel := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/eventos" || r.Header.Get("Content-Type") != eventos.Tipo || r.Header.Get("Authorization") != "Bearer del-laboratorio" {
			t.Errorf("%s %s %s %q", r.Method, r.URL, r.Header.Get("Content-Type"), r.Header.Get("Authorization"))
		}
		sc := bufio.NewScanner(r.Body)
		for sc.Scan() {
			var ev eventos.Evento
			if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
				t.Errorf("%q: %v", sc.Text(), err)
			}
			recibidos <- ev
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer panel.Close()
	// --panel and --token, as the lab controller's servers have them.
	obs, cerrar := Opciones{Panel: panel.URL, Token: "del-laboratorio"}.Observar("revisor", NuevoLogger(io.Discard, io.Discard, false))
	emisor := obs.Panel
	h := obs.Envolver(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		RegistroDe(r.Context()).Resultado = "respuesta repetida"
		w.Write([]byte("hola"))
	}))
	r := httptest.NewRequest("POST", "/servicios", nil)
	r.Header.Set("traceparent", padre)
	r.Header.Set("Idempotency-Key", "alta-1")
	h.ServeHTTP(httptest.NewRecorder(), r)
	emisor.Cerrar(5 * time.Second)
	cerrar()
	select {
	case ev := <-recibidos:
		if ev.Programa != "revisor" || ev.Tipo != eventos.Peticion || ev.Traza != "4bf92f3577b34da6a3ce929d0e0e4736" ||
			ev.Padre != "00f067aa0ba902b7" || len(ev.Tramo) != 16 || ev.Metodo != "POST" || ev.Ruta != "/servicios" ||
			ev.Codigo != 200 || ev.Llave != "alta-1" || ev.Resultado != "respuesta repetida" || ev.Inicio.IsZero() {
			t.Errorf("evento %+v", ev)
		}
	default:
		t.Fatal("el panel no recibió el evento")
	}
}

func TestValidarPanel(t *testing.T) {
	t.Parallel()
	for valor, ok := range map[string]bool{"": true, "http://127.0.0.1:18084": true, "https://x": true, "127.0.0.1:18084": false, "ftp://x": false, "http://": false} {
		if err := ValidarPanel(valor); (err == nil) != ok {
			t.Errorf("ValidarPanel(%q) = %v", valor, err)
		}
	}
}

// BenchmarkRegistrarJSON is the request line with --log-json: the trace and the time cost no
// allocation of their own.
func BenchmarkRegistrarJSON(b *testing.B) {
	log := NuevoLogger(io.Discard, io.Discard, true)
	h := Registrar(log, http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	r, _ := http.NewRequest("GET", "/servicios/1", nil)
	r.RequestURI = "/servicios/1"
	r.RemoteAddr = "127.0.0.1:54321"
	tc := traza.Nueva()
	r = r.WithContext(traza.EnContexto(r.Context(), &tc))
	b.ReportAllocs()
	for b.Loop() {
		h.ServeHTTP(nil, r)
	}
}

// BenchmarkObservar is what --log-detalle adds to a request (without the write itself).
func BenchmarkObservar(b *testing.B) {
	log := NuevoLogger(io.Discard, io.Discard, false)
	h := Observacion{Programa: "revisor", Log: log, Detalle: true}.Envolver(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
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
