// Package rafaga is `revisor rafaga`: N checks as fast as possible, ignoring the rate-limit
// headers and pacing by them.
package rafaga

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"cursohttp/pkg/cli"
	"cursohttp/pkg/ordenes/entorno"
	"cursohttp/pkg/ritmo"
)

// Tanda is who asks for the checks in one run of Rafaga and for which service.
type Tanda struct {
	Credencial string
	Servicio   int
}

// OpcionesRafaga configures Rafaga. Zero fields take the defaults below.
type OpcionesRafaga struct {
	N int // checks asked for in each run; 0: RafagaPorOmision
	// The two runs use different credentials: the revisor counts per credential, so a run with its
	// own window starts fresh however the other one went.
	SinRitmo, ConRitmo Tanda
	// Tope is the longest wait the paced run accepts. It must cover the revisor's window (60 s):
	// with the course's 5 s the paced client would stop at its first full window.
	Tope time.Duration
}

// Defaults of Rafaga: each writer asks for one of its team's services on a fresh revisor.
const (
	RafagaPorOmision = 10
	TopeRafaga       = 65 * time.Second
)

var (
	TandaSinRitmo = Tanda{Credencial: "escritura-b", Servicio: 3}
	TandaConRitmo = Tanda{Credencial: "escritura-a", Servicio: 1}
)

// Rafaga asks for N checks (POST /servicios/{id}/revisiones) as fast as it can, twice: once ignoring
// the rate-limit headers and once pacing itself by them (pkg/ritmo), and prints each answer's code
// and, per run, how many 429 it got and how long it took. Each run sends exactly N requests; a
// refused one is counted, not repeated. With the revisor's --cabeceras-ratelimit the paced run
// waits before it would be refused; without it, it learns only from each 429's Retry-After.
func Rafaga(ctx context.Context, e entorno.Entorno, o OpcionesRafaga) int {
	if o.N <= 0 {
		o.N = RafagaPorOmision
	}
	if o.SinRitmo.Credencial == "" {
		o.SinRitmo = TandaSinRitmo
	}
	if o.ConRitmo.Credencial == "" {
		o.ConRitmo = TandaConRitmo
	}
	if o.Tope <= 0 {
		o.Tope = TopeRafaga
	}
	if err := tanda(ctx, e, "sin mirar las cabeceras", o.SinRitmo, o.N, nil); err != nil {
		return e.Fallo("rafaga", err)
	}
	m := ritmo.Nuevo(ritmo.Opciones{Tope: o.Tope, Ahora: e.Hora, Dormir: e.Pausar, Azar: e.Azar})
	if err := tanda(ctx, e, "marcando el ritmo", o.ConRitmo, o.N, m); err != nil {
		return e.Fallo("rafaga", err)
	}
	return 0
}

// tanda runs one burst, paced by m when it is not nil. Codes are printed as they come: a paced run
// against 3 per minute takes minutes.
func tanda(ctx context.Context, e entorno.Entorno, titulo string, t Tanda, n int, m *ritmo.Marcapasos) error {
	url := e.Revisor + "/servicios/" + strconv.Itoa(t.Servicio) + "/revisiones"
	cabeceras := map[string]string{"Authorization": "Bearer " + t.Credencial}
	fmt.Fprintf(e.Out, "%s (%s):", titulo, t.Credencial)
	inicio := e.Hora()
	rechazos, pedidas := 0, 0
	var err error
	for range n {
		if m != nil {
			if _, err = m.Esperar(ctx); err != nil {
				break
			}
		}
		var r entorno.Respuesta
		if r, err = e.Pedir(ctx, "POST", url, cabeceras, nil); err != nil {
			break
		}
		pedidas++
		if r.Codigo == 429 {
			rechazos++
		}
		if m != nil {
			m.Anotar(r.Codigo, r.Cabeceras)
		}
		fmt.Fprintf(e.Out, " %d", r.Codigo)
	}
	fmt.Fprintln(e.Out)
	ms := int64(math.Round(float64(e.Hora().Sub(inicio)) / float64(time.Millisecond)))
	fmt.Fprintf(e.Out, "  %d con 429 de %d, en %d ms\n", rechazos, pedidas, ms)
	var excesiva *ritmo.EsperaExcesiva
	if errors.As(err, &excesiva) {
		// Not a failure of the program: the server asked for more than this client accepts, and
		// saying so is the honest end of the run (see --tope).
		fmt.Fprintf(e.Out, "  se detiene: %s\n", excesiva)
		return nil
	}
	return err
}

