package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"cursohttp/internal/prueba"

	"github.com/spf13/cobra"
)

// arbol is a small program with every shape the suite has: a root that runs, a subcommand with
// words, a group of orders and a flag of its own type.
func arbol() *cobra.Command {
	var puerto int
	raiz := &cobra.Command{
		Use:   "prueba",
		Short: "un programa de prueba",
		Long:  "Un programa de prueba.",
		RunE: func(c *cobra.Command, _ []string) error {
			if err := ValidarPuerto(c, "--puerto", puerto); err != nil {
				return err
			}
			fmt.Fprintln(c.OutOrStdout(), "corrió")
			return nil
		},
	}
	raiz.Flags().IntVar(&puerto, "puerto", 18081, "puerto en el que escucha")
	raiz.Flags().String("nombre", "", "un nombre")
	raiz.Flags().Bool("json", false, "en JSON")
	raiz.Flags().Duration("espera", 5*time.Second, "cuánto espera")
	raiz.Flags().Var(&propio{}, "propio", "un valor propio")
	uno := &cobra.Command{
		Use:     "uno <palabra>",
		Short:   "lleva una palabra",
		Example: "  prueba uno hola",
		Args:    HastaArgumentos(1),
		RunE: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return UsoMal("uso: prueba uno <palabra>")
			}
			if args[0] == "falla" {
				return errors.New("prueba uno: falló")
			}
			if args[0] == "tres" {
				return Salir(3)
			}
			return nil
		},
	}
	grupo := &cobra.Command{Use: "grupo", Short: "reúne órdenes"}
	grupo.AddCommand(&cobra.Command{Use: "hoja", Short: "una hoja", Run: func(*cobra.Command, []string) {}})
	raiz.AddCommand(uno, grupo)
	return raiz
}

// propio is a flag of the program's own type, whose Set explains the error in Spanish.
type propio struct{ s string }

func (p *propio) String() string { return p.s }
func (p *propio) Type() string   { return "propio" }
func (p *propio) Set(s string) error {
	if s != "bien" {
		return errors.New("se espera «bien»")
	}
	p.s = s
	return nil
}

func ejecutar(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	codigo := Ejecutar(context.Background(), arbol(), args, nil, &out, &errOut)
	return codigo, out.String(), errOut.String()
}

func TestErroresDeUso(t *testing.T) {
	t.Parallel()
	casos := []struct {
		args   []string
		codigo int
		stderr string
	}{
		{[]string{"--x"}, 2, "prueba: no existe la opción --x; «prueba --help» muestra las opciones\n"},
		// A typo of a long flag gets the closest ones, as an order's does (issue 42).
		{[]string{"--puero", "1"}, 2, "prueba: no existe la opción --puero; ¿querías decir --puerto? «prueba --help» muestra las opciones\n"},
		{[]string{"--esp"}, 2, "prueba: no existe la opción --esp; ¿querías decir --espera? «prueba --help» muestra las opciones\n"},
		{[]string{"--jsno=true"}, 2, "prueba: no existe la opción --jsno; ¿querías decir --json? «prueba --help» muestra las opciones\n"},
		{[]string{"-x"}, 2, "prueba: no existe la opción -x; «prueba --help» muestra las opciones\n"},
		{[]string{"--puerto"}, 2, "prueba: la opción --puerto necesita un valor; «prueba --help» muestra las opciones\n"},
		{[]string{"--puerto", "abc"}, 2, "prueba: la opción --puerto espera un número entero, no «abc»; «prueba --help» muestra las opciones\n"},
		{[]string{"--json=tal"}, 2, "prueba: la opción --json espera true o false, no «tal»; «prueba --help» muestra las opciones\n"},
		{[]string{"--espera", "5"}, 2, "prueba: la opción --espera espera una duración (como 90s o 1m30s), no «5»; «prueba --help» muestra las opciones\n"},
		{[]string{"--propio", "mal"}, 2, "prueba: la opción --propio no acepta «mal»: se espera «bien»; «prueba --help» muestra las opciones\n"},
		{[]string{"--="}, 2, "prueba: la opción «--=» está mal escrita; «prueba --help» muestra las opciones\n"},
		{[]string{"--puerto", "70000"}, 2, "prueba: --puerto va de 0 a 65535 (0: uno libre), no 70000\n"},
		{[]string{"--puerto=-1"}, 2, "prueba: --puerto va de 0 a 65535 (0: uno libre), no -1\n"},
		{[]string{"otra"}, 2, "prueba: sobra «otra»; «prueba --help» muestra cómo se usa\n"},
		{[]string{"help"}, 2, "prueba: sobra «help»; «prueba --help» muestra cómo se usa\n"},
		{[]string{"help", "uno", "--x"}, 2, "prueba: sobra «help»; «prueba --help» muestra cómo se usa\n"},
		{[]string{"uno"}, 2, "uso: prueba uno <palabra>\n"},
		{[]string{"uno", "a", "b"}, 2, "prueba uno: sobra «b»; «prueba uno --help» muestra cómo se usa\n"},
		{[]string{"uno", "--x"}, 2, "prueba uno: no existe la opción --x; «prueba uno --help» muestra las opciones\n"},
		{[]string{"grupo", "rama"}, 2, "prueba grupo: no existe la orden «rama»; «prueba grupo --help» muestra las órdenes\n"},
		// A typo of an order gets the closest ones, in Spanish.
		{[]string{"un"}, 2, "prueba: no existe la orden «un»; ¿querías decir «uno»? «prueba --help» muestra las órdenes\n"},
		{[]string{"grup"}, 2, "prueba: no existe la orden «grup»; ¿querías decir «grupo»? «prueba --help» muestra las órdenes\n"},
		{[]string{"grupo", "hija"}, 2, "prueba grupo: no existe la orden «hija»; ¿querías decir «hoja»? «prueba grupo --help» muestra las órdenes\n"},
		{[]string{"grupo", "hoja", "de-mas"}, 2, "prueba grupo hoja: sobra «de-mas»; «prueba grupo hoja --help» muestra cómo se usa\n"},
		{[]string{"uno", "falla"}, 1, "prueba uno: falló\n"},
		{[]string{"uno", "tres"}, 3, ""},
	}
	for _, c := range casos {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			t.Parallel()
			codigo, out, errOut := ejecutar(c.args...)
			if codigo != c.codigo || out != "" || errOut != c.stderr {
				t.Errorf("salida %d, stdout %q, stderr %q; se esperaba %d y %q", codigo, out, errOut, c.codigo, c.stderr)
			}
		})
	}
}

