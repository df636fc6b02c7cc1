// Package fueradetabla is `revisor fuera-de-tabla`, fig07_06.ts: what the table does with codes it
// does not list.
package fueradetabla

import (
	"context"

	"github.com/spf13/cobra"

	"cursohttp/pkg/cli"
	"cursohttp/pkg/ordenes/entorno"
	"cursohttp/pkg/tabladecision"
)

// codigosFueraDeTabla are fig07_06.ts's codes: most are not in the table, four have rows of their own.
var codigosFueraDeTabla = []int{206, 299, 302, 307, 408, 418, 425, 451, 501, 507, 599, 600, 799}

// FueraDeTabla is fig07_06.ts: what the table does with codes it does not list (the x00 of their
// family, RFC 9110 §15), next to four that have rows of their own.
func FueraDeTabla(ctx context.Context, e entorno.Entorno) int {
	return e.TablaDe(ctx, "fuera-de-tabla", "CÓDIGO  ACCIÓN        REINTENTA  MOTIVO", codigosFueraDeTabla,
		func(tabladecision.Decision) string { return "" })
}

// NuevoCmd is `revisor fuera-de-tabla`; runF nil runs FueraDeTabla.
func NuevoCmd(f *entorno.Fabrica, runF func(context.Context, entorno.Entorno) int) *cobra.Command {
	return entorno.Armar(f, &cobra.Command{
		Use:   "fuera-de-tabla [opciones]",
		Short: "Qué hace la tabla con códigos que no lista: el x00 de su familia (fig07_06.ts)",
		Long: `Pide al laboratorio trece códigos, nueve que la tabla no lista y cuatro que sí (para
comparar), y muestra que cada uno que no lista cae en el x00 de su familia, como ordena el
RFC 9110; fuera de 100-599 se procesa como un 5xx. Necesita el laboratorio corriendo.`,
		Args: cli.SinArgumentos,
	}, runF, FueraDeTabla, entorno.ConLaboratorio)
}
