// Package matricula keeps a class of classroom mode (laboratorio clase): its roster, each
// student's personal credential (only its hash is kept), every grading the class lab made of
// each student's client, appended as it is made, and each student's answers to the predictions
// asked in class (rounds, issue 32) with the real answers the class lab's run gave. It is the class's store: SQLite by default,
// PostgreSQL when the instructor gives a postgres:// URL; both survive a kill -9 of the lab and a
// restart of the database.
//
// Nothing here takes a verdict from a student: Anotar is called by the class lab with what its
// own gateway and revisor saw.
package matricula

import (
	"context"
	"errors"
	"time"
)

// Credencial is a student's personal credential in clear: it exists only when it is made
// (Agregar, Renovar, Rotar), to be printed once and written to the instructor's 0600 list.
type Credencial struct {
	Alumno  string `json:"alumno"`
	Secreto string `json:"credencial"`
}

// Alumno is one row of the roster.
type Alumno struct {
	Nombre   string    `json:"nombre"` // normalised (Normalizar)
	Alta     time.Time `json:"alta"`
	Revocada bool      `json:"revocada,omitempty"` // its credential was revoked and not renewed
}

// Veredicto is one check of one grading: its id (pkg/examen's Checks) and state ("paso", "fallo",
// "no-juzgada"). Autodeclarada marks what rests on what the student's machine reported (the
// client's exit code), not on what the lab saw.
type Veredicto struct {
	ID            string `json:"id"`
	Estado        string `json:"estado"`
	Autodeclarada bool   `json:"autodeclarada,omitempty"`
}

// Calificacion is one grading of one student's client, as the class lab judged it.
type Calificacion struct {
	ID             string      `json:"id"` // the run's id
	Alumno         string      `json:"alumno"`
	Inicio, Fin    time.Time   `json:"-"`
	Semilla        uint64      `json:"semilla"`
	Comprobaciones []Veredicto `json:"comprobaciones"`
	// Informe is the report the student was shown (text), kept for the history; at most
	// topes.InformeClase bytes.
	Informe string `json:"informe,omitempty"`
}

// What a class can make the store hold is bounded by pkg/topes (the one place a limit is changed):
// topes.Alumnos rows of a roster, of at most topes.NombreAlumno characters a name;
// topes.HistorialClase gradings kept per student (an older one goes when a new one comes), each
// with a report of topes.InformeClase bytes and topes.Comprobaciones checks, whose ids and states
// are at most topes.IDCalificacion bytes, as a grading's id (the run's), a round's, its exercise's
// and each question's are; topes.RespuestaClase bytes an answer (and a real answer),
// topes.PreguntasClase answers of one student sent at once (and real answers of a round), and
// topes.RondasClase rounds kept (an older one goes, with its answers, when a new one comes).

// Errors a caller tells apart.
var (
	ErrNoEsta     = errors.New("ese alumno no está en la lista de la clase")
	ErrClaseLlena = errors.New("la lista de la clase está llena")
	ErrYaEsta     = errors.New("ese nombre ya está en la lista (o uno que se lee igual)")
	ErrDemasiado  = errors.New("la calificación pasa de los topes de la clase")
	ErrSinRonda   = errors.New("esa predicción no está en la clase")
	ErrRevelada   = errors.New("esa predicción ya se reveló: no admite más respuestas")
)

// Ronda is one prediction exercise asked to the whole class (issue 32): the instructor opens it,
// each student answers it, and the class lab's own run of the exercise gives the real answers.
type Ronda struct {
	ID        string    `json:"id"`        // the class lab's, unique
	Ejercicio string    `json:"ejercicio"` // the exercise's ID in pkg/ordenes/predecir
	Abierta   time.Time `json:"abierta"`
	// Reales are the run's answers by question, once revealed (Revelar); nil before.
	Reales map[string]string `json:"reales,omitempty"`
}

