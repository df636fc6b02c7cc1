package laboratorio

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"cursohttp/internal/prueba"
	"cursohttp/internal/prueba/servidortest"
	"cursohttp/pkg/bitacora"
	"cursohttp/pkg/servidor"
)

func TestLeerRespuesta(t *testing.T) {
	t.Parallel()
	casos := []struct {
		texto string
		want  Respuesta
		error bool
	}{
		{texto: "201", want: Respuesta{Texto: "201", Codigo: 201}},
		{texto: "503:2", want: Respuesta{Texto: "503:2", Codigo: 503, Extra: "2", ConExtra: true}},
		{texto: "409:en-curso", want: Respuesta{Texto: "409:en-curso", Codigo: 409, Extra: "en-curso", ConExtra: true}},
		{texto: "409", want: Respuesta{Texto: "409", Codigo: 409}},
		{texto: "mudo", want: Respuesta{Texto: "mudo", Muda: true}},
		{texto: "201:x", want: Respuesta{Texto: "201:x", Codigo: 201, Extra: "x", ConExtra: true}},
		{texto: "503:", want: Respuesta{Texto: "503:", Codigo: 503, Extra: "", ConExtra: true}},
		{texto: "503:2:x", want: Respuesta{Texto: "503:2:x", Codigo: 503, Extra: "2", ConExtra: true}},
		{texto: "700", want: Respuesta{Texto: "700", Codigo: 700}},
		{texto: "999", want: Respuesta{Texto: "999", Codigo: 999}},
		{texto: "200", want: Respuesta{Texto: "200", Codigo: 200}},
		{texto: "abc", error: true},
		{texto: "", error: true},
		{texto: "99", error: true},
		{texto: "100", error: true},
		{texto: "199", error: true},
		{texto: "1000", error: true},
		{texto: " 201", error: true},
		{texto: "0x1F5", error: true},
		{texto: "503.7", error: true},
		{texto: "+201", error: true},
		{texto: "MUDO", error: true},
		{texto: "mudo:x", error: true},
		{texto: ":2", error: true},
		{texto: "503:2\r\nX: y", error: true},
	}
	for _, c := range casos {
		got, err := LeerRespuesta(c.texto)
		if c.error {
			if !errors.Is(err, ErrRespuesta) {
				t.Errorf("LeerRespuesta(%q) = %+v, %v; se esperaba un error", c.texto, got, err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("LeerRespuesta(%q) = %+v, %v; se esperaba %+v", c.texto, got, err, c.want)
		}
	}
}

func FuzzLeerRespuesta(f *testing.F) {
	for _, s := range []string{"201", "503:2", "409:en-curso", "mudo", "abc", "99", "700:x:y", "503:\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := LeerRespuesta(s)
		if err != nil {
			return
		}
		if r.Texto != s {
			t.Fatalf("Texto %q, se esperaba %q", r.Texto, s)
		}
		if !r.Muda && (r.Codigo < 200 || r.Codigo > 999) {
			t.Fatalf("%q dio el código %d", s, r.Codigo)
		}
		if strings.ContainsAny(r.Extra, "\r\n\x00") {
			t.Fatalf("%q dio un extra con caracteres de control", s)
		}
	})
}

func TestNuevaMentiraSinRespuestas(t *testing.T) {
	t.Parallel()
	if _, err := NuevaMentira(nil, nopLog(), OpcionesMentira{}); !errors.Is(err, ErrRespuesta) {
		t.Errorf("sin respuestas: %v", err)
	}
	if _, err := NuevaMentira([]string{"201", "abc"}, nopLog(), OpcionesMentira{}); !errors.Is(err, ErrRespuesta) || !strings.Contains(err.Error(), "«abc»") {
		t.Errorf("con una inválida: %v", err)
	}
}

func nuevaMentira(t *testing.T, pedidas ...string) (*Mentira, *registro, string) {
	t.Helper()
	return nuevaMentiraCon(t, OpcionesMentira{}, pedidas...)
}

func nuevaMentiraCon(t *testing.T, o OpcionesMentira, pedidas ...string) (*Mentira, *registro, string) {
	t.Helper()
	var log registro
	m, err := NuevaMentira(pedidas, bitacora.NuevoLogger(&log, &log, false), o)
	if err != nil {
		t.Fatal(err)
	}
	ts := servidortest.Nuevo(t, m)
	t.Cleanup(m.Cerrar)
	return m, &log, ts.Listener.Addr().String()
}

const postServicios = "POST /servicios HTTP/1.1\r\nHost: pasarela\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"

// TestMentiraGuion: the lesson's run "503:2 201" (S-F3), with the last answer repeating.
func TestMentiraGuion(t *testing.T) {
	t.Parallel()
	_, log, addr := nuevaMentira(t, "503:2", "201")
	esperadas := []struct {
		linea, retryAfter, tipo, cuerpo string
	}{
		{"HTTP/1.1 503 Service Unavailable", "2", "application/problem+json",
			`{"type":"about:blank","title":"respuesta de mentira","status":503}` + "\n"},
		{"HTTP/1.1 201 Created", "", "application/json", `{"id":99}` + "\n"},
		{"HTTP/1.1 201 Created", "", "application/json", `{"id":99}` + "\n"},
	}
	for i, e := range esperadas {
		r := partir(prueba.PedirCrudo(t, addr, postServicios))
		if r.linea != e.linea || r.cabeceras["Retry-After"] != e.retryAfter || r.cabeceras["Content-Type"] != e.tipo || r.cuerpo != e.cuerpo {
			t.Errorf("petición %d: %q", i+1, r.todo)
		}
		if r.cabeceras["Content-Length"] != strconv.Itoa(len(e.cuerpo)) {
			t.Errorf("petición %d: Content-Length %q", i+1, r.cabeceras["Content-Length"])
		}
		if _, ok := r.cabeceras["Location"]; ok {
			t.Errorf("petición %d: la mentira no manda Location", i+1)
		}
	}
	want := []string{"petición 1: 503:2", "petición 2: 201", "petición 3: 201"}
	if got := log.lineas(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("bitácora %q, se esperaba %q", got, want)
	}
}

func TestMentiraRespuestas(t *testing.T) {
	t.Parallel()
	casos := []struct {
		pedida, linea string
		cabeceras     map[string]string // "" means absent
		cuerpo        string
	}{
		{"409:en-curso", "HTTP/1.1 409 Conflict", map[string]string{"Retry-After": "", "Content-Type": "application/problem+json"},
			`{"type":"https://revisor.example/problemas/llave-en-curso","title":"respuesta de mentira","status":409}` + "\n"},
		{"409", "HTTP/1.1 409 Conflict", map[string]string{"Retry-After": ""},
			`{"type":"about:blank","title":"respuesta de mentira","status":409}` + "\n"},
		{"409:otro", "HTTP/1.1 409 Conflict", map[string]string{"Retry-After": "otro"},
			`{"type":"about:blank","title":"respuesta de mentira","status":409}` + "\n"},
		{"503:en-curso", "HTTP/1.1 503 Service Unavailable", map[string]string{"Retry-After": ""},
			`{"type":"about:blank","title":"respuesta de mentira","status":503}` + "\n"},
		{"201:x", "HTTP/1.1 201 Created", map[string]string{"Retry-After": "", "Content-Type": "application/json"}, `{"id":99}` + "\n"},
		{"201:en-curso", "HTTP/1.1 201 Created", nil, `{"id":99}` + "\n"},
		{"299:5", "HTTP/1.1 299 unknown", map[string]string{"Retry-After": ""}, `{"id":99}` + "\n"},
		{"300:5", "HTTP/1.1 300 Multiple Choices", map[string]string{"Retry-After": "5"},
			`{"type":"about:blank","title":"respuesta de mentira","status":300}` + "\n"},
		{"422", "HTTP/1.1 422 Unprocessable Content", nil,
			`{"type":"about:blank","title":"respuesta de mentira","status":422}` + "\n"},
		{"429:30", "HTTP/1.1 429 Too Many Requests", map[string]string{"Retry-After": "30"},
			`{"type":"about:blank","title":"respuesta de mentira","status":429}` + "\n"},
		{"700", "HTTP/1.1 700 unknown", map[string]string{"Content-Type": "application/problem+json"},
			`{"type":"about:blank","title":"respuesta de mentira","status":700}` + "\n"},
		{"204", "HTTP/1.1 204 No Content", map[string]string{"Content-Length": "", "Content-Type": "application/json"}, ""},
		{"205:3", "HTTP/1.1 205 Reset Content", map[string]string{"Retry-After": "", "Content-Type": "application/json"}, ""},
		{"304:7", "HTTP/1.1 304 Not Modified", map[string]string{"Retry-After": "7"}, ""},
	}
	for _, c := range casos {
		t.Run(c.pedida, func(t *testing.T) {
			t.Parallel()
			_, log, addr := nuevaMentira(t, c.pedida)
			r := partir(prueba.PedirCrudo(t, addr, postServicios))
			if r.linea != c.linea {
				t.Errorf("línea %q, se esperaba %q", r.linea, c.linea)
			}
			for nombre, valor := range c.cabeceras {
				got, ok := r.cabeceras[nombre]
				if (valor == "" && ok) || (valor != "" && got != valor) {
					t.Errorf("%s: %q (presente: %v), se esperaba %q", nombre, got, ok, valor)
				}
			}
			if r.cuerpo != c.cuerpo {
				t.Errorf("cuerpo %q, se esperaba %q", r.cuerpo, c.cuerpo)
			}
			if got := log.String(); got != "petición 1: "+c.pedida+"\n" {
				t.Errorf("bitácora %q", got)
			}
		})
	}
}

// With real titles, the answers of Lesson 6's one-line servers (S-I37, S-I38): the reason phrase
// for about:blank, the revisor's title for its «key in progress» 409.
func TestMentiraTitulosReales(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		pedidas []string
		cuerpos []string
	}{
		{[]string{"503:2", "201"}, []string{`{"type":"about:blank","title":"Service Unavailable","status":503}`, `{"id":99}`}},
		{[]string{"409:en-curso", "201"}, []string{`{"type":"https://revisor.example/problemas/llave-en-curso","title":"Esa Idempotency-Key sigue en curso","status":409}`, `{"id":99}`}},
		{[]string{"422", "700"}, []string{`{"type":"about:blank","title":"Unprocessable Content","status":422}`, `{"type":"about:blank","title":"unknown","status":700}`}},
	} {
		_, _, addr := nuevaMentiraCon(t, OpcionesMentira{TitulosReales: true}, c.pedidas...)
		for i, want := range c.cuerpos {
			if r := partir(prueba.PedirCrudo(t, addr, postServicios)); r.cuerpo != want+"\n" {
				t.Errorf("%v, petición %d: %q, se esperaba %q", c.pedidas, i+1, r.cuerpo, want)
			}
		}
	}
}

