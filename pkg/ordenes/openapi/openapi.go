// Package openapi is «revisor openapi»: it prints the revisor's OpenAPI 3.1 document.
package openapi

import (
	"io"

	"github.com/spf13/cobra"

	"cursohttp/pkg/cli"
	"cursohttp/pkg/documentoapi"
	"cursohttp/pkg/revisor"
	"cursohttp/pkg/variantes"
)

// NuevoCmd builds the order; the document goes to out.
func NuevoCmd(out io.Writer) *cobra.Command {
	var leccion int
	c := &cobra.Command{
		Use:   "openapi",
		Short: "Imprime el documento OpenAPI 3.1 del revisor (JSON)",
		Long: `Imprime el documento OpenAPI 3.1 del revisor en JSON: cada ruta y método, cada código con el type de
sus Problem Details, las cabeceras que dicen algo (ETag, If-Match, Idempotency-Key, Retry-After,
RateLimit, WWW-Authenticate, Location, Deprecation y Sunset) y las credenciales con su alcance.
Las pruebas validan contra él cada respuesta del revisor. El panel del laboratorio lo sirve en
/openapi.json, con una página para leerlo en /openapi.`,
		Example: `  revisor openapi > revisor.json
  revisor openapi --leccion 4        (el revisor de la lección 4: errores en texto, sin Idempotency-Key)`,
		Args: cli.SinArgumentos,
		RunE: func(c *cobra.Command, _ []string) error {
			switch leccion {
			case 4:
				// Only the revisor prints Lesson 4's document: it builds it from its route table.
				_, err := out.Write(revisor.Documento(variantes.Eleccion{Leccion: 4}))
				return err
			case 6, 7:
				_, err := out.Write(documentoapi.Documento())
				return err
			}
			return cli.UsoMal("%s: --leccion: el revisor tiene versiones de las lecciones 4, 6 y 7, no de «%d»", c.CommandPath(), leccion)
		},
	}
	c.Flags().IntVar(&leccion, "leccion", 7, "de qué lección es el revisor: 4, 6 o 7 (6 y 7 comparten el revisor final)")
	return c
}
