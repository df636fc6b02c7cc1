package pasarela

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cursohttp/internal/prueba/servidortest"
	"cursohttp/pkg/servidor"
)

// Issue 16: a client whose body fails (it closes early, resets, or sends a malformed chunk) is
// answered at once and never holds the revisor, which would wait for the rest until its own read
// timeout (30 s); and an upload the revisor refuses early gets the 413, not a reset.

// revisorQueLee is an upstream with the suite's server settings that reads every body whole, as the
// revisor does, and counts the requests it saw and those still reading.
func revisorQueLee(t *testing.T) (url string, vistas, leyendo *atomic.Int64) {
	t.Helper()
	vistas, leyendo = new(atomic.Int64), new(atomic.Int64)
	ts := servidortest.Nuevo(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		vistas.Add(1)
		leyendo.Add(1)
		_, err := io.ReadAll(r.Body)
		leyendo.Add(-1)
		if err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		w.Write([]byte("ok"))
	}))
	return ts.URL, vistas, leyendo
}

// hastaQue waits up to plazo for cond, and says whether it came true.
func hastaQue(plazo time.Duration, cond func() bool) bool {
	for fin := time.Now().Add(plazo); ; time.Sleep(5 * time.Millisecond) {
		if cond() {
			return true
		}
		if time.Now().After(fin) {
			return false
		}
	}
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
			destino, _, leyendo := revisorQueLee(t)
			addr, _ := levantar(t, destino)
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			t0 := time.Now()
			go io.WriteString(conn, c.peticion) // the gateway may answer before reading it all
			if c.final != nil {
				time.Sleep(50 * time.Millisecond)
				c.final(conn.(*net.TCPConn))
			}
			if c.responde {
				conn.SetReadDeadline(time.Now().Add(5 * time.Second))
				linea, err := bufio.NewReader(conn).ReadString('\n')
				if d := time.Since(t0); err != nil || linea != "HTTP/1.1 400 Bad Request\r\n" || d > time.Second {
					t.Errorf("respondió %q (%v) a los %s; se esperaba el 400 del parser en menos de 1 s", linea, err, d.Round(time.Millisecond))
				}
			}
			if !hastaQue(time.Second, func() bool { return leyendo.Load() == 0 }) {
				t.Errorf("1 s después el revisor seguía esperando el resto del cuerpo")
			}
		})
	}
}

// An aborted upload that fits in what the gateway reads first never reaches the revisor, and a
// flood of them leaves the gateway answering.
func TestSubidasAbortadasNoLleganAlRevisor(t *testing.T) {
	t.Parallel()
	destino, vistas, leyendo := revisorQueLee(t)
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
	if !hastaQue(time.Second, func() bool { return leyendo.Load() == 0 }) {
		t.Errorf("el revisor seguía esperando %d cuerpos", leyendo.Load())
	}
	if n := vistas.Load(); n != 1 {
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
		servidor.CerrarEnEtapas(w, time.Now().Add(servidor.EsperaCierre))
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
