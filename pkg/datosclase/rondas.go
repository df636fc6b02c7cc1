package datosclase

import (
	"context"
	"cursohttp/pkg/matricula"
	"cursohttp/pkg/topes"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// The predictions asked in class (issue 32): a round per exercise opened, each student's answers to
// it, and the real answers once the class lab ran it.

// textoBueno refuses what PostgreSQL would not keep (invalid UTF-8, NUL), so both databases keep
// the same; and what passes tope bytes (matricula.ErrDemasiado).
func textoBueno(que, t string, tope int) error {
	if len(t) > tope {
		return fmt.Errorf("%w: %s tiene %d bytes y el tope es %d", matricula.ErrDemasiado, que, len(t), tope)
	}
	if !utf8.ValidString(t) || strings.ContainsRune(t, 0) {
		return fmt.Errorf("%s no es UTF-8 válido, o lleva un carácter NUL", que)
	}
	return nil
}

// validarRespuestas checks a set of answers (a student's, or a run's) against the bounds.
func validarRespuestas(respuestas map[string]string) error {
	if len(respuestas) > topes.PreguntasClase {
		return fmt.Errorf("%w: son %d respuestas y caben %d", matricula.ErrDemasiado, len(respuestas), topes.PreguntasClase)
	}
	for p, v := range respuestas {
		if p == "" {
			return errors.New("una respuesta sin pregunta")
		}
		if err := textoBueno("el id de una pregunta", p, topes.IDCalificacion); err != nil {
			return err
		}
		if err := textoBueno("la respuesta a «"+matricula.Visible(p)+"»", v, topes.RespuestaClase); err != nil {
			return err
		}
	}
	return nil
}

// paraLeer locks the rows a SELECT reads against change, not against other readers, until the
// transaction ends (PostgreSQL): answers to a round go in side by side, and Revelar waits for
// those in progress.
func (a *almacenSQL) paraLeer() string {
	if a.postgres {
		return " FOR SHARE"
	}
	return ""
}

// AbrirRonda is idempotent on the round's id (a unique index, ON CONFLICT DO NOTHING).
func (a *almacenSQL) AbrirRonda(ctx context.Context, r matricula.Ronda) error {
	switch {
	case r.ID == "":
		return errors.New("la ronda no tiene id")
	case r.Ejercicio == "":
		return errors.New("la ronda no tiene ejercicio")
	}
	for que, t := range map[string]string{"el id de la ronda": r.ID, "su ejercicio": r.Ejercicio} {
		if err := textoBueno(que, t, topes.IDCalificacion); err != nil {
			return err
		}
	}
	return a.escribir(ctx, func(tx *sql.Tx, _ bool) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO clase_rondas (id, ejercicio, abierta) VALUES ($1, $2, $3)
			ON CONFLICT (id) DO NOTHING`, r.ID, r.Ejercicio, r.Abierta.UnixMicro()); err != nil {
			return err
		}
		// The answers of a round that goes go with it (ON DELETE CASCADE).
		_, err := tx.ExecContext(ctx, `DELETE FROM clase_rondas WHERE orden NOT IN
			(SELECT orden FROM clase_rondas ORDER BY orden DESC LIMIT $1)`, topes.RondasClase)
		return err
	})
}

// ronda is the round's row number and whether it was revealed, read in tx with bloqueo.
func (a *almacenSQL) ronda(ctx context.Context, tx *sql.Tx, id, bloqueo string) (int64, bool, error) {
	var orden, revelada int64
	err := tx.QueryRowContext(ctx, `SELECT orden, revelada FROM clase_rondas WHERE id = $1`+bloqueo, id).Scan(&orden, &revelada)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, matricula.ErrSinRonda
	}
	return orden, revelada != 0, err
}

// Responder writes every answer in one transaction: all of them or none. An upsert, so running it
// twice (a COMMIT in doubt) is running it once.
func (a *almacenSQL) Responder(ctx context.Context, ronda, alumno string, respuestas map[string]string) error {
	if err := validarRespuestas(respuestas); err != nil {
		return err
	}
	n, err := normalizado(alumno)
	if err != nil {
		return err
	}
	cuando := time.Now().UnixMicro()
	return a.escribir(ctx, func(tx *sql.Tx, _ bool) error {
		orden, revelada, err := a.ronda(ctx, tx, ronda, a.paraLeer())
		switch {
		case err != nil:
			return err
		case revelada:
			return matricula.ErrRevelada
		}
		// The student's row, kept from Quitar until this transaction ends.
		var id int64
		switch err := tx.QueryRowContext(ctx, `SELECT id FROM clase_alumnos WHERE nombre = $1`+a.paraLeer(), n).Scan(&id); {
		case errors.Is(err, sql.ErrNoRows):
			return noEsta(n)
		case err != nil:
			return err
		}
		for p, v := range respuestas {
			if _, err := tx.ExecContext(ctx, `INSERT INTO clase_respuestas (ronda, alumno, pregunta, valor, cuando)
				VALUES ($1, $2, $3, $4, $5)
				ON CONFLICT (ronda, alumno, pregunta) DO UPDATE SET valor = excluded.valor, cuando = excluded.cuando`,
				orden, id, p, v, cuando); err != nil {
				return err
			}
		}
		return nil
	})
}

// Revelar locks the round's row (PostgreSQL), so it waits for the answers being written and every
// later one sees it revealed.
func (a *almacenSQL) Revelar(ctx context.Context, ronda string, reales map[string]string) error {
	if err := validarRespuestas(reales); err != nil {
		return err
	}
	texto, err := json.Marshal(reales)
	if err != nil {
		return err
	}
	cuando := time.Now().UnixMicro()
	return a.escribir(ctx, func(tx *sql.Tx, _ bool) error {
		orden, _, err := a.ronda(ctx, tx, ronda, a.paraCambiar())
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE clase_rondas SET revelada = $2, reales = $3 WHERE orden = $1`, orden, cuando, string(texto))
		return err
	})
}

