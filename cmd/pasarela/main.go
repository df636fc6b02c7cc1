// Command pasarela is the lesson-6 gateway: it listens on 18082 and forwards to the revisor,
// losing the first answer of a request that carries «X-Simular: perder-primera».
package main

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/pflag"

	"cursohttp/pkg/pasarela"
	"cursohttp/pkg/servidor"
)

func main() {
	os.Exit(correr(os.Args[1:]))
}

func correr(args []string) int {
	fs := pflag.NewFlagSet("pasarela", pflag.ContinueOnError)
	var o servidor.Opciones
	o.Banderas(fs, servidor.PuertoPasarela)
	destino := fs.String("destino", pasarela.DestinoPorOmision, "el revisor al que reenvía")
	if err := fs.Parse(args); err != nil {
		if err == pflag.ErrHelp {
			return 0
		}
		return 2
	}
	u, err := url.Parse(*destino)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		fmt.Fprintf(os.Stderr, "pasarela: --destino debe ser una dirección http, no %q\n", *destino)
		return 2
	}
	log := servidor.NuevoLogger(os.Stdout, os.Stderr, o.LogJSON)
	ctx, parar := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer parar()

	ln, err := servidor.Escuchar("pasarela", o)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ln = pasarela.Envolver(ln)
	srv := pasarela.NuevoServidor(pasarela.Nueva(pasarela.Opciones{Destino: u, Log: log}))
	log.Info().Str("direccion", ln.Addr().String()).Str("destino", u.String()).
		Msg(pasarela.LineaDeInicio(ln.Addr().String(), u))
	if err := servidor.Servir(ctx, ln, srv); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}
