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
	rv.fallar(w, r, l.problema, yaPediste(l, lim.Politica()), problema.ConCabecera("Retry-After", strconv.FormatInt(v.RetryAfter, 10)))
	return false
}

// yaPediste is the 429's detail: what was asked too often, as the limiter counts it. The course's
// fixed window (and the sliding log) count a window; a bucket refuses after its burst, before the
// quota of a window is spent, so it says so instead of claiming a count that did not happen.
func yaPediste(l *limite, p limitador.Politica) string {
	if p.Nombre == limitador.AlgoritmoCubeta && p.Rafaga > 0 {
		return "ya pediste " + strconv.Itoa(p.Rafaga) + " " + l.que + " seguidas y la cubeta repone una cada " + segundos(p.Reposicion)
	}
	return "ya pediste " + strconv.Itoa(l.cuota) + " " + l.que + " en " + ultimo(l.ventana)
}

// segundos writes a duration as the 429's detail does: «30 s», «1,5 s».
func segundos(d time.Duration) string {
	return strings.Replace(strconv.FormatFloat(d.Seconds(), 'f', -1, 64), ".", ",", 1) + " s"
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
