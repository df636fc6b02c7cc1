package main

import (
	"context"
	"io"
	"regexp"
	"strings"
	"testing"

	"cursohttp/pkg/documentoapi"
	"cursohttp/pkg/revisor"
)

// The route list of «revisor --help» is written from the route table (revisor.AyudaRutas), each
// route's line by hand on its entry: every route of the table is named there with each of its
// methods (HEAD, which every GET takes, said once for all), and every path the list names is a
// route of the table. A method added to an entry without a word in its help fails here.
func TestLaAyudaNombraCadaRuta(t *testing.T) {
	t.Parallel()
	var salida strings.Builder
	if codigo := run(context.Background(), []string{"--help"}, strings.NewReader(""), &salida, io.Discard); codigo != 0 {
		t.Fatalf("revisor --help: código %d", codigo)
	}
	ayuda := salida.String()
	if !strings.Contains(ayuda, revisor.AyudaRutas()) {
		t.Fatalf("revisor --help no trae la lista de revisor.AyudaRutas:\n%s", ayuda)
	}
	metodos := map[string][]string{}
	var rutas []string
	for _, op := range documentoapi.Operaciones() {
		if metodos[op.Ruta] == nil {
			rutas = append(rutas, op.Ruta)
		}
		metodos[op.Ruta] = append(metodos[op.Ruta], op.Metodo)
	}
	if len(rutas) < 5 {
		t.Fatalf("la tabla tiene %d rutas", len(rutas))
	}

	// A route's entry: the line that names it and those that go on under the text's column.
	lineas := strings.Split(ayuda, "\n")
	sigue := strings.Repeat(" ", 30)
	for _, ruta := range rutas {
		patron := regexp.MustCompile(`^  (.*, )?` + regexp.QuoteMeta(ruta) + `($|[ ,])`)
		texto := ""
		for i, l := range lineas {
			if patron.MatchString(l) {
				texto = l
				for _, otra := range lineas[i+1:] {
					if !strings.HasPrefix(otra, sigue) {
						break
					}
					texto += "\n" + otra
				}
				break
			}
		}
		if texto == "" {
			t.Errorf("la ayuda no nombra %s", ruta)
			continue
		}
		for _, m := range metodos[ruta] {
			if !regexp.MustCompile(`\b` + m + `\b`).MatchString(texto) {
				t.Errorf("la ayuda de %s no dice %s:\n%s", ruta, m, texto)
			}
		}
	}

	// And no line names a path the table does not have.
	for _, l := range strings.Split(revisor.AyudaRutas(), "\n") {
		if !strings.HasPrefix(l, "  /") {
			continue
		}
		etiqueta, _, _ := strings.Cut(strings.TrimPrefix(l, "  "), "  ")
		for _, ruta := range strings.Split(etiqueta, ", ") {
			if metodos[ruta] == nil {
				t.Errorf("la ayuda nombra %s, que no es una ruta de la tabla", ruta)
			}
		}
	}
}
