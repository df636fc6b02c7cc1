// Package hostil is the hostile service of Lesson 7's exercise (fig07_04, port 18083): it answers
// every request with a 409 Problem Details whose type comes from the request's path, so a client's
// decision table can be tested against types that come from outside. `laboratorio hostil` serves
// it, and `revisor comprobar tabla` starts it in-process; a package of its own, so the revisor
// links it without the bench.
package hostil

import (
	"net/http"
	"strings"

	"cursohttp/internal/nodejs"
	"cursohttp/pkg/curso"
	"cursohttp/pkg/problema"
	"cursohttp/pkg/respuesta"
)

// Hostil is the hostile service: it always answers 409 Problem Details, with whatever type
// /type/<texto> asks for.
type Hostil struct{}

// Nuevo builds the hostile service.
func Nuevo() Hostil { return Hostil{} }

// ServeHTTP decodes the whole raw target as decodeURIComponent does (query included) and chooses the
// problem: /type/<texto> gets that type with title and detail "x"; /idioma/en the key-in-progress
// problem in English; anything else the same in Spanish. A target that decodeURIComponent would
// reject (it crashed the course's program) is used as it came.
func (Hostil) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	crudo := r.RequestURI // the raw target, as the course's program reads req.url
	if crudo == "" {
		crudo = r.URL.RequestURI()
	}
	ruta, err := nodejs.DecodificarComponente(crudo)
	if err != nil {
		ruta = crudo
	}
	// The course's: writeHead(409, {Content-Type}), then end(body), without a final newline.
	respuesta.Terminar(w, r, http.StatusConflict, nodejs.CodificarJSON(Problema(ruta)),
		respuesta.Cabecera{Nombre: "Content-Type", Valor: problema.TipoMedio})
}

// Problema is the body the hostile service sends for a decoded path.
func Problema(ruta string) nodejs.Objeto {
	enCurso := curso.Problemas + string(problema.LlaveEnCurso)
	if tipo, ok := strings.CutPrefix(ruta, "/type/"); ok {
		return problemaDe(tipo, "x", "x")
	}
	if ruta == "/idioma/en" {
		return problemaDe(enCurso, "That key is still in use", "the original request has not finished yet")
	}
	return problemaDe(enCurso, "Esa llave sigue en curso", "la petición original todavía no termina")
}

func problemaDe(tipo, titulo, detalle string) nodejs.Objeto {
	return problema.NuevoPropio(tipo, titulo, http.StatusConflict).ConDetail(detalle).Objeto()
}
