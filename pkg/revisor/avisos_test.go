package revisor

import (
	"context"
	"sync"

	"cursohttp/pkg/almacen"
	"cursohttp/pkg/idempotencia"
)

// almacenAvisador is the test's store with a window on it: it tells the test when a request took a
// key, read a service or is about to create one, so the test sends its next request at that moment
// of the first (inside its save pause, between its If-Match and its body) instead of after a pause
// that a loaded machine may not honour. Each hook is called in the request's own goroutine, before
// (alCrear) or after (the others) the store's own step; a hook may block to hold that request there.
type almacenAvisador struct {
	almacen.Almacen
	mu                sync.Mutex
	alTomar           func(llave string, tipo idempotencia.Tipo)
	alBuscar, alCrear func(id int, nombre string)
}

// avisando is the ajuste that puts a in front of the entorno's store.
func avisando(a *almacenAvisador) ajuste {
	return func(o *Opciones) { a.Almacen, o.Almacen = o.Almacen, a }
}

func (a *almacenAvisador) ganchos() (func(string, idempotencia.Tipo), func(int, string), func(int, string)) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.alTomar, a.alBuscar, a.alCrear
}

// al sets the hooks under the lock (the server's goroutines read them).
func (a *almacenAvisador) al(f func(a *almacenAvisador)) {
	a.mu.Lock()
	defer a.mu.Unlock()
	f(a)
}

func (a *almacenAvisador) Tomar(ctx context.Context, credencial, llave, huella string) (idempotencia.Turno, error) {
	turno, err := a.Almacen.Tomar(ctx, credencial, llave, huella)
	if tomar, _, _ := a.ganchos(); tomar != nil && err == nil {
		tomar(llave, turno.Tipo)
	}
	return turno, err
}

func (a *almacenAvisador) Buscar(ctx context.Context, id int) (almacen.Servicio, bool, error) {
	s, vivo, err := a.Almacen.Buscar(ctx, id)
	if _, buscar, _ := a.ganchos(); buscar != nil && err == nil {
		buscar(id, s.Nombre)
	}
	return s, vivo, err
}

func (a *almacenAvisador) Crear(ctx context.Context, equipo string, d almacen.Datos, tope int, alta *almacen.Alta) (almacen.Servicio, error) {
	if _, _, crear := a.ganchos(); crear != nil {
		crear(0, d.Nombre)
	}
	return a.Almacen.Crear(ctx, equipo, d, tope, alta)
}
