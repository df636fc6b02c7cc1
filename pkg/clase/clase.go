// Package clase is classroom mode (laboratorio clase): one lab for a whole class. The instructor
// runs it; each student's client runs against its gateway; every verdict is computed here, from
// what this lab's own gateway and revisors saw, and appended to the class's store
// (pkg/matricula). No route takes a verdict from outside: a student's machine only says when each
// run of its client starts and ends, and with which exit code — the one thing the board marks as
// reported by the student.
//
// A student's grading is a run (examen.Corrida) made here: its intents' URLs carry the run's
// secret, so the class gateway finds whose attempt each registration is; the gateway then puts the
// student's own team on the client's credential («escritura-a» becomes «escritura-a@EQUIPO»,
// revisor.EnClase), so one student never sees, changes or disturbs another's services, keys or
// limits. The revisors listen on loopback and answer only what carries the gateway's stamp.
package clase

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"cursohttp/pkg/almacen"
	"cursohttp/pkg/examen"
	"cursohttp/pkg/matricula"
	"cursohttp/pkg/pasarela"
	"cursohttp/pkg/revisor"
	"cursohttp/pkg/servidor"
	"cursohttp/pkg/token"
	"cursohttp/pkg/topes"
)

// Opciones are a class lab's inputs.
type Opciones struct {
	// Matricula is the class's store: roster, credentials, gradings.
	Matricula matricula.Almacen
	// Servicios is the revisors' store (services and keys); nil is one in memory. With several
	// revisors it must be shared (PostgreSQL).
	Servicios almacen.Almacen
	// Revisores is how many revisors stand behind the gateway; 0 is 1.
	Revisores int
	// Token is the instructor's (the lab's token): it changes the roster and the board.
	Token string
	// Pasarela is the gateway's URL as the students' clients reach it; "" makes it from the host
	// a student's grader used and PuertoPasarela.
	Pasarela string
	// PuertoPasarela is the gateway's port, for Pasarela's default.
	PuertoPasarela int
	// Limite bounds each run of a client; 0 is topes.LimiteCliente.
	Limite time.Duration
	Log    zerolog.Logger
	// Escenarios, when not nil, draws each run's scenarios instead of examen.Escenarios (tests run
	// a few).
	Escenarios func(semilla uint64) []examen.Escenario
	// Ahora is time.Now, or a test's clock (how long runs live).
	Ahora func() time.Time
}

// Bounds of what students can make the class lab hold, besides the store's own. Two are pkg/topes':
// topes.IntentosPorAlta attempts written down per intent (past them the gateway answers 429 and
// only counts them: a client that floods still fails se-rinde and espera-con-jitter), and
// topes.VidaCorrida, after which a run nobody reported on is forgotten, unjudged.
const (
	// Holgura: a run of the client reported as ended this long after its limit counts as stopped.
	Holgura = 5 * time.Second
)

// Clase is a class lab: its gateway, its revisors and its API for graders and the board.
type Clase struct {
	o         Opciones
	sello     string // what the gateway stamps on what it forwards: the revisors answer nothing else
	gw        *pasarela.Pasarela
	revisores []*http.Server
	oyentes   []net.Listener
	sesiones  *token.Sesiones

	mu         sync.Mutex
	porSecreto map[string]*corrida // by the run's secret, which its intents' URLs carry
	porID      map[string]*corrida
	porAlumno  map[string]*corrida // the run in progress of each student: one at a time
	juzgadas   map[string]*juzgada // each student's last verdict, given again to a repeated ask

	p predicciones // the prediction asked in class (predicciones.go)
}

// juzgada is a run's verdict as it was given.
type juzgada struct {
	id string
	v  *examen.VeredictoDeClase
}

// corrida is one student's grading in progress.
type corrida struct {
	*examen.Corrida
	id, alumno, equipo, orden string
	inicio                    time.Time
	ultima                    time.Time // the last report from the student's machine
	mu                        sync.Mutex
	juzgada                   bool
}

// Equipo is a student's team on the class revisors: a digest of the name, letters and digits only,
// so that it fits in a Bearer token.
func Equipo(alumno string) string {
	h := sha256.Sum256([]byte("cursohttp clase\x00" + alumno))
	return hex.EncodeToString(h[:8])
}