func TestAyuda(t *testing.T) {
	t.Parallel()
	casos := []struct {
		args []string
		want string
	}{
		{[]string{"--help"}, `Un programa de prueba.

Uso:
  prueba [opciones]
  prueba <orden> [opciones]

Órdenes:
  grupo     reúne órdenes
  uno       lleva una palabra

Opciones:
      --espera DURACIÓN  cuánto espera (si no se dice: 5s)
  -h, --help             muestra esta ayuda
      --json             en JSON
      --nombre TEXTO     un nombre
      --propio TEXTO     un valor propio
      --puerto NÚMERO    puerto en el que escucha (si no se dice: 18081)
      --version          muestra la versión y sale

«prueba <orden> --help» explica cada orden.
`},
		{[]string{"uno", "-h"}, `lleva una palabra

Uso:
  prueba uno <palabra> [opciones]

Ejemplos:
  prueba uno hola

Opciones:
  -h, --help  muestra esta ayuda
`},
		// A group alone shows its help, as --help does.
		{[]string{"grupo"}, `reúne órdenes

Uso:
  prueba grupo <orden> [opciones]

Órdenes:
  hoja      una hoja

Opciones:
  -h, --help  muestra esta ayuda

«prueba grupo <orden> --help» explica cada orden.
`},
	}
	for _, c := range casos {
		codigo, out, errOut := ejecutar(c.args...)
		if codigo != 0 || errOut != "" || out != c.want {
			t.Errorf("%v: salida %d, stderr %q, ayuda:\n%s\nse esperaba:\n%s", c.args, codigo, errOut, out, c.want)
		}
	}
	if codigo, out, _ := ejecutar("grupo", "--help"); codigo != 0 || !strings.HasPrefix(out, "reúne órdenes\n\nUso:\n  prueba grupo <orden>") {
		t.Errorf("grupo --help: %d\n%s", codigo, out)
	}
}

func TestCorreYPrepararDosVeces(t *testing.T) {
	t.Parallel()
	raiz := arbol()
	Preparar(raiz)
	Preparar(raiz)
	var out, errOut bytes.Buffer
	if codigo := Ejecutar(context.Background(), raiz, nil, nil, &out, &errOut); codigo != 0 || out.String() != "corrió\n" || errOut.Len() != 0 {
		t.Errorf("salida %d, stdout %q, stderr %q", codigo, out.String(), errOut.String())
	}
}

