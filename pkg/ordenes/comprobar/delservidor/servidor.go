// Package delservidor is `revisor comprobar servidor`: the Idempotency-Key checks a server must pass
// beyond the course's five (revisor comprobar idempotencia, which stays the course's program).
package delservidor

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"cursohttp/pkg/cli"
	"cursohttp/pkg/curso"
	"cursohttp/pkg/examen"
	"cursohttp/pkg/ordenes/entorno"
)

// NuevoCmd is `revisor comprobar servidor [base]`; runF nil runs ComprobarServidor.
func NuevoCmd(f *entorno.Fabrica, runF func(context.Context, OpcionesServidor) ([]examen.Comprobacion, error)) *cobra.Command {
	if runF == nil {
		runF = ComprobarServidor
	}
	e := f.Entorno
	var vigencia time.Duration
	var comoJSON bool
	c := &cobra.Command{
		Use:   "servidor [base] [opciones]",
		Short: "Lo que además debe cumplir un servidor con Idempotency-Key, más allá de las cinco del curso",
		Long: `Comprueba, contra el revisor de base (o el de --revisor), lo que un servidor que dice
admitir Idempotency-Key debe cumplir además de las cinco comprobaciones del curso (revisor
comprobar idempotencia), según el borrador del IETF y las garantías que publica Stripe:

  repite-la-respuesta      la repetición devuelve el mismo código, las mismas cabeceras con
                           sentido (Location, Content-Type, Content-Language, ETag) y el mismo cuerpo
  misma-llave-otro-cuerpo  la misma llave con otro cuerpo da 422 y no crea nada
  llave-por-credencial     la misma llave de otra credencial es otra petición
  falla-no-consume         un alta que falla con 4xx no gasta la llave
  concurrentes-un-efecto   diez altas a la vez con la misma llave hacen un solo servicio
  vence                    con --vigencia (la del servidor: REVISOR_VIGENCIA_MS, --vigencia-llaves),
                           pasada la vigencia la llave es nueva (ejercicio 3 de la lección 6)

Usa nombres y llaves nuevos en cada corrida y deja servicios de los equipos a y b. Sale con
código 0 solo si pasan todas.`,
		Example: `  revisor comprobar servidor
  revisor comprobar servidor --vigencia 5s    (con un revisor arrancado con --vigencia-llaves 5s)
  revisor comprobar servidor http://127.0.0.1:28080 --json`,
		Args: entorno.HastaUnArgumento,
		RunE: func(c *cobra.Command, args []string) error {
			base := e.ConBases().Revisor
			if len(args) == 1 {
				base = args[0]
			}
			if vigencia < 0 || vigencia > 10*time.Minute {
				return cli.UsoMal("%s: --vigencia va de 0 (no se comprueba) a 10m", c.CommandPath())
			}
			cs, err := runF(c.Context(), OpcionesServidor{Base: base, Vigencia: vigencia})
			if err != nil {
				if c.Context().Err() != nil {
					return cli.Salir(curso.Interrumpido)
				}
				return fmt.Errorf("%s: %w", c.CommandPath(), err)
			}
			bien := 0
			for _, x := range cs {
				if x.Paso {
					bien++
				}
			}
			if comoJSON {
				b, _ := json.MarshalIndent(struct {
					Pasaron        int                   `json:"pasaron"`
					Total          int                   `json:"total"`
					Comprobaciones []examen.Comprobacion `json:"comprobaciones"`
				}{bien, len(cs), cs}, "", "  ")
				fmt.Fprintf(e.Out, "%s\n", b)
			} else {
				examen.EscribirComprobaciones(e.Out, cs, "del servidor")
			}
			if bien == len(cs) {
				return nil
			}
			return cli.Salir(1)
		},
	}
	entorno.ConRevisor(c, &e)
	c.Flags().DurationVar(&vigencia, "vigencia", 0, "la vigencia de las llaves con la que arrancó el servidor: espera a que pase y comprueba que la llave es nueva (0: no se comprueba)")
	c.Flags().BoolVar(&comoJSON, "json", false, "el informe en JSON: cada comprobación con su id y su resultado")
	return c
}
