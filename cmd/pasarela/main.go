// Command pasarela is the lesson-6 gateway: it listens on 18082 and forwards to the revisor,
// losing the first answer of a request that carries «X-Simular: perder-primera», and failing in
// the other ways --help lists when asked.
package main

import (
	"context"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/rs/zerolog"
	"github.com/spf13/cobra"

	"cursohttp/pkg/cli"
	"cursohttp/pkg/curso"
	"cursohttp/pkg/observacion"
	"cursohttp/pkg/pasarela"
	"cursohttp/pkg/servidor"
	"cursohttp/pkg/token"
)

func main() { cli.Main(run) }

// run is the whole program with its arguments and streams passed in, so tests run it in-process.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cli.Ejecutar(ctx, nuevaRaiz(stdout, stderr), args, stdin, stdout, stderr)
}

func nuevaRaiz(stdout, stderr io.Writer) *cobra.Command {
	var o servidor.Opciones
	var destino, simular string
	var semilla uint64
	var transporte string
	raiz := &cobra.Command{
		Use:   "pasarela",
		Short: "la pasarela de la lección 6: reenvía al revisor y pierde la primera respuesta si se le pide",
		Long: `La pasarela de la lección 6, en http://127.0.0.1:18082: reenvía cada petición al revisor
(el de --destino) y devuelve su respuesta. De la petición pasan solo las cabeceras
Authorization, Content-Type, Idempotency-Key, If-Match e If-None-Match, y el contexto de
traza W3C (traceparent y tracestate): con --log-json, --log-detalle o --panel la pasarela
continúa la traza con un tramo propio; sin ellas la deja pasar tal como llegó.

` + pasarela.AyudaModos() + `

La pasarela lleva un libro de lo que ve: de cada petición, qué respondió el revisor (o que
nunca la vio) y qué recibió el cliente. Sus rutas propias no se reenvían:
  /_pasarela/resumen   la pregunta de la lección respondida: «el revisor hizo N escrituras;
                       los clientes vieron M éxitos», y las cuentas
  /_pasarela/libro     lo mismo en JSON, con las últimas 1000 peticiones
  /_pasarela/simular   GET la falla de --simular en vigor; PUT la cambia en marcha (el cuerpo
                       como --simular; vacío: ninguna; ?semilla=N), para todos: pide el token
                       del laboratorio (Authorization: Bearer …, el de --token)

Arranca el revisor antes. Se detiene con Ctrl+C: deja terminar las peticiones en curso.`,
		Example: `  pasarela
  curl -i -X POST http://127.0.0.1:18082/servicios -H 'X-Simular: perder-primera' \
       -H 'Authorization: Bearer escritura-a' -H 'Content-Type: application/json' \
       -d '{"nombre":"agenda","url":"http://127.0.0.1:18081/codigo/200"}'
  curl -i -X POST http://127.0.0.1:18082/servicios -H 'X-Simular: rechazar' …
  pasarela --simular perder@0.3 --semilla 7   (pierde 3 de cada 10, siempre las mismas)
  curl http://127.0.0.1:18082/_pasarela/resumen
  pasarela --puerto 0 --destino http://127.0.0.1:28080   (un puerto libre; la primera línea dice cuál)
  pasarela --destino http://127.0.0.1:18080,http://127.0.0.1:28080   (dos revisores sobre un mismo PostgreSQL, por turnos)`,
		Args: cli.SinArgumentos,
		RunE: func(c *cobra.Command, _ []string) error {
			if err := cli.ValidarPuerto(c, "--puerto", o.Puerto); err != nil {
				return err
			}
			destinos, err := cli.URLs(destino) // checked as --destino was read; its default is one
			if err != nil {
				return cli.UsoMal("pasarela: --destino %v", err)
			}
			var sim *pasarela.Simulacion
			if simular != "" {
				if !c.Flags().Changed("semilla") {
					semilla = rand.Uint64() // said on start-up, so the run can be repeated
				}
				if sim, err = pasarela.LeerSimulacion(simular, semilla); err != nil {
					return cli.UsoMal("pasarela: --simular %v", err)
				}
			} else if c.Flags().Changed("semilla") {
				return cli.UsoMal("pasarela: --semilla sirve con --simular")
			}
			var t http.RoundTripper // nil: pasarela.TransportePorOmision
			switch transporte {
			case "":
			case "directo":
				t = pasarela.NuevoDirecto()
			case "estandar":
				t = pasarela.NuevoTransporte()
			default:
				return cli.UsoMal("pasarela: --transporte es directo o estandar, no «%s»", transporte)
			}
			// The lab's token: --token, else CURSOHTTP_TOKEN (the lab controller's), else one nobody
			// knows, not printed: the course's gateway prints one line at start-up, and the
			// lessons' scenes compare it. Without it the fault changes only with --simular.
			dado, err := token.Buscar(o.Token, o.TokenArchivo, os.LookupEnv)
			if err != nil {
				return cli.UsoMal("pasarela: %v", err)
			}
			tok, _ := token.Elegir(dado, nil, token.Variable)
			return servir(c.Context(), o, destinos, sim, t, tok, stdout, stderr)
		},
	}
	o.Banderas(raiz.Flags(), curso.PuertoPasarela)
	o.BanderasDeTraza(raiz.Flags())
	destino = curso.URLRevisor
	raiz.Flags().Var(cli.URL{Destino: &destino, Varias: true}, "destino", "el revisor al que reenvía; varios separados por comas se turnan (uno que rechaza la conexión se salta)")
	raiz.Flags().StringVar(&simular, "simular", "", "una falla para todas las peticiones sin X-Simular: MODO o MODO@PROB (perder@0.3)")
	raiz.Flags().Uint64Var(&semilla, "semilla", 0, "la semilla del sorteo de --simular")
	raiz.Flags().Lookup("semilla").DefValue = "una al azar, que se dice al arrancar"
	// make bench runs the gateway on both transports to compare their cost; a
	// student has no reason to: hidden from the help.
	raiz.Flags().StringVar(&transporte, "transporte", "", "directo (el de la pasarela) o estandar (el Transport de net/http); si no se dice, estandar, o directo con CURSOHTTP_RAPIDO=1")
	raiz.Flags().MarkHidden("transporte")
	cli.Preparar(raiz)
	return raiz
}

// servir serves the gateway (servidor.Correr) until ctx ends.
func servir(ctx context.Context, o servidor.Opciones, destinos []*url.URL, sim *pasarela.Simulacion, transporte http.RoundTripper, tok string, stdout, stderr io.Writer) error {
	var p *pasarela.Pasarela
	return servidor.Correr(ctx, servidor.Programa{
		Nombre: "pasarela", Opciones: o, Out: stdout, Err: stderr, Observar: true,
		Armar: func(log zerolog.Logger, _ observacion.Observador) (http.Handler, func(), error) {
			p = pasarela.Nueva(pasarela.Opciones{Destinos: destinos, Log: log, Transporte: transporte, Token: tok})
			return p, nil, nil
		},
		Inicio: func(log zerolog.Logger, addr string) {
			nombres := make([]string, len(destinos))
			for i, d := range destinos {
				nombres[i] = d.String()
			}
			log.Info().Str("direccion", addr).Str("destino", strings.Join(nombres, ",")).
				Msg(pasarela.LineaDeInicio(addr, destinos))
			if sim != nil {
				p.Simular(sim)
				log.Info().Str("simular", sim.String()).Uint64("semilla", sim.Semilla).Msg(pasarela.LineaDeSimulacion(sim))
			}
		},
	})
}
