package pgefimero

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// CURSOHTTP_PG_BIN names the only folder looked at: one without the programs says so in one line
// (how to see the suite on a machine without PostgreSQL), one with them is the answer.
func TestBinariosDeLaVariable(t *testing.T) {
	vacia := t.TempDir()
	t.Setenv(VariableBinarios, vacia)
	if dir, err := Binarios(); err == nil || !strings.Contains(err.Error(), "no se encontró PostgreSQL: falta initdb en "+vacia+" ("+VariableBinarios+")") {
		t.Errorf("una carpeta vacía: %q %v", dir, err)
	}
	if _, err := Arrancar(t.Context(), ""); err == nil {
		t.Errorf("Arrancar sin binarios no falló")
	}
	llena := t.TempDir()
	for _, p := range []string{"initdb", "postgres"} {
		if err := os.WriteFile(filepath.Join(llena, p), nil, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv(VariableBinarios, llena)
	if dir, err := Binarios(); err != nil || dir != llena {
		t.Errorf("una carpeta con initdb y postgres: %q %v", dir, err)
	}
}
