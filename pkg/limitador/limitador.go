// Package limitador decides, per key and without knowing anything about HTTP, whether one more
// request fits in a quota of «cuota» per «ventana», and if not, how many seconds to wait.
package limitador

import (
	"fmt"
	"sync"
	"time"
)

// Veredicto is the answer to one request.
type Veredicto struct {
	Permitido bool
	// Restantes is the quota left after this request (the draft's r).
	Restantes int
	// Reinicio is the draft's t: during this time the key cannot get more than Restantes. For the
	// fixed window it is the time until the window resets; for the other two, the time until the next
	// unit of quota comes back. When refused it is exactly the time until a request fits again.
	Reinicio time.Duration
	// RetryAfter is Reinicio in whole seconds rounded up (at least 1), only when refused.
	RetryAfter int64
}

// Politica describes a limiter: Nombre is the algorithm ("ventana", "deslizante" or "cubeta"),
// and no window of length Ventana ever lets more than Cuota requests through, except for the
// fixed window, which is the course's and can let up to 2·Cuota−1 through at a boundary.
type Politica struct {
	Nombre  string
	Cuota   int
	Ventana time.Duration
	// Rafaga and Reposicion are the token bucket's (zero for the other two): how many requests a
	// quiet key can make at once, and how often one more comes back.
	Rafaga     int
	Reposicion time.Duration
}

// Limitador counts requests per key. Time is passed in, so decisions are reproducible.
// Implementations are safe for concurrent use.
type Limitador interface {
	Permitir(clave string, ahora time.Time) Veredicto
	Politica() Politica
}

// Compartible is a limiter whose state per key can be kept outside the process, where several
// servers count in the same windows (a shared database): Decidir is Permitir on the key's state as
// the previous decision left it (nil: none), and returns the state to keep and the instant from
// which that state is worth no more than none (it may then be dropped). The three limiters of this
// package are Compartible; a state is a few integers (nanoseconds since the epoch, counts).
type Compartible interface {
	Limitador
	Decidir(estado []int64, ahora time.Time) (v Veredicto, nuevo []int64, vence time.Time)
}

func instante(ns int64) time.Time { return time.Unix(0, ns) }

// Algorithm names accepted by Nuevo.
const (
	AlgoritmoVentana    = "ventana"
	AlgoritmoDeslizante = "deslizante"
	AlgoritmoCubeta     = "cubeta"
)

// Fabrica builds limiters of one algorithm, one per quota and window: a server that limits
// several things takes one Fabrica and builds each limiter with its own numbers. Like the
// constructors, it panics on a nonsense quota or window.
type Fabrica func(cuota int, ventana time.Duration) Limitador

// FabricaDe returns the constructor of an algorithm by name, for programs that take it as a flag.
func FabricaDe(algoritmo string) (Fabrica, error) {
	switch algoritmo {
	case AlgoritmoVentana:
		return func(c int, v time.Duration) Limitador { return NuevaVentanaFija(c, v) }, nil
	case AlgoritmoDeslizante:
		return func(c int, v time.Duration) Limitador { return NuevaVentanaDeslizante(c, v) }, nil
	case AlgoritmoCubeta:
		return func(c int, v time.Duration) Limitador { return NuevaCubeta(c, v) }, nil
	}
	return nil, fmt.Errorf("algoritmo desconocido «%s»: usa %s, %s o %s", algoritmo, AlgoritmoVentana, AlgoritmoDeslizante, AlgoritmoCubeta)
}

// Nuevo builds a limiter by algorithm name, for programs that take it as a flag.
func Nuevo(algoritmo string, cuota int, ventana time.Duration) (Limitador, error) {
	if err := validar(cuota, ventana); err != nil {
		return nil, err
	}
	f, err := FabricaDe(algoritmo)
	if err != nil {
		return nil, err
	}
	return f(cuota, ventana), nil
}

func validar(cuota int, ventana time.Duration) error {
	if cuota < 1 {
		return fmt.Errorf("la cuota debe ser 1 o más, no %d", cuota)
	}
	if ventana <= 0 {
		return fmt.Errorf("la ventana debe durar más que 0, no %s", ventana)
	}
	return nil
}

// debeValer is for the constructors: a nonsense quota or window is a programming error, as
// with time.NewTicker, and Nuevo is there for values that come from outside.
func debeValer(cuota int, ventana time.Duration) {
	if err := validar(cuota, ventana); err != nil {
		panic("limitador: " + err.Error())
	}
}

// segundosArriba rounds up to whole seconds, never below 1: a client told "0" would retry at once
// into the same refusal (the course says 1 when 0.3 s remain).
func segundosArriba(d time.Duration) int64 {
	s := int64(d / time.Second)
	if d%time.Second > 0 {
		s++ // without adding first: d may be near the largest Duration
	}
	return max(s, 1)
}

func rechazo(espera time.Duration) Veredicto {
	return Veredicto{Permitido: false, Restantes: 0, Reinicio: espera, RetryAfter: segundosArriba(espera)}
}

// almacen keeps one state per key behind a mutex. A state whose quota is fully back is worth the
// same as no state, so it is dropped: lazily when its key comes back, and for every key once per
// window in a sweep every window (at least every second), which rebuilds the map when most keys are gone
// because Go maps never give memory back. A stream of distinct keys therefore holds about two
// windows' worth of them, not all it ever saw.
type almacen[E any] struct {
	mu       sync.Mutex
	estados  map[string]*E
	cada     time.Duration
	barrido  time.Time
	iniciado bool
	vencido  func(e *E, ahora time.Time) bool
}

// barridoMinimo keeps tiny windows from turning every request into a sweep.
const barridoMinimo = time.Second

func nuevoAlmacen[E any](ventana time.Duration, vencido func(*E, time.Time) bool) almacen[E] {
	return almacen[E]{estados: map[string]*E{}, cada: max(ventana, barridoMinimo), vencido: vencido}
}

// tomar returns the live state of clave (nil if none) and sweeps when it is due. Call with mu held.
func (a *almacen[E]) tomar(clave string, ahora time.Time) *E {
	if !a.iniciado {
		a.barrido, a.iniciado = ahora, true
	} else if ahora.Sub(a.barrido) >= a.cada {
		a.barrer(ahora)
	}
	e := a.estados[clave]
	if e != nil && a.vencido(e, ahora) {
		delete(a.estados, clave)
		return nil
	}
	return e
}

func (a *almacen[E]) barrer(ahora time.Time) {
	a.barrido = ahora
	vivos := 0
	for _, e := range a.estados {
		if !a.vencido(e, ahora) {
			vivos++
		}
	}
	switch {
	case vivos == len(a.estados):
	case vivos < len(a.estados)/2:
		// Most are gone: a new map lets the old one's memory go.
		nuevo := make(map[string]*E, vivos)
		for clave, e := range a.estados {
			if !a.vencido(e, ahora) {
				nuevo[clave] = e
			}
		}
		a.estados = nuevo
	default:
		for clave, e := range a.estados {
			if a.vencido(e, ahora) {
				delete(a.estados, clave)
			}
		}
	}
}

func (a *almacen[E]) guardar(clave string, e *E) { a.estados[clave] = e }
