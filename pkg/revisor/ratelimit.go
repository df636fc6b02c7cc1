package revisor

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"cursohttp/pkg/limitador"
	"cursohttp/pkg/problema"
	"cursohttp/pkg/respuesta"
)

// dentroDelLimite counts the request against its route's limit under clave (the credential's name,
// or the service's id for a per-service limit) and answers the 429 when the quota is spent. With Opciones.CabecerasRateLimit every request the limiter counted
// carries RateLimit-Policy and RateLimit, whatever the answer turns out to be (202, 404, 429…), so
// the client knows where it stands; on a 429, t and Retry-After are the same rounded-up number, so
// Retry-After never points earlier than t, as the draft asks.
func (rv *Revisor) dentroDelLimite(w http.ResponseWriter, r *http.Request, l *limite, clave string) bool {
	lim := l.lim
	v, err := lim.Permitir(r.Context(), clave, rv.reloj())
	if err != nil {
		rv.averia(w, r, err)
		return false
	}
	if rv.anunciar {
		respuesta.Poner(w.Header(),
			respuesta.Cabecera{Nombre: "RateLimit-Policy", Valor: limitador.ValorRateLimitPolicy(l.politica, lim.Politica())},
			respuesta.Cabecera{Nombre: "RateLimit", Valor: limitador.ValorRateLimit(l.politica, v)})
	}
	if v.Permitido {
		return true
	}
	rv.fallar(w, r, l.problema, "ya pediste "+strconv.Itoa(l.cuota)+" "+l.que+" en "+ultimo(l.ventana),
		problema.ConCabecera("Retry-After", strconv.FormatInt(v.RetryAfter, 10)))
	return false
}

// ultimo names a window as the 429's detail does: «el último minuto» for the course's 60 s.
func ultimo(d time.Duration) string {
	switch {
	case d == time.Minute:
		return "el último minuto"
	case d%time.Minute == 0:
		return "los últimos " + strconv.Itoa(int(d/time.Minute)) + " minutos"
	}
	return "los últimos " + strings.Replace(strconv.FormatFloat(d.Seconds(), 'f', -1, 64), ".", ",", 1) + " segundos"
}
