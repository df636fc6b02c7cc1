package encabezado

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// servidor starts h behind the wrapper in modo, wired as servidor.Nuevo wires it (ConnContext,
// ConnState), and returns its address.
func servidor(t testing.TB, modo Modo, h http.HandlerFunc) string {
	t.Helper()
	ts := httptest.NewUnstartedServer(h)
	ts.Listener = Envolver(ts.Listener, Opciones{Modo: modo, Ociosa: 5 * time.Second})
	ts.Config.ConnContext = ConnContext
	ts.Config.ConnState = Notar
	ts.Config.MaxHeaderBytes = 4 << 10
	ts.Start()
	t.Cleanup(ts.Close)
	return ts.Listener.Addr().String()
}

// cabezas sends raw requests on one connection, one after the other, and returns each answer's
// head (status line and fields, one per line, the date as <fecha>) and body. An empty request
// sends nothing and reads the next answer (the final one after a 100 Continue).
func cabezas(t *testing.T, addr string, pedidos ...string) (heads, cuerpos []string) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	br := bufio.NewReader(c)
	metodo := ""
	for _, pedido := range pedidos {
		if pedido != "" {
			metodo, _, _ = strings.Cut(pedido, " ")
			if _, err := io.WriteString(c, pedido); err != nil {
				t.Fatal(err)
			}
		}
		var cabeza []string
		largo, trozos := -1, false
		for {
			l, err := br.ReadString('\n')
			if err != nil {
				t.Fatalf("%q: cabeza %q: %v", pedido, cabeza, err)
			}
			if l == "\r\n" {
				break
			}
			l = strings.TrimSuffix(l, "\r\n")
			if f, ok := strings.CutPrefix(l, "Date: "); ok {
				if _, err := time.Parse(http.TimeFormat, f); err != nil {
					t.Errorf("fecha %q", f)
				}
				l = "Date: <fecha>"
			}
			if nombre, valor, _ := strings.Cut(l, ": "); strings.EqualFold(nombre, "Content-Length") {
				largo, _ = strconv.Atoi(valor)
			}
			trozos = trozos || strings.EqualFold(l, "Transfer-Encoding: chunked")
			cabeza = append(cabeza, l)
		}
		var cuerpo []byte
		switch {
		case metodo == "HEAD", strings.Contains(cabeza[0], " 204 "), strings.Contains(cabeza[0], " 304 "),
			strings.HasPrefix(cabeza[0], "HTTP/1.1 1"):
		case trozos:
			res, err := http.ReadResponse(bufio.NewReader(io.MultiReader(
				strings.NewReader("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"), br)), nil)
			if err != nil {
				t.Fatal(err)
			}
			if cuerpo, err = io.ReadAll(res.Body); err != nil {
				t.Fatal(err)
			}
		case largo >= 0:
			cuerpo = make([]byte, largo)
			if _, err := io.ReadFull(br, cuerpo); err != nil {
				t.Fatal(err)
			}
		default:
			cuerpo, _ = io.ReadAll(br) // to the connection's end
		}
		heads = append(heads, strings.Join(cabeza, "\n"))
		cuerpos = append(cuerpos, string(cuerpo))
	}
	return heads, cuerpos
}

