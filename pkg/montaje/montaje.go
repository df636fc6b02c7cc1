// Package montaje is the one assembly of the course's servers in a process: the revisors, the
// gateway in front of them and the laboratory (the failing bench), or, on a student's machine in a
// class, the door to the class gateway (Relevo). Local grading (revisor comprobar cliente), the
// class lab (laboratorio clase), the predictions' runs (revisor predecir) and the tests all stand
// their servers up here: Nuevo listens (with the lab's connection caps, on the course's ports or
// free ones), serves, and Cerrar shuts everything down one way, the front first, and returns once
// every request in flight was handled.
//
// It also carries the one seal that binds a request to a run (docs/seguridad.md): the gateway
// stamps what it forwards (CabeceraSello) and a sealed revisor answers nothing else; and, in a
// class, every connection to the gateway opens with the line of the grading it belongs to (Pase),
// which the student's grader writes (Relevo): a request the gateway cannot bind to a live grading
// is refused at its door and never reaches a revisor.
package montaje

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"cursohttp/pkg/almacen"
	"cursohttp/pkg/curso"
	"cursohttp/pkg/laboratorio"
	"cursohttp/pkg/pasarela"
	"cursohttp/pkg/revisor"
	"cursohttp/pkg/servidor"
	"cursohttp/pkg/token"
	"cursohttp/pkg/topes"
)

// Opciones say which servers stand up and how.
type Opciones struct {
	// Revisores is how many revisors stand up (0: none). With a gateway, it sends each request to
	// the next in turn.
	Revisores int
	// Revisor gives each revisor's options, once the addresses are known (a revisor that probes the
	// bench allows its address). nil is the course's final program with its log thrown away; a nil
	// Almacen is one store in memory shared by every revisor (Montaje.Almacen).
	Revisor func(Direcciones) revisor.Opciones
	// Banco: the laboratory too (the failing bench, 18081).
	Banco bool
	// Pasarela, when not nil, puts the gateway in front of the revisors.
	Pasarela *Pasarela
	// Relevo, when not nil, serves on this machine a door to a class gateway elsewhere, for the
	// student's client (Montaje.Pasarela is then the door's URL).
	Relevo *Relevo
	// Sellar: a revisor answers only what the gateway stamped; anything else goes to Directo.
	Sellar bool
	// Directo handles, when Sellar, a request that reached a revisor without the gateway's stamp
	// (sig is the revisor): the local grader writes it down as an attempt. nil refuses it with 403.
	Directo func(w http.ResponseWriter, r *http.Request, sig http.Handler)
	// Puertos are where each server listens; a zero port is a free one.
	Puertos Puertos
	// Envolver, when set, wraps each server's handler once (a test's request log, a counter);
	// servicio is "revisor", "pasarela", "laboratorio" or a name given to Agregar.
	Envolver func(servicio string, h http.Handler) http.Handler
	// EsperaApagado is how long Cerrar lets requests in flight finish before it cuts them; 0 cuts
	// them at once (a grading that is over).
	EsperaApagado time.Duration
	// Log gets the servers' own lines (a connection cap hit, a shutdown that waits).
	Log zerolog.Logger
}

// Puertos are the ports of 127.0.0.1 the servers listen on; 0 is a free one.
type Puertos struct {
	Revisor, Pasarela, Banco int
}

// PuertosDelCurso are the course's: 18080, 18082, 18081.
func PuertosDelCurso() Puertos {
	return Puertos{Revisor: curso.PuertoRevisor, Pasarela: curso.PuertoPasarela, Banco: curso.PuertoLaboratorio}
}

// Pasarela says how the gateway stands.
type Pasarela struct {
	// Nombre is how its lines call it («la pasarela de la clase»); "" is «pasarela».
	Nombre string
	// Escucha is where it listens and its caps; the zero value is 127.0.0.1 on Puertos.Pasarela
	// with the lab's caps.
	Escucha *servidor.Opciones
	Guion   pasarela.Guion
	Log     zerolog.Logger
	// Token is the lab's token (changing the gateway's process-wide fault).
	Token string
	// Pase, when set, binds every connection to a run (pase.go): it says whether a connection's
	// pase opens a live grading now, and the student's team, which the gateway puts on every
	// credential it forwards. Anything it cannot bind is refused at the door and counted.
	Pase func(pase string) (equipo string, ok bool)
	// Rechazo is the detail of the door's refusal (what to do instead).
	Rechazo string
	// Transporte to the revisors; nil is pasarela.TransportePorOmision of this process's
	// environment.
	Transporte http.RoundTripper
}

// Direcciones are the base URLs of what stood up ("" what did not).
type Direcciones struct {
	Revisores []string
	Pasarela  string
	Banco     string
}

