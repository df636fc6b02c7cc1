// Package pgtest gives tests a real PostgreSQL: each test its own new database on the server named
// by CURSOHTTP_PG_URL (`make postgres` prints it), or else on a throwaway server this test binary
// starts once (pkg/pgefimero) and stops in Main. No mock stands in for the database. When no server
// can be had, a test skips with one line saying why; with CURSOHTTP_PG_OBLIGATORIO=1 or
// CURSOHTTP_CI=1 (.ci/run sets both) that is a failure instead. Only _test.go files import it.
package pgtest

import (
	"context"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"cursohttp/pkg/pgefimero"
)

// The variables that configure it.
const (
	VariableURL         = "CURSOHTTP_PG_URL"
	VariableObligatorio = "CURSOHTTP_PG_OBLIGATORIO"
)

var (
	una      sync.Once
	servidor string // a database URL on the server, to create the tests' databases from
	motivo   string // why there is none
	propio   *pgefimero.Servidor
	cuenta   atomic.Int64
)

// arranqueMaximo bounds starting a throwaway server (initdb, then the server until it answers): on
// a loaded machine initdb alone took over 30 s, and the test was then skipped, or failed under CI,
// for a server that was only slow. Reaching it means the server is not coming.
const arranqueMaximo = 3 * time.Minute

func preparar() {
	if url := os.Getenv(VariableURL); url != "" {
		servidor = url
		return
	}
	ctx, listo := context.WithTimeout(context.Background(), arranqueMaximo)
	defer listo()
	s, err := pgefimero.Arrancar(ctx, "")
	if err != nil {
		motivo = err.Error()
		return
	}
	propio, servidor = s, s.URL("postgres")
}

// Base returns the URL of a new, empty database for t, dropped when t ends.
func Base(t testing.TB) string {
	t.Helper()
	una.Do(preparar)
	if servidor == "" {
		if os.Getenv(VariableObligatorio) == "1" || os.Getenv("CURSOHTTP_CI") == "1" {
			t.Fatalf("no hay PostgreSQL (%s), y %s=1 pide estas pruebas: %s", VariableURL, VariableObligatorio, motivo)
		}
		t.Skipf("sin PostgreSQL: %s", motivo)
	}
	ctx, listo := context.WithTimeout(context.Background(), 30*time.Second)
	defer listo()
	nombre := fmt.Sprintf("prueba_%d_%d", os.Getpid(), cuenta.Add(1))
	url, err := pgefimero.CrearBase(ctx, servidor, nombre)
	if err != nil {
		t.Fatalf("PostgreSQL en %s: %v", servidor, err)
	}
	t.Cleanup(func() {
		ctx, listo := context.WithTimeout(context.Background(), 30*time.Second)
		defer listo()
		c, err := pgx.Connect(ctx, servidor)
		if err != nil {
			return
		}
		defer c.Close(ctx)
		c.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{nombre}.Sanitize()+" WITH (FORCE)")
	})
	return url
}

// Propio starts a PostgreSQL server for t alone, stopped when t ends: for a test that stops and
// starts the server itself (pgefimero.Servidor.Parar, Reanudar), which must not take the other
// tests' databases with it. It skips or fails as Base does when no server can be started.
func Propio(t testing.TB) *pgefimero.Servidor {
	t.Helper()
	ctx, listo := context.WithTimeout(context.Background(), arranqueMaximo)
	defer listo()
	s, err := pgefimero.Arrancar(ctx, "")
	if err != nil {
		if os.Getenv(VariableObligatorio) == "1" || os.Getenv("CURSOHTTP_CI") == "1" {
			t.Fatalf("no se pudo arrancar un PostgreSQL propio, y %s=1 pide estas pruebas: %v", VariableObligatorio, err)
		}
		t.Skipf("sin PostgreSQL propio: %v", err)
	}
	t.Cleanup(func() { s.Detener() })
	return s
}

// Main runs the tests and then stops the server Base started, if it did: call it from TestMain as
// os.Exit(pgtest.Main(m)).
func Main(m *testing.M) int {
	codigo := m.Run()
	if propio != nil {
		propio.Detener()
	}
	return codigo
}
