package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"cursohttp/pkg/fallas"
	"cursohttp/pkg/variantes"
)

// completar runs the hidden hook the shells' scripts call, on a program shaped like the revisor:
// the variant flags on the root and on «servir», and a --simular.
func completar(t *testing.T, args ...string) string {
	t.Helper()
	raiz := &cobra.Command{Use: "revisor", RunE: func(*cobra.Command, []string) error { return nil }}
	variantes.Declarar(raiz.Flags(), variantes.Revisor)
	servir := &cobra.Command{Use: "servir", RunE: func(*cobra.Command, []string) error { return nil }}
	variantes.Declarar(servir.Flags(), variantes.Revisor)
	servir.Flags().String("simular", "", "un modo")
	raiz.AddCommand(servir)
	var out bytes.Buffer
	if codigo := Ejecutar(context.Background(), raiz, append([]string{cobra.ShellCompRequestCmd}, args...), nil, &out, &out); codigo != 0 {
		t.Fatalf("__complete %q: %d\n%s", args, codigo, out.String())
	}
	return out.String()
}

// Tab after a variant flag offers its values with their lesson and section, and no file names
// (:4 is cobra's «no files»); --ejercicio keeps to the --leccion on the line.
func TestCompletarValoresDeVariantes(t *testing.T) {
	t.Parallel()
	casos := []struct {
		args []string
		want string
	}{
		{[]string{"--defecto", ""}, "pila\tlección 4, §4.7, la pila que viaja, serie I\nsin-pasarela\tlección 4, §4.7, todo es 500, serie J\n" +
			"sin-huella\tlección 6, la huella que nadie compara, serie L\nllaves-en-memoria\tlección 6, §6.7.4, el reinicio que olvida las llaves\n:4\n"},
		{[]string{"--defecto", "p"}, "pila\tlección 4, §4.7, la pila que viaja, serie I\n:4\n"},
		{[]string{"--leccion", "4", "--ejercicio", ""}, "3\tlección 4, ejercicio 3, serie M\n:4\n"},
		{[]string{"--leccion", "7", "--ejercicio", ""}, "3\tlección 7, ejercicio 3, S18\n:4\n"},
		{[]string{"--ejercicio", ""}, "3\tlección 4, ejercicio 3, serie M · lección 7, ejercicio 3, S18 (di cuál con --leccion)\n:4\n"},
		{[]string{"servir", "--defecto", "sin-h"}, "sin-huella\tlección 6, la huella que nadie compara, serie L\n:4\n"},
	}
	for _, c := range casos {
		if got := completar(t, c.args...); got != c.want {
			t.Errorf("__complete %q:\n%s\nse esperaba:\n%s", c.args, got, c.want)
		}
	}
	got := completar(t, "--leccion", "")
	for _, l := range []string{"4\tlección 4 (fig04_01): ", "6\tlecciones 6 y 7 (fig06_01, fig07_01): ", "7\tlecciones 6 y 7 "} {
		if !strings.Contains(got, "\n"+l) && !strings.HasPrefix(got, l) {
			t.Errorf("__complete --leccion no ofrece %q:\n%s", l, got)
		}
	}
}

// Tab after --simular offers the gateway's modes.
func TestCompletarModosDeLaPasarela(t *testing.T) {
	t.Parallel()
	got := completar(t, "servir", "--simular", "")
	if n := strings.Count(got, "\n"); n != len(fallas.Modos)+1 || !strings.HasPrefix(got, "perder-primera\tlección 6, §6.5: ") || !strings.HasSuffix(got, ":4\n") {
		t.Errorf("__complete --simular:\n%s", got)
	}
}
