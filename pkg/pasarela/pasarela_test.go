package pasarela

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"cursohttp/internal/prueba"
	"cursohttp/internal/prueba/servidortest"
	"cursohttp/pkg/bitacora"
	"cursohttp/pkg/encabezado"
)

// levantar serves the gateway in front of destino on an ephemeral port, as cmd/pasarela does.
func levantar(t testing.TB, destino string) (string, *prueba.Buffer) {
	t.Helper()
	u, err := url.Parse(destino)
	if err != nil {
		t.Fatal(err)
	}
	log := &prueba.Buffer{}
	ts := servidortest.Nuevo(t, Nueva(Opciones{Destinos: []*url.URL{u}, Log: bitacora.NuevoLogger(log, log, false)}))
	return ts.Listener.Addr().String(), log
}

func sinFecha(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\r\n") {
		if !strings.HasPrefix(l, "Date: ") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\r\n")
}

// vista is what the fake revisor saw of one request.
type vista struct {
	metodo, uri string
	cabeceras   http.Header
	cuerpo      string
}

// revisorFalso answers 201 like the revisor's registration and records what it saw.
func revisorFalso(t testing.TB) (string, func() []vista) {
	var (
		mu    sync.Mutex
		todas []vista
	)
	ts := servidortest.Nuevo(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		todas = append(todas, vista{r.Method, r.RequestURI, r.Header.Clone(), string(b)})
		mu.Unlock()
		h := w.Header()
		h["Location"] = []string{"/servicios/7"}
		h["ETag"] = []string{`"7-1-7b8bb8f3"`}
		h["X-Otra"] = []string{"no pasa"}
		h["Content-Type"] = []string{"application/json"}
		cuerpo := `{"id":7,"nombre":"por-pasarela","url":"http://127.0.0.1:18081/codigo/200","limite_ms":2000}` + "\n"
		h["Content-Length"] = []string{strconv.Itoa(len(cuerpo))}
		w.WriteHeader(201)
		io.WriteString(w, cuerpo)
	}))
	return ts.URL, func() []vista { mu.Lock(); defer mu.Unlock(); return append([]vista(nil), todas...) }
}

const cuerpoPorPasarela = `{"nombre":"por-pasarela","url":"http://127.0.0.1:18081/codigo/200"}`

func post(cabeceras, cuerpo string) string {
	return "POST /servicios?x=1 HTTP/1.1\r\nHost: p\r\nAuthorization: Bearer escritura-a\r\n" +
		"Content-Type: application/json\r\nAccept: */*\r\n" + cabeceras +
		"Content-Length: " + strconv.Itoa(len(cuerpo)) + "\r\nConnection: close\r\n\r\n" + cuerpo
}

// S-I39: forwarded as is, answered with the allow-listed headers in lower case.
func TestReenvia(t *testing.T) {
	t.Parallel()
	destino, vistas := revisorFalso(t)
	addr, log := levantar(t, destino)
	got := sinFecha(prueba.PedirCrudo(t, addr, post("Idempotency-Key: k1\r\nIf-Match: *\r\nX-Simular: otra-cosa\r\n", cuerpoPorPasarela)))
	want := "HTTP/1.1 201 Created\r\ncontent-type: application/json\r\ncontent-length: 92\r\nlocation: /servicios/7\r\netag: \"7-1-7b8bb8f3\"\r\nConnection: close\r\n\r\n" +
		`{"id":7,"nombre":"por-pasarela","url":"http://127.0.0.1:18081/codigo/200","limite_ms":2000}` + "\n"
	if got != want {
		t.Fatalf("respuesta:\n%q\nse esperaba:\n%q", got, want)
	}
	v := vistas()
	if len(v) != 1 {
		t.Fatalf("el revisor vio %d peticiones", len(v))
	}
	if v[0].metodo != "POST" || v[0].uri != "/servicios?x=1" || v[0].cuerpo != cuerpoPorPasarela {
		t.Fatalf("el revisor vio %+v", v[0])
	}
	for _, n := range []string{"Authorization", "Content-Type", "Idempotency-Key", "If-Match"} {
		if v[0].cabeceras.Get(n) == "" {
			t.Errorf("no pasó %s", n)
		}
	}
	for _, n := range []string{"Accept", "X-Simular", "User-Agent", "X-Forwarded-For"} {
		if _, ok := v[0].cabeceras[n]; ok {
			t.Errorf("pasó %s: %q", n, v[0].cabeceras[n])
		}
	}
	if log.String() != "" {
		t.Errorf("la pasarela no registra lo que pasa bien; escribió %q", log.String())
	}
}

