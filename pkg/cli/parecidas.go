package cli

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Parecidas are the candidates a mistyped palabra may have meant, in their order: at most two
// edits away (a letter missing, extra, changed; case aside), or starting with it. It is cobra's
// rule for orders, for anything else a student types: a flag, a problem's name.
func Parecidas(palabra string, candidatas []string) []string {
	var r []string
	p := strings.ToLower(palabra)
	for _, c := range candidatas {
		if c == palabra {
			continue
		}
		l := strings.ToLower(c)
		if distancia(p, l) <= 2 || (p != "" && strings.HasPrefix(l, p)) {
			r = append(r, c)
		}
	}
	return r
}

// distancia is the Levenshtein distance between a and b, by runes.
func distancia(a, b string) int {
	x, y := []rune(a), []rune(b)
	fila := make([]int, len(y)+1)
	for j := range fila {
		fila[j] = j
	}
	for i := 1; i <= len(x); i++ {
		diagonal := fila[0]
		fila[0] = i
		for j := 1; j <= len(y); j++ {
			antes := fila[j]
			costo := 1
			if x[i-1] == y[j-1] {
				costo = 0
			}
			fila[j] = min(fila[j]+1, fila[j-1]+1, diagonal+costo)
			diagonal = antes
		}
	}
	return fila[len(y)]
}

// opcionesParecidas are c's visible long flags a mistyped --nombre may have meant, as typed
// (--help, which every command has, is no guess).
func opcionesParecidas(c *cobra.Command, nombre string) []string {
	var nombres []string
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden && f.Name != "help" {
			nombres = append(nombres, f.Name)
		}
	})
	r := Parecidas(nombre, nombres)
	for i := range r {
		r[i] = "--" + r[i]
	}
	return r
}
