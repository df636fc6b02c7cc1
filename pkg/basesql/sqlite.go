package basesql

import (
	"database/sql"
	"errors"
	"net/url"

	sqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// AbrirSQLite opens the SQLite file at ruta with each of pragmas, in order (the order matters:
// locking_mode before journal_mode keeps a WAL in exclusive mode off shared memory), on a pool of
// conexiones that never close on their own. A transaction starts with the write lock taken
// (_txlock=immediate), so none has to be retried for a lock it took too late. Nothing is read
// until the first query: that is where a file that is no database, or is locked, fails.
func AbrirSQLite(ruta string, conexiones int, pragmas ...string) (*sql.DB, error) {
	dsn := "file:" + (&url.URL{Path: ruta}).EscapedPath() + "?_txlock=immediate"
	for _, p := range pragmas {
		dsn += "&_pragma=" + p
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(conexiones)
	db.SetMaxIdleConns(conexiones)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	return db, nil
}

// ExplicarSQLite says in the course's words why a file could not be opened; ocupado is the store's
// own line for a file another process holds. Any other error is returned as it is.
func ExplicarSQLite(err error, ocupado string) error {
	var e *sqlite.Error
	if errors.As(err, &e) {
		switch e.Code() & 0xff {
		case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
			return errors.New(ocupado)
		case sqlite3.SQLITE_NOTADB:
			return errors.New("no es una base de datos SQLite")
		case sqlite3.SQLITE_CANTOPEN:
			return errors.New("no se puede abrir ni crear el archivo")
		case sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PERM:
			return errors.New("no se puede escribir en el archivo")
		}
	}
	return err
}
