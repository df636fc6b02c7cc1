// Command alta-segura registers a service through the gateway and retries without duplicating it.
// Exit code: 0 when the registration was made, 1 when it was not or nobody knows, 2 on a usage error.
package main

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/pflag"

	"cursohttp/pkg/altasegura"
)

func main() {
	ctx, parar := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	codigo := correr(ctx, os.Args[1:], os.Stdout, os.Stderr)
	parar()
	os.Exit(codigo)
}

func correr(ctx context.Context, args []string, salida, errores io.Writer) int {
	fs := pflag.NewFlagSet("alta-segura", pflag.ContinueOnError)
	fs.SetOutput(errores)
	fs.Usage = func() {
		fmt.Fprintln(errores, altasegura.Uso)
		fs.PrintDefaults()
	}
	sinLlave := fs.Bool("sin-llave", false, "no mandar Idempotency-Key (un reintento podría duplicar el alta)")
	pasarela := fs.String("pasarela", altasegura.PasarelaPorOmision, "la pasarela a la que se manda el alta")
	credencial := fs.String("credencial", altasegura.CredencialPorOmision, "la credencial (Bearer) con la que se da de alta")
	if err := fs.Parse(args); err != nil {
		if err == pflag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() < 2 {
		fmt.Fprintln(errores, altasegura.Uso)
		return 2
	}
	if u, err := url.Parse(*pasarela); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		fmt.Fprintf(errores, "alta-segura: --pasarela debe ser una dirección http, no %q\n", *pasarela)
		return 2
	}
	valor, hay := os.LookupEnv("ALTA_LIMITE_MS")
	limite, texto := altasegura.LimiteDeEntorno(valor, hay)
	return altasegura.Correr(ctx, altasegura.Opciones{
		Nombre:      fs.Arg(0),
		URL:         fs.Arg(1),
		SinLlave:    *sinLlave,
		Pasarela:    *pasarela,
		Credencial:  *credencial,
		Limite:      limite,
		LimiteTexto: texto,
		Salida:      salida,
	})
}
