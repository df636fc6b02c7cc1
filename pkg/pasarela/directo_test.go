package pasarela

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"cursohttp/internal/prueba"
)

// contarConexiones serves h and counts the connections clients opened.
func contarConexiones(t *testing.T, h http.Handler) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	ts := httptest.NewUnstartedServer(h)
	ts.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			n.Add(1)
		}
	}
	ts.Start()
	t.Cleanup(ts.Close)
	return ts, &n
}

func ir(t *testing.T, d *Directo, metodo, url string, cuerpo io.Reader, largo int64) (int, string) {
	t.Helper()
	req, err := http.NewRequest(metodo, url, cuerpo)
	if err != nil {
		t.Fatal(err)
	}
	if cuerpo == nil {
		req.Body = nil
	}
	req.ContentLength = largo
	resp, err := d.RoundTrip(req)
	if err != nil {
		t.Fatalf("%s %s: %v", metodo, url, err)
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatalf("%s %s: leyendo: %v", metodo, url, err)
	}
	return resp.StatusCode, string(b)
}

func eco(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	w.Header().Set("X-Metodo", r.Method)
	w.Write([]byte(r.Method + " " + r.URL.RequestURI() + " " + string(b)))
}

func TestDirectoReusaUnaConexion(t *testing.T) {
	t.Parallel()
	ts, n := contarConexiones(t, http.HandlerFunc(eco))
	d := NuevoDirecto()
	defer d.CloseIdleConnections()
	for i := range 20 {
		var cod int
		var cuerpo string
		switch i % 3 {
		case 0:
			cod, cuerpo = ir(t, d, "GET", ts.URL+"/a?b="+strconv.Itoa(i), nil, 0)
			if cuerpo != "GET /a?b="+strconv.Itoa(i)+" " {
				t.Fatalf("GET: %q", cuerpo)
			}
		case 1:
			cod, cuerpo = ir(t, d, "POST", ts.URL+"/p", strings.NewReader(`{"a":1}`), 7)
			if cuerpo != `POST /p {"a":1}` {
				t.Fatalf("POST con Content-Length: %q", cuerpo)
			}
		case 2:
			cod, cuerpo = ir(t, d, "PUT", ts.URL+"/q", io.MultiReader(strings.NewReader("por "), strings.NewReader("partes")), -1)
			if cuerpo != "PUT /q por partes" {
				t.Fatalf("PUT por partes: %q", cuerpo)
			}
		}
		if cod != 200 {
			t.Fatalf("código %d", cod)
		}
	}
	if n.Load() != 1 {
		t.Errorf("%d conexiones para 20 peticiones seguidas", n.Load())
	}
}

func TestDirectoHEADyCuerpoVacio(t *testing.T) {
	t.Parallel()
	ts, _ := contarConexiones(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "5")
		if r.Method != "HEAD" {
			w.Write([]byte("hola!"))
		}
	}))
	d := NuevoDirecto()
	if cod, cuerpo := ir(t, d, "HEAD", ts.URL, nil, 0); cod != 200 || cuerpo != "" {
		t.Errorf("HEAD: %d %q", cod, cuerpo)
	}
	if cod, cuerpo := ir(t, d, "GET", ts.URL, nil, 0); cod != 200 || cuerpo != "hola!" {
		t.Errorf("GET tras HEAD: %d %q", cod, cuerpo)
	}
}

// A pooled connection the revisor closed while idle (it restarted, say) is noticed before use, so
// even a request with a body, which is never re-sent, goes out on a new one.
func TestDirectoConexionCerradaMientrasEspera(t *testing.T) {
	t.Parallel()
	ts, n := contarConexiones(t, http.HandlerFunc(eco))
	d := NuevoDirecto()
	ir(t, d, "GET", ts.URL, nil, 0)
	ts.CloseClientConnections()
	esperarCierreDeLasOciosas(t, d)
	if cod, cuerpo := ir(t, d, "POST", ts.URL+"/x", strings.NewReader("uno"), 3); cod != 200 || cuerpo != "POST /x uno" {
		t.Errorf("POST tras el cierre: %d %q", cod, cuerpo)
	}
	ts.CloseClientConnections()
	esperarCierreDeLasOciosas(t, d)
	if cod, _ := ir(t, d, "GET", ts.URL, nil, 0); cod != 200 {
		t.Errorf("GET tras el cierre: %d", cod)
	}
	if n.Load() != 3 {
		t.Errorf("%d conexiones, se esperaban 3", n.Load())
	}
}

