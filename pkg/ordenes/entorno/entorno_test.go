package entorno

import (
	"net"
	"net/url"
	"os"
	"syscall"
	"testing"

	"cursohttp/internal/nodejs"
)

// A refused request names the course's program to start, by the port it went to.
func TestDescribirNadieEscucha(t *testing.T) {
	t.Parallel()
	rechazo := &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	for destino, want := range map[string]string{
		"http://127.0.0.1:18081/codigo/200": "nadie escucha en http://127.0.0.1:18081/codigo/200 (conexión rechazada): ¿está corriendo el laboratorio (bin/laboratorio)?",
		"http://127.0.0.1:18080/servicios":  "nadie escucha en http://127.0.0.1:18080/servicios (conexión rechazada): ¿está corriendo el revisor (bin/revisor)?",
		"http://127.0.0.1:18082/servicios":  "nadie escucha en http://127.0.0.1:18082/servicios (conexión rechazada): ¿está corriendo la pasarela (bin/pasarela) o laboratorio mentira?",
		"http://127.0.0.1:28080/x":          "nadie escucha en http://127.0.0.1:28080/x (conexión rechazada): ¿está corriendo?",
	} {
		if got := Describir(&url.Error{Op: "Get", URL: destino, Err: rechazo}); got != want {
			t.Errorf("%s:\n%q\nse esperaba\n%q", destino, got, want)
		}
	}
}

func TestRellenoComoJavaScript(t *testing.T) {
	t.Parallel()
	casos := []struct {
		s      string
		n      int
		fin    string
		inicio string
	}{
		{"—", 8, "—       ", "       —"},
		{"sí", 11, "sí         ", "         sí"},
		{"120 s", 8, "120 s   ", "   120 s"},
		{"😀", 4, "😀  ", "  😀"}, // two UTF-16 units
		{"respuesta-invalida", 19, "respuesta-invalida ", " respuesta-invalida"},
		{"demasiado largo", 4, "demasiado largo", "demasiado largo"},
	}
	for _, c := range casos {
		if got := PadEnd(c.s, c.n); got != c.fin {
			t.Errorf("PadEnd(%q, %d) = %q, se esperaba %q", c.s, c.n, got, c.fin)
		}
		if got := PadStart(c.s, c.n); got != c.inicio {
			t.Errorf("PadStart(%q, %d) = %q, se esperaba %q", c.s, c.n, got, c.inicio)
		}
	}
}

func TestTextoDeCuerpoComoFetch(t *testing.T) {
	t.Parallel()
	casos := map[string]string{
		"\ufeff{}":     "{}",
		"a\xe2\x82b":   "a\ufffdb", // one maximal subpart, one U+FFFD
		"a\xff\xfeb":   "a\ufffd\ufffdb",
		"\xed\xa0\x80": "\ufffd\ufffd\ufffd", // a surrogate is not UTF-8
		"limpio — sí":  "limpio — sí",
	}
	for entrada, esperado := range casos {
		if got := nodejs.Texto([]byte(entrada)); got != esperado {
			t.Errorf("nodejs.Texto(%q) = %q, se esperaba %q", entrada, got, esperado)
		}
	}
}
