package pasarela

import (
	"net/http"

	"cursohttp/pkg/eventos"
)

// rechazar: the gateway answers its 502 before forwarding, as when the revisor cannot be reached:
// the revisor never sees the request. The client gets the same kind of 502 as from perder-primera,
// which is the lesson's point: a 502 does not say whether the write happened.
type rechazar struct{}

func (rechazar) String() string { return "rechazar" }

func (rechazar) Aplicar(q *Peticion) Desenlace {
	q.decir("pasarela: rechazo la petición sin reenviarla; el revisor no la ve")
	responder(q.w, nil, func() { MalaPuerta(q.w, q.r, DetalleSinRevisor) })
	return Desenlace{Cliente: http.StatusBadGateway, Resultado: "nunca llegó al revisor", Tipo: eventos.NuncaLlego}
}
