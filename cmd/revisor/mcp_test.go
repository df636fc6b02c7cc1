package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"cursohttp/internal/prueba"
	"cursohttp/internal/prueba/clientemcp"
	"cursohttp/internal/prueba/servidortest"
	"cursohttp/pkg/bitacora"
	"cursohttp/pkg/revisor"
)

// These tests run `revisor agente mcp` as an agent's host does: the built binary, a subprocess
// speaking MCP over its stdin and stdout.

func compilar(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("compila el programa; se salta con -short")
	}
	bin := filepath.Join(t.TempDir(), "revisor")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// revisorFresco is a revisor just started (the next id is 7) on an ephemeral port, with a short
// simulated save.
func revisorFresco(t *testing.T) string {
	t.Helper()
	rv := revisor.Nuevo(revisor.Opciones{Guardar: 20 * time.Millisecond, EsperaCierre: 10 * time.Millisecond})
	t.Cleanup(rv.Cerrar)
	return servidortest.Nuevo(t, bitacora.Registrar(bitacora.NuevoLogger(&prueba.Buffer{}, &prueba.Buffer{}, false), rv)).URL
}

// comandoDelAgente is the command an agent's configuration declares, with the credential in its environment.
func comandoDelAgente(bin, base, credencial string) *exec.Cmd {
	cmd := exec.Command(bin, "agente", "mcp", "--revisor", base)
	cmd.Env = append(os.Environ(), "REVISOR_CREDENCIAL="+credencial)
	return cmd
}

func TestAgenteMCPBinario(t *testing.T) {
	t.Parallel()
	bin := compilar(t)
	t.Run("cliente del SDK", func(t *testing.T) { t.Parallel(); comoSubproceso(t, bin) })
	t.Run("por una tubería", func(t *testing.T) { t.Parallel(); porUnaTuberia(t, bin) })
	t.Run("líneas malas", func(t *testing.T) { t.Parallel(); lineasMalas(t, bin) })
}

// comoSubproceso: the SDK's client starts the binary, lists its tools and replays S9.
func comoSubproceso(t *testing.T, bin string) {
	base := revisorFresco(t)
	cmd := comandoDelAgente(bin, base, "")
	var errOut prueba.Buffer
	cmd.Stderr = &errOut
	s := clientemcp.Conectar(t, &mcp.CommandTransport{Command: cmd})
	if len(s.Herramientas) != 2 || s.Herramientas[clientemcp.Alta] == nil || s.Herramientas[clientemcp.Leer] == nil {
		t.Fatalf("herramientas: %v", s.Herramientas)
	}
	s.RepetirS9(t)
	if r := s.Llamar(t, clientemcp.Leer, map[string]any{"id": 7}); r.IsError || !strings.Contains(r.Texto, `"nombre_no_confiable": "agenda"`) {
		t.Errorf("leer 7:\n%s", r.Texto)
	}
	// Closing stdin stops it, cleanly, before the host would have to signal it.
	if err := s.Close(); err != nil || cmd.ProcessState.ExitCode() != 0 {
		t.Errorf("al cerrar: %v, código %d", err, cmd.ProcessState.ExitCode())
	}
	if errOut.String() != "" {
		t.Errorf("stderr: %q", errOut.String())
	}
}

// porUnaTuberia is the scene's way: a few JSON-RPC lines piped in, stdin closed at once; every
// call is answered on stdout, one message per line, and nothing else is written there.
func porUnaTuberia(t *testing.T, bin string) {
	base := revisorFresco(t)
	cmd := comandoDelAgente(bin, base, "inventada")
	cmd.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"printf","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"alta_de_servicio","arguments":{"nombre":"agenda"}}}
`)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil || errOut.Len() != 0 {
		t.Fatalf("%v, stderr %q", err, errOut.String())
	}
	lineas := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lineas) != 2 {
		t.Fatalf("%d líneas:\n%s", len(lineas), out.String())
	}
	var r struct {
		ID     int
		Result struct {
			IsError           bool
			StructuredContent map[string]any
		}
	}
	if err := json.Unmarshal([]byte(lineas[1]), &r); err != nil || r.ID != 1 || !r.Result.IsError ||
		r.Result.StructuredContent["accion"] != "reautenticar" || r.Result.StructuredContent["estado"] != float64(401) {
		t.Errorf("%v: %s", err, lineas[1])
	}
}

// lineasMalas: lines that are not JSON-RPC messages, which ended the process with code 1, each get
// their error (-32700 or -32600) and the call after them is answered; the process exits 0.
func lineasMalas(t *testing.T, bin string) {
	base := revisorFresco(t)
	cmd := comandoDelAgente(bin, base, "")
	cmd.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"printf","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
[]
null
12345
{"jsonrpc":"2.0","id":1,"method":"tools/list"} basura
{"jsonrpc":"2.0","id":{},"method":"tools/list"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"leer_servicio","arguments":{"id":1}}}
`)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil || errOut.Len() != 0 {
		t.Fatalf("%v, stderr %q", err, errOut.String())
	}
	// The errors leave as the lines are read, in their order; the calls' answers whenever they end.
	var errores, resultados []string
	for _, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		var r struct {
			ID     any
			Error  *struct{ Code int }
			Result *struct{ IsError bool }
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("%v: %q", err, l)
		}
		switch {
		case r.Error != nil:
			errores = append(errores, strconv.Itoa(r.Error.Code))
		case r.Result != nil:
			resultados = append(resultados, fmt.Sprintf("%v:%v", r.ID, r.Result.IsError))
		}
	}
	slices.Sort(resultados)
	if e, r := strings.Join(errores, " "), strings.Join(resultados, " "); e != "-32600 -32600 -32600 -32700 -32600" || r != "0:false 2:false" {
		t.Errorf("errores %s, resultados %s:\n%s", e, r, out.String())
	}
}
