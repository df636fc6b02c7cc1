//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every scene docs/comandos.md names in its tables' last column exists (a name ending in «*» is a
// prefix), so the map from the lessons' commands to ours never points at a scene that is gone.
func TestComandosNombranEscenasQueExisten(t *testing.T) {
	t.Parallel()
	texto, err := os.ReadFile(filepath.Join("..", "..", "docs", "comandos.md"))
	if err != nil {
		t.Fatal(err)
	}
	rutas, err := filepath.Glob(filepath.Join("..", "leccion-*", "*.escena"))
	if err != nil || len(rutas) == 0 {
		t.Fatalf("no hay escenas: %v", err)
	}
	var escenas []string
	for _, r := range rutas {
		escenas = append(escenas, strings.TrimSuffix(filepath.Base(r), ".escena"))
	}
	existe := func(nombre string) bool {
		for _, e := range escenas {
			if e == nombre || (strings.HasSuffix(nombre, "*") && strings.HasPrefix(e, strings.TrimSuffix(nombre, "*"))) {
				return true
			}
		}
		return false
	}
	filas := 0
	for _, linea := range strings.Split(string(texto), "\n") {
		if !strings.HasPrefix(linea, "| ") || strings.HasSuffix(linea, "| scene |") {
			continue // not a row, or a table's head
		}
		celdas := strings.Split(strings.Trim(linea, "| "), " | ")
		filas++
		for _, nombre := range strings.Split(celdas[len(celdas)-1], ", ") {
			if nombre = strings.TrimSpace(nombre); nombre != "—" && !existe(nombre) {
				t.Errorf("docs/comandos.md nombra la escena «%s», que no existe: %s", nombre, linea)
			}
		}
	}
	if filas < 40 {
		t.Errorf("solo %d filas en las tablas de docs/comandos.md", filas)
	}
}
