// Package cli gives the suite's commands one Spanish command line: the same help layout, the same
// one-line usage errors and the same exit codes, instead of cobra's and pflag's English texts.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"sync"
	"syscall"

	"github.com/spf13/cobra"

	"cursohttp/pkg/curso"
)

// Exit codes: 0 done (a server: stopped cleanly by Ctrl+C or SIGTERM), 1 it could not do its work,
// 2 it was called wrong.
const (
	SalidaBien  = 0
	SalidaFallo = 1
	SalidaUso   = 2
)

// ErrorDeUso is a command line the program cannot run: Ejecutar prints Mensaje as one line on
// stderr and exits 2, without the help.
type ErrorDeUso struct{ Mensaje string }

func (e *ErrorDeUso) Error() string { return e.Mensaje }

// UsoMal builds an ErrorDeUso.
func UsoMal(formato string, a ...any) error {
	return &ErrorDeUso{fmt.Sprintf(formato, a...)}
}

// salida is an exit code a command chose after printing what it had to say itself.
type salida int

func (s salida) Error() string { return fmt.Sprintf("código de salida %d", int(s)) }

// Salir makes Ejecutar end with codigo and print nothing more; Salir(0) is nil.
func Salir(codigo int) error {
	if codigo == SalidaBien {
		return nil
	}
	return salida(codigo)
}

// Ejecutar runs the command tree under raiz (prepared with Preparar) with these arguments and
// streams, and returns the exit code: 0 without error, 2 and one line for an ErrorDeUso, the
// chosen code for Salir, and 1 and the error's line for anything else.
func Ejecutar(ctx context.Context, raiz *cobra.Command, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	Preparar(raiz)
	if args == nil {
		args = []string{} // nil would make cobra read os.Args
	}
	raiz.SetArgs(args)
	raiz.SetIn(stdin)
	raiz.SetOut(stdout)
	raiz.SetErr(stderr)
	if escribir := guionSinOrden(raiz, args); escribir != nil {
		if err := escribir(stdout); err != nil {
			fmt.Fprintln(stderr, err)
			return SalidaFallo
		}
		return SalidaBien
	}
	if len(args) > 0 && (args[0] == cobra.ShellCompRequestCmd || args[0] == cobra.ShellCompNoDescRequestCmd) {
		// cobra's hidden hook that the completion scripts call: the choices it prints on stdout
		// carry the commands' and flags' Spanish descriptions; on stderr it explains itself in
		// English, for nobody (the scripts throw stderr away), so that goes nowhere.
		raiz.SetErr(io.Discard)
		stderr = io.Discard
		// The hidden «help» that stands in for cobra's is always offered; it is no order to offer.
		opciones := &sinAyuda{w: stdout}
		raiz.SetOut(opciones)
		defer opciones.terminar()
	}
	err := raiz.ExecuteContext(ctx)
	var uso *ErrorDeUso
	var codigo salida
	switch {
	case err == nil:
		return SalidaBien
	case errors.As(err, &uso):
		fmt.Fprintln(stderr, uso.Mensaje)
		return SalidaUso
	case errors.As(err, &codigo):
		return int(codigo)
	default:
		fmt.Fprintln(stderr, err)
		return SalidaFallo
	}
}

// marca records on the root that Preparar already ran.
const marca = "cli.preparado"

