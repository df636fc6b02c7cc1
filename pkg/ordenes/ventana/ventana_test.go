package ventana

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"cursohttp/internal/prueba"
	"cursohttp/internal/prueba/ordenestest"
	"cursohttp/pkg/ordenes/entorno"
)

func ventanaCon(t *testing.T, algoritmo string) string {
	t.Helper()
	r := prueba.NuevoReloj(time.Date(2026, 10, 21, 13, 19, 0, 0, time.UTC))
	var out bytes.Buffer
	if c := Ventana(context.Background(), entorno.Entorno{Out: &out, Err: &out, Ahora: r.Ahora, Dormir: r.Dormir}, algoritmo); c != 0 {
		t.Fatalf("código de salida %d:\n%s", c, out.String())
	}
	return out.String()
}

// leccion-4 Series G with the planned times exactly on time: the same shape as the lesson's run
// (5 allowed between 950 and 1015 ms, the last refused with Retry-After 1).
func TestVentanaFijaComoElCurso(t *testing.T) {
	t.Parallel()
	esperado := `    0 ms  permitida
  950 ms  permitida
  960 ms  permitida
 1005 ms  permitida
 1010 ms  permitida
 1015 ms  permitida
 1020 ms  rechazada: Retry-After 1

límite: 3 cada 1000 ms
permitidas entre 950 y 1015 ms: 5
`
	ordenestest.CompararLineas(t, ventanaCon(t, ""), esperado)
	ordenestest.CompararLineas(t, ventanaCon(t, "ventana"), esperado)
}

// The sliding log never lets a fourth request into any 1000 ms: the boundary burst is gone.
func TestVentanaDeslizante(t *testing.T) {
	t.Parallel()
	esperado := `    0 ms  permitida
  950 ms  permitida
  960 ms  permitida
 1005 ms  permitida
 1010 ms  rechazada: Retry-After 1
 1015 ms  rechazada: Retry-After 1
 1020 ms  rechazada: Retry-After 1

límite: 3 cada 1000 ms
permitidas entre 950 y 1005 ms: 3
`
	ordenestest.CompararLineas(t, ventanaCon(t, "deslizante"), esperado)
}

func TestVentanaCubetaNoPasaDeTres(t *testing.T) {
	t.Parallel()
	salida := ventanaCon(t, "cubeta")
	if n := strings.Count(salida, "ms  permitida\n"); n > 3 || n < 1 {
		t.Errorf("la cubeta dejó pasar %d de 7 en poco más de un segundo:\n%s", n, salida)
	}
}

func TestVentanaAlgoritmoDesconocido(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	if c := Ventana(context.Background(), entorno.Entorno{Out: &out, Err: &out}, "magia"); c != 1 {
		t.Fatalf("código de salida %d, se esperaba 1", c)
	}
}

// What each command line becomes, seen through runF without running the program.
func TestLineasDeOrdenes(t *testing.T) {
	t.Parallel()
	ventana := func(f *entorno.Fabrica, a ordenestest.Anotar) *cobra.Command {
		return NuevoCmd(f, func(_ context.Context, _ entorno.Entorno, algoritmo string) int {
			a("algoritmo=" + algoritmo)
			return 0
		})
	}
	ordenestest.Lineas(t, []ordenestest.Linea{
		{Construir: ventana, Anotado: "algoritmo=ventana"},
		{Construir: ventana, Linea: "--algoritmo cubeta", Anotado: "algoritmo=cubeta"},
	})
}

// A loaded machine wakes each request 70 ms late: the milliseconds printed are the real ones, the
// decisions still the plan's, so the lesson's 5 of 3 at the boundary shows all the same (at load
// 14 the scene once read another window's count when the limiter was asked at the late instant).
func TestVentanaEnUnaMaquinaCargada(t *testing.T) {
	t.Parallel()
	r := prueba.NuevoReloj(time.Date(2026, 10, 21, 13, 19, 0, 0, time.UTC))
	tarde := func(ctx context.Context, d time.Duration) error { return r.Dormir(ctx, d+70*time.Millisecond) }
	var out bytes.Buffer
	if c := Ventana(context.Background(), entorno.Entorno{Out: &out, Err: &out, Ahora: r.Ahora, Dormir: tarde}, ""); c != 0 {
		t.Fatalf("código de salida %d:\n%s", c, out.String())
	}
	if !strings.Contains(out.String(), "rechazada: Retry-After 1") || strings.Count(out.String(), "permitida\n") != 6 ||
		!strings.HasSuffix(out.String(), ": 5\n") {
		t.Errorf("con 70 ms de retraso en cada pausa:\n%s", out.String())
	}
}