func TestRutas(t *testing.T) {
	t.Parallel()
	want := [][]string{{}, {"grupo"}, {"grupo", "hoja"}, {"uno"}}
	if got := prueba.Rutas(arbol()); !reflect.DeepEqual(got, want) {
		t.Errorf("%q, se esperaba %q", got, want)
	}
}

// TestTodoElArbolEnEspanol: every command's help, reached by its path, is Spanish.
func TestTodoElArbolEnEspanol(t *testing.T) {
	t.Parallel()
	for _, ruta := range prueba.Rutas(arbol()) {
		for _, bandera := range []string{"--help", "-h"} {
			codigo, out, errOut := ejecutar(append(ruta, bandera)...)
			if codigo != 0 || errOut != "" || !strings.Contains(out, "Uso:\n") || !strings.Contains(out, "muestra esta ayuda") {
				t.Errorf("%v %s: salida %d, stderr %q, ayuda:\n%s", ruta, bandera, codigo, errOut, out)
			}
			if s := prueba.EnIngles(out); s != "" {
				t.Errorf("%v %s: la ayuda dice %q:\n%s", ruta, bandera, s, out)
			}
		}
	}
	// What the check looks for: cobra's own help of the same tree.
	var out bytes.Buffer
	raiz := arbol()
	raiz.SetArgs([]string{"--help"})
	raiz.SetOut(&out)
	if err := raiz.Execute(); err != nil || prueba.EnIngles(out.String()) == "" {
		t.Errorf("EnIngles no ve la ayuda de cobra (%v):\n%s", err, out.String())
	}
}

// --version answers on stdout with the program's name, the same version every program prints.
func TestVersion(t *testing.T) {
	t.Parallel()
	codigo, out, errOut := ejecutar("--version")
	if codigo != 0 || errOut != "" || out != "prueba "+Version()+"\n" || Version() == "" {
		t.Errorf("--version: %d %q %q", codigo, out, errOut)
	}
}

// completion writes each shell's script, and the hidden hook the scripts call answers with the
// orders and flags and their Spanish descriptions, without the hidden «help» nor «completion».
func TestCompletar(t *testing.T) {
	t.Parallel()
	for shell, marca := range map[string]string{
		"bash": "complete -o default -F __start_prueba prueba", "zsh": "#compdef prueba",
		"fish": "complete -c prueba", "powershell": "Register-ArgumentCompleter",
	} {
		codigo, out, errOut := ejecutar("completion", shell)
		if codigo != 0 || errOut != "" || !strings.Contains(out, marca) {
			t.Errorf("completion %s: %d, stderr %q, sin %q", shell, codigo, errOut, marca)
		}
	}
	codigo, out, errOut := ejecutar("__complete", "")
	if want := "grupo\treúne órdenes\nuno\tlleva una palabra\n:4\n"; codigo != 0 || out != want || errOut != "" {
		t.Errorf("__complete: %d %q %q; se esperaba %q", codigo, out, errOut, want)
	}
	codigo, out, _ = ejecutar("__complete", "--p")
	if want := "--propio\tun valor propio\n--puerto\tpuerto en el que escucha\n:4\n"; codigo != 0 || out != want {
		t.Errorf("__complete --p: %d %q; se esperaba %q", codigo, out, want)
	}
	// completion is there, but not in the help: the course's help pages read the same.
	_, ayuda, _ := ejecutar("--help")
	if strings.Contains(ayuda, "completion") {
		t.Errorf("la ayuda muestra completion:\n%s", ayuda)
	}
	if codigo, _, errOut := ejecutar("completion", "tcsh"); codigo != 2 || !strings.Contains(errOut, "no existe la orden «tcsh»") {
		t.Errorf("completion tcsh: %d %q", codigo, errOut)
	}
}

func TestParecidas(t *testing.T) {
	t.Parallel()
	candidatas := []string{"llave-en-curso", "llave-reutilizada", "nombre-repetido", "puerto", "puertos-libres"}
	for palabra, quiere := range map[string]string{
		"llave-en-cursoo": "llave-en-curso",
		"LLAVE-EN-CURSO":  "llave-en-curso",
		"puero":           "puerto",
		"puert":           "puerto puertos-libres",
		"llave":           "llave-en-curso llave-reutilizada",
		"nada-parecido":   "",
	} {
		if got := strings.Join(Parecidas(palabra, candidatas), " "); got != quiere {
			t.Errorf("Parecidas(%q) = %q; se esperaba %q", palabra, got, quiere)
		}
	}
}
