package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"cursohttp/pkg/agentemcp"
)

// inspector is the official MCP Inspector's command line (@modelcontextprotocol/inspector, pinned
// in scripts/npm with its package-lock.json; `npm ci --prefix scripts/npm` installs it). Without
// it the test says so in one line and skips, and under CURSOHTTP_CI=1 it fails instead.
func inspector(t *testing.T) string {
	t.Helper()
	bin, err := filepath.Abs(filepath.Join("..", "..", "scripts", "npm", "node_modules", ".bin", "mcp-inspector"))
	if err == nil {
		_, err = os.Stat(bin)
	}
	if err == nil {
		_, err = exec.LookPath("node")
	}
	if err != nil {
		if os.Getenv("CURSOHTTP_CI") == "1" {
			t.Fatalf("falta el inspector de MCP en CI (.ci/run lo instala con npm ci --prefix scripts/npm): %v", err)
		}
		t.Skip("falta el inspector de MCP: npm ci --prefix scripts/npm")
	}
	return bin
}

// The official Inspector, in its command-line mode, drives `revisor agente mcp` as an agent's host
// would: it lists the tools with their four annotations, calls each one, lists and reads both
// resources and lists and gets the prompt; every answer is checked.
func TestInspectorDeMCP(t *testing.T) {
	t.Parallel()
	insp := inspector(t)
	bin := compilar(t)
	base := revisorFresco(t)
	// pedir runs one Inspector command against the server and decodes what it prints.
	pedir := func(t *testing.T, metodo ...string) map[string]any {
		t.Helper()
		args := append([]string{"--cli", bin, "agente", "mcp", "--revisor", base, "--method"}, metodo...)
		cmd := exec.Command(insp, args...)
		cmd.Env = append(os.Environ(), "REVISOR_CREDENCIAL=escritura-a")
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil {
			t.Fatalf("inspector %v: %v\n%s%s", metodo, err, out.String(), errOut.String())
		}
		var v map[string]any
		if err := json.Unmarshal(out.Bytes(), &v); err != nil {
			t.Fatalf("inspector %v: %v\n%s", metodo, err, out.String())
		}
		return v
	}
	t.Run("tools/list", func(t *testing.T) {
		t.Parallel()
		herramientas := map[string]map[string]any{}
		for _, h := range pedir(t, "tools/list")["tools"].([]any) {
			h := h.(map[string]any)
			herramientas[h["name"].(string)] = h
		}
		for nombre, soloLee := range map[string]bool{agentemcp.HerramientaAlta: false, agentemcp.HerramientaLeer: true} {
			h := herramientas[nombre]
			a, _ := h["annotations"].(map[string]any)
			if a["readOnlyHint"] != soloLee || a["destructiveHint"] != false || a["idempotentHint"] != true || a["openWorldHint"] != false ||
				h["outputSchema"] == nil || h["inputSchema"] == nil {
				t.Errorf("%s: %v", nombre, h)
			}
		}
		if len(herramientas) != 2 {
			t.Errorf("herramientas: %v", herramientas)
		}
	})
	// The two calls in order: the alta registers agenda (7), and the read finds it.
	t.Run("tools/call", func(t *testing.T) {
		t.Parallel()
		alta := pedir(t, "tools/call", "--tool-name", agentemcp.HerramientaAlta, "--tool-arg", "nombre=agenda")
		if o, _ := alta["structuredContent"].(map[string]any); alta["isError"] == true || o["accion"] != "seguir" || o["ubicacion"] != "/servicios/7" {
			t.Errorf("alta: %v", alta)
		}
		leer := pedir(t, "tools/call", "--tool-name", agentemcp.HerramientaLeer, "--tool-arg", "id=7")
		o, _ := leer["structuredContent"].(map[string]any)
		if s, _ := o["servicio"].(map[string]any); leer["isError"] == true || o["estado"] != float64(200) || s["nombre_no_confiable"] != "agenda" {
			t.Errorf("leer: %v", leer)
		}
	})
	t.Run("resources", func(t *testing.T) {
		t.Parallel()
		var uris []string
		for _, r := range pedir(t, "resources/list")["resources"].([]any) {
			uris = append(uris, r.(map[string]any)["uri"].(string))
		}
		if strings.Join(uris, " ") != agentemcp.RecursoOpenAPI+" "+agentemcp.RecursoProblemas+" "+agentemcp.RecursoTabla {
			t.Errorf("recursos: %v", uris)
		}
		for uri, clave := range map[string]string{agentemcp.RecursoTabla: "codigos", agentemcp.RecursoProblemas: "problemas"} {
			contenidos, _ := pedir(t, "resources/read", "--uri", uri)["contents"].([]any)
			var v map[string]any
			if len(contenidos) != 1 || json.Unmarshal([]byte(contenidos[0].(map[string]any)["text"].(string)), &v) != nil || len(v[clave].([]any)) < 20 {
				t.Errorf("%s: %v", uri, contenidos)
			}
		}
		contenidos, _ := pedir(t, "resources/read", "--uri", agentemcp.RecursoOpenAPI)["contents"].([]any)
		var doc map[string]any
		if len(contenidos) != 1 || contenidos[0].(map[string]any)["mimeType"] != agentemcp.TipoOpenAPI ||
			json.Unmarshal([]byte(contenidos[0].(map[string]any)["text"].(string)), &doc) != nil || !strings.HasPrefix(fmt.Sprint(doc["openapi"]), "3.1") {
			t.Errorf("%s: %v", agentemcp.RecursoOpenAPI, contenidos)
		}
	})
	t.Run("prompts", func(t *testing.T) {
		t.Parallel()
		prompts, _ := pedir(t, "prompts/list")["prompts"].([]any)
		if len(prompts) != 1 || prompts[0].(map[string]any)["name"] != agentemcp.PromptAlta {
			t.Fatalf("prompts: %v", prompts)
		}
		mensajes, _ := pedir(t, "prompts/get", "--prompt-name", agentemcp.PromptAlta, "--prompt-args", "nombre=agenda")["messages"].([]any)
		if texto, _ := json.Marshal(mensajes); len(mensajes) != 1 || !strings.Contains(string(texto), `alta_de_servicio con nombre \"agenda\"`) {
			t.Errorf("prompts/get: %s", texto)
		}
	})
}
