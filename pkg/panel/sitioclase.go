package panel

// The class lab's instructor routes (pkg/clase serves them, «laboratorio clase» calls them), with
// the lab's token: here, beside the board's own, so that laboratorio names them without linking
// the class lab's server.
const (
	RutaLista        = "/clase/lista"                     // POST: names, one a line → 201 the new credentials
	RutaCredencial   = "/clase/lista/{nombre}/credencial" // POST renews one; DELETE revokes it
	RutaCredenciales = "/clase/credenciales"              // POST: every credential anew
)

// The class lab's files in its folder (lab/clase): the instructor's token and the list of the
// credentials made, both 0600, and the class's store when it is not in PostgreSQL.
const (
	ArchivoTokenClase   = "token"
	ArchivoCredenciales = "credenciales.txt"
	ArchivoMatricula    = "clase.db"
)
