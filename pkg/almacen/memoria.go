package almacen

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"cursohttp/pkg/idempotencia"
	"cursohttp/pkg/limitador"
)

// Memoria keeps everything in the process, behind one mutex, so that every read-then-write the
// course does without an await in between stays one step here too. It is the course's store: a
// restart forgets everything together. No method fails.
type Memoria struct {
	mu          sync.Mutex
	servicios   map[int]*Servicio
	porEquipo   map[string]int     // live services per team
	nombres     map[nombreDe][]int // live services by team and name, ids ascending
	retirados   map[int]string
	revisiones  map[int]*Revision
	porServicio map[int][]int
	sigServicio int
	sigRevision int
	arranque    string

	llaves        *idempotencia.Registro
	mantenimiento atomic.Bool
}

var _ Almacen = (*Memoria)(nil)

// Nuevo returns a store in memory with the course's six services, a fresh boot identifier and the
// key records' defaults.
func Nuevo() *Memoria {
	return NuevaMemoria(Opciones{Semillas: Semillas()})
}

// NuevaMemoria returns a store in memory configured by o.
func NuevaMemoria(o Opciones) *Memoria {
	if o.Arranque == "" {
		o.Arranque = NuevoArranque()
	}
	a := &Memoria{
		servicios:   map[int]*Servicio{},
		porEquipo:   map[string]int{},
		nombres:     map[nombreDe][]int{},
		retirados:   map[int]string{},
		revisiones:  map[int]*Revision{},
		porServicio: map[int][]int{},
		sigServicio: 1,
		sigRevision: 1,
		arranque:    o.Arranque,
		llaves:      idempotencia.Nuevo(o.Llaves),
	}
	for _, s := range o.Semillas {
		a.crear(s.Datos, s.Equipo)
	}
	return a
}

// nombreDe is a live service's team and name: what a registration must not repeat.
type nombreDe struct{ equipo, nombre string }

// Arranque implements Almacen.
func (a *Memoria) Arranque() string { return a.arranque }

func (a *Memoria) crear(d Datos, equipo string) Servicio {
	s := &Servicio{ID: a.sigServicio, Nombre: d.Nombre, URL: d.URL, LimiteMs: d.LimiteMs, Equipo: equipo, Version: 1}
	a.sigServicio++
	a.servicios[s.ID] = s
	a.porEquipo[equipo]++
	a.nombrar(s)
	return *s
}

// porNombre finds the live service of equipo called nombre (the oldest, should there be two).
// Call with mu held. An index, not a scan: a registration checks its name in constant time however
// many services there are (the scan made 30,000 registrations quadratic).
func (a *Memoria) porNombre(equipo, nombre string) *Servicio {
	if ids := a.nombres[nombreDe{equipo, nombre}]; len(ids) > 0 {
		return a.servicios[ids[0]]
	}
	return nil
}

// nombrar and olvidarNombre keep the index of names. Call with mu held.
func (a *Memoria) nombrar(s *Servicio) {
	k := nombreDe{s.Equipo, s.Nombre}
	ids := a.nombres[k]
	i, _ := slices.BinarySearch(ids, s.ID)
	a.nombres[k] = slices.Insert(ids, i, s.ID)
}

func (a *Memoria) olvidarNombre(s *Servicio) {
	k := nombreDe{s.Equipo, s.Nombre}
	ids := a.nombres[k]
	if i, ok := slices.BinarySearch(ids, s.ID); ok {
		ids = slices.Delete(ids, i, i+1)
	}
	if len(ids) == 0 {
		delete(a.nombres, k)
	} else {
		a.nombres[k] = ids
	}
}