func (a *almacenSQL) Respuestas(ctx context.Context, ronda string) (matricula.Ronda, []matricula.Respuesta, error) {
	var r matricula.Ronda
	var lista []matricula.Respuesta
	err := a.leer(ctx, func() error {
		lista = lista[:0]
		var orden, abierta, revelada int64
		var reales string
		err := a.db.QueryRowContext(ctx, `SELECT orden, id, ejercicio, abierta, revelada, reales FROM clase_rondas WHERE id = $1`, ronda).
			Scan(&orden, &r.ID, &r.Ejercicio, &abierta, &revelada, &reales)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return matricula.ErrSinRonda
		case err != nil:
			return err
		}
		r.Abierta, r.Reales = time.UnixMicro(abierta), nil
		if revelada != 0 {
			if err := json.Unmarshal([]byte(reales), &r.Reales); err != nil {
				return fmt.Errorf("la ronda %s está dañada: %w", r.ID, err)
			}
		}
		filas, err := a.db.QueryContext(ctx, `SELECT a.nombre, r.pregunta, r.valor, r.cuando
			FROM clase_respuestas r JOIN clase_alumnos a ON a.id = r.alumno
			WHERE r.ronda = $1 ORDER BY a.id, r.pregunta`, orden)
		if err != nil {
			return err
		}
		defer filas.Close()
		for filas.Next() {
			var x matricula.Respuesta
			var cuando int64
			if err := filas.Scan(&x.Alumno, &x.Pregunta, &x.Valor, &cuando); err != nil {
				return err
			}
			x.Cuando = time.UnixMicro(cuando)
			lista = append(lista, x)
		}
		return filas.Err()
	})
	if err != nil {
		return matricula.Ronda{}, nil, err
	}
	return r, lista, nil
}

func (a *almacenSQL) Rondas(ctx context.Context) ([]matricula.Ronda, error) {
	var lista []matricula.Ronda
	err := a.leer(ctx, func() error {
		lista = lista[:0]
		filas, err := a.db.QueryContext(ctx, `SELECT id, ejercicio, abierta, revelada, reales FROM clase_rondas ORDER BY orden`)
		if err != nil {
			return err
		}
		defer filas.Close()
		for filas.Next() {
			var r matricula.Ronda
			var abierta, revelada int64
			var reales string
			if err := filas.Scan(&r.ID, &r.Ejercicio, &abierta, &revelada, &reales); err != nil {
				return err
			}
			r.Abierta = time.UnixMicro(abierta)
			if revelada != 0 {
				if err := json.Unmarshal([]byte(reales), &r.Reales); err != nil {
					return fmt.Errorf("la ronda %s está dañada: %w", r.ID, err)
				}
			}
			lista = append(lista, r)
		}
		return filas.Err()
	})
	return lista, err
}