// rutas answers as the suite's handlers do: each sets its fields and names their order.
func rutas(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	switch r.URL.Path {
	case "/creado": // respuesta.JSON with Location and ETag
		h["Location"] = []string{"/servicios/7"}
		h["ETag"] = []string{`"7-1"`}
		h["Content-Type"] = []string{"application/json"}
		h["Content-Length"] = []string{"9"}
		Escribir(w, r, 201, "Location", "ETag", "Content-Type", "Content-Length")
		io.WriteString(w, `{"id":7}`+"\n")
	case "/problema": // problema.Escribir with Retry-After
		h["Retry-After"] = []string{"60"}
		h["Content-Type"] = []string{"application/problem+json"}
		h["Content-Language"] = []string{"es"}
		h["Content-Length"] = []string{"3"}
		Escribir(w, r, 422, "Retry-After", "Content-Type", "Content-Language", "Content-Length")
		io.WriteString(w, "{}\n")
	case "/vacio":
		h["ETag"] = []string{`"7-1"`}
		Escribir(w, r, 304, "ETag")
	case "/cerrar": // the revisor's 413: Connection: close set first
		h["Connection"] = []string{"close"}
		h["Content-Type"] = []string{"text/plain"}
		h["Content-Length"] = []string{"3"}
		Escribir(w, r, 413, "Connection", "Content-Type", "Content-Length")
		io.WriteString(w, "no\n")
	case "/minusculas": // the gateway: canonical keys, lower-case names on the wire
		h["Content-Type"] = []string{"application/json"}
		h["Www-Authenticate"] = []string{"Bearer"}
		h["Content-Length"] = []string{"3"}
		EscribirConFrase(w, r, 401, "Unauthorized", "content-type", "content-length", "location", "www-authenticate")
		io.WriteString(w, "{}\n")
	case "/sin-orden": // a handler that names no order; net/http sets the length
		h["X-B"] = []string{"b"}
		h["X-A"] = []string{"a"}
		h["Content-Type"] = []string{"text/plain"}
		io.WriteString(w, "hola\n")
	case "/trozos": // too long to hold: chunked
		h["Content-Type"] = []string{"text/plain"}
		Escribir(w, r, 200, "Content-Type")
		w.Write([]byte(strings.Repeat("x", 5000)))
	case "/eco":
		b, _ := io.ReadAll(r.Body)
		h["Content-Type"] = nil // no sniffing
		h["Content-Length"] = []string{strconv.Itoa(len(b))}
		Escribir(w, r, 200, "Content-Length")
		w.Write(b)
	case "/grande": // a head larger than net/http's 4 KiB write buffer
		h["X-Grande"] = []string{strings.Repeat("g", 5000)}
		h["Content-Type"] = nil
		h["Content-Length"] = []string{"3"}
		Escribir(w, r, 422, "X-Grande", "Content-Length")
		io.WriteString(w, "abc")
	default:
		w.WriteHeader(404)
	}
}

const (
	get     = "GET %s HTTP/1.1\r\nHost: x\r\n\r\n"
	keep    = "Date: <fecha>\nConnection: keep-alive\nKeep-Alive: timeout=5"
	cerrada = "Date: <fecha>\nConnection: close"
)

func pedido(ruta string) string { return fmt.Sprintf(get, ruta) }