// The upstream's reason phrase is kept: the revisor's 422 reads "Unprocessable Content".
func TestFraseDelRevisor(t *testing.T) {
	t.Parallel()
	ts := servidortest.Nuevo(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Type"] = []string{"application/problem+json"}
		w.Header()["Content-Language"] = []string{"es"}
		encabezado.Escribir(w, r, 422)
		io.WriteString(w, "{}\n")
	}))
	addr, _ := levantar(t, ts.URL)
	got := prueba.PedirCrudo(t, addr, post("", cuerpoPorPasarela))
	if !strings.HasPrefix(got, "HTTP/1.1 422 Unprocessable Content\r\n") || !strings.Contains(got, "\r\ncontent-language: es\r\n") {
		t.Fatalf("respuesta:\n%s", got)
	}
}

// Redirects are passed back, never followed.
func TestNoSigueRedirecciones(t *testing.T) {
	t.Parallel()
	var llamadas atomic.Int32
	ts := servidortest.Nuevo(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		llamadas.Add(1)
		w.Header()["Location"] = []string{"/servicios"}
		w.WriteHeader(301)
	}))
	addr, _ := levantar(t, ts.URL)
	got := prueba.PedirCrudo(t, addr, "GET /viejo/servicios HTTP/1.1\r\nHost: p\r\nConnection: close\r\n\r\n")
	if !strings.HasPrefix(got, "HTTP/1.1 301 Moved Permanently\r\n") || !strings.Contains(got, "\r\nlocation: /servicios\r\n") || llamadas.Load() != 1 {
		t.Fatalf("llamadas %d, respuesta:\n%s", llamadas.Load(), got)
	}
}

const perdida = `{"type":"about:blank","title":"Bad Gateway","status":502,"detail":"la pasarela no recibió una respuesta completa del revisor"}` + "\n"
const sinRevisor = `{"type":"about:blank","title":"Bad Gateway","status":502,"detail":"la pasarela no recibió respuesta del revisor"}` + "\n"

func TestPerderPrimera(t *testing.T) {
	t.Parallel()
	casos := []struct {
		nombre           string
		primera, segunda string // extra headers + body of two requests
		cuerpo2          string
		segundaPierde    bool
	}{
		{"misma llave", "Idempotency-Key: k\r\n", "Idempotency-Key: k\r\n", cuerpoPorPasarela, false},
		{"misma llave, otro cuerpo", "Idempotency-Key: k\r\n", "Idempotency-Key: k\r\n", `{"nombre":"otro"}`, false},
		{"otra llave", "Idempotency-Key: k\r\n", "Idempotency-Key: k2\r\n", cuerpoPorPasarela, true},
		{"sin llave, mismo cuerpo", "", "", cuerpoPorPasarela, false},
		{"sin llave, otro cuerpo", "", "", `{"nombre":"otro"}`, true},
	}
	for _, c := range casos {
		t.Run(c.nombre, func(t *testing.T) {
			t.Parallel()
			destino, vistas := revisorFalso(t)
			addr, log := levantar(t, destino)
			got := sinFecha(prueba.PedirCrudo(t, addr, post(c.primera+"X-Simular: perder-primera\r\n", cuerpoPorPasarela)))
			want := "HTTP/1.1 502 Bad Gateway\r\nContent-Type: application/problem+json\r\nContent-Length: 128\r\nConnection: close\r\n\r\n" + perdida
			if got != want {
				t.Fatalf("primera:\n%q\nse esperaba\n%q", got, want)
			}
			segunda := prueba.PedirCrudo(t, addr, post(c.segunda+"X-Simular: perder-primera\r\n", c.cuerpo2))
			if pierde := strings.HasPrefix(segunda, "HTTP/1.1 502"); pierde != c.segundaPierde {
				t.Fatalf("segunda:\n%s", segunda)
			}
			if !c.segundaPierde && !strings.HasSuffix(segunda, "\r\n\r\n"+`{"id":7,"nombre":"por-pasarela","url":"http://127.0.0.1:18081/codigo/200","limite_ms":2000}`+"\n") {
				t.Fatalf("la segunda pasa entera:\n%q", segunda)
			}
			if n := len(vistas()); n != 2 {
				t.Fatalf("el revisor vio %d peticiones, se esperaban 2 (la perdida también se hizo)", n)
			}
			lineas := "pasarela: el revisor respondió 201, pero la respuesta se pierde\n"
			if c.segundaPierde {
				lineas += lineas
			}
			if log.String() != lineas {
				t.Fatalf("bitácora %q", log.String())
			}
			// Without the header nothing is lost, even a request never seen before.
			if got := prueba.PedirCrudo(t, addr, post("Idempotency-Key: nunca-vista\r\n", cuerpoPorPasarela)); !strings.HasPrefix(got, "HTTP/1.1 201") {
				t.Fatalf("sin X-Simular:\n%s", got)
			}
		})
	}
}