// Respuesta is one student's answer to one question of a round, in the question's canonical text
// (predecir.Pregunta.Leer): the store keeps it as text, whatever its type.
type Respuesta struct {
	Alumno   string    `json:"alumno"`
	Pregunta string    `json:"pregunta"`
	Valor    string    `json:"valor"`
	Cuando   time.Time `json:"cuando"` // when this answer was given (a later one replaces it)
}

// NombreInvalido is a roster name refused, with why, in the course's language.
type NombreInvalido struct {
	Nombre, Motivo string
}

// Error prints the name with its invisible and bidirectional characters as code points (raw,
// U+202E would turn the message around) and cut short when it is long.
func (e *NombreInvalido) Error() string {
	return "el nombre «" + Visible(e.Nombre) + "» no vale: " + e.Motivo
}

// Almacen is a class's store. Every method is safe for concurrent use, and every write is durable
// when it returns.
type Almacen interface {
	// Agregar adds names to the roster (normalised; a name already there, or one that reads the
	// same, is ErrYaEsta for that name and nothing is added) and returns their credentials, made
	// now, in the names' order.
	Agregar(ctx context.Context, nombres []string) ([]Credencial, error)
	// Quitar removes a student: its row, its credential and its gradings. ErrNoEsta if absent.
	Quitar(ctx context.Context, nombre string) error
	// Revocar makes a student's credential worthless until Renovar.
	Revocar(ctx context.Context, nombre string) error
	// Renovar makes a new credential for one student (the old one stops working).
	Renovar(ctx context.Context, nombre string) (Credencial, error)
	// Rotar makes a new credential for every student at once, in the roster's order; a revoked
	// one stays revoked (only Renovar undoes Revocar) and gets none.
	Rotar(ctx context.Context) ([]Credencial, error)
	// Alumnos is the roster, in the order the names were added.
	Alumnos(ctx context.Context) ([]Alumno, error)
	// Identificar is the student whose live credential secreto is; ok false when none.
	Identificar(ctx context.Context, secreto string) (nombre string, ok bool, err error)

	// Anotar appends a grading to its student's history (keeping the last topes.HistorialClase).
	// ErrNoEsta when the student was removed meanwhile; ErrDemasiado past the bounds.
	Anotar(ctx context.Context, c Calificacion) error
	// Ultimas is each student's last grading, by name (students never graded are absent).
	Ultimas(ctx context.Context) (map[string]Calificacion, error)
	// Historial is one student's gradings, the newest first.
	Historial(ctx context.Context, nombre string) ([]Calificacion, error)
	// Limpiar forgets the gradings of one student, or of everybody when nombre is "". Answers
	// to predictions stay (they go with their student, Quitar, or their round).
	Limpiar(ctx context.Context, nombre string) error

	// AbrirRonda keeps a new round (again with the same ID, nothing changes), and forgets the
	// oldest past topes.RondasClase, with their answers.
	AbrirRonda(ctx context.Context, r Ronda) error
	// Responder keeps a student's answers to a round, by question: an answer given again
	// replaces the one before, until the round is revealed (then ErrRevelada, and nothing is
	// kept). ErrNoEsta when the student is not in the roster, ErrSinRonda when the round is not
	// kept, ErrDemasiado past the bounds.
	Responder(ctx context.Context, ronda, alumno string, respuestas map[string]string) error
	// Revelar keeps the run's real answers of a round; from then on Responder refuses it.
	Revelar(ctx context.Context, ronda string, reales map[string]string) error
	// Respuestas is a round with every answer kept to it, in the roster's order and then by
	// question. ErrSinRonda when it is not kept.
	Respuestas(ctx context.Context, ronda string) (Ronda, []Respuesta, error)
	// Rondas are the rounds kept (at most topes.RondasClase), the oldest first, each with its
	// real answers once revealed.
	Rondas(ctx context.Context) ([]Ronda, error)

	Cerrar() error
}
