package revisor

import (
	"cursohttp/pkg/limitador"
	"cursohttp/pkg/respuesta"
)

// anunciarLimite puts RateLimit-Policy and RateLimit on the response of a limited route when
// Opciones.CabecerasRateLimit asks for them, whatever the answer turns out to be (202, 404, 429…):
// every request the limiter counted tells the client where it stands. On a 429, t and Retry-After
// are the same rounded-up number, so Retry-After never points earlier than t, as the draft asks.
func (rv *Revisor) anunciarLimite(c *contexto, politica string, l limitador.Limitador, v limitador.Veredicto) {
	if !rv.anunciar {
		return
	}
	respuesta.Poner(c.w.Header(),
		respuesta.Cabecera{Nombre: "RateLimit-Policy", Valor: limitador.ValorRateLimitPolicy(politica, l.Politica())},
		respuesta.Cabecera{Nombre: "RateLimit", Valor: limitador.ValorRateLimit(politica, v)})
}
