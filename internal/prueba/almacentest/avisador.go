package almacentest

import (
	"context"
	"sync"

	"cursohttp/pkg/almacen"
	"cursohttp/pkg/idempotencia"
)

// Avisador is a store with a window on it for a test of the revisor: it tells the test when a
// request took a key, read a service or is about to create one, so the test sends its next request
// at that moment of the first (inside its save pause, between its If-Match and its body) instead of
// after a pause that a loaded machine may not honour. Each hook runs in the request's own
// goroutine, before (AlCrear) or after (the others) the store's own step, and may block to hold the
// request there. Set the hooks with Al: the server's goroutines read them.
type Avisador struct {
	almacen.Almacen
	mu       sync.Mutex
	alTomar  func(llave string, tipo idempotencia.Tipo)
	alBuscar func(id int)
	alCrear  func(nombre string)
}

// Ganchos are the hooks of an Avisador; a nil one is not called.
type Ganchos struct {
	AlTomar  func(llave string, tipo idempotencia.Tipo)
	AlBuscar func(id int)
	AlCrear  func(nombre string)
}

// Al replaces the hooks.
func (a *Avisador) Al(g Ganchos) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.alTomar, a.alBuscar, a.alCrear = g.AlTomar, g.AlBuscar, g.AlCrear
}

func (a *Avisador) ganchos() Ganchos {
	a.mu.Lock()
	defer a.mu.Unlock()
	return Ganchos{a.alTomar, a.alBuscar, a.alCrear}
}

func (a *Avisador) Tomar(ctx context.Context, credencial, llave, huella string) (idempotencia.Turno, error) {
	turno, err := a.Almacen.Tomar(ctx, credencial, llave, huella)
	if f := a.ganchos().AlTomar; f != nil && err == nil {
		f(llave, turno.Tipo)
	}
	return turno, err
}

func (a *Avisador) Buscar(ctx context.Context, id int) (almacen.Servicio, bool, error) {
	s, vivo, err := a.Almacen.Buscar(ctx, id)
	if f := a.ganchos().AlBuscar; f != nil && err == nil {
		f(id)
	}
	return s, vivo, err
}

func (a *Avisador) Crear(ctx context.Context, equipo string, d almacen.Datos, tope int, alta *almacen.Alta) (almacen.Servicio, error) {
	if f := a.ganchos().AlCrear; f != nil {
		f(d.Nombre)
	}
	return a.Almacen.Crear(ctx, equipo, d, tope, alta)
}
