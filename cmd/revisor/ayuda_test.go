package main

import (
	"context"
	"io"
	"net"
	"strings"
	"testing"

	"cursohttp/pkg/cli"
	"cursohttp/pkg/servidor"
)

func correr(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut salida
	codigo := run(context.Background(), args, strings.NewReader(""), &out, &errOut)
	return codigo, out.String(), errOut.String()
}

func TestUsoIncorrecto(t *testing.T) {
	t.Parallel()
	casos := []struct {
		args   []string
		stderr string
	}{
		{[]string{"--x"}, "revisor: no existe la opción --x; «revisor --help» muestra las opciones\n"},
		{[]string{"servir", "-x"}, "revisor servir: no existe la opción -x; «revisor servir --help» muestra las opciones\n"},
		{[]string{"--puerto"}, "revisor: la opción --puerto necesita un valor; «revisor --help» muestra las opciones\n"},
		{[]string{"--puerto", "abc"}, "revisor: la opción --puerto espera un número entero, no «abc»; «revisor --help» muestra las opciones\n"},
		{[]string{"--puerto", "70000"}, "revisor: --puerto va de 0 a 65535 (0: uno libre), no 70000\n"},
		{[]string{"servir", "--puerto=-1"}, "revisor servir: --puerto va de 0 a 65535 (0: uno libre), no -1\n"},
		{[]string{"--log-json=tal"}, "revisor: la opción --log-json espera true o false, no «tal»; «revisor --help» muestra las opciones\n"},
		{[]string{"--vigencia-llaves", "0s"}, "revisor: la opción --vigencia-llaves no acepta «0s»: se espera una duración positiva (24h, 5s, 1500ms); «revisor --help» muestra las opciones\n"},
		{[]string{"--limitador", "cubo", "--puerto", "0"}, "revisor: --limitador: algoritmo desconocido \"cubo\": usa ventana, deslizante o cubeta\n"},
		{[]string{"servir", "--destinos", "laboratorio:18081", "--puerto", "0"}, "revisor servir: destinos permitidos que no son ip:puerto: \"laboratorio:18081\"\n"},
		{[]string{"otra"}, "revisor: sobra «otra»; «revisor --help» muestra cómo se usa\n"},
		{[]string{"help"}, "revisor: sobra «help»; «revisor --help» muestra cómo se usa\n"},
		{[]string{"completion", "bash"}, "revisor: sobra «completion»; «revisor --help» muestra cómo se usa\n"},
		{[]string{"servir", "de-mas"}, "revisor servir: sobra «de-mas»; «revisor servir --help» muestra cómo se usa\n"},
		{[]string{"tabla23", "de-mas"}, "revisor tabla23: sobra «de-mas»; «revisor tabla23 --help» muestra cómo se usa\n"},
		{[]string{"agente", "uno", "dos"}, "revisor agente: sobra «dos»; «revisor agente --help» muestra cómo se usa\n"},
		{[]string{"tabla23", "--laboratorio"}, "revisor tabla23: la opción --laboratorio necesita un valor; «revisor tabla23 --help» muestra las opciones\n"},
		{[]string{"comprobar", "tabla", "--puerto-hostil", "x"}, "revisor comprobar tabla: la opción --puerto-hostil espera un número entero, no «x»; «revisor comprobar tabla --help» muestra las opciones\n"},
		{[]string{"comprobar", "otra"}, "revisor comprobar: no existe la orden «otra»; «revisor comprobar --help» muestra las órdenes\n"},
		{[]string{"rafaga", "--tope", "5"}, "revisor rafaga: la opción --tope espera una duración (como 90s o 1m30s), no «5»; «revisor rafaga --help» muestra las opciones\n"},
		{[]string{"rafaga", "x"}, "rafaga: N debe ser un entero positivo, no \"x\"\n"},
	}
	for _, c := range casos {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			t.Parallel()
			codigo, out, errOut := correr(t, c.args...)
			if codigo != cli.SalidaUso || out != "" || errOut != c.stderr {
				t.Errorf("salida %d, stdout %q, stderr %q; se esperaba 2 y %q", codigo, out, errOut, c.stderr)
			}
		})
	}
}