// On one kept-alive connection, each answer's head lists the handler's fields in the order it named
// them, then Node's Date, Connection and Keep-Alive lines, and what net/http adds for framing after
// them, as Node writes them.
func TestCabezaEnElOrdenDelCurso(t *testing.T) {
	t.Parallel()
	addr := servidor(t, Curso, rutas)
	heads, cuerpos := cabezas(t, addr,
		pedido("/creado"), pedido("/problema"), pedido("/vacio"), "HEAD /creado HTTP/1.1\r\nHost: x\r\n\r\n",
		pedido("/minusculas"), pedido("/sin-orden"), pedido("/trozos"), pedido("/nada"),
		"POST /eco HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\nab", "",
		pedido("/grande"), pedido("/cerrar"))
	quiere := []string{
		"HTTP/1.1 201 Created\nLocation: /servicios/7\nETag: \"7-1\"\nContent-Type: application/json\nContent-Length: 9\n" + keep,
		"HTTP/1.1 422 Unprocessable Content\nRetry-After: 60\nContent-Type: application/problem+json\nContent-Language: es\nContent-Length: 3\n" + keep,
		"HTTP/1.1 304 Not Modified\nETag: \"7-1\"\n" + keep,
		"HTTP/1.1 201 Created\nLocation: /servicios/7\nETag: \"7-1\"\nContent-Type: application/json\nContent-Length: 9\n" + keep,
		"HTTP/1.1 401 Unauthorized\ncontent-type: application/json\ncontent-length: 3\nwww-authenticate: Bearer\n" + keep,
		"HTTP/1.1 200 OK\nContent-Type: text/plain\nX-A: a\nX-B: b\n" + keep + "\nContent-Length: 5",
		"HTTP/1.1 200 OK\nContent-Type: text/plain\n" + keep + "\nTransfer-Encoding: chunked",
		"HTTP/1.1 404 Not Found\n" + keep + "\nContent-Length: 0",
		"HTTP/1.1 100 Continue",
		"HTTP/1.1 200 OK\nContent-Length: 2\n" + keep,
		// Larger than the first write: only the phrase is the course's.
		"HTTP/1.1 422 Unprocessable Content\nContent-Length: 3\nX-Grande: " + strings.Repeat("g", 5000) + "\nDate: <fecha>",
		"HTTP/1.1 413 Content Too Large\nConnection: close\nContent-Type: text/plain\nContent-Length: 3\nDate: <fecha>",
	}
	comparar(t, heads, quiere)
	if cuerpos[0] != `{"id":7}`+"\n" || cuerpos[3] != "" || cuerpos[6] != strings.Repeat("x", 5000) ||
		cuerpos[9] != "ab" || cuerpos[10] != "abc" || cuerpos[11] != "no\n" {
		t.Errorf("cuerpos %q", cuerpos)
	}
}

func comparar(t *testing.T, heads, quiere []string) {
	t.Helper()
	for i := range max(len(heads), len(quiere)) {
		var h, q string
		if i < len(heads) {
			h = heads[i]
		}
		if i < len(quiere) {
			q = quiere[i]
		}
		if h != q {
			t.Errorf("respuesta %d:\n%.600s\nquiere:\n%.600s", i+1, h, q)
		}
	}
}

