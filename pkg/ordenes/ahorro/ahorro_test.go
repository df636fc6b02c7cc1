package ahorro

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"cursohttp/internal/prueba/ordenestest"
)

// S7 of lesson 7, verbatim [lesson L658-L671].
const salidaAhorro = `código  sin tabla  con tabla
400             3          1
401             3          1
403             3          1
404             3          1
409             3          1
410             3          1
422             3          1
429             3          1
500             3          1
502             3          3
503             3          1
total          33         13
`

func TestAhorroContraElLaboratorio(t *testing.T) {
	t.Parallel()
	lab, registro := ordenestest.Laboratorio(t)
	var out bytes.Buffer
	e := ordenestest.Entorno(&out)
	e.Laboratorio = lab
	var mu sync.Mutex
	var esperas []time.Duration
	e.Dormir = func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		esperas = append(esperas, d)
		mu.Unlock()
		return nil
	}
	if c := Ahorro(context.Background(), e); c != 0 {
		t.Fatalf("código de salida %d:\n%s", c, out.String())
	}
	ordenestest.CompararLineas(t, out.String(), salidaAhorro)

	// Count twice with different methods: the laboratory's log agrees, 46 = 33 + 13, in order.
	var esperado strings.Builder
	fmt.Fprintln(&esperado, "")
	for _, c := range codigosAhorro {
		n := 4
		if c == 502 {
			n = 6
		}
		for range n {
			fmt.Fprintf(&esperado, "GET /codigo/%d\n", c)
		}
	}
	if got := "\n" + registro.String(); got != esperado.String() {
		t.Errorf("registro del laboratorio:\n%s\nse esperaba:\n%s", got, esperado.String())
	}
	// The naive client waits after every failed attempt but the last (11 codes × 2), the table client
	// only for 502 (2 waits): never Retry-After's 30 or 120 s, and every jitter draw within its ceiling.
	if len(esperas) != 24 {
		t.Errorf("%d esperas, se esperaban 24", len(esperas))
	}
	for _, d := range esperas {
		if d < 0 || d > time.Second {
			t.Errorf("espera %v fuera de [0, 1 s]", d)
		}
	}
}

// What each command line becomes, seen through runF without running the program.
func TestLineasDeOrdenes(t *testing.T) {
	t.Parallel()
	ordenestest.Lineas(t, []ordenestest.Linea{
		{Construir: ordenestest.SoloEntorno(NuevoCmd), Anotado: `revisor="" laboratorio="http://127.0.0.1:18081"`},
	})
}
