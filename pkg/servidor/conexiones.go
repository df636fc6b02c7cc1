package servidor

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"cursohttp/pkg/topes"
)

// Connection caps (--tope-conexiones, --tope-por-cliente) and write deadlines, on the two hooks
// net/http documents for this: the listener (Accept and each connection's Close, as
// golang.org/x/net/netutil.LimitListener counts) and Server.ConnState (which connections are
// idle). Each open connection costs a server a descriptor and about 20 KB (its goroutine and
// buffers); without a cap, 20,000 idle keep-alive connections held the revisor at its descriptor
// limit with 400 MB. The defaults are far above what a student's lab or a classroom uses and far
// below what exhausts a machine.
//
// At the total cap the quietest connection makes room (see masQuieta); when none may, new
// connections wait in the kernel's queue until one closes, as with any server at capacity. A
// connection whose request body arrives slower than topes.RitmoCuerpo counts as quiet: without that, 1,024
// bodies trickled within topes.EsperaLectura made an ordinary request wait 27 s (issue 34.6). The
// cap per client address is for a shared server: a client at its cap gets its quietest connection
// closed for the new one, or the new one closed at once, while the others go on. It does not count
// the machine's own programs (the same address at both ends: on a student's machine, all of them).
//
// Every write to a connection has a deadline (topes.EsperaEscritura for each trozoEscritura), so a
// client that stops reading frees its connection and whatever its answer holds; unlike
// http.Server.WriteTimeout, the time a handler takes before it writes (/lento/MS, the gateway's
// lento:MS, a stream waiting for its next event) does not count.
//
// The caps and times are pkg/topes' (the one place a limit is changed); why each is what it is:
//   - topes.Conexiones and topes.ConexionesPorCliente: the defaults of Opciones' caps.
//   - topes.EsperaApurada is the idle keep-alive timeout once a server holds three quarters of a
//     cap, instead of topes.EsperaOciosa: a connection nobody uses gives its place back soon when
//     others may need it. At a cap, a connection quiet this long is fair game too (see masQuieta).
//   - topes.RitmoCuerpo is the pace, in bytes per second, that a request body must keep once the
//     server waits for it: a body behind it, after its first second, may make room at a cap
//     (masQuieta). Only there: below the caps a slow body still has topes.EsperaLectura, as the
//     course's servers give it, so a student typing a body by hand or a paused upload is never cut
//     for being slow.
//   - topes.EsperaEscritura bounds each write of at most trozoEscritura bytes: a client reading
//     slower than that (6.4 KB/s) or not at all has its connection closed.
const (
	trozoEscritura = 64 << 10
	// avisoCada spaces the log lines of a cap that keeps being hit.
	avisoCada = 10 * time.Second
	// revisarCada is how often a server waiting at its total cap looks again for a quiet connection.
	revisarCada = 100 * time.Millisecond
)

// limite counts a listener's connections, in all and per client address, and makes room at a cap.
type limite struct {
	total, porCliente int
	espera            time.Duration // topes.EsperaEscritura, or Opciones.EsperaEscritura in tests
	programa          string
	log               zerolog.Logger
	libre             chan struct{} // a connection closed: a waiting Accept may look again

	mu       sync.Mutex
	abiertas map[*conexion]struct{}
	n        atomic.Int32 // len(abiertas), changed under mu, read without it
	clientes map[netip.Addr]*cliente
	avisos   [2]aviso // 0: the total cap, 1: a client's
}

// cliente is one address's count; n changes under limite.mu and is read without it.
type cliente struct{ n atomic.Int32 }

// aviso rate-limits the log line of one cap: what happened since the last line.
type aviso struct {
	ultimo                         time.Time
	esperas, rechazadas, desalojos int
}

type listenerLimitado struct {
	net.Listener
	t       *limite
	cerrado chan struct{}
	una     sync.Once
}

