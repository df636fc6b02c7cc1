// Command alta-segura registers a service through the gateway and retries without duplicating it.
// Exit code: 0 when the registration was made, 1 when it was not or nobody knows, 2 on a usage error.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/rs/zerolog"
	"github.com/spf13/cobra"

	"cursohttp/pkg/altasegura"
	"cursohttp/pkg/bitacora"
	"cursohttp/pkg/cli"
	"cursohttp/pkg/curso"
	"cursohttp/pkg/eventos"
	"cursohttp/pkg/reintento"
	"cursohttp/pkg/token"
	"cursohttp/pkg/variantes"
)

func main() { cli.Main(run) }

// run is the whole program with its arguments and streams passed in, so tests run it in-process.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cli.Ejecutar(ctx, nuevaRaiz(stdout, stderr, os.LookupEnv), args, stdin, stdout, stderr)
}

// nuevaRaiz builds the command; entorno reads ALTA_LIMITE_MS, PASARELA_URL and CURSOHTTP_TOKEN
// (os.LookupEnv, or a test's map).
func nuevaRaiz(stdout, stderr io.Writer, entorno func(string) (string, bool)) *cobra.Command {
	politica := reintento.PoliticaAlta() // what the help describes is what runs
	var sinLlave, logJSON bool
	var pasarela, credencial, panel, simular, tok, tokArchivo string
	var version *variantes.Banderas
	raiz := &cobra.Command{
		Use:   "alta-segura <nombre> <url>",
		Short: "da de alta un servicio a través de la pasarela y reintenta sin duplicarlo",
		Long:  descripcion(politica) + "\n\n" + variantes.Ayuda(variantes.AltaSegura),
		Example: `  alta-segura agenda http://127.0.0.1:18081/codigo/200
  alta-segura nomina2 http://127.0.0.1:18081/codigo/200 --sin-llave
  ALTA_LIMITE_MS=300 alta-segura muda http://127.0.0.1:18081/codigo/200
  alta-segura --defecto llave-por-intento agenda http://127.0.0.1:18081/codigo/200   (la versión rota de la lección 6)`,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) < 2 {
				return cli.UsoMal("%s", altasegura.Uso) // the course's line
			}
			return cli.HastaArgumentos(2)(c, args)
		},
		RunE: func(c *cobra.Command, args []string) error {
			if strings.TrimSpace(simular) == "" {
				return cli.UsoMal("alta-segura: --simular necesita un valor para X-Simular")
			}
			programa, err := version.Eleccion(nil)
			if err != nil {
				return cli.UsoMal("%s: %v", c.CommandPath(), err)
			}
			// A broken version says so first, every time.
			if aviso := programa.Aviso(); aviso != "" {
				fmt.Fprintln(stderr, aviso)
			}
			limite, texto := altasegura.LimiteDeEntorno(entorno("ALTA_LIMITE_MS"))
			var log *zerolog.Logger
			if logJSON {
				l := bitacora.NuevoLogger(stdout, stdout, true)
				log = &l
			}
			// PASARELA_URL, as the course's client reads it (and as «revisor comprobar cliente» sets
			// it), unless --pasarela says otherwise.
			if v, ok := entorno(VariablePasarela); ok && v != "" && !c.Flags().Changed("pasarela") {
				if err := (cli.URL{Destino: &pasarela}).Set(v); err != nil {
					return cli.UsoMal("alta-segura: %s debe ser una dirección http, no «%s»", VariablePasarela, v)
				}
			}
			var emisor *eventos.Emisor
			if panel != "" {
				t, err := token.Buscar(tok, tokArchivo, conTokenDelLab(entorno, ArchivoTokenDelLab))
				if err != nil {
					return cli.UsoMal("%s: %v", c.CommandPath(), err)
				}
				if t == "" {
					fmt.Fprintf(stderr, "alta-segura: no tengo el token del laboratorio (--token-archivo, --token, %s, %s o %s, que escribe «make lab-up»): el panel rechazará los eventos de este alta\n", token.Variable, token.VariableArchivo, ArchivoTokenDelLab)
				}
				aviso := func(s string) { fmt.Fprintln(stderr, "alta-segura: "+s) }
				emisor = eventos.NuevoEmisor(panel, t, aviso)
				// The events go before the program ends: its last attempt is the one that matters.
				defer emisor.Cerrar(2 * time.Second)
			}
			return cli.Salir(altasegura.Correr(c.Context(), altasegura.Opciones{
				Nombre:          args[0],
				URL:             args[1],
				SinLlave:        sinLlave,
				LlavePorIntento: programa.EsDefecto(variantes.LlavePorIntento),
				Pasarela:        pasarela,
				Credencial:      credencial,
				Limite:          limite,
				LimiteTexto:     texto,
				Politica:        politica,
				Salida:          stdout,
				Simular:         simular,
				Log:             log,
				Panel:           emisor,
			}))
		},
	}
	fs := raiz.Flags()
	fs.BoolVar(&sinLlave, "sin-llave", false, "no mandar Idempotency-Key (un reintento podría duplicar el alta)")
	pasarela = curso.URLPasarela
	fs.Var(cli.URL{Destino: &pasarela}, "pasarela", "la pasarela a la que se manda el alta")
	fs.StringVar(&credencial, "credencial", altasegura.CredencialPorOmision, "la credencial (Bearer) con la que se da de alta")
	version = variantes.Declarar(fs, variantes.AltaSegura)
	fs.StringVar(&simular, "simular", altasegura.SimularPorOmision, "lo que pide a la pasarela en X-Simular (pasarela --help lista los modos)")
	fs.BoolVar(&logJSON, "log-json", false, "cada línea en JSON, con la traza y el tramo de su intento")
	fs.Var(cli.URL{Destino: &panel, Vacia: true}, "panel", "manda un evento por intento a la página de laboratorio panel en esta URL (http://127.0.0.1:18084)")
	fs.StringVar(&tok, "token", "", "el token del laboratorio, que el panel pide a los eventos (si no se dice: el de CURSOHTTP_TOKEN, si no el de lab/token)")
	fs.StringVar(&tokArchivo, "token-archivo", "", token.AyudaArchivo)
	cli.Preparar(raiz)
	return raiz
}

