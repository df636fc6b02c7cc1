// Package decidir is `revisor decidir`: what the client's table decides for each code, without
// asking anybody (the lessons' one-line node -e over decisiones.ts).
package decidir

import (
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/cobra"

	"cursohttp/pkg/cli"
	"cursohttp/pkg/ordenes/entorno"
	"cursohttp/pkg/tabladecision"
	"cursohttp/pkg/variantes"
)

// DecidirCodigos prints, for each status code, what a version of the table decides when nothing
// else came with it (no Retry-After; tipo nil: not Problem Details), one line each as Lesson 7's
// exercise 2 prints decidir(c, null, null): «413 corregir no reintenta - <motivo>».
func DecidirCodigos(out io.Writer, tabla tabladecision.Tabla, codigos []int, tipo *string) error {
	for _, c := range codigos {
		d, err := tabla.Decidir(c, nil, tipo)
		if err != nil {
			return err
		}
		reintenta := "no reintenta"
		if d.Reintenta {
			reintenta = "reintenta"
		}
		fmt.Fprintf(out, "%d %s %s - %s\n", c, d.Accion, reintenta, d.Motivo)
	}
	return nil
}

// NuevoCmd is `revisor decidir`, the lessons' one-line `node -e` over decisiones.ts; with
// --ejercicio 2, over Lesson 7 exercise 2's table.
func NuevoCmd(f *entorno.Fabrica) *cobra.Command {
	var version *variantes.Banderas
	var tipo string
	c := &cobra.Command{
		Use:   "decidir <código>... [opciones]",
		Short: "Lo que decide la tabla del cliente para cada código, sin pedir nada a nadie",
		Long: `Pregunta a la tabla de decisión del cliente qué hace con cada código si no llega nada más (ni
Retry-After ni Problem Details) y escribe una línea por código: el código, la acción, si
reintenta y el motivo. Es el «node --input-type=module -e 'import { decidir } from
"./decisiones.ts"; …'» de la lección 7 (ejercicio 2). No necesita ningún servidor.

Con --type, el código llega con ese type de Problem Details. Con --ejercicio 2 pregunta a la tabla
de la solución del ejercicio 2, la que tiene una fila para el 413.

` + variantes.Ayuda(variantes.RevisorDecidir),
		Example: `  revisor decidir 413 418 451
  revisor decidir --ejercicio 2 413 418 451
  revisor decidir 409 --type https://revisor.example/problemas/llave-en-curso`,
		Args: func(*cobra.Command, []string) error { return nil }, // every word is a code, checked below
		RunE: func(c *cobra.Command, args []string) error {
			programa, err := version.Eleccion(f.Variable)
			if err != nil {
				return cli.UsoMal("%s: %v", c.CommandPath(), err)
			}
			if len(args) == 0 {
				return cli.UsoMal("%s: falta al menos un código; «%s --help» muestra cómo se usa", c.CommandPath(), c.CommandPath())
			}
			codigos := make([]int, len(args))
			for i, a := range args {
				if codigos[i], err = strconv.Atoi(a); err != nil {
					return cli.UsoMal("%s: «%s» no es un código de estado (un número entero)", c.CommandPath(), a)
				}
			}
			var t *string
			if c.Flags().Changed("type") {
				t = &tipo
			}
			// Only a broken table fails, and no --ejercicio of this command is one.
			if err := DecidirCodigos(f.Out, tabladecision.Tabla{Con413: programa.EsEjercicio(7, 2)}, codigos, t); err != nil {
				return fmt.Errorf("%s: %w", c.CommandPath(), err)
			}
			return nil
		},
	}
	c.Flags().StringVar(&tipo, "type", "", "el type de Problem Details que llega con el código")
	version = variantes.Declarar(c.Flags(), variantes.RevisorDecidir)
	return c
}
