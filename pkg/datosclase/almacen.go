package datosclase

import (
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"cursohttp/pkg/basesql"
	"cursohttp/pkg/matricula"
	"cursohttp/pkg/reintento"
	"cursohttp/pkg/topes"
)

// Abrir opens the class's store at datos — a postgres:// (or postgresql://) URL, or else the path
// of a SQLite file, created with its folder if missing — creating or migrating its tables. Its
// tables are named clase_…, so it can share a database with the revisor's.
func Abrir(ctx context.Context, datos string) (matricula.Almacen, error) {
	if strings.TrimSpace(datos) == "" {
		return nil, errors.New("falta dónde guardar la clase: la ruta de un archivo o una URL postgres://")
	}
	if basesql.EsPostgres(datos) {
		return abrirPostgres(ctx, datos)
	}
	return abrirSQLite(ctx, datos)
}

// almacenSQL is the store on either database: the queries are the same SQL (`$n` means the same in
// both), and where they differ it asks postgres.
type almacenSQL struct {
	db       *sql.DB
	postgres bool
	// escritura lets one of this process's writes at a time into SQLite, which has one writer
	// anyway: the others wait here instead of in SQLite's busy loop, which polls.
	escritura sync.Mutex
	cerrado   atomic.Bool
}

// EsperaReinicio is how long an operation on PostgreSQL keeps trying while the connection is
// broken: longer than a database takes to restart, so a restart mid-class loses no grading.
const EsperaReinicio = 30 * time.Second

// The pauses between those tries: short at first (a connection cut is back at once), at most a
// second (a restart takes seconds).
const (
	pausaInicial = 50 * time.Millisecond
	pausaMaxima  = time.Second
)

var errCerrado = errors.New("el almacén de la clase está cerrado")

// masNueva is the class's words for data a newer program made (basesql.Esquema.MasNueva).
const masNueva = "los datos de la clase son de una versión más nueva (esquema %d; esta conoce hasta el %d)"

// migrar creates or brings up to date the tables, in one transaction: a store is either not
// created or created whole. The version is in clase_ajustes, apart from the revisor's own.
func (a *almacenSQL) migrar(ctx context.Context, migraciones []string) error {
	_, err := basesql.Transaccion(ctx, a.db, func(tx *sql.Tx) error {
		antes, err := basesql.Migrar(ctx, tx, basesql.Esquema{
			Ajustes: "clase_ajustes", Migraciones: migraciones, MasNueva: masNueva,
			Bloquear: func(ctx context.Context, tx *sql.Tx) error { return a.bloquear(ctx, tx, candadoEsquema) },
		})
		if err == nil && antes > 0 && antes < len(migraciones) {
			err = clavesEn(ctx, tx)
		}
		return err
	})
	return err
}

// clavesEn gives each row of a roster made before issue 40 its key (matricula.Clave), in the
// migration's transaction. Two rows of that roster may read the same: the first keeps the key and
// the later ones stay without (NULL, which the unique index lets be), so nobody is lost, and a
// new name that reads as them is refused by the first.
func clavesEn(ctx context.Context, tx *sql.Tx) error {
	filas, err := tx.QueryContext(ctx, `SELECT id, nombre FROM clase_alumnos WHERE clave IS NULL ORDER BY id`)
	if err != nil {
		return err
	}
	type fila struct {
		id     int64
		nombre string
	}
	var l []fila
	for filas.Next() {
		var f fila
		if err := filas.Scan(&f.id, &f.nombre); err != nil {
			filas.Close()
			return err
		}
		l = append(l, f)
	}
	if err := cmp.Or(filas.Err(), filas.Close()); err != nil {
		return err
	}
	tomadas := map[string]bool{}
	for _, f := range l {
		k := matricula.Clave(f.nombre)
		if tomadas[k] {
			continue
		}
		tomadas[k] = true
		if _, err := tx.ExecContext(ctx, `UPDATE clase_alumnos SET clave = $2 WHERE id = $1`, f.id, k); err != nil {
			return err
		}
	}
	return nil
}

