package pasarela

// perderPrimera is the course's mode (Lesson 6, «X-Simular: perder-primera»): the revisor does the
// work, and the first time a request arrives (the same Idempotency-Key or, without one, the same
// body) its answer is lost and the client gets 502; from the second time on it passes.
type perderPrimera struct{}

func (perderPrimera) String() string { return "perder-primera" }

func (perderPrimera) Aplicar(q *Peticion) Desenlace {
	if d, ok := q.Reenviar(); !ok {
		return d
	}
	if q.p.vistas.sumar(q.Identidad()) == 1 {
		return q.Perder()
	}
	return q.Devolver()
}
