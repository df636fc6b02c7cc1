package almacen_test

import (
	"testing"

	"cursohttp/internal/prueba/almacentest"
	"cursohttp/pkg/almacen"
)

// The store in memory passes the suite every store passes.
func TestMemoria(t *testing.T) {
	t.Parallel()
	almacentest.Probar(t, func(t *testing.T, o almacen.Opciones) almacen.Almacen {
		a := almacen.NuevaMemoria(o)
		t.Cleanup(func() { a.Cerrar() })
		return a
	})
}

func TestEtiqueta(t *testing.T) {
	t.Parallel()
	s := almacen.Servicio{ID: 4, Version: 12}
	if got, want := almacen.Etiqueta("6db25d01", s), `"4-12-6db25d01"`; got != want {
		t.Errorf("Etiqueta = %s, se esperaba %s", got, want)
	}
}

// The course's store draws a fresh boot identifier each run.
func TestNuevoSorteaElArranque(t *testing.T) {
	t.Parallel()
	if a, b := almacen.Nuevo(), almacen.Nuevo(); a.Arranque() == b.Arranque() {
		t.Errorf("dos almacenes sortearon el mismo arranque %q", a.Arranque())
	}
}
