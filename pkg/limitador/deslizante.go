package limitador

import "time"

// VentanaDeslizante keeps the instant of each allowed request of the last window (a sliding log)
// and allows one more only if fewer than cuota remain in (ahora−ventana, ahora]. So no window of
// length ventana, wherever it starts, holds more than cuota allowed requests, and no request is
// refused that would fit: it is the most permissive limiter with that guarantee. It costs one
// instant per allowed request, at most cuota per key.
type VentanaDeslizante struct {
	cuota   int
	ventana time.Duration
	almacen almacen[registro]
}

// registro is a ring of the instants of allowed requests, oldest first. A stored registro always
// holds at least one: it is created for an allowed request, and a refusal needs a full ring.
type registro struct {
	marcas  []time.Time
	primero int
	n       int
}

func (r *registro) masAntigua() time.Time { return r.marcas[r.primero] }
func (r *registro) masReciente() time.Time {
	return r.marcas[(r.primero+r.n-1)%len(r.marcas)]
}

// NuevaVentanaDeslizante allows cuota requests in any window of length ventana. It panics if
// cuota < 1 or ventana <= 0; use Nuevo for values that come from outside.
func NuevaVentanaDeslizante(cuota int, ventana time.Duration) *VentanaDeslizante {
	debeValer(cuota, ventana)
	vencido := func(r *registro, ahora time.Time) bool { return ahora.Sub(r.masReciente()) >= ventana }
	return &VentanaDeslizante{cuota: cuota, ventana: ventana, almacen: nuevoAlmacen(ventana, vencido)}
}

// Politica implements Limitador.
func (l *VentanaDeslizante) Politica() Politica {
	return Politica{Nombre: AlgoritmoDeslizante, Cuota: l.cuota, Ventana: l.ventana}
}

// Permitir implements Limitador.
func (l *VentanaDeslizante) Permitir(clave string, ahora time.Time) Veredicto {
	l.almacen.mu.Lock()
	defer l.almacen.mu.Unlock()
	r := l.almacen.tomar(clave, ahora)
	if r == nil {
		r = &registro{marcas: make([]time.Time, l.cuota)}
		l.almacen.guardar(clave, r)
	}
	return l.decidir(r, ahora)
}

// Decidir implements Compartible; the state is the instants of the allowed requests still in the
// window, oldest first.
func (l *VentanaDeslizante) Decidir(estado []int64, ahora time.Time) (Veredicto, []int64, time.Time) {
	r := &registro{marcas: make([]time.Time, l.cuota)}
	for _, ns := range estado[:min(len(estado), l.cuota)] {
		r.marcas[r.n] = instante(ns)
		r.n++
	}
	if r.n > 0 && l.almacen.vencido(r, ahora) {
		r.n = 0
	}
	v := l.decidir(r, ahora)
	nuevo := make([]int64, r.n)
	for i := range r.n {
		nuevo[i] = r.marcas[(r.primero+i)%len(r.marcas)].UnixNano()
	}
	return v, nuevo, r.masReciente().Add(l.ventana)
}

// decidir records one request in r if it fits in the window.
func (l *VentanaDeslizante) decidir(r *registro, ahora time.Time) Veredicto {
	if r.n > 0 {
		// The log must stay in order: a reading that lost the race for the mutex counts as the
		// latest instant already recorded.
		ahora = posterior(ahora, r.masReciente())
	}
	for r.n > 0 && ahora.Sub(r.masAntigua()) >= l.ventana {
		r.primero = (r.primero + 1) % len(r.marcas)
		r.n--
	}
	if r.n == l.cuota {
		return rechazo(r.masAntigua().Add(l.ventana).Sub(ahora))
	}
	r.marcas[(r.primero+r.n)%len(r.marcas)] = ahora
	r.n++
	return Veredicto{Permitido: true, Restantes: l.cuota - r.n, Reinicio: r.masAntigua().Add(l.ventana).Sub(ahora)}
}
