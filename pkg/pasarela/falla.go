package pasarela

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"cursohttp/pkg/topes"
)

// Falla is one way the network between a client and the revisor fails, applied to one request:
// Shopify/toxiproxy's toxics at the HTTP level. Aplicar decides what becomes of the request: it
// may send it on (q.Reenviar) or answer in the revisor's place, and then hand the answer over
// (q.Devolver), lose it (q.Perder), delay, cut or reset it. Each mode is a value of its own, in
// a file of its own; LeerFalla is the one place that knows their names (no registry filled at init).
type Falla interface {
	Aplicar(q *Peticion)
	// String is the mode as X-Simular and --simular write it: «perder:2», «lento:1500».
	String() string
}

// ErrFalla is the error of a mode nobody knows.
var ErrFalla = errors.New("modo de falla desconocido")

// sinArgumento and conNumero are the modes' names: the only place that knows them.
var sinArgumento = map[string]Falla{
	"perder-primera": perderPrimera{}, "perder-siempre": perderSiempre{}, "perder": perderSiempre{},
	"rechazar": rechazar{}, "cortar": cortar{}, "reiniciar": reiniciar{},
}
var conNumero = map[string]struct {
	desde, hasta int
	hacer        func(int) Falla
}{
	"perder": {1, 1_000_000, func(n int) Falla { return perderVeces(n) }},
	"lento":  {1, topes.Lento, func(n int) Falla { return lento(n) }},
	"codigo": {200, 599, func(n int) Falla { return codigo(n) }},
}

// LeerFalla reads a mode as X-Simular and --simular name it.
func LeerFalla(texto string) (Falla, error) {
	nombre, arg, conArg := strings.Cut(texto, ":")
	if !conArg {
		if f, ok := sinArgumento[nombre]; ok {
			return f, nil
		}
		if c, ok := conNumero[nombre]; ok {
			return nil, fmt.Errorf("«%s»: %s lleva un número de %d a %d (%s:N)", texto, nombre, c.desde, c.hasta, nombre)
		}
		return nil, fmt.Errorf("«%s»: %w (pasarela --help los lista)", texto, ErrFalla)
	}
	c, ok := conNumero[nombre]
	if !ok {
		if _, ok := sinArgumento[nombre]; ok {
			return nil, fmt.Errorf("«%s»: %s no lleva «:»", texto, nombre)
		}
		return nil, fmt.Errorf("«%s»: %w (pasarela --help los lista)", texto, ErrFalla)
	}
	n, err := strconv.Atoi(arg)
	if err != nil || n < c.desde || n > c.hasta || arg != strconv.Itoa(n) {
		return nil, fmt.Errorf("«%s»: %s lleva un número de %d a %d (%s:N)", texto, nombre, c.desde, c.hasta, nombre)
	}
	return c.hacer(n), nil
}

// elegir is the fault for r: the one X-Simular names, else the process-wide one when its draw says
// so, else none. X-Simular must name a mode exactly as pasarela --help writes it: anything else,
// «perder» for perder-siempre included, is ignored in silence, as the course's gateway ignores any
// value but «perder-primera», so a student who abbreviates the course's mode gets the request
// through, as in the course, instead of losing every answer.
func (p *Pasarela) elegir(r *http.Request) Falla {
	if p.guion != nil {
		return p.guion(r)
	}
	if v := r.Header["X-Simular"]; len(v) > 0 {
		// Repeated fields read as one list, which names no mode.
		texto := strings.Join(v, ", ")
		if f, err := LeerFalla(texto); err == nil && f.String() == texto {
			return f
		}
	}
	if g := p.global.Load(); g != nil {
		return g.sortear()
	}
	return nil
}

// Simulacion is a process-wide fault: every request without X-Simular gets Falla with probability
// Prob, drawn from a generator seeded with Semilla, so the same seed loses the same requests (the
// first, the fourth…) on every run that sends them in the same order.
type Simulacion struct {
	Falla   Falla
	Prob    float64
	Semilla uint64

	mu  sync.Mutex
	gen *rand.Rand
}

