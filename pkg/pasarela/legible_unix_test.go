//go:build unix && !aix

package pasarela

import (
	"errors"
	"net"
	"syscall"
	"testing"
	"time"

	"cursohttp/internal/prueba"
)

// esperarLegible waits until c has bytes or the end of the stream to read, without reading them:
// what the other end wrote or closed has reached this end's socket. Each call peeks
// (MSG_PEEK|MSG_DONTWAIT); while there is nothing, the poller waits for the socket as for a read.
func esperarLegible(t *testing.T, c net.Conn) {
	t.Helper()
	raw, err := c.(syscall.Conn).SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	c.SetReadDeadline(time.Now().Add(prueba.PlazoDeEspera))
	defer c.SetReadDeadline(time.Time{})
	err = raw.Read(func(fd uintptr) bool {
		var b [1]byte
		_, _, err := syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		return !errors.Is(err, syscall.EAGAIN)
	})
	if err != nil {
		t.Fatalf("esperando que se pueda leer: %v", err)
	}
}
