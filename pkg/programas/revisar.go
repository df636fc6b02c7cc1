package programas

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"cursohttp/pkg/curso"
	"cursohttp/pkg/decision"
	"cursohttp/pkg/jsonjs"
	"cursohttp/pkg/sonda"
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
func (e Entorno) pedirLista(ctx context.Context, credencial string) ([]servicioDeLista, error) {
	for intento := 1; intento <= 2; intento++ {
		r, err := e.pedir(ctx, "GET", e.Revisor+"/servicios", map[string]string{"Authorization": "Bearer " + credencial}, nil)
		if err != nil {
			return nil, err
		}
		if r.ok() {
			return leerLista(r.cuerpo)
		}
		tipo, hay := typeDe(r)
		d := e.decidirRespuesta(r)
		fmt.Fprintf(e.Out, "la API respondió %d (%s): %s, %s\n", r.codigo, textoJS(tipo, hay), d.Accion, d.Motivo)
		if d.Accion != decision.Esperar || d.EsperaS == nil {
			return nil, errSinLista
		}
		if *d.EsperaS > topeEsperaS {
			fmt.Fprintf(e.Out, "  pide esperar %d s, más que el tope de %d s: lo intento más tarde\n", *d.EsperaS, topeEsperaS)
			return nil, errSinLista
		}
		fmt.Fprintf(e.Out, "  espero %d s y vuelvo a pedir\n", *d.EsperaS)
		if err := e.dormir(ctx, time.Duration(*d.EsperaS)*time.Second); err != nil {
			return nil, err
		}
	}
	return nil, errSinLista
}

// leerLista reads {"servicios":[{nombre, url, limite_ms, …}]} as revisor writes it.
func leerLista(cuerpo []byte) ([]servicioDeLista, error) {
	v, err := jsonjs.Decodificar([]byte(jsonjs.Texto(cuerpo)))
	if err != nil {
		return nil, errors.New("la lista no es JSON")
	}
	o, _ := v.(jsonjs.Objeto)
	lista, ok := valorDe(o, "servicios").([]any)
	if !ok {
		return nil, errors.New("la respuesta no trae la lista «servicios»")
	}
	servicios := make([]servicioDeLista, 0, len(lista))
	for _, x := range lista {
		s, _ := x.(jsonjs.Objeto)
		nombre, ok1 := s.Texto("nombre")
		url, ok2 := s.Texto("url")
		limite, ok3 := valorDe(s, "limite_ms").(float64)
		if !ok1 || !ok2 || !ok3 || limite < 0 || limite > math.MaxInt32 {
			return nil, errors.New("un servicio de la lista no trae nombre, url y limite_ms")
		}
		servicios = append(servicios, servicioDeLista{nombre, url, int(limite)})
	}
	return servicios, nil
}

// Revisar is revisar.ts: revisor as a client, end to end. It asks the API for the list, probes each
// service with c, and says what to do with each answer. It says; it does not do: no retries, no
// changes. The type is never read from a watched service (they need not speak Problem Details).
// Exit code 1 when the list could not be had.
func Revisar(ctx context.Context, e Entorno, credencial string, c Consultor) int {
	servicios, err := e.pedirLista(ctx, credencial)
	if errors.Is(err, errSinLista) {
		return 1
	}
	if err != nil {
		return e.fallo("revisar", err)
	}
	fmt.Fprintln(e.Out, "SERVICIO     RESPUESTA          ACCIÓN        MOTIVO")
	for _, s := range servicios {
		consulta := c.Consultar(ctx, s.url, s.limiteMs)
		if ctx.Err() != nil {
			return curso.Interrumpido // the probe was cut short, not the service
		}
		var texto string
		var d decision.Decision
		if consulta.Tipo == sonda.Respuesta {
			texto = strconv.Itoa(consulta.Codigo) + " en " + strconv.Itoa(consulta.Ms) + " ms"
			var espera *int64
			if consulta.HayReintentarEn {
				espera = &consulta.ReintentarEn
			}
			d = decision.Decidir(consulta.Codigo, espera, nil)
		} else {
			texto = string(consulta.Tipo)
			d = decision.DecidirSinRespuesta(string(consulta.Tipo))
		}
		fmt.Fprintf(e.Out, "%s%s%s%s\n", padEnd(s.nombre, 13), padEnd(texto, 19), padEnd(string(d.Accion), 14), d.Motivo)
	}
	return 0
}