// Crear implements Almacen. The key's response is recorded before the store's lock is released, so
// no request sees the service before its key knows it.
func (a *Memoria) Crear(_ context.Context, equipo string, d Datos, tope int, alta *Alta) (Servicio, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if s := a.porNombre(equipo, d.Nombre); s != nil {
		return Servicio{}, &NombreRepetido{Existente: s.ID}
	}
	if tope > 0 && a.porEquipo[equipo] >= tope {
		return Servicio{}, &TopeAlcanzado{Tope: tope}
	}
	if alta == nil {
		return a.crear(d, equipo), nil
	}
	var s Servicio
	if !a.llaves.Concluir(alta.Reserva, func() idempotencia.Grabada {
		s = a.crear(d, equipo)
		return alta.Respuesta(s)
	}) {
		return Servicio{}, ErrReservaPerdida
	}
	return s, nil
}

// Buscar implements Almacen.
func (a *Memoria) Buscar(_ context.Context, id int) (Servicio, bool, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	s, ok := a.servicios[id]
	if !ok {
		return Servicio{}, false, nil
	}
	return *s, true, nil
}

// Listar implements Almacen (ids only grow, so creation order is id order).
func (a *Memoria) Listar(_ context.Context, equipo string) ([]Servicio, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	n := len(a.servicios)
	if equipo != "*" {
		n = a.porEquipo[equipo]
	}
	lista := make([]Servicio, 0, n)
	for _, s := range a.servicios {
		if equipo == "*" || s.Equipo == equipo {
			lista = append(lista, *s)
		}
	}
	slices.SortFunc(lista, func(x, y Servicio) int { return x.ID - y.ID })
	return lista, nil
}

// Retirar implements Almacen.
func (a *Memoria) Retirar(_ context.Context, id int) (bool, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	s, ok := a.servicios[id]
	if !ok {
		return false, nil
	}
	delete(a.servicios, id)
	a.olvidarNombre(s)
	if a.porEquipo[s.Equipo]--; a.porEquipo[s.Equipo] == 0 {
		delete(a.porEquipo, s.Equipo)
	}
	a.retirados[id] = s.Equipo
	return true, nil
}

// EquipoDeRetirado implements Almacen.
func (a *Memoria) EquipoDeRetirado(_ context.Context, id int) (string, bool, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	e, ok := a.retirados[id]
	return e, ok, nil
}

// Cambiar implements Almacen.
func (a *Memoria) Cambiar(_ context.Context, id int, versionLeida *int, d Datos) (Servicio, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	s, vivo := a.servicios[id]
	equipo := ""
	if vivo {
		equipo = s.Equipo
	} else {
		equipo = a.retirados[id]
	}
	if otro := a.porNombre(equipo, d.Nombre); otro != nil && otro.ID != id {
		return Servicio{}, &NombreRepetido{Existente: otro.ID}
	}
	if !vivo {
		return Servicio{}, ErrRetirado
	}
	if versionLeida != nil && s.Version != *versionLeida {
		return Servicio{}, ErrConflicto
	}
	a.olvidarNombre(s)
	s.Nombre, s.URL, s.LimiteMs = d.Nombre, d.URL, d.LimiteMs
	a.nombrar(s)
	s.Version++
	return *s, nil
}

// CrearRevision implements Almacen.
func (a *Memoria) CrearRevision(_ context.Context, servicio int) (Revision, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	r := &Revision{ID: a.sigRevision, Servicio: servicio, Estado: Pendiente}
	a.sigRevision++
	a.revisiones[r.ID] = r
	a.porServicio[servicio] = append(a.porServicio[servicio], r.ID)
	return copiar(r), nil
}

func copiar(r *Revision) Revision {
	c := *r
	if r.Resultado != nil {
		res := *r.Resultado
		res.Codigo = copiarEntero(res.Codigo)
		res.Ms = copiarEntero(res.Ms)
		c.Resultado = &res
	}
	return c
}