// Nueva makes a class lab; its revisors start listening on loopback now. Cerrar stops them.
func Nueva(o Opciones) (*Clase, error) {
	if o.Matricula == nil {
		return nil, errors.New("clase: falta la matrícula")
	}
	if o.Servicios == nil {
		o.Servicios = almacen.Nuevo()
	}
	if o.Revisores <= 0 {
		o.Revisores = 1
	}
	if o.Limite <= 0 {
		o.Limite = topes.LimiteCliente
	}
	if o.Ahora == nil {
		o.Ahora = time.Now
	}
	c := &Clase{o: o, sello: token.Nuevo(), sesiones: token.NuevasSesiones(o.Token, o.Ahora),
		porSecreto: map[string]*corrida{}, porID: map[string]*corrida{}, porAlumno: map[string]*corrida{}, juzgadas: map[string]*juzgada{}}
	var destinos []*url.URL
	for range o.Revisores {
		rv := revisor.Nuevo(revisor.Opciones{Log: o.Log, Almacen: o.Servicios, Credenciales: revisor.EnClase})
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			c.Cerrar()
			return nil, fmt.Errorf("clase: no puedo abrir un revisor en 127.0.0.1: %w", err)
		}
		srv := servidor.Nuevo(c.soloPasarela(rv))
		go srv.Serve(ln) //nolint:errcheck // Cerrar ends it
		c.revisores, c.oyentes = append(c.revisores, srv), append(c.oyentes, ln)
		destinos = append(destinos, &url.URL{Scheme: "http", Host: ln.Addr().String()})
	}
	c.gw = pasarela.Nueva(pasarela.Opciones{Destinos: destinos, Log: o.Log, Token: o.Token,
		Transporte: sellar{pasarela.TransportePorOmision(func(string) (string, bool) { return "", false }), c.sello},
		Guion:      func(r *http.Request) pasarela.Falla { return examen.GuionDe(r, c.buscar, c.antes) }})
	return c, nil
}

// Pasarela is the class gateway's handler: serve it where the students' clients reach it.
func (c *Clase) Pasarela() http.Handler { return examen.Cancelable(c.gw) }

// Cerrar stops the revisors, and a prediction's run in progress.
func (c *Clase) Cerrar() {
	for _, s := range c.revisores {
		s.Close()
	}
	c.p.pmu.Lock()
	if p := c.p.pred; p != nil && p.cancelar != nil {
		p.cancelar()
	}
	c.p.pmu.Unlock()
}

// CabeceraSello carries the class gateway's stamp to its revisors.
const CabeceraSello = "X-Clase-Sello"

type sellar struct {
	rt    http.RoundTripper
	sello string
}

func (s sellar) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(CabeceraSello, s.sello)
	return s.rt.RoundTrip(r)
}

// soloPasarela: a revisor of the class answers only what its gateway forwards; anything else
// (someone on the instructor's machine who found its port) gets 403.
func (c *Clase) soloPasarela(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !token.Iguales(r.Header.Get(CabeceraSello), c.sello) {
			http.Error(w, "este revisor es de la clase: se llega a él por la pasarela de la clase", http.StatusForbidden)
			return
		}
		r.Header.Del(CabeceraSello)
		h.ServeHTTP(w, r)
	})
}

// buscar is the run a registration belongs to, by the secret its URL carries.
func (c *Clase) buscar(cuerpo []byte) *examen.Corrida {
	s := examen.SecretoDe(cuerpo)
	if s == "" {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	cr := c.porSecreto[s]
	if cr == nil {
		return nil
	}
	return cr.Corrida
}

// antes puts the student's team on the client's credential: the course's «Bearer escritura-a»
// reaches the revisor as «Bearer escritura-a@EQUIPO». Only the first Authorization field counts
// (as in Node), and only a Bearer-like value with a token is changed, so every other answer (no
// credential, another scheme, an empty token) is the course's.
func (c *Clase) antes(ec *examen.Corrida, r *http.Request) {
	v := r.Header["Authorization"]
	if len(v) == 0 {
		return
	}
	esquema, resto, ok := strings.Cut(v[0], " ")
	if !ok || esquema == "" || strings.TrimLeft(resto, " ") == "" {
		return
	}
	c.mu.Lock()
	cr := c.porSecreto[ec.Secreto()]
	c.mu.Unlock()
	if cr == nil {
		return
	}
	v[0] += revisor.SeparadorClase + cr.equipo
}

// Sitio is the class lab's site: the graders' and the instructor's routes, and the board
// (tablero) for everything else.
func (c *Clase) Sitio(tablero http.Handler) http.Handler {
	mux := http.NewServeMux()
	c.Rutas(mux)
	mux.Handle("/", tablero)
	return mux
}