// esperarCierreDeLasOciosas waits until the revisor's close of every pooled connection has reached
// the gateway's end of it.
func esperarCierreDeLasOciosas(t *testing.T, d *Directo) {
	t.Helper()
	d.mu.Lock()
	ociosas := append([]*conexionDirecta(nil), d.ociosas...)
	d.mu.Unlock()
	for _, cd := range ociosas {
		esperarLegible(t, cd.c)
	}
}

// A connection closed after a request went out is not re-sent when the request has a body (the
// revisor may have done it), and is re-sent once when it has none and no answer came.
func TestDirectoNuncaReenviaUnCuerpo(t *testing.T) {
	t.Parallel()
	var peticiones atomic.Int64
	url := "http://" + prueba.ServidorCrudo(t, func(c net.Conn) {
		br := bufio.NewReader(c)
		for {
			req, err := http.ReadRequest(br)
			if err != nil {
				return
			}
			io.Copy(io.Discard, req.Body)
			if peticiones.Add(1) == 1 {
				io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
				continue
			}
			return // closes without answering
		}
	})
	d := NuevoDirecto()
	ir(t, d, "GET", url, nil, 0)
	req, _ := http.NewRequest("POST", url, strings.NewReader("alta"))
	if _, err := d.RoundTrip(req); err == nil {
		t.Fatal("un POST sin respuesta debía dar error")
	}
	if got := peticiones.Load(); got != 2 {
		t.Errorf("el POST llegó %d veces en total con el GET, se esperaban 2", got)
	}
}

// The revisor answers 413 and closes after reading a little of a large upload: the answer is
// passed on, not turned into an error by the upload that could not finish.
func TestDirectoRespuestaAntesDelFinDeLaSubida(t *testing.T) {
	t.Parallel()
	url := "http://" + prueba.ServidorCrudo(t, func(c net.Conn) {
		br := bufio.NewReader(c)
		req, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		io.CopyN(io.Discard, req.Body, 1000)
		io.WriteString(c, "HTTP/1.1 413 Content Too Large\r\nConnection: close\r\nContent-Length: 4\r\n\r\ngran")
		c.(*net.TCPConn).CloseWrite()
		c.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
		io.Copy(io.Discard, br)
	})
	d := NuevoDirecto()
	req, _ := http.NewRequest("POST", url, io.LimitReader(infinito{}, 50<<20))
	req.ContentLength = -1
	resp, err := d.RoundTrip(req)
	if err != nil {
		t.Fatalf("se perdió el 413: %v", err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 413 || string(b) != "gran" {
		t.Errorf("%d %q", resp.StatusCode, b)
	}
}

type infinito struct{}

func (infinito) Read(p []byte) (int, error) { return len(p), nil }

// An answer closed before its end leaves its connection closed, quickly, not drained. This also
// pins what Directo relies on and net/http does not document: the body http.ReadResponse returns,
// closed once its connection is closed, returns at once instead of reading the rest.
func TestDirectoCierreAnticipado(t *testing.T) {
	t.Parallel()
	ts, n := contarConexiones(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/grande" {
			for range 1000 {
				if _, err := w.Write(make([]byte, 64<<10)); err != nil {
					return
				}
			}
			return
		}
		w.Write([]byte("ok"))
	}))
	d := NuevoDirecto()
	req, _ := http.NewRequest("GET", ts.URL+"/grande", nil)
	resp, err := d.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	io.ReadFull(resp.Body, make([]byte, 10))
	t0 := time.Now()
	resp.Body.Close()
	if time.Since(t0) > time.Second {
		t.Errorf("Close tardó %s: leyó el resto", time.Since(t0))
	}
	if cod, _ := ir(t, d, "GET", ts.URL+"/chico", nil, 0); cod != 200 || n.Load() != 2 {
		t.Errorf("%d, %d conexiones; la cortada no debía reusarse", cod, n.Load())
	}
}