// limitar wraps ln with the caps of o (0: no cap) and the write deadlines.
func limitar(ln net.Listener, programa string, o Opciones) net.Listener {
	espera := o.EsperaEscritura
	if espera <= 0 {
		espera = topes.EsperaEscritura
	}
	return &listenerLimitado{Listener: ln, cerrado: make(chan struct{}), t: &limite{
		total: o.TopeConexiones, porCliente: o.TopePorCliente, espera: espera, programa: programa, log: o.Log,
		libre: make(chan struct{}, 1), abiertas: map[*conexion]struct{}{}, clientes: map[netip.Addr]*cliente{},
	}}
}

// Accept returns the next connection the caps admit. It applies the client's cap, then waits for
// room under the total cap before it returns the connection: meanwhile the next ones wait in the
// kernel's queue.
func (l *listenerLimitado) Accept() (net.Conn, error) {
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

func (l *listenerLimitado) Close() error {
	l.una.Do(func() { close(l.cerrado) })
	return l.Listener.Close()
}

// esperarLugar returns once the total cap leaves room for one more connection, making it by
// closing the quietest connection if one may go; false if the listener closed meanwhile.
func (t *limite) esperarLugar(cerrado chan struct{}) bool {
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
func (t *limite) admitir(c net.Conn) *conexion {
	ct := &conexion{Conn: c, t: t}
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
func (t *limite) contar(ct *conexion) {
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
}

// masQuieta is the connection that has been quiet longest among those that may make room: idle
// between requests (closing those is always allowed in HTTP), or quiet for topes.EsperaApurada — before
// sending a whole first request (a client that means to send one does so at once), in a write the
// client does not read, or in a handler's deliberate wait (EnEspera: /lento/MS, lento:MS, a stream
// between events) — or with its request's body behind topes.RitmoCuerpo. Only c's when c is not nil.
// Called with mu held.
func (t *limite) masQuieta(c *cliente, ahora time.Time) *conexion {
	var mejor *conexion
	var desde int64
	for ct := range t.abiertas {
		if c != nil && ct.cliente != c {
			continue
		}
		d, ok := ct.quieta(ahora.UnixNano())
		if !ok {
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
func (t *limite) quizasAvisar(cual int, ip netip.Addr, ahora time.Time) {
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
func (t *limite) quitar(ct *conexion) {
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
func (t *limite) apurado(ct *conexion) bool {
	if !ct.propia && t.porCliente > 0 && ct.cliente != nil && 4*int(ct.cliente.n.Load()) >= 3*t.porCliente {
		return true
	}
	return t.total > 0 && 4*int(t.n.Load()) >= 3*t.total
}

// conexion is a counted connection. estado and desde follow Server.ConnState (notarEstado), so a
// cap can tell a quiet connection from a busy one; escribiendo and esperando tell a busy one that
// is in fact stalled.
type conexion struct {
	net.Conn
	t       *limite
	cliente *cliente
	ip      netip.Addr
	propia  bool         // from this machine: no client cap
	estado  atomic.Int32 // http.ConnState
	desde   atomic.Int64 // when it entered estado, in Unix nanoseconds
	// escribiendo is when the write in progress started; esperando, when its handler started a
	// deliberate wait (EnEspera). Unix nanoseconds, 0 when none.
	escribiendo, esperando atomic.Int64
	// pedido is a write deadline a handler set (http.ResponseController.SetWriteDeadline), in Unix
	// nanoseconds; 0 when none. Each write keeps to it when it is sooner than its own.
	pedido atomic.Int64
	// cuerpo is, while the server waits for a request's body (vigilarCuerpos), the moment up to
	// which that body has kept to topes.RitmoCuerpo, in Unix nanoseconds; 0 when it waits for none. A
	// body behind it (cuerpo before now) is one a cap may close (masQuieta).
	cuerpo atomic.Int64
	ociosa *time.Timer // closes it when it stays idle near a cap (notarEstado); under t.mu
}

// NetConn is the connection underneath, as tls.Conn names its own (the gateway's reset reaches the
// TCP connection through it).
func (c *conexion) NetConn() net.Conn { return c.Conn }

func (c *conexion) marcar(s http.ConnState) {
	c.estado.Store(int32(s))
	// Only a quiet connection's time counts (masQuieta): an active one skips the clock, twice per
	// request spared. Between requests, or closed, no body is awaited any more (not even one
	// net/http read to its end after its handler).
	if s != http.StateActive {
		c.desde.Store(time.Now().UnixNano())
		c.cuerpo.Store(0)
	}
}

// quieta says since when c has done nothing a client waits for, and whether that is long enough
// for c to make room at ahora (Unix nanoseconds): idle (at once) or new since desde, stalled in a
// write or a deliberate wait (for topes.EsperaApurada), or with its body behind topes.RitmoCuerpo since cuerpo
// (at once: the body's own clock already gave it its first second, and a second ahead at most).
func (c *conexion) quieta(ahora int64) (int64, bool) {
	limite := ahora - int64(topes.EsperaApurada)
	switch http.ConnState(c.estado.Load()) {
	case http.StateIdle:
		return c.desde.Load(), true
	case http.StateNew:
		d := c.desde.Load()
		return d, d <= limite
	case http.StateActive:
		if d := c.escribiendo.Load(); d != 0 {
			return d, d <= limite
		}
		if d := c.esperando.Load(); d != 0 && c.escribiendo.Load() == 0 {
			return d, d <= limite
		}
		if d := c.cuerpo.Load(); d != 0 {
			return d, d < ahora
		}
	}
	return 0, false
}

// Read counts what an awaited body brings: each byte moves its clock 1/topes.RitmoCuerpo s on — from now
// if it had fallen behind, so a body is judged by its pace of the moment, not its past — and never
// more than topes.EsperaApurada ahead, so a burst buys a second, not the rest of topes.EsperaLectura.
func (c *conexion) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		if d := c.cuerpo.Load(); d != 0 {
			ahora := time.Now().UnixNano()
			c.cuerpo.CompareAndSwap(d, min(max(d, ahora)+int64(n)*int64(time.Second)/topes.RitmoCuerpo, ahora+int64(topes.EsperaApurada)))
		}
	}
	return n, err
}

// esperarCuerpo starts the clock of a body the server now waits for, a second ahead: the first
// second is the body's own, as a client sends its body right after its head.
func (c *conexion) esperarCuerpo() {
	c.cuerpo.Store(time.Now().Add(topes.EsperaApurada).UnixNano())
}

func (c *conexion) Close() error {
	c.t.mu.Lock()
	if _, ok := c.t.abiertas[c]; ok {
		c.t.quitar(c)
	}
	if c.ociosa != nil {
		c.ociosa.Stop()
	}
	c.t.mu.Unlock()
	return c.Conn.Close()
}

// Write writes p in pieces of at most trozoEscritura bytes, each with its deadline.
func (c *conexion) Write(p []byte) (int, error) {
	escrito := 0
	for len(p) > 0 {
		trozo := p[:min(len(p), trozoEscritura)]
		ahora := time.Now()
		limite := ahora.Add(c.t.espera).UnixNano()
		if pedido := c.pedido.Load(); pedido != 0 && pedido < limite {
			limite = pedido
		}
		if err := c.Conn.SetWriteDeadline(time.Unix(0, limite)); err != nil {
			return escrito, err
		}
		c.escribiendo.Store(ahora.UnixNano())
		n, err := c.Conn.Write(trozo)
		c.escribiendo.Store(0)
		escrito += n
		if err != nil {
			return escrito, err
		}
		p = p[n:]
	}
	return escrito, nil
}

// SetWriteDeadline is a handler's own deadline, kept for the writes that follow.
func (c *conexion) SetWriteDeadline(d time.Time) error {
	if d.IsZero() {
		c.pedido.Store(0)
	} else {
		c.pedido.Store(d.UnixNano())
	}
	return c.Conn.SetWriteDeadline(d)
}

func (c *conexion) SetDeadline(d time.Time) error {
	if err := c.SetWriteDeadline(d); err != nil {
		return err
	}
	return c.Conn.SetReadDeadline(d)
}

// CloseWrite half-closes the connection underneath, for a staged close.
func (c *conexion) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return c.Close()
}

// deConexion is the counted connection under c, or nil. A wrapper around it (the head's, in
// pkg/encabezado) is seen through its NetConn method, the convention of crypto/tls.Conn, so the
// caps name no other package's type.
func deConexion(c net.Conn) *conexion {
	for c != nil {
		if ct, ok := c.(*conexion); ok {
			return ct
		}
		u, ok := c.(interface{ NetConn() net.Conn })
		if !ok {
			return nil
		}
		c = u.NetConn()
	}
	return nil
}

// notarEstado is part of Nuevo's ConnState: it keeps a counted connection's state and, near a cap,
// closes a connection that stays idle topes.EsperaApurada instead of topes.EsperaOciosa.
func notarEstado(c net.Conn, s http.ConnState) {
	ct := deConexion(c)
	if ct == nil {
		return
	}
	ct.marcar(s)
	if s != http.StateIdle || !ct.t.apurado(ct) {
		return
	}
	desde := ct.desde.Load()
	ct.t.mu.Lock()
	defer ct.t.mu.Unlock()
	if ct.ociosa != nil {
		ct.ociosa.Stop()
	}
	ct.ociosa = time.AfterFunc(topes.EsperaApurada, func() {
		// Still idle since then: closing an idle keep-alive connection is always allowed in HTTP.
		if http.ConnState(ct.estado.Load()) == http.StateIdle && ct.desde.Load() == desde {
			ct.Conn.Close()
		}
	})
}

type claveConexion struct{}

// conContexto is part of Nuevo's ConnContext: the counted connection, for EnEspera.
func conContexto(ctx context.Context, c net.Conn) context.Context {
	if ct := deConexion(c); ct != nil {
		ctx = context.WithValue(ctx, claveConexion{}, ct)
	}
	return ctx
}

// EnEspera marks the request's connection as waiting on purpose (/lento/MS, the gateway's
// lento:MS, a stream between events) until listo is called: at the total cap, such a connection,
// once quiet for topes.EsperaApurada, makes room for a new one like an idle one does, and its request's
// context ends. Outside a server of Nuevo's it does nothing.
func EnEspera(ctx context.Context) (listo func()) {
	ct, _ := ctx.Value(claveConexion{}).(*conexion)
	if ct == nil {
		return func() {}
	}
	ct.esperando.Store(time.Now().UnixNano())
	return func() { ct.esperando.Store(0) }
}

// vigilarCuerpos starts the clock of a request's body as its handler starts (conexion.cuerpo), and
// stops it when the handler has read the body to its end; a body the handler leaves unread is
// still awaited while net/http reads the rest, or throws it away, until the connection is idle or
// closed (marcar). Nuevo puts it in front of every handler. A handler that waits more than a second
// before it reads its body makes it look late too — only at a cap does that matter, as an
// EnEspera does.
func vigilarCuerpos(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// A request without a body (every GET of the course) pays no context lookup.
		if r.Body == nil || r.Body == http.NoBody {
			h.ServeHTTP(w, r)
			return
		}
		ct, _ := r.Context().Value(claveConexion{}).(*conexion)
		if ct == nil {
			h.ServeHTTP(w, r)
			return
		}
		ct.esperarCuerpo()
		// A shallow copy: net/http decides from its own request's Body what is left to read after
		// the handler and whether the connection can be used again.
		r = r.WithContext(r.Context())
		r.Body = &cuerpoVigilado{ReadCloser: r.Body, ct: ct}
		h.ServeHTTP(w, r)
	})
}

// cuerpoVigilado is a request's body as its handler reads it (vigilarCuerpos).
type cuerpoVigilado struct {
	io.ReadCloser
	ct  *conexion
	fin atomic.Bool // read to its end, or failed: nothing more is awaited
}

func (c *cuerpoVigilado) Read(p []byte) (int, error) {
	n, err := c.ReadCloser.Read(p)
	if err != nil && !c.fin.Swap(true) {
		c.ct.cuerpo.Store(0)
	}
	return n, err
}