// Preparar gives raiz and every command under it the Spanish help (-h, --help: on stdout, exit 0),
// Spanish flag errors, --version on the root, «completion» in Spanish (hidden from the help, so
// the course's help pages read the same; see guionSinOrden), no help subcommand, and SinArgumentos where a command says
// nothing about its arguments. A command with subcommands and nothing to run rejects an unknown
// order. Call it after the whole tree is built; Ejecutar calls it too, and a second call does
// nothing.
func Preparar(raiz *cobra.Command) {
	if raiz.Annotations[marca] != "" {
		return
	}
	if raiz.Annotations == nil {
		raiz.Annotations = map[string]string{}
	}
	raiz.Annotations[marca] = "sí"
	raiz.SilenceUsage = true
	raiz.SilenceErrors = true
	raiz.CompletionOptions.DisableDefaultCmd = true // cobra's, in English; ordenCompletar instead
	if raiz.PersistentFlags().Lookup("help") == nil {
		raiz.PersistentFlags().BoolP("help", "h", false, textoAyuda)
	}
	raiz.SetHelpCommand(sinOrdenAyuda())
	ponerVersion(raiz)
	if raiz.HasAvailableSubCommands() {
		// A program without orders (pasarela, alta-segura) gets «completion <shell>» in Ejecutar
		// instead: an order would turn «alta-segura help» from the course's usage line into
		// cobra's help command.
		raiz.AddCommand(ordenCompletar(raiz))
	}
	recorrer(raiz, func(c *cobra.Command) {
		c.SetUsageFunc(func(c *cobra.Command) error { return escribirUso(c.OutOrStderr(), c) })
		c.SetHelpFunc(ayuda)
		c.SetFlagErrorFunc(errorDeOpcion)
		c.SuggestionsMinimumDistance = 2 // cobra sets it on the root only
		if fl := c.Flags().Lookup("help"); fl != nil {
			fl.Usage = textoAyuda
		}
		if !c.Runnable() && c.HasSubCommands() {
			c.Args = cobra.ArbitraryArgs
			c.RunE = grupo
			if c.Annotations == nil {
				c.Annotations = map[string]string{}
			}
			c.Annotations[anotacionGrupo] = "sí"
		}
		if c.Args == nil {
			c.Args = SinArgumentos
		}
		completarValores(c)
	})
}

const (
	textoAyuda     = "muestra esta ayuda"
	anotacionGrupo = "cli.grupo"
)

// grupo runs a command that only gathers others: alone it shows its help; with a word, that word
// is not one of its orders.
func grupo(c *cobra.Command, args []string) error {
	if len(args) == 0 {
		return c.Help()
	}
	return noExisteLaOrden(c, args[0], c.SuggestionsFor(args[0]))
}

// sinOrdenAyuda takes the place of cobra's English "help" subcommand: hidden, and «programa help»
// is treated as the extra word it is.
func sinOrdenAyuda() *cobra.Command {
	return &cobra.Command{
		Use:                "help",
		Hidden:             true,
		DisableFlagParsing: true,
		RunE: func(c *cobra.Command, _ []string) error {
			return sobra(c.Parent(), "help")
		},
	}
}

// recorrer calls f on c and on every command under it.
func recorrer(c *cobra.Command, f func(*cobra.Command)) {
	f(c)
	for _, sub := range c.Commands() {
		recorrer(sub, f)
	}
}

// Programa is a whole program with its arguments and streams passed in, so tests run it in-process.
type Programa func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int

// Main is every command's main: Ctrl+C and SIGTERM cancel the context (servers then shut down
// gracefully, clients stop), and the program's code is the process's exit code. A second Ctrl+C
// does not wait for anything: the process ends at once with 130, as killed by SIGINT.
func Main(run Programa) {
	terminarPerfil := perfilar()
	senales := make(chan os.Signal, 1)
	signal.Notify(senales, os.Interrupt, syscall.SIGTERM)
	ctx, cancelar := context.WithCancel(context.Background())
	go func() {
		<-senales
		cancelar()
		<-senales
		terminarPerfil()
		os.Exit(curso.Interrumpido)
	}()
	codigo := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	signal.Stop(senales)
	cancelar()
	terminarPerfil()
	os.Exit(codigo)
}

// VariablePerfil names a file for a CPU profile (pprof) of the whole run: how «make perfiles»
// profiles the built programs under load, as they ship. Not for students; unset, it costs nothing.
const VariablePerfil = "CURSOHTTP_PERFIL_CPU"

// perfilar starts the profile VariablePerfil asks for and returns what ends it.
func perfilar() func() {
	ruta := os.Getenv(VariablePerfil)
	if ruta == "" {
		return func() {}
	}
	f, err := os.Create(ruta)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", VariablePerfil, err)
		return func() {}
	}
	var una sync.Once
	return func() {
		una.Do(func() {
			pprof.StopCPUProfile()
			f.Close()
		})
	}
}
