package prueba

import (
	"context"
	"net"
	"sync"
	"sync/atomic"
)

// EscuchaEnMemoria is a listener whose connections are net.Pipe pairs made by its Dial. Everything
// on them blocks on channels, which a testing/synctest bubble sees: a goroutine waiting on one is
// durably blocked, so the bubble's clock moves on. It is for a test about time (a timeout, a
// deadline, a wait before reusing a connection) whose server and client can both run in the
// bubble, where the clock moves only when everything waits and a loaded machine changes nothing.
type EscuchaEnMemoria struct {
	conexiones chan net.Conn
	cerrada    chan struct{}
	cerrar     sync.Once
	marcadas   atomic.Int64
}

// NuevaEscuchaEnMemoria returns an open EscuchaEnMemoria.
func NuevaEscuchaEnMemoria() *EscuchaEnMemoria {
	return &EscuchaEnMemoria{conexiones: make(chan net.Conn), cerrada: make(chan struct{})}
}

// Dial connects to the listener (the network and address are ignored): it fits
// http.Transport.DialContext. It waits for Accept.
func (l *EscuchaEnMemoria) Dial(ctx context.Context, _, _ string) (net.Conn, error) {
	cliente, servidor := net.Pipe()
	select {
	case l.conexiones <- servidor:
		l.marcadas.Add(1)
		return cliente, nil
	case <-l.cerrada:
		return nil, net.ErrClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Marcadas is how many connections Dial made.
func (l *EscuchaEnMemoria) Marcadas() int64 { return l.marcadas.Load() }

func (l *EscuchaEnMemoria) Accept() (net.Conn, error) {
	select {
	case c := <-l.conexiones:
		return c, nil
	case <-l.cerrada:
		return nil, net.ErrClosed
	}
}

func (l *EscuchaEnMemoria) Close() error {
	l.cerrar.Do(func() { close(l.cerrada) })
	return nil
}

func (l *EscuchaEnMemoria) Addr() net.Addr { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 80} }
