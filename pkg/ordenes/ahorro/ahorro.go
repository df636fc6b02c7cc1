// Package ahorro is `revisor ahorro`, fig07_05.ts: how many calls reading the error well saves.
package ahorro

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"cursohttp/pkg/cli"
	"cursohttp/pkg/ordenes/entorno"
	"cursohttp/pkg/tabladecision"

	"github.com/spf13/cobra"
)

// fig07_05.ts's numbers: eleven codes, three attempts, and a 5 s cap on Retry-After.
var codigosAhorro = []int{400, 401, 403, 404, 409, 410, 422, 429, 500, 502, 503}

const intentosAhorro = 3

// ingenuo retries everything from 400 up, ignoring Retry-After.
func ingenuo(ctx context.Context, e entorno.Entorno, url string) (int, error) {
	llamadas := 0
	for intento := 1; intento <= intentosAhorro; intento++ {
		r, err := e.Pedir(ctx, "GET", url, nil, nil)
		if err != nil {
			return llamadas, err
		}
		llamadas++
		if r.Codigo < 400 || intento == intentosAhorro {
			break
		}
		if err := e.Pausar(ctx, e.EsperaConJitter(intento)); err != nil {
			return llamadas, err
		}
	}
	return llamadas, nil
}

// conTabla retries only when the table says esperar, and obeys Retry-After up to the cap.
func conTabla(ctx context.Context, e entorno.Entorno, url string) (int, error) {
	llamadas := 0
	for intento := 1; intento <= intentosAhorro; intento++ {
		r, err := e.Pedir(ctx, "GET", url, nil, nil)
		if err != nil {
			return llamadas, err
		}
		llamadas++
		d := e.DecidirRespuesta(r)
		if !d.Reintenta || intento == intentosAhorro {
			break
		}
		if d.EsperaS != nil && *d.EsperaS > entorno.TopeEsperaS {
			break
		}
		if err := e.Pausar(ctx, esperaDe(d, e.EsperaConJitter, intento)); err != nil {
			return llamadas, err
		}
	}
	return llamadas, nil
}

// esperaDe is Retry-After when the decision carries it, the jitter draw otherwise.
func esperaDe(d tabladecision.Decision, jitter func(int) time.Duration, intento int) time.Duration {
	if d.EsperaS != nil {
		return time.Duration(*d.EsperaS) * time.Second
	}
	return jitter(intento)
}

// Ahorro is fig07_05.ts: how many calls reading the error well saves. Both clients GET the same
// laboratory codes (safe and idempotent), so only how much they insist is measured.
func Ahorro(ctx context.Context, e entorno.Entorno) int {
	fmt.Fprintln(e.Out, "código  sin tabla  con tabla")
	sumaIngenuo, sumaTabla := 0, 0
	for _, codigo := range codigosAhorro {
		url := e.Laboratorio + "/codigo/" + strconv.Itoa(codigo)
		a, err := ingenuo(ctx, e, url)
		if err != nil {
			return e.Fallo("ahorro", err)
		}
		b, err := conTabla(ctx, e, url)
		if err != nil {
			return e.Fallo("ahorro", err)
		}
		sumaIngenuo += a
		sumaTabla += b
		fmt.Fprintf(e.Out, "%s%s%s\n", entorno.PadEnd(strconv.Itoa(codigo), 8), entorno.PadStart(strconv.Itoa(a), 9), entorno.PadStart(strconv.Itoa(b), 11))
	}
	fmt.Fprintf(e.Out, "total   %s%s\n", entorno.PadStart(strconv.Itoa(sumaIngenuo), 9), entorno.PadStart(strconv.Itoa(sumaTabla), 11))
	return 0
}

// NuevoCmd is `revisor ahorro`; runF nil runs Ahorro.
func NuevoCmd(f *entorno.Fabrica, runF func(context.Context, entorno.Entorno) int) *cobra.Command {
	return entorno.Armar(f, &cobra.Command{
		Use:   "ahorro [opciones]",
		Short: "Cuántas llamadas ahorra leer bien el error (fig07_05.ts)",
		Long: `Cuenta las llamadas de un cliente que reintenta todo y de uno que decide con la tabla, contra
once códigos del laboratorio. Los dos hacen GET: solo se mide cuánto insiste cada uno. Necesita
el laboratorio corriendo; compara el total con las líneas de su terminal.`,
		Args: cli.SinArgumentos,
	}, runF, Ahorro, entorno.ConLaboratorio)
}
