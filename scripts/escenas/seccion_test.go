//go:build unix

package main

import (
	"bytes"
	"os"
	"testing"
)

func TestEsDeLaSeccion(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		base, nombre string
		want         bool
	}{
		{"7.1-la-tabla", "7.1", true},
		{"7.1.2-algo", "7.1", true},
		{"7.10.4-agente", "7.1", false},
		{"7.14-fin", "7.1", false},
		{"7.1", "7.1", true},
		{"7.ejercicio-1-x", "7", true},
		{"70-x", "7", false},
		{"6.5.4-mentira-503-2", "6.5.4-ment", true},
		{"6.5.4-mentira-503-2", "6.5.4-mentira-503-2", true},
		{"4.4.3-salud", "4.4.3-colgado", false},
	} {
		if got := EsDeLaSeccion(c.base, c.nombre); got != c.want {
			t.Errorf("EsDeLaSeccion(%q, %q) = %v", c.base, c.nombre, got)
		}
	}
}

// Colour only on a terminal and only without NO_COLOR; without it, no escape reaches the output.
func TestColor(t *testing.T) {
	t.Parallel()
	f, err := os.CreateTemp(t.TempDir(), "salida")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sinVariable := func(string) (string, bool) { return "", false }
	if ConColor(f, sinVariable) {
		t.Error("un archivo no es una terminal: sin colores")
	}
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		defer tty.Close()
		if !ConColor(tty, sinVariable) {
			t.Error("una terminal sin NO_COLOR: con colores")
		}
		if ConColor(tty, func(n string) (string, bool) { return "1", n == "NO_COLOR" }) {
			t.Error("NO_COLOR=1 quita los colores")
		}
	}
	var buf bytes.Buffer
	r := &Reproductor{Salida: &buf}
	if got := r.tinta(verde, "✔"); got != "✔" {
		t.Errorf("sin Color: %q", got)
	}
	r.Color = true
	if got := r.tinta(verde, "✔"); got != "\033[32m✔\033[0m" {
		t.Errorf("con Color: %q", got)
	}
}
