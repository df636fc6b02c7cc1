package programas

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"cursohttp/pkg/cli"
	"cursohttp/pkg/decision"
)

// What each command line becomes, seen through runF without running any program: the inputs a
// program gets from flags, arguments and the environment.
func TestLineasDeOrdenes(t *testing.T) {
	t.Parallel()
	// Each constructor is given a runF that writes down what it got instead of running.
	type anotar = func(string)
	bases := func(e Entorno) string { return fmt.Sprintf("revisor=%q laboratorio=%q", e.Revisor, e.Laboratorio) }
	soloEntorno := func(nuevo func(*Fabrica, func(context.Context, Entorno) int) *cobra.Command) func(*Fabrica, anotar) *cobra.Command {
		return func(f *Fabrica, a anotar) *cobra.Command {
			return nuevo(f, func(_ context.Context, e Entorno) int { a(bases(e)); return 0 })
		}
	}
	revisar := func(f *Fabrica, a anotar) *cobra.Command {
		return nuevoCmdRevisar(f, func(_ context.Context, e Entorno, credencial string, permitidos []string) int {
			a(fmt.Sprintf("%s credencial=%s permitidos=%q nil=%v", bases(e), credencial, permitidos, permitidos == nil))
			return 0
		})
	}
	agente := func(f *Fabrica, a anotar) *cobra.Command {
		return nuevoCmdAgente(f, func(_ context.Context, e Entorno, nombre *string) int {
			if nombre == nil {
				a(bases(e) + " sin nombre")
			} else {
				a(fmt.Sprintf("%s nombre=%q", bases(e), *nombre))
			}
			return 3 // a program's own exit code comes back as the command's
		})
	}
	mcp := func(f *Fabrica, a anotar) *cobra.Command {
		return nuevoCmdAgenteMCP(f, func(_ context.Context, e Entorno, credencial string, entrada io.Reader) int {
			a(fmt.Sprintf("%s credencial=%s %v", bases(e), credencial, entrada != nil))
			return 0
		})
	}
	ventana := func(f *Fabrica, a anotar) *cobra.Command {
		return nuevoCmdVentana(f, func(_ context.Context, _ Entorno, algoritmo string) int { a("algoritmo=" + algoritmo); return 0 })
	}
	tabla := func(f *Fabrica, a anotar) *cobra.Command {
		return nuevoCmdComprobarTabla(f, func(_ context.Context, e Entorno, tabla decision.Tabla, direccion string, hostil http.Handler) int {
			a(fmt.Sprintf("%s %+v hostil=%s %v", bases(e), tabla, direccion, hostil != nil))
			return 0
		})
	}
	idempotencia := func(f *Fabrica, a anotar) *cobra.Command {
		return nuevoCmdComprobarIdempotencia(f, func(_ context.Context, base string, out io.Writer) int {
			a(fmt.Sprintf("base=%q %v", base, out != nil))
			return 0
		})
	}
	rafaga := func(f *Fabrica, a anotar) *cobra.Command {
		return nuevoCmdRafaga(f, func(_ context.Context, e Entorno, o OpcionesRafaga) int {
			a(fmt.Sprintf("%s %+v", bases(e), o))
			return 0
		})
	}
	casos := []struct {
		construir func(*Fabrica, anotar) *cobra.Command
		linea     string
		variables map[string]string
		codigo    int
		anotado   string // "" when runF must not be called
		stderr    string
	}{
		{soloEntorno(nuevoCmdTabla23), "", nil, 0, `revisor="" laboratorio="http://127.0.0.1:18081"`, ""},
		{soloEntorno(nuevoCmdTabla23), "--laboratorio http://127.0.0.1:28081//", nil, 0, `revisor="" laboratorio="http://127.0.0.1:28081"`, ""},
		{soloEntorno(nuevoCmdFueraDeTabla), "--laboratorio http://x", nil, 0, `revisor="" laboratorio="http://x"`, ""},
		{soloEntorno(nuevoCmdAhorro), "", nil, 0, `revisor="" laboratorio="http://127.0.0.1:18081"`, ""},
		{soloEntorno(nuevoCmdPorType), "--revisor http://r/", nil, 0, `revisor="http://r" laboratorio="http://127.0.0.1:18081"`, ""},
		{soloEntorno(nuevoCmdSincronizar), "--laboratorio http://l", nil, 0, `revisor="http://127.0.0.1:18080" laboratorio="http://l"`, ""},
		{soloEntorno(nuevoCmdRetroceso), "", nil, 0, `revisor="" laboratorio=""`, ""},
		{soloEntorno(nuevoCmdRetryAfter), "", nil, 0, `revisor="" laboratorio=""`, ""},
		{ventana, "", nil, 0, "algoritmo=ventana", ""},
		{ventana, "--algoritmo cubeta", nil, 0, "algoritmo=cubeta", ""},
		{agente, "", nil, 3, `revisor="http://127.0.0.1:18080" laboratorio="http://127.0.0.1:18081" sin nombre`, ""},
		{agente, "ñandú --revisor http://r", nil, 3, `revisor="http://r" laboratorio="http://127.0.0.1:18081" nombre="ñandú"`, ""},
		// `agente mcp` is the MCP server; a service called mcp is registered after --.
		{agente, "-- mcp", nil, 3, `revisor="http://127.0.0.1:18080" laboratorio="http://127.0.0.1:18081" nombre="mcp"`, ""},
		// The tool's credential comes from the environment, never from the model (nor from a flag).
		{mcp, "", nil, 0, `revisor="http://127.0.0.1:18080" laboratorio="http://127.0.0.1:18081" credencial=escritura-a true`, ""},
		{mcp, "--revisor http://r/ --laboratorio http://l/", map[string]string{"REVISOR_CREDENCIAL": "escritura-b"}, 0,
			`revisor="http://r" laboratorio="http://l" credencial=escritura-b true`, ""},
		{mcp, "", map[string]string{"REVISOR_CREDENCIAL": ""}, 0, `revisor="http://127.0.0.1:18080" laboratorio="http://127.0.0.1:18081" credencial=escritura-a true`, ""},
		{mcp, "", map[string]string{"REVISOR_CREDENCIAL": "mi credencial"}, cli.SalidaUso, "",
			"mcp: REVISOR_CREDENCIAL no puede llevar espacios, caracteres de control ni fuera de ASCII\n"},
		{mcp, "agenda", nil, cli.SalidaUso, "", "mcp: sobra «agenda»; «mcp --help» muestra cómo se usa\n"},
		{revisar, "", nil, 0, `revisor="http://127.0.0.1:18080" laboratorio="" credencial=lectura-a permitidos=[] nil=true`, ""},
		{revisar, "inventada", map[string]string{"REVISOR_DESTINOS": "10.0.0.1:80, [::1]:81"}, 0,
			`revisor="http://127.0.0.1:18080" laboratorio="" credencial=inventada permitidos=["10.0.0.1:80" "[::1]:81"] nil=false`, ""},
		{revisar, "--destinos 127.0.0.1:9", map[string]string{"REVISOR_DESTINOS": "10.0.0.1:80"}, 0,
			`revisor="http://127.0.0.1:18080" laboratorio="" credencial=lectura-a permitidos=["127.0.0.1:9"] nil=false`, ""},
		// REVISOR_DESTINOS is read once, and checked as the server checks it.
		{revisar, "", map[string]string{"REVISOR_DESTINOS": "laboratorio:18081"}, cli.SalidaUso, "",
			"revisar: destinos permitidos que no son ip:puerto: «laboratorio:18081»\n"},
		{revisar, "--destinos 10.0.0.1", nil, cli.SalidaUso, "", "revisar: destinos permitidos que no son ip:puerto: «10.0.0.1»\n"},
		{tabla, "", nil, 0, `revisor="" laboratorio="http://127.0.0.1:18081" {Con413:false SinHasOwn:false} hostil=127.0.0.1:18083 true`, ""},
		{tabla, "--puerto-hostil 0", nil, 0, `revisor="" laboratorio="http://127.0.0.1:18081" {Con413:false SinHasOwn:false} hostil=127.0.0.1:0 true`, ""},
		{tabla, "--defecto sin-hasown", map[string]string{"CURSO_LECCION": "4"}, 0,
			`revisor="" laboratorio="http://127.0.0.1:18081" {Con413:false SinHasOwn:true} hostil=127.0.0.1:18083 true`, avisoSinHasOwn + "\n"},
		{tabla, "--defecto lee-la-frase", nil, cli.SalidaUso, "",
			"tabla: --defecto: «revisor comprobar tabla» no tiene la versión rota «lee-la-frase»; las que hay: sin-hasown\n"},
		{idempotencia, "", nil, 0, `base="http://127.0.0.1:18080" true`, ""},
		{idempotencia, "--revisor http://r/", nil, 0, `base="http://r" true`, ""},
		{idempotencia, "http://base/ --revisor http://r", nil, 0, `base="http://base/" true`, ""},
		{rafaga, "", nil, 0, `revisor="http://127.0.0.1:18080" laboratorio="" {N:0 SinRitmo:{Credencial:escritura-b Servicio:3} ConRitmo:{Credencial:escritura-a Servicio:1} Tope:1m5s}`, ""},
		{rafaga, "4 --sin-ritmo admin:2 --tope 5s", nil, 0, `revisor="http://127.0.0.1:18080" laboratorio="" {N:4 SinRitmo:{Credencial:admin Servicio:2} ConRitmo:{Credencial:escritura-a Servicio:1} Tope:5s}`, ""},
		{rafaga, "-3", nil, cli.SalidaUso, "", "rafaga: no existe la opción -3; «rafaga --help» muestra las opciones\n"},
		{rafaga, "x", nil, cli.SalidaUso, "", "rafaga: N debe ser un entero positivo, no «x»\n"},
	}
	for _, c := range casos {
		var out, errOut bytes.Buffer
		var anotado []string
		cmd := c.construir(fabricaDePrueba(&out, &errOut, c.variables), func(s string) { anotado = append(anotado, s) })
		codigo := cli.Ejecutar(context.Background(), cmd, strings.Fields(c.linea), nil, &out, &errOut)
		nombre := cmd.Name() + " " + c.linea
		if codigo != c.codigo || errOut.String() != c.stderr || out.Len() != 0 {
			t.Errorf("%s: código %d, stdout %q, stderr %q; se esperaba %d y %q", nombre, codigo, out.String(), errOut.String(), c.codigo, c.stderr)
		}
		if got := strings.Join(anotado, " | "); got != c.anotado || len(anotado) > 1 {
			t.Errorf("%s: el programa recibió %q; se esperaba %q", nombre, anotado, c.anotado)
		}
	}
}

// --esquema prints the schema and does not run the program.
func TestAgenteEsquemaNoCorreElPrograma(t *testing.T) {
	t.Parallel()
	var out, errOut bytes.Buffer
	corrio := false
	cmd := nuevoCmdAgente(fabricaDePrueba(&out, &errOut, nil), func(context.Context, Entorno, *string) int { corrio = true; return 0 })
	if codigo := cli.Ejecutar(context.Background(), cmd, []string{"--esquema"}, nil, &out, &errOut); codigo != 0 || corrio ||
		!strings.HasPrefix(out.String(), "{\n  \"$schema\"") {
		t.Errorf("código %d, corrió %v, salida %q", codigo, corrio, out.String())
	}
}
