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
// (q.Devolver), lose it (q.Perder), delay, cut or reset it; it returns what it made of the
// request (Desenlace), from which the gateway alone writes the request's record. Each mode is a
// value of its own, in a file of its own; LeerFalla is the one place that knows their names (no
// registry filled at init).
type Falla interface {
	Aplicar(q *Peticion) Desenlace
	// String is the mode as X-Simular and --simular write it: «perder:2», «lento:1500».
	String() string
}

// ErrFalla is the error of a mode nobody knows.
var ErrFalla = errors.New("modo de falla desconocido")

// Modo is one fault mode with everything said of it, so adding a mode is one entry of Modos (and
// the file with its Falla): LeerFalla reads its name and range here, --help prints its Ayuda, and
// pkg/fallas, the leaf the shells' completion and the panel's list read, is generated from the
// table (go generate ./pkg/pasarela; TestFallasEsLaTablaDeModos fails when it is stale).
type Modo struct {
	// Nombre is the mode as X-Simular writes it, without its number: «perder-primera», «lento».
	Nombre string
	// Desde and Hasta bound N for a mode written Nombre:N; both 0 for a mode without a number.
	Desde, Hasta int
	// Alias is another name --simular also takes for the mode (X-Simular takes only Nombre).
	Alias string
	// Forma is how --help writes the mode: «perder-primera», «codigo:NNN».
	Forma string
	// Ejemplo is a value a shell offers that works as written: «perder:2», «lento:1500».
	Ejemplo string
	// Linea is the mode in one line, with where the course has it: the completion's and the
	// panel's description.
	Linea string
	// Ayuda is what --help says of it, line by line: what the client sees and whether the revisor
	// did the work.
	Ayuda []string
	// Hacer builds the mode's Falla (n is 0 for a mode without a number).
	Hacer func(n int) Falla
}

// Modos are the gateway's fault modes, in the order --help and the shells list them. A fresh table
// on each call, so nobody can change another's.
func Modos() []Modo {
	return []Modo{
		{Nombre: "perder-primera", Forma: "perder-primera", Ejemplo: "perder-primera",
			Linea: "lección 6, §6.5: el revisor lo hace y el cliente recibe 502 la primera vez (el modo del curso)",
			Ayuda: []string{"el revisor lo hace; la primera vez que llega la misma petición (la misma",
				"Idempotency-Key o, sin llave, el mismo cuerpo) el cliente recibe 502 «no",
				"recibió una respuesta completa»; las siguientes pasan (el modo del curso)"},
			Hacer: func(int) Falla { return perderPrimera{} }},
		{Nombre: "perder", Desde: 1, Hasta: 1_000_000, Forma: "perder:N", Ejemplo: "perder:2",
			Linea: "fuera del curso: como perder-primera, las primeras N veces (perder:N)",
			Ayuda: []string{"igual, las primeras N veces"},
			Hacer: func(n int) Falla { return perderVeces(n) }},
		{Nombre: "perder-siempre", Alias: "perder", Forma: "perder-siempre", Ejemplo: "perder-siempre",
			Linea: "fuera del curso: el revisor lo hace y el cliente recibe siempre 502",
			Ayuda: []string{"el revisor lo hace; el cliente recibe siempre ese 502 (en --simular",
				"también «perder» a secas)"},
			Hacer: func(int) Falla { return perderSiempre{} }},
		{Nombre: "rechazar", Forma: "rechazar", Ejemplo: "rechazar",
			Linea: "fuera del curso: el revisor no la ve; el cliente recibe 502, como con el revisor apagado",
			Ayuda: []string{"el revisor no la ve; el cliente recibe 502 «no recibió respuesta del",
				"revisor», el mismo que cuando el revisor está apagado"},
			Hacer: func(int) Falla { return rechazar{} }},
		{Nombre: "codigo", Desde: 200, Hasta: 599, Forma: "codigo:NNN", Ejemplo: "codigo:503",
			Linea: "fuera del curso: el revisor no la ve; el cliente recibe ese código de la pasarela (codigo:NNN)",
			Ayuda: []string{"el revisor no la ve; el cliente recibe NNN (200-599) de la pasarela: desde",
				"400 con Problem Details, por debajo sin cuerpo"},
			Hacer: func(n int) Falla { return codigo(n) }},
		{Nombre: "cortar", Forma: "cortar", Ejemplo: "cortar",
			Linea: "fuera del curso: el revisor lo hace; la respuesta llega cortada a la mitad",
			Ayuda: []string{"el revisor lo hace; el cliente recibe la línea de estado, las cabeceras y",
				"la mitad del cuerpo, y la conexión se cierra (sin cuerpo: sin responder)"},
			Hacer: func(int) Falla { return cortar{} }},
		{Nombre: "reiniciar", Forma: "reiniciar", Ejemplo: "reiniciar",
			Linea: "fuera del curso: el revisor lo hace; la conexión se reinicia (ECONNRESET)",
			Ayuda: []string{"el revisor lo hace; el cliente no recibe respuesta: la conexión se",
				"reinicia (RST, ECONNRESET)"},
			Hacer: func(int) Falla { return reiniciar{} }},
		{Nombre: "lento", Desde: 1, Hasta: topes.Lento, Forma: "lento:MS", Ejemplo: "lento:1500",
			Linea: "fuera del curso: el revisor lo hace; la respuesta llega MS ms después (lento:MS)",
			Ayuda: []string{"el revisor lo hace; el cliente recibe la respuesta MS ms después (1-" + strconv.Itoa(topes.Lento) + ")"},
			Hacer: func(n int) Falla { return lento(n) }},
	}
}