// TestAyudaDeTodoElArbol walks every command of the program, the client programs included.
func TestAyudaDeTodoElArbol(t *testing.T) {
	t.Parallel()
	raiz := nuevaRaiz(nil, io.Discard, io.Discard, func(int) {})
	rutas := cli.Rutas(raiz)
	if len(rutas) < 15 {
		t.Fatalf("solo %d órdenes: %q", len(rutas), rutas)
	}
	for _, ruta := range rutas {
		for _, bandera := range []string{"--help", "-h"} {
			args := append(append([]string{}, ruta...), bandera)
			codigo, out, errOut := correr(t, args...)
			if codigo != cli.SalidaBien || errOut != "" || !strings.Contains(out, "\nUso:\n  revisor") ||
				!strings.Contains(out, "  -h, --help") || !strings.Contains(out, "muestra esta ayuda") {
				t.Errorf("%v: salida %d, stderr %q, ayuda:\n%s", args, codigo, errOut, out)
			}
			if s := cli.EnIngles(out); s != "" {
				t.Errorf("%v: la ayuda dice %q:\n%s", args, s, out)
			}
		}
	}
	for _, c := range raiz.Commands() {
		if c.IsAvailableCommand() && (c.Name() == "help" || c.Name() == "completion") {
			t.Errorf("queda la orden %s", c.Name())
		}
	}
	// The server's own help says what it is for, where, how to stop it, with examples.
	for _, ruta := range [][]string{{"--help"}, {"servir", "--help"}} {
		_, out, _ := correr(t, ruta...)
		for _, s := range []string{"http://127.0.0.1:18080", "Ctrl+C", "Ejemplos:\n", "(si no se dice: 18080)",
			"--vigencia-llaves DURACIÓN", "(si no se dice: REVISOR_DESTINOS o 127.0.0.1:18081)"} {
			if !strings.Contains(out, s) {
				t.Errorf("%v: la ayuda no dice %q:\n%s", ruta, s, out)
			}
		}
	}
}

func TestProgramaClienteDaSuCodigo(t *testing.T) {
	t.Parallel()
	codigo, out, errOut := correr(t, "retry-after")
	if codigo != 0 || errOut != "" || !strings.HasPrefix(out, `"120"`) {
		t.Errorf("retry-after: salida %d, stderr %q, stdout %q", codigo, errOut, out)
	}
	// Nobody on port 1: the checks fail and the exit code says so.
	codigo, out, _ = correr(t, "comprobar", "tabla", "--laboratorio", "http://127.0.0.1:1", "--puerto-hostil", "0")
	if codigo != cli.SalidaFallo || !strings.Contains(out, "4 de 7 comprobaciones") {
		t.Errorf("comprobar tabla sin laboratorio: salida %d:\n%s", codigo, out)
	}
}

// TestPuertoOcupadoUnaLinea: one sentence, exit 1, no usage, for the root and for servir.
func TestPuertoOcupadoUnaLinea(t *testing.T) {
	t.Parallel()
	ocupado, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ocupado.Close()
	_, puerto, _ := net.SplitHostPort(ocupado.Addr().String())
	want := (&servidor.PuertoOcupado{Programa: "revisor", Addr: "127.0.0.1:" + puerto}).Error() + "\n"
	for _, args := range [][]string{{"--puerto", puerto}, {"servir", "--puerto", puerto}} {
		codigo, out, errOut := correr(t, args...)
		if codigo != cli.SalidaFallo || out != "" || errOut != want {
			t.Errorf("%v: salida %d, stdout %q, stderr %q; se esperaba 1 y %q", args, codigo, out, errOut, want)
		}
	}
}
