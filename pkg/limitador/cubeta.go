package limitador

import (
	"fmt"
	"time"
)

// Cubeta is a token bucket that never lets more than cuota requests through in any window of
// length ventana, which a careless bucket does not guarantee.
//
// Why the bucket cannot hold cuota tokens and also refill cuota per window: a full bucket of b
// tokens refilled at ρ per second lets b requests through at once and then ρ·L more within L
// seconds, so a window just under ventana can hold up to b + ρ·ventana − 1 (with b = cuota and
// ρ = cuota/ventana, that is 2·cuota − 1, the same double as the fixed window). Conversely, in
// any window of length L < ventana the bucket spends at most what it held (≤ b) plus what came
// in (≤ ρ·L < ρ·ventana); so if
//
//	b + ρ·ventana ≤ cuota + 1
//
// no window holds more than cuota. The course's bucket "allows a small burst but never double":
// Cubeta keeps that equation with a burst of b = rafaga tokens and a refill of cuota+1−rafaga
// tokens per ventana. A bigger burst means a slower steady rate: rafaga 1 gives cuota per
// ventana evenly spaced, rafaga = cuota gives the whole quota at once but then 1 per ventana.
// NuevaCubeta picks the middle, rafaga = ⌈cuota/2⌉ (for 3 per minute: 2 at once, then 1 every
// 30 s).
//
// It is kept as a theoretical arrival time (GCRA) in integer nanoseconds, so the bound above is
// exact, with no floating-point tokens: the interval between tokens is rounded up, which only
// makes the refill slower.
type Cubeta struct {
	cuota      int
	rafaga     int
	ventana    time.Duration
	intervalo  time.Duration // one token every intervalo
	tolerancia time.Duration // (rafaga−1)·intervalo: how far ahead of schedule a key may run
	almacen    almacen[llegada]
}

// llegada is the theoretical arrival time: when the bucket would be full again.
type llegada struct{ lleno time.Time }

// NuevaCubeta is a bucket with a burst of ⌈cuota/2⌉ and no more than cuota in any window of
// length ventana. It panics if cuota < 1 or ventana <= 0; use Nuevo for values from outside.
func NuevaCubeta(cuota int, ventana time.Duration) *Cubeta {
	return NuevaCubetaConRafaga(cuota, (cuota+1)/2, ventana)
}

// NuevaCubetaConRafaga chooses the burst: rafaga tokens at once, refilled at cuota+1−rafaga per
// ventana. It panics unless 1 ≤ rafaga ≤ cuota and ventana > 0.
func NuevaCubetaConRafaga(cuota, rafaga int, ventana time.Duration) *Cubeta {
	debeValer(cuota, ventana)
	if rafaga < 1 || rafaga > cuota {
		panic(fmt.Sprintf("limitador: la ráfaga debe estar entre 1 y la cuota (%d), no %d", cuota, rafaga))
	}
	porVentana := time.Duration(cuota + 1 - rafaga)
	intervalo := (ventana + porVentana - 1) / porVentana
	lleno := func(c *llegada, ahora time.Time) bool { return !c.lleno.After(ahora) }
	return &Cubeta{
		cuota: cuota, rafaga: rafaga, ventana: ventana,
		intervalo: intervalo, tolerancia: time.Duration(rafaga-1) * intervalo,
		almacen: nuevoAlmacen(ventana, lleno),
	}
}

// Politica implements Limitador.
func (l *Cubeta) Politica() Politica {
	return Politica{Nombre: AlgoritmoCubeta, Cuota: l.cuota, Ventana: l.ventana, Rafaga: l.rafaga, Reposicion: l.intervalo}
}

// Rafaga is how many requests a key that has been quiet can make at once.
func (l *Cubeta) Rafaga() int { return l.rafaga }

// Permitir implements Limitador.
func (l *Cubeta) Permitir(clave string, ahora time.Time) Veredicto {
	l.almacen.mu.Lock()
	defer l.almacen.mu.Unlock()
	c := l.almacen.tomar(clave, ahora)
	if c == nil {
		c = &llegada{lleno: ahora}
		l.almacen.guardar(clave, c)
	}
	return l.decidir(c, ahora)
}

// Decidir implements Compartible; the state is the instant the bucket is full again.
func (l *Cubeta) Decidir(estado []int64, ahora time.Time) (Veredicto, []int64, time.Time) {
	c := &llegada{lleno: ahora}
	if len(estado) == 1 {
		if guardada := (llegada{lleno: instante(estado[0])}); !l.almacen.vencido(&guardada, ahora) {
			c = &guardada
		}
	}
	v := l.decidir(c, ahora)
	return v, []int64{c.lleno.UnixNano()}, c.lleno
}

// decidir spends a token of c if there is one.
func (l *Cubeta) decidir(c *llegada, ahora time.Time) Veredicto {
	// An earlier clock reading only makes the key look further ahead of schedule: no clamp needed.
	debe := max(c.lleno.Sub(ahora), 0) // time owed before the bucket is full
	if debe > l.tolerancia {
		return rechazo(debe - l.tolerancia)
	}
	debe += l.intervalo
	c.lleno = ahora.Add(debe)
	// Missing tokens, rounded up; the next one comes back when the debt drops a whole interval.
	faltan := (debe + l.intervalo - 1) / l.intervalo
	proxima := debe - (faltan-1)*l.intervalo
	return Veredicto{Permitido: true, Restantes: l.rafaga - int(faltan), Reinicio: proxima}
}
