package datos

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"cursohttp/internal/prueba"
	"cursohttp/internal/prueba/almacentest"
	"cursohttp/internal/prueba/pgtest"
	"cursohttp/pkg/almacen"
)

// pgtest.Main stops the tests' PostgreSQL; then every connection and timer the tests started must
// have ended.
func TestMain(m *testing.M) { os.Exit(prueba.SinFugas(m, pgtest.Main)) }

func abrirEn(t *testing.T, donde string, o almacen.Opciones) almacen.Almacen {
	t.Helper()
	a, err := Abrir(context.Background(), donde, o)
	if err != nil {
		t.Fatalf("Abrir(%s): %v", donde, err)
	}
	t.Cleanup(func() { a.Cerrar() })
	return a
}

// The embedded store passes the suite every store passes.
func TestSQLite(t *testing.T) {
	t.Parallel()
	almacentest.Probar(t, func(t *testing.T, o almacen.Opciones) almacen.Almacen {
		return abrirEn(t, filepath.Join(t.TempDir(), "revisor.db"), o)
	})
}

// PostgreSQL passes it too, each case on a database of its own on a real server.
func TestPostgres(t *testing.T) {
	t.Parallel()
	pgtest.Base(t) // skips the whole suite at once when there is no server
	almacentest.Probar(t, func(t *testing.T, o almacen.Opciones) almacen.Almacen {
		return abrirEn(t, pgtest.Base(t), o)
	})
}
