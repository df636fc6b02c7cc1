package problema

import (
	"net/http"

	"cursohttp/internal/nodejs"
	"cursohttp/pkg/encabezado"
	"cursohttp/pkg/respuesta"
)

// Propio is a Problem Details answer outside the revisor's catalogue, as the other programs write
// their own: the gateway's (about:blank with the code's reason phrase) and the bench's fakes (a
// type and title of their choosing). Its members are RFC 9457's, in its order; detail only when
// given, and no instance or Content-Language (the revisor's answers carry those, through Escribir).
type Propio struct {
	tipo, titulo string
	status       int
	detail       *string
}

// AboutBlank is the problem of a bare status: about:blank, the code's reason phrase as title
// (RFC 9457 §4.2.1).
func AboutBlank(status int) Propio {
	return Propio{tipo: "about:blank", titulo: encabezado.Frase(status), status: status}
}

// NuevoPropio is a problem with its own type and title.
func NuevoPropio(tipo, titulo string, status int) Propio {
	return Propio{tipo: tipo, titulo: titulo, status: status}
}

// ConDetail adds the detail member.
func (p Propio) ConDetail(detail string) Propio {
	p.detail = &detail
	return p
}

// Objeto is the problem as JSON members: type, title, status and, if given, detail.
func (p Propio) Objeto() nodejs.Objeto {
	o := nodejs.Objeto{
		{Nombre: "type", Valor: p.tipo},
		{Nombre: "title", Valor: p.titulo},
		{Nombre: "status", Valor: p.status},
	}
	if p.detail != nil {
		o = append(o, nodejs.Campo{Nombre: "detail", Valor: *p.detail})
	}
	return o
}

// Escribir answers r with the problem: its status, application/problem+json, the extra headers,
// and the body as JSON.stringify writes it with a final newline.
func (p Propio) Escribir(w http.ResponseWriter, r *http.Request, cabeceras ...respuesta.Cabecera) {
	respuesta.Bytes(w, r, p.status, TipoMedio, append(nodejs.CodificarJSON(p.Objeto()), '\n'), cabeceras...)
}
