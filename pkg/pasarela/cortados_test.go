package pasarela

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cursohttp/internal/prueba"
	"cursohttp/internal/prueba/servidortest"
	"cursohttp/pkg/servidor"
	"cursohttp/pkg/topes"
)

// Issue 16: a client whose body fails (it closes early, resets, or sends a malformed chunk) is
// answered at once and never holds the revisor, which would wait for the rest until its own read
// timeout (30 s); and an upload the revisor refuses early gets the 413, not a reset.

// lectura is what an upstream saw of the bodies it read.
type lectura struct {
	vistas, leyendo atomic.Int64 // requests seen; bodies still being read
	// agotadas counts bodies whose read ended at the server's read deadline (EsperaLectura): the
	// upstream was held until its own timeout instead of being let go when the client's body failed.
	agotadas atomic.Int64
}

// libre waits until the upstream reads no body, and fails the test if any read had to wait for its
// deadline to end.
func (l *lectura) libre(t *testing.T) {
	t.Helper()
	prueba.Esperar(t, "el revisor deja de esperar el resto de los cuerpos", func() bool { return l.leyendo.Load() == 0 })
	if n := l.agotadas.Load(); n != 0 {
		t.Errorf("el revisor esperó el resto de %d cuerpos hasta su propio plazo de lectura", n)
	}
}

// revisorQueLee is an upstream with the suite's server settings that reads every body whole, as the
// revisor does, and tells how its reads went.
func revisorQueLee(t *testing.T) (url string, l *lectura) {
	t.Helper()
	l = &lectura{}
	ts := servidortest.Nuevo(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.vistas.Add(1)
		l.leyendo.Add(1)
		_, err := io.ReadAll(r.Body)
		if ne := net.Error(nil); errors.As(err, &ne) && ne.Timeout() {
			l.agotadas.Add(1)
		}
		l.leyendo.Add(-1)
		if err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		w.Write([]byte("ok"))
	}))
	return ts.URL, l
}

const cabecerasDeAlta = "POST /servicios HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer escritura-a\r\nContent-Type: application/json\r\n"

func TestCuerpoQueFallaSeRespondeEnSeguida(t *testing.T) {
	t.Parallel()
	cienKB := strings.Repeat("a", 100<<10)
	casos := []struct {
		nombre   string
		peticion string
		final    func(*net.TCPConn) error // how the client ends its body
		responde bool                     // the client still reads: it must get the bare 400
	}{
		{"trozo malformado", cabecerasDeAlta + "Transfer-Encoding: chunked\r\n\r\n-1\r\n", nil, true},
		{"trozo malformado tras 100 KB", cabecerasDeAlta + "Transfer-Encoding: chunked\r\n\r\n" +
			fmt.Sprintf("%x\r\n%s\r\nzz\r\n", len(cienKB), cienKB), nil, true},
		{"cierre a mitad", cabecerasDeAlta + "Content-Length: 100\r\n\r\n{", (*net.TCPConn).CloseWrite, false},
		{"cierre tras 100 KB", cabecerasDeAlta + "Content-Length: 1000000\r\n\r\n" + cienKB, (*net.TCPConn).CloseWrite, false},
		{"reset tras 100 KB", cabecerasDeAlta + "Content-Length: 1000000\r\n\r\n" + cienKB, func(c *net.TCPConn) error {
			c.SetLinger(0)
			return c.Close()
		}, false},
	}
	for _, c := range casos {
		t.Run(c.nombre, func(t *testing.T) {
			t.Parallel()
			destino, lectura := revisorQueLee(t)
			addr, _ := levantar(t, destino)
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			t0 := time.Now()
			escrita := make(chan struct{})
			go func() { // the gateway may answer before reading it all
				defer close(escrita)
				io.WriteString(conn, c.peticion)
			}()
			if c.final != nil {
				<-escrita // what the client sent is on its way, then it ends its body
				c.final(conn.(*net.TCPConn))
			}
			if c.responde {
				conn.SetReadDeadline(time.Now().Add(5 * time.Second))
				linea, err := bufio.NewReader(conn).ReadString('\n')
				if d := time.Since(t0); err != nil || linea != "HTTP/1.1 400 Bad Request\r\n" || d > time.Second {
					t.Errorf("respondió %q (%v) a los %s; se esperaba el 400 del parser en menos de 1 s", linea, err, d.Round(time.Millisecond))
				}
			}
			lectura.libre(t)
		})
	}
}

// An aborted upload that fits in what the gateway reads first never reaches the revisor, and a
// flood of them leaves the gateway answering.
func TestSubidasAbortadasNoLleganAlRevisor(t *testing.T) {
	t.Parallel()
	destino, lectura := revisorQueLee(t)
	addr, _ := levantar(t, destino)
	const subidas, aLaVez = 500, 25
	var wg sync.WaitGroup
	turnos := make(chan struct{}, aLaVez)
	for range subidas {
		wg.Add(1)
		turnos <- struct{}{}
		go func() {
			defer func() { <-turnos; wg.Done() }()
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Error(err)
				return
			}
			io.WriteString(c, "POST /servicios HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")
			c.Close()
		}()
	}
	wg.Wait()
	cliente := &http.Client{Timeout: 2 * time.Second}
	t0 := time.Now()
	res, err := cliente.Get("http://" + addr + "/servicios")
	if err != nil {
		t.Fatalf("tras %d subidas abortadas, una petición normal: %v", subidas, err)
	}
	res.Body.Close()
	t.Logf("tras %d subidas abortadas, GET: %d en %s", subidas, res.StatusCode, time.Since(t0).Round(time.Millisecond))
	lectura.libre(t)
	if n := lectura.vistas.Load(); n != 1 {
		t.Errorf("el revisor vio %d peticiones; solo debía ver el GET", n)
	}
}

// A 10 MB upload the revisor refuses early: a client that writes the whole body before reading
// (Python's urllib does) gets the 413 through the gateway, as it does from the revisor.
func TestSubidaGrandeRecibeEl413(t *testing.T) {
	t.Parallel()
	ts := servidortest.Nuevo(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// What the revisor does with a Content-Length over its limit.
		h := w.Header()
		h["Connection"] = []string{"close"}
		h["Content-Length"] = []string{"4"}
		w.WriteHeader(http.StatusRequestEntityTooLarge)
		io.WriteString(w, "gran")
		servidor.CerrarEnEtapas(w, time.Now().Add(topes.EsperaCierre))
	}))
	addr, _ := levantar(t, ts.URL)
	for i := range 3 {
		codigo, err := subirYLeer(addr, 10<<20)
		if err != nil || codigo != http.StatusRequestEntityTooLarge {
			t.Fatalf("subida %d: %d, %v; se esperaba el 413", i+1, codigo, err)
		}
	}
}

// subirYLeer sends a POST with n bytes of body, all of it, and only then reads the answer.
func subirYLeer(addr string, n int) (int, error) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(20 * time.Second))
	if _, err := fmt.Fprintf(c, cabecerasDeAlta+"Content-Length: %d\r\n\r\n", n); err != nil {
		return 0, err
	}
	trozo := make([]byte, 64<<10)
	for enviados := 0; enviados < n; enviados += len(trozo) {
		if _, err := c.Write(trozo[:min(len(trozo), n-enviados)]); err != nil {
			return 0, fmt.Errorf("escribiendo el cuerpo: %w", err)
		}
	}
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return 0, fmt.Errorf("leyendo la respuesta: %w", err)
	}
	res.Body.Close()
	return res.StatusCode, nil
}
