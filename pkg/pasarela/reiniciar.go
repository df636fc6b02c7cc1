package pasarela

import (
	"net"
	"net/http"
	"strconv"

	"cursohttp/pkg/eventos"
)

// reiniciar: the revisor does the work; the client gets no answer at all, only a TCP reset (RST:
// ECONNRESET) of its connection.
type reiniciar struct{}

func (reiniciar) String() string { return "reiniciar" }

func (reiniciar) Aplicar(q *Peticion) Desenlace {
	if d, ok := q.Reenviar(); !ok {
		return d
	}
	if d, ok := q.tirarResto(); !ok {
		return d
	}
	q.decir("pasarela: el revisor respondió " + strconv.Itoa(q.Codigo()) + ", pero la conexión con el cliente se reinicia")
	return q.reiniciar(Desenlace{Resultado: "conexión reiniciada", Tipo: eventos.Reiniciada})
}

// reiniciar resets the client's connection, without a byte of answer, and returns d.
func (q *Peticion) reiniciar(d Desenlace) Desenlace {
	c, _, err := http.NewResponseController(q.w).Hijack()
	if err != nil {
		d.Abortar = true // not hijackable (HTTP/2): a plain close is all there is
		return d
	}
	Reiniciar(c)
	return d
}

// Reiniciar closes c with a reset instead of the orderly close: SO_LINGER 0 on the TCP connection
// underneath the suite's wrappers (which name it with NetConn, as tls.Conn does).
func Reiniciar(c net.Conn) {
	for sub := c; sub != nil; {
		if l, ok := sub.(interface{ SetLinger(int) error }); ok {
			l.SetLinger(0)
			break
		}
		n, ok := sub.(interface{ NetConn() net.Conn })
		if !ok {
			break
		}
		sub = n.NetConn()
	}
	c.Close()
}
