package limitador

import "time"

// VentanaFija is the course's limiter: a window opens with the first request after the previous
// one expired and counts up to the quota. It is easy to reason about, and at a boundary it can let
// 2·cuota−1 requests through in very little time (fig04_02 shows 5 of 3 in about 66 ms).
type VentanaFija struct {
	cuota   int
	ventana time.Duration
	almacen almacen[ventanaAbierta]
}

type ventanaAbierta struct {
	inicio time.Time
	usos   int
}

// NuevaVentanaFija allows cuota requests per window of length ventana. It panics if cuota < 1 or
// ventana <= 0; use Nuevo for values that come from outside.
func NuevaVentanaFija(cuota int, ventana time.Duration) *VentanaFija {
	debeValer(cuota, ventana)
	vencida := func(v *ventanaAbierta, ahora time.Time) bool { return ahora.Sub(v.inicio) >= ventana }
	return &VentanaFija{cuota: cuota, ventana: ventana, almacen: nuevoAlmacen(ventana, vencida)}
}

// Politica implements Limitador.
func (l *VentanaFija) Politica() Politica {
	return Politica{Nombre: AlgoritmoVentana, Cuota: l.cuota, Ventana: l.ventana}
}

// Permitir implements Limitador.
func (l *VentanaFija) Permitir(clave string, ahora time.Time) Veredicto {
	l.almacen.mu.Lock()
	defer l.almacen.mu.Unlock()
	v := l.almacen.tomar(clave, ahora)
	nueva, veredicto := l.decidir(v, ahora)
	if nueva != v {
		l.almacen.guardar(clave, nueva)
	}
	return veredicto
}

// decidir counts one request in the key's open window v (nil: none) and returns the window to keep.
func (l *VentanaFija) decidir(v *ventanaAbierta, ahora time.Time) (*ventanaAbierta, Veredicto) {
	if v == nil {
		return &ventanaAbierta{inicio: ahora, usos: 1}, Veredicto{Permitido: true, Restantes: l.cuota - 1, Reinicio: l.ventana}
	}
	// A caller whose clock reading lost the race for the mutex may arrive slightly "before" the
	// window; it belongs to that window, and the wait must not exceed a whole window.
	ahora = posterior(ahora, v.inicio)
	falta := v.inicio.Add(l.ventana).Sub(ahora)
	if v.usos < l.cuota {
		v.usos++
		return v, Veredicto{Permitido: true, Restantes: l.cuota - v.usos, Reinicio: falta}
	}
	return v, rechazo(falta)
}

// Decidir implements Compartible; the state is the window's start and its uses.
func (l *VentanaFija) Decidir(estado []int64, ahora time.Time) (Veredicto, []int64, time.Time) {
	var v *ventanaAbierta
	if len(estado) == 2 {
		v = &ventanaAbierta{inicio: instante(estado[0]), usos: int(estado[1])}
		if l.almacen.vencido(v, ahora) {
			v = nil
		}
	}
	v, veredicto := l.decidir(v, ahora)
	return veredicto, []int64{v.inicio.UnixNano(), int64(v.usos)}, v.inicio.Add(l.ventana)
}

func posterior(a, b time.Time) time.Time {
	if a.Before(b) {
		return b
	}
	return a
}