func copiarEntero(p *int) *int {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// BuscarRevision implements Almacen.
func (a *Memoria) BuscarRevision(_ context.Context, id int) (Revision, bool, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	r, ok := a.revisiones[id]
	if !ok {
		return Revision{}, false, nil
	}
	return copiar(r), true, nil
}

// RevisionesDe implements Almacen.
func (a *Memoria) RevisionesDe(_ context.Context, servicio int) ([]Revision, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	ids := a.porServicio[servicio]
	lista := make([]Revision, 0, len(ids))
	for _, id := range ids {
		lista = append(lista, copiar(a.revisiones[id]))
	}
	return lista, nil
}

// TerminarRevision implements Almacen.
func (a *Memoria) TerminarRevision(_ context.Context, id int, res Resultado) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if r, ok := a.revisiones[id]; ok {
		res.Codigo = copiarEntero(res.Codigo)
		res.Ms = copiarEntero(res.Ms)
		r.Estado = Terminada
		r.Resultado = &res
	}
	return nil
}

// Huerfanas implements Almacen: a store in memory has no other process to inherit from.
func (a *Memoria) Huerfanas(context.Context) ([]Huerfana, error) { return nil, nil }

// Tomar implements Llaves.
func (a *Memoria) Tomar(_ context.Context, credencial, llave, huella string) (idempotencia.Turno, error) {
	return a.llaves.Tomar(credencial, llave, huella), nil
}

// Grabar implements Llaves.
func (a *Memoria) Grabar(_ context.Context, r idempotencia.Reserva, g idempotencia.Grabada) error {
	return grabarEn(a.llaves, r, g)
}

func grabarEn(reg *idempotencia.Registro, r idempotencia.Reserva, g idempotencia.Grabada) error {
	if !reg.Grabar(r, g) {
		return ErrReservaPerdida
	}
	return nil
}

// Soltar implements Llaves.
func (a *Memoria) Soltar(_ context.Context, r idempotencia.Reserva) error {
	a.llaves.Soltar(r)
	return nil
}

// CuantasLlaves implements Almacen.
func (a *Memoria) CuantasLlaves(context.Context) (int, error) { return a.llaves.Cuantos(), nil }

// OlvidarLlaves implements Almacen.
func (a *Memoria) OlvidarLlaves(_ context.Context, sufijo string) (int, error) {
	return a.llaves.Olvidar(sufijo), nil
}

// Mantenimiento implements Almacen.
func (a *Memoria) Mantenimiento(context.Context) (bool, error) { return a.mantenimiento.Load(), nil }

// PonerMantenimiento implements Almacen.
func (a *Memoria) PonerMantenimiento(_ context.Context, activo bool) error {
	a.mantenimiento.Store(activo)
	return nil
}

// Contador implements Almacen with f's limiter in this process.
func (a *Memoria) Contador(_ string, f limitador.Fabrica, cuota int, ventana time.Duration) Contador {
	return EnProceso(f(cuota, ventana))
}

// Cerrar implements Almacen; there is nothing to release.
func (a *Memoria) Cerrar() error { return nil }

// EnProceso is a limiter of this process as a Contador: it never fails.
func EnProceso(l limitador.Limitador) Contador { return enProceso{l} }

type enProceso struct{ l limitador.Limitador }

func (e enProceso) Permitir(_ context.Context, clave string, ahora time.Time) (limitador.Veredicto, error) {
	return e.l.Permitir(clave, ahora), nil
}

func (e enProceso) Politica() limitador.Politica { return e.l.Politica() }

// LlavesEnMemoria is a key store of this process on its own, for a revisor whose services live in
// a database but whose keys do not (the broken version llaves-en-memoria): the two are written in
// two steps, and a restart forgets one and keeps the other.
func LlavesEnMemoria(r *idempotencia.Registro) Llaves { return registroComoLlaves{r} }

type registroComoLlaves struct{ r *idempotencia.Registro }

func (l registroComoLlaves) Tomar(_ context.Context, credencial, llave, huella string) (idempotencia.Turno, error) {
	return l.r.Tomar(credencial, llave, huella), nil
}

func (l registroComoLlaves) Grabar(_ context.Context, r idempotencia.Reserva, g idempotencia.Grabada) error {
	return grabarEn(l.r, r, g)
}

func (l registroComoLlaves) Soltar(_ context.Context, r idempotencia.Reserva) error {
	l.r.Soltar(r)
	return nil
}