// buscarModo finds the mode named so: the one without a number (by its name or alias) and the one
// with a number, either of which may be missing.
func buscarModo(nombre string) (sin, con *Modo) {
	ms := Modos()
	for i := range ms {
		m := &ms[i]
		switch {
		case m.Hasta > 0 && m.Nombre == nombre:
			con = m
		case m.Hasta == 0 && (m.Nombre == nombre || (m.Alias != "" && m.Alias == nombre)):
			sin = m
		}
	}
	return sin, con
}

// LeerFalla reads a mode as X-Simular and --simular name it.
func LeerFalla(texto string) (Falla, error) {
	nombre, arg, conArg := strings.Cut(texto, ":")
	sin, con := buscarModo(nombre)
	if !conArg {
		if sin != nil {
			return sin.Hacer(0), nil
		}
		if con != nil {
			return nil, fmt.Errorf("«%s»: %s lleva un número de %d a %d (%s:N)", texto, nombre, con.Desde, con.Hasta, nombre)
		}
		return nil, fmt.Errorf("«%s»: %w (pasarela --help los lista)", texto, ErrFalla)
	}
	if con == nil {
		if sin != nil {
			return nil, fmt.Errorf("«%s»: %s no lleva «:»", texto, nombre)
		}
		return nil, fmt.Errorf("«%s»: %w (pasarela --help los lista)", texto, ErrFalla)
	}
	n, err := strconv.Atoi(arg)
	if err != nil || n < con.Desde || n > con.Hasta || arg != strconv.Itoa(n) {
		return nil, fmt.Errorf("«%s»: %s lleva un número de %d a %d (%s:N)", texto, nombre, con.Desde, con.Hasta, nombre)
	}
	return con.Hacer(n), nil
}

// elegir is the fault for r: the one X-Simular names, else the process-wide one when its draw says
// so, else none. X-Simular must name a mode exactly as pasarela --help writes it: anything else,
// «perder» for perder-siempre included, is ignored in silence, as the course's gateway ignores any
// value but «perder-primera», so a student who abbreviates the course's mode gets the request
// through, as in the course, instead of losing every answer.
func (p *Pasarela) elegir(r *http.Request, cuerpo []byte) Paso {
	if p.guion != nil {
		return p.guion(r, cuerpo)
	}
	if v := r.Header["X-Simular"]; len(v) > 0 {
		// Repeated fields read as one list, which names no mode.
		texto := strings.Join(v, ", ")
		if f, err := LeerFalla(texto); err == nil && f.String() == texto {
			return Paso{Falla: f}
		}
	}
	if g := p.global.Load(); g != nil {
		return Paso{Falla: g.sortear()}
	}
	return Paso{}
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

// AyudaModos is what pasarela --help says of the modes, built from Modos: for each, what the
// client sees and whether the revisor did the work.
func AyudaModos() string {
	var b strings.Builder
	b.WriteString(`Con «X-Simular: MODO» una petición sufre una falla de la red; con --simular MODO@PROB la
sufre, con esa probabilidad, cada petición sin X-Simular (--semilla N repite el mismo sorteo:
pierde las mismas peticiones en cada corrida). Los modos, qué ve el cliente y si el revisor
hizo el trabajo:

`)
	for _, m := range Modos() {
		for i, linea := range m.Ayuda {
			if i == 0 {
				fmt.Fprintf(&b, "  %-14s  %s\n", m.Forma, linea)
			} else {
				b.WriteString(strings.Repeat(" ", 18) + linea + "\n")
			}
		}
	}
	b.WriteString(`
Otro valor de X-Simular, también «perder» a secas, se ignora, como en el curso. Si el revisor
no responde, la pasarela contesta 502 «no recibió respuesta del revisor».`)
	return b.String()
}

// LineaDeSimulacion is the line that says, at start-up or when it changes, which process-wide fault
// is in force and with which seed: «pasarela: --simular perder-siempre@0.3 --semilla 7 (las
// peticiones sin X-Simular)».
func LineaDeSimulacion(s *Simulacion) string {
	if s == nil {
		return "pasarela: sin --simular: solo fallan las peticiones con X-Simular"
	}
	return "pasarela: --simular " + s.String() + " --semilla " + strconv.FormatUint(s.Semilla, 10) + " (las peticiones sin X-Simular)"
}
