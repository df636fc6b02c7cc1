package examen

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	"cursohttp/pkg/pasarela"
	"cursohttp/pkg/problema"
	"cursohttp/pkg/topes"
)

// Intento is one attempt as the gateway saw it: the gateway's own record of the request
// (pasarela.Asiento), as it handed it over; the grader writes nothing of it.
type Intento = pasarela.Asiento

// Intencion is one run of the client: one registration, one name.
type Intencion struct {
	Escenario *Escenario
	Nombre    string
	URL       string
	Vez       int  // which of its scenario's intents, from 1
	Repite    bool // it registers again what an earlier intent of its scenario did (MismoCuerpo)
	corriendo atomic.Bool

	mu        sync.Mutex
	Intentos  []Intento
	empezados int // attempts taken so far, each with its slot in Intentos

	Inicio, Fin time.Time
	Salida      int    // the client's exit code, when it exited by itself
	Detenido    bool   // it did not end within the limit and was stopped
	Registrada  bool   // the revisor holds a service with this name
	Arranque    string // why the client could not be started; "" when it ran
	Texto       []byte
	Sobrantes   int // attempts past the run's TopeIntentos: answered 429, counted, not written down
}

// tomar takes one more attempt and returns its index, the slot its record fills when the gateway
// hands it over (guardar); past tope (0: none) it only counts it and says so with -1.
func (in *Intencion) tomar(tope int) int {
	in.mu.Lock()
	defer in.mu.Unlock()
	if tope > 0 && in.empezados >= tope {
		in.Sobrantes++
		return -1
	}
	in.empezados++
	in.Intentos = append(in.Intentos, Intento{})
	return len(in.Intentos) - 1
}

// guardar keeps the gateway's record of attempt n.
func (in *Intencion) guardar(n int, a Intento) {
	in.mu.Lock()
	in.Intentos[n] = a
	in.mu.Unlock()
}

// detalleSobrantes answers an attempt past a run's TopeIntentos.
const detalleSobrantes = "esta alta ya tiene demasiados intentos en esta calificación: no se anotan más"

// Empezar marks the intent's client as running from now: a request whose body two intents share
// (MismoCuerpo) is the running one's.
func (in *Intencion) Empezar() {
	in.mu.Lock()
	in.Inicio = time.Now()
	in.mu.Unlock()
	in.corriendo.Store(true)
}

// Tiempos are when the intent's client started and ended (zero: not yet).
func (in *Intencion) Tiempos() (inicio, fin time.Time) {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.Inicio, in.Fin
}

// Terminar writes down how the intent's client ended.
func (in *Intencion) Terminar(r Resultado) {
	in.corriendo.Store(false)
	in.mu.Lock()
	defer in.mu.Unlock()
	in.Fin = time.Now()
	in.Salida, in.Detenido, in.Arranque, in.Texto = r.Salida, r.Detenido, r.Arranque, r.Texto
}

// Corrida is one grading run: its intents, what the gateway saw of each, and their judgement. The
// local grader (Correr) has one; a class lab holds one per student grading at a time.
type Corrida struct {
	Semilla uint64
	Limite  time.Duration
	// TopeIntentos bounds the attempts written down per intent (a class lab's memory); past it the
	// gateway answers 429 and only counts them. 0: no bound.
	TopeIntentos int
	porNombre    map[string][]*Intencion // two when a scenario repeats a body
	Intenciones  []*Intencion
	grupos       [][]*Intencion // in start order: each scenario's intents, run one after another

	// secreto is the run's own: its intents' URLs carry it (?calificacion=), so a request of
	// another run is told apart; the clients' processes carry it in VariableCorrida.
	secreto string
	ajenas  atomic.Int64 // requests of another run (or nobody's), refused and not judged

	mu       sync.Mutex
	fallo    string                   // the first fault of the lab's own during the run; "" none
	cerrada  bool                     // judged: no attempt is written down any more
	enCurso  sync.WaitGroup           // attempts the gateway is still handling
	cancelar map[*http.Request]func() // how to end each of them when the run is judged
}

