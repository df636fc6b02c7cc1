// Package retroceso is `revisor retroceso`, fig06_02.ts: the exponential backoff with and
// without jitter.
package retroceso

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"cursohttp/pkg/cli"
	"cursohttp/pkg/ordenes/entorno"
	"cursohttp/pkg/reintento"

	"github.com/spf13/cobra"
)

// Retroceso is fig06_02.ts: the exponential backoff with and without jitter. It needs no server;
// the draws come from e.Azar, so only their shape is stable between runs.
func Retroceso(e entorno.Entorno) int {
	base, tope := reintento.BaseRetroceso, reintento.TopeRetroceso
	ms := func(d time.Duration) int64 { return d.Milliseconds() }

	fmt.Fprintln(e.Out, "intento  techo (ms)  cinco esperas sorteadas (ms)")
	for intento := 1; intento <= 5; intento++ {
		sorteadas := make([]string, 5)
		for i := range sorteadas {
			sorteadas[i] = strconv.FormatInt(ms(e.EsperaConJitter(intento)), 10)
		}
		fmt.Fprintf(e.Out, "%s  %s  %s\n", entorno.PadStart(strconv.Itoa(intento), 7),
			entorno.PadStart(strconv.FormatInt(ms(reintento.Techo(intento, base, tope)), 10), 10), strings.Join(sorteadas, ", "))
	}

	// A thousand clients fail at the same instant and retry once (attempt 1): what the server
	// receives per 100 ms window.
	const clientes, ventanaMs = 1000, 100
	contar := func(espera func() time.Duration) [6]int {
		var cuentas [6]int
		for range clientes {
			cuentas[min(5, ms(espera())/ventanaMs)]++
		}
		return cuentas
	}
	sinJitter := contar(func() time.Duration { return reintento.Techo(1, base, tope) })
	conJitter := contar(func() time.Duration { return e.EsperaConJitter(1) })

	fmt.Fprintln(e.Out)
	fmt.Fprintf(e.Out, "%d clientes reintentan a la vez; reintentos por cada %d ms:\n", clientes, ventanaMs)
	fmt.Fprintln(e.Out, "ventana (ms)   sin jitter  con jitter")
	for i := range 6 {
		ventana := fmt.Sprintf("%d-%d", i*ventanaMs, (i+1)*ventanaMs-1)
		if i == 5 {
			ventana = fmt.Sprintf("%d o más", i*ventanaMs)
		}
		fmt.Fprintf(e.Out, "%s  %s  %s\n", entorno.PadEnd(ventana, 12), entorno.PadStart(strconv.Itoa(sinJitter[i]), 10), entorno.PadStart(strconv.Itoa(conJitter[i]), 10))
	}
	fmt.Fprintf(e.Out, "la ventana más cargada: %d sin jitter, %d con jitter\n", maximo(sinJitter[:]), maximo(conJitter[:]))
	return 0
}

func maximo(v []int) int {
	m := v[0]
	for _, x := range v[1:] {
		m = max(m, x)
	}
	return m
}

// NuevoCmd is `revisor retroceso`; runF nil runs Retroceso.
func NuevoCmd(f *entorno.Fabrica, runF func(context.Context, entorno.Entorno) int) *cobra.Command {
	return entorno.Armar(f, &cobra.Command{
		Use:   "retroceso",
		Short: "El retroceso exponencial, con y sin jitter (fig06_02.ts)",
		Long: `Muestra el techo de cada intento y cinco esperas sorteadas con jitter completo, y cómo mil
clientes que fallan a la vez llegan al servidor sin jitter y con él. No necesita ningún
servidor; los números sorteados cambian en cada corrida.`,
		Args: cli.SinArgumentos,
	}, runF, func(_ context.Context, e entorno.Entorno) int { return Retroceso(e) })
}
