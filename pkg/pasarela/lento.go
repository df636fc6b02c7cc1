package pasarela

import (
	"strconv"
	"time"

	"cursohttp/pkg/eventos"
	"cursohttp/pkg/servidor"
)

// lento («lento:MS», 1 to topes.Lento): the revisor does the work at once; the gateway holds its answer MS
// milliseconds before handing it over. A client with a shorter limit gives up on a write that
// happened. If the client leaves meanwhile, nothing is written.
type lento int

func (l lento) String() string { return "lento:" + strconv.Itoa(int(l)) }

func (l lento) Aplicar(q *Peticion) {
	if !q.Reenviar() {
		return
	}
	q.decir("pasarela: el revisor respondió " + strconv.Itoa(q.Codigo()) + "; la respuesta sale " + strconv.Itoa(int(l)) + " ms después")
	// A wait on purpose: at the connection cap it gives way to a new client (servidor.EnEspera).
	listo := servidor.EnEspera(q.r.Context())
	defer listo()
	t := time.NewTimer(time.Duration(l) * time.Millisecond)
	defer t.Stop()
	select {
	case <-t.C:
		q.resultado = "respuesta " + strconv.Itoa(int(l)) + " ms tarde"
		q.Devolver()
	case <-q.r.Context().Done():
		q.resultado, q.desenlace = "el cliente se fue antes de la respuesta", eventos.Abandonada
	}
}
