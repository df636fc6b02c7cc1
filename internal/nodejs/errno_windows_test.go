package nodejs

import (
	"net"
	"os"
	"syscall"
	"testing"
)

// On Windows a refused connection is WSAECONNREFUSED (10061): Node calls it ECONNREFUSED, and so
// must the suite, or a Windows student reads another line than the lesson's.
func TestCodigosDeWinsock(t *testing.T) {
	t.Parallel()
	for errno, want := range map[syscall.Errno]string{10061: "ECONNREFUSED", 10054: "ECONNRESET", 10060: "ETIMEDOUT", 10053: "ECONNABORTED"} {
		err := &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connectex", errno)}
		if got := CodigoDeError(err); got != want {
			t.Errorf("Winsock %d: %s, se esperaba %s", errno, got, want)
		}
	}
	if !Rechazada(&net.OpError{Op: "dial", Err: os.NewSyscallError("connectex", syscall.Errno(10061))}) {
		t.Error("WSAECONNREFUSED no se tomó por una conexión rechazada")
	}
}
