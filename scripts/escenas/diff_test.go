//go:build unix

package main

import (
	"strings"
	"testing"
)

func lineas(desde int, textos ...string) []Linea {
	l := make([]Linea, len(textos))
	for i, t := range textos {
		l[i] = Linea{Texto: t, Numero: desde + i}
	}
	return l
}

func TestDiferencia(t *testing.T) {
	t.Parallel()
	casos := []struct {
		nombre   string
		esperado []Linea
		obtenido []string
		apunta   string // "" means they match
	}{
		{"iguales", lineas(10, "a", "b"), []string{"a", "b"}, ""},
		{"una línea cambiada", lineas(10, "a", "b", "c"), []string{"a", "B", "c"}, "e.escena:11"},
		{"una línea de menos", lineas(10, "a", "b", "c"), []string{"a", "c"}, "e.escena:11"},
		{"una línea de más al final", lineas(10, "a"), []string{"a", "z"}, "e.escena:11"},
		{"… cubre varias líneas", lineas(10, "a", Elision, "z"), []string{"a", "x", "y", "z"}, ""},
		{"… cubre ninguna", lineas(10, "a", Elision, "z"), []string{"a", "z"}, ""},
		{"… al final", lineas(10, "GET /codigo/400", Elision), []string{"GET /codigo/400", "GET /codigo/401", "GET /codigo/402"}, ""},
		{"… no perdona lo de después", lineas(10, "a", Elision, "z"), []string{"a", "x", "y"}, "e.escena:12"},
		{"línea que acaba en …", lineas(5, "error 1 en GET /x: …"), []string{"error 1 en GET /x: runtime error"}, ""},
		{"… con otro principio", lineas(5, "error 1 en GET /x: …"), []string{"error 2 en GET /x: runtime error"}, "e.escena:5"},
		{"nada salió", lineas(3, "a"), nil, "e.escena:3"},
		{"nada se esperaba", nil, []string{"a"}, "e.escena:3"},
	}
	for _, c := range casos {
		t.Run(c.nombre, func(t *testing.T) {
			t.Parallel()
			d := Diferencia("e.escena", 2, c.esperado, "$ cmd", c.obtenido)
			if c.apunta == "" {
				if d != "" {
					t.Errorf("no debería haber diferencia:\n%s", d)
				}
				return
			}
			if !strings.Contains(d, "@@ ") || !strings.HasSuffix(strings.SplitN(strings.SplitN(d, "@@ ", 3)[2], "\n", 2)[0], c.apunta) {
				t.Errorf("la diferencia debería apuntar a %s:\n%s", c.apunta, d)
			}
		})
	}
}

func TestDiferenciaEsUnDiffUnificado(t *testing.T) {
	t.Parallel()
	d := Diferencia("x.escena", 19, lineas(20, "uno", "dos", "tres", "cuatro", "cinco"), "$ prog", []string{"uno", "dos", "TRES", "cuatro", "cinco"})
	want := "--- x.escena (como en la lección)\n+++ $ prog\n@@ -20,5 +1,5 @@ x.escena:22\n uno\n dos\n-tres\n+TRES\n cuatro\n cinco\n"
	if d != want {
		t.Errorf("got\n%s\nwant\n%s", d, want)
	}
}