func TestDirectoNoReusaLoQueElRevisorCierraNiLoViejo(t *testing.T) {
	t.Parallel()
	ts, n := contarConexiones(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/cierra" {
			w.Header().Set("Connection", "close")
		}
		w.Write([]byte("ok"))
	}))
	d := NuevoDirecto()
	ir(t, d, "GET", ts.URL+"/cierra", nil, 0)
	ir(t, d, "GET", ts.URL+"/a", nil, 0) // a new one: the first said close
	// The second grows old: idle since longer ago than Ociosa, as after a quiet spell (the timer
	// that closes old ones on its own has a test of its own: TestDirectoCierraLasOciosas).
	d.mu.Lock()
	for _, cd := range d.ociosas {
		cd.desde = cd.desde.Add(-2 * d.Ociosa)
	}
	d.mu.Unlock()
	ir(t, d, "GET", ts.URL+"/b", nil, 0) // a new one: the second is too old
	ir(t, d, "GET", ts.URL+"/c", nil, 0) // the third, reused
	if n.Load() != 3 {
		t.Errorf("%d conexiones, se esperaban 3", n.Load())
	}
}

func TestDirectoSinRevisorYSinRespuesta(t *testing.T) {
	t.Parallel()
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	d := NuevoDirecto()
	cuerpo := &cuerpoCerrado{r: strings.NewReader("x")}
	req, _ := http.NewRequest("POST", "http://"+addr, cuerpo)
	if _, err := d.RoundTrip(req); err == nil {
		t.Error("sin revisor debía dar error")
	}
	if !cuerpo.cerrado.Load() {
		t.Error("RoundTrip debe cerrar el cuerpo también cuando falla")
	}

	// A revisor that never answers (it holds the connection until the test ends): only Espera can
	// end the wait, so a timeout error is the proof, however loaded the machine is.
	url := "http://" + prueba.ServidorCrudo(t, func(c net.Conn) { io.Copy(io.Discard, c) })
	d.Espera = 50 * time.Millisecond
	req, _ = http.NewRequest("GET", url, nil)
	_, err := d.RoundTrip(req)
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() {
		t.Errorf("revisor mudo: %v", err)
	}
}

type cuerpoCerrado struct {
	r       io.Reader
	cerrado atomic.Bool
}

func (c *cuerpoCerrado) Read(p []byte) (int, error) { return c.r.Read(p) }
func (c *cuerpoCerrado) Close() error               { c.cerrado.Store(true); return nil }

// Many goroutines share the pool; -race checks the bookkeeping, and no more connections are opened
// than there are clients at once. It runs in a bubble (testing/synctest) over in-memory connections:
// an upload's writer that a loaded machine has not yet let report that it finished would otherwise
// hit Close's 50 ms wait for it, and the connection, rightly closed then, counted one too many.
// In the bubble that wait ends only when every goroutine is blocked, so only a writer truly stuck
// closes its connection, as the rule means.
func TestDirectoConcurrente(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		ln := prueba.NuevaEscuchaEnMemoria()
		srv := &http.Server{Handler: http.HandlerFunc(eco)}
		servido := make(chan error, 1)
		go func() { servido <- srv.Serve(ln) }()
		d := NuevoDirecto()
		d.Dial = ln.Dial
		// Idle expiry has tests of its own; here the bubble's clock, which moves whenever every
		// goroutine waits (each portable liveness check waits 1 ms), must not expire a connection.
		d.Ociosa = time.Hour
		var wg sync.WaitGroup
		for g := range 16 {
			wg.Go(func() {
				for i := range 50 {
					req, _ := http.NewRequestWithContext(context.Background(), "POST", "http://revisor/c", strings.NewReader(strconv.Itoa(g*1000+i)))
					resp, err := d.RoundTrip(req)
					if err != nil {
						t.Error(err)
						return
					}
					b, _ := io.ReadAll(resp.Body)
					resp.Body.Close()
					if want := "POST /c " + strconv.Itoa(g*1000+i); string(b) != want {
						t.Errorf("%q, se esperaba %q", b, want)
					}
				}
			})
		}
		wg.Wait()
		if n := ln.Marcadas(); n > 16 {
			t.Errorf("%d conexiones para 16 clientes", n)
		}
		d.CloseIdleConnections()
		srv.Close()
		if err := <-servido; !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("Serve: %v", err)
		}
	})
}

