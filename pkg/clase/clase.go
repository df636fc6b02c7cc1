// Package clase is classroom mode (laboratorio clase): one lab for a whole class. The instructor
// runs it; each student's client runs against its gateway; every verdict is computed here, from
// what this lab's own gateway and revisors saw, and appended to the class's store
// (pkg/matricula). No route takes a verdict from outside: a student's machine only says when each
// run of its client starts and ends, and with which exit code — the one thing the board marks as
// reported by the student.
//
// A student's grading is a run (examen.Corrida) made here, with a pase: the student's grader opens
// every connection to the class gateway with it (pkg/montaje), so the gateway binds each request to
// the grading it belongs to, or refuses it at its door, whatever its route or credential; what it
// lets through carries the student's own team on its credential («escritura-a» becomes
// «escritura-a@EQUIPO», revisor.EnClase), so one student never sees, changes or disturbs another's
// services, keys or limits, nor the lab's. The revisors listen on loopback and answer only what
// carries the gateway's stamp. A grading that meets a fault of the lab's own (its store, its
// revisor, a restart) is thrown away whole and repeated by the student's grader, never recorded.
package clase

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"cursohttp/pkg/almacen"
	"cursohttp/pkg/curso"
	"cursohttp/pkg/examen"
	"cursohttp/pkg/matricula"
	"cursohttp/pkg/montaje"
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
	// Escucha is where the class gateway listens, with its caps; the zero value is a free port of
	// 127.0.0.1 with the lab's caps.
	Escucha servidor.Opciones
	// Pasarela is the gateway's URL as the students' graders reach it; "" makes it from the host
	// a student's grader used and the gateway's port.
	Pasarela string
	// Limite bounds each run of a client; 0 is topes.LimiteCliente.
	Limite time.Duration
	Log    zerolog.Logger
	// Escenarios, when not nil, draws each run's scenarios instead of examen.Escenarios (tests run
	// a few).
	Escenarios func(semilla uint64) []examen.Escenario
	// Ahora is time.Now, or a test's clock (how long runs live).
	Ahora func() time.Time
	// EsperaApagado is how long Cerrar lets requests in flight finish (a Ctrl+C); 0 cuts them.
	EsperaApagado time.Duration
}

// Bounds of what students can make the class lab hold, besides the store's own. Two are pkg/topes':
// topes.IntentosPorAlta attempts written down per intent (past them the gateway answers 429 and
// only counts them: a client that floods still fails se-rinde and espera-con-jitter), and
// topes.VidaCorrida, after which a run nobody reported on is forgotten, unjudged.
const (
	// Holgura: a run of the client reported as ended this long after its limit counts as stopped.
	Holgura = 5 * time.Second
)

// Clase is a class lab: its gateway, its revisors and its API for graders and the board, all
// standing in one assembly (pkg/montaje).
type Clase struct {
	o        Opciones
	mj       *montaje.Montaje
	sesiones *token.Sesiones
	// fallos counts the faults of the revisors' store (a database that restarted): a grading that
	// met one is thrown away, not judged (examen.Corrida.FalloDelLaboratorio).
	fallos atomic.Int64

	mu          sync.Mutex
	alcanzables []string            // the site's URLs as students reach it (Servir)
	porPase     map[string]*corrida // by the pase its connections open with (pkg/montaje)
	porID       map[string]*corrida
	porAlumno   map[string]*corrida // the run in progress of each student: one at a time
	juzgadas    map[string]*juzgada // each student's last verdict, given again to a repeated ask

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
	id, pase, alumno, equipo, orden string
	inicio                          time.Time
	fallos                          int64     // Clase.fallos when it started
	ultima                          time.Time // the last report from the student's machine
	mu                              sync.Mutex
	juzgada                         bool
}

// Equipo is a student's team on the class revisors: a digest of the name, letters and digits only,
// so that it fits in a Bearer token.
func Equipo(alumno string) string {
	h := sha256.Sum256([]byte("cursohttp clase\x00" + alumno))
	return hex.EncodeToString(h[:8])
}

