package montaje

import (
	"net/http"

	"cursohttp/pkg/token"
)

// CabeceraSello carries the gateway's stamp to the revisors behind it: the assembly's own secret,
// which no client knows. A sealed revisor removes it before it answers, and answers nothing that
// lacks it except through Opciones.Directo.
const CabeceraSello = "X-Comprobar-Sello"

// sellar stamps every request the gateway forwards. The gateway forwards only the course's
// request fields, so a stamp a client forges never gets this far: this one replaces nothing.
type sellar struct {
	rt    http.RoundTripper
	sello string
}

func (s sellar) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(CabeceraSello, s.sello)
	return s.rt.RoundTrip(r)
}

// Sellada says whether r carries this assembly's stamp.
func (m *Montaje) Sellada(r *http.Request) bool {
	return token.Iguales(r.Header.Get(CabeceraSello), m.sello)
}

// sellado is a revisor that answers what its gateway stamped; anything else reached it some other
// way (a client that skipped the gateway, someone on the machine who found its port).
func (m *Montaje) sellado(rv http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if m.Sellada(r) {
			r.Header.Del(CabeceraSello)
			rv.ServeHTTP(w, r)
			return
		}
		r.Header.Del(CabeceraSello)
		if m.o.Directo != nil {
			m.o.Directo(w, r, rv)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.WriteHeader(http.StatusForbidden)
		w.Write([]byte("este revisor solo responde a su pasarela: se llega a él por ella\n")) //nolint:errcheck // the client left
	})
}
