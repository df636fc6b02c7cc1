package revisor

import (
	"net/http"

	"cursohttp/internal/nodejs"
	"cursohttp/pkg/almacen"
	"cursohttp/pkg/respuesta"
)

// avisosV1 say /v1 is deprecated. Deprecation (RFC 9745) is a structured-field date, since when;
// Sunset (RFC 8594) an HTTP date, when it will probably stop answering, never before Deprecation.
var avisosV1 = []respuesta.Cabecera{
	{Nombre: "Deprecation", Valor: "@1782864000"}, // 1 July 2026, 00:00 UTC
	{Nombre: "Sunset", Valor: "Sun, 31 Jan 2027 00:00:00 GMT"},
	{Nombre: "Link", Valor: `<https://revisor.example/docs/migrar-de-v1>; rel="deprecation"; type="text/html"`},
}

// representarV1: v1 spoke of "direccion" and of the limit in seconds (2000 ms is 2, 1500 is 1.5).
func representarV1(s almacen.Servicio) nodejs.Objeto {
	return nodejs.Objeto{
		{Nombre: "id", Valor: s.ID},
		{Nombre: "nombre", Valor: s.Nombre},
		{Nombre: "direccion", Valor: s.URL},
		{Nombre: "limite", Valor: float64(s.LimiteMs) / 1000},
	}
}

// GET /v1/servicios
func (rv *Revisor) listarV1(c *contexto) {
	rv.escribirLista(c, formaV1)
}

// GET /v1/servicios/{id}
func (rv *Revisor) consultarV1(c *contexto) {
	s, ok := rv.encontrar(c, c.parametro)
	if !ok {
		return
	}
	respuesta.JSON(c.w, c.r, http.StatusOK, representarV1(s), avisosV1...)
}
