package datosclase

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"cursohttp/pkg/basesql"
	"cursohttp/pkg/matricula"
)

var migracionesSQLite = []string{
	`CREATE TABLE clase_alumnos (
		id INTEGER PRIMARY KEY AUTOINCREMENT,
		nombre TEXT NOT NULL,
		esqueleto TEXT NOT NULL,
		alta INTEGER NOT NULL,
		huella BLOB
	)`,
	`CREATE UNIQUE INDEX clase_alumnos_nombre ON clase_alumnos (nombre)`,
	`CREATE UNIQUE INDEX clase_alumnos_esqueleto ON clase_alumnos (esqueleto)`,
	`CREATE UNIQUE INDEX clase_alumnos_huella ON clase_alumnos (huella)`,
	`CREATE TABLE clase_calificaciones (
		orden INTEGER PRIMARY KEY AUTOINCREMENT,
		id TEXT NOT NULL,
		alumno INTEGER NOT NULL REFERENCES clase_alumnos (id) ON DELETE CASCADE,
		inicio INTEGER NOT NULL,
		fin INTEGER NOT NULL,
		semilla INTEGER NOT NULL,
		comprobaciones TEXT NOT NULL,
		informe TEXT NOT NULL
	)`,
	`CREATE UNIQUE INDEX clase_calificaciones_id ON clase_calificaciones (id)`,
	`CREATE INDEX clase_calificaciones_alumno ON clase_calificaciones (alumno, orden)`,
	// Issue 32: the predictions asked in class and each student's answers.
	`CREATE TABLE clase_rondas (
		orden INTEGER PRIMARY KEY AUTOINCREMENT,
		id TEXT NOT NULL,
		ejercicio TEXT NOT NULL,
		abierta INTEGER NOT NULL,
		revelada INTEGER NOT NULL DEFAULT 0,
		reales TEXT NOT NULL DEFAULT ''
	)`,
	`CREATE UNIQUE INDEX clase_rondas_id ON clase_rondas (id)`,
	`CREATE TABLE clase_respuestas (
		ronda INTEGER NOT NULL REFERENCES clase_rondas (orden) ON DELETE CASCADE,
		alumno INTEGER NOT NULL REFERENCES clase_alumnos (id) ON DELETE CASCADE,
		pregunta TEXT NOT NULL,
		valor TEXT NOT NULL,
		cuando INTEGER NOT NULL,
		PRIMARY KEY (ronda, alumno, pregunta)
	)`,
	`CREATE INDEX clase_respuestas_alumno ON clase_respuestas (alumno)`,
	// Issue 40: names that read the same once case, accents and punctuation are set aside are one
	// (matricula.Clave); the rows of an older roster get theirs in the same migration (clavesEn).
	`ALTER TABLE clase_alumnos ADD COLUMN clave TEXT`,
	`CREATE UNIQUE INDEX clase_alumnos_clave ON clase_alumnos (clave)`,
}

// abrirSQLite opens (or creates, 0600 in a 0700 folder: it holds the class's names and grades) the
// file at ruta.
//
// WAL with synchronous=FULL: each COMMIT waits for the WAL to reach the disk (fsync), so a write
// that returned survives a power cut too, not only a kill -9 (which is all NORMAL promises). A
// class writes one grading per run of a student's client, and the fsync is cheap next to a run
// (BenchmarkAnotar measures it).
//
// Unlike the revisor's file, this one is not held exclusively: the instructor's commands may change
// the roster while the class lab runs. A writer waits up to 5 s for another process's write
// (busy_timeout), and starts its transaction with the write lock (_txlock=immediate), so none has
// to be retried. Foreign keys are on: a student's gradings go with it.
func abrirSQLite(ctx context.Context, ruta string) (matricula.Almacen, error) {
	fallo := func(err error) (matricula.Almacen, error) {
		return nil, fmt.Errorf("no se puede abrir la clase en %s: %s", ruta, basesql.UnaLinea(err))
	}
	if st, err := os.Stat(ruta); err == nil && st.IsDir() {
		return fallo(errors.New("es una carpeta, no un archivo"))
	}
	if err := os.MkdirAll(filepath.Dir(ruta), 0o700); err != nil {
		return fallo(err)
	}
	// Made here, with its permissions: SQLite would make it 0644 (and its -wal and -shm files take
	// the main file's).
	f, err := os.OpenFile(ruta, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fallo(err)
	}
	f.Close()
	// Readers on connections of their own (WAL lets them read while one writes); writers take
	// turns on almacenSQL.escritura.
	db, err := basesql.AbrirSQLite(ruta, 4, "busy_timeout(5000)", "journal_mode(WAL)", "synchronous(FULL)", "foreign_keys(1)")
	if err != nil {
		return fallo(err)
	}
	a := &almacenSQL{db: db}
	if err := a.migrar(ctx, migracionesSQLite); err != nil {
		db.Close()
		return fallo(basesql.ExplicarSQLite(err, ocupado))
	}
	return a, nil
}

// ocupado is the class's line for a file another process holds (basesql.ExplicarSQLite).
const ocupado = "otro proceso lo tiene bloqueado"
