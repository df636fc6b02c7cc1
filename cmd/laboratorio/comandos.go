package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/rs/zerolog"
	"github.com/spf13/cobra"

	"cursohttp/pkg/cli"
	"cursohttp/pkg/control"
	"cursohttp/pkg/curso"
	"cursohttp/pkg/hostil"
	"cursohttp/pkg/laboratorio"
	"cursohttp/pkg/observacion"
	"cursohttp/pkg/panel"
	"cursohttp/pkg/servidor"
	"cursohttp/pkg/token"
	"cursohttp/pkg/variantes"
)

// usoMentira is the course's usage line, naming this command.
const usoMentira = "uso: laboratorio mentira <respuesta>...   (por ejemplo: 503:2 201)"

// flujos are the program's standard streams.
type flujos struct {
	in       io.Reader
	out, err io.Writer
}

// run is the whole program with its arguments and streams passed in, so tests run it in-process.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cli.Ejecutar(ctx, nuevaRaiz(flujos{in: stdin, out: stdout, err: stderr}), args, stdin, stdout, stderr)
}

// nuevaRaiz builds the command tree; every command writes only to f.
func nuevaRaiz(f flujos) *cobra.Command {
	var o servidor.Opciones
	var version *variantes.Banderas
	raiz := &cobra.Command{
		Use:   "laboratorio",
		Short: "el banco de pruebas del curso: responde el código que le pidas",
		Long: `El banco de pruebas del curso, en http://127.0.0.1:18081.

  /codigo/NNN   responde el código NNN con su frase, las cabeceras que ese código
                pide (Location, ETag, WWW-Authenticate, Allow, Retry-After) y un
                cuerpo de texto; un código menor que 200 es un 400, uno mayor que
                599 se produce a propósito
  /lento/MS     responde 200 después de MS milisegundos (de 1 a 5 cifras)
  /cortar       cierra la conexión sin responder nada
  /basura       responde algo que no es HTTP y cierra

/codigo solo atiende GET y HEAD; las otras tres rutas, cualquier método.
Se detiene con Ctrl+C: deja terminar las peticiones en curso.

` + variantes.Ayuda(variantes.Laboratorio),
		Example: `  laboratorio
  curl -i http://127.0.0.1:18081/codigo/503
  laboratorio --puerto 0          (un puerto libre; la primera línea dice cuál)`,
		Args: cli.SinArgumentos,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := validar(cmd, o); err != nil {
				return err
			}
			// Every lesson's bench is the same program: the choice is only checked.
			if _, err := version.Eleccion(nil); err != nil {
				return cli.UsoMal("%s: %v", cmd.CommandPath(), err)
			}
			return servidor.Correr(cmd.Context(), servidor.Programa{
				Nombre: "laboratorio", Opciones: o, Out: f.out, Err: f.err, Peticiones: true, Observar: true,
				Armar: func(log zerolog.Logger, _ observacion.Observador) (http.Handler, func(), error) {
					return laboratorio.Nuevo(log), nil, nil
				},
				Inicio: linea("laboratorio en http://", "/codigo/NNN"),
			})
		},
	}
	o.Banderas(raiz.Flags(), curso.PuertoLaboratorio)
	o.BanderasDeTraza(raiz.Flags())
	version = variantes.Declarar(raiz.Flags(), variantes.Laboratorio)
	raiz.AddCommand(nuevaMentira(f), nuevoHostil(f), nuevoLab(f), nuevoPanel(f), nuevoEsperar(f), nuevaClaseCmd(f))
	cli.Preparar(raiz)
	return raiz
}

