package datosclase

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"

	"cursohttp/pkg/basesql"
	"cursohttp/pkg/matricula"
)

var migracionesPostgres = []string{
	`CREATE TABLE clase_alumnos (
		id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
		nombre TEXT NOT NULL,
		esqueleto TEXT NOT NULL,
		alta BIGINT NOT NULL,
		huella BYTEA
	)`,
	`CREATE UNIQUE INDEX clase_alumnos_nombre ON clase_alumnos (nombre)`,
	`CREATE UNIQUE INDEX clase_alumnos_esqueleto ON clase_alumnos (esqueleto)`,
	`CREATE UNIQUE INDEX clase_alumnos_huella ON clase_alumnos (huella)`,
	`CREATE TABLE clase_calificaciones (
		orden BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
		id TEXT NOT NULL,
		alumno BIGINT NOT NULL REFERENCES clase_alumnos (id) ON DELETE CASCADE,
		inicio BIGINT NOT NULL,
		fin BIGINT NOT NULL,
		semilla BIGINT NOT NULL,
		comprobaciones TEXT NOT NULL,
		informe TEXT NOT NULL
	)`,
	`CREATE UNIQUE INDEX clase_calificaciones_id ON clase_calificaciones (id)`,
	`CREATE INDEX clase_calificaciones_alumno ON clase_calificaciones (alumno, orden)`,
	// Issue 32: the predictions asked in class and each student's answers.
	`CREATE TABLE clase_rondas (
		orden BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
		id TEXT NOT NULL,
		ejercicio TEXT NOT NULL,
		abierta BIGINT NOT NULL,
		revelada BIGINT NOT NULL DEFAULT 0,
		reales TEXT NOT NULL DEFAULT ''
	)`,
	`CREATE UNIQUE INDEX clase_rondas_id ON clase_rondas (id)`,
	`CREATE TABLE clase_respuestas (
		ronda BIGINT NOT NULL REFERENCES clase_rondas (orden) ON DELETE CASCADE,
		alumno BIGINT NOT NULL REFERENCES clase_alumnos (id) ON DELETE CASCADE,
		pregunta TEXT NOT NULL,
		valor TEXT NOT NULL,
		cuando BIGINT NOT NULL,
		PRIMARY KEY (ronda, alumno, pregunta)
	)`,
	`CREATE INDEX clase_respuestas_alumno ON clase_respuestas (alumno)`,
	// Issue 40: names that read the same once case, accents and punctuation are set aside are one
	// (matricula.Clave); the rows of an older roster get theirs in the same migration (clavesEn).
	`ALTER TABLE clase_alumnos ADD COLUMN clave TEXT`,
	`CREATE UNIQUE INDEX clase_alumnos_clave ON clase_alumnos (clave)`,
}

// abrirPostgres opens the class on a PostgreSQL server. Its durability is the server's
// (synchronous_commit): a COMMIT that returned is on its disk. What this side adds is surviving
// the server going away: see insistir.
func abrirPostgres(ctx context.Context, texto string) (matricula.Almacen, error) {
	db, err := basesql.AbrirPostgres(texto, 8)
	if err != nil {
		return nil, err
	}
	a := &almacenSQL{db: db, postgres: true}
	// Opening does not wait for a server that is not there: it says so at once.
	abrir, listo := context.WithTimeout(ctx, 2*basesql.EsperaConexion)
	defer listo()
	if err := a.migrar(abrir, migracionesPostgres); err != nil {
		db.Close()
		return nil, errors.New("no se puede abrir la clase en PostgreSQL: " + basesql.ExplicarPostgres(err))
	}
	return a, nil
}

// conexionCaida says whether err is the connection breaking or the server not (yet) taking it —
// it restarts, it is shutting down, the network cut it — rather than the query's own failure: an
// operation that failed so may run again on a new connection. (pgconn.SafeToRetry alone covers only
// what failed before anything was sent; a write cut after that is run again too, and made so that
// a second run does no harm.)
func conexionCaida(err error) bool {
	if basesql.Repetible(err) { // serialization_failure, deadlock_detected: run it again
		return true
	}
	var e *pgconn.PgError
	if errors.As(err, &e) {
		switch {
		case strings.HasPrefix(e.Code, "08"): // connection_exception
			return true
		case e.Code == "57P01", e.Code == "57P02", e.Code == "57P03": // admin_shutdown, crash_shutdown, cannot_connect_now
			return true
		case e.Code == "53300": // too_many_connections
			return true
		}
		return false
	}
	// A connection that could not be made, even in ConnectTimeout: the server is not there yet.
	var conectar *pgconn.ConnectError
	if errors.As(err, &conectar) {
		return true
	}
	// The caller's context ended (insistir asks it too).
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var red net.Error
	return pgconn.SafeToRetry(err) || errors.Is(err, driver.ErrBadConn) || errors.Is(err, sql.ErrConnDone) ||
		errors.As(err, &red) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
}
