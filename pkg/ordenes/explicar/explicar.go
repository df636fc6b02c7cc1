// Package explicar is «revisor explicar»: the page behind a problem type, in the terminal.
package explicar

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"cursohttp/pkg/cli"
	"cursohttp/pkg/explicaciones"
)

// NuevoCmd builds the order; the pages go to out.
func NuevoCmd(out io.Writer) *cobra.Command {
	var lista bool
	c := &cobra.Command{
		Use:   "explicar <nombre|código>",
		Short: "Explica un type de Problem Details del revisor: qué pasó, qué hacer y dónde lo enseña el curso",
		Long: `Explica un type de los Problem Details del revisor, lo mismo que su página en el panel del
laboratorio (http://127.0.0.1:18084/problemas/<nombre>): qué pasó, qué hacer (la acción de la tabla de
decisión de la lección 7, y si repetir con la misma Idempotency-Key es seguro), quién lo responde,
una respuesta real de ejemplo y la lección y la sección que lo enseñan. Con un código (409), todos
los type de ese código.`,
		Example: `  revisor explicar llave-en-curso
  revisor explicar https://revisor.example/problemas/llave-en-curso
  revisor explicar 409
  revisor explicar --lista`,
		Args: cli.HastaArgumentos(1),
		RunE: func(c *cobra.Command, args []string) error {
			if lista {
				if len(args) > 0 {
					return cli.UsoMal("%s: --lista no lleva nombre", c.CommandPath())
				}
				for _, p := range explicaciones.Paginas() {
					fmt.Fprintf(out, "%-26s %d  %s\n", p.Nombre(), p.Tipo.Status, p.Tipo.Title)
				}
				return nil
			}
			if len(args) == 0 {
				return cli.UsoMal("%s: falta el nombre de un type o un código; «%s --lista» los muestra", c.CommandPath(), c.CommandPath())
			}
			ps, err := explicaciones.Buscar(args[0])
			var noExiste *explicaciones.NoExiste
			if errors.As(err, &noExiste) {
				// A mistyped name gets the closest ones, as a mistyped order does.
				var nombres []string
				for _, p := range explicaciones.Paginas() {
					nombres = append(nombres, p.Nombre())
				}
				quiza := ""
				if s := cli.Parecidas(noExiste.Nombre, nombres); len(s) > 0 {
					quiza = " ¿querías decir «" + strings.Join(s, "» o «") + "»?"
				}
				return cli.UsoMal("%s: %v;%s «%s --lista» los muestra", c.CommandPath(), err, quiza, c.CommandPath())
			}
			if err != nil {
				return cli.UsoMal("%s: %v", c.CommandPath(), err)
			}
			textos := make([]string, len(ps))
			for i, p := range ps {
				textos[i] = p.Texto()
			}
			_, err = io.WriteString(out, strings.Join(textos, "\n"))
			return err
		},
	}
	c.Flags().BoolVar(&lista, "lista", false, "lista los type que el revisor puede responder")
	return c
}
