package revisor

import (
	"net/http"
	"sync"
	"sync/atomic"

	"cursohttp/internal/nodejs"
	"cursohttp/pkg/almacen"
	"cursohttp/pkg/respuesta"
)

// formaLista is how a listing shows its services: GET /servicios's or /v1/servicios's.
type formaLista struct {
	representar func(almacen.Servicio) nodejs.Objeto
	cabeceras   []respuesta.Cabecera
}

var (
	formaActual = &formaLista{representar: representar}
	formaV1     = &formaLista{representar: representarV1, cabeceras: avisosV1}
)

// listados keeps the last listing of each team in each form, built once and sent to every request
// that finds the team's list as it was: 1,100 clients asking for a 617 KB listing at once cost
// one encoding, not 1,100 (each encoded twice, to count and to send, while the clients that never
// read kept the revisor's two cores busy). The store may be shared with other revisors, so this
// one cannot know when it changes: each request still asks the store for the list and compares it
// with the one the listing was built from, service by service by id and version — what a
// service's ETag already stands for — which costs far less than encoding it.
//
// A listing is built under its slot's lock, so the requests that come meanwhile wait, parked,
// instead of encoding the same bytes side by side. Bytes are bounded (tope, topes.Listados): the
// listings held, in a slot or still being sent after their slot moved on, count until their last
// request ends; a listing that does not fit in what is left is streamed (respuesta.ListaJSON).
type listados struct {
	tope   int64
	usados atomic.Int64

	mu      sync.Mutex
	ranuras map[claveListado]*ranuraListado // one per team and form: as many as the credentials table allows
}

type claveListado struct {
	equipo string
	forma  *formaLista
}

type ranuraListado struct {
	mu     sync.Mutex // held while its listing is compared and built
	actual *listado
}

// listado is one listing, as built from versiones, ready to send.
type listado struct {
	versiones []versionServicio
	enviar    *respuesta.Preparada
	bytes     int64        // what it holds, against the budget
	refs      atomic.Int64 // its slot's and each request's that sends it
	de        *listados
}

type versionServicio struct{ id, version int }

func nuevosListados(tope int64) *listados {
	return &listados{tope: tope, ranuras: map[claveListado]*ranuraListado{}}
}

func (ls *listados) ranura(k claveListado) *ranuraListado {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	r := ls.ranuras[k]
	if r == nil {
		r = &ranuraListado{}
		ls.ranuras[k] = r
	}
	return r
}

// tomar returns the listing of servicios, the team's list as the store gave it, in form f: the one
// already built if it was built from the same list, or one built now. The caller sends it and then
// calls soltar. nil when it does not fit in what is left of the budget.
func (ls *listados) tomar(equipo string, f *formaLista, servicios []almacen.Servicio) *listado {
	r := ls.ranura(claveListado{equipo, f})
	r.mu.Lock()
	defer r.mu.Unlock()
	if l := r.actual; l != nil && l.esDe(servicios) {
		l.refs.Add(1)
		return l
	}
	if r.actual != nil {
		// The list changed: that listing goes once the requests still sending it end.
		r.actual.soltar()
		r.actual = nil
	}
	// Room for the body, reserved before it is built, from what it holds at least (its texts and,
	// per service, more than the names and numbers of a representation take) plus an eighth for
	// escapes; then what it took, which only texts full of escapes make larger.
	reserva := int64(64)
	for _, s := range servicios {
		reserva += int64(len(s.Nombre) + len(s.URL) + 64)
	}
	reserva += reserva / 8
	versiones := int64(len(servicios)) * 16 // two ints per service
	if ls.usados.Add(reserva+versiones) > ls.tope {
		ls.usados.Add(-reserva - versiones)
		return nil
	}
	libre := ls.tope - ls.usados.Load() + reserva
	cuerpo, ok := respuesta.ArmarLista("servicios", len(servicios), func(i int) any { return f.representar(servicios[i]) }, int(reserva), int(libre))
	ls.usados.Add(-reserva - versiones) // the reservation gives way to what it took
	if !ok {
		return nil
	}
	costo := int64(cap(cuerpo)) + versiones
	if ls.usados.Add(costo) > ls.tope {
		ls.usados.Add(-costo)
		return nil
	}
	l := &listado{
		versiones: make([]versionServicio, len(servicios)),
		enviar:    respuesta.Preparar(http.StatusOK, "application/json", cuerpo, f.cabeceras...),
		bytes:     costo,
		de:        ls,
	}
	for i, s := range servicios {
		l.versiones[i] = versionServicio{s.ID, s.Version}
	}
	l.refs.Store(2) // the slot's and this request's
	r.actual = l
	return l
}

// esDe says whether l was built from the same services in the same versions.
func (l *listado) esDe(servicios []almacen.Servicio) bool {
	if len(servicios) != len(l.versiones) {
		return false
	}
	for i, s := range servicios {
		if l.versiones[i] != (versionServicio{s.ID, s.Version}) {
			return false
		}
	}
	return true
}

// soltar gives up one reference; the last gives its bytes back to the budget.
func (l *listado) soltar() {
	if l.refs.Add(-1) == 0 {
		l.de.usados.Add(-l.bytes)
	}
}
