package basesql

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
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
		return nil, errors.New("la URL no se entiende: " + porQueNoSeEntiende(err))
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

// ExplicarPostgres says in one line, in the course's words, why a PostgreSQL database did not
// open, as ExplicarSQLite does for a file: pgx's own text is English, and when it tried more than
// one way in (TLS, then without) it names the same failure once for each.
func ExplicarPostgres(err error) string {
	var conexion *pgconn.ConnectError
	if !errors.As(err, &conexion) {
		return UnaLinea(err) // connected: what failed after says itself (Migrar's words)
	}
	cfg := conexion.Config
	donde := net.JoinHostPort(cfg.Host, strconv.Itoa(int(cfg.Port)))
	if strings.HasPrefix(cfg.Host, "/") {
		donde = "el socket " + filepath.Join(cfg.Host, ".s.PGSQL."+strconv.Itoa(int(cfg.Port)))
	}
	var (
		pe      *pgconn.PgError
		nombre  *net.DNSError
		errRed  net.Error
		primero = conexion.Unwrap()
	)
	// The first way in tried: the later ones say the same again.
	if varios, ok := primero.(interface{ Unwrap() []error }); ok && len(varios.Unwrap()) > 0 {
		primero = varios.Unwrap()[0]
	}
	switch {
	case errors.As(err, &pe):
		switch pe.Code {
		case "28P01":
			return fmt.Sprintf("PostgreSQL en %s no acepta la contraseña del usuario «%s»", donde, cfg.User)
		case "28000":
			return fmt.Sprintf("PostgreSQL en %s no deja entrar al usuario «%s» desde aquí (pg_hba.conf)", donde, cfg.User)
		case "3D000":
			return fmt.Sprintf("PostgreSQL en %s no tiene la base de datos «%s»", donde, cfg.Database)
		case "53300":
			return fmt.Sprintf("PostgreSQL en %s no admite más conexiones (max_connections)", donde)
		case "57P03":
			return fmt.Sprintf("PostgreSQL en %s está arrancando o deteniéndose; prueba otra vez en un momento", donde)
		}
		return fmt.Sprintf("PostgreSQL en %s respondió: %s", donde, UnaLinea(errors.New(pe.Message)))
	case errors.Is(err, syscall.ECONNREFUSED):
		return "no hay ningún PostgreSQL escuchando en " + donde
	case errors.Is(err, syscall.ENOENT) && strings.HasPrefix(cfg.Host, "/"):
		return "no hay ningún PostgreSQL en " + cfg.Host + " (falta " + strings.TrimPrefix(donde, "el socket ") + ")"
	case errors.As(err, &nombre):
		return "no se encuentra el servidor «" + nombre.Name + "» de la URL"
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &errRed) && errRed.Timeout()):
		return fmt.Sprintf("PostgreSQL en %s no respondió en %s", donde, cfg.ConnectTimeout)
	}
	return "no se pudo conectar con PostgreSQL en " + donde + ": " + UnaLinea(primero)
}

// porQueNoSeEntiende is pgx's reason for a URL it cannot parse, without the URL again (the
// caller's line shows it, its password hidden), in Spanish where the course knows the words.
func porQueNoSeEntiende(err error) string {
	texto := UnaLinea(err)
	if _, motivo, ok := strings.Cut(texto, "`: "); ok {
		texto = motivo
	}
	switch {
	case texto == "invalid port":
		return "el puerto no es un número entre 1 y 65535"
	case strings.HasPrefix(texto, "failed to parse as URL"):
		return "no es una URL postgres://usuario@servidor:puerto/base"
	}
	return texto
}