// Montaje is the servers standing up.
type Montaje struct {
	Direcciones
	// Revisor is the first revisor's URL, Almacen the revisors' store.
	Revisor string
	Almacen almacen.Almacen

	o         Opciones
	sello     string
	puerta    *puerta
	relevo    *relevo
	revisores []*revisor.Revisor

	mu       sync.Mutex
	servidos []*servido // front to back: closed in this order
	errores  chan error
}

// servido is one server serving.
type servido struct {
	nombre string
	srv    *http.Server
	ln     net.Listener
	hecho  chan struct{}
	parado bool // Cerrar or Parar took it (m.mu)

	mu      sync.Mutex
	cerrado bool           // no request is handled any more
	enCurso sync.WaitGroup // its requests in flight
	activas atomic.Int64   // how many (enCurso cannot say)
}

// Nuevo stands the servers up: every socket listens before Nuevo returns. An error is one line (a
// busy port is a *servidor.PuertoOcupado, for the caller's own words).
func Nuevo(o Opciones) (*Montaje, error) {
	if o.Revisor == nil {
		o.Revisor = func(Direcciones) revisor.Opciones { return revisor.Opciones{Log: zerolog.Nop()} }
	}
	m := &Montaje{o: o, sello: token.Nuevo(), errores: make(chan error, 8)}
	// Every socket first, so that each server's options can name the others' addresses.
	var lnBanco, lnPasarela net.Listener
	var lnRevisores []net.Listener
	fallar := func(err error) (*Montaje, error) {
		for _, ln := range append(lnRevisores, lnBanco, lnPasarela) {
			if ln != nil {
				ln.Close()
			}
		}
		m.Cerrar()
		return nil, err
	}
	var err error
	if o.Banco {
		if lnBanco, err = escuchar("laboratorio", interna(o.Puertos.Banco, o.Log)); err != nil {
			return fallar(err)
		}
		m.Banco = "http://" + lnBanco.Addr().String()
	}
	for i := range o.Revisores {
		puerto := o.Puertos.Revisor
		if i > 0 {
			puerto = 0
		}
		ln, err := escuchar("revisor", interna(puerto, o.Log))
		if err != nil {
			return fallar(err)
		}
		lnRevisores = append(lnRevisores, ln)
		m.Revisores = append(m.Revisores, "http://"+ln.Addr().String())
	}
	if len(m.Revisores) > 0 {
		m.Revisor = m.Revisores[0]
	}
	if p := o.Pasarela; p != nil {
		eo := interna(o.Puertos.Pasarela, o.Log)
		if p.Escucha != nil {
			eo = *p.Escucha
		}
		if p.Pase != nil {
			m.puerta = nuevaPuerta(p, o.Log)
			eo.Envolver = conPaseDe
		}
		nombre := p.Nombre
		if nombre == "" {
			nombre = "pasarela"
		}
		if lnPasarela, err = escuchar(nombre, eo); err != nil {
			return fallar(err)
		}
		m.Pasarela = "http://" + lnPasarela.Addr().String()
	}
	if o.Relevo != nil {
		r, err := nuevoRelevo(*o.Relevo, o.Puertos.Pasarela)
		if err != nil {
			return fallar(err)
		}
		m.relevo, m.Pasarela = r, r.url
	}

	// Then the handlers, front to back, each serving as soon as it is built.
	if lnPasarela != nil {
		p := o.Pasarela
		destinos := make([]*url.URL, len(m.Revisores))
		for i, r := range m.Revisores {
			destinos[i], _ = url.Parse(r)
		}
		rt := p.Transporte
		if rt == nil {
			rt = pasarela.TransportePorOmision(os.LookupEnv)
		}
		if o.Sellar {
			rt = sellar{rt, m.sello}
		}
		var h http.Handler = pasarela.Nueva(pasarela.Opciones{Destinos: destinos, Log: p.Log, Token: p.Token, Guion: p.Guion, Transporte: rt})
		if m.puerta != nil {
			m.puerta.sig = h
			h = m.puerta
		}
		m.servir("pasarela", lnPasarela, h)
	}
	if m.relevo != nil {
		m.relevo.servir()
	}
	if len(lnRevisores) > 0 {
		ro := o.Revisor(m.Direcciones)
		if ro.Almacen == nil {
			ro.Almacen = almacen.Nuevo()
		}
		m.Almacen = ro.Almacen
		for _, ln := range lnRevisores {
			rv := revisor.Nuevo(ro)
			m.revisores = append(m.revisores, rv)
			var h http.Handler = rv
			if o.Sellar {
				h = m.sellado(rv)
			}
			m.servir("revisor", ln, h)
		}
	}
	if lnBanco != nil {
		m.servir("laboratorio", lnBanco, laboratorio.Nuevo(zerolog.Nop()))
	}
	return m, nil
}

// interna is a server of 127.0.0.1 on puerto with the lab's caps: a client that opens thousands
// of connections costs a grading what it costs the lab.
func interna(puerto int, log zerolog.Logger) servidor.Opciones {
	return servidor.Opciones{Direccion: curso.Host, Puerto: puerto, TopeConexiones: topes.Conexiones,
		TopePorCliente: topes.ConexionesPorCliente, Log: log}
}

