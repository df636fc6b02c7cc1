// Command alta-segura registers a service through the gateway and retries without duplicating it.
// Exit code: 0 when the registration was made, 1 when it was not or nobody knows, 2 on a usage error.
package main

import (
	"context"
	"io"
	"net/url"
	"os"

	"github.com/spf13/cobra"

	"cursohttp/pkg/altasegura"
	"cursohttp/pkg/cli"
	"cursohttp/pkg/curso"
)

func main() { cli.Main(run) }

// run is the whole program with its arguments and streams passed in, so tests run it in-process.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cli.Ejecutar(ctx, nuevaRaiz(stdout, os.LookupEnv), args, stdin, stdout, stderr)
}

// nuevaRaiz builds the command; entorno reads ALTA_LIMITE_MS (os.LookupEnv, or a test's map).
func nuevaRaiz(stdout io.Writer, entorno func(string) (string, bool)) *cobra.Command {
	var sinLlave bool
	var pasarela, credencial string
	raiz := &cobra.Command{
		Use:   "alta-segura <nombre> <url>",
		Short: "da de alta un servicio a través de la pasarela y reintenta sin duplicarlo",
		Long: `Da de alta un servicio en el revisor a través de la pasarela (http://127.0.0.1:18082, o la de
--pasarela) y, mientras no llegue una respuesta definitiva, lo reintenta: hasta 4 intentos, con
esperas sorteadas (jitter) de hasta 500, 1000 y 2000 ms. Todos los intentos llevan la misma
Idempotency-Key, así que un reintento no duplica el alta; con --sin-llave van sin ella y un
reintento podría duplicarla. Pide «X-Simular: perder-primera»: la pasarela pierde la primera
respuesta.

Reintenta sin respuesta, 502, 503, 504 y el 409 de «llave en curso»; cualquier otro código es
definitivo. Obedece Retry-After hasta 5 s; si el servidor pide más, no insiste. Cada intento
espera su respuesta 2000 ms; la variable ALTA_LIMITE_MS lo cambia (sirve para probar).

Sale con 0 si el alta se hizo, con 1 si no se hizo o no se sabe, y con 2 si se llamó mal.
Ctrl+C lo interrumpe.`,
		Example: `  alta-segura agenda http://127.0.0.1:18081/codigo/200
  alta-segura nomina2 http://127.0.0.1:18081/codigo/200 --sin-llave
  ALTA_LIMITE_MS=300 alta-segura muda http://127.0.0.1:18081/codigo/200`,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) < 2 {
				return cli.UsoMal("%s", altasegura.Uso) // the course's line
			}
			return cli.HastaArgumentos(2)(c, args)
		},
		RunE: func(c *cobra.Command, args []string) error {
			if u, err := url.Parse(pasarela); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return cli.UsoMal("alta-segura: --pasarela debe ser una dirección http, no %q", pasarela)
			}
			limite, texto := altasegura.LimiteDeEntorno(entorno("ALTA_LIMITE_MS"))
			return cli.Salir(altasegura.Correr(c.Context(), altasegura.Opciones{
				Nombre:      args[0],
				URL:         args[1],
				SinLlave:    sinLlave,
				Pasarela:    pasarela,
				Credencial:  credencial,
				Limite:      limite,
				LimiteTexto: texto,
				Salida:      stdout,
			}))
		},
	}
	fs := raiz.Flags()
	fs.BoolVar(&sinLlave, "sin-llave", false, "no mandar Idempotency-Key (un reintento podría duplicar el alta)")
	fs.StringVar(&pasarela, "pasarela", curso.URLPasarela, "la pasarela a la que se manda el alta")
	fs.StringVar(&credencial, "credencial", altasegura.CredencialPorOmision, "la credencial (Bearer) con la que se da de alta")
	cli.Preparar(raiz)
	return raiz
}