func nuevaMentira(f flujos) *cobra.Command {
	var o servidor.Opciones
	var om laboratorio.OpcionesMentira
	var callado bool
	cmd := &cobra.Command{
		Use:   "mentira <respuesta>...",
		Short: "un servidor de mentira en el 18082 (donde estaría la pasarela) que contesta lo que le digas",
		Long: `Un servidor de mentira en http://127.0.0.1:18082, donde estaría la pasarela
(detén la pasarela antes). Contesta una respuesta por petición, en orden, y la
última se repite. Cada petición deja la línea «petición N: <respuesta>».

  201           responde 201 con un cuerpo de juguete: {"id":99}
  503:2         responde 503 con «Retry-After: 2» (tras los dos puntos, los segundos)
  409:en-curso  responde el 409 de «llave en curso»; 409 a secas es otro 409
  mudo          acepta la conexión y no contesta nunca

Un código va de 200 a 999; uno de 300 o más es un error en Problem Details, con el title
«respuesta de mentira»; con --titulos-reales, con el que pondría un servidor de verdad: la frase
del código (Service Unavailable) o, en el 409 de «llave en curso», el del revisor.

Con --callado no escribe nada (ni la línea de arranque ni las de cada petición; los errores,
sí): como los servidores de una línea que la lección 6 arranca en segundo plano en la misma
terminal («… & PIDE=$!»), cuya salida se mezclaría con la de lo que comparas.`,
		Example: `  laboratorio mentira 503:2 201
  laboratorio mentira 409:en-curso 201
  laboratorio mentira mudo
  laboratorio mentira --titulos-reales 503:2 201   (el servidor de una línea de la lección 6, S-I37)
  laboratorio mentira --callado --titulos-reales 503:2 201 & PIDE=$!   (en segundo plano, como en §6.8.4)`,
		Args: func(*cobra.Command, []string) error { return nil },
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cli.UsoMal("%s", usoMentira)
			}
			if err := validar(cmd, o); err != nil {
				return err
			}
			out := f.out
			if callado {
				out = io.Discard // the lesson's one-liners print nothing; errors still go to stderr
			}
			return servidor.Correr(cmd.Context(), servidor.Programa{
				Nombre: "laboratorio mentira", Opciones: o, Out: out, Err: f.err,
				Armar: func(log zerolog.Logger, _ observacion.Observador) (http.Handler, func(), error) {
					m, err := laboratorio.NuevaMentira(args, log, om)
					if err != nil {
						return nil, nil, cli.UsoMal("laboratorio mentira: %v", err)
					}
					// A held "mudo" request must not make Ctrl+C wait.
					soltar := context.AfterFunc(cmd.Context(), m.Cerrar)
					return m, func() { soltar() }, nil
				},
				Inicio: linea("servidor de mentira en http://", ""),
			})
		},
	}
	o.Banderas(cmd.Flags(), curso.PuertoPasarela)
	cmd.Flags().BoolVar(&om.TitulosReales, "titulos-reales", false, "cada error lleva el title de un servidor de verdad, no «respuesta de mentira»")
	cmd.Flags().BoolVar(&callado, "callado", false, "no escribe nada en la terminal (los errores, sí), como un servidor de una línea en segundo plano")
	return cmd
}