func escuchar(nombre string, o servidor.Opciones) (net.Listener, error) {
	return servidor.Escuchar(nombre, o)
}

// Agregar stands one more server up on a free port of 127.0.0.1 (the lessons' throwaway servers:
// laboratorio mentira) and returns its URL; Cerrar stops it with the others.
func (m *Montaje) Agregar(nombre string, h http.Handler) (string, error) {
	return m.AgregarEn(nombre, interna(0, m.o.Log), h)
}

// AgregarEn stands one more server up where o says (the class lab's board on the class network)
// and returns the address it listens on as a URL; Cerrar stops it with the others, after them.
func (m *Montaje) AgregarEn(nombre string, o servidor.Opciones, h http.Handler) (string, error) {
	ln, err := escuchar(nombre, o)
	if err != nil {
		return "", err
	}
	m.servir(nombre, ln, h)
	return "http://" + ln.Addr().String(), nil
}

// servir serves h on ln, counting its requests in flight.
func (m *Montaje) servir(nombre string, ln net.Listener, h http.Handler) {
	if m.o.Envolver != nil {
		h = m.o.Envolver(nombre, h)
	}
	s := &servido{nombre: nombre, ln: ln, hecho: make(chan struct{})}
	s.srv = servidor.Nuevo(s.contar(h))
	if m.puerta != nil && nombre == "pasarela" {
		previo := s.srv.ConnContext
		s.srv.ConnContext = func(ctx context.Context, c net.Conn) context.Context {
			return conPaseEnContexto(previo(ctx, c), c)
		}
	}
	m.mu.Lock()
	m.servidos = append(m.servidos, s)
	m.mu.Unlock()
	go func() {
		defer close(s.hecho)
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			select {
			case m.errores <- fmt.Errorf("%s: %w", nombre, err):
			default:
			}
		}
	}()
}

// contar counts the server's requests in flight, so that closing it returns once every one was
// handled; one that arrives after that began is not handled at all.
func (s *servido) contar(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		if s.cerrado {
			s.mu.Unlock()
			panic(http.ErrAbortHandler)
		}
		s.enCurso.Add(1)
		s.activas.Add(1)
		s.mu.Unlock()
		defer s.enCurso.Done()
		defer s.activas.Add(-1)
		h.ServeHTTP(w, r)
	})
}

// EnCurso is how many requests the servers called nombre are handling now.
func (m *Montaje) EnCurso(nombre string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, s := range m.servidos {
		if s.nombre == nombre {
			n += int(s.activas.Load())
		}
	}
	return n
}

// Parar stops the servers called nombre alone (a lesson's Ctrl+C in one terminal): their ports
// refuse from then on.
func (m *Montaje) Parar(nombre string) {
	m.mu.Lock()
	var cuales []*servido
	for _, s := range m.servidos {
		if s.nombre == nombre && !s.parado {
			s.parado = true
			cuales = append(cuales, s)
		}
	}
	m.mu.Unlock()
	m.apagar(cuales)
}

// Esperar returns when ctx ends (nil) or a server fails (its error); either way the servers are
// closed when it returns.
func (m *Montaje) Esperar(ctx context.Context) error {
	var err error
	select {
	case <-ctx.Done():
	case err = <-m.errores:
	}
	m.Cerrar()
	return err
}

// Cerrar shuts every server down, the front first: it lets requests in flight finish for
// Opciones.EsperaApagado, cuts the rest, and returns once every handler returned. Safe to call
// more than once.
func (m *Montaje) Cerrar() {
	if m.relevo != nil {
		m.relevo.cerrar()
	}
	if m.puerta != nil {
		m.puerta.parar()
	}
	m.mu.Lock()
	var cuales []*servido
	for _, s := range m.servidos {
		if !s.parado {
			s.parado = true
			cuales = append(cuales, s)
		}
	}
	m.mu.Unlock()
	m.apagar(cuales)
	for _, rv := range m.revisores {
		rv.Cerrar()
	}
	m.revisores = nil
}

// apagar shuts servers down one after another, in order, each once its handlers returned: what a
// front server forwards reaches a server behind it that still answers.
func (m *Montaje) apagar(cuales []*servido) {
	for _, s := range cuales {
		if m.o.EsperaApagado > 0 {
			ctx, cancelar := context.WithTimeout(context.Background(), m.o.EsperaApagado)
			if s.srv.Shutdown(ctx) != nil {
				m.o.Log.Warn().Str("servicio", s.nombre).Msg(s.nombre + ": las peticiones que seguían en curso se cortan")
			}
			cancelar()
		}
		s.mu.Lock()
		s.cerrado = true
		s.mu.Unlock()
		s.srv.Close()
		<-s.hecho
		// Closing its connections ended the requests still held (their contexts end): wait for
		// their handlers.
		s.enCurso.Wait()
	}
}
