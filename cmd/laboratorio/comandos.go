package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/rs/zerolog"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"cursohttp/pkg/laboratorio"
	"cursohttp/pkg/servidor"
)

// Exit codes: 0 clean stop (Ctrl+C, SIGTERM), 1 the server could not run, 2 it was called wrong.
const (
	salidaBien  = 0
	salidaFallo = 1
	salidaUso   = 2
)

// usoMentira is the course's usage line, naming this command.
const usoMentira = "uso: laboratorio mentira <respuesta>...   (por ejemplo: 503:2 201)"

// errUso is a command line the program cannot run: it exits 2 and prints one line.
type errUso struct{ msg string }

func (e *errUso) Error() string { return e.msg }

func usoMal(formato string, a ...any) error { return &errUso{fmt.Sprintf(formato, a...)} }

// flujos are the program's standard streams.
type flujos struct {
	in       io.Reader
	out, err io.Writer
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	raiz := nuevaRaiz(flujos{in: stdin, out: stdout, err: stderr})
	raiz.SetArgs(args)
	err := raiz.ExecuteContext(ctx)
	if err == nil {
		return salidaBien
	}
	var uso *errUso
	if errors.As(err, &uso) {
		fmt.Fprintln(stderr, uso.msg)
		return salidaUso
	}
	fmt.Fprintln(stderr, err)
	return salidaFallo
}

// uso writes a command's usage in Spanish (cobra's and pflag's own texts are English).
func uso(cmd *cobra.Command) error {
	w := cmd.OutOrStderr()
	linea := cmd.Use
	if cmd.HasParent() {
		linea = cmd.Parent().CommandPath() + " " + linea
	}
	fmt.Fprintf(w, "Uso:\n  %s [opciones]\n", linea)
	if cmd.HasAvailableSubCommands() {
		fmt.Fprintf(w, "  %s <orden> [opciones]\n", cmd.CommandPath())
	}
	if cmd.HasExample() {
		fmt.Fprintf(w, "\nEjemplos:\n%s\n", cmd.Example)
	}
	if cmd.HasAvailableSubCommands() {
		fmt.Fprintf(w, "\nÓrdenes:\n")
		for _, sub := range cmd.Commands() {
			if sub.IsAvailableCommand() {
				fmt.Fprintf(w, "  %-9s %s\n", sub.Name(), sub.Short)
			}
		}
	}
	fmt.Fprintf(w, "\nOpciones:\n")
	var filas [][2]string
	ancho := 0
	cmd.Flags().VisitAll(func(fl *pflag.Flag) {
		nombre := "    --" + fl.Name
		if fl.Shorthand != "" {
			nombre = "-" + fl.Shorthand + ", --" + fl.Name
		}
		switch fl.Value.Type() {
		case "bool":
		case "int":
			nombre += " NÚMERO"
		default:
			nombre += " TEXTO"
		}
		texto := fl.Usage
		if fl.Value.Type() != "bool" && fl.DefValue != "" {
			texto += " (si no se dice: " + fl.DefValue + ")"
		}
		filas = append(filas, [2]string{nombre, texto})
		ancho = max(ancho, len([]rune(nombre)))
	})
	for _, f := range filas {
		fmt.Fprintf(w, "  %-*s  %s\n", ancho, f[0], f[1])
	}
	if cmd.HasAvailableSubCommands() {
		fmt.Fprintf(w, "\n«%s <orden> --help» explica cada orden.\n", cmd.CommandPath())
	}
	return nil
}

// enEspanol rewrites pflag's usual errors; anything else goes as pflag says it.
func enEspanol(cmd *cobra.Command, err error) string {
	msg := err.Error()
	var bandera, valor string
	switch {
	case strings.HasPrefix(msg, "unknown flag: "):
		return "no existe la opción " + strings.TrimPrefix(msg, "unknown flag: ")
	case strings.HasPrefix(msg, "unknown shorthand flag: "):
		if i := strings.LastIndex(msg, " in "); i >= 0 {
			return "no existe la opción " + msg[i+len(" in "):]
		}
	case strings.HasPrefix(msg, "flag needs an argument: "):
		return "la opción " + strings.Trim(strings.TrimPrefix(msg, "flag needs an argument: "), "'") + " necesita un valor"
	case strings.HasPrefix(msg, "invalid argument "):
		if _, e := fmt.Sscanf(msg, "invalid argument %q for %q", &valor, &bandera); e == nil {
			espera := "no acepta"
			if fl := cmd.Flags().Lookup(strings.TrimLeft(bandera, "-")); fl != nil {
				switch fl.Value.Type() {
				case "int":
					espera = "espera un número entero, no"
				case "bool":
					espera = "espera true o false, no"
				}
			}
			return fmt.Sprintf("la opción %s %s «%s»", bandera, espera, valor)
		}
	}
	return msg
}

