//go:build !unix || aix

package pasarela

import (
	"net"
	"syscall"
	"testing"
	"time"

	"cursohttp/internal/prueba"
)

// esperarLegible waits until c has bytes or the end of the stream to read, without reading them.
// On Windows a raw read whose function says "not yet" waits with a read of zero bytes, which ends
// when there is something to read and takes nothing.
func esperarLegible(t *testing.T, c net.Conn) {
	t.Helper()
	raw, err := c.(syscall.Conn).SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	c.SetReadDeadline(time.Now().Add(prueba.PlazoDeEspera))
	defer c.SetReadDeadline(time.Time{})
	llamada := 0
	if err := raw.Read(func(uintptr) bool { llamada++; return llamada > 1 }); err != nil {
		t.Fatalf("esperando que se pueda leer: %v", err)
	}
}