// TestMentiraRetryAfterVacio: "503:" sends the header with nothing in it, as the course's does.
func TestMentiraRetryAfterVacio(t *testing.T) {
	t.Parallel()
	_, _, addr := nuevaMentira(t, "503:")
	r := partir(prueba.PedirCrudo(t, addr, postServicios))
	if !strings.Contains(r.todo, "\r\nRetry-After: \r\n") {
		t.Errorf("se esperaba «Retry-After: » vacío: %q", r.todo)
	}
}

// TestMentiraConcurrente: every request gets its number once, and the log lines come out in order.
func TestMentiraConcurrente(t *testing.T) {
	t.Parallel()
	m, log, addr := nuevaMentira(t, "503:1", "409", "201")
	const n = 40
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			if _, err := intentarCrudo(addr, postServicios); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if m.Peticiones() != n {
		t.Errorf("%d peticiones contadas, se esperaban %d", m.Peticiones(), n)
	}
	lineas := log.lineas()
	if len(lineas) != n {
		t.Fatalf("%d líneas en la bitácora", len(lineas))
	}
	for i, l := range lineas {
		want := "petición " + strconv.Itoa(i+1) + ": " + []string{"503:1", "409", "201"}[min(i, 2)]
		if l != want {
			t.Errorf("línea %d: %q, se esperaba %q", i+1, l, want)
		}
	}
}

