package prueba

import (
	"go/ast"
	"go/token"
	"testing"
)

// A limit is changed in one place, pkg/topes (issue 33): no package re-exports one under a name of
// its own («const TopeLibro = topes.Libro»), which made a reader look in two places and let the two
// names drift apart in docs and tests. A limit is used by its own name, topes.X.
func TestNadieReexportaUnTope(t *testing.T) {
	t.Parallel()
	cadaPrograma(t, func(_ string, f *ast.File, conjunto *token.FileSet) {
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
	})
}