func nuevoEsperar(f flujos) *cobra.Command {
	var direccion string
	var limite time.Duration
	cmd := &cobra.Command{
		Use:   "esperar PUERTO",
		Short: "espera a que algo escuche en un puerto (el esperar_puerto de la lección 6)",
		Long: `Espera a que algo acepte conexiones en el puerto PUERTO de 127.0.0.1 y termina sin
escribir nada: es el «esperar_puerto» que la lección 6 usa tras arrancar un servidor en segundo
plano. Si en --limite nadie escucha, lo dice y sale con 1.

Código de salida: 0 alguien escucha; 1 se acabó el tiempo; 2 mal llamado.

Como función de bash, con el nombre de la lección:
  esperar_puerto() { laboratorio esperar "$@"; }`,
		Example: `  laboratorio esperar 18082
  laboratorio mentira --callado 503:2 201 & PIDE=$!; laboratorio esperar 18082
  laboratorio esperar --limite 30s 18080`,
		Args: func(*cobra.Command, []string) error { return nil },
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return cli.UsoMal("uso: laboratorio esperar PUERTO   (por ejemplo: laboratorio esperar 18082)")
			}
			puerto, err := strconv.Atoi(args[0])
			if err != nil || puerto < 1 || puerto > 65535 {
				return cli.UsoMal("laboratorio esperar: el puerto va de 1 a 65535, no «%s»", args[0])
			}
			if limite <= 0 {
				return cli.UsoMal("laboratorio esperar: --limite debe ser mayor que cero, no %s", limite)
			}
			err = control.EsperarPuerto(cmd.Context(), direccion, puerto, limite, 50*time.Millisecond)
			if errors.Is(err, control.ErrNadieEscucha) {
				fmt.Fprintf(f.err, "laboratorio esperar: %v; ¿arrancó el servidor? (mira su terminal o su bitácora)\n", err)
				return cli.Salir(cli.SalidaFallo)
			}
			return err
		},
	}
	cmd.Flags().StringVar(&direccion, "direccion", curso.Host, "dirección en la que se espera")
	cmd.Flags().DurationVar(&limite, "limite", 10*time.Second, "cuánto esperar como mucho (10s, 500ms, 1m)")
	return cmd
}

func nuevoHostil(f flujos) *cobra.Command {
	var o servidor.Opciones
	cmd := &cobra.Command{
		Use:   "hostil",
		Short: "un servicio hostil en el 18083 que responde el type de Problem Details que le pidas",
		Long: `Un servicio «hostil» en http://127.0.0.1:18083: siempre responde 409 con
Problem Details, y el type lo elige quien pregunta. Sirve para probar qué hace
un cliente con un type que llega de afuera.

  /type/<texto>  409 con ese type (la URL se decodifica como decodeURIComponent)
  /idioma/en     el 409 de «llave en curso» con el title y el detail en inglés
  cualquier otra el mismo 409 en español`,
		Example: `  laboratorio hostil
  curl -i http://127.0.0.1:18083/type/constructor`,
		Args: cli.SinArgumentos,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := validar(cmd, o); err != nil {
				return err
			}
			return servidor.Correr(cmd.Context(), servidor.Programa{
				Nombre: "laboratorio hostil", Opciones: o, Out: f.out, Err: f.err,
				Armar: func(zerolog.Logger, observacion.Observador) (http.Handler, func(), error) {
					return hostil.Nuevo(), nil, nil
				},
				Inicio: linea("servicio hostil en http://", ""),
			})
		},
	}
	o.Banderas(cmd.Flags(), curso.PuertoHostil)
	return cmd
}

