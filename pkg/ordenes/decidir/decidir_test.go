package decidir

import (
	"testing"

	"github.com/spf13/cobra"

	"cursohttp/internal/prueba/ordenestest"
	"cursohttp/pkg/curso"
	"cursohttp/pkg/ordenes/entorno"
)

func ejecutar(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	return ordenestest.Ejecutar(t, func(f *entorno.Fabrica) *cobra.Command { return NuevoCmd(f) }, args...)
}

// S17 [lesson L3066-L3074]: decidir(c, null, null) for 413, 418 and 451, with the course's table and
// with exercise 2's.
func TestDecidirCodigos(t *testing.T) {
	t.Parallel()
	out, errOut, c := ejecutar(t, "decidir", "413", "418", "451")
	ordenestest.CompararLineas(t, out, `413 corregir no reintenta - el 413 no está en la tabla: se trata como un 400 (la petición no se puede leer)
418 corregir no reintenta - el 418 no está en la tabla: se trata como un 400 (la petición no se puede leer)
451 corregir no reintenta - el 451 no está en la tabla: se trata como un 400 (la petición no se puede leer)
`)
	if c != 0 || errOut != "" {
		t.Errorf("código %d, stderr %q", c, errOut)
	}
	out, errOut, c = ejecutar(t, "decidir", "--ejercicio", "2", "413", "418", "451")
	ordenestest.CompararLineas(t, out, `413 corregir no reintenta - el cuerpo pasa del tope: manda menos
418 corregir no reintenta - el 418 no está en la tabla: se trata como un 400 (la petición no se puede leer)
451 corregir no reintenta - el 451 no está en la tabla: se trata como un 400 (la petición no se puede leer)
`)
	if c != 0 || errOut != "" {
		t.Errorf("--ejercicio 2: código %d, stderr %q", c, errOut)
	}
	out, _, _ = ejecutar(t, "decidir", "409", "503", "--type", curso.Problemas+"llave-en-curso")
	ordenestest.CompararLineas(t, out, `409 esperar reintenta - la petición original sigue en curso: espera y repite con la misma llave
503 esperar reintenta - la petición original sigue en curso: espera y repite con la misma llave
`)
}
