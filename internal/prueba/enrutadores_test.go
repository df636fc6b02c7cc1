package prueba

import (
	"go/ast"
	"go/token"
	"strings"
	"testing"
)

// Routes go on http.ServeMux with method patterns (issue 33): no program routes by comparing a
// request's path by hand, which re-implements 404, 405 and Allow a little differently each time.
// The files below look at the path for a reason a mux does not cover; a new one needs its reason.
var miranLaRuta = map[string]string{
	// The grader's gateways tell an intent (POST /servicios) from the rest of what a client sends,
	// all of which they forward: a filter in front of one upstream, not a router.
	"pkg/examen/corrida.go": "el filtro de intenciones de la pasarela del examen",
	"pkg/examen/motor.go":   "el filtro de intenciones de la pasarela del examen",
	// The gateway forwards everything but its own /_pasarela/ routes, which a ServeMux serves.
	"pkg/pasarela/pasarela.go": "lo que es de la pasarela (un ServeMux) frente a lo que reenvía",
	// The class gateway's door refuses the gateway's own routes to every grading: a filter, not a router.
	"pkg/montaje/pase.go": "la puerta de la pasarela de la clase, que no deja pasar a las rutas propias de la pasarela",
}

func TestNadieEnrutaAMano(t *testing.T) {
	t.Parallel()
	cadaPrograma(t, func(rel string, f *ast.File, conjunto *token.FileSet) {
		if _, permitido := miranLaRuta[rel]; permitido {
			return
		}
		ast.Inspect(f, func(n ast.Node) bool {
			var mira ast.Expr
			switch x := n.(type) {
			case *ast.BinaryExpr:
				if x.Op == token.EQL || x.Op == token.NEQ {
					if esRuta(x.X) {
						mira = x.X
					} else if esRuta(x.Y) {
						mira = x.Y
					}
				}
			case *ast.SwitchStmt:
				if x.Tag != nil && esRuta(x.Tag) {
					mira = x.Tag
				}
			case *ast.CallExpr:
				if s, ok := x.Fun.(*ast.SelectorExpr); ok && len(x.Args) > 0 && esRuta(x.Args[0]) {
					if p, ok := s.X.(*ast.Ident); ok && p.Name == "strings" && strings.Contains(s.Sel.Name, "Prefix") {
						mira = x.Args[0]
					}
				}
			}
			if mira != nil {
				t.Errorf("%s: enruta a mano sobre URL.Path; usa http.ServeMux con patrones de método (o di por qué en miranLaRuta)", conjunto.Position(mira.Pos()))
			}
			return true
		})
	})
}

// esRuta: an expression that ends in .URL.Path.
func esRuta(e ast.Expr) bool {
	s, ok := e.(*ast.SelectorExpr)
	if !ok || s.Sel.Name != "Path" {
		return false
	}
	u, ok := s.X.(*ast.SelectorExpr)
	return ok && u.Sel.Name == "URL"
}