// NuevaCorrida draws a run's intents from escenarios (nil: Escenarios(semilla)) and the seed.
func NuevaCorrida(semilla uint64, escenarios []Escenario, limite time.Duration) *Corrida {
	if escenarios == nil {
		escenarios = Escenarios(semilla)
	}
	if limite <= 0 {
		limite = topes.LimiteCliente
	}
	c := &Corrida{Semilla: semilla, Limite: limite, porNombre: map[string][]*Intencion{},
		secreto: strings.ReplaceAll(uuid.NewString(), "-", "")[:16], cancelar: map[*http.Request]func(){}}
	gen := rand.New(rand.NewPCG(semilla, semilla^0x2545f4914f6cdd1d))
	marca := strconv.FormatUint(gen.Uint64()%(1<<24)+(1<<24), 16)[1:]
	porEscenario := map[*Escenario][]*Intencion{}
	for i := range escenarios {
		e := &escenarios[i]
		for v := range e.veces() {
			nombre := e.ID + "-" + marca
			if e.veces() > 1 && !e.MismoCuerpo {
				nombre = e.ID + "-" + strconv.Itoa(v+1) + "-" + marca
			}
			in := &Intencion{Escenario: e, Nombre: nombre, URL: e.url(c.secreto), Vez: v + 1, Repite: e.MismoCuerpo && v > 0}
			if in.Repite {
				in.URL = c.porNombre[nombre][0].URL
			}
			c.porNombre[nombre] = append(c.porNombre[nombre], in)
			c.Intenciones = append(c.Intenciones, in)
			porEscenario[e] = append(porEscenario[e], in)
		}
	}
	for _, i := range ordenDeSalida(escenarios) {
		c.grupos = append(c.grupos, porEscenario[&escenarios[i]])
	}
	return c
}

// Grupos are the run's intents in the order they start: the intents of one group run one after
// another, the groups side by side.
func (c *Corrida) Grupos() [][]*Intencion { return c.grupos }

// intencion is the run's intent a request's body names, by its name and its URL (which carries the
// run's secret); nil when it is another run's, or nobody's.
func (c *Corrida) intencion(cuerpo []byte) *Intencion {
	var datos struct {
		Nombre string `json:"nombre"`
		URL    string `json:"url"`
	}
	json.Unmarshal(cuerpo, &datos) //nolint:errcheck // a body without a name is nobody's
	l := c.porNombre[datos.Nombre]
	if len(l) == 0 || datos.URL != l[0].URL {
		return nil
	}
	// Intents with one body run one after another: the request is the running one's.
	for _, in := range l {
		if in.corriendo.Load() {
			return in
		}
	}
	return l[len(l)-1]
}

// detalleAjena is the refusal of a request that is not this run's: one grading never judges another's.
const detalleAjena = "esta petición no es de esta calificación: su nombre o su URL no son los que dio a este cliente"

// Guion is the gateway's script for this run alone: every POST /servicios is measured as an
// attempt of the intent its body names; anything else passes untouched (X-Simular is ignored).
func (c *Corrida) Guion(r *http.Request, cuerpo []byte) pasarela.Paso {
	return GuionDe(r, cuerpo, func(*http.Request) *Corrida { return c })
}

