package datos

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"

	"cursohttp/pkg/almacen"
	"cursohttp/pkg/idempotencia"
	"cursohttp/pkg/respuesta"
)

// The Idempotency-Key records, with idempotencia.Registro's rules step by step (see its package
// comment): the same decisions in the same order, in one transaction under the credential's lock,
// so that many processes on one database decide as one process in memory for each credential. A
// key belongs to one credential (its id is a digest of both), so credentials never wait for each
// other: a class of 200 students on one PostgreSQL serialised every registration on one lock
// before (issue 31). The total bound (Tope) is then counted by transactions that may run side by
// side, and only every CadaCuantasContar reservations while far from it (alTope), so it can be
// passed by the reservations made since the last count: a few dozen over 10,000. A record is in progress while codigo
// is NULL; then instancia names the process that reserved it, ficha the reservation (Grabar and
// Soltar act only on theirs) and hasta the end of its Plazo, on the reserving process's clock (a
// clock that is off only lengthens or shortens a 409: which request creates is settled by ficha).
// A reservation holds its key until hasta, and only while its process lives.

// Tomar implements almacen.Llaves.
func (b *base) Tomar(ctx context.Context, credencial, llave, huella string) (idempotencia.Turno, error) {
	id := idempotencia.Identidad(credencial, llave)
	// The common repeat, a completed key with the same body, needs no transaction: a completed
	// record only ever goes away, and answering it as it was an instant before it went is what one
	// lock would have answered too.
	if g, ok, err := b.repetida(ctx, id[:], huella); err != nil || ok {
		return idempotencia.Turno{Tipo: idempotencia.Repetir, Grabada: g}, err
	}
	var turno idempotencia.Turno
	err := b.enTx(ctx, func(tx *sql.Tx) error {
		if err := b.dialecto.bloquear(ctx, tx, claseLlaves, credencial); err != nil {
			return err
		}
		ahora := b.reloj()
		var t idempotencia.Turno
		var err error
		t, err = b.tomar(ctx, tx, id[:], credencial, llave, huella, ahora.UnixNano())
		turno = t
		return err
	})
	return turno, err
}

// repetida returns the recorded response of id when it is completed, still valid and was recorded
// for a body with fingerprint huella.
func (b *base) repetida(ctx context.Context, id []byte, huella string) (idempotencia.Grabada, bool, error) {
	var (
		desde     int64
		codigo    int
		cabeceras string
		cuerpo    []byte
	)
	err := b.db.QueryRowContext(ctx, `SELECT desde, codigo, cabeceras, cuerpo FROM llaves WHERE id = $1 AND huella = $2 AND codigo IS NOT NULL`,
		id, huella).Scan(&desde, &codigo, &cabeceras, &cuerpo)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return idempotencia.Grabada{}, false, nil
	case err != nil:
		return idempotencia.Grabada{}, false, err
	case b.reloj().UnixNano()-desde > int64(b.llaves.Vigencia):
		return idempotencia.Grabada{}, false, nil
	}
	g, err := grabada(codigo, cabeceras, cuerpo)
	return g, err == nil, err
}

func grabada(codigo int, cabeceras string, cuerpo []byte) (idempotencia.Grabada, error) {
	g := idempotencia.Grabada{Codigo: codigo, Cuerpo: cuerpo}
	if g.Cuerpo == nil {
		g.Cuerpo = []byte{}
	}
	err := json.Unmarshal([]byte(cabeceras), &g.Cabeceras)
	return g, err
}

