package servidor

import (
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"cursohttp/pkg/encabezado"
)

// Connection caps (--tope-conexiones, --tope-por-cliente). Each open connection costs a server a
// descriptor and about 20 KB (its goroutine and buffers); without a cap, 20,000 idle keep-alive
// connections held the revisor at its descriptor limit with 400 MB. The defaults are far above
// what a student's lab or a classroom uses and far below what exhausts a machine.
//
// At the total cap the quietest connection makes room (see masQuieta); when none may, new
// connections wait in the kernel's queue until one closes, as with any server at capacity. The
// cap per client address is for a shared server: a client at its cap gets its quietest connection
// closed for the new one, or the new one closed at once, while the others go on. It does not count
// the machine's own programs (the same address at both ends: on a student's machine, all of them).
const (
	TopeConexionesPorOmision = 1024
	TopePorClientePorOmision = 256
	// EsperaApurada is the idle keep-alive timeout once a server holds three quarters of a cap,
	// instead of EsperaOciosa: a connection nobody uses gives its place back soon when others may
	// need it. At a cap, a connection quiet this long before its first request is fair game too.
	EsperaApurada = time.Second
	// avisoCada spaces the log lines of a cap that keeps being hit.
	avisoCada = 10 * time.Second
	// revisarCada is how often a server waiting at its total cap looks again for a quiet connection.
	revisarCada = 100 * time.Millisecond
)

// topes counts a listener's connections, in all and per client address, and makes room at a cap.
type topes struct {
	total, porCliente int
	programa          string
	log               zerolog.Logger
	libre             chan struct{} // a connection closed: a waiting Accept may look again

	mu        sync.Mutex
	abiertas  map[*conexionTope]struct{}
	n         atomic.Int32 // len(abiertas), changed under mu, read without it
	clientes  map[netip.Addr]*cliente
	avisos    [2]aviso // 0: the total cap, 1: a client's
	vigilando bool     // the deadline keeper runs (plazos.go)

	ahora atomic.Int64 // the keeper's clock, Unix nanoseconds, as of its last round
}

// cliente is one address's count; n changes under topes.mu and is read without it.
type cliente struct{ n atomic.Int32 }

// aviso rate-limits the log line of one cap: what happened since the last line.
type aviso struct {
	ultimo                         time.Time
	esperas, rechazadas, desalojos int
}

type listenerTope struct {
	net.Listener
	t       *topes
	cerrado chan struct{}
	una     sync.Once
}

// conTopes wraps ln with the caps of o (0: no cap) and keeps its connections' read deadlines (see
// plazos.go).
func conTopes(ln net.Listener, programa string, o Opciones) net.Listener {
	return &listenerTope{Listener: ln, cerrado: make(chan struct{}), t: &topes{
		total: o.TopeConexiones, porCliente: o.TopePorCliente, programa: programa, log: o.Log,
		libre: make(chan struct{}, 1), abiertas: map[*conexionTope]struct{}{}, clientes: map[netip.Addr]*cliente{},
	}}
}

// Accept returns the next connection the caps admit. It applies the client's cap, then waits for
// room under the total cap before it returns the connection: meanwhile the next ones wait in the
// kernel's queue.
func (l *listenerTope) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		ct := l.t.admitir(c)
		if ct == nil {
			continue
		}
		if !l.t.esperarLugar(l.cerrado) {
			c.Close()
			return nil, net.ErrClosed
		}
		l.t.contar(ct)
		return ct, nil
	}
}

func (l *listenerTope) Close() error {
	l.una.Do(func() { close(l.cerrado) })
	return l.Listener.Close()
}