// The connection's end, as Node says it: the client's Connection: close, an HTTP/1.0 request (Node
// answers HTTP/1.1 and says close), an HTTP/1.0 request that asks to keep the connection.
func TestCabezaAlCerrar(t *testing.T) {
	t.Parallel()
	addr := servidor(t, Curso, rutas)
	creado := "HTTP/1.1 201 Created\nLocation: /servicios/7\nETag: \"7-1\"\nContent-Type: application/json\nContent-Length: 9\n"
	heads, _ := cabezas(t, addr, "GET /creado HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
	comparar(t, heads, []string{creado + cerrada})
	heads, _ = cabezas(t, addr, "GET /creado HTTP/1.0\r\n\r\n")
	comparar(t, heads, []string{creado + cerrada})
	heads, _ = cabezas(t, addr, "GET /creado HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", "GET /vacio HTTP/1.0\r\n\r\n")
	comparar(t, heads, []string{creado + keep, "HTTP/1.1 304 Not Modified\nETag: \"7-1\"\n" + cerrada})
}

// In Go mode the head is net/http's (sorted, no Node lines); only the phrase is the course's.
func TestModoGo(t *testing.T) {
	t.Parallel()
	addr := servidor(t, Go, rutas)
	heads, _ := cabezas(t, addr, pedido("/creado"), pedido("/problema"), pedido("/minusculas"), "GET /creado HTTP/1.0\r\n\r\n")
	comparar(t, heads, []string{
		"HTTP/1.1 201 Created\nContent-Length: 9\nContent-Type: application/json\nETag: \"7-1\"\nLocation: /servicios/7\nDate: <fecha>",
		"HTTP/1.1 422 Unprocessable Content\nContent-Language: es\nContent-Length: 3\nContent-Type: application/problem+json\nRetry-After: 60\nDate: <fecha>",
		"HTTP/1.1 401 Unauthorized\nContent-Length: 3\nContent-Type: application/json\nWww-Authenticate: Bearer\nDate: <fecha>",
		"HTTP/1.0 201 Created\nContent-Length: 9\nContent-Type: application/json\nETag: \"7-1\"\nLocation: /servicios/7\nDate: <fecha>",
	})
}

// What net/http answers by itself to a request it cannot read goes out as Node's parser answers:
// the status and `Connection: close`, no body; a missing Host as Node's server answers it. In Go
// mode, net/http's own answer.
func TestRespuestaDelAnalizador(t *testing.T) {
	t.Parallel()
	grande := "GET / HTTP/1.1\r\nHost: x\r\nX-Grande: " + strings.Repeat("a", 10<<10) + "\r\n\r\n"
	for _, q := range []struct {
		pedido, curso, cuerpoGo, go_ string
	}{
		{"GARBAGE\r\n\r\n", "HTTP/1.1 400 Bad Request\nConnection: close", "400 Bad Request",
			"HTTP/1.1 400 Bad Request\nContent-Type: text/plain; charset=utf-8\nConnection: close"},
		{grande, "HTTP/1.1 431 Request Header Fields Too Large\nConnection: close", "431 Request Header Fields Too Large",
			"HTTP/1.1 431 Request Header Fields Too Large\nContent-Type: text/plain; charset=utf-8\nConnection: close"},
		{"GET / HTTP/1.1\r\n\r\n", "HTTP/1.1 400 Bad Request\nConnection: close\nDate: <fecha>\nTransfer-Encoding: chunked", "400 Bad Request: missing required Host header",
			"HTTP/1.1 400 Bad Request: missing required Host header\nContent-Type: text/plain; charset=utf-8\nConnection: close"},
		{"GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", "HTTP/1.1 501 Not Implemented\nConnection: close", "Unsupported transfer encoding",
			"HTTP/1.1 501 Not Implemented\nContent-Type: text/plain; charset=utf-8\nConnection: close"},
	} {
		heads, cuerpos := cabezas(t, servidor(t, Curso, rutas), q.pedido)
		comparar(t, heads, []string{q.curso})
		if cuerpos[0] != "" {
			t.Errorf("%.20q: cuerpo %q", q.pedido, cuerpos[0])
		}
		heads, cuerpos = cabezas(t, servidor(t, Go, rutas), q.pedido)
		comparar(t, heads, []string{q.go_})
		if cuerpos[0] != q.cuerpoGo {
			t.Errorf("%.20q en modo go: cuerpo %q", q.pedido, cuerpos[0])
		}
	}
}

func TestFraseDelRegistro(t *testing.T) {
	t.Parallel()
	casos := map[int]string{
		200: "OK", 413: "Content Too Large", 422: "Unprocessable Content", 416: "Range Not Satisfiable",
		203: "Non-Authoritative Information", 418: "I'm a Teapot", 299: "unknown", 600: "unknown", 306: "unknown",
	}
	for codigo, quiere := range casos {
		if got := Frase(codigo); got != quiere {
			t.Errorf("Frase(%d) = %q, quiere %q", codigo, got, quiere)
		}
	}
}

func TestLaLineaDeEstadoLlevaLaFraseDelCurso(t *testing.T) {
	t.Parallel()
	h := func(w http.ResponseWriter, r *http.Request) {
		codigo, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/"))
		w.Header().Set("Content-Length", "3")
		Escribir(w, r, codigo)
		io.WriteString(w, "abc")
	}
	for _, modo := range []Modo{Curso, Go} {
		// Several responses on one kept-alive connection: each gets its own phrase, the framing holds.
		heads, cuerpos := cabezas(t, servidor(t, modo, h), pedido("/413"), pedido("/200"), pedido("/422"),
			pedido("/299"), pedido("/700"), pedido("/200"))
		for i, quiere := range []string{
			"HTTP/1.1 413 Content Too Large", "HTTP/1.1 200 OK", "HTTP/1.1 422 Unprocessable Content",
			"HTTP/1.1 299 unknown", "HTTP/1.1 700 unknown", "HTTP/1.1 200 OK",
		} {
			if linea, _, _ := strings.Cut(heads[i], "\n"); linea != quiere || cuerpos[i] != "abc" {
				t.Errorf("modo %s, respuesta %d: %q %q, quiere %q", modo, i+1, linea, cuerpos[i], quiere)
			}
		}
	}
}

// A body that looks like a status line is left alone: only a head is rewritten.
func TestCuerpoGrandeNoConfundeLaLinea(t *testing.T) {
	t.Parallel()
	cuerpo := strings.Repeat("HTTP/1.1 422 x\r\n", 1000)
	for _, modo := range []Modo{Curso, Go} {
		addr := servidor(t, modo, func(w http.ResponseWriter, r *http.Request) {
			Escribir(w, r, 422)
			io.WriteString(w, cuerpo)
		})
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		br := bufio.NewReader(c)
		for range 2 {
			io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
			res, err := http.ReadResponse(br, nil)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(res.Body)
			if res.Status != "422 Unprocessable Content" || string(b) != cuerpo {
				t.Errorf("modo %s: estado %q, cuerpo intacto %v", modo, res.Status, string(b) == cuerpo)
			}
		}
	}
}

func TestSinConexionEnvueltaUsaLaDeGo(t *testing.T) {
	t.Parallel()
	rec := httptest.NewRecorder()
	Escribir(rec, httptest.NewRequest("GET", "/", nil), 413, "Content-Type")
	if rec.Code != 413 {
		t.Errorf("código %d", rec.Code)
	}
}

func TestLeerModo(t *testing.T) {
	t.Parallel()
	for s, quiere := range map[string]Modo{"curso": Curso, "go": Go} {
		if m, ok := LeerModo(s); !ok || m != quiere || m.String() != s {
			t.Errorf("LeerModo(%q) = %v %v", s, m, ok)
		}
	}
	if _, ok := LeerModo("node"); ok {
		t.Error("LeerModo(node) aceptado")
	}
}

// The rewrite relies on what net/http does without documenting it. If a Go release changes one of
// these, this test fails, not a class.

// escrituras records each Write on the connections a listener accepts, and the states net/http
// reports, in one sequence.
type escrituras struct {
	net.Listener
	mu      sync.Mutex
	sucesos []string
}

type conexionGrabada struct {
	net.Conn
	e *escrituras
}

func (c conexionGrabada) Write(p []byte) (int, error) {
	c.e.mu.Lock()
	c.e.sucesos = append(c.e.sucesos, "write:"+string(p))
	c.e.mu.Unlock()
	return c.Conn.Write(p)
}

func (e *escrituras) Accept() (net.Conn, error) {
	c, err := e.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return conexionGrabada{c, e}, nil
}

func (e *escrituras) estado(_ net.Conn, s http.ConnState) {
	e.mu.Lock()
	e.sucesos = append(e.sucesos, "estado:"+s.String())
	e.mu.Unlock()
}

func (e *escrituras) leer() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.sucesos...)
}

