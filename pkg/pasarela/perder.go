package pasarela

import (
	"crypto/sha256"
	"strconv"
)

// perderSiempre («perder-siempre», or «perder» for short): the revisor does the work every time and
// the client never gets its answer, only the gateway's 502.
type perderSiempre struct{}

func (perderSiempre) String() string { return "perder-siempre" }

func (perderSiempre) Aplicar(q *Peticion) Desenlace {
	if d, ok := q.Reenviar(); !ok {
		return d
	}
	return q.Perder()
}

// perderVeces («perder:N»): like perder-primera, but the first N times the same request arrives.
// Its count is its own: a request counted by perder-primera or by another N starts again at zero.
type perderVeces int

func (n perderVeces) String() string { return "perder:" + strconv.Itoa(int(n)) }

func (n perderVeces) Aplicar(q *Peticion) Desenlace {
	if d, ok := q.Reenviar(); !ok {
		return d
	}
	id := q.Identidad()
	if q.p.vistas.sumar(sha256.Sum256(append([]byte(n.String()+"\x00"), id[:]...))) <= int(n) {
		return q.Perder()
	}
	return q.Devolver()
}
