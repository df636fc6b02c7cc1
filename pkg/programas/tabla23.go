package programas

import (
	"context"

	"github.com/spf13/cobra"

	"cursohttp/pkg/cli"
	"cursohttp/pkg/decision"
)

// codigosDelCurso are the 23 status codes the course's laboratory is asked for (tabla23.ts, fig07_04.ts).
var codigosDelCurso = []int{200, 201, 202, 204, 301, 304, 308, 400, 401, 403, 404, 405, 409, 410, 412, 415, 422, 428, 429, 500, 502, 503, 504}

// Tabla23 is tabla23.ts: the decision table over the laboratory's answer for each of the course's
// 23 codes. The first column is the status that arrived, not the one asked for.
func Tabla23(ctx context.Context, e Entorno) int {
	return e.tablaDe(ctx, "tabla23", "CÓDIGO  ACCIÓN        REINTENTA  ESPERA  MOTIVO", codigosDelCurso,
		func(d decision.Decision) string { return padEnd(d.EsperaTexto(), 8) })
}

// nuevoCmdTabla23 is `revisor tabla23`; runF nil runs Tabla23.
func nuevoCmdTabla23(f *Fabrica, runF func(context.Context, Entorno) int) *cobra.Command {
	return armar(f, &cobra.Command{
		Use:   "tabla23 [opciones]",
		Short: "La tabla de decisión aplicada a los 23 códigos del curso (tabla23.ts)",
		Long: `Pide al laboratorio cada uno de los 23 códigos del curso, sin seguir redirecciones, y
muestra qué decide la tabla del cliente con el código, Retry-After y el type: la acción,
si reintenta, cuánto espera y por qué. Necesita el laboratorio corriendo.`,
		Example: "  revisor tabla23\n  revisor tabla23 --laboratorio http://127.0.0.1:28081",
		Args:    cli.SinArgumentos,
	}, runF, Tabla23, conLaboratorio)
}