// NuevoCmd is `revisor rafaga [N]`; runF nil runs Rafaga.
func NuevoCmd(f *entorno.Fabrica, runF func(ctx context.Context, e entorno.Entorno, o OpcionesRafaga) int) *cobra.Command {
	if runF == nil {
		runF = Rafaga
	}
	e := f.Entorno
	var sinRitmo, conRitmo string
	var tope time.Duration
	c := &cobra.Command{
		Use:   "rafaga [N] [opciones]",
		Short: "N revisiones lo más rápido posible, sin mirar RateLimit y marcando el ritmo con él",
		Long: `Pide N revisiones (10 si no se da otro número) lo más rápido que puede, dos veces: primero
sin mirar las cabeceras, después leyendo RateLimit antes de cada petición y esperando cuando
ya no queda cuota, y tras un 429 esperando su Retry-After más jitter. Muestra el código de cada
respuesta, cuántos 429 recibió cada tanda y cuánto tardó. Cada tanda manda exactamente N
peticiones: un 429 se cuenta, no se repite.

El revisor cuenta por credencial, así que cada tanda usa la suya (escritura-b con el servicio 3,
escritura-a con el servicio 1) y empieza con su ventana entera, sin lo que gastó la otra. Las
dos gastan cuota de verdad: si se repite antes de un minuto, la primera tanda de la repetición
ya encuentra la ventana gastada.

Necesita el revisor recién arrancado y con --cabeceras-ratelimit; sin esa opción el revisor
solo manda Retry-After y la tanda con ritmo aprende de cada 429. Con 3 revisiones por minuto,
la tanda con ritmo tarda unos minutos. --tope es la espera más larga que acepta: debe cubrir
la ventana del revisor (60 s); con uno menor la tanda se detiene en vez de adelantarse.`,
		Example: "  revisor --cabeceras-ratelimit &\n  revisor rafaga\n  revisor rafaga 4 --sin-ritmo admin:2",
		Args:    entorno.HastaUnArgumento,
		RunE: func(c *cobra.Command, args []string) error {
			o := OpcionesRafaga{Tope: tope}
			if len(args) == 1 {
				n, err := strconv.Atoi(args[0])
				if err != nil || n < 1 {
					return cli.UsoMal("rafaga: N debe ser un entero positivo, no «%s»", args[0])
				}
				o.N = n
			}
			var err error
			if o.SinRitmo, err = leerTanda(sinRitmo); err == nil {
				o.ConRitmo, err = leerTanda(conRitmo)
			}
			if err != nil {
				return cli.UsoMal("rafaga: %v", err)
			}
			return cli.Salir(runF(c.Context(), e.ConBases(), o))
		},
	}
	entorno.ConRevisor(c, &e)
	c.Flags().StringVar(&sinRitmo, "sin-ritmo", tandaComoTexto(TandaSinRitmo), "credencial:servicio de la tanda que no mira las cabeceras")
	c.Flags().StringVar(&conRitmo, "con-ritmo", tandaComoTexto(TandaConRitmo), "credencial:servicio de la tanda que marca el ritmo")
	c.Flags().DurationVar(&tope, "tope", TopeRafaga, "la espera más larga que acepta la tanda con ritmo")
	return c
}

func tandaComoTexto(t Tanda) string { return t.Credencial + ":" + strconv.Itoa(t.Servicio) }

// leerTanda reads credencial:servicio.
func leerTanda(s string) (Tanda, error) {
	credencial, id, ok := strings.Cut(s, ":")
	n, err := strconv.Atoi(id)
	if !ok || credencial == "" || err != nil || n < 1 {
		return Tanda{}, fmt.Errorf("se esperaba credencial:servicio (p. ej. escritura-a:1), no «%s»", s)
	}
	return Tanda{Credencial: credencial, Servicio: n}, nil
}
