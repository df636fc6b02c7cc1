package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// A real go test -json run of a module with a test that passes, one that fails, one that skips and
// a subtest that skips: the output reads as go test's without -json, and the skips come back with
// their reasons.
func TestTraducirUnaCorridaReal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	escribir := func(nombre, texto string) {
		if err := os.WriteFile(filepath.Join(dir, nombre), []byte(texto), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	escribir("go.mod", "module ejemplo\n\ngo 1.26\n")
	escribir("ejemplo_test.go", `package ejemplo

import "testing"

func TestBien(t *testing.T) { t.Log("esto no se ve") }

func TestSalta(t *testing.T) { t.Skip("no hay Chromium") }

func TestFalla(t *testing.T) {
	t.Log("antes")
	t.Error("salió mal")
}

func TestGrupo(t *testing.T) {
	t.Run("hoja", func(t *testing.T) { t.Skipf("sin %s", "PostgreSQL") })
}
`)
	cmd := exec.Command("go", "test", "-json", "-count=1", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off")
	salida, _ := cmd.Output() // it fails: TestFalla
	var out bytes.Buffer
	saltadas, err := Traducir(bytes.NewReader(salida), &out)
	if err != nil {
		t.Fatal(err)
	}
	texto := out.String()
	for _, want := range []string{"--- FAIL: TestFalla", "antes", "salió mal", "FAIL\tejemplo\t"} {
		if !strings.Contains(texto, want) {
			t.Errorf("falta %q en la salida:\n%s", want, texto)
		}
	}
	for _, no := range []string{"esto no se ve", "=== RUN", "TestSalta", "PASS\n"} {
		if strings.Contains(texto, no) {
			t.Errorf("la salida trae %q, que go test sin -json no escribe:\n%s", no, texto)
		}
	}
	want := []Saltada{{"ejemplo", "TestSalta", "no hay Chromium"}, {"ejemplo", "TestGrupo/hoja", "sin PostgreSQL"}}
	if !reflect.DeepEqual(saltadas, want) {
		t.Errorf("saltadas: %+v, se esperaban %+v", saltadas, want)
	}
}

// The record becomes one line: each reason once, with who skipped for it.
func TestResumen(t *testing.T) {
	t.Parallel()
	if got := Resumen(""); got != "make test no se saltó nada" {
		t.Errorf("sin saltos: %q", got)
	}
	registro := "pkg/datos TestA: sin PostgreSQL: no encuentro initdb\n" +
		"pkg/datos TestB: sin PostgreSQL: no encuentro initdb\n" +
		"cmd/laboratorio TestPanelEnNavegador: no hay Chromium\n" +
		"pkg/revisor TestC: sin PostgreSQL: no encuentro initdb\n" +
		"pkg/almacen TestD: sin PostgreSQL: no encuentro initdb\n" +
		"ataque subida-grande con fetch de Node (pasarela): node no está instalado\n"
	want := "make test se saltó 6: sin PostgreSQL: no encuentro initdb (pkg/datos TestA, pkg/datos TestB, pkg/revisor TestC y 1 más); " +
		"no hay Chromium (cmd/laboratorio TestPanelEnNavegador); node no está instalado (ataque subida-grande con fetch de Node (pasarela))"
	if got := Resumen(registro); got != want {
		t.Errorf("Resumen:\n%s\nse esperaba:\n%s", got, want)
	}
}

// make unit runs two go test at once through one saltos: each failing test's output comes out in
// one piece, the skips of both are recorded, and the exit code is the failing one's.
func TestDosOrdenesALaVez(t *testing.T) {
	t.Parallel()
	// Each stand-in for go test -json writes a failing test in many lines, one event at a time.
	orden := func(paquete string, codigo int) []string {
		var b strings.Builder
		for i := range 200 {
			fmt.Fprintf(&b, `{"Action":"output","Package":%q,"Test":"TestMal","Output":"%s línea %d\n"}`+"\n", paquete, paquete, i)
		}
		fmt.Fprintf(&b, `{"Action":"output","Package":%q,"Test":"TestSalta","Output":"    x_test.go:3: sin %s\n"}`+"\n", paquete, paquete)
		fmt.Fprintf(&b, `{"Action":"skip","Package":%q,"Test":"TestSalta"}`+"\n", paquete)
		fmt.Fprintf(&b, `{"Action":"fail","Package":%q,"Test":"TestMal"}`+"\n", paquete)
		return []string{"sh", "-c", `while IFS= read -r l; do printf '%s\n' "$l"; done <<'FIN'` + "\n" + b.String() + "FIN\nexit " + strconv.Itoa(codigo)}
	}
	registro := filepath.Join(t.TempDir(), "saltos")
	var out, errOut bytes.Buffer
	args := append(append(append([]string{"--"}, orden("uno", 0)...), "--"), orden("dos", 3)...)
	if c := correrVarias(ordenes(args), registro, &out, &errOut); c != 3 {
		t.Errorf("código %d, se esperaba 3 (%s)", c, errOut.String())
	}
	for _, p := range []string{"uno", "dos"} {
		var bloque strings.Builder
		for i := range 200 {
			fmt.Fprintf(&bloque, "%s línea %d\n", p, i)
		}
		if !strings.Contains(out.String(), bloque.String()) {
			t.Errorf("la salida de %s.TestMal no salió de una pieza:\n%s", p, out.String())
		}
	}
	b, err := os.ReadFile(registro)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"uno TestSalta: sin uno\n", "dos TestSalta: sin dos\n"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("falta %q en el registro:\n%s", want, b)
		}
	}
}
