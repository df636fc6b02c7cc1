// Package tabla23 is `revisor tabla23`, tabla23.ts: the decision table over the laboratory's
// answer for each of the course's 23 codes.
package tabla23

import (
	"context"

	"github.com/spf13/cobra"

	"cursohttp/pkg/cli"
	"cursohttp/pkg/ordenes/entorno"
	"cursohttp/pkg/tabladecision"
)

// Tabla23 is tabla23.ts: the decision table over the laboratory's answer for each of the course's
// 23 codes. The first column is the status that arrived, not the one asked for.
func Tabla23(ctx context.Context, e entorno.Entorno) int {
	return e.TablaDe(ctx, "tabla23", "CÓDIGO  ACCIÓN        REINTENTA  ESPERA  MOTIVO", entorno.CodigosDelCurso,
		func(d tabladecision.Decision) string { return entorno.PadEnd(d.EsperaTexto(), 8) })
}

// NuevoCmd is `revisor tabla23`; runF nil runs Tabla23.
func NuevoCmd(f *entorno.Fabrica, runF func(context.Context, entorno.Entorno) int) *cobra.Command {
	return entorno.Armar(f, &cobra.Command{
		Use:   "tabla23 [opciones]",
		Short: "La tabla de decisión aplicada a los 23 códigos del curso (tabla23.ts)",
		Long: `Pide al laboratorio cada uno de los 23 códigos del curso, sin seguir redirecciones, y
muestra qué decide la tabla del cliente con el código, Retry-After y el type: la acción,
si reintenta, cuánto espera y por qué. Necesita el laboratorio corriendo.`,
		Example: "  revisor tabla23\n  revisor tabla23 --laboratorio http://127.0.0.1:28081",
		Args:    cli.SinArgumentos,
	}, runF, Tabla23, entorno.ConLaboratorio)
}
