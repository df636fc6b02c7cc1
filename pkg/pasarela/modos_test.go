package pasarela

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// pkg/fallas (the leaf the shells' completion and the panel read) is what scripts/fallas generates
// from Modos now: a mode added to the table without «go generate ./pkg/pasarela» fails here.
func TestFallasEsLaTablaDeModos(t *testing.T) {
	t.Parallel()
	archivo, err := os.ReadFile(filepath.Join("..", "fallas", "modos.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(archivo, FuenteDeFallas()) {
		t.Fatal("pkg/fallas/modos.go no es la tabla de modos de ahora: go generate ./pkg/pasarela")
	}
}

// Every entry of the table is whole and works as written: its example parses into a fault whose
// mode is the entry's, its range (if any) is read, its alias (if any) too, and no two entries
// share a name of the same kind.
func TestCadaModoDeLaTablaFunciona(t *testing.T) {
	t.Parallel()
	vistos := map[string]bool{}
	for _, m := range Modos() {
		if m.Nombre == "" || m.Forma == "" || m.Ejemplo == "" || m.Linea == "" || len(m.Ayuda) == 0 || m.Hacer == nil {
			t.Errorf("el modo %+v está incompleto", m)
			continue
		}
		clave := m.Nombre
		if m.Hasta > 0 {
			clave += ":N"
		}
		if vistos[clave] {
			t.Errorf("el modo %s está dos veces en la tabla", clave)
		}
		vistos[clave] = true
		f, err := LeerFalla(m.Ejemplo)
		if err != nil {
			t.Errorf("el ejemplo «%s» no se lee: %v", m.Ejemplo, err)
			continue
		}
		if f.String() != m.Ejemplo {
			t.Errorf("«%s» se lee como «%s»", m.Ejemplo, f)
		}
		if nombre, _, _ := strings.Cut(f.String(), ":"); nombre != m.Nombre {
			t.Errorf("el ejemplo «%s» es de otro modo: %s", m.Ejemplo, f)
		}
		if m.Hasta > 0 {
			for _, n := range []int{m.Desde, m.Hasta} {
				if _, err := LeerFalla(m.Nombre + ":" + strconv.Itoa(n)); err != nil {
					t.Errorf("%s:%d está en su rango y no se lee: %v", m.Nombre, n, err)
				}
			}
			for _, n := range []int{m.Desde - 1, m.Hasta + 1} {
				if _, err := LeerFalla(m.Nombre + ":" + strconv.Itoa(n)); err == nil {
					t.Errorf("%s:%d está fuera de su rango y se lee", m.Nombre, n)
				}
			}
		}
		if m.Alias != "" {
			if f, err := LeerFalla(m.Alias); err != nil || f.String() != m.Nombre {
				t.Errorf("el alias «%s» de %s se lee como %v, %v", m.Alias, m.Nombre, f, err)
			}
		}
	}
}