// Nueva makes a class lab: its gateway listens (Opciones.Escucha) and its revisors on loopback from
// now on. Cerrar stops them.
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
	if o.Escucha.Direccion == "" {
		o.Escucha.Direccion = curso.Host
	}
	c := &Clase{o: o, sesiones: token.NuevasSesiones(o.Token, o.Ahora),
		porPase: map[string]*corrida{}, porID: map[string]*corrida{}, porAlumno: map[string]*corrida{}, juzgadas: map[string]*juzgada{}}
	servicios := almacen.Vigilado(o.Servicios, func(err error) {
		c.fallos.Add(1)
		o.Log.Warn().Err(err).Msg("clase: falló el almacén de los revisores; las calificaciones en curso no cuentan y se repiten")
	})
	escucha := o.Escucha
	mj, err := montaje.Nuevo(montaje.Opciones{
		Revisores: o.Revisores, Sellar: true, Log: o.Log, EsperaApagado: o.EsperaApagado,
		Revisor: func(montaje.Direcciones) revisor.Opciones {
			return revisor.Opciones{Log: o.Log, Almacen: servicios, Credenciales: revisor.EnClase}
		},
		Pasarela: &montaje.Pasarela{Nombre: "la pasarela de la clase", Escucha: &escucha, Log: o.Log, Token: o.Token,
			Guion: func(r *http.Request, cuerpo []byte) pasarela.Paso { return examen.GuionDe(r, cuerpo, c.buscar) },
			Pase:  c.vigente, Rechazo: DetalleRechazo,
			// The class lab forwards no proxy settings of whoever started it.
			Transporte: pasarela.TransportePorOmision(func(string) (string, bool) { return "", false })},
		// Judging a run ends its attempts still held (examen.Cancelable).
		Envolver: func(servicio string, h http.Handler) http.Handler {
			if servicio == "pasarela" {
				return examen.Cancelable(h)
			}
			return h
		},
	})
	if err != nil {
		return nil, err
	}
	c.mj = mj
	return c, nil
}

// DetalleRechazo is the class gateway's answer to what no live grading sent.
const DetalleRechazo = "esta pasarela es la de la clase: solo atiende lo que manda un cliente mientras «revisor comprobar cliente --clase» lo califica, por la pasarela que ese le da (PASARELA_URL); nada más llega a sus revisores"

// Pasarela is the class gateway's URL as it listens (an unspecified address stays so).
func (c *Clase) Pasarela() string { return c.mj.Pasarela }

// Servir stands the class lab's site (its board and API) up where o says, beside the gateway; it
// returns the address it listens on as a URL.
func (c *Clase) Servir(o servidor.Opciones, h http.Handler) (string, error) {
	u, err := c.mj.AgregarEn("la pizarra de la clase", o, h)
	if err != nil {
		return "", err
	}
	c.mu.Lock()
	for _, a := range servidor.Alcanzables(strings.TrimPrefix(u, "http://")) {
		c.alcanzables = append(c.alcanzables, "http://"+a)
	}
	c.mu.Unlock()
	return u, nil
}

// direcciones are the site's URLs as the students' machines reach it; none before Servir.
func (c *Clase) direcciones() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.alcanzables)
}

// Esperar serves until ctx ends or a server fails, then closes everything.
func (c *Clase) Esperar(ctx context.Context) error {
	err := c.mj.Esperar(ctx)
	c.Cerrar()
	return err
}

// Cerrar stops the gateway, the revisors and the site, and a prediction's run in progress.
func (c *Clase) Cerrar() {
	c.p.pmu.Lock()
	if p := c.p.pred; p != nil && p.cancelar != nil {
		p.cancelar()
	}
	c.p.pmu.Unlock()
	c.mj.Cerrar()
}

// vigente is the door's question (pkg/montaje): does pase open a grading in progress now, and
// whose team is it. A run being judged, replaced or forgotten opens nothing.
func (c *Clase) vigente(pase string) (string, bool) {
	c.mu.Lock()
	cr := c.porPase[pase]
	c.mu.Unlock()
	if cr == nil || cr.Cerrada() {
		return "", false
	}
	return cr.equipo, true
}

// buscar is the run a registration belongs to: the one its connection's pase opens.
func (c *Clase) buscar(r *http.Request) *examen.Corrida {
	c.mu.Lock()
	defer c.mu.Unlock()
	cr := c.porPase[montaje.PaseDe(r.Context())]
	if cr == nil {
		return nil
	}
	return cr.Corrida
}

// Sitio is the class lab's site: the graders' and the instructor's routes, and the board
// (tablero) for everything else. Every answer says it is the class lab's (examen.CabeceraClase),
// so a grader given another URL says so at once.
func (c *Clase) Sitio(tablero http.Handler) http.Handler {
	mux := http.NewServeMux()
	c.Rutas(mux)
	mux.Handle("/", tablero)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set(examen.CabeceraClase, "1")
		mux.ServeHTTP(w, r)
	})
}
