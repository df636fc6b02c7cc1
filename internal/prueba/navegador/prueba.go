package navegador

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// What every browser test does the same way (issue 33, item 5): start Chromium or say in one line
// why not, read and wait on a page failing the test, keep a screenshot among CI's artefacts.

// EnvCI, set by .ci/run, turns the skip of a machine without Chromium into a failure: in CI the
// browser tests must run.
const EnvCI = "CURSOHTTP_CI"

// EnvArtefactos names a folder for the tests' screenshots (CI keeps it), never the repository.
const EnvArtefactos = "CURSOHTTP_ARTEFACTOS"

// Arrancar starts Chromium for t with a fresh profile, a window of ancho×alto, closed when t ends.
// With -short t is skipped (a browser is seconds of start-up). Where Chromium truly cannot start
// (not installed, or it dies before answering), t is skipped with the reason in one line, or fails
// when EnvCI is set; any other error fails t.
func Arrancar(t testing.TB, ancho, alto int) *Navegador {
	t.Helper()
	if testing.Short() {
		t.Skip("arranca Chromium; se salta con -short")
	}
	nav, err := Abrir(t.TempDir(), ancho, alto)
	if errors.Is(err, ErrSinNavegador) {
		if os.Getenv(EnvCI) != "" {
			t.Fatalf("%s está puesta y Chromium no arranca: %v", EnvCI, err)
		}
		t.Skip(strings.SplitN(err.Error(), "\n", 2)[0])
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nav.Cerrar)
	return nav
}

// Evaluar runs expresion in p and decodes its value into v (nil: none); an error fails t.
func Evaluar(ctx context.Context, t testing.TB, p *Pagina, expresion string, v any) {
	t.Helper()
	if err := p.Evaluar(ctx, expresion, v); err != nil {
		t.Fatal(err)
	}
}

// Esperar waits until expresion is true in p; if ctx ends first, t fails saying que.
func Esperar(ctx context.Context, t testing.TB, p *Pagina, expresion, que string) {
	t.Helper()
	if err := p.Esperar(ctx, expresion); err != nil {
		t.Fatalf("%s: %v", que, err)
	}
}

// Capturar keeps a screenshot of p as nombre in EnvArtefactos' folder, when it is set; a
// screenshot that cannot be taken or written is said in t's log and fails nothing.
func Capturar(ctx context.Context, t testing.TB, p *Pagina, nombre string) {
	t.Helper()
	dir := os.Getenv(EnvArtefactos)
	if dir == "" {
		return
	}
	png, err := p.Captura(ctx)
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, nombre), png, 0o644)
	}
	if err != nil {
		t.Logf("captura %s: %v", nombre, err)
	}
}

// Literal is v written as a JavaScript literal (its JSON), to put a Go value in an expression.
func Literal(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // the tests' strings, numbers and plain structs
	}
	return string(b)
}
