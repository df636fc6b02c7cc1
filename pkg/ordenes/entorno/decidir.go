package entorno

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"cursohttp/internal/nodejs"
	"cursohttp/pkg/reintento"
	"cursohttp/pkg/tabladecision"
)

// CodigosDelCurso are the 23 status codes the course's laboratory is asked for (tabla23.ts, fig07_04.ts).
var CodigosDelCurso = []int{200, 201, 202, 204, 301, 304, 308, 400, 401, 403, 404, 405, 409, 410, 412, 415, 422, 428, 429, 500, 502, 503, 504}

// Codigo200 is the laboratory's path every alta of the lessons registers.
const Codigo200 = "/codigo/200"

// TopeEsperaS is the most a client in Lesson 7 waits because Retry-After said so: the retry
// engine's own cap, in the whole seconds the decision speaks.
const TopeEsperaS = int64(reintento.TopeRetryAfter / time.Second)

// TypeDe reads the Problem Details type of a response and nothing else from its body.
func TypeDe(r Respuesta) (string, bool) {
	ct, _ := r.Cabecera("Content-Type")
	return tabladecision.TypeDe(ct, r.Cuerpo)
}

// DecidirRespuesta is the course's table applied to a response: status, Retry-After and type, never
// the text.
func (e Entorno) DecidirRespuesta(r Respuesta) tabladecision.Decision {
	d, _ := e.DecidirCon(tabladecision.Tabla{}, r) // the course's table never fails
	return d
}

// DecidirCon is DecidirRespuesta with another version of the table, which may fail as the lesson's
// broken one does.
func (e Entorno) DecidirCon(tabla tabladecision.Tabla, r Respuesta) (tabladecision.Decision, error) {
	tipo, hay := TypeDe(r)
	var t *string
	if hay {
		t = &tipo
	}
	return tabla.Decidir(r.Codigo, r.RetryAfter(e.Hora()), t)
}

// DecidirDe asks url with GET and decides on what came back with tabla.
func (e Entorno) DecidirDe(ctx context.Context, tabla tabladecision.Tabla, url string) (tabladecision.Decision, Respuesta, error) {
	r, err := e.Pedir(ctx, "GET", url, nil, nil)
	if err != nil {
		return tabladecision.Decision{}, r, err
	}
	d, err := e.DecidirCon(tabla, r)
	return d, r, err
}

// TablaDe asks the laboratory for each code and prints cabecera and one row per answer: the status
// that arrived, the action, whether it retries, what extra adds, and the reason. programa names a
// failure.
func (e Entorno) TablaDe(ctx context.Context, programa, cabecera string, codigos []int, extra func(tabladecision.Decision) string) int {
	fmt.Fprintln(e.Out, cabecera)
	for _, codigo := range codigos {
		d, r, err := e.DecidirDe(ctx, tabladecision.Tabla{}, e.Laboratorio+"/codigo/"+strconv.Itoa(codigo))
		if err != nil {
			return e.Fallo(programa, err)
		}
		fmt.Fprintf(e.Out, "%s%s%s%s%s\n", PadEnd(strconv.Itoa(r.Codigo), 8), PadEnd(string(d.Accion), 14),
			PadEnd(d.ReintentaTexto(), 11), extra(d), d.Motivo)
	}
	return 0
}

// Alta sends POST /servicios with {nombre, url} as JSON.stringify writes it, with the credential
// and, unless llave is "", an Idempotency-Key.
func (e Entorno) Alta(ctx context.Context, credencial, llave, nombre, url string) (Respuesta, error) {
	cuerpo := nodejs.CodificarJSON(nodejs.Objeto{{Nombre: "nombre", Valor: nombre}, {Nombre: "url", Valor: url}})
	cab := map[string]string{
		"Authorization": "Bearer " + credencial,
		"Content-Type":  "application/json",
	}
	if llave != "" {
		cab["Idempotency-Key"] = llave
	}
	return e.Pedir(ctx, "POST", e.Revisor+"/servicios", cab, cuerpo)
}

// EsperaConJitter draws the full-jitter backoff after attempt intento, with the course's base and
// cap and e.Azar's draws.
func (e Entorno) EsperaConJitter(intento int) time.Duration {
	return reintento.EsperaConJitter(intento, reintento.BaseRetroceso, reintento.TopeRetroceso, e.Azar)
}
