// Package basesql is what the revisor's store (pkg/datos) and the class's (pkg/datosclase) do alike
// with their databases, written once: telling a PostgreSQL URL from a file (EsPostgres), opening a
// SQLite file with its pragmas (AbrirSQLite) or a PostgreSQL pool (AbrirPostgres), running a
// transaction (Transaccion), creating or migrating a schema whose version a settings table keeps
// (Migrar), and saying why a database failed in the course's words (ExplicarSQLite,
// ExplicarPostgres, UnaLinea, Repetible). What differs between the two stores — the settings
// table, the words of an error, the lock keys, the pool's size — is a parameter; their schemas and
// queries stay theirs.
//
// A leaf: it imports nothing of the module.
package basesql

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// EsPostgres says whether donde names a PostgreSQL server rather than a file.
func EsPostgres(donde string) bool {
	return strings.HasPrefix(donde, "postgres://") || strings.HasPrefix(donde, "postgresql://")
}

// UnaLinea puts an error on one line, as a program's start-up error is (pgx's connection errors
// give each address tried a line of its own).
func UnaLinea(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}

// Transaccion runs fn in a transaction and commits it; enCommit says the error came from COMMIT,
// so the transaction may have been applied after all.
func Transaccion(ctx context.Context, db *sql.DB, fn func(tx *sql.Tx) error) (enCommit bool, err error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return false, err
	}
	if err := tx.Commit(); err != nil {
		return true, err
	}
	return false, nil
}

// Esquema is a store's schema as Migrar sees it.
type Esquema struct {
	// Ajustes is the settings table (clave, valor) whose row 'esquema' keeps the version: the
	// number of Migraciones applied. Each store has its own, so both can share a database.
	Ajustes string
	// Migraciones are the statements that build the schema, in order; one is only ever appended.
	Migraciones []string
	// MasNueva is the error when the data is newer than this program: a format that takes the
	// data's version and the last this program knows, in the store's own words.
	MasNueva string
	// Bloquear, when not nil, serializes within tx every process that migrates the same schema
	// (on PostgreSQL, an advisory lock; SQLite's immediate transaction needs none).
	Bloquear func(ctx context.Context, tx *sql.Tx) error
}

// Migrar creates or brings up to date e's schema within tx, under e.Bloquear, and returns the
// version the data had: 0 when tx creates it. Run in one transaction with what the caller adds, a
// store is either not created or created whole.
func Migrar(ctx context.Context, tx *sql.Tx, e Esquema) (antes int, err error) {
	if e.Bloquear != nil {
		if err := e.Bloquear(ctx, tx); err != nil {
			return 0, err
		}
	}
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS `+e.Ajustes+` (clave TEXT PRIMARY KEY, valor TEXT NOT NULL)`); err != nil {
		return 0, err
	}
	version := 0
	var texto string
	switch err := tx.QueryRowContext(ctx, `SELECT valor FROM `+e.Ajustes+` WHERE clave = 'esquema'`).Scan(&texto); {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return 0, err
	default:
		if _, err := fmt.Sscan(texto, &version); err != nil {
			return 0, fmt.Errorf("versión de esquema ilegible «%s»", texto)
		}
	}
	ultima := len(e.Migraciones)
	if version > ultima {
		return 0, fmt.Errorf(e.MasNueva, version, ultima)
	}
	for _, m := range e.Migraciones[version:] {
		if _, err := tx.ExecContext(ctx, m); err != nil {
			return 0, fmt.Errorf("migración del esquema: %w", err)
		}
	}
	if version < ultima {
		if _, err := tx.ExecContext(ctx, `INSERT INTO `+e.Ajustes+` (clave, valor) VALUES ('esquema', $1)
			ON CONFLICT (clave) DO UPDATE SET valor = excluded.valor`, fmt.Sprint(ultima)); err != nil {
			return 0, err
		}
	}
	return version, nil
}
