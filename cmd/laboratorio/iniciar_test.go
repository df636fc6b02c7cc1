package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"cursohttp/internal/prueba"
)

// revisorQueDice is a folder with a fake «revisor» that prints each argument it got on a line
// of its own and exits with 3: what «laboratorio clase iniciar» hands the class lab.
func revisorQueDice(t *testing.T) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("el revisor de prueba es un guion de sh")
	}
	bin := t.TempDir()
	guion := "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\nexit 3\n"
	if err := os.WriteFile(filepath.Join(bin, "revisor"), []byte(guion), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

// «laboratorio clase iniciar» runs «revisor clase» with every option the instructor typed, as
// typed (the README's line first), and ends with its exit code; its own options (--bin, --dir,
// the group's --clase) it reads itself.
func TestClaseIniciarPasaSusOpciones(t *testing.T) {
	t.Parallel()
	bin := revisorQueDice(t)
	for _, c := range []struct {
		args   []string
		quiere []string
	}{
		{[]string{"--lista", "alumnos.txt", "--direccion", "0.0.0.0"},
			[]string{"clase", "--dir", filepath.Join("lab", "clase"), "--lista", "alumnos.txt", "--direccion", "0.0.0.0"}},
		{[]string{"--lista", "alumnos.txt", "--datos", "postgres://clase@127.0.0.1/clase", "--revisores", "2"},
			[]string{"clase", "--dir", filepath.Join("lab", "clase"), "--lista", "alumnos.txt", "--datos", "postgres://clase@127.0.0.1/clase", "--revisores", "2"}},
		{[]string{"--dir=otra", "--lista=a b.txt", "--clase", "http://127.0.0.1:1", "--puerto", "0"},
			[]string{"clase", "--dir", "otra", "--lista=a b.txt", "--puerto", "0"}},
		{nil, []string{"clase", "--dir", filepath.Join("lab", "clase")}},
	} {
		args := append([]string{"clase", "iniciar", "--bin", bin}, c.args...)
		codigo, out, errOut := prueba.Correr(t, run, args...)
		if quiere := strings.Join(c.quiere, "\n") + "\n"; codigo != 3 || out != quiere || errOut != "" {
			t.Errorf("%q: salió con %d, stdout %q, stderr %q; se esperaba 3 y %q", args, codigo, out, errOut, quiere)
		}
	}
	// The group's --dir, given before the order, reaches it too.
	if codigo, out, _ := prueba.Correr(t, run, "clase", "--dir", "otra", "iniciar", "--bin="+bin); codigo != 3 || out != "clase\n--dir\notra\n" {
		t.Errorf("clase --dir otra iniciar: %d %q", codigo, out)
	}
}

// Its help is its own (and runs nothing); an option of its own without a value is a usage error.
func TestClaseIniciarAyuda(t *testing.T) {
	t.Parallel()
	bin := revisorQueDice(t)
	for _, bandera := range []string{"--help", "-h"} {
		codigo, out, errOut := prueba.Correr(t, run, "clase", "iniciar", "--bin", bin, "--lista", "alumnos.txt", bandera)
		if codigo != 0 || errOut != "" || !strings.HasPrefix(out, "Arranca el laboratorio de la clase") ||
			!strings.Contains(out, "laboratorio clase iniciar --lista alumnos.txt --direccion 0.0.0.0") || !strings.Contains(out, "--bin TEXTO") ||
			strings.Contains(out, "clase\n--dir") {
			t.Errorf("iniciar %s: %d %q\n%s", bandera, codigo, errOut, out)
		}
	}
	prueba.UsosIncorrectos(t, run, map[string]string{
		"clase iniciar --bin": "laboratorio clase iniciar: la opción --bin necesita un valor; «laboratorio clase iniciar --help» muestra las opciones\n",
	})
}
