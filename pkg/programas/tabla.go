package programas

import (
	"context"
	"fmt"
	"strconv"

	"cursohttp/pkg/decision"
)

// codigosDelCurso are the 23 status codes the course's laboratory is asked for (tabla23.ts, fig07_04.ts).
var codigosDelCurso = []int{200, 201, 202, 204, 301, 304, 308, 400, 401, 403, 404, 405, 409, 410, 412, 415, 422, 428, 429, 500, 502, 503, 504}

// codigosFueraDeTabla are fig07_06.ts's codes: most are not in the table, four have rows of their own.
var codigosFueraDeTabla = []int{206, 299, 302, 307, 408, 418, 425, 451, 501, 507, 599, 600, 799}

// typeDe reads the Problem Details type of a response and nothing else from its body.
func typeDe(r respuesta) (string, bool) {
	ct, _ := r.cabecera("Content-Type")
	return decision.TypeDe(ct, r.cuerpo)
}

// decidirRespuesta is the table applied to a response: status, Retry-After and type, never the text.
func (e Entorno) decidirRespuesta(r respuesta) decision.Decision {
	tipo, hay := typeDe(r)
	var t *string
	if hay {
		t = &tipo
	}
	return decision.Decidir(r.codigo, r.retryAfter(e.ahora()), t)
}

// decidirDe asks url with GET and decides on what came back.
func (e Entorno) decidirDe(ctx context.Context, url string) (decision.Decision, respuesta, error) {
	r, err := e.pedir(ctx, "GET", url, nil, nil)
	if err != nil {
		return decision.Decision{}, r, err
	}
	return e.decidirRespuesta(r), r, nil
}

// Tabla23 is tabla23.ts: the decision table over the laboratory's answer for each of the course's
// 23 codes. The first column is the status that arrived, not the one asked for.
func Tabla23(ctx context.Context, e Entorno) int {
	fmt.Fprintln(e.Out, "CÓDIGO  ACCIÓN        REINTENTA  ESPERA  MOTIVO")
	for _, codigo := range codigosDelCurso {
		d, r, err := e.decidirDe(ctx, e.Laboratorio+"/codigo/"+strconv.Itoa(codigo))
		if err != nil {
			return e.fallo("tabla23", err)
		}
		fmt.Fprintf(e.Out, "%s%s%s%s%s\n", padEnd(strconv.Itoa(r.codigo), 8), padEnd(string(d.Accion), 14),
			padEnd(d.ReintentaTexto(), 11), padEnd(d.EsperaTexto(), 8), d.Motivo)
	}
	return 0
}

// FueraDeTabla is fig07_06.ts: what the table does with codes it does not list (the x00 of their
// family, RFC 9110 §15), next to four that have rows of their own.
func FueraDeTabla(ctx context.Context, e Entorno) int {
	fmt.Fprintln(e.Out, "CÓDIGO  ACCIÓN        REINTENTA  MOTIVO")
	for _, codigo := range codigosFueraDeTabla {
		d, r, err := e.decidirDe(ctx, e.Laboratorio+"/codigo/"+strconv.Itoa(codigo))
		if err != nil {
			return e.fallo("fuera-de-tabla", err)
		}
		fmt.Fprintf(e.Out, "%s%s%s%s\n", padEnd(strconv.Itoa(r.codigo), 8), padEnd(string(d.Accion), 14),
			padEnd(d.ReintentaTexto(), 11), d.Motivo)
	}
	return 0
}
