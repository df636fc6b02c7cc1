package entorno

import (
	"context"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"cursohttp/pkg/cli"
	"cursohttp/pkg/curso"
)

// Fabrica is what every client program's command gets from outside, as cli/cli's
// cmdutil.Factory: the streams, the HTTP client, the clock, random draws, sleeps and fresh keys
// (an Entorno whose base URLs each command's own flags fill in) and the process environment.
// NuevaFabrica gives the real ones; tests replace what they pin.
//
// Each order's package (pkg/ordenes/<programa>) builds its command with NuevoCmd(f, runF), as
// cli/cli does: the flags and arguments become the program's inputs, and runF (nil: the program
// itself; a test's own to see those inputs without running anything) gets them. The program prints
// what the course's program prints, and its exit code is the command's error (cli.Salir), which
// cli.Ejecutar turns into the process's: the one way exit codes travel. A command line the program
// cannot run is a cli.UsoMal error, never a line printed by hand. cmd/revisor adds every order.
type Fabrica struct {
	Entorno
	// Variable reads the process environment: os.LookupEnv, or a test's own.
	Variable func(nombre string) (string, bool)
}

// NuevaFabrica is the factory of a process that writes to stdout and stderr.
func NuevaFabrica(stdout, stderr io.Writer) *Fabrica {
	return &Fabrica{Entorno: Entorno{Out: stdout, Err: stderr, Cliente: NuevoCliente()}, Variable: os.LookupEnv}
}

// Armar finishes the command of a program whose inputs are an Entorno: bases declare the flags
// of the base URLs it needs (ConRevisor, ConLaboratorio), and running it runs runF (nil: programa)
// with f's Entorno and those URLs, its exit code the command's error.
func Armar(f *Fabrica, c *cobra.Command, runF, programa func(context.Context, Entorno) int, bases ...func(*cobra.Command, *Entorno)) *cobra.Command {
	if runF == nil {
		runF = programa
	}
	e := f.Entorno
	for _, declarar := range bases {
		declarar(c, &e)
	}
	c.RunE = func(c *cobra.Command, _ []string) error {
		return cli.Salir(runF(c.Context(), e.ConBases()))
	}
	return c
}

// ConRevisor declares --revisor, the revisor's base URL, into e.Revisor.
func ConRevisor(c *cobra.Command, e *Entorno) {
	c.Flags().StringVar(&e.Revisor, "revisor", curso.URLRevisor, "dirección base del revisor")
}

// ConLaboratorio declares --laboratorio, the laboratory's base URL, into e.Laboratorio.
func ConLaboratorio(c *cobra.Command, e *Entorno) {
	c.Flags().StringVar(&e.Laboratorio, "laboratorio", curso.URLLaboratorio, "dirección base del laboratorio")
}

// ConBases is e with its base URLs as the programs append paths to them: without a trailing slash.
func (e Entorno) ConBases() Entorno {
	e.Revisor = strings.TrimRight(e.Revisor, "/")
	e.Laboratorio = strings.TrimRight(e.Laboratorio, "/")
	return e
}

// HastaUnArgumento accepts an optional word after the command's name.
func HastaUnArgumento(c *cobra.Command, args []string) error {
	return cli.HastaArgumentos(1)(c, args)
}
