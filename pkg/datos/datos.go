// Package datos keeps the revisor's almacen.Almacen in a database: a file of its own (SQLite, via
// the pure-Go modernc.org/sqlite, so every platform builds without cgo) or a PostgreSQL server
// (jackc/pgx). `revisor --datos DONDE` chooses it: a postgres:// URL or a file path.
//
// What the course keeps in memory is kept here with the same answers (the suite in
// internal/prueba/almacentest proves it), and what memory cannot give is added:
//
//   - Everything survives a restart, and so do ETags: the boot identifier that ends them is drawn
//     once, when the data is created.
//   - A registration with an Idempotency-Key writes the service and its key's response in one
//     transaction (the model is Brandur Leach's "Implementing Stripe-like Idempotency Keys in
//     Postgres"), and only if its reservation (its ficha) still holds the key. A reservation is a
//     lease: it holds the key for its Plazo, and only while its process lives; then it protects
//     nothing that exists, and the key is free. SQLite also frees every one left when it opens (one
//     process per file).
//   - Several revisors on one PostgreSQL keep one answer per intent: key reservations, the name
//     check and the bounds are serialized by transaction-scoped advisory locks; maintenance is read
//     from the database by every request; rate-limit windows live in the database; a pending check
//     belongs to the process that will run it, and one left by a dead process goes to exactly one
//     other (UPDATE … WHERE owner = the dead one). A process is alive while it renews its row in
//     instancias (postgresAlmacen): a database that restarts or a connection that drops kills
//     nobody.
package datos

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/binary"
	"errors"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"cursohttp/pkg/almacen"
	"cursohttp/pkg/basesql"
	"cursohttp/pkg/idempotencia"
)

// Abrir opens the store at donde — a postgres:// URL or the path of a SQLite file, created if
// missing — creating or migrating its schema. o.Arranque and o.Semillas are used only when the data
// is created; o.Llaves applies to this process.
func Abrir(ctx context.Context, donde string, o almacen.Opciones) (almacen.Almacen, error) {
	if strings.TrimSpace(donde) == "" {
		return nil, errors.New("falta dónde: la ruta de un archivo o una URL postgres://")
	}
	if basesql.EsPostgres(donde) {
		return abrirPostgres(ctx, donde, o)
	}
	return abrirSQLite(ctx, donde, o)
}

// base is what both databases share: the queries are the same SQL (the `$n` placeholders mean
// the same in both), and the dialect says only how to lock and where the answers differ.
type base struct {
	db        *sql.DB
	dialecto  dialecto
	arranque  string
	instancia int64 // this process, as it marks what it owns (key reservations, pending checks)
	llaves    idempotencia.Opciones
	reloj     func() time.Time

	buscar *sql.Stmt // the hot path: GET /servicios/{id}

	cerrado atomic.Bool

	// totalVisto is the last exact count of every key record, and sinContar how many reservations
	// this process asked to make (alTope): counting them all on every registration was most of a
	// class's cost on PostgreSQL.
	totalVisto, sinContar atomic.Int64
}

// dialecto is what differs between SQLite and PostgreSQL.
type dialecto interface {
	// bloquear serializes, within tx, every transaction that locks the same (clase, nombre).
	bloquear(ctx context.Context, tx *sql.Tx, clase int32, nombre string) error
	// paraCambiar is the clause that locks the rows a SELECT reads until the end of the transaction.
	paraCambiar() string
	// muerta says whether the process instancia is gone (its reservations and checks are free).
	muerta(ctx context.Context, tx *sql.Tx, instancia int64) (bool, error)
	// reintentable says whether a transaction that failed with err may simply run again.
	reintentable(err error) bool
}

// The classes of advisory locks.
const (
	claseEsquema int32 = 1 + iota
	claseLlaves
	claseEquipo
	claseLimite
)

// azar draws a process's instance number or a reservation's ficha: positive, so it reads the same
// in every tool, and never 0.
func azar() int64 {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("datos: sin azar: " + err.Error())
	}
	return int64(binary.BigEndian.Uint64(b[:])>>1) | 1
}

func (b *base) Arranque() string { return b.arranque }

// enTx runs fn in a transaction and commits it, running it again (up to three times) when the
// database says the transaction may simply be retried (a deadlock detected by PostgreSQL).
func (b *base) enTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	if b.cerrado.Load() {
		return errCerrado
	}
	var err error
	for range 3 {
		_, err = basesql.Transaccion(ctx, b.db, fn)
		if err == nil || !b.dialecto.reintentable(err) {
			return err
		}
	}
	return err
}

var errCerrado = errors.New("datos: el almacén está cerrado")

// masNueva is the revisor's words for data a newer revisor made (basesql.Esquema.MasNueva).
const masNueva = "los datos son de una versión más nueva del revisor (esquema %d; este conoce hasta el %d)"

// inicializar creates or migrates the schema and, the first time, the boot identifier and the
// start-up services, all in one transaction: a store is either not created or created whole.
func (b *base) inicializar(ctx context.Context, o almacen.Opciones, migraciones []string) error {
	return b.enTx(ctx, func(tx *sql.Tx) error {
		version, err := basesql.Migrar(ctx, tx, basesql.Esquema{
			Ajustes: "ajustes", Migraciones: migraciones, MasNueva: masNueva,
			Bloquear: func(ctx context.Context, tx *sql.Tx) error {
				return b.dialecto.bloquear(ctx, tx, claseEsquema, "")
			},
		})
		if err != nil {
			return err
		}
		if version > 0 {
			return tx.QueryRowContext(ctx, `SELECT valor FROM ajustes WHERE clave = 'arranque'`).Scan(&b.arranque)
		}
		// Created now: the boot identifier and the start-up services.
		b.arranque = o.Arranque
		if b.arranque == "" {
			b.arranque = almacen.NuevoArranque()
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO ajustes (clave, valor) VALUES ('arranque', $1), ('mantenimiento', '0')`, b.arranque); err != nil {
			return err
		}
		for _, s := range o.Semillas {
			if _, err := tx.ExecContext(ctx, `INSERT INTO servicios (equipo, nombre, url, limite_ms, version, retirado) VALUES ($1, $2, $3, $4, 1, 0)`,
				s.Equipo, s.Nombre, s.URL, s.LimiteMs); err != nil {
				return err
			}
		}
		return nil
	})
}

func (b *base) cerrar() error {
	if !b.cerrado.CompareAndSwap(false, true) {
		return nil
	}
	if b.buscar != nil {
		b.buscar.Close()
	}
	return b.db.Close()
}

// Borrar erases the store at donde so that the next Abrir creates it anew: a file with its WAL
// and shared-memory companions, or the tables in a PostgreSQL database (the database stays). No
// process may have it open.
func Borrar(ctx context.Context, donde string) error {
	if basesql.EsPostgres(donde) {
		return borrarPostgres(ctx, donde)
	}
	for _, ruta := range []string{donde, donde + "-wal", donde + "-shm"} {
		if err := os.Remove(ruta); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}
