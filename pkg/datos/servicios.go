package datos

import (
	"context"
	"database/sql"
	"errors"

	"cursohttp/pkg/almacen"
)

const columnasServicio = `id, equipo, nombre, url, limite_ms, version`

type fila interface{ Scan(...any) error }

func leerServicio(f fila) (almacen.Servicio, error) {
	var s almacen.Servicio
	err := f.Scan(&s.ID, &s.Equipo, &s.Nombre, &s.URL, &s.LimiteMs, &s.Version)
	return s, err
}

// Crear implements almacen.Almacen. The team's lock makes the name check, the bound and the insert
// one step for every process; with alta, the key's response is recorded before the commit.
func (b *base) Crear(ctx context.Context, equipo string, d almacen.Datos, tope int, alta *almacen.Alta) (almacen.Servicio, error) {
	var s almacen.Servicio
	err := b.enTx(ctx, func(tx *sql.Tx) error {
		if err := b.dialecto.bloquear(ctx, tx, claseEquipo, equipo); err != nil {
			return err
		}
		var existente int
		switch err := tx.QueryRowContext(ctx, `SELECT id FROM servicios WHERE equipo = $1 AND nombre = $2 AND retirado = 0 ORDER BY id LIMIT 1`,
			equipo, d.Nombre).Scan(&existente); {
		case err == nil:
			return &almacen.NombreRepetido{Existente: existente}
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		if tope > 0 {
			var vivos int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM servicios WHERE equipo = $1 AND retirado = 0`, equipo).Scan(&vivos); err != nil {
				return err
			}
			if vivos >= tope {
				return &almacen.TopeAlcanzado{Tope: tope}
			}
		}
		var err error
		s, err = leerServicio(tx.QueryRowContext(ctx, `INSERT INTO servicios (equipo, nombre, url, limite_ms, version, retirado)
			VALUES ($1, $2, $3, $4, 1, 0) RETURNING `+columnasServicio, equipo, d.Nombre, d.URL, d.LimiteMs))
		if err != nil {
			return err
		}
		if alta != nil {
			return b.grabar(ctx, tx, alta.Reserva, alta.Respuesta(s))
		}
		return nil
	})
	if err != nil {
		return almacen.Servicio{}, err
	}
	return s, nil
}

// Buscar implements almacen.Almacen with a statement prepared once: it is the path of every GET.
func (b *base) Buscar(ctx context.Context, id int) (almacen.Servicio, bool, error) {
	s, err := leerServicio(b.buscar.QueryRowContext(ctx, id))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return almacen.Servicio{}, false, nil
	case err != nil:
		return almacen.Servicio{}, false, err
	}
	return s, true, nil
}

const consultaBuscar = `SELECT ` + columnasServicio + ` FROM servicios WHERE id = $1 AND retirado = 0`

// Listar implements almacen.Almacen.
func (b *base) Listar(ctx context.Context, equipo string) ([]almacen.Servicio, error) {
	var filas *sql.Rows
	var err error
	if equipo == "*" {
		filas, err = b.db.QueryContext(ctx, `SELECT `+columnasServicio+` FROM servicios WHERE retirado = 0 ORDER BY id`)
	} else {
		filas, err = b.db.QueryContext(ctx, `SELECT `+columnasServicio+` FROM servicios WHERE retirado = 0 AND equipo = $1 ORDER BY id`, equipo)
	}
	if err != nil {
		return nil, err
	}
	defer filas.Close()
	lista := []almacen.Servicio{}
	for filas.Next() {
		s, err := leerServicio(filas)
		if err != nil {
			return nil, err
		}
		lista = append(lista, s)
	}
	return lista, filas.Err()
}

// Retirar implements almacen.Almacen.
func (b *base) Retirar(ctx context.Context, id int) (bool, error) {
	res, err := b.db.ExecContext(ctx, `UPDATE servicios SET retirado = 1 WHERE id = $1 AND retirado = 0`, id)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// EquipoDeRetirado implements almacen.Almacen.
func (b *base) EquipoDeRetirado(ctx context.Context, id int) (string, bool, error) {
	var equipo string
	switch err := b.db.QueryRowContext(ctx, `SELECT equipo FROM servicios WHERE id = $1 AND retirado = 1`, id).Scan(&equipo); {
	case errors.Is(err, sql.ErrNoRows):
		return "", false, nil
	case err != nil:
		return "", false, err
	}
	return equipo, true, nil
}

// Cambiar implements almacen.Almacen: the team's lock for the name, the row's lock for the version.
func (b *base) Cambiar(ctx context.Context, id int, versionLeida *int, d almacen.Datos) (almacen.Servicio, error) {
	var s almacen.Servicio
	err := b.enTx(ctx, func(tx *sql.Tx) error {
		// The team never changes: read it, lock it, then read the row under its lock.
		var equipo string
		switch err := tx.QueryRowContext(ctx, `SELECT equipo FROM servicios WHERE id = $1`, id).Scan(&equipo); {
		case errors.Is(err, sql.ErrNoRows):
			// Never existed: as in memory, no team, so no name is taken; it is not live.
			return almacen.ErrRetirado
		case err != nil:
			return err
		}
		if err := b.dialecto.bloquear(ctx, tx, claseEquipo, equipo); err != nil {
			return err
		}
		var retirado, version int
		if err := tx.QueryRowContext(ctx, `SELECT retirado, version FROM servicios WHERE id = $1`+b.dialecto.paraCambiar(), id).Scan(&retirado, &version); err != nil {
			return err
		}
		var otro int
		switch err := tx.QueryRowContext(ctx, `SELECT id FROM servicios WHERE equipo = $1 AND nombre = $2 AND retirado = 0 ORDER BY id LIMIT 1`,
			equipo, d.Nombre).Scan(&otro); {
		case err == nil && otro != id:
			return &almacen.NombreRepetido{Existente: otro}
		case err != nil && !errors.Is(err, sql.ErrNoRows):
			return err
		}
		if retirado != 0 {
			return almacen.ErrRetirado
		}
		if versionLeida != nil && version != *versionLeida {
			return almacen.ErrConflicto
		}
		var err error
		s, err = leerServicio(tx.QueryRowContext(ctx, `UPDATE servicios SET nombre = $2, url = $3, limite_ms = $4, version = version + 1
			WHERE id = $1 RETURNING `+columnasServicio, id, d.Nombre, d.URL, d.LimiteMs))
		return err
	})
	if err != nil {
		return almacen.Servicio{}, err
	}
	return s, nil
}

// The checks.

// CrearRevision implements almacen.Almacen: the check belongs to this process until it ends.
func (b *base) CrearRevision(ctx context.Context, servicio int) (almacen.Revision, error) {
	r := almacen.Revision{Servicio: servicio, Estado: almacen.Pendiente}
	err := b.db.QueryRowContext(ctx, `INSERT INTO revisiones (servicio, terminada, instancia) VALUES ($1, 0, $2) RETURNING id`,
		servicio, b.instancia).Scan(&r.ID)
	return r, err
}

const columnasRevision = `id, servicio, terminada, estado, codigo, ms, detalle`

func leerRevision(f fila) (almacen.Revision, error) {
	var r almacen.Revision
	var terminada int
	var estado, detalle sql.NullString
	var codigo, ms sql.NullInt64
	if err := f.Scan(&r.ID, &r.Servicio, &terminada, &estado, &codigo, &ms, &detalle); err != nil {
		return r, err
	}
	r.Estado = almacen.Pendiente
	if terminada != 0 {
		r.Estado = almacen.Terminada
		r.Resultado = &almacen.Resultado{Estado: estado.String, Codigo: entero(codigo), Ms: entero(ms), Detalle: detalle.String}
	}
	return r, nil
}

func entero(n sql.NullInt64) *int {
	if !n.Valid {
		return nil
	}
	v := int(n.Int64)
	return &v
}

func nulo(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

// BuscarRevision implements almacen.Almacen.
func (b *base) BuscarRevision(ctx context.Context, id int) (almacen.Revision, bool, error) {
	r, err := leerRevision(b.db.QueryRowContext(ctx, `SELECT `+columnasRevision+` FROM revisiones WHERE id = $1`, id))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return almacen.Revision{}, false, nil
	case err != nil:
		return almacen.Revision{}, false, err
	}
	return r, true, nil
}

// RevisionesDe implements almacen.Almacen.
func (b *base) RevisionesDe(ctx context.Context, servicio int) ([]almacen.Revision, error) {
	filas, err := b.db.QueryContext(ctx, `SELECT `+columnasRevision+` FROM revisiones WHERE servicio = $1 ORDER BY id`, servicio)
	if err != nil {
		return nil, err
	}
	defer filas.Close()
	lista := []almacen.Revision{}
	for filas.Next() {
		r, err := leerRevision(filas)
		if err != nil {
			return nil, err
		}
		lista = append(lista, r)
	}
	return lista, filas.Err()
}

// TerminarRevision implements almacen.Almacen. Only the check's owner records it: a process that
// was taken for dead (cut off from the database for longer than its life) and whose checks went to
// another finds them no longer its own, and the other's result stands.
func (b *base) TerminarRevision(ctx context.Context, id int, res almacen.Resultado) error {
	_, err := b.db.ExecContext(ctx, `UPDATE revisiones SET terminada = 1, estado = $2, codigo = $3, ms = $4, detalle = $5, instancia = NULL
		WHERE id = $1 AND terminada = 0 AND instancia = $6`,
		id, res.Estado, nulo(res.Codigo), nulo(res.Ms), res.Detalle, b.instancia)
	return err
}

// Huerfanas implements almacen.Almacen: a dead owner's pending checks become this process's in
// one UPDATE per owner, which a second process running the same UPDATE finds already taken.
func (b *base) Huerfanas(ctx context.Context) ([]almacen.Huerfana, error) {
	var huerfanas []almacen.Huerfana
	err := b.enTx(ctx, func(tx *sql.Tx) error {
		huerfanas = nil
		filas, err := tx.QueryContext(ctx, `SELECT DISTINCT instancia FROM revisiones WHERE terminada = 0 AND instancia IS NOT NULL AND instancia <> $1`, b.instancia)
		if err != nil {
			return err
		}
		var duenos []int64
		for filas.Next() {
			var d int64
			if err := filas.Scan(&d); err != nil {
				filas.Close()
				return err
			}
			duenos = append(duenos, d)
		}
		filas.Close()
		if err := filas.Err(); err != nil {
			return err
		}
		var ids []int
		for _, d := range duenos {
			muerta, err := b.dialecto.muerta(ctx, tx, d)
			if err != nil {
				return err
			}
			if !muerta {
				continue
			}
			tomadas, err := tx.QueryContext(ctx, `UPDATE revisiones SET instancia = $1 WHERE terminada = 0 AND instancia = $2 RETURNING id`, b.instancia, d)
			if err != nil {
				return err
			}
			for tomadas.Next() {
				var id int
				if err := tomadas.Scan(&id); err != nil {
					tomadas.Close()
					return err
				}
				ids = append(ids, id)
			}
			tomadas.Close()
			if err := tomadas.Err(); err != nil {
				return err
			}
		}
		for _, id := range ids {
			r, err := leerRevision(tx.QueryRowContext(ctx, `SELECT `+columnasRevision+` FROM revisiones WHERE id = $1`, id))
			if err != nil {
				return err
			}
			// The service as last stored, retired or not: a check probes what it was asked about.
			s, err := leerServicio(tx.QueryRowContext(ctx, `SELECT `+columnasServicio+` FROM servicios WHERE id = $1`, r.Servicio))
			if err != nil && !errors.Is(err, sql.ErrNoRows) {
				return err
			}
			huerfanas = append(huerfanas, almacen.Huerfana{Revision: r, Servicio: s})
		}
		return nil
	})
	return huerfanas, err
}
