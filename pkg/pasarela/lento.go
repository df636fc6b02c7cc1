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

func (l lento) Aplicar(q *Peticion) Desenlace {
	if d, ok := q.Reenviar(); !ok {
		return d
	}
	q.decir("pasarela: el revisor respondió " + strconv.Itoa(q.Codigo()) + "; la respuesta sale " + strconv.Itoa(int(l)) + " ms después")
	// A wait on purpose: at the connection cap it gives way to a new client (servidor.EnEspera).
	listo := servidor.EnEspera(q.r.Context())
	defer listo()
	t := time.NewTimer(time.Duration(l) * time.Millisecond)
	defer t.Stop()
	select {
	case <-t.C:
		d := q.Devolver()
		d.Resultado = "respuesta " + strconv.Itoa(int(l)) + " ms tarde"
		return d
	case <-q.r.Context().Done():
		// The gateway sees the client gone too (terminar): nothing was answered.
		return Desenlace{Tipo: eventos.Abandonada}
	}
}

// Retiene is how long the mode holds an answer on purpose: a grader starts the intents it stalls
// first, since they take longest.
func (l lento) Retiene() time.Duration { return time.Duration(l) * time.Millisecond }
