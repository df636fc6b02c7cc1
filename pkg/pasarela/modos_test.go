package pasarela

import (
	"strings"
	"testing"

	"cursohttp/pkg/fallas"
)

// The modes a shell completes (pkg/fallas, a leaf the client links too) are the ones LeerFalla
// reads: each value parses, and every mode has its value there.
func TestFallasCompletaLosModos(t *testing.T) {
	t.Parallel()
	ofrecidos := map[string]bool{}
	for _, m := range fallas.Modos {
		f, err := LeerFalla(m.Valor)
		if err != nil {
			t.Errorf("fallas.Modos ofrece «%s», que la pasarela no lee: %v", m.Valor, err)
			continue
		}
		nombre, _, _ := strings.Cut(f.String(), ":")
		ofrecidos[nombre] = true
	}
	for nombre, f := range sinArgumento {
		if !ofrecidos[f.String()] {
			t.Errorf("el modo «%s» (%s) falta en fallas.Modos", nombre, f)
		}
	}
	for nombre := range conNumero {
		if !ofrecidos[nombre] {
			t.Errorf("el modo «%s:N» falta en fallas.Modos", nombre)
		}
	}
}
