package basesql

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"cursohttp/internal/prueba"
	"cursohttp/internal/prueba/pgtest"
)

// pgtest.Main stops the tests' PostgreSQL; then every connection the tests opened must be closed.
func TestMain(m *testing.M) { os.Exit(prueba.SinFugas(m, pgtest.Main)) }

var ctx = context.Background()

func debe(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func archivo(t *testing.T, pragmas ...string) *sql.DB {
	t.Helper()
	db, err := AbrirSQLite(filepath.Join(t.TempDir(), "prueba.db"), 1, pragmas...)
	debe(t, err)
	t.Cleanup(func() { db.Close() })
	return db
}

var tablas = []string{
	`CREATE TABLE una (id INTEGER PRIMARY KEY)`,
	`CREATE TABLE otra (id INTEGER PRIMARY KEY)`,
	`CREATE TABLE tercera (id INTEGER PRIMARY KEY)`,
}

func migrar(db *sql.DB, e Esquema) (antes int, err error) {
	_, err = Transaccion(ctx, db, func(tx *sql.Tx) error {
		antes, err = Migrar(ctx, tx, e)
		return err
	})
	return antes, err
}

func version(t *testing.T, db *sql.DB, ajustes string) string {
	t.Helper()
	var v string
	debe(t, db.QueryRowContext(ctx, `SELECT valor FROM `+ajustes+` WHERE clave = 'esquema'`).Scan(&v))
	return v
}

// A schema is created, then brought up to date by what was appended, then left as it is; its
// version is in the settings table the store names.
func TestMigrar(t *testing.T) {
	t.Parallel()
	db := archivo(t, "journal_mode(WAL)")
	e := Esquema{Ajustes: "mis_ajustes", Migraciones: tablas[:2], MasNueva: "más nueva: %d > %d"}
	for _, paso := range []struct {
		migraciones []string
		antes       int
	}{{tablas[:2], 0}, {tablas, 2}, {tablas, 3}} {
		e.Migraciones = paso.migraciones
		antes, err := migrar(db, e)
		if err != nil || antes != paso.antes {
			t.Fatalf("Migrar con %d = %d, %v; se esperaba %d", len(paso.migraciones), antes, err, paso.antes)
		}
		if v := version(t, db, "mis_ajustes"); v != fmt.Sprint(len(paso.migraciones)) {
			t.Errorf("esquema %s tras %d migraciones", v, len(paso.migraciones))
		}
	}
	debe(t, db.QueryRowContext(ctx, `SELECT count(*) FROM tercera`).Scan(new(int)))
}

// What stops a migration is said in the store's words or the module's, and changes nothing.
func TestMigrarErrores(t *testing.T) {
	t.Parallel()
	db := archivo(t)
	e := Esquema{Ajustes: "ajustes", Migraciones: tablas, MasNueva: "los datos son de otra versión (esquema %d; este conoce hasta el %d)"}
	_, err := migrar(db, e)
	debe(t, err)

	e.Migraciones = tablas[:1]
	if _, err := migrar(db, e); err == nil || err.Error() != "los datos son de otra versión (esquema 3; este conoce hasta el 1)" {
		t.Errorf("datos más nuevos: %v", err)
	}
	_, err = db.ExecContext(ctx, `UPDATE ajustes SET valor = 'tres' WHERE clave = 'esquema'`)
	debe(t, err)
	if _, err := migrar(db, e); err == nil || err.Error() != "versión de esquema ilegible «tres»" {
		t.Errorf("versión ilegible: %v", err)
	}
	_, err = db.ExecContext(ctx, `UPDATE ajustes SET valor = '3' WHERE clave = 'esquema'`)
	debe(t, err)

	e.Migraciones = append(tablas[:3:3], `CREATE TABLE cuarta (id INTEGER PRIMARY KEY)`, `ESTO NO ES SQL`)
	if _, err := migrar(db, e); err == nil || !strings.HasPrefix(err.Error(), "migración del esquema: ") {
		t.Errorf("migración que falla: %v", err)
	}
	if v := version(t, db, "ajustes"); v != "3" {
		t.Errorf("esquema %s tras una migración que falló; se esperaba 3", v)
	}
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM cuarta`).Scan(new(int)); err == nil {
		t.Error("la migración que falló dejó la tabla cuarta")
	}
}

// Several processes opening one new PostgreSQL database at once: Bloquear lets one create the
// schema, and the others find it made.
func TestMigrarALaVezEnPostgres(t *testing.T) {
	t.Parallel()
	url := pgtest.Base(t)
	const procesos = 6
	var creado atomic.Int32
	var wg sync.WaitGroup
	for range procesos {
		wg.Go(func() {
			db, err := AbrirPostgres(url, 1)
			if err != nil {
				t.Error(err)
				return
			}
			defer db.Close()
			e := Esquema{Ajustes: "ajustes", Migraciones: tablas, MasNueva: "%d %d",
				Bloquear: func(ctx context.Context, tx *sql.Tx) error {
					_, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(42)`)
					return err
				}}
			antes, err := migrar(db, e)
			if err != nil {
				t.Error(err)
			}
			if antes == 0 {
				creado.Add(1)
			}
		})
	}
	wg.Wait()
	if n := creado.Load(); n != 1 {
		t.Errorf("%d procesos crearon el esquema; se esperaba uno", n)
	}
}

