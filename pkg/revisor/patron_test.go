package revisor

import (
	"regexp"
	"testing"
)

// A route's pattern matches exactly what the regular expression the course's router would use
// matches (\d is ASCII), and gives the same number.
func TestPatronComoSuExpresion(t *testing.T) {
	t.Parallel()
	patrones := []struct {
		p  patron
		re *regexp.Regexp
	}{
		{literal("/servicios"), regexp.MustCompile(`^/servicios$`)},
		{conNumero("/servicios/", ""), regexp.MustCompile(`^/servicios/(\d+)$`)},
		{conNumero("/servicios/", "/salud"), regexp.MustCompile(`^/servicios/(\d+)/salud$`)},
		{conNumero("/v1/servicios/", ""), regexp.MustCompile(`^/v1/servicios/(\d+)$`)},
	}
	caminos := []string{
		"/servicios", "/servicios/", "/servicios/1", "/servicios/007", "/servicios/1/", "/servicios/1x",
		"/servicios/x1", "/servicios/١", "/servicios/1/salud", "/servicios//salud", "/servicios/1/salud/",
		"/servicios/12/saludo", "/servicios/salud", "/servicios/99999999999999999999", "/v1/servicios/3",
		"/v1/servicios/", "/servicioss", "", "/", "/servicios/1/revisiones", "/servicios/+1", "/servicios/-1",
	}
	for _, c := range patrones {
		for _, camino := range caminos {
			numero, ok := c.p.encontrar(camino)
			m := c.re.FindStringSubmatch(camino)
			quiere := ""
			if len(m) > 1 {
				quiere = m[1]
			}
			if ok != (m != nil) || numero != quiere {
				t.Errorf("%s con %q: (%q, %v), la expresión da %q", c.re, camino, numero, ok, m)
			}
		}
	}
}
