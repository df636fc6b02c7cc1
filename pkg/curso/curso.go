// Package curso holds the values the course fixes and its transcripts show: where each program
// listens, the base of the revisor's problem types and the exit code of a run stopped by Ctrl+C.
// Everything else names them from here, so that a value the lessons print is written once.
package curso

// Host is where every program of the course listens and is reached.
const Host = "127.0.0.1"

// The course's ports (L4 §4.1.3, L6 §6.1.2, L7 R-11).
const (
	PuertoRevisor     = 18080
	PuertoLaboratorio = 18081
	PuertoPasarela    = 18082 // also `laboratorio mentira`, which stands where the gateway would
	PuertoHostil      = 18083
	// PuertoPanel is the suite's own: the timeline page (laboratorio panel), not the course's.
	PuertoPanel = 18084
)

// The same ports as host:port. Go has no constant conversion from int to string, so the digits are
// written again here; curso_test.go checks that both agree.
const (
	DireccionRevisor     = Host + ":18080"
	DireccionLaboratorio = Host + ":18081"
	DireccionPasarela    = Host + ":18082"
	DireccionHostil      = Host + ":18083"
	DireccionPanel       = Host + ":18084"
)

// The base URLs the course's clients use by default.
const (
	URLRevisor     = "http://" + DireccionRevisor
	URLLaboratorio = "http://" + DireccionLaboratorio
	URLPasarela    = "http://" + DireccionPasarela
	URLPanel       = "http://" + DireccionPanel
)

// Problemas is where the revisor's problem types live: a type is Problemas + its key
// ("https://revisor.example/problemas/llave-en-curso").
const Problemas = "https://revisor.example/problemas/"

// Interrumpido is the exit code of a run stopped by Ctrl+C, as a shell reports a program killed by
// SIGINT (128 + 2).
const Interrumpido = 130