// TestMentiraMuda: "mudo" never answers; a client that gives up frees the handler, and Cerrar cuts
// the connections it still holds, without an answer.
func TestMentiraMuda(t *testing.T) {
	t.Parallel()
	var log registro
	m, err := NuevaMentira([]string{"mudo"}, bitacora.NuevoLogger(&log, &log, false), OpcionesMentira{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Cerrar)
	terminados := make(chan struct{}, 4)
	ts := servidortest.Nuevo(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() { terminados <- struct{}{} }()
		m.ServeHTTP(w, r)
	}))

	// A client with a 200 ms limit gets nothing.
	cliente := &http.Client{Timeout: 200 * time.Millisecond}
	_, err = cliente.Post(ts.URL+"/servicios", "application/json", strings.NewReader(`{"nombre":"x"}`))
	if err == nil {
		t.Fatal("mudo respondió")
	}
	select {
	case <-terminados:
	case <-time.After(prueba.PlazoDeEspera):
		t.Fatal("el manejador siguió esperando a un cliente que se fue")
	}

	// A client still waiting is cut by Cerrar, and reads no response.
	c, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, postServicios)
	prueba.Esperar(t, "mudo retiene la segunda petición", func() bool { return len(log.lineas()) == 2 })
	m.Cerrar()
	c.SetReadDeadline(time.Now().Add(prueba.PlazoDeEspera))
	if llego, err := io.ReadAll(c); err != nil || len(llego) != 0 {
		t.Errorf("tras Cerrar llegó %q, %v; se esperaba el cierre sin respuesta", llego, err)
	}
	select {
	case <-terminados:
	case <-time.After(prueba.PlazoDeEspera):
		t.Fatal("Cerrar no soltó al manejador")
	}
	if got := log.lineas(); len(got) != 2 || got[0] != "petición 1: mudo" || got[1] != "petición 2: mudo" {
		t.Errorf("bitácora %q", got)
	}
}

// TestMentiraApagado: Ctrl+C with a "mudo" request held does not wait for it.
func TestMentiraApagado(t *testing.T) {
	t.Parallel()
	var log registro
	m, err := NuevaMentira([]string{"mudo"}, bitacora.NuevoLogger(&log, &log, false), OpcionesMentira{})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := servidor.Escuchar("laboratorio mentira", servidor.Opciones{Direccion: "127.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, apagar := context.WithCancel(context.Background())
	defer context.AfterFunc(ctx, m.Cerrar)()
	servido := make(chan error, 1)
	go func() { servido <- servidor.Servir(ctx, ln, servidor.Nuevo(m), zerolog.Nop()) }()

	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, postServicios)
	prueba.Esperar(t, "mudo retiene la petición", func() bool { return len(log.lineas()) == 1 })
	inicio := time.Now()
	apagar()
	select {
	case err := <-servido:
		if err != nil {
			t.Errorf("Servir: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("el apagado esperó a la petición muda")
	}
	if d := time.Since(inicio); d > 2*time.Second {
		t.Errorf("el apagado tardó %v", d)
	}
}
