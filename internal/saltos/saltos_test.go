package saltos

import (
	"os"
	"path/filepath"
	"testing"
)

// Each skip is one line of the record, even a reason that spans lines; without a record, nothing.
func TestAnotar(t *testing.T) {
	registro := filepath.Join(t.TempDir(), "saltos")
	t.Setenv(Variable, "")
	if err := Anotar("a", "b"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(registro); !os.IsNotExist(err) {
		t.Fatalf("sin %s se escribió algo: %v", Variable, err)
	}
	t.Setenv(Variable, registro)
	if err := Anotar("clase-carga con PostgreSQL", "sin PostgreSQL: no se encontró\nPostgreSQL"); err != nil {
		t.Fatal(err)
	}
	if err := Anotar("ataque x", "python3 no está instalado"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(registro)
	if want := "clase-carga con PostgreSQL: sin PostgreSQL: no se encontró PostgreSQL\nataque x: python3 no está instalado\n"; err != nil || string(b) != want {
		t.Errorf("registro %q (%v), se esperaba %q", b, err, want)
	}
}