// https (a --destino a student could give) goes through the standard Transport.
func TestDirectoHTTPSporElOtro(t *testing.T) {
	t.Parallel()
	ts := httptest.NewTLSServer(http.HandlerFunc(eco))
	defer ts.Close()
	d := NuevoDirecto()
	d.Otro = ts.Client().Transport
	if cod, cuerpo := ir(t, d, "GET", ts.URL+"/s", nil, 0); cod != 200 || cuerpo != "GET /s " {
		t.Errorf("%d %q", cod, cuerpo)
	}
}

// A quiet gateway closes its idle connections after Ociosa, on its own.
func TestDirectoCierraLasOciosas(t *testing.T) {
	t.Parallel()
	var abiertas atomic.Int64
	ts := httptest.NewUnstartedServer(http.HandlerFunc(eco))
	ts.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		switch s {
		case http.StateNew:
			abiertas.Add(1)
		case http.StateClosed, http.StateHijacked:
			abiertas.Add(-1)
		}
	}
	ts.Start()
	defer ts.Close()
	d := NuevoDirecto()
	d.Ociosa = 50 * time.Millisecond
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() { defer wg.Done(); ir(t, d, "GET", ts.URL, nil, 0) }()
	}
	wg.Wait()
	prueba.Esperar(t, "la pasarela cierra sus conexiones ociosas", func() bool { return abiertas.Load() == 0 })
	if cod, _ := ir(t, d, "GET", ts.URL, nil, 0); cod != 200 {
		t.Errorf("después de cerrarlas: %d", cod)
	}
}

// conexionesDePrueba returns the client side of three connections to a plain TCP server: one open
// and quiet, one the server closed, and one on which the server sent bytes nobody asked for.
func conexionesDePrueba(t *testing.T) map[string]*conexionDirecta {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	servidor := make(chan net.Conn, 3)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			servidor <- c
		}
	}()
	conexiones := map[string]*conexionDirecta{}
	for _, nombre := range []string{"quieta", "cerrada", "con-bytes"} {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		otro := <-servidor
		t.Cleanup(func() { otro.Close() })
		switch nombre {
		case "cerrada":
			otro.Close()
		case "con-bytes":
			otro.Write([]byte("HTTP/1.1 200 OK\r\n"))
		}
		conexiones[nombre] = &conexionDirecta{c: c, br: bufio.NewReader(c), bw: bufio.NewWriter(c)}
	}
	// The FIN and the stray bytes reach the client's socket before anyone looks.
	esperarLegible(t, conexiones["cerrada"].c)
	esperarLegible(t, conexiones["con-bytes"].c)
	return conexiones
}

// Both ways of checking an idle connection (the peek of unix and the short read of Windows) agree:
// only an open, quiet connection is reused.
func TestVivaConEsperaYViva(t *testing.T) {
	t.Parallel()
	want := map[string]bool{"quieta": true, "cerrada": false, "con-bytes": false}
	for nombre, cd := range conexionesDePrueba(t) {
		if got := viva(cd); got != want[nombre] {
			t.Errorf("viva(%s) = %v", nombre, got)
		}
	}
	for nombre, cd := range conexionesDePrueba(t) {
		if got := vivaConEspera(cd, esperaSonda); got != want[nombre] {
			t.Errorf("vivaConEspera(%s) = %v", nombre, got)
		}
	}
	// The portable check leaves a live connection usable: the next request goes through it.
	cd := conexionesDePrueba(t)["quieta"]
	if !vivaConEspera(cd, esperaSonda) || !vivaConEspera(cd, esperaSonda) {
		t.Fatal("una conexión quieta dejó de estar viva al mirarla dos veces")
	}
	if _, err := cd.c.Write([]byte("x")); err != nil {
		t.Errorf("tras mirarla, no se puede escribir: %v", err)
	}
}

// The standard transport is the default; CURSOHTTP_RAPIDO=1 picks the gateway's own.
func TestTransportePorOmision(t *testing.T) {
	t.Parallel()
	for valor, quiere := range map[string]string{"": "*http.Transport", "0": "*http.Transport", "1": "*pasarela.Directo"} {
		entorno := func(n string) (string, bool) { return valor, n == VariableRapido && valor != "" }
		if got := fmt.Sprintf("%T", TransportePorOmision(entorno)); got != quiere {
			t.Errorf("%s=%q: %s, se esperaba %s", VariableRapido, valor, got, quiere)
		}
	}
}