// GuionDe is a gateway's script for any number of runs: buscar finds the run a registration
// belongs to (a class lab: by the pase of its connection, pkg/montaje; nil: nobody's, refused). A
// registration of one of the run's intents gets the fault its scenario scripts for that attempt,
// and its record, the gateway's, is kept as the attempt; one that is not the run's (another
// grading's client, another body, a run already judged) is refused and counted, never judged.
func GuionDe(r *http.Request, cuerpo []byte, buscar func(r *http.Request) *Corrida) pasarela.Paso {
	if r.Method != http.MethodPost || r.URL.Path != "/servicios" {
		return pasarela.Paso{}
	}
	c := buscar(r)
	var in *Intencion
	if c != nil {
		in = c.intencion(cuerpo)
	}
	var fin func()
	if in != nil {
		var ok bool
		if fin, ok = c.empezarIntento(r); !ok {
			in = nil
		}
	}
	if in == nil {
		if c != nil {
			c.ajenas.Add(1)
		}
		return pasarela.Paso{Falla: pasarela.Responder{Clave: problema.PermisoInsuficiente, Detail: detalleAjena}}
	}
	n := in.tomar(c.TopeIntentos)
	if n < 0 {
		fin()
		return pasarela.Paso{Falla: pasarela.Responder{Clave: problema.AltasEnCurso, Detail: detalleSobrantes}}
	}
	return pasarela.Paso{Falla: in.Escenario.falla(n), Anotar: func(a pasarela.Asiento) {
		// The revisor itself failing (no answer to what reached it, or a 5xx of its own) is the
		// lab's fault, never the client's: a class lab throws such a grading away.
		switch {
		case a.Llego && a.Revisor == 0:
			c.FalloDelLaboratorio("el revisor de la clase no respondió a un intento")
		case a.Revisor >= 500:
			c.FalloDelLaboratorio("el revisor de la clase respondió " + strconv.Itoa(a.Revisor) + " a un intento")
		}
		in.guardar(n, a)
		fin()
	}}
}

// empezarIntento counts an attempt in flight, unless the run was judged; fin ends it.
func (c *Corrida) empezarIntento(r *http.Request) (fin func(), ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cerrada {
		return nil, false
	}
	c.enCurso.Add(1)
	if cancelar, _ := r.Context().Value(claveCancelar{}).(func()); cancelar != nil {
		c.cancelar[r] = cancelar
	}
	return func() {
		c.mu.Lock()
		delete(c.cancelar, r)
		c.mu.Unlock()
		c.enCurso.Done()
	}, true
}

// claveCancelar is the context key of the function that ends one request the gateway handles
// (Cancelable puts it there), so that judging a run ends its attempts still held (a stalled
// answer whose client is gone).
type claveCancelar struct{}

// Cancelable gives every request a context a run can end when it is judged.
func Cancelable(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancelar := context.WithCancel(r.Context())
		defer cancelar()
		h.ServeHTTP(w, r.WithContext(context.WithValue(ctx, claveCancelar{}, cancelar)))
	})
}

// FalloDelLaboratorio notes a fault of the lab's own during the run (its store, its revisor); the
// first one is kept.
func (c *Corrida) FalloDelLaboratorio(motivo string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.fallo == "" && !c.cerrada {
		c.fallo = motivo
	}
}

// Fallo is the first fault of the lab's own the run met; "" when none.
func (c *Corrida) Fallo() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.fallo
}

// Cerrada says whether the run is being judged or was: its connections bind to nothing any more.
func (c *Corrida) Cerrada() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cerrada
}

// Cerrar ends the run's attempts still in flight (their clients are done) and waits until every
// one is written down; after it no attempt is taken.
func (c *Corrida) Cerrar() {
	c.mu.Lock()
	c.cerrada = true
	for _, cancelar := range c.cancelar {
		cancelar()
	}
	c.mu.Unlock()
	c.enCurso.Wait()
}

// Juzgar judges the run from what was written down; registrada says whether the revisor holds a
// service of that name (the run's team's). Call Cerrar first.
func (c *Corrida) Juzgar(registrada func(nombre string) bool) *Informe {
	for nombre, l := range c.porNombre {
		// A repeated body's service is its first intent's: the second one's right end is a 409.
		l[0].Registrada = registrada(nombre)
	}
	inf := &Informe{Semilla: c.Semilla, Limite: c.Limite, Intenciones: c.Intenciones}
	inf.Comprobaciones = juzgar(inf.Intenciones, c.Limite)
	inf.Ajenas = int(c.ajenas.Load())
	inf.Avisos = avisos(inf.Intenciones, inf.Ajenas)
	return inf
}
