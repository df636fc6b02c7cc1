//go:build !linux

package prueba

import "net"

// reservarPuerto takes a free port from the system. Elsewhere than on Linux it is only free when
// chosen: the listener is closed at once, and another process may take the port before the test's
// program listens on it (the suite's tests run on Linux).
func reservarPuerto() (int, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, nil, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, func() {}, nil
}
