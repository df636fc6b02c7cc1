// Package revisar is `revisor revisar`, revisar.ts: the revisor as a client, end to end.
package revisar

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"cursohttp/internal/nodejs"
	"cursohttp/pkg/cli"
	"cursohttp/pkg/curso"
	"cursohttp/pkg/destinos"
	"cursohttp/pkg/ordenes/entorno"
	"cursohttp/pkg/sonda"
	"cursohttp/pkg/tabladecision"

	"github.com/spf13/cobra"
)

// Consultor probes one watched service the way the revisor does (SSRF check, no redirects, the
// service's own time limit). *sonda.Sonda is one.
type Consultor interface {
	Consultar(ctx context.Context, url string, limiteMs int) sonda.Consulta
}

// CredencialPorOmision is revisar.ts's credential when none is given.
const CredencialPorOmision = "lectura-a"

type servicioDeLista struct {
	nombre   string
	url      string
	limiteMs int
}

// errSinLista: the API answered an error and the decision line already said what to do.
var errSinLista = errors.New("sin lista")

// pedirLista asks revisor for the credential's services. On an error response it decides by
// status, Retry-After and type (never the detail) and prints that decision; it waits and asks once
// more only when the table says esperar with a wait within the cap.
func pedirLista(ctx context.Context, e entorno.Entorno, credencial string) ([]servicioDeLista, error) {
	for intento := 1; intento <= 2; intento++ {
		r, err := e.Pedir(ctx, "GET", e.Revisor+"/servicios", map[string]string{"Authorization": "Bearer " + credencial}, nil)
		if err != nil {
			return nil, err
		}
		if r.OK() {
			return leerLista(r.Cuerpo)
		}
		tipo, hay := entorno.TypeDe(r)
		d := e.DecidirRespuesta(r)
		fmt.Fprintf(e.Out, "la API respondió %d (%s): %s, %s\n", r.Codigo, entorno.TextoJS(tipo, hay), d.Accion, d.Motivo)
		if d.Accion != tabladecision.Esperar || d.EsperaS == nil {
			return nil, errSinLista
		}
		if *d.EsperaS > entorno.TopeEsperaS {
			fmt.Fprintf(e.Out, "  pide esperar %d s, más que el tope de %d s: lo intento más tarde\n", *d.EsperaS, entorno.TopeEsperaS)
			return nil, errSinLista
		}
		fmt.Fprintf(e.Out, "  espero %d s y vuelvo a pedir\n", *d.EsperaS)
		if err := e.Pausar(ctx, time.Duration(*d.EsperaS)*time.Second); err != nil {
			return nil, err
		}
	}
	return nil, errSinLista
}

// leerLista reads {"servicios":[{nombre, url, limite_ms, …}]} as revisor writes it.
func leerLista(cuerpo []byte) ([]servicioDeLista, error) {
	v, err := nodejs.DecodificarJSON([]byte(nodejs.Texto(cuerpo)))
	if err != nil {
		return nil, errors.New("la lista no es JSON")
	}
	o, _ := v.(nodejs.Objeto)
	servicios, _ := o.Valor("servicios")
	lista, ok := servicios.([]any)
	if !ok {
		return nil, errors.New("la respuesta no trae la lista «servicios»")
	}
	leidos := make([]servicioDeLista, 0, len(lista))
	for _, x := range lista {
		s, _ := x.(nodejs.Objeto)
		nombre, ok1 := s.Texto("nombre")
		url, ok2 := s.Texto("url")
		limiteMs, _ := s.Valor("limite_ms")
		limite, ok3 := limiteMs.(float64)
		if !ok1 || !ok2 || !ok3 || limite < 0 || limite > math.MaxInt32 {
			return nil, errors.New("un servicio de la lista no trae nombre, url y limite_ms")
		}
		leidos = append(leidos, servicioDeLista{nombre, url, int(limite)})
	}
	return leidos, nil
}