// Each pragma reaches the connection, in the order given, and the pool has the size asked.
func TestAbrirSQLite(t *testing.T) {
	t.Parallel()
	ruta := filepath.Join(t.TempDir(), "con espacios y ñ.db")
	db, err := AbrirSQLite(ruta, 3, "busy_timeout(1234)", "journal_mode(WAL)", "synchronous(FULL)", "foreign_keys(1)")
	debe(t, err)
	defer db.Close()
	var modo string
	var espera, sincronia, claves int
	for consulta, destino := range map[string]any{"PRAGMA journal_mode": &modo, "PRAGMA busy_timeout": &espera,
		"PRAGMA synchronous": &sincronia, "PRAGMA foreign_keys": &claves} {
		debe(t, db.QueryRowContext(ctx, consulta).Scan(destino))
	}
	if modo != "wal" || espera != 1234 || sincronia != 2 || claves != 1 {
		t.Errorf("journal_mode=%s busy_timeout=%d synchronous=%d foreign_keys=%d", modo, espera, sincronia, claves)
	}
	if n := db.Stats().MaxOpenConnections; n != 3 {
		t.Errorf("MaxOpenConnections = %d; se esperaba 3", n)
	}
	if _, err := os.Stat(ruta); err != nil {
		t.Errorf("el archivo no está donde se pidió: %v", err)
	}
}

// SQLite's codes become the course's lines; the store says its own for a file another holds.
func TestExplicarSQLite(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	basura := filepath.Join(dir, "basura.db")
	debe(t, os.WriteFile(basura, []byte(strings.Repeat("esto no es SQLite\n", 100)), 0o600))
	db, err := AbrirSQLite(basura, 1)
	debe(t, err)
	defer db.Close()
	_, err = db.ExecContext(ctx, `CREATE TABLE t (x)`)
	if got := ExplicarSQLite(err, "ocupado"); got == nil || got.Error() != "no es una base de datos SQLite" {
		t.Errorf("un archivo que no es SQLite: %v (de %v)", got, err)
	}

	ruta := filepath.Join(dir, "tomado.db")
	duenio, err := AbrirSQLite(ruta, 1, "locking_mode(EXCLUSIVE)")
	debe(t, err)
	defer duenio.Close()
	_, err = duenio.ExecContext(ctx, `CREATE TABLE t (x)`)
	debe(t, err)
	otro, err := AbrirSQLite(ruta, 1, "busy_timeout(0)")
	debe(t, err)
	defer otro.Close()
	_, err = otro.ExecContext(ctx, `INSERT INTO t VALUES (1)`)
	if got := ExplicarSQLite(err, "lo tiene otro"); got == nil || got.Error() != "lo tiene otro" {
		t.Errorf("un archivo tomado: %v (de %v)", got, err)
	}

	otra := errors.New("otra cosa")
	if got := ExplicarSQLite(otra, "ocupado"); got != otra {
		t.Errorf("un error que no es de SQLite: %v", got)
	}
}

func TestAbrirPostgres(t *testing.T) {
	t.Parallel()
	if _, err := AbrirPostgres("postgres://[::1", 4); err == nil || !strings.HasPrefix(err.Error(), "la URL no se entiende: ") ||
		strings.Contains(err.Error(), "\n") {
		t.Errorf("una URL rota: %v", err)
	}
	db, err := AbrirPostgres(pgtest.Base(t), 4)
	debe(t, err)
	defer db.Close()
	debe(t, db.PingContext(ctx))
	if n := db.Stats().MaxOpenConnections; n != 4 {
		t.Errorf("MaxOpenConnections = %d; se esperaba 4", n)
	}
}

