// Package almacen keeps the revisor's services and checks in memory, behind one mutex, so that every
// read-then-write the course does without an await in between stays one step here too.
package almacen

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"slices"
	"strconv"
	"sync"

	"cursohttp/pkg/curso"
)

// Servicio is one watched service. Equipo "*" is what admin's registrations carry (the course keeps
// the credential's team as it is).
type Servicio struct {
	ID       int
	Nombre   string
	URL      string
	LimiteMs int
	Equipo   string
	Version  int
}

// Datos is what a registration or a PUT may set.
type Datos struct {
	Nombre   string
	URL      string
	LimiteMs int
}

// The three states a finished check can report.
const (
	Arriba = "ARRIBA"
	Lento  = "LENTO"
	Caido  = "CAIDO"
)

// Resultado is a finished check. Codigo and Ms are nil when no HTTP response came back.
type Resultado struct {
	Estado  string
	Codigo  *int
	Ms      *int
	Detalle string
}

// The two states of a check.
const (
	Pendiente = "pendiente"
	Terminada = "terminada"
)

// Revision is one requested check. Resultado is nil while it is pending.
type Revision struct {
	ID        int
	Servicio  int
	Estado    string
	Resultado *Resultado
}

// Errors of Cambiar and Crear.
var (
	// ErrConflicto: the version read when If-Match was checked is no longer current (412).
	ErrConflicto = errors.New("almacen: la versión cambió")
	// ErrRetirado: the service was retired while the request was in flight (410).
	ErrRetirado = errors.New("almacen: el servicio se retiró")
)

// NombreRepetido says another service of the team already has that name (409).
type NombreRepetido struct{ Existente int }

func (e *NombreRepetido) Error() string {
	return "almacen: ya existe el servicio " + strconv.Itoa(e.Existente) + " con ese nombre"
}

// TopeAlcanzado says the team already has as many live services as Crear allows (409).
type TopeAlcanzado struct{ Tope int }

func (e *TopeAlcanzado) Error() string {
	return "almacen: el equipo ya tiene " + strconv.Itoa(e.Tope) + " servicios"
}

// Almacen holds everything the revisor knows. Values handed out are copies: a caller can never
// change the store except through its methods.
type Almacen struct {
	mu          sync.Mutex
	servicios   map[int]*Servicio
	porEquipo   map[string]int // live services per team
	retirados   map[int]string
	revisiones  map[int]*Revision
	porServicio map[int][]int
	sigServicio int
	sigRevision int
	arranque    string
}

// Semilla is one of the course's start-up services.
type Semilla struct {
	Datos
	Equipo string
}

// Semillas are the six services every run starts with (§4.1.2), so that the first registration is 7.
func Semillas() []Semilla {
	lab := curso.URLLaboratorio
	return []Semilla{
		{Datos{"catalogo", lab + "/codigo/200", 2000}, "a"},
		{Datos{"pagos", lab + "/codigo/503", 2000}, "a"},
		{Datos{"nomina", lab + "/codigo/200", 2000}, "b"},
		{Datos{"inventario", lab + "/lento/1500", 2000}, "a"},
		{Datos{"reportes", lab + "/lento/3000", 1000}, "a"},
		{Datos{"facturacion", lab + "/basura", 2000}, "a"},
	}
}

// Nuevo returns a store with the course's six services and a fresh boot identifier.
func Nuevo() *Almacen {
	return NuevoCon(NuevoArranque(), Semillas())
}

// NuevoArranque draws the 8 hex characters that end every ETag of one run: after a restart ids and
// versions start again, and without it "4-1" could name another representation (RFC 9110 §8.8.1).
func NuevoArranque() string {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("almacen: sin azar para el arranque: " + err.Error())
	}
	return hex.EncodeToString(b[:])
}

// NuevoCon returns a store with the given boot identifier and start-up services (tests use it to fix
// the identifier).
func NuevoCon(arranque string, semillas []Semilla) *Almacen {
	a := &Almacen{
		servicios:   map[int]*Servicio{},
		porEquipo:   map[string]int{},
		retirados:   map[int]string{},
		revisiones:  map[int]*Revision{},
		porServicio: map[int][]int{},
		sigServicio: 1,
		sigRevision: 1,
		arranque:    arranque,
	}
	for _, s := range semillas {
		a.crear(s.Datos, s.Equipo)
	}
	return a
}

// Arranque is this store's boot identifier.
func (a *Almacen) Arranque() string { return a.arranque }

// Etiqueta is the ETag of s: "id-version-arranque".
func (a *Almacen) Etiqueta(s Servicio) string {
	return `"` + strconv.Itoa(s.ID) + "-" + strconv.Itoa(s.Version) + "-" + a.arranque + `"`
}