// Advisory locks on PostgreSQL (single-key, a space apart from the revisor's two-key ones): the
// schema while it migrates, and the roster while one write changes it (the bound and the
// skeletons are checked, then written).
const (
	candadoEsquema int64 = 0x636c617365_01 + iota // "clase"
	candadoLista
)

// bloquear holds candado until tx ends. SQLite needs none: its transactions start with the file's
// only write lock (_txlock=immediate).
func (a *almacenSQL) bloquear(ctx context.Context, tx *sql.Tx, candado int64) error {
	if !a.postgres {
		return nil
	}
	_, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, candado)
	return err
}

// paraCambiar locks the rows a SELECT reads until the transaction ends (PostgreSQL; SQLite's
// transaction already excludes every other writer).
func (a *almacenSQL) paraCambiar() string {
	if a.postgres {
		return " FOR UPDATE"
	}
	return ""
}

// escribir runs fn in one transaction. On PostgreSQL a transaction cut by a broken connection runs
// again (insistir); fn is told whether an earlier run may have committed (the connection broke
// during COMMIT), and each write is made so that running it twice does what running it once did.
func (a *almacenSQL) escribir(ctx context.Context, fn func(tx *sql.Tx, quizaHecha bool) error) error {
	if !a.postgres {
		if a.cerrado.Load() {
			return errCerrado
		}
		a.escritura.Lock()
		defer a.escritura.Unlock()
		if a.cerrado.Load() { // closed while this write waited
			return errCerrado
		}
		_, err := basesql.Transaccion(ctx, a.db, func(tx *sql.Tx) error { return fn(tx, false) })
		return err
	}
	quiza := false
	return a.insistir(ctx, func() error {
		enCommit, err := basesql.Transaccion(ctx, a.db, func(tx *sql.Tx) error { return fn(tx, quiza) })
		quiza = quiza || enCommit
		return err
	})
}

// leer runs a read, again as escribir when the connection broke.
func (a *almacenSQL) leer(ctx context.Context, fn func() error) error {
	if !a.postgres {
		if a.cerrado.Load() {
			return errCerrado
		}
		return fn()
	}
	return a.insistir(ctx, fn)
}

// insistir runs intento until it succeeds, fails for another reason than a broken connection
// (conexionCaida), or the database has been away EsperaReinicio; between tries it waits a little
// more each time.
func (a *almacenSQL) insistir(ctx context.Context, intento func() error) error {
	var desde time.Time
	for pausa := pausaInicial; ; pausa = min(2*pausa, pausaMaxima) {
		if a.cerrado.Load() {
			return errCerrado
		}
		err := intento()
		if err == nil || !conexionCaida(err) || ctx.Err() != nil {
			return err
		}
		if desde.IsZero() {
			desde = time.Now()
		} else if time.Since(desde) > EsperaReinicio {
			return fmt.Errorf("PostgreSQL no responde desde hace %v: %w", time.Since(desde).Round(time.Second), err)
		}
		if err := reintento.Dormir(ctx, pausa); err != nil {
			return err
		}
	}
}

// A credential in clear is the prefix and 26 base32 characters from crypto/rand (130 bits), in
// lowercase, so it is read out and typed without doubt.
const (
	prefijoCredencial = "cl-"
	largoCredencial   = len(prefijoCredencial) + 26 // rand.Text's length
)

func nuevaCredencial(alumno string) matricula.Credencial {
	return matricula.Credencial{Alumno: alumno, Secreto: prefijoCredencial + strings.ToLower(rand.Text())}
}

// huella is what the store keeps of a credential. A plain SHA-256, not a slow password hash: the
// secret is 130 random bits, which no one guesses however fast they can hash.
func huella(secreto string) []byte {
	h := sha256.Sum256([]byte(secreto))
	return h[:]
}

func noEsta(nombre string) error {
	return fmt.Errorf("%w: «%s»", matricula.ErrNoEsta, matricula.Visible(nombre))
}

// yaEsta is nombre refused for otro, in the roster (or, mismaLista, before it in the names added).
func yaEsta(nombre, otro string, mismaLista bool) error {
	return &matricula.NombreRepetido{Nombre: nombre, Otro: otro, MismaLista: mismaLista}
}

