// Package clientemcp drives `revisor agente mcp` with the official SDK's client, as an agent's host
// would, and checks what every tool result must be: one text block, the same object as
// structuredContent, valid against the output schema the server declared, and isError unless the
// table says seguir. The in-process tests (pkg/agentemcp) and the subprocess ones (cmd/revisor)
// share it. Only tests import it.
package clientemcp

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"cursohttp/internal/prueba/leccion7"
)

// The server's tools, by name.
const (
	Alta = "alta_de_servicio"
	Leer = "leer_servicio"
)

// URLLaboratorio200 is the url S9 registers every valid name with.
const URLLaboratorio200 = "http://127.0.0.1:18081/codigo/200"

// Sesion is a client connected to the server, with the tools it listed and their resolved output
// schemas.
type Sesion struct {
	*mcp.ClientSession
	Herramientas map[string]*mcp.Tool
	salidas      map[string]*jsonschema.Resolved
}

// Conectar connects the SDK's client over t, lists the tools and resolves every output schema;
// the session is closed when the test ends.
func Conectar(tb testing.TB, t mcp.Transport) *Sesion {
	tb.Helper()
	ctx, cancelar := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancelar()
	cliente := mcp.NewClient(&mcp.Implementation{Name: "prueba", Version: "1.0.0"}, nil)
	cs, err := cliente.Connect(ctx, t, nil)
	if err != nil {
		tb.Fatalf("conectar: %v", err)
	}
	tb.Cleanup(func() { cs.Close() })
	s := &Sesion{ClientSession: cs, Herramientas: map[string]*mcp.Tool{}, salidas: map[string]*jsonschema.Resolved{}}
	for h, err := range cs.Tools(ctx, nil) {
		if err != nil {
			tb.Fatalf("tools/list: %v", err)
		}
		s.Herramientas[h.Name] = h
		if h.OutputSchema == nil {
			continue
		}
		var esquema jsonschema.Schema
		datos, _ := json.Marshal(h.OutputSchema)
		if err := json.Unmarshal(datos, &esquema); err != nil {
			tb.Fatalf("%s: el esquema de salida no se lee: %v", h.Name, err)
		}
		r, err := esquema.Resolve(nil)
		if err != nil {
			tb.Fatalf("%s: el esquema de salida no se resuelve: %v", h.Name, err)
		}
		s.salidas[h.Name] = r
	}
	return s
}

// Resultado is a checked tool result: its text block as sent, and the decoded object (nil for an
// error without structured content).
type Resultado struct {
	*mcp.CallToolResult
	Texto  string
	Objeto map[string]any
}

// Llamar calls the tool and checks the result: exactly one text block; when there is structured
// content, it validates against the declared output schema, the text is the same object (so a
// model that reads only the text reads the same fields), and isError is set exactly when accion
// is not seguir; without it, the result must be an error.
func (s *Sesion) Llamar(tb testing.TB, herramienta string, args map[string]any) Resultado {
	tb.Helper()
	ctx, cancelar := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancelar()
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: herramienta, Arguments: args})
	if err != nil {
		tb.Fatalf("%s %v: %v", herramienta, args, err)
	}
	if len(res.Content) != 1 {
		tb.Fatalf("%s %v: %d bloques de contenido, se esperaba 1", herramienta, args, len(res.Content))
	}
	texto, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		tb.Fatalf("%s %v: el contenido es %T, no texto", herramienta, args, res.Content[0])
	}
	r := Resultado{CallToolResult: res, Texto: texto.Text}
	if res.StructuredContent == nil {
		if !res.IsError {
			tb.Errorf("%s %v: sin structuredContent y sin isError: %q", herramienta, args, texto.Text)
		}
		return r
	}
	objeto, ok := res.StructuredContent.(map[string]any)
	if !ok {
		tb.Fatalf("%s %v: structuredContent es %T", herramienta, args, res.StructuredContent)
	}
	r.Objeto = objeto
	esquema := s.salidas[herramienta]
	if esquema == nil {
		tb.Fatalf("%s: devuelve structuredContent sin haber declarado un esquema de salida", herramienta)
	}
	if err := esquema.Validate(objeto); err != nil {
		tb.Errorf("%s %v: el resultado no cumple su esquema: %v\n%s", herramienta, args, err, texto.Text)
	}
	var delTexto map[string]any
	if err := json.Unmarshal([]byte(texto.Text), &delTexto); err != nil || !reflect.DeepEqual(delTexto, objeto) {
		tb.Errorf("%s %v: el texto no es el mismo objeto que structuredContent (%v):\n%s", herramienta, args, err, texto.Text)
	}
	if seguir := objeto["accion"] == "seguir"; res.IsError == seguir {
		tb.Errorf("%s %v: isError %v con accion %v", herramienta, args, res.IsError, objeto["accion"])
	}
	return r
}

// RepetirS9 makes fig07_03.ts's five altas through the tool, in order, and checks each object
// against the lesson's, field by field and in the course's key order: the text block is the
// object exactly as `revisor agente` prints it. The hostile name appears in no field but
// texto_no_confiable. It returns the results.
func (s *Sesion) RepetirS9(tb testing.TB) []Resultado {
	tb.Helper()
	var resultados []Resultado
	for i, alta := range leccion7.Altas(leccion7.Agente) {
		url := URLLaboratorio200
		if alta.Nombre == "" {
			url = "ftp://cuentas"
		}
		r := s.Llamar(tb, Alta, map[string]any{"nombre": alta.Nombre, "url": url})
		if r.Texto != alta.Objeto {
			tb.Errorf("alta %d («%s»):\n obtenido:\n%s\n en la lección:\n%s", i+1, alta.Nombre, r.Texto, alta.Objeto)
		}
		var esperado map[string]any
		if err := json.Unmarshal([]byte(alta.Objeto), &esperado); err != nil {
			tb.Fatal(err)
		}
		if !reflect.DeepEqual(r.Objeto, esperado) {
			tb.Errorf("alta %d («%s»): structuredContent %v, en la lección %v", i+1, alta.Nombre, r.Objeto, esperado)
		}
		for _, campo := range CamposCon(r.Objeto, leccion7.NombreHostil) {
			if campo != "texto_no_confiable" {
				tb.Errorf("alta %d: el nombre hostil aparece en %q", i+1, campo)
			}
		}
		resultados = append(resultados, r)
	}
	return resultados
}

// CamposCon names every member of o, at any depth, whose string value contains texto.
func CamposCon(o map[string]any, texto string) []string {
	var campos []string
	var recorrer func(ruta string, v any)
	recorrer = func(ruta string, v any) {
		switch x := v.(type) {
		case string:
			if strings.Contains(x, texto) {
				campos = append(campos, ruta)
			}
		case map[string]any:
			for k, w := range x {
				if ruta != "" {
					k = ruta + "." + k
				}
				recorrer(k, w)
			}
		case []any:
			for _, w := range x {
				recorrer(ruta+"[]", w)
			}
		}
	}
	recorrer("", o)
	return campos
}
