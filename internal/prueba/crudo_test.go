package prueba

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
)

// The raw server hands each connection over as it is, and the raw client gives back the head as
// written (order and case) with the body of its Content-Length.
func TestServidorYPeticionCrudos(t *testing.T) {
	t.Parallel()
	var atendidas atomic.Int64
	addr := ServidorCrudo(t, func(c net.Conn) {
		req, err := http.ReadRequest(bufio.NewReader(c))
		if err != nil {
			return
		}
		atendidas.Add(1)
		io.WriteString(c, "HTTP/1.1 201 Created\r\nZeta: 1\r\nalfa: 2\r\nContent-Length: 4\r\n\r\n"+req.Method+"!")
	})
	got := PedirCrudo(t, addr, "POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n")
	if want := "HTTP/1.1 201 Created\r\nZeta: 1\r\nalfa: 2\r\nContent-Length: 4\r\n\r\nPOST"; got != want {
		t.Errorf("PedirCrudo = %q; quiero %q", got, want)
	}
	if atendidas.Load() != 1 {
		t.Errorf("%d conexiones atendidas", atendidas.Load())
	}
}

// Without a Content-Length the body runs to the end of the connection.
func TestPeticionCrudaHastaElCierre(t *testing.T) {
	t.Parallel()
	addr := ServidorCrudo(t, func(c net.Conn) {
		bufio.NewReader(c).ReadString('\n')
		io.WriteString(c, "HTTP/1.0 200 OK\r\n\r\nhasta el final")
	})
	if got := PedirCrudo(t, addr, "GET / HTTP/1.0\r\n\r\n"); got != "HTTP/1.0 200 OK\r\n\r\nhasta el final" {
		t.Errorf("PedirCrudo = %q", got)
	}
}

// Esperar returns as soon as the condition holds.
func TestEsperar(t *testing.T) {
	t.Parallel()
	var n int
	Esperar(t, "tres llamadas", func() bool { n++; return n == 3 })
	if n != 3 {
		t.Errorf("cond llamada %d veces", n)
	}
}
