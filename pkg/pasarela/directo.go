package pasarela

import (
	"bufio"
	"context"
	"cursohttp/pkg/topes"
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
	"syscall"
	"time"
)

// Directo is the gateway's transport to a plain-http revisor: each request is written and its answer
// read by the goroutine that serves the client, over a pooled keep-alive connection. net/http's
// Transport keeps two goroutines per connection and hands every request and answer between them;
// make bench measured that handoff at about a fifth of the gateway's CPU on the lab's two cores.
// It keeps the Transport's rules that matter here: it never re-sends a request that has a body, a
// bodiless request is re-sent once only when a pooled connection turns out to be closed before
// any answer, a connection idle longer than Ociosa is not reused, and the answer to an upload is
// read while the upload is still being written (a 413 before the end is passed on, not lost).
// Other schemes (https) go to Otro.
type Directo struct {
	Dial       func(ctx context.Context, red, addr string) (net.Conn, error)
	Ociosa     time.Duration     // an idle connection older than this is closed, not reused
	MaxOciosas int               // idle connections kept
	Espera     time.Duration     // for the answer's headers (topes.EsperaRevisor)
	Otro       http.RoundTripper // for anything but http

	mu       sync.Mutex
	ociosas  []*conexionDirecta // the most recently used last
	limpieza *time.Timer        // closes connections idle longer than Ociosa; nil when none wait
}

// NuevoDirecto returns the gateway's transport with NuevoTransporte's limits.
func NuevoDirecto() *Directo {
	return &Directo{
		Dial:       (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		Ociosa:     OciosaMaxima,
		MaxOciosas: 256,
		Espera:     topes.EsperaRevisor,
		Otro:       NuevoTransporte(),
	}
}

type conexionDirecta struct {
	c     net.Conn
	br    *bufio.Reader
	bw    *bufio.Writer
	addr  string
	desde time.Time // idle since
	rota  error     // the last error writing to c; only the goroutine writing a request uses it
}

func nuevaConexionDirecta(c net.Conn, addr string) *conexionDirecta {
	cd := &conexionDirecta{c: c, br: bufio.NewReader(c), addr: addr}
	cd.bw = bufio.NewWriter(escritorDirecto{cd})
	return cd
}

// escritorDirecto writes to the connection and remembers a failure, so that a request that could
// not be written is told apart from a request whose body could not be read.
type escritorDirecto struct{ cd *conexionDirecta }

func (e escritorDirecto) Write(p []byte) (int, error) {
	n, err := e.cd.c.Write(p)
	if err != nil {
		e.cd.rota = err
	}
	return n, err
}

// errCerrada is a pooled connection found closed by the revisor before the request went out.
var errCerrada = errors.New("pasarela: la conexión guardada estaba cerrada")

// RoundTrip sends req and returns the revisor's answer. Like any RoundTripper it always closes
// req.Body, and the caller must close the answer's body.
func (d *Directo) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Scheme != "http" {
		return d.Otro.RoundTrip(req)
	}
	addr := req.URL.Host
	if req.URL.Port() == "" {
		addr = net.JoinHostPort(req.URL.Hostname(), "80")
	}
	for intento := 0; ; intento++ {
		// A bodiless request takes a pooled connection without looking at it first (a system call):
		// if the revisor closed it, no answer comes and the request is sent again below.
		cd, reusada, err := d.tomar(req.Context(), addr, req.Body != nil || intento > 0)
		if err != nil {
			if req.Body != nil {
				req.Body.Close()
			}
			return nil, err
		}
		resp, err := d.ida(cd, req)
		if err == nil {
			return resp, nil
		}
		cd.c.Close()
		// Only a bodiless request on a reused connection that gave no answer at all is tried again,
		// on a new connection: the revisor closed it while idle, and nothing reached it.
		if reusada && req.Body == nil && intento == 0 && sinRespuesta(err) {
			continue
		}
		return nil, err
	}
}

func sinRespuesta(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, errCerrada) || cortadaPorElSistema(err)
}

// tomar returns a pooled connection to addr, or a new one. With mirar, a pooled connection must be
// seen alive (viva); without it, only not idle past Ociosa and with nothing unread buffered.
func (d *Directo) tomar(ctx context.Context, addr string, mirar bool) (*conexionDirecta, bool, error) {
	for {
		d.mu.Lock()
		n := len(d.ociosas)
		var cd *conexionDirecta
		for i := n - 1; i >= 0; i-- {
			if d.ociosas[i].addr == addr {
				cd = d.ociosas[i]
				d.ociosas = append(d.ociosas[:i], d.ociosas[i+1:]...)
				break
			}
		}
		d.mu.Unlock()
		if cd == nil {
			break
		}
		if time.Since(cd.desde) > d.Ociosa || cd.br.Buffered() > 0 || (mirar && !viva(cd)) {
			cd.c.Close()
			continue
		}
		return cd, true, nil
	}
	c, err := d.Dial(ctx, "tcp", addr)
	if err != nil {
		return nil, false, err
	}
	return nuevaConexionDirecta(c, addr), false, nil
}

// viva says whether an idle connection can carry another request without waiting for the revisor:
// a closed one reads end-of-file, a live one has nothing to read, and anything else (bytes nobody
// asked for) makes it unusable too. Where the system lets us peek at the socket (espiar, on unix)
// that costs one system call; elsewhere (Windows) a read with a short deadline tells the same.
func viva(cd *conexionDirecta) bool {
	if cd.br.Buffered() > 0 {
		return false
	}
	if vive, pudo := espiar(cd.c); pudo {
		return vive
	}
	return vivaConEspera(cd, esperaSonda)
}