// Many simultaneous requests with one identity: exactly one answer is lost.
func TestPerderPrimeraConcurrente(t *testing.T) {
	t.Parallel()
	destino, _ := revisorFalso(t)
	addr, _ := levantar(t, destino)
	var perdidas atomic.Int32
	var wg sync.WaitGroup
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if strings.HasPrefix(prueba.PedirCrudo(t, addr, post("Idempotency-Key: una\r\nX-Simular: perder-primera\r\n", cuerpoPorPasarela)), "HTTP/1.1 502") {
				perdidas.Add(1)
			}
		}()
	}
	wg.Wait()
	if perdidas.Load() != 1 {
		t.Fatalf("%d respuestas perdidas, se esperaba 1", perdidas.Load())
	}
}

// S-E1: nobody listens at the destination → 502, and the gateway keeps serving.
func TestRevisorApagado(t *testing.T) {
	t.Parallel()
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	muerto := "http://" + ln.Addr().String()
	ln.Close()
	addr, log := levantar(t, muerto)
	want := "HTTP/1.1 502 Bad Gateway\r\nContent-Type: application/problem+json\r\nContent-Length: 115\r\nConnection: close\r\n\r\n" + sinRevisor
	for i := range 2 {
		if got := sinFecha(prueba.PedirCrudo(t, addr, post("", `{"nombre":"sin-revisor","url":"http://127.0.0.1:18081/codigo/200"}`))); got != want {
			t.Fatalf("petición %d:\n%q\nse esperaba\n%q", i, got, want)
		}
	}
	if log.String() != strings.Repeat("pasarela: el revisor no respondió\n", 2) {
		t.Fatalf("bitácora %q", log.String())
	}
}

// The revisor hangs up without answering (or mid-body) → 502, logged as no answer.
func TestRevisorCorta(t *testing.T) {
	t.Parallel()
	ts := servidortest.Nuevo(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/a-medias" {
			w.Header()["Content-Length"] = []string{"100"}
			w.WriteHeader(200)
			io.WriteString(w, "pocos")
			w.(http.Flusher).Flush()
		}
		panic(http.ErrAbortHandler)
	}))
	addr, log := levantar(t, ts.URL)
	for _, ruta := range []string{"/cortar", "/a-medias"} {
		got := prueba.PedirCrudo(t, addr, "GET "+ruta+" HTTP/1.1\r\nHost: p\r\nConnection: close\r\n\r\n")
		if !strings.HasPrefix(got, "HTTP/1.1 502 Bad Gateway\r\n") || !strings.HasSuffix(got, sinRevisor) {
			t.Fatalf("%s:\n%s", ruta, got)
		}
	}
	if strings.Count(log.String(), "pasarela: el revisor no respondió\n") != 2 {
		t.Fatalf("bitácora %q", log.String())
	}
}

