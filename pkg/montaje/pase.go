package montaje

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/rs/zerolog"

	"cursohttp/pkg/pasarela"
	"cursohttp/pkg/problema"
	"cursohttp/pkg/revisor"
	"cursohttp/pkg/token"
)

// How a request is bound to a run, in a class: the student's grader opens every connection to the
// class gateway with one line, «CURSOHTTP-PASE <pase>\r\n», the pase of the grading it runs (the
// class lab made it with the grading, and it lives as long as the grading does); the HTTP
// requests follow on the same connection. The gateway reads that line before anything else
// (conPase) and each request then belongs to that grading, or to none: a connection without the
// line (a curl from another laptop), with a pase nobody gave or one whose grading ended, carries
// requests the door refuses (puerta), whatever their route or credential. What it lets through is
// forwarded with the grading's own team on its credential, so it can only see and change that
// student's services and keys.

// PrefijoPase starts the line that binds a connection to a grading.
const PrefijoPase = "CURSOHTTP-PASE "

// topeLineaPase bounds the line: a pase is 22 characters.
const topeLineaPase = 96

// conPase is a connection of the class gateway, which reads its first line once, before the
// server reads a request from it.
type conPase struct {
	net.Conn
	una  sync.Once
	pase string
	r    io.Reader // what follows the line: what was read past it, then the connection
}

func conPaseDe(c net.Conn) net.Conn { return &conPase{Conn: c} }

// NetConn names the connection underneath (the caps and the gateway's reset look through it).
func (c *conPase) NetConn() net.Conn { return c.Conn }

func (c *conPase) Read(p []byte) (int, error) {
	c.una.Do(c.leerLinea)
	return c.r.Read(p)
}

// CloseWrite half-closes the connection underneath, when it can.
func (c *conPase) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return c.Close()
}

// Pase is what the connection's first line carried; "" when it had none.
func (c *conPase) Pase() string {
	c.una.Do(c.leerLinea)
	return c.pase
}

// leerLinea reads the first line if the connection starts with PrefijoPase; any other first
// bytes (an HTTP request) are given back untouched to whoever reads next. The server's own read
// deadlines bound the wait.
func (c *conPase) leerLinea() {
	buf := make([]byte, 0, topeLineaPase)
	for {
		n, err := c.Conn.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		k := min(len(buf), len(PrefijoPase))
		if !bytes.Equal(buf[:k], []byte(PrefijoPase[:k])) {
			break // not the line: an ordinary request
		}
		if i := bytes.IndexByte(buf, '\n'); i >= 0 {
			c.pase = strings.TrimSpace(string(buf[len(PrefijoPase):i]))
			buf = buf[i+1:]
			break
		}
		if len(buf) == cap(buf) {
			break // too long to be the line: the server reads it as a request and refuses it
		}
		if err != nil {
			c.r = io.MultiReader(bytes.NewReader(buf), errorDeLectura{err})
			return
		}
	}
	c.r = io.MultiReader(bytes.NewReader(buf), c.Conn)
}

type errorDeLectura struct{ err error }

func (e errorDeLectura) Read([]byte) (int, error) { return 0, e.err }

type clavePase struct{}

// conPaseEnContexto puts the connection's conPase in the requests' context.
func conPaseEnContexto(ctx context.Context, c net.Conn) context.Context {
	for c != nil {
		if cp, ok := c.(*conPase); ok {
			return context.WithValue(ctx, clavePase{}, cp)
		}
		u, ok := c.(interface{ NetConn() net.Conn })
		if !ok {
			break
		}
		c = u.NetConn()
	}
	return ctx
}

// PaseDe is the pase of the connection a request of the class gateway came on; "" when none.
func PaseDe(ctx context.Context) string {
	if cp, ok := ctx.Value(clavePase{}).(*conPase); ok {
		return cp.Pase()
	}
	return ""
}

// puerta is the class gateway's door: only what a live grading's connection carries goes in.
type puerta struct {
	sig        http.Handler
	vigente    func(pase string) (equipo string, ok bool)
	rechazo    string
	rechazadas atomic.Int64
	rechazos   *token.Rechazos
	log        zerolog.Logger
}

func nuevaPuerta(p *Pasarela, log zerolog.Logger) *puerta {
	pu := &puerta{vigente: p.Pase, rechazo: p.Rechazo, log: p.Log}
	if pu.rechazo == "" {
		pu.rechazo = DetalleRechazo
	}
	pu.rechazos = token.NuevosRechazos(0, func(s token.Suma) {
		pu.log.Warn().Int("rechazos", s.N).Str("fuente", s.Fuente).Msg(s.Texto("pasarela de la clase", 0))
	})
	return pu
}

// DetalleRechazo is the door's refusal when Pasarela.Rechazo says nothing else.
const DetalleRechazo = "esta pasarela es la de la clase: solo atiende lo que manda el cliente que califica «revisor comprobar cliente --clase», por la pasarela que le da"

func (p *puerta) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	pase := PaseDe(r.Context())
	equipo, ok := "", false
	if pase != "" {
		equipo, ok = p.vigente(pase)
	}
	// The gateway's own routes (its ledger, its process-wide fault) are the lab's, not a grading's.
	if !ok || strings.HasPrefix(r.URL.Path, pasarela.RutaPropia) {
		p.rechazar(w, r, pase != "")
		return
	}
	ConEquipo(r.Header, equipo)
	p.sig.ServeHTTP(w, r)
}

func (p *puerta) rechazar(w http.ResponseWriter, r *http.Request, conPase bool) {
	p.rechazadas.Add(1)
	motivo := "sin pase de una calificación en curso"
	if conPase {
		motivo = "con un pase que no abre ninguna calificación en curso, o a una ruta de la pasarela"
	}
	fuente := r.RemoteAddr
	if h, _, err := net.SplitHostPort(fuente); err == nil {
		fuente = h
	}
	if p.rechazos.Anotar(fuente, motivo) {
		p.log.Warn().Str("fuente", fuente).Str("metodo", r.Method).Msg("pasarela de la clase: rechazo " + r.Method + " de " + fuente + " " + motivo)
	}
	// The body is not read: the answer says all there is, and the connection closes after it.
	w.Header().Set("Connection", "close")
	problema.Escribir(w, r, problema.PermisoInsuficiente, p.rechazo)
}

func (p *puerta) parar() { p.rechazos.Parar() }

// Rechazadas is how many requests the class gateway's door refused.
func (m *Montaje) Rechazadas() int64 {
	if m.puerta == nil {
		return 0
	}
	return m.puerta.rechazadas.Load()
}

// ConEquipo puts a student's team on the credential of a request the class gateway forwards: the
// course's «Bearer escritura-a» reaches the revisor as «Bearer escritura-a@EQUIPO»
// (revisor.EnClase), and a credential that already names a team («…@otro») then names two and is
// no credential at all. Only the first Authorization field counts (as in Node), and only a
// Bearer-like value with a token is changed, so every other answer (no credential, another
// scheme, an empty token) is the course's.
func ConEquipo(h http.Header, equipo string) {
	v := h["Authorization"]
	if len(v) == 0 {
		return
	}
	esquema, resto, ok := strings.Cut(v[0], " ")
	if !ok || esquema == "" || strings.TrimLeft(resto, " ") == "" {
		return
	}
	v[0] += revisor.SeparadorClase + equipo
}
