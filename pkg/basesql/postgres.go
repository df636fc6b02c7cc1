package basesql

import (
	"database/sql"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// EsperaConexion bounds how long opening waits for the server: each connection's ConnectTimeout.
// A store's whole opening (connecting, then migrating) is bounded by twice it, so a server that is
// not there is said at once.
const EsperaConexion = 5 * time.Second

// AbrirPostgres opens a pool of at most conexiones on the server the URL texto names; idle
// connections close after a minute. Nothing connects until the first query. A URL that does not
// parse is said in one line.
func AbrirPostgres(texto string, conexiones int) (*sql.DB, error) {
	cfg, err := pgx.ParseConfig(texto)
	if err != nil {
		return nil, errors.New("la URL no se entiende: " + UnaLinea(err))
	}
	if cfg.ConnectTimeout == 0 || cfg.ConnectTimeout > EsperaConexion {
		cfg.ConnectTimeout = EsperaConexion
	}
	db := stdlib.OpenDB(*cfg)
	db.SetMaxOpenConns(conexiones)
	db.SetMaxIdleConns(conexiones)
	db.SetConnMaxIdleTime(time.Minute)
	return db, nil
}

// Repetible says whether PostgreSQL aborted a transaction only to order it with another (a
// deadlock detected, a serialization failure): the same transaction, run again, may succeed.
func Repetible(err error) bool {
	var e *pgconn.PgError
	return errors.As(err, &e) && (e.Code == "40P01" || e.Code == "40001")
}
