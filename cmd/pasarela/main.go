// Command pasarela is the lesson-6 gateway: it listens on 18082 and forwards to the revisor,
// losing the first answer of a request that carries «X-Simular: perder-primera».
package main

import (
	"context"
	"fmt"
	"io"
	"net/url"

	"github.com/spf13/cobra"

	"cursohttp/pkg/cli"
	"cursohttp/pkg/curso"
	"cursohttp/pkg/pasarela"
	"cursohttp/pkg/servidor"
)

func main() { cli.Main(run) }

// run is the whole program with its arguments and streams passed in, so tests run it in-process.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cli.Ejecutar(ctx, nuevaRaiz(stdout, stderr), args, stdin, stdout, stderr)
}

func nuevaRaiz(stdout, stderr io.Writer) *cobra.Command {
	var o servidor.Opciones
	var destino string
	raiz := &cobra.Command{
		Use:   "pasarela",
		Short: "la pasarela de la lección 6: reenvía al revisor y pierde la primera respuesta si se le pide",
		Long: `La pasarela de la lección 6, en http://127.0.0.1:18082: reenvía cada petición al revisor
(el de --destino) y devuelve su respuesta. De la petición pasan solo las cabeceras
Authorization, Content-Type, Idempotency-Key, If-Match e If-None-Match, y el contexto de
traza W3C (traceparent y tracestate): con --log-json, --log-detalle o --panel la pasarela
continúa la traza con un tramo propio; sin ellas la deja pasar tal como llegó.

Con «X-Simular: perder-primera» la petición llega al revisor, que hace su trabajo, pero la
pasarela pierde su respuesta y contesta 502: el cliente no sabe si la escritura ocurrió. La
siguiente vez que llega la misma petición (la misma Idempotency-Key o, sin llave, el mismo
cuerpo) la respuesta pasa. Si el revisor no responde, también contesta 502.

Arranca el revisor antes. Se detiene con Ctrl+C: deja terminar las peticiones en curso.`,
		Example: `  pasarela
  curl -i -X POST http://127.0.0.1:18082/servicios -H 'X-Simular: perder-primera' \
       -H 'Authorization: Bearer escritura-a' -H 'Content-Type: application/json' \
       -d '{"nombre":"agenda","url":"http://127.0.0.1:18081/codigo/200"}'
  pasarela --puerto 0 --destino http://127.0.0.1:28080   (un puerto libre; la primera línea dice cuál)`,
		Args: cli.SinArgumentos,
		RunE: func(c *cobra.Command, _ []string) error {
			if err := cli.ValidarPuerto(c, "--puerto", o.Puerto); err != nil {
				return err
			}
			u, err := url.Parse(destino)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return cli.UsoMal("pasarela: --destino debe ser una dirección http, no «%s»", destino)
			}
			if err := servidor.ValidarPanel(o.Panel); err != nil {
				return cli.UsoMal("pasarela: %v", err)
			}
			return servir(c.Context(), o, u, stdout, stderr)
		},
	}
	o.Banderas(raiz.Flags(), curso.PuertoPasarela)
	o.BanderasDeTraza(raiz.Flags())
	raiz.Flags().StringVar(&destino, "destino", curso.URLRevisor, "el revisor al que reenvía")
	cli.Preparar(raiz)
	return raiz
}

// servir listens, prints the start-up line, serves until ctx ends and shuts down gracefully.
func servir(ctx context.Context, o servidor.Opciones, destino *url.URL, stdout, stderr io.Writer) error {
	log := servidor.NuevoLogger(stdout, stderr, o.LogJSON)
	o.Log = log
	ln, err := servidor.Escuchar("pasarela", o)
	if err != nil {
		return err // one line, busy port included
	}
	obs, cerrar := o.Observar("pasarela", log)
	defer cerrar()
	srv := servidor.Nuevo(obs.Envolver(pasarela.Nueva(pasarela.Opciones{Destino: destino, Log: log})))
	log.Info().Str("direccion", ln.Addr().String()).Str("destino", destino.String()).
		Msg(pasarela.LineaDeInicio(ln.Addr().String(), destino))
	if err := servidor.Servir(ctx, ln, srv, log); err != nil {
		return fmt.Errorf("pasarela: %w", err)
	}
	return nil
}
