package pizarra

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"cursohttp/pkg/datosclase"
	"cursohttp/pkg/matricula"
)

// almacenDePrueba is the class store the board's tests run on: the real one (pkg/matricula), on
// SQLite in the test's folder.
func almacenDePrueba(t testing.TB) matricula.Almacen {
	t.Helper()
	a, err := datosclase.Abrir(context.Background(), filepath.Join(t.TempDir(), "clase.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Cerrar() })
	return a
}

// almacenContado counts the calls made to the store it wraps: the board asks it a fixed number of
// times per request, whatever the class's size.
type almacenContado struct {
	matricula.Almacen
	mu       sync.Mutex
	llamadas map[string]int
}

func contarLlamadas(a matricula.Almacen) *almacenContado {
	return &almacenContado{Almacen: a, llamadas: map[string]int{}}
}

func (a *almacenContado) contar(metodo string) {
	a.mu.Lock()
	a.llamadas[metodo]++
	a.mu.Unlock()
}

// tomar returns the counts so far and starts again from zero.
func (a *almacenContado) tomar() map[string]int {
	a.mu.Lock()
	defer a.mu.Unlock()
	l := a.llamadas
	a.llamadas = map[string]int{}
	return l
}

func (a *almacenContado) Alumnos(ctx context.Context) ([]matricula.Alumno, error) {
	a.contar("Alumnos")
	return a.Almacen.Alumnos(ctx)
}

func (a *almacenContado) Ultimas(ctx context.Context) (map[string]matricula.Calificacion, error) {
	a.contar("Ultimas")
	return a.Almacen.Ultimas(ctx)
}

func (a *almacenContado) Historial(ctx context.Context, nombre string) ([]matricula.Calificacion, error) {
	a.contar("Historial")
	return a.Almacen.Historial(ctx, nombre)
}
