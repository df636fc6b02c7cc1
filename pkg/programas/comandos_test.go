package programas

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"cursohttp/internal/prueba/leccion7"
	"cursohttp/pkg/cli"
	"cursohttp/pkg/jsonjs"
)

// fabricaDePrueba is the programs' factory writing to out and errOut, with variables as the whole
// environment.
func fabricaDePrueba(out, errOut io.Writer, variables map[string]string) *Fabrica {
	f := NuevaFabrica(out, errOut)
	f.Variable = func(nombre string) (string, bool) { v, ok := variables[nombre]; return v, ok }
	return f
}

// ejecutar runs the subcommands as the revisor binary does and returns output and exit code.
func ejecutar(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	raiz := &cobra.Command{Use: "revisor"}
	Agregar(raiz, fabricaDePrueba(&out, &errOut, nil))
	c := cli.Ejecutar(context.Background(), raiz, args, nil, &out, &errOut)
	return out.String(), errOut.String(), c
}

func TestSubcomandos(t *testing.T) {
	t.Parallel()
	lab, _ := laboratorioDePrueba(t)

	out, _, c := ejecutar(t, "tabla23", "--laboratorio", lab)
	if c != 0 {
		t.Fatalf("tabla23: código %d", c)
	}
	compararLineas(t, out, leccion7.Tabla23)

	out, _, c = ejecutar(t, "fuera-de-tabla", "--laboratorio", lab)
	if c != 0 {
		t.Fatalf("fuera-de-tabla: código %d", c)
	}
	compararLineas(t, out, leccion7.FueraDeTabla)

	out, _, c = ejecutar(t, "comprobar", "tabla", "--laboratorio", lab, "--puerto-hostil", "0")
	if c != 0 {
		t.Fatalf("comprobar tabla: código %d:\n%s", c, out)
	}
	compararLineas(t, out, salidaComprobarTabla)

	// Without a laboratory: the checks fail, and the exit code says so.
	out, _, c = ejecutar(t, "comprobar", "tabla", "--laboratorio", "http://127.0.0.1:1", "--puerto-hostil", "0")
	if c != 1 || !strings.Contains(out, "\n4 de 7 comprobaciones de la tabla pasaron\n") {
		t.Errorf("sin laboratorio: código %d:\n%s", c, out)
	}

	out, _, c = ejecutar(t, "retry-after")
	if c != 0 || !strings.HasPrefix(out, `"120"                              → 120`) {
		t.Errorf("retry-after: código %d:\n%s", c, out)
	}
}

func TestAgenteEsquema(t *testing.T) {
	t.Parallel()
	out, _, c := ejecutar(t, "agente", "--esquema")
	if c != 0 {
		t.Fatalf("código %d", c)
	}
	if !strings.HasPrefix(out, "{\n  \"$schema\": \"https://json-schema.org/draft/2020-12/schema\",\n") || !strings.HasSuffix(out, "\n}\n") {
		t.Errorf("esquema:\n%s", out)
	}
	if _, err := jsonjs.Decodificar([]byte(out)); err != nil {
		t.Fatal(err)
	}
}

func TestAyudaEnEspanol(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"tabla23", "--help"}, {"revisar", "--help"}, {"por-type", "-h"}, {"sincronizar", "--help"}, {"agente", "--help"},
		{"comprobar", "--help"}, {"comprobar", "tabla", "--help"}, {"fuera-de-tabla", "--help"}, {"ahorro", "--help"},
		{"retroceso", "--help"}, {"ventana", "--help"}, {"retry-after", "--help"},
	} {
		out, _, c := ejecutar(t, args...)
		if c != 0 || !strings.Contains(out, "Uso:") || !strings.Contains(out, "muestra esta ayuda") ||
			strings.Contains(out, "Usage:") || strings.Contains(out, "Flags:") || strings.Contains(out, "[flags]") {
			t.Errorf("%v: código %d, ayuda:\n%s", args, c, out)
		}
	}
	out, _, _ := ejecutar(t, "revisar", "--help")
	for _, bandera := range []string{"--revisor TEXTO", "dirección base del revisor (si no se dice: http://127.0.0.1:18080)",
		"--destinos TEXTO", "separados por comas (si no se dice: REVISOR_DESTINOS o 127.0.0.1:18081)"} {
		if !strings.Contains(out, bandera) {
			t.Errorf("falta %q en la ayuda de revisar:\n%s", bandera, out)
		}
	}
}

func TestArgumentosDeMas(t *testing.T) {
	t.Parallel()
	_, errOut, c := ejecutar(t, "tabla23", "sobra")
	if want := "revisor tabla23: sobra «sobra»; «revisor tabla23 --help» muestra cómo se usa\n"; c != 2 || errOut != want {
		t.Errorf("código %d, error %q", c, errOut)
	}
	_, errOut, c = ejecutar(t, "agente", "uno", "dos")
	if want := "revisor agente: sobra «dos»; «revisor agente --help» muestra cómo se usa\n"; c != 2 || errOut != want {
		t.Errorf("código %d, error %q", c, errOut)
	}
}
