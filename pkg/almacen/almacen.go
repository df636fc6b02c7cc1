// Package almacen is what the revisor keeps: services, their checks, the Idempotency-Key records of
// registrations, and the state several copies of the revisor must share (maintenance, rate-limit
// windows). Almacen is the one interface; Memoria keeps everything in the process, as the course
// does, and pkg/datos keeps it in SQLite or PostgreSQL. The three pass one test suite
// (internal/prueba/almacentest), so a program cannot tell them apart except by what survives a
// restart.
package almacen

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"strconv"
	"time"

	"cursohttp/pkg/curso"
	"cursohttp/pkg/idempotencia"
	"cursohttp/pkg/limitador"
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

// Huerfana is a pending check left by a process that is gone, with the service it checks.
type Huerfana struct {
	Revision Revision
	Servicio Servicio
}

// Errors of Cambiar and Crear.
var (
	// ErrConflicto: the version read when If-Match was checked is no longer current (412).
	ErrConflicto = errors.New("almacen: la versión cambió")
	// ErrRetirado: the service was retired while the request was in flight (410).
	ErrRetirado = errors.New("almacen: el servicio se retiró")
	// ErrReservaPerdida: the key's reservation outlived its Plazo and another request took the key
	// (or it was swept); nothing was created or recorded. The revisor answers 409 llave-en-curso:
	// a retry finds the other request's answer, or the key free again.
	ErrReservaPerdida = errors.New("almacen: la reserva de la llave ya no es de esta petición")
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

// Alta is the Idempotency-Key of a registration: the reservation Tomar handed out. Given to Crear,
// the key's record gets the response Respuesta builds from the new service in the same step (the
// same transaction in a database) as the service itself, and only while Reserva still holds the
// key: a crash can leave the key reserved with nothing created (until the reservation's Plazo),
// never a service whose key does not know it, nor two services for one key.
type Alta struct {
	Reserva   idempotencia.Reserva
	Respuesta func(Servicio) idempotencia.Grabada
}

// Llaves are the Idempotency-Key records of POST /servicios, with the semantics of
// idempotencia.Registro: the reservation and its Plazo, the fingerprint, the validity counted from
// the reservation, and the bounds per credential, in all and in progress.
type Llaves interface {
	// Tomar decides what to do with a request carrying llave and a body with fingerprint huella; of
	// many simultaneous requests with a free key, exactly one gets Nueva, with its Reserva.
	Tomar(ctx context.Context, credencial, llave, huella string) (idempotencia.Turno, error)
	// Grabar records the response of the request that holds reservation r; ErrReservaPerdida if
	// r no longer holds its key (nothing is recorded).
	Grabar(ctx context.Context, r idempotencia.Reserva, g idempotencia.Grabada) error
	// Soltar forgets reservation r, whose request created nothing; a recorded response, or a later
	// reservation of the key, stays.
	Soltar(ctx context.Context, r idempotencia.Reserva) error
}

// Contador is a rate limit as the store keeps it: limitador.Limitador with the store's errors.
// Several revisors on one shared store count in the same windows.
type Contador interface {
	Permitir(ctx context.Context, clave string, ahora time.Time) (limitador.Veredicto, error)
	Politica() limitador.Politica
}

// Almacen is everything the revisor keeps. Values handed out are copies: a caller can change the
// store only through its methods. An error is the store failing (a database gone); the answers
// the course gives (a repeated name, a version that changed) are the typed errors above.
type Almacen interface {
	Llaves

	// Arranque is the 8 hex characters that end every ETag. A store that keeps its data draws it
	// once, when it is created, so tags stay valid across restarts; Memoria draws it each run.
	Arranque() string

	// Crear registers a service for equipo unless the team already has one with that name
	// (*NombreRepetido) or already has tope live services (*TopeAlcanzado; tope 0 is no bound), in
	// one step: two registrations of the same name can never both win, nor two pass the bound. With
	// alta, the key's response is recorded in that same step, and nothing is created if alta's
	// reservation no longer holds its key (ErrReservaPerdida).
	Crear(ctx context.Context, equipo string, d Datos, tope int, alta *Alta) (Servicio, error)
	// Buscar returns the live service id.
	Buscar(ctx context.Context, id int) (Servicio, bool, error)
	// Listar returns the live services of equipo ("*": of every team) in creation order.
	Listar(ctx context.Context, equipo string) ([]Servicio, error)
	// Retirar removes a live service and remembers its team, so it answers 410 and not 404.
	Retirar(ctx context.Context, id int) (bool, error)
	// EquipoDeRetirado returns the team of a retired service.
	EquipoDeRetirado(ctx context.Context, id int) (string, bool, error)
	// Cambiar is "UPDATE … WHERE id = ? AND version = ?": in one step it refuses a name another
	// service of the team holds (*NombreRepetido), a retired service (ErrRetirado) and a version
	// other than versionLeida (ErrConflicto; nil means If-Match: *, which only asks that it
	// exist), then writes and bumps the version. Two PUTs carrying the same tag never both win.
	Cambiar(ctx context.Context, id int, versionLeida *int, d Datos) (Servicio, error)

	// CrearRevision records a pending check of servicio, to be run by this process.
	CrearRevision(ctx context.Context, servicio int) (Revision, error)
	// BuscarRevision returns check id.
	BuscarRevision(ctx context.Context, id int) (Revision, bool, error)
	// RevisionesDe returns the checks of servicio in the order they were requested.
	RevisionesDe(ctx context.Context, servicio int) ([]Revision, error)
	// TerminarRevision stores the result of check id.
	TerminarRevision(ctx context.Context, id int, res Resultado) error
	// Huerfanas hands this process the pending checks whose process is gone (it crashed or was
	// stopped before running them), each to exactly one of the processes sharing the store, with
	// their service as last stored (retired ones included). Memoria never has any: its checks die
	// with it.
	Huerfanas(ctx context.Context) ([]Huerfana, error)

	// Mantenimiento says whether maintenance mode is on; every process sharing the store sees the
	// change as soon as PonerMantenimiento returns.
	Mantenimiento(ctx context.Context) (bool, error)
	PonerMantenimiento(ctx context.Context, activo bool) error

	// Contador returns the limit called nombre, of f's algorithm with cuota per ventana. A store
	// shared by several processes keeps its windows where they all count.
	Contador(nombre string, f limitador.Fabrica, cuota int, ventana time.Duration) Contador

	// OlvidarLlaves forgets every key record of the credentials whose name ends in sufijo (a class
	// team's, «@EQUIPO»: what a cut grading left), in progress or recorded; it returns how many.
	OlvidarLlaves(ctx context.Context, sufijo string) (int, error)

	// CuantasLlaves returns how many key records the store holds (expired ones not yet dropped
	// included).
	CuantasLlaves(ctx context.Context) (int, error)

	// Cerrar releases what the store holds (files, connections). Calls after it fail.
	Cerrar() error
}

// Opciones configure a new store.
type Opciones struct {
	// Arranque fixes the ETag suffix (tests); "" draws one. A store that keeps its data uses it
	// only when it creates its data.
	Arranque string
	// Semillas are registered when the data is created: the course's six (Semillas()) make the
	// first registration 7. Nil registers none.
	Semillas []Semilla
	// Llaves: the validity, bounds and clock of the Idempotency-Key records.
	Llaves idempotencia.Opciones
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

// NuevoArranque draws the 8 hex characters that end every ETag of one store: after a restart of a
// store in memory ids and versions start again, and without it "4-1" could name another
// representation (RFC 9110 §8.8.1).
func NuevoArranque() string {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("almacen: sin azar para el arranque: " + err.Error())
	}
	return hex.EncodeToString(b[:])
}

// Etiqueta is the ETag of s in a store whose boot identifier is arranque: "id-version-arranque".
func Etiqueta(arranque string, s Servicio) string {
	return `"` + strconv.Itoa(s.ID) + "-" + strconv.Itoa(s.Version) + "-" + arranque + `"`
}
