package revisor

import (
	"net/http"
	"strings"
	"testing"
)

// In classroom mode the class gateway puts the student's team on the course's credential; the
// revisor takes «escritura-a@EQUIPO» as escritura-a of that team only, never admin, and nothing
// else: the course's credentials themselves, printed in every lesson, open nothing there (issue 40).
func TestCredencialesDeClase(t *testing.T) {
	t.Parallel()
	casos := []struct {
		cabecera string
		id       Identificacion
		equipo   string
	}{
		{"Bearer escritura-a@0123abcd", Valida, "a@0123abcd"},
		{"Bearer escritura-b@0123abcd", Valida, "b@0123abcd"},
		{"Bearer lectura-a@ff", Valida, "a@ff"},
		{"bearer   escritura-a@ff", Valida, "a@ff"},
		{"Bearer admin@0123abcd", Invalida, ""},
		{"Bearer otra@0123abcd", Invalida, ""},
		{"Bearer escritura-a@", Invalida, ""},
		{"Bearer escritura-a@ABC", Invalida, ""},
		{"Bearer escritura-a@a@b", Invalida, ""},
		{"Bearer escritura-a@012345678901234567890123456789012", Invalida, ""},
		{"Bearer escritura-a", Invalida, ""},
		{"Bearer lectura-b", Invalida, ""},
		{"Bearer admin", Invalida, ""},
		{"Basic escritura-a@ff", OtroEsquema, ""},
	}
	for _, c := range casos {
		h := http.Header{"Authorization": {c.cabecera}}
		id, cr := Identificar(h, EnClase)
		if id != c.id || cr.Equipo != c.equipo {
			t.Errorf("%q: %v %q; se esperaba %v %q", c.cabecera, id, cr.Equipo, c.id, c.equipo)
		}
		if id == Valida && cr.Equipo == "*" {
			t.Errorf("%q ve todos los equipos", c.cabecera)
		}
		// Outside a class lab no such credential exists.
		if id, _ := Identificar(h, nil); id == Valida && strings.Contains(c.cabecera, SeparadorClase) {
			t.Errorf("%q vale fuera de la clase", c.cabecera)
		}
	}
}