// Go's Transport re-sends by itself a request carrying Idempotency-Key when a pooled connection
// dies before the answer. The gateway retries nothing: the revisor must see the POST once.
func TestNoReenviaPorSuCuenta(t *testing.T) {
	t.Parallel()
	var posts atomic.Int32
	revisor := prueba.ServidorCrudo(t, func(c net.Conn) {
		r := bufio.NewReader(c)
		for {
			req, err := http.ReadRequest(r)
			if err != nil {
				return
			}
			io.Copy(io.Discard, req.Body)
			if req.Method == "POST" {
				posts.Add(1)
				return // did the work, then the connection dies without an answer
			}
			fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
		}
	})
	addr, _ := levantar(t, "http://"+revisor)
	// Same client connection to the gateway; the gateway reuses its pooled connection upstream.
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r := bufio.NewReader(c)
	io.WriteString(c, "GET /servicios HTTP/1.1\r\nHost: p\r\n\r\n")
	resp, err := http.ReadResponse(r, nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET: %v %v", resp, err)
	}
	io.Copy(io.Discard, resp.Body)
	cuerpo := `{"nombre":"x","url":"http://127.0.0.1:18081/codigo/200"}`
	fmt.Fprintf(c, "POST /servicios HTTP/1.1\r\nHost: p\r\nIdempotency-Key: k\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(cuerpo), cuerpo)
	resp, err = http.ReadResponse(r, nil)
	if err != nil || resp.StatusCode != 502 {
		t.Fatalf("POST: %v %v", resp, err)
	}
	if n := posts.Load(); n != 1 {
		t.Fatalf("el revisor vio %d POST, se esperaba 1", n)
	}
}

// A request with a large body is forwarded whole (the gateway does not cap it; the revisor does).
func TestCuerpoGrande(t *testing.T) {
	t.Parallel()
	destino, vistas := revisorFalso(t)
	addr, _ := levantar(t, destino)
	grande := strings.Repeat("x", 20000)
	prueba.PedirCrudo(t, addr, post("X-Simular: perder-primera\r\n", grande))
	got := prueba.PedirCrudo(t, addr, post("X-Simular: perder-primera\r\n", grande))
	if !strings.HasPrefix(got, "HTTP/1.1 201") {
		t.Fatalf("la segunda con el mismo cuerpo grande debía pasar:\n%s", got)
	}
	if v := vistas(); len(v) != 2 || len(v[1].cuerpo) != 20000 {
		t.Fatalf("el revisor vio %d peticiones", len(v))
	}
}

func TestLineaDeInicio(t *testing.T) {
	t.Parallel()
	u, _ := url.Parse("http://127.0.0.1:18080")
	if got := LineaDeInicio("127.0.0.1:18082", []*url.URL{u}); got != "pasarela en http://127.0.0.1:18082 → http://127.0.0.1:18080" {
		t.Fatalf("%q", got)
	}
	v, _ := url.Parse("http://127.0.0.1:28080/")
	if got := LineaDeInicio("127.0.0.1:18082", []*url.URL{u, v}); got != "pasarela en http://127.0.0.1:18082 → http://127.0.0.1:18080, http://127.0.0.1:28080" {
		t.Fatalf("%q", got)
	}
}

func TestVistasAcotadas(t *testing.T) {
	t.Parallel()
	v := nuevasVistas(2)
	id := func(b byte) [32]byte { return [32]byte{b} }
	for _, b := range []byte{1, 2, 3} {
		if v.sumar(id(b)) != 1 {
			t.Fatalf("%d no era nueva", b)
		}
	}
	if v.sumar(id(3)) != 2 || v.sumar(id(2)) != 2 || v.sumar(id(3)) != 3 {
		t.Fatal("2 y 3 ya se habían visto")
	}
	if v.sumar(id(1)) != 1 {
		t.Fatal("1, la más vieja, debía haberse olvidado al llegar al tope")
	}
	if len(v.cual) != 2 || v.orden.Len() != 2 {
		t.Fatalf("el conjunto pasó del tope: %d", len(v.cual))
	}
}

// BenchmarkReenviarGET compares a GET through the gateway with the same GET straight to the upstream.
func BenchmarkReenviarGET(b *testing.B) {
	ts := servidortest.Nuevo(b, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Type"] = []string{"application/json"}
		w.Header()["Content-Length"] = []string{"9"}
		io.WriteString(w, `{"id":1}`+"\n")
	}))
	addr, _ := levantar(b, ts.URL)
	for _, c := range []struct{ nombre, url string }{
		{"directo", ts.URL + "/servicios/1"},
		{"por-pasarela", "http://" + addr + "/servicios/1"},
	} {
		b.Run(c.nombre, func(b *testing.B) {
			cliente := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
			defer cliente.CloseIdleConnections()
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					resp, err := cliente.Get(c.url)
					if err != nil {
						b.Fatal(err)
					}
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
			})
		})
	}
}

