package pizarra

import (
	"net/http"

	"cursohttp/pkg/servidor"
)

// The class lab's instructor routes (pkg/clase serves them, «laboratorio clase» calls them), with
// the lab's token: here, beside the board's own, so that laboratorio names them without linking
// the class lab's server.
const (
	RutaLista        = "/clase/lista"                     // POST: names, one a line → 201 the new credentials
	RutaCredencial   = "/clase/lista/{nombre}/credencial" // POST renews one; DELETE revokes it
	RutaCredenciales = "/clase/credenciales"              // POST: every credential anew
)

// The class lab's routes of the predictions asked in class (issue 32): one open at a time. The
// instructor's take the lab's token (or session); a student's, the personal credential; the
// projector's state and the two pages, nothing.
const (
	RutaPrediccion           = "/clase/prediccion"            // POST {"ejercicio"} opens one; DELETE closes it; GET: the open one, for a student
	RutaPrediccionHistograma = "/clase/prediccion/histograma" // POST: the projector shows the answers' histogram
	RutaPrediccionRevelar    = "/clase/prediccion/revelar"    // POST: the lab runs the exercise and shows the real answers
	RutaPrediccionRespuesta  = "/clase/prediccion/respuesta"  // PUT {"ronda","respuestas"}: a student's answers
	RutaPrediccionEstado     = "/clase/prediccion/estado"     // GET: what the projector shows (names only to the instructor)
	RutaProyector            = "/clase/prediccion/proyector"  // GET: the projector's page
	RutaPredecir             = "/clase/predecir"              // GET: the student's page (phone or laptop)
)

// CabecerasDePagina are the headers of a page of the class lab's site, the board's: its own
// scripts and styles only, never in another site's frame, no referrer.
func CabecerasDePagina(w http.ResponseWriter) {
	servidor.ProtegerPagina(w)
	w.Header().Set("Referrer-Policy", "no-referrer")
}

// The class lab's files in its folder (lab/clase): the instructor's token and the list of the
// credentials made, both 0600, and the class's store when it is not in PostgreSQL.
const (
	ArchivoTokenClase   = "token"
	ArchivoCredenciales = "credenciales.txt"
	ArchivoMatricula    = "clase.db"
)
