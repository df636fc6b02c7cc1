//go:build !unix || aix

package pasarela

import "net"

// espiar cannot peek at a socket here (Go's sockets on Windows are not non-blocking, AIX has no
// MSG_DONTWAIT), so viva falls back to vivaConEspera.
func espiar(net.Conn) (vive, pudo bool) { return false, false }