func grabar(t *testing.T, h http.HandlerFunc) (*escrituras, string) {
	t.Helper()
	ts := httptest.NewUnstartedServer(h)
	e := &escrituras{Listener: ts.Listener}
	ts.Listener = e
	ts.Config.ConnState = e.estado
	ts.Config.MaxHeaderBytes = 4 << 10
	ts.Start()
	t.Cleanup(ts.Close)
	return e, ts.Listener.Addr().String()
}

// A head up to 4 KiB reaches the connection whole in one Write, with the start of its body (net/http
// writes through a 4 KiB buffer); a longer one is split. Every head is preceded by StateNew or
// StateIdle, which is how the wrapper knows a write starts one; a 100 Continue goes in a write of
// its own. What net/http answers to an unreadable request is one write with exactly the fields
// camposDelAnalizador holds.
func TestNetHTTPComoLoUsaLaReescritura(t *testing.T) {
	t.Parallel()
	e, addr := grabar(t, func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		w.Header().Set("X-Relleno", strings.Repeat("r", len(r.URL.Path)))
		w.Header().Set("Content-Length", "10000")
		w.Write([]byte(strings.Repeat("b", 10000)))
	})
	cabezas(t, addr, pedido("/"+strings.Repeat("p", 3900)),
		"POST / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\nx", "",
		pedido("/"+strings.Repeat("p", 4100)))
	var escritas []string
	armada := false // a StateNew or StateIdle since the last final head
	for _, s := range e.leer() {
		if estado, ok := strings.CutPrefix(s, "estado:"); ok {
			armada = armada || estado == "new" || estado == "idle"
			continue
		}
		p := strings.TrimPrefix(s, "write:")
		if !strings.HasPrefix(p, "HTTP/1.1 ") {
			continue
		}
		escritas = append(escritas, p)
		if !armada {
			t.Errorf("la cabeza %d llega sin StateNew ni StateIdle desde la anterior", len(escritas))
		}
		if !strings.HasPrefix(p, "HTTP/1.1 1") {
			armada = false
		}
	}
	if len(escritas) != 4 {
		t.Fatalf("%d escrituras empiezan una cabeza, quiere 4", len(escritas))
	}
	if p := escritas[0]; len(p) != 4<<10 || !strings.Contains(p, "\r\n\r\nbbb") {
		t.Errorf("cabeza de 3.9 KiB: la primera escritura tiene %d bytes, cabeza entera %v", len(p), strings.Contains(p, "\r\n\r\n"))
	}
	if escritas[1] != "HTTP/1.1 100 Continue\r\n\r\n" {
		t.Errorf("100 Continue en %q", escritas[1])
	}
	if !strings.Contains(escritas[2], "\r\n\r\n") {
		t.Errorf("la respuesta final después del 100 no trae su cabeza entera: %.60q", escritas[2])
	}
	if p := escritas[3]; strings.Contains(p, "\r\n\r\n") || len(p) != 4<<10 {
		t.Errorf("cabeza de 4.1 KiB: la primera escritura tiene %d bytes, cabeza entera %v", len(p), strings.Contains(p, "\r\n\r\n"))
	}

	for pedido, linea := range map[string]string{
		"GARBAGE\r\n\r\n": "HTTP/1.1 400 Bad Request",
		"GET / HTTP/1.1\r\nHost: x\r\nX: " + strings.Repeat("a", 10<<10) + "\r\n\r\n": "HTTP/1.1 431 Request Header Fields Too Large",
		"GET / HTTP/1.1\r\n\r\n": sinHost,
	} {
		e, addr := grabar(t, func(http.ResponseWriter, *http.Request) {})
		cabezas(t, addr, pedido)
		var escritas []string
		for _, s := range e.leer() {
			if p, ok := strings.CutPrefix(s, "write:"); ok {
				escritas = append(escritas, p)
			}
		}
		if len(escritas) != 1 || !strings.HasPrefix(escritas[0], linea+"\r\n"+camposDelAnalizador+"\r\n") {
			t.Errorf("%.20q: escrituras %q", pedido, escritas)
		}
	}
}

