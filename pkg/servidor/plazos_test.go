package servidor

import (
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"cursohttp/internal/prueba"
	"cursohttp/pkg/bitacora"
)

// servirConPlazos serves h as the servers do (Escuchar), with short net/http timeouts.
func servirConPlazos(t *testing.T, h http.Handler, cabeceras, lectura, ociosa time.Duration) string {
	t.Helper()
	log := &prueba.Buffer{}
	ln, err := Escuchar("prueba", Opciones{Direccion: "127.0.0.1", TopeConexiones: TopeConexionesPorOmision,
		TopePorCliente: TopePorClientePorOmision, Log: bitacora.NuevoLogger(log, log, false)})
	if err != nil {
		t.Fatal(err)
	}
	srv := Nuevo(h)
	srv.ReadHeaderTimeout, srv.ReadTimeout, srv.IdleTimeout = cabeceras, lectura, ociosa
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// cortadaA writes inicio, then one byte of resto every cadencia, and returns when the server
// closed the connection, how long after the start, and what it sent.
func cortadaA(t *testing.T, addr, inicio, resto string, cadencia time.Duration) (time.Duration, string) {
	t.Helper()
	c := conectar(t, addr, "")
	t0 := time.Now()
	io.WriteString(c, inicio)
	parar := make(chan struct{})
	defer close(parar)
	go func() {
		for i := 0; ; i++ {
			select {
			case <-parar:
				return
			case <-time.After(cadencia):
			}
			if _, err := c.Write([]byte{resto[i%len(resto)]}); err != nil {
				return
			}
		}
	}()
	c.SetReadDeadline(t0.Add(5 * time.Second))
	b, err := io.ReadAll(c)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("la conexión seguía abierta a los 5 s")
	}
	return time.Since(t0), string(b)
}

// The read deadlines net/http sets are kept by the listener's keeper, not by a timer each: a
// trickle of headers is cut at ReadHeaderTimeout, a trickle of body at ReadTimeout (the handler
// still answers), a quiet keep-alive connection at IdleTimeout, each within a round of the keeper;
// a normal request on the same server is served meanwhile.
func TestPlazosDeLecturaComoNetHTTP(t *testing.T) {
	t.Parallel()
	const cabeceras, lectura, ociosa = 400 * time.Millisecond, 900 * time.Millisecond, 600 * time.Millisecond
	addr := servirConPlazos(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, "cuerpo cortado")
			return
		}
		io.WriteString(w, "ok")
	}), cabeceras, lectura, ociosa)
	holgura := 2*cadaPlazo + 150*time.Millisecond
	dentro := func(que string, d, quiere time.Duration) {
		t.Helper()
		if d < quiere-50*time.Millisecond || d > quiere+holgura {
			t.Errorf("%s: cortada a los %s, se esperaba a los %s", que, d.Round(time.Millisecond), quiere)
		}
	}

	d, _ := cortadaA(t, addr, "GET / HTTP/1.1\r\nHost: x\r\nX-Goteo: ", "abcdef", 50*time.Millisecond)
	dentro("cabeceras goteadas", d, cabeceras)

	d, recibido := cortadaA(t, addr, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n", "abcdef", 50*time.Millisecond)
	dentro("cuerpo goteado", d, lectura)
	if !strings.HasPrefix(recibido, "HTTP/1.1 400 ") || !strings.HasSuffix(recibido, "cuerpo cortado") {
		t.Errorf("cuerpo goteado: el manejador no respondió tras el plazo: %q", recibido)
	}

	c := conectar(t, addr, "")
	if r := pedirEn(c, "/"); r != "ok" {
		t.Fatalf("una petición normal: %q", r)
	}
	t0 := time.Now()
	c.SetReadDeadline(t0.Add(5 * time.Second))
	io.ReadAll(c)
	dentro("ociosa", time.Since(t0), ociosa)
}

// A deadline closer than a round of the keeper goes to the connection at once, to the millisecond:
// CerrarEnEtapas and the gateway's staged close rely on theirs.
func TestPlazoCercanoExacto(t *testing.T) {
	t.Parallel()
	addr := servirConPlazos(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.NewResponseController(w).SetReadDeadline(time.Now().Add(60 * time.Millisecond))
		_, err := io.ReadAll(r.Body)
		if ne, ok := err.(net.Error); !ok || !ne.Timeout() {
			t.Errorf("leer tras el plazo cercano: %v", err)
		}
		io.WriteString(w, "fin")
	}), time.Second, 5*time.Second, 5*time.Second)
	c := conectar(t, addr, "")
	t0 := time.Now()
	io.WriteString(c, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nab")
	c.SetReadDeadline(t0.Add(3 * time.Second))
	b := make([]byte, 512)
	n, _ := c.Read(b)
	if d := time.Since(t0); d > 60*time.Millisecond+cadaPlazo/2 || !strings.HasSuffix(string(b[:n]), "fin") {
		t.Errorf("respondió %q a los %s", b[:n], d)
	}
}
