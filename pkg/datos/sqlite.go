package datos

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"cursohttp/pkg/almacen"
	"cursohttp/pkg/basesql"
	"cursohttp/pkg/limitador"
)

// SQLite keeps the store in one file, for one process. The file is held in exclusive locking mode
// from the moment it opens, so a second revisor on the same file is refused at start-up instead of
// sharing it; and so, when it opens, every key still reserved and every check still pending was
// left by a process that is gone: the reservations are dropped (they created nothing) and the
// checks are handed to this process (Huerfanas).
//
// WAL with synchronous=NORMAL: a commit survives the process being killed (the write is in the
// operating system's hands when COMMIT returns), not a power cut, which may lose the last
// commits but never corrupts the file.
type sqliteAlmacen struct {
	base
	mantenimiento atomic.Bool // the file's value: this process is its only writer
}

var migracionesSQLite = []string{
	`CREATE TABLE servicios (
		id INTEGER PRIMARY KEY AUTOINCREMENT,
		equipo TEXT NOT NULL,
		nombre TEXT NOT NULL,
		url TEXT NOT NULL,
		limite_ms INTEGER NOT NULL,
		version INTEGER NOT NULL,
		retirado INTEGER NOT NULL DEFAULT 0
	)`,
	`CREATE UNIQUE INDEX servicios_nombre ON servicios (equipo, nombre) WHERE retirado = 0`,
	`CREATE INDEX servicios_equipo ON servicios (equipo, id) WHERE retirado = 0`,
	`CREATE TABLE revisiones (
		id INTEGER PRIMARY KEY AUTOINCREMENT,
		servicio INTEGER NOT NULL,
		terminada INTEGER NOT NULL DEFAULT 0,
		estado TEXT,
		codigo INTEGER,
		ms INTEGER,
		detalle TEXT,
		instancia INTEGER
	)`,
	`CREATE INDEX revisiones_servicio ON revisiones (servicio, id)`,
	`CREATE INDEX revisiones_pendientes ON revisiones (instancia) WHERE terminada = 0`,
	`CREATE TABLE llaves (
		id BLOB PRIMARY KEY,
		credencial TEXT NOT NULL,
		huella TEXT NOT NULL,
		desde INTEGER NOT NULL,
		orden INTEGER NOT NULL,
		instancia INTEGER,
		codigo INTEGER,
		cabeceras TEXT,
		cuerpo BLOB
	)`,
	`CREATE INDEX llaves_credencial ON llaves (credencial, orden)`,
	`CREATE INDEX llaves_orden ON llaves (orden)`,
	`CREATE INDEX llaves_desde ON llaves (desde)`,
	// Issue 22: a reservation is a lease, named by its ficha.
	`ALTER TABLE llaves ADD COLUMN ficha INTEGER`,
	`ALTER TABLE llaves ADD COLUMN hasta INTEGER`,
	`CREATE INDEX llaves_en_curso ON llaves (credencial) WHERE codigo IS NULL`,
}

func abrirSQLite(ctx context.Context, ruta string, o almacen.Opciones) (almacen.Almacen, error) {
	if dir := filepath.Dir(ruta); dir != "" {
		if _, err := os.Stat(dir); err != nil {
			return nil, fmt.Errorf("no existe la carpeta %s", dir)
		}
	}
	if st, err := os.Stat(ruta); err == nil && st.IsDir() {
		return nil, fmt.Errorf("%s es una carpeta, no un archivo", ruta)
	}
	// One connection: SQLite has one writer anyway, and exclusive mode keeps the lock with it.
	db, err := basesql.AbrirSQLite(ruta, 1, "busy_timeout(0)", "locking_mode(EXCLUSIVE)", "journal_mode(WAL)",
		"synchronous(NORMAL)", "foreign_keys(0)")
	if err != nil {
		return nil, err
	}
	o.Llaves = o.Llaves.Normalizadas()
	a := &sqliteAlmacen{base: base{db: db, dialecto: dialectoSQLite{}, instancia: azar(), llaves: o.Llaves, reloj: o.Llaves.Reloj}}
	if err := a.abrir(ctx, o); err != nil {
		db.Close()
		return nil, basesql.ExplicarSQLite(err, ocupado)
	}
	return a, nil
}

func (a *sqliteAlmacen) abrir(ctx context.Context, o almacen.Opciones) error {
	if err := a.inicializar(ctx, o, migracionesSQLite); err != nil {
		return err
	}
	// Whatever the previous process left reserved created nothing: free it.
	if _, err := a.db.ExecContext(ctx, `DELETE FROM llaves WHERE codigo IS NULL`); err != nil {
		return err
	}
	var valor string
	if err := a.db.QueryRowContext(ctx, `SELECT valor FROM ajustes WHERE clave = 'mantenimiento'`).Scan(&valor); err != nil {
		return err
	}
	a.mantenimiento.Store(valor == "1")
	var err error
	a.buscar, err = a.db.PrepareContext(ctx, consultaBuscar)
	return err
}

// ocupado is the revisor's line for a file another process holds (basesql.ExplicarSQLite).
const ocupado = "otro proceso lo tiene abierto (¿otro revisor con el mismo --datos?)"

func (a *sqliteAlmacen) Mantenimiento(context.Context) (bool, error) {
	if a.cerrado.Load() {
		return false, errCerrado
	}
	return a.mantenimiento.Load(), nil
}

func (a *sqliteAlmacen) PonerMantenimiento(ctx context.Context, activo bool) error {
	valor := "0"
	if activo {
		valor = "1"
	}
	if _, err := a.db.ExecContext(ctx, `UPDATE ajustes SET valor = $1 WHERE clave = 'mantenimiento'`, valor); err != nil {
		return err
	}
	a.mantenimiento.Store(activo)
	return nil
}

// Contador implements almacen.Almacen: one process per file, so the windows stay in the process
// (a restart opens new windows, as in memory).
func (a *sqliteAlmacen) Contador(_ string, f limitador.Fabrica, cuota int, ventana time.Duration) almacen.Contador {
	return almacen.EnProceso(f(cuota, ventana))
}

func (a *sqliteAlmacen) Cerrar() error { return a.cerrar() }

type dialectoSQLite struct{}

// bloquear: an immediate transaction already holds the only write lock.
func (dialectoSQLite) bloquear(context.Context, *sql.Tx, int32, string) error { return nil }

func (dialectoSQLite) paraCambiar() string { return "" }

// muerta: another instancia in the file is a process that is gone (the file is exclusive).
func (dialectoSQLite) muerta(context.Context, *sql.Tx, int64) (bool, error) { return true, nil }

func (dialectoSQLite) reintentable(error) bool { return false }
