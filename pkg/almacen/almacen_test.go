package almacen_test

import (
	"strconv"
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

// A registration among many services: the name is checked through an index, so each one costs the
// same with 30,000 services as with six (the campaign's servicios-no-ascii family registers that
// many; a scan of every service made it quadratic).
func BenchmarkCrearEntreMuchos(b *testing.B) {
	a := almacen.NuevaMemoria(almacen.Opciones{})
	ctx := b.Context()
	for i := range 30_000 {
		if _, err := a.Crear(ctx, "a", almacen.Datos{Nombre: "previo-" + strconv.Itoa(i), URL: "http://x/", LimiteMs: 2000}, 0, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := a.Crear(ctx, "a", almacen.Datos{Nombre: "nuevo-" + strconv.Itoa(i), URL: "http://x/", LimiteMs: 2000}, 0, nil); err != nil {
			b.Fatal(err)
		}
	}
}