// Revisar is revisar.ts: revisor as a client, end to end. It asks the API for the list, probes each
// service with c, and says what to do with each answer. It says; it does not do: no retries, no
// changes. The type is never read from a watched service (they need not speak Problem Details).
// Exit code 1 when the list could not be had.
func Revisar(ctx context.Context, e entorno.Entorno, credencial string, c Consultor) int {
	servicios, err := pedirLista(ctx, e, credencial)
	if errors.Is(err, errSinLista) {
		return 1
	}
	if err != nil {
		return e.Fallo("revisar", err)
	}
	fmt.Fprintln(e.Out, "SERVICIO     RESPUESTA          ACCIÓN        MOTIVO")
	for _, s := range servicios {
		consulta := c.Consultar(ctx, s.url, s.limiteMs)
		if ctx.Err() != nil {
			return curso.Interrumpido // the probe was cut short, not the service
		}
		var texto string
		var d tabladecision.Decision
		if consulta.Tipo == sonda.Respuesta {
			texto = strconv.Itoa(consulta.Codigo) + " en " + strconv.Itoa(consulta.Ms) + " ms"
			var espera *int64
			if consulta.HayReintentarEn {
				espera = &consulta.ReintentarEn
			}
			d = tabladecision.Decidir(consulta.Codigo, espera, nil)
		} else {
			texto = string(consulta.Tipo)
			d = tabladecision.DecidirSinRespuesta(string(consulta.Tipo))
		}
		fmt.Fprintf(e.Out, "%s%s%s%s\n", entorno.PadEnd(s.nombre, 13), entorno.PadEnd(texto, 19), entorno.PadEnd(string(d.Accion), 14), d.Motivo)
	}
	return 0
}

// NuevoCmd is `revisor revisar [credencial]`. runF gets the private destinations the
// probe may reach, read once with destinos.Configurados (--destinos, else REVISOR_DESTINOS, else
// the course's laboratory) and refused as a usage error when one is not ip:port; nil runs Revisar
// with the probe the revisor itself uses.
func NuevoCmd(f *entorno.Fabrica, runF func(ctx context.Context, e entorno.Entorno, credencial string, permitidos []string) int) *cobra.Command {
	if runF == nil {
		runF = revisarConSonda
	}
	e := f.Entorno
	var texto string
	c := &cobra.Command{
		Use:   "revisar [credencial] [opciones]",
		Short: "El revisor como cliente: pide su lista, consulta cada servicio y dice qué hacer (revisar.ts)",
		Long: `Pide a la API la lista de servicios de la credencial (lectura-a si no se da otra), consulta
cada servicio como lo hace el revisor (con la defensa SSRF, sin seguir redirecciones y con el
límite de tiempo de cada servicio) y dice qué hacer con lo que respondió, según la tabla. Solo lo
dice: no reintenta ni cambia nada. Si la API responde un error, decide por su código y su type,
no por su texto, y sale con código 1.`,
		Example: "  revisor revisar\n  revisor revisar inventada",
		Args:    entorno.HastaUnArgumento,
		RunE: func(c *cobra.Command, args []string) error {
			credencial := CredencialPorOmision
			if len(args) == 1 {
				credencial = args[0]
			}
			permitidos, err := destinos.Configurados(texto, f.Variable)
			if err != nil {
				return cli.UsoMal("%s: %v", c.CommandPath(), err)
			}
			return cli.Salir(runF(c.Context(), e.ConBases(), credencial, permitidos))
		},
	}
	entorno.ConRevisor(c, &e)
	c.Flags().StringVar(&texto, "destinos", "", "destinos ip:puerto permitidos aunque sean privados, separados por comas")
	// The default is not the flag's value: it is read at run time.
	c.Flags().Lookup("destinos").DefValue = "REVISOR_DESTINOS o " + curso.DireccionLaboratorio
	return c
}

// revisarConSonda is Revisar with the revisor's own probe, allowed to reach permitidos (nil: the
// course's laboratory).
func revisarConSonda(ctx context.Context, e entorno.Entorno, credencial string, permitidos []string) int {
	return Revisar(ctx, e, credencial, sonda.Nueva(destinos.Nuevo(permitidos, nil), sonda.Opciones{}))
}
