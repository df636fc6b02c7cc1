package documentoapi_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"cursohttp/pkg/documentoapi"
	"cursohttp/pkg/revisor"
	"cursohttp/pkg/variantes"
)

// redocly is the linter pinned in scripts/npm (npm ci --prefix scripts/npm installs it).
func redocly(t *testing.T) string {
	t.Helper()
	ruta, err := filepath.Abs(filepath.Join("..", "..", "scripts", "npm", "node_modules", ".bin", "redocly"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(ruta); err != nil {
		if os.Getenv("CURSOHTTP_CI") != "" {
			t.Fatalf("falta Redocly CLI (%s): npm ci --prefix scripts/npm", ruta)
		}
		t.Skip("sin Redocly CLI: npm ci --prefix scripts/npm lo instala")
	}
	return ruta
}

// A real OpenAPI linter from npm accepts both documents with zero errors.
func TestRedoclyAceptaElDocumento(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("Redocly tarda unos segundos por documento: corre sin -short (make unit, CI)")
	}
	linter := redocly(t)
	for nombre, doc := range map[string][]byte{"final": documentoapi.Documento(), "leccion4": revisor.Documento(variantes.Eleccion{Leccion: 4})} {
		t.Run(nombre, func(t *testing.T) {
			t.Parallel()
			archivo := filepath.Join(t.TempDir(), "revisor.json")
			if err := os.WriteFile(archivo, doc, 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(linter, "lint", "--format=json", archivo)
			// No telemetry and no update check: the tests run with the network cut.
			cmd.Env = append(os.Environ(), "REDOCLY_TELEMETRY=off", "REDOCLY_SUPPRESS_UPDATE_NOTICE=true", "NO_COLOR=1")
			var errores strings.Builder
			cmd.Stderr = &errores
			salida, err := cmd.Output()
			var informe struct {
				Problems []struct {
					RuleID   string `json:"ruleId"`
					Severity string `json:"severity"`
					Message  string `json:"message"`
					Location []struct {
						Pointer string `json:"pointer"`
					} `json:"location"`
				} `json:"problems"`
			}
			if jerr := json.Unmarshal(salida, &informe); jerr != nil {
				t.Fatalf("redocly lint: %v (%v)\n%s%s", err, jerr, salida, errores.String())
			}
			avisos := 0
			for _, p := range informe.Problems {
				if p.Severity == "error" {
					donde := ""
					if len(p.Location) > 0 {
						donde = p.Location[0].Pointer
					}
					t.Errorf("redocly: %s: %s (%s)", p.RuleID, p.Message, donde)
				} else {
					avisos++
				}
			}
			if err != nil && !t.Failed() {
				t.Errorf("redocly lint salió con %v sin errores en su informe:\n%s", err, errores.String())
			}
			t.Logf("redocly lint: 0 errores, %d avisos", avisos)
		})
	}
}

// The embedded file is what the revisor builds now from its route table and catalogue: a route,
// a status or a problem type changed without «go generate ./pkg/documentoapi» fails here, before
// the panel or the MCP server serve an old document. That the operations read back from it are the
// route table's is pkg/revisor's TestLasOperacionesDelDocumentoSonLasDeLaTabla.
func TestLosArchivosSonLosDelRevisor(t *testing.T) {
	t.Parallel()
	if !bytes.Equal(documentoapi.Documento(), revisor.Documento(variantes.Eleccion{})) {
		t.Fatal("revisor.json no es el documento que el revisor genera ahora: go generate ./pkg/documentoapi")
	}
}

// A caller that changes what it got does not change what the next one reads.
func TestCadaLlamadaDaSuCopia(t *testing.T) {
	t.Parallel()
	d := documentoapi.Documento()
	d[0] = 'x'
	ops := documentoapi.Operaciones()
	ops[0].Problemas[0] = "otro"
	if documentoapi.Documento()[0] == 'x' || documentoapi.Operaciones()[0].Problemas[0] == "otro" {
		t.Fatal("el documento embebido cambió con lo que hizo un llamador")
	}
}