// VariablePasarela is the gateway's base URL, as the course's client reads it.
const VariablePasarela = "PASARELA_URL"

// ArchivoTokenDelLab is where «laboratorio lab arrancar» (make lab-up) keeps the lab's token, in the
// folder it runs from (pkg/control's ArchivoToken in its Dir): a client links no server code, so
// the path is repeated here.
const ArchivoTokenDelLab = "lab/token"

// conTokenDelLab is entorno with one more source for the lab's token, after the variable: the file
// the lab controller wrote, so that the servers it started and a client run by hand beside them
// send the same token (token.Leer does the rest, as for the servers).
func conTokenDelLab(entorno func(string) (string, bool), archivo string) func(string) (string, bool) {
	return func(k string) (string, bool) {
		if entorno != nil {
			if v, ok := entorno(k); ok || k != token.Variable {
				return v, ok
			}
		}
		if k != token.Variable {
			return "", false
		}
		b, err := os.ReadFile(archivo)
		if err != nil {
			return "", false
		}
		return strings.TrimSpace(string(b)), true
	}
}

// descripcion is the command's help, its numbers and its rule taken from the policy it runs with.
func descripcion(p reintento.Politica) string {
	var techos []string
	for _, t := range p.Techos() {
		techos = append(techos, strconv.FormatInt(t.Milliseconds(), 10))
	}
	return fmt.Sprintf(`Da de alta un servicio en el revisor a través de la pasarela (%s, o la de
PASARELA_URL, o la de --pasarela) y, mientras no llegue una respuesta definitiva, lo reintenta: hasta %d intentos, con
esperas sorteadas (jitter) de hasta %s ms. Todos los intentos llevan la misma
Idempotency-Key, así que un reintento no duplica el alta; con --sin-llave van sin ella y un
reintento podría duplicarla. Pide «X-Simular: perder-primera»: la pasarela pierde la primera
respuesta (--simular pide otra falla: pasarela --help las lista).

Reintenta %s; cualquier otro código es
definitivo. Obedece Retry-After hasta %d s; si el servidor pide más, no insiste. Cada intento
espera su respuesta %d ms; la variable ALTA_LIMITE_MS lo cambia (sirve para probar).

Cada intento lleva la traza W3C del alta (traceparent: una traza por alta, un tramo por
intento), que la pasarela y el revisor continúan: con --log-json cada línea sale en JSON con
su traza, y con --panel el alta se ve en la página de laboratorio panel.

Sale con 0 si el alta se hizo, con 1 si no se hizo o no se sabe, y con 2 si se llamó mal.
Con --panel, el token del laboratorio es el de --token, si no el de CURSOHTTP_TOKEN, si no el que
«make lab-up» dejó en lab/token (visto desde la carpeta en la que corre); sin ninguno lo dice.
Ctrl+C lo interrumpe.`, curso.URLPasarela, p.Intentos, enumerar(techos), regla(p.Regla),
		int64(p.TopeRetryAfter/time.Second), reintento.LimiteIntentoAlta.Milliseconds())
}

// regla says in words what the rule retries: «sin respuesta, 502, 503, 504 y el 409 de «llave en
// curso»», a type named by the last segment of its URI.
func regla(r reintento.Regla) string {
	partes := []string{"sin respuesta"}
	for _, c := range r.Codigos {
		partes = append(partes, strconv.Itoa(c))
	}
	for _, t := range r.Types {
		nombre := strings.ReplaceAll(t.Type[strings.LastIndexByte(t.Type, '/')+1:], "-", " ")
		partes = append(partes, fmt.Sprintf("el %d de «%s»", t.Codigo, nombre))
	}
	return enumerar(partes)
}

// enumerar joins a list as Spanish does: «a, b y c».
func enumerar(partes []string) string {
	if len(partes) < 2 {
		return strings.Join(partes, "")
	}
	return strings.Join(partes[:len(partes)-1], ", ") + " y " + partes[len(partes)-1]
}