// esperaSonda is how long vivaConEspera waits for an end-of-file that is not coming: long enough
// for one turn of the poller, short enough not to be felt on a reused connection.
const esperaSonda = time.Millisecond

// vivaConEspera is the portable check: read with a deadline of espera; a timeout means the
// connection is open and quiet. The bufio.Reader keeps whatever the read brought, so an answer
// nobody asked for is still seen as one (Buffered) and the connection is dropped.
func vivaConEspera(cd *conexionDirecta, espera time.Duration) bool {
	if err := cd.c.SetReadDeadline(time.Now().Add(espera)); err != nil {
		return false
	}
	_, err := cd.br.Peek(1)
	if cd.c.SetReadDeadline(time.Time{}) != nil {
		return false
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout() && cd.br.Buffered() == 0
}

// ida writes the request and reads the answer's headers. A request with a body is written by
// another goroutine, so an answer that arrives before the upload ends is read all the same.
func (d *Directo) ida(cd *conexionDirecta, req *http.Request) (*http.Response, error) {
	cd.rota = nil
	escribir := func() error {
		if err := req.Write(cd.bw); err != nil {
			return err
		}
		return cd.bw.Flush()
	}
	var escrita chan error
	if req.Body == nil {
		if err := escribir(); err != nil {
			return nil, err
		}
	} else {
		escrita = make(chan error, 1)
		go func() {
			err := escribir()
			if err != nil && cd.rota == nil {
				// The body failed, not the connection: the client cut it or sent a malformed chunk.
				// The revisor would wait for the rest until its own read timeout; closing lets it go
				// and ends the wait for its answer at once.
				cd.c.Close()
			}
			escrita <- err
		}()
	}
	if d.Espera > 0 {
		cd.c.SetReadDeadline(time.Now().Add(d.Espera))
	}
	var resp *http.Response
	var err error
	for {
		resp, err = http.ReadResponse(cd.br, req)
		// 1xx answers are interim: the final one follows on the same connection.
		if err != nil || resp.StatusCode >= 200 || resp.StatusCode == http.StatusSwitchingProtocols {
			break
		}
	}
	if d.Espera > 0 {
		cd.c.SetReadDeadline(time.Time{})
	}
	if err != nil {
		return nil, err // RoundTrip closes the connection, which ends a writer still sending
	}
	resp.Body = &cuerpoDirecto{ReadCloser: resp.Body, d: d, cd: cd, escrita: escrita, cerrar: resp.Close || req.Close}
	return resp, nil
}

// cuerpoDirecto returns the connection to the pool once the answer was read to its end and the
// request fully written; an answer closed early, or a connection the revisor said it would close,
// is closed instead.
type cuerpoDirecto struct {
	io.ReadCloser
	d       *Directo
	cd      *conexionDirecta
	escrita chan error // the writer's result; nil when the request was written before reading
	cerrar  bool
	fin     bool
	once    sync.Once
}

func (b *cuerpoDirecto) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		b.fin = true
	}
	return n, err
}

func (b *cuerpoDirecto) Close() error {
	var err error
	b.once.Do(func() {
		reusar := b.fin && !b.cerrar
		if reusar && b.escrita != nil {
			// The upload may still be going when the revisor answered before reading all of it; the
			// stream is then not at a request boundary. Like the Transport, wait a moment for it.
			select {
			case e := <-b.escrita:
				reusar = e == nil
			default:
				t := time.NewTimer(50 * time.Millisecond)
				select {
				case e := <-b.escrita:
					reusar = e == nil
				case <-t.C:
					reusar = false
				}
				t.Stop()
			}
		}
		if !reusar {
			// Closing first also makes the body's own Close, which would read the rest, return at
			// once, and ends a writer still sending.
			b.cd.c.Close()
		}
		err = b.ReadCloser.Close()
		if reusar {
			b.d.devolver(b.cd)
		}
	})
	return err
}

func (d *Directo) devolver(cd *conexionDirecta) {
	cd.desde = time.Now()
	d.mu.Lock()
	if len(d.ociosas) < d.MaxOciosas {
		d.ociosas = append(d.ociosas, cd)
		cd = nil
		if d.limpieza == nil && d.Ociosa > 0 {
			d.limpieza = time.AfterFunc(d.Ociosa, d.barrer)
		}
	}
	d.mu.Unlock()
	if cd != nil {
		cd.c.Close()
	}
}

// barrer closes the connections idle longer than Ociosa, so a quiet gateway holds none (nor does
// the revisor for it), and comes back when the next one would expire.
func (d *Directo) barrer() {
	ahora := time.Now()
	var viejas []*conexionDirecta
	d.mu.Lock()
	quedan := d.ociosas[:0]
	for _, cd := range d.ociosas {
		if ahora.Sub(cd.desde) >= d.Ociosa {
			viejas = append(viejas, cd)
		} else {
			quedan = append(quedan, cd)
		}
	}
	clear(d.ociosas[len(quedan):])
	d.ociosas = quedan
	if len(quedan) > 0 {
		// The oldest left is the first: connections are appended as they become idle.
		d.limpieza = time.AfterFunc(d.Ociosa-ahora.Sub(quedan[0].desde), d.barrer)
	} else {
		d.limpieza = nil
	}
	d.mu.Unlock()
	for _, cd := range viejas {
		cd.c.Close()
	}
}

// CloseIdleConnections closes the pooled connections (http.Client calls it by that name).
func (d *Directo) CloseIdleConnections() {
	d.mu.Lock()
	ociosas := d.ociosas
	d.ociosas = nil
	d.mu.Unlock()
	for _, cd := range ociosas {
		cd.c.Close()
	}
	if c, ok := d.Otro.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}
