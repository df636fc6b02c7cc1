package revisor

import (
	"net/http"
	"sync/atomic"

	"cursohttp/internal/nodejs"
	"cursohttp/pkg/almacen"
	"cursohttp/pkg/respuesta"
)

// vista is what GET /servicios/{id} answers for one version of a service, built once: the 200 with
// its body and the 304, both with the ETag.
type vista struct {
	s              almacen.Servicio
	etiqueta       string
	ok, noModifico *respuesta.Preparada
}

// vistas keeps the last vista of a few hundred services, one slot per id modulo their number: a
// service read again and again is encoded once per version, and a slot whose service changed (a
// PUT, another id) is built anew. The same size whatever the store holds; lock-free to read.
type vistas struct {
	arranque string // the store's ETag suffix
	ranuras  [256]atomic.Pointer[vista]
}

func (v *vistas) de(s almacen.Servicio) *vista {
	ranura := &v.ranuras[uint(s.ID)%uint(len(v.ranuras))]
	if vi := ranura.Load(); vi != nil && vi.s == s {
		return vi
	}
	etiqueta := almacen.Etiqueta(v.arranque, s)
	con := respuesta.Cabecera{Nombre: "ETag", Valor: etiqueta}
	vi := &vista{
		s:          s,
		etiqueta:   etiqueta,
		ok:         respuesta.Preparar(http.StatusOK, "application/json", append(nodejs.CodificarJSON(representar(s)), '\n'), con),
		noModifico: respuesta.PrepararVacia(http.StatusNotModified, con),
	}
	ranura.Store(vi)
	return vi
}