// normalizado is the roster's spelling of a name a caller gives; a name that cannot be in the
// roster is matricula.ErrNoEsta.
func normalizado(nombre string) (string, error) {
	n, err := matricula.Normalizar(nombre)
	if err != nil {
		return "", noEsta(nombre)
	}
	return n, nil
}

func (a *almacenSQL) Agregar(ctx context.Context, nombres []string) ([]matricula.Credencial, error) {
	if len(nombres) > topes.Alumnos {
		return nil, fmt.Errorf("%w: son %d nombres y caben %d", matricula.ErrClaseLlena, len(nombres), topes.Alumnos)
	}
	credenciales := make([]matricula.Credencial, len(nombres))
	// Within the names added too: a name that reads as one before it (by its skeleton, which keeps
	// case, or by its key, which does not).
	leidos := make(map[string]string, 2*len(nombres))
	for i, n := range nombres {
		n, err := matricula.Normalizar(n)
		if err != nil {
			return nil, err
		}
		for _, k := range []string{"e" + matricula.Esqueleto(n), "c" + matricula.Clave(n)} {
			if otro, ok := leidos[k]; ok {
				return nil, yaEsta(n, otro, true)
			}
			leidos[k] = n
		}
		credenciales[i] = nuevaCredencial(n)
	}
	if len(nombres) == 0 {
		return credenciales, nil
	}
	alta := time.Now().UnixMicro()
	err := a.escribir(ctx, func(tx *sql.Tx, quizaHecha bool) error {
		return a.agregarEn(ctx, tx, credenciales, alta, quizaHecha)
	})
	if err != nil {
		return nil, err
	}
	return credenciales, nil
}