// BenchmarkReenviarPOST is a registration's size of body through the gateway, which reads it whole
// before forwarding it (topes.Retenido).
func BenchmarkReenviarPOST(b *testing.B) {
	ts := servidortest.Nuevo(b, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header()["Content-Type"] = []string{"application/json"}
		w.Header()["Content-Length"] = []string{"9"}
		w.WriteHeader(http.StatusCreated)
		io.WriteString(w, `{"id":7}`+"\n")
	}))
	addr, _ := levantar(b, ts.URL)
	cliente := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	defer cliente.CloseIdleConnections()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			resp, err := cliente.Post("http://"+addr+"/servicios", "application/json", strings.NewReader(cuerpoPorPasarela))
			if err != nil {
				b.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	})
}

// HEAD comes back with the revisor's Content-Length, not 0: it says what a GET would carry.
func TestHeadConservaContentLength(t *testing.T) {
	t.Parallel()
	const cuerpo = `{"servicios":[]}` + "\n"
	ts := servidortest.Nuevo(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Type"] = []string{"application/json"}
		w.Header()["Content-Length"] = []string{strconv.Itoa(len(cuerpo))}
		w.WriteHeader(200)
		if r.Method != http.MethodHead {
			io.WriteString(w, cuerpo)
		}
	}))
	addr, _ := levantar(t, ts.URL)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "HEAD /servicios HTTP/1.1\r\nHost: p\r\nConnection: close\r\n\r\n")
	got, err := io.ReadAll(c)
	if err != nil {
		t.Fatal(err)
	}
	want := "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 17\r\nConnection: close\r\n\r\n"
	if sinFecha(string(got)) != want {
		t.Fatalf("respuesta:\n%q\nse esperaba:\n%q", sinFecha(string(got)), want)
	}
}

// Repeated request fields reach the revisor as the course's gateway reads them: the first
// Authorization and Content-Type, the list fields joined; two X-Simular fields are not the order.
func TestCabecerasRepetidas(t *testing.T) {
	t.Parallel()
	destino, vistas := revisorFalso(t)
	addr, log := levantar(t, destino)
	got := prueba.PedirCrudo(t, addr, post("Authorization: Bearer escritura-b\r\nContent-Type: text/plain\r\n"+
		"Idempotency-Key: a\r\nIdempotency-Key: b\r\nIf-Match: \"1\"\r\nIf-Match: \"2\"\r\n"+
		"X-Simular: perder-primera\r\nX-Simular: perder-primera\r\n", cuerpoPorPasarela))
	if !strings.HasPrefix(got, "HTTP/1.1 201 Created\r\n") {
		t.Fatalf("dos X-Simular no piden perder:\n%s", got)
	}
	v := vistas()
	if len(v) != 1 {
		t.Fatalf("el revisor vio %d peticiones", len(v))
	}
	want := http.Header{
		"Authorization":   {"Bearer escritura-a"},
		"Content-Type":    {"application/json"},
		"Idempotency-Key": {"a, b"},
		"If-Match":        {`"1", "2"`},
	}
	for n, w := range want {
		if g := v[0].cabeceras[n]; len(g) != 1 || g[0] != w[0] {
			t.Errorf("%s llegó como %q, se esperaba %q", n, g, w)
		}
	}
	if log.String() != "" {
		t.Errorf("bitácora %q", log.String())
	}
}

// The gateway passes the revisor's reason phrase on, and writes the suite's own when none came.
func TestFraseDe(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		status string
		codigo int
		quiere string
	}{
		{"200 OK", 200, "OK"}, {"422 Unprocessable Content", 422, "Unprocessable Content"},
		{"299 unknown", 299, "unknown"}, {"200 ", 200, "OK"}, {"200", 200, "OK"}, {"201 Creado a mano", 201, "Creado a mano"},
		{"404 Not Found", 200, "OK"}, {"999 x", 999, "x"},
	} {
		if got := fraseDe(&http.Response{Status: c.status, StatusCode: c.codigo}); got != c.quiere {
			t.Errorf("%q (%d): %q, quiere %q", c.status, c.codigo, got, c.quiere)
		}
	}
}
