package prueba

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// paquetesDe lists the directories under each of raices that hold Go source (testdata and the
// pages' folders left out), as slash paths from the repository's root.
func paquetesDe(t *testing.T, raiz string, raices ...string) map[string][]string {
	t.Helper()
	paquetes := map[string][]string{} // directory → its .go files
	for _, r := range raices {
		err := filepath.WalkDir(filepath.Join(raiz, r), func(camino string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if e.IsDir() && (e.Name() == "testdata" || strings.HasPrefix(e.Name(), ".")) {
				return filepath.SkipDir
			}
			if !e.IsDir() && strings.HasSuffix(camino, ".go") {
				rel, _ := filepath.Rel(raiz, filepath.Dir(camino))
				rel = filepath.ToSlash(rel)
				paquetes[rel] = append(paquetes[rel], camino)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return paquetes
}

// docs/estructura.md is where a new maintainer looks a package up: every package under pkg/ and
// internal/ has its line there, written as its path in code font (`pkg/x/`), so a package added
// without one fails here.
func TestEstructuraNombraCadaPaquete(t *testing.T) {
	t.Parallel()
	raiz := filepath.Join("..", "..")
	texto, err := os.ReadFile(filepath.Join(raiz, "docs", "estructura.md"))
	if err != nil {
		t.Fatal(err)
	}
	nombrados := map[string]bool{}
	for _, c := range enCodigo(string(texto)) {
		nombrados[strings.TrimSuffix(c, "/")] = true
	}
	paquetes := paquetesDe(t, raiz, "pkg", "internal")
	if len(paquetes) < 60 {
		t.Fatalf("solo %d paquetes bajo pkg/ e internal/: ¿cambió la raíz?", len(paquetes))
	}
	for p := range paquetes {
		if !nombrados[p] {
			t.Errorf("docs/estructura.md no nombra el paquete `%s/`: dale su línea en la tabla de su capa", p)
		}
	}
}

// importadoresDeNodejs is who may import internal/nodejs, the code that imitates Node 20, and why:
// Node's semantics belong at the wire (what a request carries, what a response's bytes are), not in
// the structs inside. A new importer is a decision, written here with its reason.
var importadoresDeNodejs = map[string]string{
	"pkg/agentemcp":                     "the tool results carry the lesson's objects in their member order (S9, S19): nodejs.Objeto and JSON.stringify",
	"pkg/altasegura":                    "reads the revisor's answers as the course's client does (JSON.parse, Number(), fetch's cause.code)",
	"pkg/tabladecision":                 "reads a Problem Details type as the lesson's table does (String.prototype.trim, what JSON.parse gave)",
	"pkg/destinos":                      "where the revisor may connect follows Node's reading of the URL (new URL) and its IP formats",
	"pkg/hostil":                        "fig07_04's hostile service: decodeURIComponent and JSON.stringify",
	"pkg/idempotencia":                  "a key's request is compared on the body as the revisor parsed it (JSON.parse)",
	"pkg/laboratorio":                   "the bench's bodies are JSON.stringify's bytes",
	"pkg/ordenes/agente":                "prints the tool layer's objects as the lesson's console.log of JSON.stringify does",
	"pkg/ordenes/comprobar/delservidor": "the server grader sends and compares registration bodies as the revisor reads and writes them (JSON.parse, JSON.stringify)",
	"pkg/ordenes/comprobar":             "the course's checkers build URLs and read answers as fig06_03 and fig07_04 do (encodeURIComponent, fetch's cause.code)",
	"pkg/ordenes/entorno":               "what every client order shares: fetch's error codes, Response.text(), String.prototype.length",
	"pkg/ordenes/retryafter":            "Retry-After read with Number() and Date.parse, as fig04_03",
	"pkg/ordenes/revisar":               "revisar.ts's output: JSON.parse and String() as Node prints them",
	"pkg/ordenes/segundosdeespera":      "prints each value as the lesson's node -e does (JSON.stringify)",
	"pkg/ordenes/sincronizar":           "fig07_02's script reads the detail as Node does (JSON.parse, String())",
	"pkg/pasarela":                      "the gateway forwards the path and query as Node's URL normalises them",
	"pkg/problema":                      "Problem Details bodies are JSON.stringify's bytes, member order included",
	"pkg/respuesta":                     "every response body is JSON.stringify's bytes; Location paths as Node's URL writes them",
	"pkg/revisor":                       "the API's wire: body parsing and validation on JSON.parse's values, header values (latin1), URL reading",
	"pkg/sonda":                         "the probe reads the service's URL as new URL and classifies failures by fetch's cause.code",
}

// The allow-list above is enforced: a program or package outside it that imports internal/nodejs
// (tests aside: they compare with Node) fails, and so does an entry nobody needs any more.
func TestSoloLosPermitidosImportanNodejs(t *testing.T) {
	t.Parallel()
	raiz := filepath.Join("..", "..")
	conjunto := token.NewFileSet()
	importan := map[string]bool{}
	for p, archivos := range paquetesDe(t, raiz, "pkg", "internal", "cmd", "scripts") {
		if p == "internal/nodejs" || strings.HasPrefix(p, "internal/prueba") {
			continue
		}
		for _, a := range archivos {
			if strings.HasSuffix(a, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(conjunto, a, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, im := range f.Imports {
				if ruta, _ := strconv.Unquote(im.Path.Value); ruta == "cursohttp/internal/nodejs" {
					importan[p] = true
				}
			}
		}
	}
	for p := range importan {
		if _, ok := importadoresDeNodejs[p]; !ok {
			t.Errorf("%s importa internal/nodejs y no está en importadoresDeNodejs: la semántica de Node va en el borde (lo que viaja), no en los structs de dentro; si hace falta, añádelo con su razón", p)
		}
	}
	var sobran []string
	for p := range importadoresDeNodejs {
		if !importan[p] {
			sobran = append(sobran, p)
		}
	}
	slices.Sort(sobran)
	for _, p := range sobran {
		t.Errorf("%s ya no importa internal/nodejs: quítalo de importadoresDeNodejs", p)
	}
}