func (b *base) tomar(ctx context.Context, tx *sql.Tx, id []byte, credencial, llave, huella string, ahora int64) (idempotencia.Turno, error) {
	var (
		suya      string
		desde     int64
		hasta     sql.NullInt64
		instancia sql.NullInt64
		codigo    sql.NullInt64
		cabeceras sql.NullString
		cuerpo    []byte
	)
	err := tx.QueryRowContext(ctx, `SELECT huella, desde, hasta, instancia, codigo, cabeceras, cuerpo FROM llaves WHERE id = $1`, id).
		Scan(&suya, &desde, &hasta, &instancia, &codigo, &cabeceras, &cuerpo)
	switch {
	case err == nil:
		vigente := ahora-desde <= int64(b.llaves.Vigencia)
		// A reservation past its Plazo, or whose process died, created nothing (the service and the
		// record's response are one transaction, which its ficha no longer passes): the key is
		// free, as after a restart in memory.
		if vigente && !codigo.Valid {
			vigente, err = b.viva(ctx, tx, hasta, instancia, ahora)
			if err != nil {
				return idempotencia.Turno{}, err
			}
		}
		if vigente {
			switch {
			case suya != huella:
				return idempotencia.Turno{Tipo: idempotencia.OtraPeticion}, nil
			case !codigo.Valid:
				return idempotencia.Turno{Tipo: idempotencia.EnCurso}, nil
			}
			g, err := grabada(int(codigo.Int64), cabeceras.String, cuerpo)
			return idempotencia.Turno{Tipo: idempotencia.Repetir, Grabada: g}, err
		}
		// Expired (or abandoned): forgotten, and the request is served as new.
		if _, err := tx.ExecContext(ctx, `DELETE FROM llaves WHERE id = $1`, id); err != nil {
			return idempotencia.Turno{}, err
		}
	case !errors.Is(err, sql.ErrNoRows):
		return idempotencia.Turno{}, err
	}

	alTope, err := b.alTope(ctx, tx, credencial)
	if err != nil {
		return idempotencia.Turno{}, err
	}
	if alTope {
		// Expired records go first, every credential's, and reservations past their Plazo.
		if _, err := tx.ExecContext(ctx, `DELETE FROM llaves WHERE desde < $1 OR (codigo IS NULL AND (hasta IS NULL OR hasta < $2))`,
			ahora-int64(b.llaves.Vigencia), ahora); err != nil {
			return idempotencia.Turno{}, err
		}
		if alTope, err = b.alTope(ctx, tx, credencial); err != nil {
			return idempotencia.Turno{}, err
		}
		if alTope {
			cedida, err := b.cederLaMasVieja(ctx, tx, credencial)
			if err != nil {
				return idempotencia.Turno{}, err
			}
			if !cedida {
				if liberadas, err := b.liberarAbandonadas(ctx, tx, credencial, ahora); err != nil || liberadas == 0 {
					return idempotencia.Turno{Tipo: idempotencia.Lleno}, err
				}
				if alTope, err = b.alTope(ctx, tx, credencial); err != nil || alTope {
					return idempotencia.Turno{Tipo: idempotencia.Lleno}, err
				}
			}
		}
	}
	enCurso, err := b.enCurso(ctx, tx, credencial)
	if err != nil {
		return idempotencia.Turno{}, err
	}
	if enCurso >= b.llaves.EnCursoPorCredencial {
		liberadas, err := b.liberarAbandonadas(ctx, tx, credencial, ahora)
		if err != nil || enCurso-liberadas >= b.llaves.EnCursoPorCredencial {
			return idempotencia.Turno{Tipo: idempotencia.DemasiadasEnCurso}, err
		}
	}
	r := idempotencia.Reserva{Credencial: credencial, Llave: llave, Ficha: azar(), Plazo: b.llaves.Plazo}
	_, err = tx.ExecContext(ctx, `INSERT INTO llaves (id, credencial, huella, desde, orden, instancia, ficha, hasta)
		VALUES ($1, $2, $3, $4, (SELECT coalesce(max(orden), 0) + 1 FROM llaves), $5, $6, $7)`,
		id, credencial, huella, ahora, b.instancia, r.Ficha, ahora+int64(r.Plazo))
	if err != nil {
		return idempotencia.Turno{}, err
	}
	return idempotencia.Turno{Tipo: idempotencia.Nueva, Reserva: r}, nil
}

// viva says whether a reservation still holds its key at ahora: within its Plazo (hasta), and its
// process alive. A record of an older schema, without hasta, is a reservation long gone.
func (b *base) viva(ctx context.Context, tx *sql.Tx, hasta, instancia sql.NullInt64, ahora int64) (bool, error) {
	if !hasta.Valid || ahora > hasta.Int64 {
		return false, nil
	}
	if !instancia.Valid || instancia.Int64 == b.instancia {
		return true, nil
	}
	muerta, err := b.dialecto.muerta(ctx, tx, instancia.Int64)
	return !muerta, err
}

// CadaCuantasContar: the total of key records is counted exactly at least once every this many
// reservations of a process, and always when the last count was within HolguraTotal of the bound.
// Counting every record on every registration is linear in them: with a class's thousands of keys
// on PostgreSQL it was most of a registration's cost (issue 31). Between counts the bound can be
// passed by the reservations made since, of every process: at most CadaCuantasContar each.
const (
	CadaCuantasContar = 32
	HolguraTotal      = 256
)

// alTope says whether one more record for credencial would pass a bound.
func (b *base) alTope(ctx context.Context, tx *sql.Tx, credencial string) (bool, error) {
	var total, propias int
	// The first call of a process counts (a store reopened full), then one in CadaCuantasContar.
	contar := b.sinContar.Add(1)%CadaCuantasContar == 1 || b.totalVisto.Load() >= int64(b.llaves.Tope-HolguraTotal)
	if contar {
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM llaves`).Scan(&total); err != nil {
			return false, err
		}
		b.totalVisto.Store(int64(total))
		if total >= b.llaves.Tope {
			return true, nil
		}
	}
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM llaves WHERE credencial = $1`, credencial).Scan(&propias); err != nil {
		return false, err
	}
	return propias >= b.llaves.TopePorCredencial, nil
}

func (b *base) enCurso(ctx context.Context, tx *sql.Tx, credencial string) (int, error) {
	var n int
	err := tx.QueryRowContext(ctx, `SELECT count(*) FROM llaves WHERE credencial = $1 AND codigo IS NULL`, credencial).Scan(&n)
	return n, err
}