// The rewrite of one head, byte for byte, including what does not come from net/http.
func TestEscribir(t *testing.T) {
	t.Parallel()
	ka := "Keep-Alive: timeout=5\r\n"
	for _, q := range []struct {
		p, quiere string
		s         siguiente
	}{
		// Not a head net/http writes: left alone.
		{p: "HTTP/1.1 200 OK\r\nsin dos puntos\r\n\r\ncuerpo", quiere: "HTTP/1.1 200 OK\r\nsin dos puntos\r\n\r\ncuerpo"},
		{p: "HTTP/1.1 200 OK", quiere: "HTTP/1.1 200 OK"},
		// The handler's Keep-Alive stays; Node's is not added.
		{p: "HTTP/1.1 200 OK\r\nKeep-Alive: timeout=9\r\nDate: d\r\n\r\n", quiere: "HTTP/1.1 200 OK\r\nDate: d\r\nConnection: keep-alive\r\nKeep-Alive: timeout=9\r\n\r\n"},
		// No idle timeout: no Keep-Alive line.
		{p: "HTTP/1.1 200 OK\r\nDate: d\r\n\r\nx", quiere: "HTTP/1.1 200 OK\r\nDate: d\r\nConnection: keep-alive\r\n\r\nx", s: siguiente{}},
		// A repeated name is listed once; an absent one is skipped; the phrase only for its code.
		{p: "HTTP/1.1 201 Created\r\nB: 2\r\nA: 1\r\n\r\n", quiere: "HTTP/1.1 201 Created\r\nA: 1\r\nB: 2\r\nConnection: keep-alive\r\n" + ka + "\r\n",
			s: siguiente{codigo: 200, frase: "Bien", orden: []string{"A", "Nada", "a", "B"}, keepAlive: ka}},
		{p: "HTTP/1.1 200 OK\r\n\r\n", quiere: "HTTP/1.1 200 Bien\r\nConnection: keep-alive\r\n" + ka + "\r\n",
			s: siguiente{codigo: 200, frase: "Bien", keepAlive: ka}},
		// A handler's own Connection value that is neither close nor keep-alive stays, in Node's place.
		{p: "HTTP/1.1 200 OK\r\nConnection: upgrade\r\nDate: d\r\n\r\n", quiere: "HTTP/1.1 200 OK\r\nDate: d\r\nConnection: upgrade\r\n\r\n", s: siguiente{keepAlive: ka}},
	} {
		if got := string(q.s.escribir(nil, []byte(q.p), Curso)); got != q.quiere {
			t.Errorf("%q:\n%q\nquiere\n%q", q.p, got, q.quiere)
		}
	}
}

