// Command revisor serves the course's API on 127.0.0.1:18080 and carries the course's client
// programs as subcommands.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"cursohttp/pkg/destinos"
	"cursohttp/pkg/programas"
	"cursohttp/pkg/revisor"
	"cursohttp/pkg/servidor"
)

func main() {
	ctx, parar := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	codigo := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	parar()
	os.Exit(codigo)
}

// run is the whole program with its streams and arguments passed in, so tests run it in-process.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	codigo := 0
	raiz := nuevaRaiz(stdout, stderr, &codigo)
	programas.Agregar(raiz, programas.IO{In: stdin, Out: stdout, Err: stderr, Salir: func(c int) { codigo = c }})
	raiz.SetArgs(args)
	raiz.SetIn(stdin)
	raiz.SetOut(stdout)
	raiz.SetErr(stderr)
	if err := raiz.ExecuteContext(ctx); err != nil {
		fmt.Fprintln(stderr, "revisor:", err)
		return 2
	}
	return codigo
}

// nuevaRaiz builds the root command: with no subcommand it serves, as does "revisor servir".
// Client programs are added to it by programas.Agregar.
func nuevaRaiz(stdout, stderr io.Writer, codigo *int) *cobra.Command {
	var o servidor.Opciones
	var permitidos string
	var lim limites
	var vig vigenciaLlaves
	banderas := func(fs *pflag.FlagSet) {
		o.Banderas(fs, servidor.PuertoRevisor)
		lim.banderas(fs)
		vig.banderas(fs)
		fs.StringVar(&permitidos, "destinos", "", "destinos ip:puerto a los que puede conectarse aunque sean privados, separados por comas (por omisión REVISOR_DESTINOS o "+destinos.PermitidoPorOmision+")")
	}
	servir := func(c *cobra.Command, _ []string) {
		*codigo = servirRevisor(c.Context(), o, permitidos, lim, &vig, stdout, stderr)
	}
	raiz := &cobra.Command{
		Use:           "revisor",
		Short:         "La API del curso: los servicios observados, sus revisiones y su salud",
		Args:          cobra.NoArgs,
		Run:           servir,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	banderas(raiz.Flags())
	sub := &cobra.Command{
		Use:   "servir",
		Short: "Sirve la API (lo mismo que revisor sin orden)",
		Args:  cobra.NoArgs,
		Run:   servir,
	}
	banderas(sub.Flags())
	raiz.AddCommand(sub)
	return raiz
}

// servirRevisor listens, prints the start-up line, serves until ctx ends and shuts down gracefully.
func servirRevisor(ctx context.Context, o servidor.Opciones, texto string, lim limites, vig *vigenciaLlaves, stdout, stderr io.Writer) int {
	// Like the course: REVISOR_DESTINOS or the laboratory; --destinos wins over both.
	var lista []string
	if texto != "" {
		lista = destinos.LeerPermitidos(texto)
	} else if v, hay := os.LookupEnv("REVISOR_DESTINOS"); hay {
		lista = destinos.LeerPermitidos(v)
	}
	if err := destinos.ValidarPermitidos(lista); err != nil {
		fmt.Fprintln(stderr, "revisor:", err)
		return 2
	}
	ro := revisor.Opciones{Destinos: lista}
	if err := lim.aplicar(&ro); err != nil {
		fmt.Fprintln(stderr, "revisor:", err)
		return 2
	}
	llaves, err := vig.registro(nil)
	if err != nil {
		fmt.Fprintln(stderr, "revisor:", err)
		return 2
	}
	ro.Llaves = llaves
	log := servidor.NuevoLogger(stdout, stderr, o.LogJSON)
	ro.Log = log
	ln, err := servidor.Escuchar("revisor", o)
	if err != nil {
		// One line, busy port included (servidor.PuertoOcupado says what to do).
		fmt.Fprintln(stderr, err)
		return 1
	}
	rv := revisor.Nuevo(ro)
	defer rv.Cerrar()
	srv := servidor.Nuevo(servidor.Registrar(log, rv))
	log.Info().Str("direccion", ln.Addr().String()).Msg("revisor en http://" + ln.Addr().String())
	if err := servidor.Servir(ctx, ln, srv); err != nil {
		fmt.Fprintln(stderr, "revisor:", err)
		return 1
	}
	return 0
}
