//go:build unix && !aix

package pasarela

import (
	"errors"
	"net"
	"syscall"
)

// espiar peeks at the socket without waiting (MSG_PEEK|MSG_DONTWAIT): nothing to read (EAGAIN) is a
// live connection; end-of-file, bytes or an error is not. pudo is false when c has no socket to peek
// at, and the caller checks another way.
func espiar(c net.Conn) (vive, pudo bool) {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return false, false
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return false, true
	}
	err = raw.Read(func(fd uintptr) bool {
		var b [1]byte
		n, _, err := syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		vive = n < 0 && errors.Is(err, syscall.EAGAIN)
		return true
	})
	return vive && err == nil, true
}
