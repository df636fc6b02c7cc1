package main

import (
	"strings"
	"testing"

	"cursohttp/internal/prueba"
	"cursohttp/internal/prueba/leccion7"
	"cursohttp/internal/prueba/ordenestest"
)

// The client programs as the binary wires them (the hostile service of comprobar tabla included),
// each printing its lesson's transcript.
func TestSubcomandos(t *testing.T) {
	t.Parallel()
	lab, _ := ordenestest.Laboratorio(t)

	c, out, _ := prueba.Correr(t, run, "tabla23", "--laboratorio", lab)
	if c != 0 {
		t.Fatalf("tabla23: código %d", c)
	}
	ordenestest.CompararLineas(t, out, leccion7.Tabla23)

	c, out, _ = prueba.Correr(t, run, "fuera-de-tabla", "--laboratorio", lab)
	if c != 0 {
		t.Fatalf("fuera-de-tabla: código %d", c)
	}
	ordenestest.CompararLineas(t, out, leccion7.FueraDeTabla)

	c, out, _ = prueba.Correr(t, run, "comprobar", "tabla", "--laboratorio", lab, "--puerto-hostil", "0")
	if c != 0 {
		t.Fatalf("comprobar tabla: código %d:\n%s", c, out)
	}
	ordenestest.CompararLineas(t, out, leccion7.ComprobarTabla)

	// Without a laboratory: the checks fail, and the exit code says so.
	c, out, _ = prueba.Correr(t, run, "comprobar", "tabla", "--laboratorio", "http://127.0.0.1:1", "--puerto-hostil", "0")
	if c != 1 || !strings.Contains(out, "\n4 de 7 comprobaciones de la tabla pasaron\n") {
		t.Errorf("sin laboratorio: código %d:\n%s", c, out)
	}

	c, out, _ = prueba.Correr(t, run, "retry-after")
	if c != 0 || !strings.HasPrefix(out, `"120"                              → 120`) {
		t.Errorf("retry-after: código %d:\n%s", c, out)
	}
}

func TestAyudaEnEspanol(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"tabla23", "--help"}, {"revisar", "--help"}, {"por-type", "-h"}, {"sincronizar", "--help"}, {"agente", "--help"},
		{"comprobar", "--help"}, {"comprobar", "tabla", "--help"}, {"fuera-de-tabla", "--help"}, {"ahorro", "--help"},
		{"retroceso", "--help"}, {"ventana", "--help"}, {"retry-after", "--help"}, {"predecir", "--help"},
	} {
		c, out, _ := prueba.Correr(t, run, args...)
		if c != 0 || !strings.Contains(out, "Uso:") || !strings.Contains(out, "muestra esta ayuda") ||
			strings.Contains(out, "Usage:") || strings.Contains(out, "Flags:") || strings.Contains(out, "[flags]") {
			t.Errorf("%v: código %d, ayuda:\n%s", args, c, out)
		}
	}
	_, out, _ := prueba.Correr(t, run, "revisar", "--help")
	for _, bandera := range []string{"--revisor TEXTO", "dirección base del revisor (si no se dice: http://127.0.0.1:18080)",
		"--destinos TEXTO", "separados por comas (si no se dice: REVISOR_DESTINOS o 127.0.0.1:18081)"} {
		if !strings.Contains(out, bandera) {
			t.Errorf("falta %q en la ayuda de revisar:\n%s", bandera, out)
		}
	}
}

func TestArgumentosDeMas(t *testing.T) {
	t.Parallel()
	c, _, errOut := prueba.Correr(t, run, "tabla23", "sobra")
	if want := "revisor tabla23: sobra «sobra»; «revisor tabla23 --help» muestra cómo se usa\n"; c != 2 || errOut != want {
		t.Errorf("código %d, error %q", c, errOut)
	}
	c, _, errOut = prueba.Correr(t, run, "agente", "uno", "dos")
	if want := "revisor agente: sobra «dos»; «revisor agente --help» muestra cómo se usa\n"; c != 2 || errOut != want {
		t.Errorf("código %d, error %q", c, errOut)
	}
}