// A write that fails reports, in the caller's terms, no more than reached the wire.
func TestEscrituraFallida(t *testing.T) {
	t.Parallel()
	a, b := net.Pipe()
	b.Close()
	c := &Conn{Conn: a, modo: Curso, keepAlive: "Keep-Alive: timeout=5\r\n"}
	c.cabeza.Store(true)
	n, err := c.Write([]byte("HTTP/1.1 200 OK\r\nDate: d\r\n\r\nabc"))
	if err == nil || n != 0 {
		t.Errorf("n %d, err %v", n, err)
	}
}

// The cost of the rewrite per response, against Go mode (the phrase only) on the same handler.
func BenchmarkCabeza(b *testing.B) {
	for _, modo := range []Modo{Curso, Go} {
		b.Run(modo.String(), func(b *testing.B) {
			addr := servidor(b, modo, rutas)
			c, err := net.Dial("tcp", addr)
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			br := bufio.NewReader(c)
			req := []byte(pedido("/problema"))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.Write(req); err != nil {
					b.Fatal(err)
				}
				res, err := http.ReadResponse(br, nil)
				if err != nil {
					b.Fatal(err)
				}
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
			}
		})
	}
}

// The rewrite alone, on the head of a GET /servicios/1 as net/http writes it.
func BenchmarkReescribir(b *testing.B) {
	p := []byte("HTTP/1.1 200 OK\r\nContent-Length: 88\r\nContent-Type: application/json\r\nETag: \"1-1-6db25d01\"\r\nDate: Wed, 21 Oct 2026 13:19:06 GMT\r\n\r\n" +
		`{"id":1,"nombre":"catalogo","url":"http://127.0.0.1:18081/codigo/200","limite_ms":2000}` + "\n")
	s := siguiente{orden: []string{"ETag", "Content-Type", "Content-Length"}, keepAlive: "Keep-Alive: timeout=5\r\n"}
	dst := make([]byte, 0, 4<<10)
	b.ReportAllocs()
	for b.Loop() {
		dst = s.escribir(dst[:0], p, Curso)
	}
}
