package prueba

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// lectoresDelMundo are the imports that say a package's tests reach past what go test's cache
// sees: os/exec in any of its files (a program outside the module, or one built from sources the
// test binary may not contain), and in its tests the helpers that start node, PostgreSQL or
// Chromium.
var lectoresDelMundo = map[string]bool{
	"os/exec":                             true,
	"cursohttp/internal/prueba/oraculo":   true,
	"cursohttp/internal/prueba/pgtest":    true,
	"cursohttp/internal/prueba/navegador": true,
	"cursohttp/pkg/pgefimero":             true,
}

// make unit keeps the result of every package's tests in go test's cache but for those listed in
// scripts/pruebas-sin-cache.txt, which run every time: a package whose tests run a program or
// start node, PostgreSQL or Chromium and is not on that list could pass from the cache with the
// program gone or changed. Each line names a package that has tests and says why. What this cannot
// see (files outside the module read by a test, a program run through another package) is the
// list's writer's to add.
func TestLasPruebasQueLeenElMundo(t *testing.T) {
	t.Parallel()
	raiz := filepath.Join("..", "..")
	texto, err := os.ReadFile(filepath.Join(raiz, "scripts", "pruebas-sin-cache.txt"))
	if err != nil {
		t.Fatal(err)
	}
	paquetes := paquetesDe(t, raiz, "cmd", "pkg", "internal", "scripts", "e2e")
	listados := map[string]bool{}
	for i, linea := range strings.Split(string(texto), "\n") {
		if strings.HasPrefix(linea, "#") || strings.TrimSpace(linea) == "" {
			continue
		}
		p, porque, _ := strings.Cut(linea, "#")
		p = strings.TrimPrefix(strings.TrimSpace(p), "./")
		if strings.TrimSpace(porque) == "" || strings.ContainsAny(p, " \t") {
			t.Errorf("pruebas-sin-cache.txt:%d: «paquete # por qué», se leyó %q", i+1, linea)
			continue
		}
		listados[p] = true
		if !conPruebas(paquetes[p]) {
			t.Errorf("pruebas-sin-cache.txt:%d: %s no es un paquete con pruebas", i+1, p)
		}
	}
	fset := token.NewFileSet()
	for p, archivos := range paquetes {
		if listados[p] || !conPruebas(archivos) {
			continue
		}
		for _, a := range archivos {
			f, err := parser.ParseFile(fset, a, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, im := range f.Imports {
				ruta, _ := strconv.Unquote(im.Path.Value)
				if lectoresDelMundo[ruta] && (ruta == "os/exec" || strings.HasSuffix(a, "_test.go")) {
					t.Errorf("%s importa %s y no está en scripts/pruebas-sin-cache.txt: su resultado no puede venir de la caché de go test", strings.TrimPrefix(filepath.ToSlash(a), "../../"), ruta)
				}
			}
		}
	}
}

func conPruebas(archivos []string) bool {
	for _, a := range archivos {
		if strings.HasSuffix(a, "_test.go") {
			return true
		}
	}
	return false
}
