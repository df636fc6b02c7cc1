package revisor

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"cursohttp/pkg/eventos"
	"cursohttp/pkg/observacion"
	"cursohttp/pkg/sonda"
	"cursohttp/pkg/traza"
)

// saliente is the context the probes made for r go out in: the request's own trace when the
// revisor observes its requests (observacion.Observador), or else the caller's traceparent passed on
// as it came, so a trace crosses a revisor that only forwards it. Without either, ctx as it is.
func saliente(r *http.Request) context.Context {
	ctx := r.Context()
	if traza.DeContexto(ctx) != nil {
		return ctx
	}
	if c, ok := traza.DeCabecera(r.Header); ok {
		c.Tramo = c.Padre // passed on unchanged: the revisor adds no span of its own
		return traza.EnContexto(ctx, &c)
	}
	return ctx
}

// trazaDe is a copy of the trace the probes of r go out in, for a check that runs later; nil when
// there is none.
func trazaDe(r *http.Request) *traza.Contexto {
	if tc := traza.DeContexto(saliente(r)); tc != nil {
		c := *tc
		return &c
	}
	return nil
}

// observarSondas makes every probe a span of its own, child of the request that asked for it, told
// in the detailed log and to the panel.
func observarSondas(obs observacion.Observador) sonda.Observador {
	return func(ctx context.Context, url string) (context.Context, func(sonda.Consulta)) {
		var tc traza.Contexto
		if padre := traza.DeContexto(ctx); padre != nil {
			tc = padre.Hijo()
		} else {
			tc = traza.Nueva()
		}
		ctx = traza.EnContexto(ctx, &tc)
		inicio := time.Now()
		return ctx, func(c sonda.Consulta) {
			dur := time.Since(inicio)
			que := describirConsulta(c)
			if obs.Detalle {
				e := obs.Log.Info().Ctx(ctx).Str("url", url).Str("sonda", string(c.Tipo)).Float64("ms", eventos.Milisegundos(dur))
				if c.Tipo == sonda.Respuesta {
					e.Int("codigo", c.Codigo)
				}
				e.Msg("detalle: sonda GET " + url + " → " + que + " en " + observacion.Duracion(dur) + " · traza " + tc.Traza.String())
			}
			if obs.Panel != nil {
				ev := eventos.Evento{Programa: obs.Programa, Tipo: eventos.Sonda, Inicio: inicio, Ms: eventos.Milisegundos(dur),
					Metodo: http.MethodGet, Ruta: url, Codigo: c.Codigo}
				if c.Tipo != sonda.Respuesta {
					ev.Resultado = que
				}
				ev.EnTraza(tc)
				obs.Panel.Enviar(ev)
			}
		}
	}
}

// describirConsulta says a probe's outcome in a few words.
func describirConsulta(c sonda.Consulta) string {
	switch c.Tipo {
	case sonda.Respuesta:
		return strconv.Itoa(c.Codigo)
	case sonda.TiempoAgotado:
		return "tiempo agotado"
	case sonda.SinConexion:
		return "sin conexión"
	case sonda.DestinoProhibido:
		return "destino prohibido"
	}
	return "respuesta inválida"
}