func (a *Almacen) crear(d Datos, equipo string) Servicio {
	s := &Servicio{ID: a.sigServicio, Nombre: d.Nombre, URL: d.URL, LimiteMs: d.LimiteMs, Equipo: equipo, Version: 1}
	a.sigServicio++
	a.servicios[s.ID] = s
	a.porEquipo[equipo]++
	return *s
}

// porNombre finds a live service of equipo called nombre. Call with mu held.
func (a *Almacen) porNombre(equipo, nombre string) *Servicio {
	var hallado *Servicio
	for _, s := range a.servicios {
		if s.Equipo == equipo && s.Nombre == nombre && (hallado == nil || s.ID < hallado.ID) {
			hallado = s
		}
	}
	return hallado
}

// Crear registers a service for equipo unless the team already has one with that name
// (*NombreRepetido) or already has tope live services (*TopeAlcanzado; tope 0 is no bound), in one
// step: two registrations of the same name can never both win, nor two pass the bound.
func (a *Almacen) Crear(equipo string, d Datos, tope int) (Servicio, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if s := a.porNombre(equipo, d.Nombre); s != nil {
		return Servicio{}, &NombreRepetido{Existente: s.ID}
	}
	if tope > 0 && a.porEquipo[equipo] >= tope {
		return Servicio{}, &TopeAlcanzado{Tope: tope}
	}
	return a.crear(d, equipo), nil
}

// Buscar returns the live service id.
func (a *Almacen) Buscar(id int) (Servicio, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	s, ok := a.servicios[id]
	if !ok {
		return Servicio{}, false
	}
	return *s, true
}

// Listar returns the live services in creation order (ids only grow).
func (a *Almacen) Listar() []Servicio {
	a.mu.Lock()
	defer a.mu.Unlock()
	lista := make([]Servicio, 0, len(a.servicios))
	for _, s := range a.servicios {
		lista = append(lista, *s)
	}
	slices.SortFunc(lista, func(x, y Servicio) int { return x.ID - y.ID })
	return lista
}

// Retirar removes a service and remembers its team, so it answers 410 and not 404 afterwards.
func (a *Almacen) Retirar(id int) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	s, ok := a.servicios[id]
	if !ok {
		return false
	}
	delete(a.servicios, id)
	if a.porEquipo[s.Equipo]--; a.porEquipo[s.Equipo] == 0 {
		delete(a.porEquipo, s.Equipo)
	}
	a.retirados[id] = s.Equipo
	return true
}

// EquipoDeRetirado returns the team of a retired service.
func (a *Almacen) EquipoDeRetirado(id int) (string, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	e, ok := a.retirados[id]
	return e, ok
}

// Cambiar is the in-memory "UPDATE … WHERE id = ? AND version = ?": in one step it refuses a name
// another service of the team holds (*NombreRepetido), a retired service (ErrRetirado) and a version
// other than versionLeida (ErrConflicto; nil means If-Match: *, which only asks that it exist), then
// writes and bumps the version. Two PUTs carrying the same tag can never both win.
func (a *Almacen) Cambiar(id int, versionLeida *int, d Datos) (Servicio, error) {
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
	s.Nombre, s.URL, s.LimiteMs = d.Nombre, d.URL, d.LimiteMs
	s.Version++
	return *s, nil
}

// CrearRevision records a pending check of servicio.
func (a *Almacen) CrearRevision(servicio int) Revision {
	a.mu.Lock()
	defer a.mu.Unlock()
	r := &Revision{ID: a.sigRevision, Servicio: servicio, Estado: Pendiente}
	a.sigRevision++
	a.revisiones[r.ID] = r
	a.porServicio[servicio] = append(a.porServicio[servicio], r.ID)
	return copiar(r)
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

// BuscarRevision returns check id.
func (a *Almacen) BuscarRevision(id int) (Revision, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	r, ok := a.revisiones[id]
	if !ok {
		return Revision{}, false
	}
	return copiar(r), true
}

// RevisionesDe returns the checks of servicio in the order they were requested.
func (a *Almacen) RevisionesDe(servicio int) []Revision {
	a.mu.Lock()
	defer a.mu.Unlock()
	ids := a.porServicio[servicio]
	lista := make([]Revision, 0, len(ids))
	for _, id := range ids {
		lista = append(lista, copiar(a.revisiones[id]))
	}
	return lista
}

// TerminarRevision stores the result of check id.
func (a *Almacen) TerminarRevision(id int, res Resultado) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if r, ok := a.revisiones[id]; ok {
		res.Codigo = copiarEntero(res.Codigo)
		res.Ms = copiarEntero(res.Ms)
		r.Estado = Terminada
		r.Resultado = &res
	}
}
