package programas

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"cursohttp/pkg/cli"
	"cursohttp/pkg/decision"
	"cursohttp/pkg/reintento"

	"github.com/spf13/cobra"
)

// fig07_05.ts's numbers: eleven codes, three attempts, and a 5 s cap on Retry-After.
var codigosAhorro = []int{400, 401, 403, 404, 409, 410, 422, 429, 500, 502, 503}

const (
	intentosAhorro = 3
	// topeEsperaS is the most a client in this lesson waits because Retry-After said so: the retry
	// engine's own cap, in the whole seconds the decision speaks.
	topeEsperaS = int64(reintento.TopeRetryAfter / time.Second)
)

// espera draws the full-jitter backoff after attempt intento, with the course's base and cap.
func (e Entorno) espera(intento int) time.Duration {
	return reintento.EsperaConJitter(intento, reintento.BaseRetroceso, reintento.TopeRetroceso, e.Azar)
}

// ingenuo retries everything from 400 up, ignoring Retry-After.
func (e Entorno) ingenuo(ctx context.Context, url string) (int, error) {
	llamadas := 0
	for intento := 1; intento <= intentosAhorro; intento++ {
		r, err := e.pedir(ctx, "GET", url, nil, nil)
		if err != nil {
			return llamadas, err
		}
		llamadas++
		if r.codigo < 400 || intento == intentosAhorro {
			break
		}
		if err := e.dormir(ctx, e.espera(intento)); err != nil {
			return llamadas, err
		}
	}
	return llamadas, nil
}

// conTabla retries only when the table says esperar, and obeys Retry-After up to the cap.
func (e Entorno) conTabla(ctx context.Context, url string) (int, error) {
	llamadas := 0
	for intento := 1; intento <= intentosAhorro; intento++ {
		r, err := e.pedir(ctx, "GET", url, nil, nil)
		if err != nil {
			return llamadas, err
		}
		llamadas++
		d := e.decidirRespuesta(r)
		if !d.Reintenta || intento == intentosAhorro {
			break
		}
		if d.EsperaS != nil && *d.EsperaS > topeEsperaS {
			break
		}
		if err := e.dormir(ctx, esperaDe(d, e.espera, intento)); err != nil {
			return llamadas, err
		}
	}
	return llamadas, nil
}

// esperaDe is Retry-After when the decision carries it, the jitter draw otherwise.
func esperaDe(d decision.Decision, jitter func(int) time.Duration, intento int) time.Duration {
	if d.EsperaS != nil {
		return time.Duration(*d.EsperaS) * time.Second
	}
	return jitter(intento)
}

// Ahorro is fig07_05.ts: how many calls reading the error well saves. Both clients GET the same
// laboratory codes (safe and idempotent), so only how much they insist is measured.
func Ahorro(ctx context.Context, e Entorno) int {
	fmt.Fprintln(e.Out, "código  sin tabla  con tabla")
	sumaIngenuo, sumaTabla := 0, 0
	for _, codigo := range codigosAhorro {
		url := e.Laboratorio + "/codigo/" + strconv.Itoa(codigo)
		a, err := e.ingenuo(ctx, url)
		if err != nil {
			return e.fallo("ahorro", err)
		}
		b, err := e.conTabla(ctx, url)
		if err != nil {
			return e.fallo("ahorro", err)
		}
		sumaIngenuo += a
		sumaTabla += b
		fmt.Fprintf(e.Out, "%s%s%s\n", padEnd(strconv.Itoa(codigo), 8), padStart(strconv.Itoa(a), 9), padStart(strconv.Itoa(b), 11))
	}
	fmt.Fprintf(e.Out, "total   %s%s\n", padStart(strconv.Itoa(sumaIngenuo), 9), padStart(strconv.Itoa(sumaTabla), 11))
	return 0
}

// nuevoCmdAhorro is `revisor ahorro`; runF nil runs Ahorro.
func nuevoCmdAhorro(f *Fabrica, runF func(context.Context, Entorno) int) *cobra.Command {
	return armar(f, &cobra.Command{
		Use:   "ahorro [opciones]",
		Short: "Cuántas llamadas ahorra leer bien el error (fig07_05.ts)",
		Long: `Cuenta las llamadas de un cliente que reintenta todo y de uno que decide con la tabla, contra
once códigos del laboratorio. Los dos hacen GET: solo se mide cuánto insiste cada uno. Necesita
el laboratorio corriendo; compara el total con las líneas de su terminal.`,
		Args: cli.SinArgumentos,
	}, runF, Ahorro, conLaboratorio)
}
