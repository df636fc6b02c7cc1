package almacen

import (
	"errors"
	"regexp"
	"sync"
	"testing"
)

func TestSemillasYPrimerAlta(t *testing.T) {
	t.Parallel()
	a := Nuevo()
	lista := a.Listar()
	if len(lista) != 6 {
		t.Fatalf("%d servicios de arranque, se esperaban 6", len(lista))
	}
	nombres := []string{"catalogo", "pagos", "nomina", "inventario", "reportes", "facturacion"}
	for i, s := range lista {
		if s.ID != i+1 || s.Nombre != nombres[i] || s.Version != 1 {
			t.Errorf("servicio %d = %+v", i+1, s)
		}
	}
	if s, _ := a.Buscar(3); s.Equipo != "b" {
		t.Errorf("nomina es del equipo %q, se esperaba b", s.Equipo)
	}
	if s, _ := a.Buscar(5); s.LimiteMs != 1000 || s.URL != "http://127.0.0.1:18081/lento/3000" {
		t.Errorf("reportes = %+v", s)
	}
	s, err := a.Crear("a", Datos{"avisos", "http://127.0.0.1:18081/codigo/200", 2000}, 0)
	if err != nil || s.ID != 7 {
		t.Fatalf("primer alta = %+v, %v; se esperaba id 7", s, err)
	}
}

func TestEtiquetaLlevaElArranque(t *testing.T) {
	t.Parallel()
	a, b := Nuevo(), Nuevo()
	if !regexp.MustCompile(`^[0-9a-f]{8}$`).MatchString(a.Arranque()) {
		t.Fatalf("arranque %q no son 8 hex", a.Arranque())
	}
	if a.Arranque() == b.Arranque() {
		t.Errorf("dos almacenes sortearon el mismo arranque %q", a.Arranque())
	}
	s, _ := a.Buscar(1)
	if got, want := a.Etiqueta(s), `"1-1-`+a.Arranque()+`"`; got != want {
		t.Errorf("Etiqueta = %s, se esperaba %s", got, want)
	}
}

func TestNombreRepetidoPorEquipo(t *testing.T) {
	t.Parallel()
	a := NuevoCon("00000000", Semillas())
	_, err := a.Crear("a", Datos{"catalogo", "http://x", 2000}, 0)
	var rep *NombreRepetido
	if !errors.As(err, &rep) || rep.Existente != 1 {
		t.Fatalf("Crear catalogo en a = %v, se esperaba NombreRepetido{1}", err)
	}
	if _, err := a.Crear("b", Datos{"catalogo", "http://x", 2000}, 0); err != nil {
		t.Errorf("otro equipo puede usar el nombre: %v", err)
	}
}

func TestRetiradoRecuerdaEquipo(t *testing.T) {
	t.Parallel()
	a := NuevoCon("00000000", Semillas())
	if !a.Retirar(3) || a.Retirar(3) {
		t.Fatal("Retirar(3) debe valer una sola vez")
	}
	if _, ok := a.Buscar(3); ok {
		t.Error("un retirado no se encuentra")
	}
	if e, ok := a.EquipoDeRetirado(3); !ok || e != "b" {
		t.Errorf("EquipoDeRetirado(3) = %q, %v", e, ok)
	}
	if _, err := a.Cambiar(3, nil, Datos{"nomina", "http://x", 2000}); !errors.Is(err, ErrRetirado) {
		t.Errorf("Cambiar un retirado = %v", err)
	}
}

func TestCambiarComparaVersion(t *testing.T) {
	t.Parallel()
	a := NuevoCon("00000000", Semillas())
	uno := 1
	s, err := a.Cambiar(1, &uno, Datos{"catalogo", "http://x", 1500})
	if err != nil || s.Version != 2 || s.LimiteMs != 1500 {
		t.Fatalf("Cambiar = %+v, %v", s, err)
	}
	if _, err := a.Cambiar(1, &uno, Datos{"catalogo", "http://x", 1500}); !errors.Is(err, ErrConflicto) {
		t.Errorf("con la versión vieja = %v, se esperaba ErrConflicto", err)
	}
	s, err = a.Cambiar(1, nil, Datos{"catalogo", "http://x", 1500})
	if err != nil || s.Version != 3 {
		t.Errorf("If-Match: * = %+v, %v; la versión sube aunque no cambie nada", s, err)
	}
	var rep *NombreRepetido
	if _, err := a.Cambiar(1, nil, Datos{"pagos", "http://x", 1500}); !errors.As(err, &rep) || rep.Existente != 2 {
		t.Errorf("renombrar a pagos = %v", err)
	}
}

// Two hundred writers holding the same version: exactly one wins.
func TestCambiarConcurrenteUnSoloGanador(t *testing.T) {
	t.Parallel()
	a := NuevoCon("00000000", Semillas())
	const n = 200
	var wg sync.WaitGroup
	var mu sync.Mutex
	ganadores, conflictos := 0, 0
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v := 1
			_, err := a.Cambiar(1, &v, Datos{"catalogo", "http://x", 100 + i})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				ganadores++
			case errors.Is(err, ErrConflicto):
				conflictos++
			}
		}()
	}
	wg.Wait()
	if ganadores != 1 || conflictos != n-1 {
		t.Errorf("%d ganadores y %d conflictos; se esperaba 1 y %d", ganadores, conflictos, n-1)
	}
}

func TestRevisiones(t *testing.T) {
	t.Parallel()
	a := NuevoCon("00000000", Semillas())
	r1 := a.CrearRevision(2)
	r2 := a.CrearRevision(4)
	r3 := a.CrearRevision(2)
	if r1.ID != 1 || r2.ID != 2 || r3.ID != 3 || r1.Estado != Pendiente || r1.Resultado != nil {
		t.Fatalf("revisiones = %+v %+v %+v", r1, r2, r3)
	}
	codigo, ms := 503, 4
	a.TerminarRevision(1, Resultado{Caido, &codigo, &ms, "503 (reintentar en 120 s)"})
	de2 := a.RevisionesDe(2)
	if len(de2) != 2 || de2[0].ID != 1 || de2[1].ID != 3 {
		t.Fatalf("RevisionesDe(2) = %+v", de2)
	}
	if de2[0].Estado != Terminada || *de2[0].Resultado.Codigo != 503 {
		t.Errorf("revisión 1 = %+v", de2[0])
	}
	// A copy handed out cannot change the store.
	*de2[0].Resultado.Codigo = 200
	if r, _ := a.BuscarRevision(1); *r.Resultado.Codigo != 503 {
		t.Error("la copia entregada cambió el almacén")
	}
}
