package limitador

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/dunglas/httpsfv"
)

// The RateLimit-Policy and RateLimit fields of draft-ietf-httpapi-ratelimit-headers-11: each is
// a Structured Fields List (RFC 9651) whose items are the policy name as an sf-string, with
// parameters q and w (policy) or r and t (current state). The course's revisor does not send them
// (the draft is not a standard); these helpers exist for the programs that want to show them.

// ValorRateLimitPolicy formats the RateLimit-Policy value of p under the caller's name, e.g.
// `"revisiones";q=3;w=60`. The draft has no sub-second windows, so w is rounded up to whole
// seconds (a 1500 ms window is announced as 2 s, which promises no more than it allows).
func ValorRateLimitPolicy(nombre string, p Politica) string {
	return fmt.Sprintf("%s;q=%d;w=%d", cadenaSF(nombre), p.Cuota, segundosArriba(p.Ventana))
}

// ValorRateLimit formats the RateLimit value of v under the caller's name, e.g.
// `"revisiones";r=2;t=45`. t is rounded up like Retry-After, so a refused response carries the
// same number in both fields and a client that waits t seconds is not early.
func ValorRateLimit(nombre string, v Veredicto) string {
	return formatearLimite(Limite{Politica: nombre, Restantes: int64(v.Restantes), Reinicio: v.Reinicio, ConReinicio: true})
}

func formatearLimite(l Limite) string {
	var b strings.Builder
	b.WriteString(cadenaSF(l.Politica))
	b.WriteString(";r=")
	b.WriteString(strconv.FormatInt(l.Restantes, 10))
	if l.ConReinicio {
		t := int64(0)
		if l.Reinicio > 0 {
			t = segundosArriba(l.Reinicio)
		}
		b.WriteString(";t=")
		b.WriteString(strconv.FormatInt(t, 10))
	}
	return b.String()
}

// cadenaSF writes s as an sf-string. Only printable ASCII may appear in one, so anything else
// becomes '?': the name is the server's own label, never worth a malformed field.
func cadenaSF(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c > 0x7e:
			b.WriteByte('?')
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// Limite is one item of a RateLimit field as a client reads it.
type Limite struct {
	Politica    string        // the policy name
	Restantes   int64         // r: quota available
	Reinicio    time.Duration // t, in whole seconds: within it no more than Restantes
	ConReinicio bool          // whether t was present (it is optional)
}

// PoliticaAnunciada is one item of a RateLimit-Policy field as a client reads it.
type PoliticaAnunciada struct {
	Nombre     string
	Cuota      int64         // q
	Ventana    time.Duration // w, in whole seconds
	ConVentana bool          // whether w was present (it is optional)
}

// ErrRateLimit marks a field that must be ignored: the draft says a malformed field is ignored
// as a whole, so one bad item spoils the lot.
var ErrRateLimit = errors.New("cabecera RateLimit mal formada")

// LeerRateLimit parses a RateLimit field value (several field lines may be joined with ", "). Items
// and parameters may come in any order; unknown parameters (pk, vendor ones) are skipped; the name
// may be an sf-string, as the draft asks, or, leniently, a token. r is required and, like t,
// must be a non-negative integer; otherwise the whole field is rejected with ErrRateLimit.
func LeerRateLimit(valor string) ([]Limite, error) {
	elementos, err := leerListaSF(valor)
	if err != nil {
		return nil, err
	}
	limites := make([]Limite, 0, len(elementos))
	for _, e := range elementos {
		l := Limite{Politica: e.nombre}
		r, ok := e.entero("r")
		if !ok {
			return nil, fmt.Errorf("%w: «%s» no trae r, un entero no negativo", ErrRateLimit, e.nombre)
		}
		l.Restantes = r
		if e.esta("t") {
			t, ok := e.entero("t")
			if !ok {
				return nil, fmt.Errorf("%w: el t de «%s» no es un entero no negativo", ErrRateLimit, e.nombre)
			}
			l.Reinicio, l.ConReinicio = segundos(t), true
		}
		limites = append(limites, l)
	}
	return limites, nil
}

// LeerRateLimitPolicy parses a RateLimit-Policy field value with the same rules: q is required,
// w optional and positive.
func LeerRateLimitPolicy(valor string) ([]PoliticaAnunciada, error) {
	elementos, err := leerListaSF(valor)
	if err != nil {
		return nil, err
	}
	politicas := make([]PoliticaAnunciada, 0, len(elementos))
	for _, e := range elementos {
		p := PoliticaAnunciada{Nombre: e.nombre}
		q, ok := e.entero("q")
		if !ok {
			return nil, fmt.Errorf("%w: «%s» no trae q, un entero no negativo", ErrRateLimit, e.nombre)
		}
		p.Cuota = q
		if e.esta("w") {
			w, ok := e.entero("w")
			if !ok || w == 0 {
				return nil, fmt.Errorf("%w: el w de «%s» no es un entero positivo", ErrRateLimit, e.nombre)
			}
			p.Ventana, p.ConVentana = segundos(w), true
		}
		politicas = append(politicas, p)
	}
	return politicas, nil
}

// segundos converts without overflowing: sf-integers go up to 15 digits.
func segundos(s int64) time.Duration {
	const tope = int64(1<<63-1) / int64(time.Second)
	return time.Duration(min(s, tope)) * time.Second
}

// elementoSF is a list member whose bare item is a string or token (the name), with its
// parameters as httpsfv parsed them.
type elementoSF struct {
	nombre     string
	parametros *httpsfv.Params
}

func (e elementoSF) esta(clave string) bool {
	_, ok := e.parametros.Get(clave)
	return ok
}

func (e elementoSF) entero(clave string) (int64, bool) {
	v, _ := e.parametros.Get(clave)
	n, ok := v.(int64)
	return n, ok && n >= 0
}

// leerListaSF parses the field as an RFC 9651 List with httpsfv, a well-kept parser that passes the
// HTTP working group's own test suite (it replaced ~250 hand-written lines: issue 33), and keeps
// the members these fields can use: a name (an sf-string, or leniently a token) with parameters.
// An inner list or a name of another kind spoils the field, as the draft says.
func leerListaSF(valor string) ([]elementoSF, error) {
	if strings.Trim(valor, " ") == "" {
		return nil, fmt.Errorf("%w: está vacía", ErrRateLimit)
	}
	lista, err := httpsfv.UnmarshalList([]string{valor})
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrRateLimit, err)
	}
	elementos := make([]elementoSF, 0, len(lista))
	for _, m := range lista {
		item, ok := m.(httpsfv.Item)
		if !ok {
			return nil, fmt.Errorf("%w: una lista interna no es una política", ErrRateLimit)
		}
		var nombre string
		switch v := item.Value.(type) {
		case string:
			nombre = v
		case httpsfv.Token:
			nombre = string(v)
		default:
			return nil, fmt.Errorf("%w: el nombre de la política no es una cadena", ErrRateLimit)
		}
		elementos = append(elementos, elementoSF{nombre: nombre, parametros: item.Params})
	}
	return elementos, nil
}
