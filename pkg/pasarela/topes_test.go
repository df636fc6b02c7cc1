package pasarela

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"cursohttp/internal/prueba"
	"cursohttp/internal/prueba/servidortest"
	"cursohttp/pkg/bitacora"
	"cursohttp/pkg/topes"
)

// Issue 22, item 5: what the gateway holds is bounded by bytes, not only by counts.

// The ledger keeps topes.Libro entries of at most topes.CampoLibro bytes of path and key each, and
// its JSON writes «<» as one byte: 1,000 requests with 6 KB of «<» in path and key once made 16
// reads of /_pasarela/libro take 1.86 GB.
func TestLibroAcotadoEnBytes(t *testing.T) {
	t.Parallel()
	addr, _, _ := conRevisor(t)
	ruta := "/" + strings.Repeat("<", 6000)
	llave := strings.Repeat("<", 5999) + "ñ"
	const n = 20
	for range n {
		// Raw, as an attacker sends it (a Go client would escape each «<»); the revisor's answer,
		// whatever it is, does not matter: the ledger notes the request.
		if r := prueba.PedirCrudo(t, addr, "GET "+ruta+" HTTP/1.1\r\nHost: x\r\nIdempotency-Key: "+llave+"\r\n\r\n"); !strings.HasPrefix(r, "HTTP/1.1 ") {
			t.Fatalf("la petición larga: %.80q", r)
		}
	}
	if l := leerLibro(t, addr); len(l.Peticiones) != n {
		t.Fatalf("%d asientos, se esperaban %d", len(l.Peticiones), n)
	}
	codigo, cuerpo := pedirPor(t, "http://"+addr, "GET", RutaLibro, "")
	if codigo != 200 || strings.Contains(cuerpo, `\u003c`) {
		t.Fatalf("GET %s: %d, %d bytes, con \\u003c: %v", RutaLibro, codigo, len(cuerpo), strings.Contains(cuerpo, `\u003c`))
	}
	if max := n * 3 * topes.CampoLibro; len(cuerpo) > max {
		t.Errorf("el libro de %d peticiones ocupa %d bytes, más de %d", n, len(cuerpo), max)
	}
	for _, a := range leerLibro(t, addr).Peticiones {
		if len(a.Ruta) > topes.CampoLibro || len(a.Llave) > topes.CampoLibro || !strings.HasSuffix(a.Ruta, "…") ||
			!strings.HasPrefix(ruta, strings.TrimSuffix(a.Ruta, "…")) || !utf8.ValidString(a.Llave) {
			t.Fatalf("asiento de %d y %d bytes: %.80q… %.80q…", len(a.Ruta), len(a.Llave), a.Ruta, a.Llave)
		}
	}
}

func TestRecortar(t *testing.T) {
	t.Parallel()
	justo := strings.Repeat("a", topes.CampoLibro)
	if recortar(justo) != justo {
		t.Error("recortó lo que cabía")
	}
	// A cut never splits a character: «ñ» is two bytes.
	largo := strings.Repeat("ñ", topes.CampoLibro)
	if r := recortar(largo); len(r) > topes.CampoLibro || !utf8.ValidString(r) || !strings.HasSuffix(r, "…") {
		t.Errorf("%d bytes, válido %v: %q", len(r), utf8.ValidString(r), r[len(r)-8:])
	}
}

// The answers held at once take at most TopeRespuestas bytes together: beyond it the gateway
// streams them, whole and correct, as it streams one larger than topes.Respuesta; once the requests
// end the budget is whole again. (100 slow readers of a large listing once held 1.1 GB.)
func TestRespuestasRetenidasAcotadas(t *testing.T) {
	t.Parallel()
	grande := bytes.Repeat([]byte("0123456789abcdef"), 64<<10) // 1 MiB
	revisor := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/sin-largo" {
			w.(http.Flusher).Flush() // chunked: the gateway does not know the length
		}
		w.Write(grande)
	}))
	t.Cleanup(revisor.Close)
	u, _ := url.Parse(revisor.URL)
	const tope = 256 << 10
	log := &prueba.Buffer{}
	p := Nueva(Opciones{Destinos: []*url.URL{u}, Log: bitacora.NuevoLogger(log, log, false), TopeRespuestas: tope})
	ts := servidortest.Nuevo(t, p)
	addr := ts.Listener.Addr().String()

	// Slow readers: each asks and reads nothing for now.
	var lentos []net.Conn
	for i := range 6 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		ruta := "/servicios"
		if i%2 == 1 {
			ruta = "/sin-largo"
		}
		io.WriteString(c, "GET "+ruta+" HTTP/1.1\r\nHost: x\r\n\r\n")
		lentos = append(lentos, c)
	}
	// Meanwhile ordinary clients get the whole answer, and the budget is never exceeded.
	var wg sync.WaitGroup
	for _, ruta := range []string{"/servicios", "/sin-largo", "/servicios", "/sin-largo"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := http.Get(ts.URL + ruta)
			if err != nil {
				t.Error(err)
				return
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if !bytes.Equal(b, grande) {
				t.Errorf("%s: %d bytes, no la respuesta del revisor", ruta, len(b))
			}
		}()
		if usado := p.retenidas.usado.Load(); usado > tope {
			t.Errorf("retenidos %d bytes, más que el tope %d", usado, tope)
		}
	}
	wg.Wait()
	// The slow readers read at last: every one gets the whole answer.
	for _, c := range lentos {
		res, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		if !bytes.Equal(b, grande) {
			t.Errorf("lector lento: %d bytes", len(b))
		}
		c.Close()
	}
	prueba.Esperar(t, "el presupuesto de la pasarela vuelto a cero", func() bool { return p.retenidas.usado.Load() == 0 })
}
