package encabezado

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

func servidor(t *testing.T, h http.HandlerFunc) string {
	t.Helper()
	ts := httptest.NewUnstartedServer(h)
	ts.Listener = Envolver(ts.Listener)
	ts.Config.ConnContext = ConnContext
	ts.Start()
	t.Cleanup(ts.Close)
	return ts.Listener.Addr().String()
}

// pedir sends raw requests on one connection and returns each status line.
func pedir(t *testing.T, addr string, rutas ...string) []string {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	br := bufio.NewReader(c)
	var lineas []string
	for _, ruta := range rutas {
		req, _ := http.NewRequest("GET", "http://"+addr+ruta, nil)
		if err := req.Write(c); err != nil {
			t.Fatal(err)
		}
		res, err := http.ReadResponse(br, req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		lineas = append(lineas, res.Proto+" "+res.Status)
	}
	return lineas
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
	addr := servidor(t, func(w http.ResponseWriter, r *http.Request) {
		var codigo int
		switch r.URL.Path {
		case "/413":
			codigo = 413
		case "/422":
			codigo = 422
		case "/299":
			codigo = 299
		case "/700":
			codigo = 700
		default:
			codigo = 200
		}
		w.Header().Set("Content-Length", "3")
		Escribir(w, r, codigo)
		io.WriteString(w, "abc")
	})
	// Several responses on one kept-alive connection: each gets its own phrase, the framing holds.
	got := pedir(t, addr, "/413", "/200", "/422", "/299", "/700", "/200")
	quiere := []string{
		"HTTP/1.1 413 Content Too Large", "HTTP/1.1 200 OK", "HTTP/1.1 422 Unprocessable Content",
		"HTTP/1.1 299 unknown", "HTTP/1.1 700 unknown", "HTTP/1.1 200 OK",
	}
	if strings.Join(got, "|") != strings.Join(quiere, "|") {
		t.Errorf("líneas:\n%v\nquiere:\n%v", got, quiere)
	}
}

func TestCuerpoGrandeNoConfundeLaLinea(t *testing.T) {
	t.Parallel()
	cuerpo := strings.Repeat("HTTP/1.1 422 x\r\n", 1000)
	addr := servidor(t, func(w http.ResponseWriter, r *http.Request) {
		Escribir(w, r, 422)
		io.WriteString(w, cuerpo)
	})
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	if res.Status != "422 Unprocessable Content" || string(b) != cuerpo {
		t.Errorf("estado %q, cuerpo intacto %v", res.Status, string(b) == cuerpo)
	}
}

// A handler's own rewrite goes through the same hook: it changes only the head of the response that
// asked for it, and the last one asked before the head leaves is the one applied.
func TestReescribirSoloLaCabezaPedida(t *testing.T) {
	t.Parallel()
	addr := servidor(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/minusculas" {
			Reescribir(r, func(dst, p []byte) []byte { return append(dst, bytes.ToLower(p)...) })
		}
		if r.URL.Path == "/dos" {
			Reescribir(r, func(dst, p []byte) []byte { return append(dst, "no se usa"...) })
			Reescribir(r, func(dst, p []byte) []byte { return CambiarFrase(dst, p, 200, "Bien") })
		}
		w.Header().Set("X-Uno", "A")
		io.WriteString(w, "abc")
	})
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	br := bufio.NewReader(c)
	for _, q := range []struct{ ruta, linea, cabecera string }{
		{"/minusculas", "http/1.1 200 ok\r\n", "x-uno: a\r\n"},
		{"/", "HTTP/1.1 200 OK\r\n", "X-Uno: A\r\n"},
		{"/dos", "HTTP/1.1 200 Bien\r\n", "X-Uno: A\r\n"},
	} {
		io.WriteString(c, "GET "+q.ruta+" HTTP/1.1\r\nHost: x\r\n\r\n")
		var cabeza []string
		for {
			l, err := br.ReadString('\n')
			if err != nil {
				t.Fatal(err)
			}
			if l == "\r\n" {
				break
			}
			cabeza = append(cabeza, l)
		}
		cuerpo := make([]byte, 3)
		if _, err := io.ReadFull(br, cuerpo); err != nil || string(cuerpo) != "abc" {
			t.Fatalf("%s: cuerpo %q %v", q.ruta, cuerpo, err)
		}
		if cabeza[0] != q.linea || !slices.Contains(cabeza, q.cabecera) {
			t.Errorf("%s: cabeza %q", q.ruta, cabeza)
		}
	}
}

func TestSinConexionEnvueltaUsaLaDeGo(t *testing.T) {
	t.Parallel()
	rec := httptest.NewRecorder()
	Escribir(rec, httptest.NewRequest("GET", "/", nil), 413)
	if rec.Code != 413 {
		t.Errorf("código %d", rec.Code)
	}
}

func BenchmarkEscribirConFrasePropia(b *testing.B) {
	ts := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		Escribir(w, r, 422)
	}))
	ts.Listener = Envolver(ts.Listener)
	ts.Config.ConnContext = ConnContext
	ts.Start()
	defer ts.Close()
	cliente := ts.Client()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := cliente.Get(ts.URL)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
	}
}
