package rafaga

import (
	"bytes"
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"cursohttp/internal/prueba"
	"cursohttp/pkg/limitador"
	"cursohttp/pkg/ordenes/entorno"
	"cursohttp/pkg/revisor"
)

// revisor rafaga 10 against a fresh revisor with --cabeceras-ratelimit: 429s without pacing, none
// with it, for each algorithm. The revisor and the client share a fake clock, so the minutes of
// pacing take no real time; the checks it accepts never run (they would go out to the network).
func TestRafagaContraUnRevisorRecienArrancado(t *testing.T) {
	t.Parallel()
	casos := []struct {
		algoritmo string
		cabeceras bool
		salida    string
	}{
		{limitador.AlgoritmoVentana, true, "sin mirar las cabeceras (escritura-b): 202 202 202 429 429 429 429 429 429 429\n" +
			"  7 con 429 de 10, en 0 ms\n" +
			"marcando el ritmo (escritura-a): 202 202 202 202 202 202 202 202 202 202\n" +
			"  0 con 429 de 10, en 180000 ms\n"},
		{limitador.AlgoritmoDeslizante, true, "sin mirar las cabeceras (escritura-b): 202 202 202 429 429 429 429 429 429 429\n" +
			"  7 con 429 de 10, en 0 ms\n" +
			"marcando el ritmo (escritura-a): 202 202 202 202 202 202 202 202 202 202\n" +
			"  0 con 429 de 10, en 180000 ms\n"},
		{limitador.AlgoritmoCubeta, true, "sin mirar las cabeceras (escritura-b): 202 202 429 429 429 429 429 429 429 429\n" +
			"  8 con 429 de 10, en 0 ms\n" +
			"marcando el ritmo (escritura-a): 202 202 202 202 202 202 202 202 202 202\n" +
			"  0 con 429 de 10, en 240000 ms\n"},
		// The course's revisor, without the option: the paced client learns only from each 429.
		{limitador.AlgoritmoVentana, false, "sin mirar las cabeceras (escritura-b): 202 202 202 429 429 429 429 429 429 429\n" +
			"  7 con 429 de 10, en 0 ms\n" +
			"marcando el ritmo (escritura-a): 202 202 202 429 202 202 202 429 202 202\n" +
			"  2 con 429 de 10, en 120000 ms\n"},
	}
	for _, c := range casos {
		nombre := c.algoritmo
		if !c.cabeceras {
			nombre += " sin cabeceras"
		}
		t.Run(nombre, func(t *testing.T) {
			t.Parallel()
			reloj := prueba.NuevoReloj(time.Date(2026, 10, 21, 13, 19, 9, 0, time.UTC))
			algoritmo, err := limitador.FabricaDe(c.algoritmo)
			if err != nil {
				t.Fatal(err)
			}
			rv := revisor.Nuevo(revisor.Opciones{
				Limitador: algoritmo, CabecerasRateLimit: c.cabeceras,
				Reloj: reloj.Ahora, EsperaEnCola: time.Hour,
			})
			ts := httptest.NewServer(rv)
			t.Cleanup(func() { ts.Close(); rv.Cerrar() })
			var out bytes.Buffer
			e := entorno.Entorno{
				Revisor: ts.URL, Cliente: entorno.NuevoCliente(), Out: &out, Err: &out,
				Ahora: reloj.Ahora, Dormir: reloj.Dormir, Azar: func() float64 { return 0 },
			}
			if codigo := Rafaga(context.Background(), e, OpcionesRafaga{N: 10}); codigo != 0 {
				t.Fatalf("código de salida %d:\n%s", codigo, out.String())
			}
			if got := out.String(); got != c.salida {
				t.Errorf("salida:\n%s\nquiero:\n%s", got, c.salida)
			}
		})
	}
}
