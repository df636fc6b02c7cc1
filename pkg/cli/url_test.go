package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// Every program's address flag refuses what is not http or https, while the command line is read,
// with one sentence naming the flag and the address refused; an empty --panel stays off.
func TestOpcionURL(t *testing.T) {
	t.Parallel()
	casos := []struct {
		args          []string
		codigo        int
		stderr, quedo string
	}{
		{nil, 0, "", "uno=http://127.0.0.1:18082 varias=http://a panel="},
		{[]string{"--uno", "https://x:1/ruta"}, 0, "", "uno=https://x:1/ruta varias=http://a panel="},
		{[]string{"--varias", "http://a, https://b:2"}, 0, "", "uno=http://127.0.0.1:18082 varias=http://a, https://b:2 panel="},
		{[]string{"--panel", "http://127.0.0.1:18084", "--panel="}, 0, "", "uno=http://127.0.0.1:18082 varias=http://a panel="},
		{[]string{"--uno", "127.0.0.1:18082"}, 2, "prueba: --uno debe ser una dirección http, no «127.0.0.1:18082»\n", ""},
		{[]string{"--uno", "ftp://x"}, 2, "prueba: --uno debe ser una dirección http, no «ftp://x»\n", ""},
		{[]string{"--uno=http://"}, 2, "prueba: --uno debe ser una dirección http, no «http://»\n", ""},
		{[]string{"--uno="}, 2, "prueba: --uno debe ser una dirección http, no «»\n", ""},
		{[]string{"--uno", "http://a,http://b"}, 2, "prueba: --uno debe ser una dirección http, no «http://a,http://b»\n", ""},
		{[]string{"--varias", "http://a,x"}, 2, "prueba: --varias debe ser una dirección http, no «x»\n", ""},
		{[]string{"--panel", "x"}, 2, "prueba: --panel debe ser una dirección http, no «x»\n", ""},
	}
	for _, c := range casos {
		uno, varias, panel := "http://127.0.0.1:18082", "http://a", ""
		var quedo string
		raiz := &cobra.Command{Use: "prueba", Args: SinArgumentos, RunE: func(*cobra.Command, []string) error {
			quedo = "uno=" + uno + " varias=" + varias + " panel=" + panel
			return nil
		}}
		raiz.Flags().Var(URL{Destino: &uno}, "uno", "una dirección")
		raiz.Flags().Var(URL{Destino: &varias, Varias: true}, "varias", "varias")
		raiz.Flags().Var(URL{Destino: &panel, Vacia: true}, "panel", "vacía: ninguna")
		var out, errOut bytes.Buffer
		codigo := Ejecutar(context.Background(), raiz, c.args, nil, &out, &errOut)
		if codigo != c.codigo || errOut.String() != c.stderr || quedo != c.quedo {
			t.Errorf("%q: código %d, stderr %q, quedó %q", c.args, codigo, errOut.String(), quedo)
		}
	}
	// The help calls it a text, as any other.
	var out bytes.Buffer
	raiz := &cobra.Command{Use: "prueba", Run: func(*cobra.Command, []string) {}}
	x := "http://127.0.0.1:18082"
	raiz.Flags().Var(URL{Destino: &x}, "pasarela", "la pasarela")
	Ejecutar(context.Background(), raiz, []string{"--help"}, nil, &out, &out)
	if !strings.Contains(out.String(), "--pasarela TEXTO") || !strings.Contains(out.String(), "(si no se dice: http://127.0.0.1:18082)") {
		t.Errorf("ayuda:\n%s", out.String())
	}
}