// esperarLugar returns once the total cap leaves room for one more connection, making it by
// closing the quietest connection if one may go; false if the listener closed meanwhile.
func (t *topes) esperarLugar(cerrado chan struct{}) bool {
	if t.total <= 0 {
		return true
	}
	var tic *time.Ticker
	defer func() {
		if tic != nil {
			tic.Stop()
		}
	}()
	for {
		ahora := time.Now()
		t.mu.Lock()
		if len(t.abiertas) < t.total {
			t.mu.Unlock()
			return true
		}
		desalojada := t.masQuieta(nil, ahora)
		a := &t.avisos[0]
		if desalojada != nil {
			a.desalojos++
			t.quitar(desalojada)
		} else if tic == nil {
			a.esperas++
		}
		t.quizasAvisar(0, netip.Addr{}, ahora)
		t.mu.Unlock()
		if desalojada != nil {
			desalojada.Conn.Close() // its server goroutine notices and closes it again, counted once
			return true
		}
		if tic == nil {
			tic = time.NewTicker(revisarCada)
		}
		select {
		case <-t.libre:
		case <-tic.C:
		case <-cerrado:
			return false
		}
	}
}

func direccionDe(a net.Addr) netip.Addr {
	if tcp, ok := a.(*net.TCPAddr); ok {
		ip, _ := netip.AddrFromSlice(tcp.IP)
		return ip.Unmap()
	}
	ap, _ := netip.ParseAddrPort(a.String())
	return ap.Addr().Unmap()
}

// admitir applies the client's cap: it returns c ready to be counted, or nil after closing it
// when its client, another machine, is at its cap with nothing quiet to give up.
func (t *topes) admitir(c net.Conn) *conexionTope {
	ct := &conexionTope{Conn: c, t: t}
	ct.marcar(http.StateNew)
	ct.ip = direccionDe(c.RemoteAddr())
	ct.propia = ct.ip == direccionDe(c.LocalAddr())
	if ct.propia || t.porCliente <= 0 {
		return ct
	}
	ahora := time.Now()
	t.mu.Lock()
	cl := t.clientes[ct.ip]
	if cl == nil || int(cl.n.Load()) < t.porCliente {
		t.mu.Unlock()
		return ct
	}
	desalojada := t.masQuieta(cl, ahora)
	a := &t.avisos[1]
	if desalojada != nil {
		a.desalojos++
		t.quitar(desalojada)
	} else {
		a.rechazadas++
	}
	t.quizasAvisar(1, ct.ip, ahora)
	t.mu.Unlock()
	if desalojada == nil {
		c.Close()
		return nil
	}
	desalojada.Conn.Close()
	return ct
}

// contar counts an admitted connection, in all and for its client.
func (t *topes) contar(ct *conexionTope) {
	t.mu.Lock()
	defer t.mu.Unlock()
	cl := t.clientes[ct.ip]
	if cl == nil {
		cl = &cliente{}
		t.clientes[ct.ip] = cl
	}
	ct.cliente = cl
	cl.n.Add(1)
	t.abiertas[ct] = struct{}{}
	t.n.Add(1)
	if !t.vigilando {
		t.vigilando = true
		t.ahora.Store(time.Now().UnixNano())
		go t.vigilar()
	}
}

// masQuieta is the connection that has been quiet longest among those that may make room: idle
// between requests (closing those is always allowed in HTTP), or quiet for EsperaApurada before
// sending a whole first request (a client that means to send one does so at once). Only c's when c
// is not nil. Called with mu held.
func (t *topes) masQuieta(c *cliente, ahora time.Time) *conexionTope {
	var mejor *conexionTope
	var desde int64
	for ct := range t.abiertas {
		if c != nil && ct.cliente != c {
			continue
		}
		d := ct.desde.Load()
		switch http.ConnState(ct.estado.Load()) {
		case http.StateIdle:
		case http.StateNew:
			if ahora.Sub(time.Unix(0, d)) < EsperaApurada {
				continue
			}
		default:
			continue
		}
		if mejor == nil || d < desde {
			mejor, desde = ct, d
		}
	}
	return mejor
}