func nuevoPanel(f flujos) *cobra.Command {
	var o servidor.Opciones
	var pasarela string
	cmd := &cobra.Command{
		Use:   "panel",
		Short: "la página del viaje de cada petición, en vivo, en el 18084 (para el proyector)",
		Long: `La página del viaje de cada petición, en http://127.0.0.1:18084: ábrela en el navegador.
Los programas arrancados con --panel http://127.0.0.1:18084 (laboratorio, revisor, pasarela y
alta-segura) le mandan un evento por petición, intento o sonda, y la página dibuja cada traza
en vivo: una fila por intento a lo largo de cliente → pasarela → revisor → laboratorio, con su
código, su duración y su Idempotency-Key, y dónde se perdió una respuesta (✘ respuesta
perdida, ⊘ nunca llegó al revisor). Arriba, el libro de la pasarela: cuántas escrituras hizo el
revisor y cuántos éxitos vieron los clientes, y un control que cambia en marcha la falla que
la pasarela aplica a todas las peticiones sin X-Simular (lo mismo que su --simular).

Lo que cambia la página para todos (los eventos, el control de la falla, «Limpiar») pide el
token del laboratorio (Authorization: Bearer …): el de --token, si no el de CURSOHTTP_TOKEN,
si no uno nuevo, que dice al arrancar; los servidores y alta-segura lo mandan con su --token
(o CURSOHTTP_TOKEN), y el control lo pasa a la pasarela. La página no lo lleva nunca: quien
la abre sin más solo mira. El profesor la abre una vez con el enlace que este programa dice
al arrancar (o «laboratorio lab enlace»), que deja a su navegador actuar desde la página;
lo que mande una página de otro sitio se rechaza. La pizarra de la clase no está aquí: es la del
modo clase («laboratorio clase iniciar»).

Todo lo sirve este programa: no necesita internet. «make lab-up PANEL=1» lo arranca con los
tres servidores ya conectados y el mismo token («laboratorio lab token» lo muestra). Se
detiene con Ctrl+C.`,
		Example: `  laboratorio panel
  make lab-up PANEL=1          (el panel y los tres servidores, conectados)
  alta-segura agenda http://127.0.0.1:18081/codigo/200 --panel http://127.0.0.1:18084`,
		Args: cli.SinArgumentos,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := validar(cmd, o); err != nil {
				return err
			}
			// The token: the flag's, else the environment's (the lab controller's), else a new one,
			// said after the start-up line (no lesson shows the panel).
			dado, err := token.Buscar(o.Token, o.TokenArchivo, os.LookupEnv)
			if err != nil {
				return cli.UsoMal("%s: %v", cmd.CommandPath(), err)
			}
			tok, nuevo := token.Elegir(dado, nil, token.Variable)
			var dichos []string
			if nuevo {
				dichos = append(dichos, "panel: token del laboratorio "+tok+" (nuevo: los servidores y alta-segura lo mandan con --token o CURSOHTTP_TOKEN)")
			}
			return servidor.Correr(cmd.Context(), servidor.Programa{
				Nombre: "laboratorio panel", Opciones: o, Out: f.out, Err: f.err,
				Armar: func(log zerolog.Logger, _ observacion.Observador) (http.Handler, func(), error) {
					p := panel.Nuevo(panel.Opciones{Pasarela: pasarela, Log: log, Token: tok})
					// The pages' streams never end by themselves: Ctrl+C must not wait for them.
					soltar := context.AfterFunc(cmd.Context(), p.Cerrar)
					return p, func() { soltar() }, nil
				},
				Inicio: func(log zerolog.Logger, addr string) {
					linea("panel en http://", " (ábrelo en el navegador)", dichos...)(log, addr)
					// The instructor's one-time link (issue 34, item 1), in this terminal only: a panel
					// the lab controller runs writes a log others may read, and the controller says it.
					if o.EstadoLab == "" {
						log.Info().Msg("panel: para actuar desde la página (la falla, «Limpiar»), ábrela una vez con " +
							token.Enlace("http://"+servidor.DondeAbrir(addr), tok, time.Now()) + " (sirve una vez, durante " +
							strconv.Itoa(int(token.VigenciaEnlace/time.Minute)) + " minutos); " + token.SinEnlace)
					}
				},
			})
		},
	}
	o.Banderas(cmd.Flags(), curso.PuertoPanel)
	pasarela = curso.URLPasarela
	cmd.Flags().Var(cli.URL{Destino: &pasarela}, "pasarela", "la pasarela cuya falla cambia el control de la página")
	cmd.Flags().StringVar(&o.Token, "token", "", "el token del laboratorio (si no se dice: el de CURSOHTTP_TOKEN, o uno nuevo, que dice al arrancar)")
	cmd.Flags().StringVar(&o.TokenArchivo, "token-archivo", "", token.AyudaArchivo)
	return cmd
}

// linea is a start-up line, antes, the address and despues, then the lines of dichos.
func linea(antes, despues string, dichos ...string) func(zerolog.Logger, string) {
	return func(log zerolog.Logger, addr string) {
		log.Info().Str("direccion", addr).Msg(antes + addr + despues)
		for _, d := range dichos {
			log.Info().Msg(d)
		}
	}
}

// validar checks what the flags cannot: the port's range.
func validar(cmd *cobra.Command, o servidor.Opciones) error {
	return cli.ValidarPuerto(cmd, "--puerto", o.Puerto)
}