// LeerSimulacion reads --simular's MODO[@PROB]: «perder@0.3», «lento:800@0.5», «rechazar».
func LeerSimulacion(texto string, semilla uint64) (*Simulacion, error) {
	modo, prob, conProb := strings.Cut(texto, "@")
	f, err := LeerFalla(modo)
	if err != nil {
		return nil, err
	}
	p := 1.0
	if conProb {
		p, err = strconv.ParseFloat(prob, 64)
		if err != nil || !(p > 0 && p <= 1) {
			return nil, fmt.Errorf("«%s»: la probabilidad tras «@» va de 0 a 1 (0.3 es el 30 %%)", texto)
		}
	}
	return &Simulacion{Falla: f, Prob: p, Semilla: semilla, gen: rand.New(rand.NewPCG(semilla, semilla^0x9e3779b97f4a7c15))}, nil
}

// String is the simulation as --simular writes it.
func (s *Simulacion) String() string {
	if s.Prob == 1 {
		return s.Falla.String()
	}
	return s.Falla.String() + "@" + strconv.FormatFloat(s.Prob, 'f', -1, 64)
}

// sortear draws for one request. Every request draws, in arrival order, even with Prob 1, so the
// sequence depends only on the seed and the order of requests.
func (s *Simulacion) sortear() Falla {
	s.mu.Lock()
	x := s.gen.Float64()
	s.mu.Unlock()
	if x < s.Prob {
		return s.Falla
	}
	return nil
}

// globalActual holds the process-wide simulation; nil when there is none.
type globalActual = atomic.Pointer[Simulacion]

// Simular sets the process-wide fault (nil: none), as --simular does at start and the panel's
// control does live.
func (p *Pasarela) Simular(s *Simulacion) { p.global.Store(s) }

// Simulando is the process-wide fault in force, or nil.
func (p *Pasarela) Simulando() *Simulacion { return p.global.Load() }

// AyudaModos is what pasarela --help says of the modes: for each, what the client sees and whether
// the revisor did the work. A test checks that it names every mode LeerFalla knows.
const AyudaModos = `Con «X-Simular: MODO» una petición sufre una falla de la red; con --simular MODO@PROB la
sufre, con esa probabilidad, cada petición sin X-Simular (--semilla N repite el mismo sorteo:
pierde las mismas peticiones en cada corrida). Los modos, qué ve el cliente y si el revisor
hizo el trabajo:

  perder-primera  el revisor lo hace; la primera vez que llega la misma petición (la misma
                  Idempotency-Key o, sin llave, el mismo cuerpo) el cliente recibe 502 «no
                  recibió una respuesta completa»; las siguientes pasan (el modo del curso)
  perder:N        igual, las primeras N veces
  perder-siempre  el revisor lo hace; el cliente recibe siempre ese 502 (en --simular
                  también «perder» a secas)
  rechazar        el revisor no la ve; el cliente recibe 502 «no recibió respuesta del
                  revisor», el mismo que cuando el revisor está apagado
  codigo:NNN      el revisor no la ve; el cliente recibe NNN (200-599) de la pasarela: desde
                  400 con Problem Details, por debajo sin cuerpo
  cortar          el revisor lo hace; el cliente recibe la línea de estado, las cabeceras y
                  la mitad del cuerpo, y la conexión se cierra (sin cuerpo: sin responder)
  reiniciar       el revisor lo hace; el cliente no recibe respuesta: la conexión se
                  reinicia (RST, ECONNRESET)
  lento:MS        el revisor lo hace; el cliente recibe la respuesta MS ms después (1-99999)

Otro valor de X-Simular, también «perder» a secas, se ignora, como en el curso. Si el revisor
no responde, la pasarela contesta 502 «no recibió respuesta del revisor».`

// LineaDeSimulacion is the line that says, at start-up or when it changes, which process-wide fault
// is in force and with which seed: «pasarela: --simular perder-siempre@0.3 --semilla 7 (las
// peticiones sin X-Simular)».
func LineaDeSimulacion(s *Simulacion) string {
	if s == nil {
		return "pasarela: sin --simular: solo fallan las peticiones con X-Simular"
	}
	return "pasarela: --simular " + s.String() + " --semilla " + strconv.FormatUint(s.Semilla, 10) + " (las peticiones sin X-Simular)"
}
