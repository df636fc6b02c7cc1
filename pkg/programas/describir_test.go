package programas

import (
	"net"
	"net/url"
	"os"
	"syscall"
	"testing"
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
		if got := describir(&url.Error{Op: "Get", URL: destino, Err: rechazo}); got != want {
			t.Errorf("%s:\n%q\nse esperaba\n%q", destino, got, want)
		}
	}
}
