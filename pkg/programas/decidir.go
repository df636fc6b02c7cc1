package programas

import (
	"context"
	"fmt"
	"strconv"

	"cursohttp/pkg/decision"
)

// typeDe reads the Problem Details type of a response and nothing else from its body.
func typeDe(r respuesta) (string, bool) {
	ct, _ := r.cabecera("Content-Type")
	return decision.TypeDe(ct, r.cuerpo)
}

// decidirRespuesta is the course's table applied to a response: status, Retry-After and type, never
// the text.
func (e Entorno) decidirRespuesta(r respuesta) decision.Decision {
	d, _ := e.decidirCon(decision.Tabla{}, r) // the course's table never fails
	return d
}

// decidirCon is decidirRespuesta with another version of the table, which may fail as the lesson's
// broken one does.
func (e Entorno) decidirCon(tabla decision.Tabla, r respuesta) (decision.Decision, error) {
	tipo, hay := typeDe(r)
	var t *string
	if hay {
		t = &tipo
	}
	return tabla.Decidir(r.codigo, r.retryAfter(e.ahora()), t)
}

// decidirDe asks url with GET and decides on what came back with tabla.
func (e Entorno) decidirDe(ctx context.Context, tabla decision.Tabla, url string) (decision.Decision, respuesta, error) {
	r, err := e.pedir(ctx, "GET", url, nil, nil)
	if err != nil {
		return decision.Decision{}, r, err
	}
	d, err := e.decidirCon(tabla, r)
	return d, r, err
}

// tablaDe asks the laboratory for each code and prints cabecera and one row per answer: the status
// that arrived, the action, whether it retries, what extra adds, and the reason. programa names a
// failure.
func (e Entorno) tablaDe(ctx context.Context, programa, cabecera string, codigos []int, extra func(decision.Decision) string) int {
	fmt.Fprintln(e.Out, cabecera)
	for _, codigo := range codigos {
		d, r, err := e.decidirDe(ctx, decision.Tabla{}, e.Laboratorio+"/codigo/"+strconv.Itoa(codigo))
		if err != nil {
			return e.fallo(programa, err)
		}
		fmt.Fprintf(e.Out, "%s%s%s%s%s\n", padEnd(strconv.Itoa(r.codigo), 8), padEnd(string(d.Accion), 14),
			padEnd(d.ReintentaTexto(), 11), extra(d), d.Motivo)
	}
	return 0
}
