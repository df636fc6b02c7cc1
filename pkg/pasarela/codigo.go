package pasarela

import (
	"strconv"

	"cursohttp/pkg/eventos"
	"cursohttp/pkg/respuesta"
)

// codigo («codigo:NNN», 200 to 599): the gateway answers NNN itself, without forwarding: the revisor
// never sees the request. From 400 up the body is the gateway's Problem Details (about:blank, the
// code's reason phrase as title); below, an empty body, so «codigo:201» is a gateway that says yes
// to a write nobody made.
type codigo int

func (c codigo) String() string { return "codigo:" + strconv.Itoa(int(c)) }

func (c codigo) Aplicar(q *Peticion) Desenlace {
	n := int(c)
	q.decir("pasarela: respondo " + strconv.Itoa(n) + " sin reenviar la petición; el revisor no la ve")
	responder(q.w, nil, func() {
		if n < 400 {
			respuesta.Vacio(q.w, q.r, n)
			return
		}
		problemaPropio(q.w, q.r, n, "la pasarela respondió "+strconv.Itoa(n)+" sin reenviar la petición al revisor")
	})
	d := Desenlace{Cliente: n, Resultado: "nunca llegó al revisor", Tipo: eventos.NuncaLlego}
	if n >= 400 && n < 500 {
		d.Type = "about:blank" // problemaPropio's
	}
	return d
}
