package datos

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"

	"cursohttp/pkg/almacen"
	"cursohttp/pkg/limitador"
)

// contadorCompartido keeps a limiter's state per key in the table limites, so several revisors
// count one credential's requests in the same window: each decision reads the key's row under the
// key's lock, decides with the limiter's own rule (limitador.Compartible) and writes it back.
// Expired rows are swept once per window, by whichever process comes by.
type contadorCompartido struct {
	b      *base
	nombre string
	l      limitador.Compartible

	mu      sync.Mutex
	barrido time.Time
	cada    time.Duration
}

func nuevoContadorCompartido(b *base, nombre string, l limitador.Limitador) almacen.Contador {
	c, ok := l.(limitador.Compartible)
	if !ok {
		// A limiter that cannot hand its state out counts in this process only.
		return almacen.EnProceso(l)
	}
	return &contadorCompartido{b: b, nombre: nombre, l: c, cada: max(l.Politica().Ventana, time.Second)}
}

func (c *contadorCompartido) Politica() limitador.Politica { return c.l.Politica() }

func (c *contadorCompartido) Permitir(ctx context.Context, clave string, ahora time.Time) (limitador.Veredicto, error) {
	var v limitador.Veredicto
	err := c.b.enTx(ctx, func(tx *sql.Tx) error {
		if err := c.b.dialecto.bloquear(ctx, tx, claseLimite, c.nombre+"/"+clave); err != nil {
			return err
		}
		var texto string
		var estado []int64
		switch err := tx.QueryRowContext(ctx, `SELECT estado FROM limites WHERE politica = $1 AND clave = $2`, c.nombre, clave).Scan(&texto); {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return err
		default:
			var err error
			if estado, err = leerEstado(texto); err != nil {
				return err
			}
		}
		var nuevo []int64
		var vence time.Time
		v, nuevo, vence = c.l.Decidir(estado, ahora)
		_, err := tx.ExecContext(ctx, `INSERT INTO limites (politica, clave, estado, vence) VALUES ($1, $2, $3, $4)
			ON CONFLICT (politica, clave) DO UPDATE SET estado = excluded.estado, vence = excluded.vence`,
			c.nombre, clave, escribirEstado(nuevo), vence.UnixNano())
		return err
	})
	if err == nil {
		c.barrer(ctx, ahora)
	}
	return v, err
}

// barrer drops the expired rows of this limit once per window: a row past its expiry is worth no
// more than none.
func (c *contadorCompartido) barrer(ctx context.Context, ahora time.Time) {
	c.mu.Lock()
	if !c.barrido.IsZero() && ahora.Sub(c.barrido) < c.cada {
		c.mu.Unlock()
		return
	}
	c.barrido = ahora
	c.mu.Unlock()
	c.b.db.ExecContext(ctx, `DELETE FROM limites WHERE politica = $1 AND vence <= $2`, c.nombre, ahora.UnixNano())
}

func escribirEstado(estado []int64) string {
	var b strings.Builder
	for i, n := range estado {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatInt(n, 10))
	}
	return b.String()
}

func leerEstado(texto string) ([]int64, error) {
	if texto == "" {
		return []int64{}, nil
	}
	partes := strings.Split(texto, ",")
	estado := make([]int64, len(partes))
	for i, p := range partes {
		n, err := strconv.ParseInt(p, 10, 64)
		if err != nil {
			return nil, errors.New("datos: estado de límite ilegible «" + texto + "»")
		}
		estado[i] = n
	}
	return estado, nil
}