// nuevaRaiz builds the command tree; every command writes only to f.
func nuevaRaiz(f flujos) *cobra.Command {
	var o servidor.Opciones
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
Se detiene con Ctrl+C: deja terminar las peticiones en curso.`,
		Example: `  laboratorio
  curl -i http://127.0.0.1:18081/codigo/503
  laboratorio --puerto 0          (un puerto libre; la primera línea dice cuál)`,
		Args: sinArgumentos,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := validar(cmd, o); err != nil {
				return err
			}
			log := servidor.NuevoLogger(f.out, f.err, o.LogJSON)
			return servir(cmd.Context(), "laboratorio", o, servidor.Registrar(log, laboratorio.Nuevo(log)), log,
				func(addr string) string { return "laboratorio en http://" + addr + "/codigo/NNN" })
		},
	}
	o.Banderas(raiz.Flags(), servidor.PuertoLaboratorio)
	raiz.PersistentFlags().BoolP("help", "h", false, "muestra esta ayuda")
	raiz.AddCommand(nuevaMentira(f), nuevoHostil(f))

	raiz.SetIn(f.in)
	raiz.SetOut(f.out)
	raiz.SetErr(f.err)
	raiz.SilenceUsage = true
	raiz.SilenceErrors = true
	raiz.CompletionOptions.DisableDefaultCmd = true
	raiz.SetHelpCommand(&cobra.Command{Use: "sin-ayuda", Hidden: true})
	raiz.SetUsageFunc(uso)
	raiz.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return usoMal("%s: %s; «%s --help» muestra las opciones", cmd.CommandPath(), enEspanol(cmd, err), cmd.CommandPath())
	})
	return raiz
}

func nuevaMentira(f flujos) *cobra.Command {
	var o servidor.Opciones
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

Un código va de 200 a 999; uno de 300 o más es un error en Problem Details.`,
		Example: `  laboratorio mentira 503:2 201
  laboratorio mentira 409:en-curso 201
  laboratorio mentira mudo`,
		Args: func(*cobra.Command, []string) error { return nil },
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usoMal("%s", usoMentira)
			}
			if err := validar(cmd, o); err != nil {
				return err
			}
			log := servidor.NuevoLogger(f.out, f.err, o.LogJSON)
			m, err := laboratorio.NuevaMentira(args, log)
			if err != nil {
				return usoMal("laboratorio mentira: %v", err)
			}
			// A held "mudo" request must not make Ctrl+C wait.
			soltar := context.AfterFunc(cmd.Context(), m.Cerrar)
			defer soltar()
			return servir(cmd.Context(), "laboratorio mentira", o, m, log,
				func(addr string) string { return "servidor de mentira en http://" + addr })
		},
	}
	o.Banderas(cmd.Flags(), servidor.PuertoPasarela)
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
		Args: sinArgumentos,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := validar(cmd, o); err != nil {
				return err
			}
			log := servidor.NuevoLogger(f.out, f.err, o.LogJSON)
			return servir(cmd.Context(), "laboratorio hostil", o, laboratorio.NuevoHostil(), log,
				func(addr string) string { return "servicio hostil en http://" + addr })
		},
	}
	o.Banderas(cmd.Flags(), servidor.PuertoHostil)
	return cmd
}

// servir is servidor.Correr with the request log left to the caller: the course's fake gateway and
// hostile service print none.
func servir(ctx context.Context, programa string, o servidor.Opciones, h http.Handler, log zerolog.Logger, linea func(string) string) error {
	ln, err := servidor.Escuchar(programa, o)
	if err != nil {
		return err
	}
	log.Info().Str("direccion", ln.Addr().String()).Msg(linea(ln.Addr().String()))
	return servidor.Servir(ctx, ln, servidor.Nuevo(h))
}

func sinArgumentos(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usoMal("%s: sobra «%s»; «%s --help» muestra cómo se usa", cmd.CommandPath(), args[0], cmd.CommandPath())
	}
	return nil
}

func validar(cmd *cobra.Command, o servidor.Opciones) error {
	if o.Puerto < 0 || o.Puerto > 65535 {
		return usoMal("%s: --puerto va de 0 a 65535 (0: uno libre), no %d", cmd.CommandPath(), o.Puerto)
	}
	return nil
}
