package prueba

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docs/estructura.md promises that everything it writes in code font exists on main: each path,
// each scene, each name written paquete.Nombre or paquete.Tipo.Miembro, each test. This test keeps
// that promise when code moves; the names its worked changes invent are in italics, not code font.
func TestEstructuraNombraLoQueExiste(t *testing.T) {
	t.Parallel()
	raiz := filepath.Join("..", "..")
	texto, err := os.ReadFile(filepath.Join(raiz, "docs", "estructura.md"))
	if err != nil {
		t.Fatal(err)
	}
	decl := declaraciones(t, raiz)
	var (
		ruta       = regexp.MustCompile(`^\.?[\w.-]+(/[\w.*-]+)*/?$`)
		calificado = regexp.MustCompile(`^([a-z][a-z0-9]*)\.([A-Za-z_]\w*)(?:\.([A-Za-z_]\w*))?$`)
		deTest     = regexp.MustCompile(`^(Test|Fuzz|Benchmark)\w+$`)
		escena     = regexp.MustCompile(`^[4-7]\.[0-9a-z.-]*[a-z][0-9a-z.-]*\*?$`)
		suelto     = regexp.MustCompile(`^[A-Za-z_]\w*$`)
	)
	vistos, una := 0, map[string]bool{}
	for _, codigo := range enCodigo(string(texto)) {
		if una[codigo] {
			continue
		}
		una[codigo] = true
		switch m := calificado.FindStringSubmatch(codigo); {
		case escena.MatchString(codigo):
			// «6.falla-*» names every scene that starts so.
			if hay, _ := filepath.Glob(filepath.Join(raiz, "scripts", "leccion-*", codigo+".escena")); len(hay) == 0 {
				t.Errorf("docs/estructura.md nombra la escena «%s», que no existe", codigo)
			}
		case strings.Contains(codigo, "/") && ruta.MatchString(codigo):
			if hay, _ := filepath.Glob(filepath.Join(raiz, filepath.FromSlash(strings.TrimSuffix(codigo, "/")))); len(hay) == 0 {
				t.Errorf("docs/estructura.md nombra «%s», que no existe", codigo)
			}
		case m != nil && decl.paquetes[m[1]] != nil:
			nombre := m[2]
			if m[3] != "" {
				nombre += "." + m[3]
			}
			if !decl.paquetes[m[1]][nombre] {
				t.Errorf("docs/estructura.md nombra «%s», que el paquete %s no declara", codigo, m[1])
			}
		case deTest.MatchString(codigo):
			if !decl.pruebas[codigo] {
				t.Errorf("docs/estructura.md nombra la prueba «%s», que no existe", codigo)
			}
		case suelto.MatchString(codigo):
			// A name on its own (a function of a program, a field, a parameter): declared somewhere.
			if !decl.nombres[codigo] {
				t.Errorf("docs/estructura.md nombra «%s», que nada declara", codigo)
			}
		default:
			continue
		}
		vistos++
	}
	if vistos < 100 {
		t.Errorf("solo %d nombres distintos comprobados en docs/estructura.md", vistos)
	}
}

// enCodigo returns what the Markdown text writes in code font, outside fenced blocks (the
// sketches of new code).
func enCodigo(texto string) []string {
	var fuera strings.Builder
	bloque := false
	for _, linea := range strings.Split(texto, "\n") {
		if strings.HasPrefix(strings.TrimSpace(linea), "```") {
			bloque = !bloque
			continue
		}
		if !bloque {
			fuera.WriteString(linea + "\n")
		}
	}
	var codigos []string
	for _, m := range regexp.MustCompile("`([^`\n]+)`").FindAllStringSubmatch(fuera.String(), -1) {
		codigos = append(codigos, m[1])
	}
	return codigos
}

var esTest = regexp.MustCompile(`^(Test|Fuzz|Benchmark)`)

// declarado is what the module declares: per package (by its name; main packages left out, as
// their names repeat), its top-level names and its types' methods and fields as Tipo.Nombre; every
// test function; and every name on its own, anywhere: packages, top-level names, methods, fields
// and parameters.
type declarado struct {
	paquetes map[string]map[string]bool
	pruebas  map[string]bool
	nombres  map[string]bool
}

func declaraciones(t *testing.T, raiz string) declarado {
	t.Helper()
	d := declarado{paquetes: map[string]map[string]bool{}, pruebas: map[string]bool{}, nombres: map[string]bool{}}
	conjunto := token.NewFileSet()
	err := filepath.WalkDir(raiz, func(camino string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			n := e.Name()
			// What make leaves at the top (programs, archives, the lab's logs) is not source.
			arriba := filepath.Dir(camino) == filepath.Clean(raiz) && (n == "bin" || n == "dist" || n == "lab")
			if camino != raiz && (n == "testdata" || strings.HasPrefix(n, ".") || arriba) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(camino, ".go") {
			return nil
		}
		f, err := parser.ParseFile(conjunto, camino, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		paquete := strings.TrimSuffix(f.Name.Name, "_test")
		d.nombres[paquete] = true
		if paquete == "main" {
			paquete = ""
		}
		anotar := func(nombre string) {
			d.nombres[nombre[strings.LastIndexByte(nombre, '.')+1:]] = true
			if paquete == "" {
				return
			}
			if d.paquetes[paquete] == nil {
				d.paquetes[paquete] = map[string]bool{}
			}
			d.paquetes[paquete][nombre] = true
		}
		for _, dec := range f.Decls {
			switch dec := dec.(type) {
			case *ast.FuncDecl:
				nombre := dec.Name.Name
				if dec.Recv != nil && len(dec.Recv.List) == 1 {
					nombre = tipoDe(dec.Recv.List[0].Type) + "." + nombre
				} else if strings.HasSuffix(camino, "_test.go") && esTest.MatchString(nombre) {
					d.pruebas[nombre] = true
				}
				anotar(nombre)
				for _, campos := range []*ast.FieldList{dec.Type.Params, dec.Type.Results} {
					for _, n := range nombresDe(campos) {
						d.nombres[n] = true
					}
				}
			case *ast.GenDecl:
				for _, s := range dec.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						anotar(s.Name.Name)
						for _, miembro := range miembros(s.Type) {
							anotar(s.Name.Name + "." + miembro)
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							anotar(n.Name)
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
	return d
}

// tipoDe is the name of a method's receiver type: T for T, *T, T[X] and *T[X].
func tipoDe(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// miembros are the fields of a struct type and the methods of an interface type.
func miembros(e ast.Expr) []string {
	var lista *ast.FieldList
	switch x := e.(type) {
	case *ast.StructType:
		lista = x.Fields
	case *ast.InterfaceType:
		lista = x.Methods
	default:
		return nil
	}
	return nombresDe(lista)
}

// nombresDe are the names of a list of fields or parameters; an embedded field is named by its type.
func nombresDe(lista *ast.FieldList) []string {
	if lista == nil {
		return nil
	}
	var nombres []string
	for _, f := range lista.List {
		for _, n := range f.Names {
			nombres = append(nombres, n.Name)
		}
		if len(f.Names) == 0 {
			if n := tipoDe(f.Type); n != "" {
				nombres = append(nombres, n)
			} else if s, ok := f.Type.(*ast.SelectorExpr); ok {
				nombres = append(nombres, s.Sel.Name)
			}
		}
	}
	return nombres
}
