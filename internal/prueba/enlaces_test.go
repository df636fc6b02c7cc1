package prueba

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCadaProgramaEnlazaLoQueDiceLaEstructura (make check): docs/estructura.md's table of what each
// program links of the others' servers is what `go list -deps` says: every package of its second
// column is linked, none of its third (scripts/estatico.sh checks the third for every build too).
func TestCadaProgramaEnlazaLoQueDiceLaEstructura(t *testing.T) {
	t.Parallel()
	raiz := filepath.Join("..", "..")
	doc, err := os.ReadFile(filepath.Join(raiz, "docs", "estructura.md"))
	if err != nil {
		t.Fatal(err)
	}
	fila := regexp.MustCompile("(?m)^\\| `cmd/([a-z-]+)/` \\|(.*)\\|(.*)\\|$")
	paquete := regexp.MustCompile("`(pkg/[a-z/]+)/`")
	cabecera := "| program | links of the other programs' servers | never links |"
	i := strings.Index(string(doc), cabecera)
	if i < 0 {
		t.Fatalf("docs/estructura.md no tiene la tabla de lo que enlaza cada programa (%q)", cabecera)
	}
	tabla, _, _ := strings.Cut(string(doc[i:]), "\n\n")
	filas := fila.FindAllStringSubmatch(tabla, -1)
	if len(filas) != 4 {
		t.Fatalf("docs/estructura.md tiene %d filas de programas en la tabla de lo que enlaza cada uno; se esperaban 4", len(filas))
	}
	for _, f := range filas {
		lista := exec.Command("go", "list", "-deps", "./cmd/"+f[1])
		lista.Dir = raiz
		out, err := lista.Output()
		if err != nil {
			t.Fatalf("go list -deps ./cmd/%s: %v", f[1], err)
		}
		enlaza := map[string]bool{}
		for _, l := range strings.Fields(string(out)) {
			enlaza[strings.TrimPrefix(l, "cursohttp/")] = true
		}
		for _, p := range paquete.FindAllStringSubmatch(f[2], -1) {
			if !enlaza[p[1]] {
				t.Errorf("docs/estructura.md dice que %s enlaza %s, y no lo enlaza", f[1], p[1])
			}
		}
		for _, p := range paquete.FindAllStringSubmatch(f[3], -1) {
			if enlaza[p[1]] {
				t.Errorf("docs/estructura.md dice que %s nunca enlaza %s, y lo enlaza", f[1], p[1])
			}
		}
	}
}
