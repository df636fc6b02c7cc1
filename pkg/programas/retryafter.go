package programas

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"cursohttp/pkg/cli"
	"cursohttp/pkg/jsonjs"
	"cursohttp/pkg/reintento"

	"github.com/spf13/cobra"
)

// RetryAfter is fig04_03.ts: Retry-After read in its two forms, seconds or an HTTP date, and what
// is not either (a word, or no header at all) says nothing about how long to wait.
func RetryAfter(e Entorno) int {
	dentroDe90 := e.ahora().Add(90 * time.Second).UTC().Format(http.TimeFormat)
	valores := []*string{ptr("120"), ptr("0"), &dentroDe90, ptr("Wed, 21 Oct 2015 07:28:00 GMT"), ptr("mañana"), nil}
	for _, v := range valores {
		texto, resultado := "(sin la cabecera)", "null: no dice cuánto esperar"
		if v != nil {
			texto = string(jsonjs.Codificar(*v))
			if s, ok := reintento.SegundosDeEspera(*v, e.ahora()); ok {
				resultado = strconv.FormatInt(s, 10)
			}
		}
		fmt.Fprintf(e.Out, "%s → %s\n", padEnd(texto, 34), resultado)
	}
	return 0
}

func ptr(s string) *string { return &s }

// nuevoCmdRetryAfter is `revisor retry-after`; runF nil runs RetryAfter.
func nuevoCmdRetryAfter(f *Fabrica, runF func(context.Context, Entorno) int) *cobra.Command {
	return armar(f, &cobra.Command{
		Use:   "retry-after",
		Short: "Leer Retry-After en sus dos formas: segundos o una fecha HTTP (fig04_03.ts)",
		Long: `Lee seis valores de Retry-After (segundos, una fecha HTTP, una palabra y la cabecera ausente)
y muestra cuántos segundos dicen esperar. No necesita ningún servidor.`,
		Args: cli.SinArgumentos,
	}, runF, func(_ context.Context, e Entorno) int { return RetryAfter(e) })
}
