package pasarela

import (
	"net/http"

	"cursohttp/pkg/eventos"
	"strconv"
)

// cortar: the revisor does the work; the client gets the status line, the headers (with the whole
// body's Content-Length) and half the body, and then the connection closes. An answer without a
// body is cut before anything is sent.
type cortar struct{}

func (cortar) String() string { return "cortar" }

func (cortar) Aplicar(q *Peticion) Desenlace {
	if d, ok := q.Reenviar(); !ok {
		return d
	}
	if d, ok := q.tirarResto(); !ok {
		return d
	}
	// The client gets no whole answer: for the record, none; the gateway then cuts the connection.
	d := Desenlace{Tipo: eventos.Cortada, Abortar: true}
	revisor := "pasarela: el revisor respondió " + strconv.Itoa(q.Codigo())
	if len(q.leido) == 0 || q.r.Method == http.MethodHead {
		d.Resultado = "conexión cortada antes de responder"
		q.decir(revisor + ", pero la conexión se corta antes de responder")
	} else {
		d.Resultado = "conexión cortada a mitad del cuerpo"
		q.decir(revisor + ", pero la respuesta se corta a mitad del cuerpo")
		q.p.encabezar(q.w, q.r, q.resp, int64(len(q.leido)), false)
		q.w.Write(q.leido[:len(q.leido)/2])
		http.NewResponseController(q.w).Flush()
	}
	return d
}