// agregarEn is Agregar's transaction. Its credentials are drawn before, once, so a run after one
// that may have committed can tell it did.
func (a *almacenSQL) agregarEn(ctx context.Context, tx *sql.Tx, credenciales []matricula.Credencial, alta int64, quizaHecha bool) error {
	if err := a.bloquear(ctx, tx, candadoLista); err != nil {
		return err
	}
	if quizaHecha {
		// The list is written whole or not at all: if the first new credential is there, an
		// earlier run committed, and these are its credentials.
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM clase_alumnos WHERE huella = $1`, huella(credenciales[0].Secreto)).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return nil
		}
	}
	var hay int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM clase_alumnos`).Scan(&hay); err != nil {
		return err
	}
	if hay+len(credenciales) > topes.Alumnos {
		return fmt.Errorf("%w: tiene %d alumnos, con estos %d serían %d, y caben %d", matricula.ErrClaseLlena, hay, len(credenciales), hay+len(credenciales), topes.Alumnos)
	}
	for _, c := range credenciales {
		// Both unique indexes hold it (clase_alumnos_esqueleto, clase_alumnos_clave); the query
		// is for the line that names the other.
		esqueleto, clave := matricula.Esqueleto(c.Alumno), matricula.Clave(c.Alumno)
		var otro string
		switch err := tx.QueryRowContext(ctx, `SELECT nombre FROM clase_alumnos WHERE esqueleto = $1 OR clave = $2 ORDER BY id LIMIT 1`,
			esqueleto, clave).Scan(&otro); {
		case err == nil:
			return yaEsta(c.Alumno, otro, false)
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO clase_alumnos (nombre, esqueleto, clave, alta, huella) VALUES ($1, $2, $3, $4, $5)`,
			c.Alumno, esqueleto, clave, alta, huella(c.Secreto)); err != nil {
			return err
		}
	}
	return nil
}

// Quitar: the student's gradings go with its row (ON DELETE CASCADE).
func (a *almacenSQL) Quitar(ctx context.Context, nombre string) error {
	n, err := normalizado(nombre)
	if err != nil {
		return err
	}
	return a.escribir(ctx, func(tx *sql.Tx, quizaHecha bool) error { return a.quitarEn(ctx, tx, n, quizaHecha) })
}

func (a *almacenSQL) quitarEn(ctx context.Context, tx *sql.Tx, nombre string, quizaHecha bool) error {
	if err := a.bloquear(ctx, tx, candadoLista); err != nil {
		return err
	}
	r, err := tx.ExecContext(ctx, `DELETE FROM clase_alumnos WHERE nombre = $1`, nombre)
	if err != nil {
		return err
	}
	filas, err := r.RowsAffected()
	// Absent after a run that may have committed: that run removed it.
	if err == nil && filas == 0 && !quizaHecha {
		return noEsta(nombre)
	}
	return err
}

// Revocar empties the student's hash (NULL): no credential has it.
func (a *almacenSQL) Revocar(ctx context.Context, nombre string) error {
	return a.ponerHuella(ctx, nombre, nil)
}

func (a *almacenSQL) Renovar(ctx context.Context, nombre string) (matricula.Credencial, error) {
	n, err := normalizado(nombre)
	if err != nil {
		return matricula.Credencial{}, err
	}
	c := nuevaCredencial(n)
	if err := a.ponerHuella(ctx, n, huella(c.Secreto)); err != nil {
		return matricula.Credencial{}, err
	}
	return c, nil
}

// ponerHuella replaces a student's hash (nil: none): running it twice is running it once.
func (a *almacenSQL) ponerHuella(ctx context.Context, nombre string, h []byte) error {
	n, err := normalizado(nombre)
	if err != nil {
		return err
	}
	var valor any // an untyped nil is NULL in both drivers; a nil []byte may be an empty BLOB
	if h != nil {
		valor = h
	}
	return a.escribir(ctx, func(tx *sql.Tx, _ bool) error {
		if err := a.bloquear(ctx, tx, candadoLista); err != nil {
			return err
		}
		r, err := tx.ExecContext(ctx, `UPDATE clase_alumnos SET huella = $2 WHERE nombre = $1`, n, valor)
		if err != nil {
			return err
		}
		if filas, err := r.RowsAffected(); err != nil || filas == 0 {
			return cmp.Or(err, noEsta(n))
		}
		return nil
	})
}

// Rotar renews every live credential in one transaction. A revoked one stays revoked: Revocar
// holds until Renovar, so a rotation (a list leaked, say) does not give back what the instructor
// took away.
func (a *almacenSQL) Rotar(ctx context.Context) ([]matricula.Credencial, error) {
	secretos := map[string]matricula.Credencial{}
	var credenciales []matricula.Credencial
	err := a.escribir(ctx, func(tx *sql.Tx, _ bool) error {
		var err error
		credenciales, err = a.rotarEn(ctx, tx, secretos)
		return err
	})
	if err != nil {
		return nil, err
	}
	return credenciales, nil
}

// rotarEn is Rotar's transaction. secretos keeps each name's new credential across runs, so a run
// after one that may have committed writes the same.
func (a *almacenSQL) rotarEn(ctx context.Context, tx *sql.Tx, secretos map[string]matricula.Credencial) ([]matricula.Credencial, error) {
	if err := a.bloquear(ctx, tx, candadoLista); err != nil {
		return nil, err
	}
	filas, err := tx.QueryContext(ctx, `SELECT nombre FROM clase_alumnos WHERE huella IS NOT NULL ORDER BY id`)
	if err != nil {
		return nil, err
	}
	var credenciales []matricula.Credencial
	for filas.Next() {
		var n string
		if err := filas.Scan(&n); err != nil {
			filas.Close()
			return nil, err
		}
		c, ok := secretos[n]
		if !ok {
			c = nuevaCredencial(n)
			secretos[n] = c
		}
		credenciales = append(credenciales, c)
	}
	if err := cmp.Or(filas.Err(), filas.Close()); err != nil {
		return nil, err
	}
	for _, c := range credenciales {
		if _, err := tx.ExecContext(ctx, `UPDATE clase_alumnos SET huella = $2 WHERE nombre = $1`, c.Alumno, huella(c.Secreto)); err != nil {
			return nil, err
		}
	}
	return credenciales, nil
}

func (a *almacenSQL) Alumnos(ctx context.Context) ([]matricula.Alumno, error) {
	var lista []matricula.Alumno
	err := a.leer(ctx, func() error {
		lista = lista[:0]
		filas, err := a.db.QueryContext(ctx, `SELECT nombre, alta, huella IS NULL FROM clase_alumnos ORDER BY id`)
		if err != nil {
			return err
		}
		defer filas.Close()
		for filas.Next() {
			var al matricula.Alumno
			var alta int64
			if err := filas.Scan(&al.Nombre, &alta, &al.Revocada); err != nil {
				return err
			}
			al.Alta = time.UnixMicro(alta)
			lista = append(lista, al)
		}
		return filas.Err()
	})
	return lista, err
}

func (a *almacenSQL) Identificar(ctx context.Context, secreto string) (string, bool, error) {
	// What is not a credential's shape is no one's, without asking the database.
	if len(secreto) != largoCredencial || !strings.HasPrefix(secreto, prefijoCredencial) {
		return "", false, nil
	}
	var nombre string
	err := a.leer(ctx, func() error {
		return a.db.QueryRowContext(ctx, `SELECT nombre FROM clase_alumnos WHERE huella = $1`, huella(secreto)).Scan(&nombre)
	})
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return "", false, nil
	case err != nil:
		return "", false, err
	}
	return nombre, true, nil
}

// validar refuses a grading past the bounds (matricula.ErrDemasiado), so the store stays within topes.Alumnos
// × topes.HistorialClase gradings of bounded size; and text PostgreSQL would refuse (invalid UTF-8, NUL),
// so both databases keep the same.
func validar(c matricula.Calificacion) error {
	demasiado := func(que string, n, tope int) error {
		return fmt.Errorf("%w: %s tiene %d y el tope es %d", matricula.ErrDemasiado, que, n, tope)
	}
	switch {
	case c.ID == "":
		return errors.New("la calificación no tiene id")
	case len(c.ID) > topes.IDCalificacion:
		return demasiado("su id (bytes)", len(c.ID), topes.IDCalificacion)
	case len(c.Informe) > topes.InformeClase:
		return demasiado("su informe (bytes)", len(c.Informe), topes.InformeClase)
	case len(c.Comprobaciones) > topes.Comprobaciones:
		return demasiado("su lista de comprobaciones", len(c.Comprobaciones), topes.Comprobaciones)
	}
	textos := []string{c.ID, c.Informe}
	for _, v := range c.Comprobaciones {
		if len(v.ID) > topes.IDCalificacion {
			return demasiado("el id de una comprobación (bytes)", len(v.ID), topes.IDCalificacion)
		}
		if len(v.Estado) > topes.IDCalificacion {
			return demasiado("el estado de una comprobación (bytes)", len(v.Estado), topes.IDCalificacion)
		}
		textos = append(textos, v.ID, v.Estado)
	}
	for _, t := range textos {
		if !utf8.ValidString(t) || strings.ContainsRune(t, 0) {
			return errors.New("la calificación tiene texto que no es UTF-8 válido, o un carácter NUL")
		}
	}
	return nil
}

// Anotar is idempotent on the grading's id (a unique index, ON CONFLICT DO NOTHING): written again
// after a connection that broke during COMMIT, it is still one row.
func (a *almacenSQL) Anotar(ctx context.Context, c matricula.Calificacion) error {
	if err := validar(c); err != nil {
		return err
	}
	alumno, err := normalizado(c.Alumno)
	if err != nil {
		return err
	}
	comprobaciones, err := json.Marshal(c.Comprobaciones)
	if err != nil {
		return err
	}
	return a.escribir(ctx, func(tx *sql.Tx, _ bool) error {
		// The student's row, locked: its gradings are appended and trimmed one writer at a time
		// (so the history never passes its bound), and Quitar waits.
		var id int64
		switch err := tx.QueryRowContext(ctx, `SELECT id FROM clase_alumnos WHERE nombre = $1`+a.paraCambiar(), alumno).Scan(&id); {
		case errors.Is(err, sql.ErrNoRows):
			return noEsta(alumno)
		case err != nil:
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO clase_calificaciones (id, alumno, inicio, fin, semilla, comprobaciones, informe)
			VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING`,
			c.ID, id, c.Inicio.UnixMicro(), c.Fin.UnixMicro(), int64(c.Semilla), string(comprobaciones), c.Informe); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM clase_calificaciones WHERE alumno = $1 AND orden NOT IN
			(SELECT orden FROM clase_calificaciones WHERE alumno = $1 ORDER BY orden DESC LIMIT $2)`, id, topes.HistorialClase)
		return err
	})
}

const columnasCalificacion = `a.nombre, c.id, c.inicio, c.fin, c.semilla, c.comprobaciones, c.informe`

// calificaciones reads the rows of a query on columnasCalificacion.
func (a *almacenSQL) calificaciones(ctx context.Context, consulta string, args ...any) ([]matricula.Calificacion, error) {
	var lista []matricula.Calificacion
	err := a.leer(ctx, func() error {
		lista = lista[:0]
		filas, err := a.db.QueryContext(ctx, consulta, args...)
		if err != nil {
			return err
		}
		defer filas.Close()
		for filas.Next() {
			var c matricula.Calificacion
			var inicio, fin, semilla int64
			var comprobaciones string
			if err := filas.Scan(&c.Alumno, &c.ID, &inicio, &fin, &semilla, &comprobaciones, &c.Informe); err != nil {
				return err
			}
			if err := json.Unmarshal([]byte(comprobaciones), &c.Comprobaciones); err != nil {
				return fmt.Errorf("la calificación %s está dañada: %w", c.ID, err)
			}
			c.Inicio, c.Fin, c.Semilla = time.UnixMicro(inicio), time.UnixMicro(fin), uint64(semilla)
			lista = append(lista, c)
		}
		return filas.Err()
	})
	return lista, err
}

// Ultimas is one query: each student's row of greatest orden.
func (a *almacenSQL) Ultimas(ctx context.Context) (map[string]matricula.Calificacion, error) {
	lista, err := a.calificaciones(ctx, `SELECT `+columnasCalificacion+`
		FROM clase_calificaciones c JOIN clase_alumnos a ON a.id = c.alumno
		WHERE c.orden IN (SELECT max(orden) FROM clase_calificaciones GROUP BY alumno)`)
	if err != nil {
		return nil, err
	}
	ultimas := make(map[string]matricula.Calificacion, len(lista))
	for _, c := range lista {
		ultimas[c.Alumno] = c
	}
	return ultimas, nil
}

func (a *almacenSQL) Historial(ctx context.Context, nombre string) ([]matricula.Calificacion, error) {
	n, err := normalizado(nombre)
	if err != nil {
		return nil, err
	}
	// A student never graded has an empty history; one not in the roster has none.
	var alumno int64
	err = a.leer(ctx, func() error {
		return a.db.QueryRowContext(ctx, `SELECT id FROM clase_alumnos WHERE nombre = $1`, n).Scan(&alumno)
	})
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, noEsta(n)
	case err != nil:
		return nil, err
	}
	return a.calificaciones(ctx, `SELECT `+columnasCalificacion+`
		FROM clase_calificaciones c JOIN clase_alumnos a ON a.id = c.alumno
		WHERE c.alumno = $1 ORDER BY c.orden DESC`, alumno)
}

func (a *almacenSQL) Limpiar(ctx context.Context, nombre string) error {
	if nombre == "" {
		return a.escribir(ctx, func(tx *sql.Tx, _ bool) error {
			_, err := tx.ExecContext(ctx, `DELETE FROM clase_calificaciones`)
			return err
		})
	}
	n, err := normalizado(nombre)
	if err != nil {
		return err
	}
	return a.escribir(ctx, func(tx *sql.Tx, _ bool) error {
		var alumno int64
		switch err := tx.QueryRowContext(ctx, `SELECT id FROM clase_alumnos WHERE nombre = $1`+a.paraCambiar(), n).Scan(&alumno); {
		case errors.Is(err, sql.ErrNoRows):
			return noEsta(n)
		case err != nil:
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM clase_calificaciones WHERE alumno = $1`, alumno)
		return err
	})
}

func (a *almacenSQL) Cerrar() error {
	if !a.cerrado.CompareAndSwap(false, true) {
		return nil
	}
	// A write in progress on SQLite ends before the file is closed.
	a.escritura.Lock()
	defer a.escritura.Unlock()
	return a.db.Close()
}
