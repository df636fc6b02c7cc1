package main

import (
	"encoding/json"
	"regexp"
	"sort"
	"strings"
	"testing"

	"cursohttp/pkg/documentoapi"
)

// The route list of «revisor --help» is the route table's: every path of the OpenAPI document,
// which is built from the table (pkg/revisor/documento.go), is on a line of the help with each of
// its methods (HEAD, which every GET takes, said once for all), so a route added to the table
// without a word in the help fails here.
func TestLaAyudaNombraCadaRuta(t *testing.T) {
	t.Parallel()
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(documentoapi.Documento(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Paths) < 5 {
		t.Fatalf("el documento tiene %d rutas", len(doc.Paths))
	}
	lineas := strings.Split(descripcion, "\n")
	for ruta, ops := range doc.Paths {
		// The line that names the path, and the one after it when the description goes on.
		patron := regexp.MustCompile(`(^|[ ,])` + regexp.QuoteMeta(ruta) + `($|[ ,])`)
		texto := ""
		for i, l := range lineas {
			if patron.MatchString(l) {
				texto = l
				if i+1 < len(lineas) {
					texto += "\n" + lineas[i+1]
				}
				break
			}
		}
		if texto == "" {
			t.Errorf("la ayuda no nombra %s", ruta)
			continue
		}
		var metodos []string
		for m := range ops {
			if m := strings.ToUpper(m); m == "GET" || m == "POST" || m == "PUT" || m == "DELETE" || m == "PATCH" {
				metodos = append(metodos, m)
			}
		}
		sort.Strings(metodos)
		for _, m := range metodos {
			if !strings.Contains(texto, m) {
				t.Errorf("la ayuda de %s no dice %s:\n%s", ruta, m, texto)
			}
		}
	}
}
