package prueba

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// cadaPrograma parses every Go file of the module that is not a test (testdata, hidden folders
// and node_modules left out) and hands each to f with its path from the root, in slashes. It fails
// the test when fewer than 100 were read: a walk that finds nothing proves nothing.
func cadaPrograma(t *testing.T, f func(rel string, archivo *ast.File, conjunto *token.FileSet)) {
	t.Helper()
	raiz := filepath.Join("..", "..")
	conjunto := token.NewFileSet()
	vistos := 0
	err := filepath.WalkDir(raiz, func(camino string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if n := e.Name(); camino != raiz && (n == "testdata" || strings.HasPrefix(n, ".") || n == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(camino, ".go") || strings.HasSuffix(camino, "_test.go") {
			return nil
		}
		archivo, err := parser.ParseFile(conjunto, camino, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		vistos++
		rel, _ := filepath.Rel(raiz, camino)
		f(filepath.ToSlash(rel), archivo, conjunto)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if vistos < 100 {
		t.Fatalf("solo %d archivos leídos", vistos)
	}
}