// quizasAvisar writes the line of a cap hit: the first time, and then at most every avisoCada with
// what happened since the last line. Called with mu held.
func (t *topes) quizasAvisar(cual int, ip netip.Addr, ahora time.Time) {
	a := &t.avisos[cual]
	if ahora.Sub(a.ultimo) < avisoCada {
		return
	}
	que, bandera := "tope de "+strconv.Itoa(t.total)+" conexiones alcanzado: ", "--tope-conexiones"
	if cual == 1 {
		que, bandera = "tope de "+strconv.Itoa(t.porCliente)+" conexiones de "+ip.String()+" alcanzado: ", "--tope-por-cliente"
	}
	if cual == 0 {
		que += "las nuevas esperan turno (" + strconv.Itoa(a.esperas) + " veces) y "
	} else {
		que += strconv.Itoa(a.rechazadas) + " conexiones nuevas rechazadas y "
	}
	t.log.Warn().Str("tope", bandera).Int("esperas", a.esperas).Int("rechazadas", a.rechazadas).Int("cerradas", a.desalojos).
		Msg(t.programa + ": " + que + strconv.Itoa(a.desalojos) + " quietas cerradas para hacer lugar (" + bandera + ")")
	*a = aviso{ultimo: ahora}
}

// quitar stops counting ct. Called with mu held.
func (t *topes) quitar(ct *conexionTope) {
	delete(t.abiertas, ct)
	t.n.Add(-1)
	if ct.cliente.n.Add(-1) == 0 {
		delete(t.clientes, ct.ip)
	}
	select {
	case t.libre <- struct{}{}:
	default:
	}
}

// apurado says whether ct's server, or ct's client, holds three quarters of its cap.
func (t *topes) apurado(ct *conexionTope) bool {
	if !ct.propia && t.porCliente > 0 && 4*int(ct.cliente.n.Load()) >= 3*t.porCliente {
		return true
	}
	return t.total > 0 && 4*int(t.n.Load()) >= 3*t.total
}

// conexionTope is a counted connection. estado and desde follow net/http's ConnState (see
// notarEstado), so a cap can tell a quiet connection from a busy one.
type conexionTope struct {
	net.Conn
	t       *topes
	cliente *cliente
	ip      netip.Addr
	propia  bool         // from this machine: no client cap
	estado  atomic.Int32 // http.ConnState
	desde   atomic.Int64 // when it entered estado, in Unix nanoseconds

	// The read deadline net/http asked for (see plazos.go): plazo is kept here and enforced by the
	// keeper; aplicado says the connection underneath has a deadline of its own.
	mu       sync.Mutex
	plazo    atomic.Int64 // Unix nanoseconds; 0: none waiting
	aplicado bool
}

// NetConn is the connection underneath, as tls.Conn names its own (the gateway's reset reaches the
// TCP connection through it).
func (c *conexionTope) NetConn() net.Conn { return c.Conn }

func (c *conexionTope) marcar(s http.ConnState) {
	c.estado.Store(int32(s))
	// Only a quiet connection's time counts (masQuieta): an active one skips the clock, twice per
	// request spared.
	if s != http.StateActive {
		c.desde.Store(time.Now().UnixNano())
	}
}

func (c *conexionTope) Close() error {
	c.t.mu.Lock()
	if _, ok := c.t.abiertas[c]; ok {
		c.t.quitar(c)
	}
	c.t.mu.Unlock()
	return c.Conn.Close()
}

// SetReadDeadline shortens the idle keep-alive wait near a cap (net/http sets it right after the
// connection turns idle), and keeps the deadline as plazos.go says.
func (c *conexionTope) SetReadDeadline(d time.Time) error {
	if http.ConnState(c.estado.Load()) == http.StateIdle && c.t.apurado(c) {
		if pronto := time.Now().Add(EsperaApurada); d.IsZero() || d.After(pronto) {
			d = pronto
		}
	}
	return c.plazoDeLectura(d)
}

// CloseWrite half-closes the connection underneath, for a staged close.
func (c *conexionTope) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return c.Close()
}

// notarEstado is Nuevo's ConnState: it tells the head's wrapper and keeps a counted connection's state.
func notarEstado(c net.Conn, s http.ConnState) {
	if ec, ok := c.(*encabezado.Conn); ok {
		encabezado.Notar(ec, s)
		c = ec.Conn
	}
	if ct, ok := c.(*conexionTope); ok {
		ct.marcar(s)
	}
}
