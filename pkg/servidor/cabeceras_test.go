package servidor

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"cursohttp/pkg/encabezado"
	"cursohttp/pkg/topes"
)

// servirCon is servir with the given options.
func servirCon(t *testing.T, o Opciones, h http.Handler) string {
	t.Helper()
	o.Direccion = "127.0.0.1"
	ln, err := Escuchar("prueba", o)
	if err != nil {
		t.Fatal(err)
	}
	srv := Nuevo(h)
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// cabezaDe reads one answer's head from br: its lines, without the blank one.
func cabezaDe(t *testing.T, br *bufio.Reader) []string {
	t.Helper()
	var lineas []string
	for {
		l, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("cabeza %q: %v", lineas, err)
		}
		if l == "\r\n" {
			return lineas
		}
		lineas = append(lineas, strings.TrimSuffix(l, "\r\n"))
	}
}

func alta(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h["Location"] = []string{"/servicios/7"}
	h["Content-Type"] = []string{"application/json"}
	h["Content-Length"] = []string{"3"}
	encabezado.Escribir(w, r, http.StatusCreated, "Location", "Content-Type", "Content-Length")
	io.WriteString(w, "{}\n")
}

// A server answers in the course's order with Node's «Keep-Alive: timeout=5», and keeps the promise:
// its idle timeout is those 5 s, and an idle connection is closed after them (not in -short).
func TestKeepAliveCumpleLoQuePromete(t *testing.T) {
	t.Parallel()
	if got := Nuevo(http.NotFoundHandler()).IdleTimeout; got != topes.EsperaOciosa || topes.EsperaOciosa != 5*time.Second {
		t.Fatalf("IdleTimeout %v, topes.EsperaOciosa %v: Node's keepAliveTimeout is 5 s", got, topes.EsperaOciosa)
	}
	addr := servirCon(t, Opciones{}, http.HandlerFunc(alta))
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	br := bufio.NewReader(c)
	cabeza := cabezaDe(t, br)
	quiere := []string{"HTTP/1.1 201 Created", "Location: /servicios/7", "Content-Type: application/json", "Content-Length: 3",
		"Date: ", "Connection: keep-alive", "Keep-Alive: timeout=" + strconv.Itoa(int(topes.EsperaOciosa/time.Second))}
	if len(cabeza) != len(quiere) {
		t.Fatalf("cabeza %q", cabeza)
	}
	for i := range quiere {
		if !strings.HasPrefix(cabeza[i], quiere[i]) {
			t.Errorf("línea %d: %q, quiere %q", i+1, cabeza[i], quiere[i])
		}
	}
	if _, err := io.ReadFull(br, make([]byte, 3)); err != nil {
		t.Fatal(err)
	}
	if testing.Short() {
		return
	}
	// The connection is idle from here: the server closes it once the promise runs out.
	desde := time.Now()
	c.SetReadDeadline(desde.Add(topes.EsperaOciosa + 5*time.Second))
	_, err = br.ReadByte()
	espera := time.Since(desde)
	if !errors.Is(err, io.EOF) || espera < topes.EsperaOciosa-time.Second || espera > topes.EsperaOciosa+2*time.Second {
		t.Errorf("conexión quieta: %v tras %v, quiere el cierre a los %v", err, espera, topes.EsperaOciosa)
	}
}

// --cabeceras go (or CURSOHTTP_CABECERAS=go) leaves net/http's head: sorted, no Node lines.
func TestCabecerasGo(t *testing.T) {
	t.Parallel()
	addr := servirCon(t, Opciones{Cabeceras: encabezado.Go}, http.HandlerFunc(alta))
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	cabeza := strings.Join(cabezaDe(t, bufio.NewReader(c)), "\n")
	if !strings.HasPrefix(cabeza, "HTTP/1.1 201 Created\nContent-Length: 3\nContent-Type: application/json\nLocation: /servicios/7\nDate: ") ||
		strings.Contains(cabeza, "Connection") || strings.Contains(cabeza, "Keep-Alive") {
		t.Errorf("cabeza en modo go:\n%s", cabeza)
	}
}

// Not parallel: t.Setenv.
func TestBanderaCabeceras(t *testing.T) {
	leer := func(args ...string) (Opciones, error) {
		var o Opciones
		fs := pflag.NewFlagSet("prueba", pflag.ContinueOnError)
		fs.SetOutput(io.Discard)
		o.Banderas(fs, 18080)
		return o, fs.Parse(args)
	}
	if o, err := leer(); err != nil || o.Cabeceras != encabezado.Curso {
		t.Errorf("por omisión: %v %v", o.Cabeceras, err)
	}
	if o, err := leer("--cabeceras", "go"); err != nil || o.Cabeceras != encabezado.Go {
		t.Errorf("--cabeceras go: %v %v", o.Cabeceras, err)
	}
	if _, err := leer("--cabeceras", "node"); err == nil || !strings.Contains(err.Error(), "curso o go") {
		t.Errorf("--cabeceras node: %v", err)
	}
	t.Setenv(EntornoCabeceras, "go")
	if o, err := leer(); err != nil || o.Cabeceras != encabezado.Go {
		t.Errorf("%s=go: %v %v", EntornoCabeceras, o.Cabeceras, err)
	}
	if o, err := leer("--cabeceras", "curso"); err != nil || o.Cabeceras != encabezado.Curso {
		t.Errorf("la bandera gana al entorno: %v %v", o.Cabeceras, err)
	}
}

// A head over 16 KiB gets Node's bare 431 (no body), as the course's servers answer it.
func Test431ComoNode(t *testing.T) {
	t.Parallel()
	addr := servir(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\nX: "+strings.Repeat("a", topes.Cabeceras)+"\r\n\r\n")
	if got := leerTodo(c); got != "HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n" {
		t.Errorf("respuesta %q", got)
	}
}
