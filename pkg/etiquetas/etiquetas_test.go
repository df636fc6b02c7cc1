package etiquetas

import (
	"slices"
	"strings"
	"testing"
)

func TestInterpretar(t *testing.T) {
	t.Parallel()
	casos := []struct {
		cabecera string
		lista    []string
		comodin  bool
	}{
		{`W/"1-1"`, []string{`W/"1-1"`}, false},
		{`"9-9", "1-1"`, []string{`"9-9"`, `"1-1"`}, false},
		{`"a,b"`, []string{`"a,b"`}, false},
		{`"a,b", W/"c"`, []string{`"a,b"`, `W/"c"`}, false},
		{" \t\"1\"\t, \t\"2\" ", []string{`"1"`, `"2"`}, false},
		{`"1",,"2"`, []string{`"1"`, `"2"`}, false},
		{`"1",`, []string{`"1"`}, false},
		{`,"1"`, []string{`"1"`}, false},
		{`""`, []string{`""`}, false},
		{`W/""`, []string{`W/""`}, false},
		{"\"\x80\xff\"", []string{"\"\x80\xff\""}, false},
		{`*`, nil, true},
		{` * `, nil, true},
		{"", nil, false},
		{", ,", nil, false},
		// Invalid: the whole list is dropped.
		{`"1" x`, nil, false},
		{`"1"x`, nil, false},
		{`*, "1"`, nil, false},
		{`"1", *`, nil, false},
		{`**`, nil, false},
		{`"`, nil, false},
		{`W/`, nil, false},
		{`W/"`, nil, false},
		{`"1" "2"`, nil, false},
		{`w/"1"`, nil, false},
		{`W/ "1"`, nil, false},
		{`"a"b"`, nil, false},
		{"\"\x7f\"", nil, false},
		{`"a b"`, nil, false},
		{`1-1`, nil, false},
		{`"9-9", 1-1`, nil, false},
	}
	for _, c := range casos {
		lista, comodin := Interpretar(c.cabecera)
		if comodin != c.comodin || !slices.Equal(lista, c.lista) {
			t.Errorf("Interpretar(%q) = %q, %v; quiero %q, %v", c.cabecera, lista, comodin, c.lista, c.comodin)
		}
	}
}

func TestComparaciones(t *testing.T) {
	t.Parallel()
	casos := []struct {
		a, b          string
		debil, fuerte bool
	}{
		{`"1-1"`, `"1-1"`, true, true},
		{`W/"1-1"`, `"1-1"`, true, false},
		{`"1-1"`, `W/"1-1"`, true, false},
		{`W/"1-1"`, `W/"1-1"`, true, false},
		{`W/"1-1"`, `W/"2-1"`, false, false},
		{`"1-1"`, `"2-1"`, false, false},
	}
	for _, c := range casos {
		if got := CoincideDebil(c.a, c.b); got != c.debil {
			t.Errorf("CoincideDebil(%s, %s) = %v", c.a, c.b, got)
		}
		if got := CoincideFuerte(c.a, c.b); got != c.fuerte {
			t.Errorf("CoincideFuerte(%s, %s) = %v", c.a, c.b, got)
		}
	}
}

func TestHayCoincidencia(t *testing.T) {
	t.Parallel()
	const vigente = `"1-1-a9fec589"`
	casos := []struct {
		cabecera      string
		debil, fuerte bool
	}{
		{vigente, true, true},
		{`W/` + vigente, true, false},              // If-None-Match → 304; If-Match → 412
		{`"9-9", ` + vigente, true, true},          // a list
		{`*`, true, true},                          // the resource exists
		{`"9-9", W/"8-8"`, false, false},           // none
		{`*, ` + vigente, false, false},            // "*" mixed in: invalid
		{vigente + ` basura`, false, false},        // trailing garbage: invalid
		{`"1-1-a9fec589`, false, false},            // unclosed
		{`"x,y", ` + vigente, true, true},          // a comma inside the quotes
		{"\t" + vigente + " ,\t\"2\"", true, true}, // spaces and tabs
		{`"1-0-0"`, false, false},                  // an old tag
		{``, false, false},                         // empty
	}
	for _, c := range casos {
		if got := HayCoincidencia(c.cabecera, vigente, CoincideDebil); got != c.debil {
			t.Errorf("débil %q = %v", c.cabecera, got)
		}
		if got := HayCoincidencia(c.cabecera, vigente, CoincideFuerte); got != c.fuerte {
			t.Errorf("fuerte %q = %v", c.cabecera, got)
		}
	}
}

func FuzzInterpretar(f *testing.F) {
	for _, s := range []string{`W/"1-1"`, `"9-9", "1-1"`, `"a,b"`, `*, "1"`, `*`, `"1" x`, " \t\"1\"\t,", `W/`, "\"\x80\""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cabecera string) {
		lista, comodin := Interpretar(cabecera)
		if comodin && len(lista) > 0 {
			t.Fatalf("comodín con lista %q", lista)
		}
		for _, e := range lista {
			if !esValida(e) {
				t.Fatalf("Interpretar(%q) devolvió una etiqueta mal formada %q", cabecera, e)
			}
		}
	})
}

// esValida reports whether texto is exactly one tag: "x" or W/"x".
func esValida(texto string) bool {
	s := strings.TrimPrefix(texto, "W/")
	return len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' && opacaValida(s[1:len(s)-1])
}
