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

// A limit is changed in one place, pkg/topes (issue 33): no package re-exports one under a name of
// its own («const TopeLibro = topes.Libro»), which made a reader look in two places and let the two
// names drift apart in docs and tests. A limit is used by its own name, topes.X.
func TestNadieReexportaUnTope(t *testing.T) {
	t.Parallel()
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
		f, err := parser.ParseFile(conjunto, camino, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		vistos++
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || (g.Tok != token.CONST && g.Tok != token.VAR) {
				continue
			}
			for _, s := range g.Specs {
				v := s.(*ast.ValueSpec)
				for i, x := range v.Values {
					if sel, ok := x.(*ast.SelectorExpr); ok {
						if p, ok := sel.X.(*ast.Ident); ok && p.Name == "topes" {
							t.Errorf("%s: %s = topes.%s vuelve a exportar un tope con otro nombre: usa topes.%s donde se aplica",
								conjunto.Position(v.Pos()), v.Names[i].Name, sel.Sel.Name, sel.Sel.Name)
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if vistos < 100 {
		t.Fatalf("solo %d archivos leídos", vistos)
	}
}