// cederLaMasVieja evicts the credential's oldest completed record, and says whether there was one.
func (b *base) cederLaMasVieja(ctx context.Context, tx *sql.Tx, credencial string) (bool, error) {
	res, err := tx.ExecContext(ctx, `DELETE FROM llaves WHERE id IN
		(SELECT id FROM llaves WHERE credencial = $1 AND codigo IS NOT NULL ORDER BY orden LIMIT 1)`, credencial)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// liberarAbandonadas drops the credential's reservations past their Plazo or whose process is gone,
// which hold a bound their requests no longer need (in memory the second kind would have died with
// them). It says how many it dropped.
func (b *base) liberarAbandonadas(ctx context.Context, tx *sql.Tx, credencial string, ahora int64) (int, error) {
	res, err := tx.ExecContext(ctx, `DELETE FROM llaves WHERE credencial = $1 AND codigo IS NULL AND (hasta IS NULL OR hasta < $2)`,
		credencial, ahora)
	if err != nil {
		return 0, err
	}
	caducadas, err := res.RowsAffected()
	if err != nil {
		return 0, err
	}
	filas, err := tx.QueryContext(ctx, `SELECT DISTINCT instancia FROM llaves
		WHERE credencial = $1 AND codigo IS NULL AND instancia IS NOT NULL AND instancia <> $2`, credencial, b.instancia)
	if err != nil {
		return 0, err
	}
	var duenos []int64
	for filas.Next() {
		var d int64
		if err := filas.Scan(&d); err != nil {
			filas.Close()
			return 0, err
		}
		duenos = append(duenos, d)
	}
	filas.Close()
	if err := filas.Err(); err != nil {
		return 0, err
	}
	total := int(caducadas)
	for _, d := range duenos {
		muerta, err := b.dialecto.muerta(ctx, tx, d)
		if err != nil {
			return total, err
		}
		if !muerta {
			continue
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM llaves WHERE credencial = $1 AND codigo IS NULL AND instancia = $2`, credencial, d)
		if err != nil {
			return total, err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return total, err
		}
		total += int(n)
	}
	return total, nil
}

// Grabar implements almacen.Llaves.
func (b *base) Grabar(ctx context.Context, r idempotencia.Reserva, g idempotencia.Grabada) error {
	return b.enTx(ctx, func(tx *sql.Tx) error { return b.grabar(ctx, tx, r, g) })
}

// grabar records the response of reservation r, if r still holds its key, and otherwise says
// almacen.ErrReservaPerdida; Crear calls it inside its own transaction, which that error rolls
// back.
func (b *base) grabar(ctx context.Context, tx *sql.Tx, r idempotencia.Reserva, g idempotencia.Grabada) error {
	if err := b.dialecto.bloquear(ctx, tx, claseLlaves, r.Credencial); err != nil {
		return err
	}
	cabeceras := g.Cabeceras
	if cabeceras == nil {
		cabeceras = []respuesta.Cabecera{}
	}
	texto, err := json.Marshal(cabeceras)
	if err != nil {
		return err
	}
	cuerpo := g.Cuerpo
	if cuerpo == nil {
		cuerpo = []byte{}
	}
	id := idempotencia.Identidad(r.Credencial, r.Llave)
	res, err := tx.ExecContext(ctx, `UPDATE llaves SET codigo = $2, cabeceras = $3, cuerpo = $4, instancia = NULL, hasta = NULL
		WHERE id = $1 AND codigo IS NULL AND ficha = $5`, id[:], g.Codigo, string(texto), cuerpo, r.Ficha)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return cmp.Or(err, almacen.ErrReservaPerdida)
	}
	return nil
}

// Soltar implements almacen.Llaves.
func (b *base) Soltar(ctx context.Context, r idempotencia.Reserva) error {
	id := idempotencia.Identidad(r.Credencial, r.Llave)
	return b.enTx(ctx, func(tx *sql.Tx) error {
		if err := b.dialecto.bloquear(ctx, tx, claseLlaves, r.Credencial); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM llaves WHERE id = $1 AND codigo IS NULL AND ficha = $2`, id[:], r.Ficha)
		return err
	})
}

// CuantasLlaves implements almacen.Almacen.
func (b *base) CuantasLlaves(ctx context.Context) (int, error) {
	var n int
	err := b.db.QueryRowContext(ctx, `SELECT count(*) FROM llaves`).Scan(&n)
	return n, err
}

// OlvidarLlaves implements almacen.Almacen: the records of the credentials whose name ends in
// sufijo, compared byte for byte (LIKE would fold ASCII case in SQLite).
func (b *base) OlvidarLlaves(ctx context.Context, sufijo string) (int, error) {
	var n int64
	err := b.enTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM llaves WHERE length(credencial) >= length($1) AND substr(credencial, length(credencial) - length($1) + 1) = $1`, sufijo)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return int(n), err
}