func TestRepetible(t *testing.T) {
	t.Parallel()
	casos := []struct {
		err  error
		otra bool
	}{
		{&pgconn.PgError{Code: "40P01"}, true},
		{fmt.Errorf("alta: %w", &pgconn.PgError{Code: "40001"}), true},
		{&pgconn.PgError{Code: "23505"}, false},
		{errors.New("40001"), false},
		{nil, false},
	}
	for _, c := range casos {
		if got := Repetible(c.err); got != c.otra {
			t.Errorf("Repetible(%v) = %v", c.err, got)
		}
	}
}

func TestEsPostgresYUnaLinea(t *testing.T) {
	t.Parallel()
	for donde, quiere := range map[string]bool{"postgres://x/y": true, "postgresql://x/y": true, "revisor.db": false,
		"./postgres://x": false, "": false} {
		if EsPostgres(donde) != quiere {
			t.Errorf("EsPostgres(%q) = %v", donde, !quiere)
		}
	}
	if got := UnaLinea(errors.New("uno\n  dos\t tres\n")); got != "uno dos tres" {
		t.Errorf("UnaLinea = %q", got)
	}
}

// Why a PostgreSQL database did not open, in one line of the course's words, whatever pgx tried:
// before, «failed to connect to `user=nadie database=x`: 127.0.0.1:1 (127.0.0.1): dial error: …»
// twice, once for TLS and once without (issue 42).
func TestExplicarPostgres(t *testing.T) {
	t.Parallel()
	cerrado, err := net.Listen("tcp", "127.0.0.1:0")
	debe(t, err)
	libre := cerrado.Addr().String()
	cerrado.Close()
	mudo, err := net.Listen("tcp", "127.0.0.1:0")
	debe(t, err)
	aceptadas := make(chan net.Conn, 16)
	go func() {
		for {
			c, err := mudo.Accept()
			if err != nil {
				close(aceptadas)
				return
			}
			aceptadas <- c // accepted and never answered
		}
	}()
	defer func() {
		mudo.Close()
		for c := range aceptadas {
			c.Close()
		}
	}()
	sinSocket := t.TempDir()
	casos := []struct{ url, quiere string }{
		{"postgres://nadie@" + libre + "/x", "no hay ningún PostgreSQL escuchando en " + libre},
		{"postgres://nadie@/x?host=" + sinSocket, "no hay ningún PostgreSQL en " + sinSocket + " (falta " + sinSocket + "/.s.PGSQL.5432)"},
		{"postgres://nadie@noexiste.invalid/x", "no se encuentra el servidor «noexiste.invalid» de la URL"},
		{"postgres://nadie@" + mudo.Addr().String() + "/x?connect_timeout=1", "PostgreSQL en " + mudo.Addr().String() + " no respondió en 1s"},
	}
	for _, c := range casos {
		db, err := AbrirPostgres(c.url, 1)
		debe(t, err)
		err = db.PingContext(ctx)
		db.Close()
		if got := ExplicarPostgres(err); got != c.quiere {
			t.Errorf("%s: %q\n(pgx: %v)", c.url, got, err)
		}
	}
	if _, err := AbrirPostgres("postgres://x:clave@z:abc/q", 1); err == nil || err.Error() != "la URL no se entiende: el puerto no es un número entre 1 y 65535" {
		t.Errorf("un puerto que no es un número: %v", err)
	}
	// A database that is not there, on a real server.
	base := pgtest.Base(t)
	u, err := url.Parse(base)
	debe(t, err)
	u.Path = "/no_hay_tal_base"
	db, err := AbrirPostgres(u.String(), 1)
	debe(t, err)
	defer db.Close()
	if got := ExplicarPostgres(db.PingContext(ctx)); !strings.HasPrefix(got, "PostgreSQL en el socket ") || !strings.HasSuffix(got, " no tiene la base de datos «no_hay_tal_base»") {
		t.Errorf("una base que no existe: %q", got)
	}
	// After connecting, what failed says itself.
	despues := fmt.Errorf("migración 3: %w", &pgconn.PgError{Severity: "ERROR", Message: "permiso\ndenegado", Code: "42501"})
	if got := ExplicarPostgres(despues); got != UnaLinea(despues) {
		t.Errorf("un error después de conectar: %q", got)
	}
}
