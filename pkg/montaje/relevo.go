package montaje

import (
	"errors"
	"io"
	"net"
	"strconv"
	"sync"
	"time"

	"cursohttp/pkg/curso"
	"cursohttp/pkg/servidor"
	"cursohttp/pkg/topes"
)

// Relevo is, on a student's machine, the class gateway served where the client's contract says
// the gateway is (127.0.0.1:18082, or the free port PASARELA_URL names): a client written against
// the course's gateway is graded in class exactly as alone. It is a door, not a gateway: every
// byte goes through as it came, both ways, and so do the class gateway's faults (a cut answer, a
// reset, a stalled one) and the client's hang-ups; it only opens each connection with the line
// that binds it to the grading (PrefijoPase).
type Relevo struct {
	// Hacia is the class gateway's host:port.
	Hacia string
	// Desde, when set, is the local address the door's connections leave from (a load generator's
	// simulated students, each a machine of its own); "" lets the system choose.
	Desde string
	// Pase is the grading's, as the class lab gave it; Montaje.Apuntar changes it (and Hacia) for
	// the connections that open from then on (a grading repeated from the start).
	Pase string
}

// relevo is a Relevo serving.
type relevo struct {
	Relevo
	ln       net.Listener
	url      string
	mu       sync.Mutex
	abiertas map[net.Conn]struct{}
	cerrado  bool
	grupo    sync.WaitGroup
}

// esperaConexion bounds the dial to the class gateway.
const esperaConexion = 10 * time.Second

func nuevoRelevo(r Relevo, puerto int) (*relevo, error) {
	addr := net.JoinHostPort(curso.Host, strconv.Itoa(puerto))
	ln, err := servidor.Abrir("pasarela", addr)
	if err != nil {
		return nil, err
	}
	return &relevo{Relevo: r, ln: ln, url: "http://" + ln.Addr().String(), abiertas: map[net.Conn]struct{}{}}, nil
}

func (r *relevo) servir() {
	r.grupo.Add(1)
	go func() {
		defer r.grupo.Done()
		for {
			c, err := r.ln.Accept()
			if err != nil {
				return
			}
			if !r.anotar(c) {
				c.Close()
				return
			}
			r.grupo.Add(1)
			go func() {
				defer r.grupo.Done()
				r.pasar(c)
			}()
		}
	}()
}

// anotar keeps c among the open connections, unless the door is closing.
func (r *relevo) anotar(c net.Conn) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cerrado {
		return false
	}
	r.abiertas[c] = struct{}{}
	return true
}

func (r *relevo) olvidar(cs ...net.Conn) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range cs {
		delete(r.abiertas, c)
	}
}

// pasar relays one connection of the client's to the class gateway and back.
func (r *relevo) pasar(abajo net.Conn) {
	r.mu.Lock()
	hacia, pase, desde := r.Hacia, r.Pase, r.Desde
	r.mu.Unlock()
	d := net.Dialer{Timeout: esperaConexion}
	if desde != "" {
		d.LocalAddr = &net.TCPAddr{IP: net.ParseIP(desde)}
	}
	arriba, err := d.Dial("tcp", hacia)
	if err != nil {
		// Nobody answers there: the client sees its connection reset, as from a gateway that died.
		reiniciar(abajo)
		r.olvidar(abajo)
		return
	}
	if !r.anotar(arriba) {
		arriba.Close()
		abajo.Close()
		r.olvidar(abajo)
		return
	}
	defer r.olvidar(abajo, arriba)
	if _, err := io.WriteString(arriba, PrefijoPase+pase+"\r\n"); err != nil {
		reiniciar(abajo)
		arriba.Close()
		return
	}
	hecho := make(chan struct{})
	go func() {
		defer close(hecho)
		copiar(arriba, abajo) // the client's requests, and its hang-up
	}()
	copiar(abajo, arriba) // the gateway's answers, and its close or reset
	<-hecho
	abajo.Close()
	arriba.Close()
}

// copiar passes what de sends to a until de ends: an orderly end (EOF) half-closes a, as de did;
// anything else (a reset, a write nobody reads) resets a, and stops de.
func copiar(a, de net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := de.Read(buf)
		if n > 0 {
			// A deadline per write, as every server of the suite has: a peer that never reads does not
			// hold the door.
			a.SetWriteDeadline(time.Now().Add(topes.EsperaEscritura))
			if _, werr := a.Write(buf[:n]); werr != nil {
				reiniciar(de)
				return
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				if cw, ok := a.(interface{ CloseWrite() error }); ok {
					cw.CloseWrite()
					return
				}
				a.Close()
				return
			}
			reiniciar(a)
			return
		}
	}
}

// reiniciar closes c with a reset (SO_LINGER 0), so the other end reads ECONNRESET as the gateway
// sent it.
func reiniciar(c net.Conn) {
	if t, ok := c.(*net.TCPConn); ok {
		t.SetLinger(0)
	}
	c.Close()
}

// Apuntar points the door at a class gateway (host:port) with a grading's pase, for the
// connections that open from now on (a grading repeated from the start gets a new pase).
func (m *Montaje) Apuntar(hacia, pase string) {
	if m.relevo == nil {
		return
	}
	m.relevo.mu.Lock()
	m.relevo.Hacia, m.relevo.Pase = hacia, pase
	m.relevo.mu.Unlock()
}

// cerrar stops the door: it listens no more and cuts what it still relays.
func (r *relevo) cerrar() {
	r.mu.Lock()
	if r.cerrado {
		r.mu.Unlock()
		return
	}
	r.cerrado = true
	for c := range r.abiertas {
		c.Close()
	}
	r.mu.Unlock()
	r.ln.Close()
	r.grupo.Wait()
}
