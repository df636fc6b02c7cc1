package prueba

import (
	"go/ast"
	"go/token"
	"strings"
	"testing"
)

// abrenSockets are the files outside pkg/montaje and pkg/servidor that may listen on a socket
// themselves, each with why it is no course server standing up on its own (issue 41: the labs stand
// up through one assembly).
var abrenSockets = map[string]string{
	"internal/prueba/crudo.go":                     "a raw server for wire tests, which writes what net/http will not",
	"internal/prueba/programa.go":                  "a port held busy, to test the busy-port line",
	"internal/prueba/puertos_otros.go":             "free ports for programs a test starts, kept from other processes",
	"internal/prueba/servidortest/servidortest.go": "a handler on a free port for unit tests, as httptest.NewServer, on servidor.Escuchar's listener",
	"scripts/bench/main.go":                        "a free port for a program the bench starts as a process",
}

// TestSoloElMontajeLevantaServidores (make check): no program stands a server up by hand; the
// course's servers listen through pkg/montaje (which listens through pkg/servidor) or
// servidor.Correr.
func TestSoloElMontajeLevantaServidores(t *testing.T) {
	t.Parallel()
	escuchar := map[string]map[string]bool{
		"net":      {"Listen": true, "ListenTCP": true, "ListenUnix": true},
		"http":     {"ListenAndServe": true, "Serve": true, "ListenAndServeTLS": true},
		"httptest": {"NewServer": true, "NewUnstartedServer": true, "NewTLSServer": true},
	}
	cadaPrograma(t, func(rel string, f *ast.File, conjunto *token.FileSet) {
		if _, permitido := abrenSockets[rel]; permitido || enPaquete(rel, "pkg/montaje") || enPaquete(rel, "pkg/servidor") {
			return
		}
		ast.Inspect(f, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			s, ok := c.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if p, ok := s.X.(*ast.Ident); ok && escuchar[p.Name][s.Sel.Name] {
				t.Errorf("%s: %s.%s levanta un servidor a mano; los del curso se levantan con pkg/montaje o servidor.Correr (o di por qué en abrenSockets)",
					conjunto.Position(c.Pos()), p.Name, s.Sel.Name)
			}
			if s.Sel.Name == "Listen" {
				if cl, ok := s.X.(*ast.UnaryExpr); ok {
					if lit, ok := cl.X.(*ast.CompositeLit); ok {
						if sel, ok := lit.Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "ListenConfig" {
							t.Errorf("%s: net.ListenConfig levanta un servidor a mano (o di por qué en abrenSockets)", conjunto.Position(c.Pos()))
						}
					}
				}
			}
			return true
		})
	})
}

// enPaquete says whether the file rel is one of paquete's own (not of a package below it).
func enPaquete(rel, paquete string) bool {
	resto, ok := strings.CutPrefix(rel, paquete+"/")
	return ok && !strings.Contains(resto, "/")
}
