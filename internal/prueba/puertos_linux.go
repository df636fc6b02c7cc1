package prueba

import (
	"os"
	"syscall"
)

// reservarPuerto takes a free port from the system and keeps it: a TCP socket bound to it with
// SO_REUSEADDR and not listening. Linux hands out neither that port for a bind to port 0 nor as the
// local port of a connection while the socket is open, but lets a program that means it listen on
// it (Go's listeners set SO_REUSEADDR too), so the port stays ours without being in the way.
func reservarPuerto() (int, func(), error) {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return 0, nil, os.NewSyscallError("socket", err)
	}
	cerrar := func() { syscall.Close(fd) }
	if err := syscall.SetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_REUSEADDR, 1); err != nil {
		cerrar()
		return 0, nil, os.NewSyscallError("setsockopt", err)
	}
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		cerrar()
		return 0, nil, os.NewSyscallError("bind", err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		cerrar()
		return 0, nil, os.NewSyscallError("getsockname", err)
	}
	return sa.(*syscall.SockaddrInet4).Port, cerrar, nil
}
