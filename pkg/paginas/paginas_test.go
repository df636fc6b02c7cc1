package paginas

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"io"
	"net/http"
	"strings"
	"testing"

	"cursohttp/internal/prueba/servidortest"
	"cursohttp/pkg/documentoapi"
	"cursohttp/pkg/problema"
)

// servir starts the documentation alone on a mux, as the panel mounts it.
func servir(t *testing.T) string {
	t.Helper()
	mux := http.NewServeMux()
	Montar(mux)
	return servidortest.Nuevo(t, mux).URL
}

func leer(t *testing.T, url string) (int, string, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(b)
}

// The documentation is the revisor's OpenAPI document, a page to read it, and a page behind every
// problem type: what the 409 llave-en-curso means, what to do, where the lesson teaches it.
func TestDocumentacionDelPanel(t *testing.T) {
	t.Parallel()
	base := servir(t)

	codigo, tipo, doc := leer(t, base+RutaOpenAPI)
	if codigo != 200 || tipo != "application/json" || !bytes.Equal([]byte(doc), documentoapi.Documento()) {
		t.Errorf("/openapi.json: %d %s, %d bytes", codigo, tipo, len(doc))
	}
	codigo, _, pagina := leer(t, base+"/problemas/llave-en-curso")
	for _, want := range []string{"409 Esa Idempotency-Key sigue en curso", "Qué pasó", "<strong>esperar</strong>",
		"¿Repetir con la misma Idempotency-Key? Sí", "HTTP/1.1 409 Conflict", "lección 6, §6.6.4 «Una misma llave, tres desenlaces»"} {
		if codigo != 200 || !strings.Contains(pagina, want) {
			t.Errorf("/problemas/llave-en-curso (%d) no dice %q:\n%s", codigo, want, pagina)
		}
	}
	_, _, indice := leer(t, base+"/problemas")
	for _, c := range problema.DelRevisor() {
		if !strings.Contains(indice, `href="/problemas/`+string(c)+`"`) {
			t.Errorf("/problemas no enlaza %s", c)
		}
		if codigo, tipo, _ := leer(t, base+"/problemas/"+string(c)); codigo != 200 || tipo != "text/html; charset=utf-8" {
			t.Errorf("/problemas/%s: %d %s", c, codigo, tipo)
		}
	}
	_, _, api := leer(t, base+RutaLeerOpenAPI)
	for _, op := range documentoapi.Operaciones() {
		if !strings.Contains(api, "<code>"+op.Metodo+" "+op.Ruta+"</code>") {
			t.Errorf("/openapi no muestra %s %s", op.Metodo, op.Ruta)
		}
	}
	if !strings.Contains(api, `<a href="/problemas/llave-en-curso">`) {
		t.Error("/openapi no enlaza las páginas de los problemas")
	}
	if codigo, _, _ := leer(t, base+"/problemas/constructor"); codigo != 404 {
		t.Errorf("/problemas/constructor: %d", codigo)
	}
}

// The documentation's pages carry the timeline page's headers (issue 34, item 5): a page of
// another site cannot frame them, and their one inline style is the only one allowed.
func TestDocumentacionConLasCabecerasDeLaPagina(t *testing.T) {
	t.Parallel()
	base := servir(t)
	for _, ruta := range []string{RutaOpenAPI, RutaLeerOpenAPI, RutaProblemas, "/problemas/llave-en-curso", "/problemas/constructor"} {
		resp, err := http.Get(base + ruta)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		h := resp.Header
		csp := h.Get("Content-Security-Policy")
		if !strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "frame-ancestors 'none'") ||
			!strings.Contains(csp, "style-src 'sha256-") || strings.Contains(csp, "unsafe-inline") {
			t.Errorf("%s: Content-Security-Policy %q", ruta, csp)
		}
		if h.Get("X-Frame-Options") != "DENY" || h.Get("X-Content-Type-Options") != "nosniff" ||
			h.Get("Cache-Control") != "no-cache" || h.Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("%s: cabeceras %v", ruta, h)
		}
	}
	// The hash is the style's as the page is served.
	_, _, pagina := leer(t, base+"/problemas")
	_, estilo, _ := strings.Cut(pagina, "<style>")
	estilo, _, _ = strings.Cut(estilo, "</style>")
	suma := sha256.Sum256([]byte(estilo))
	if !strings.Contains(politicaDocumentacion, base64.StdEncoding.EncodeToString(suma[:])) {
		t.Errorf("el hash de la política no es el del <style> servido: %s", politicaDocumentacion)
	}
}
