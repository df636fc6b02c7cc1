package prueba

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
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
		codigo  = regexp.MustCompile("`([^`\n]+)`")
		tabla   = regexp.MustCompile("^`([a-z]\\w*)\\.(\\w+)` \\(`([^`]+\\.go)`\\)")
		trazas  = strings.Split(seccion, "\n### ")[1:]
		nuevo   = regexp.MustCompile(`(?:^|\s)\*([\w.-]+(?:/[\w.-]+)+\.\w+)\*`)
		tablas  = 0
		parches = 0
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
		nuevos := map[string]bool{}
		for _, m := range nuevo.FindAllStringSubmatch(archivos, -1) {
			nuevos[m[1]] = true
			if _, err := os.Stat(filepath.Join(raiz, filepath.FromSlash(m[1]))); err == nil {
				t.Errorf("«%s» dice que crea «%s», que ya existe", titulo, m[1])
			}
		}
		if p := strings.TrimSpace(parrafo(traza, "*Its patch:*")); p != "" {
			parches++
			compararConSuParche(t, raiz, titulo, p, tocados, nuevos)
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
	if parches < len(cotas) {
		t.Errorf("%d cambios guardan su parche (*Its patch:*); se esperaban los %d de docs/trazas/", parches, len(cotas))
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

// cotas are how many files each change kept in docs/trazas/ may touch: what it takes to add to
// each table of the house, tests and docs included.
var cotas = map[string]int{"modo.patch": 4, "ruta.patch": 4, "comprobacion.patch": 4, "problema.patch": 3}

// compararConSuParche checks a trace's list against its patch: the same files (a folder named
// stands for those under it; a file in italics is one the patch creates), no more than its cota.
func compararConSuParche(t *testing.T, raiz, titulo, parrafo string, tocados, nuevos map[string]bool) {
	t.Helper()
	m := regexp.MustCompile("^`(docs/trazas/[\\w-]+\\.patch)`$").FindStringSubmatch(parrafo)
	if m == nil {
		t.Errorf("«%s»: «*Its patch:*» debe nombrar `docs/trazas/NOMBRE.patch`: %q", titulo, parrafo)
		return
	}
	cota, ok := cotas[filepath.Base(m[1])]
	if !ok {
		t.Errorf("«%s»: %s no tiene cota en cotas", titulo, m[1])
	}
	creados, cambiados := archivosDelParche(t, filepath.Join(raiz, filepath.FromSlash(m[1])))
	if n := len(creados) + len(cambiados); ok && n > cota {
		t.Errorf("«%s»: su parche toca %d archivos; la cota es %d", titulo, n, cota)
	}
	// bajo: the file a is d, or under the folder d.
	bajo := func(a, d string) bool { return a == d || strings.HasSuffix(d, "/") && strings.HasPrefix(a, d) }
	listados, hechos := slices.Collect(maps.Keys(tocados)), slices.Collect(maps.Keys(cambiados))
	for _, a := range hechos {
		if !slices.ContainsFunc(listados, func(d string) bool { return bajo(a, d) }) {
			t.Errorf("«%s»: su parche toca %s, que la lista no dice", titulo, a)
		}
	}
	for a := range creados {
		if !nuevos[a] {
			t.Errorf("«%s»: su parche crea %s, que la lista no dice en cursiva", titulo, a)
		}
	}
	for _, d := range listados {
		if !slices.ContainsFunc(hechos, func(a string) bool { return bajo(a, d) }) {
			t.Errorf("«%s»: la lista dice %s y su parche no lo toca", titulo, d)
		}
	}
	for a := range nuevos {
		if !creados[a] {
			t.Errorf("«%s»: la lista dice que crea %s y su parche no lo crea", titulo, a)
		}
	}
}

// archivosDelParche are the files a patch written by git diff creates and changes.
func archivosDelParche(t *testing.T, camino string) (creados, cambiados map[string]bool) {
	t.Helper()
	b, err := os.ReadFile(camino)
	if err != nil {
		t.Fatal(err)
	}
	creados, cambiados = map[string]bool{}, map[string]bool{}
	var actual string
	for _, l := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(l, "diff --git a/"):
			_, actual, _ = strings.Cut(l, " b/")
			cambiados[actual] = true
		case strings.HasPrefix(l, "new file mode") && actual != "":
			delete(cambiados, actual)
			creados[actual] = true
		}
	}
	if len(creados)+len(cambiados) == 0 {
		t.Errorf("%s no es un parche de git diff", camino)
	}
	return creados, cambiados
}

// Each change kept in docs/trazas/ is made again on a copy of the tree: it applies, the whole
// module vets (every package and test still compiles), and the tests of every package it touches
// pass, so a trace whose change needs a file more fails here the day the code moves. -trimpath
// lets the copy share the build cache with every other copy.
func TestCadaTrazaSeRehace(t *testing.T) {
	if testing.Short() {
		t.Skip("copia el árbol y rehace cada cambio trazado; se salta con -short")
	}
	git, err := exec.LookPath("git")
	if err != nil {
		if os.Getenv("CURSOHTTP_CI") != "" {
			t.Fatalf("falta git en CI: %v", err)
		}
		t.Skip("falta git (aplica los parches de docs/trazas/)")
	}
	t.Parallel()
	raiz, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	parches, err := filepath.Glob(filepath.Join(raiz, "docs", "trazas", "*.patch"))
	if err != nil || len(parches) == 0 {
		t.Fatalf("no hay parches en docs/trazas/ (%v)", err)
	}
	for _, p := range parches {
		t.Run(filepath.Base(p), func(t *testing.T) {
			copia := t.TempDir()
			copiarArbol(t, raiz, copia)
			correr(t, copia, git, "apply", p)
			correr(t, copia, "go", "vet", "-trimpath", "./...")
			creados, cambiados := archivosDelParche(t, p)
			paquetes := map[string]bool{}
			maps.Copy(cambiados, creados)
			for a := range cambiados {
				dir := filepath.Dir(filepath.FromSlash(a))
				if goes, _ := filepath.Glob(filepath.Join(copia, dir, "*.go")); len(goes) > 0 {
					paquetes["./"+filepath.ToSlash(dir)] = true
				}
			}
			if len(paquetes) == 0 {
				t.Fatal("el parche no toca ningún paquete de Go")
			}
			correr(t, copia, "go", append([]string{"test", "-trimpath", "-short", "-count=1"}, slices.Sorted(maps.Keys(paquetes))...)...)
		})
	}
}

// copiarArbol copies the module at raiz into dst, without what a build or the lab writes.
func copiarArbol(t *testing.T, raiz, dst string) {
	t.Helper()
	// What .gitignore keeps out at the top (build outputs, the lab's files), and anywhere.
	arriba := map[string]bool{"bin": true, "lab": true, "tmp": true, "dist": true, "artefactos": true, "perfiles": true,
		"revisor": true, "laboratorio": true, "pasarela": true, "alta-segura": true}
	dondeSea := map[string]bool{".git": true, "node_modules": true}
	err := filepath.WalkDir(raiz, func(camino string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(raiz, camino)
		switch {
		case rel == ".":
			return nil
		case dondeSea[d.Name()] || arriba[rel]:
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		case d.IsDir():
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		case !d.Type().IsRegular() || strings.HasSuffix(d.Name(), ".test"):
			return nil
		}
		b, err := os.ReadFile(camino)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, info.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
}

func correr(t *testing.T, dir, programa string, args ...string) {
	t.Helper()
	c := exec.Command(programa, args...)
	c.Dir = dir
	if salida, err := c.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(programa), strings.Join(args, " "), err, salida)
	}
}
