package prueba

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Each change traced in docs/estructura.md closes with the files it touches and, for a change that
// adds to a table (a fault mode, a revisor route, a grader check, a problem type), the table it
// adds a row to. This keeps both true as code moves: every file named is there, the table is
// declared in the file named, and that file is among those touched, so a trace cannot go on
// pointing at a file a table left.
func TestCadaTrazaDiceSusArchivos(t *testing.T) {
	t.Parallel()
	raiz := filepath.Join("..", "..")
	b, err := os.ReadFile(filepath.Join(raiz, "docs", "estructura.md"))
	if err != nil {
		t.Fatal(err)
	}
	texto := string(b)
	i := regexp.MustCompile(`(?m)^## .*changes, traced$`).FindStringIndex(texto)
	if i == nil {
		t.Fatal("docs/estructura.md no tiene la sección de los cambios trazados")
	}
	seccion := texto[i[1]:]
	if fin := strings.Index(seccion, "\n## "); fin >= 0 {
		seccion = seccion[:fin]
	}
	var (
		codigo = regexp.MustCompile("`([^`\n]+)`")
		tabla  = regexp.MustCompile("^`([a-z]\\w*)\\.(\\w+)` \\(`([^`]+\\.go)`\\)")
		trazas = strings.Split(seccion, "\n### ")[1:]
		tablas = 0
	)
	if len(trazas) < 6 {
		t.Fatalf("%d cambios trazados; se esperaban al menos 6", len(trazas))
	}
	for _, traza := range trazas {
		titulo, _, _ := strings.Cut(traza, "\n")
		archivos := parrafo(traza, "*Files it touches:*")
		if archivos == "" {
			t.Errorf("«%s» no dice qué archivos toca («*Files it touches:*»)", titulo)
			continue
		}
		tocados := map[string]bool{}
		for _, m := range codigo.FindAllStringSubmatch(archivos, -1) {
			tocados[m[1]] = true
			if _, err := os.Stat(filepath.Join(raiz, filepath.FromSlash(strings.TrimSuffix(m[1], "/")))); err != nil {
				t.Errorf("«%s» toca «%s», que no existe", titulo, m[1])
			}
		}
		if len(tocados) == 0 {
			t.Errorf("«%s»: «*Files it touches:*» no nombra ningún archivo en código", titulo)
		}
		su := strings.TrimSpace(parrafo(traza, "*Its table:*"))
		if su == "" {
			continue
		}
		m := tabla.FindStringSubmatch(su)
		switch {
		case m == nil:
			t.Errorf("«%s»: «*Its table:*» debe decir `paquete.Nombre` (`archivo.go`): %q", titulo, su)
		case !declaraEn(filepath.Join(raiz, filepath.FromSlash(m[3])), m[1], m[2]):
			t.Errorf("«%s»: %s.%s no está declarada en %s", titulo, m[1], m[2], m[3])
		case !tocados[m[3]]:
			t.Errorf("«%s»: su tabla está en %s, que no está entre los archivos que toca", titulo, m[3])
		default:
			tablas++
		}
	}
	if tablas < 4 {
		t.Errorf("solo %d cambios dicen su tabla; un modo de falla, una ruta, una comprobación y un tipo de problema la tienen", tablas)
	}
}

// parrafo is the paragraph of traza that starts with inicio, without it.
func parrafo(traza, inicio string) string {
	j := strings.Index(traza, "\n"+inicio)
	if j < 0 {
		return ""
	}
	p := traza[j+1+len(inicio):]
	if k := strings.Index(p, "\n\n"); k >= 0 {
		p = p[:k]
	}
	return p
}

// declaraEn says whether the Go file at camino, of package paquete, declares nombre at its top level.
func declaraEn(camino, paquete, nombre string) bool {
	f, err := parser.ParseFile(token.NewFileSet(), camino, nil, parser.SkipObjectResolution)
	if err != nil || f.Name.Name != paquete {
		return false
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.Name == nombre {
				return true
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if s.Name.Name == nombre {
						return true
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.Name == nombre {
							return true
						}
					}
				}
			}
		}
	}
	return false
}
