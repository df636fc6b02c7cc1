package retryafter

import (
	"bytes"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // the lesson's zone on any machine

	"cursohttp/internal/prueba/ordenestest"
	"cursohttp/pkg/ordenes/entorno"
)

// Lesson 4 exercise 2 (Series L), at the lesson's moment and on its machine (UTC−6): the naive
// column as Date.parse left it, the revisor's as RFC 9110's grammar reads it.
func TestRetryAfterIngenuoComoLaLeccion(t *testing.T) {
	t.Parallel()
	mexico, err := time.LoadLocation("America/Mexico_City")
	if err != nil {
		t.Fatal(err)
	}
	ahora := time.Date(2026, 10, 21, 13, 19, 56, 300e6, time.UTC)
	reloj := func() time.Time { return ahora }
	var out bytes.Buffer
	if c := RetryAfterIngenuo(entorno.Entorno{Out: &out, Ahora: reloj}, mexico); c != 0 {
		t.Fatalf("código de salida %d", c)
	}
	ordenestest.CompararLineas(t, out.String(), `valor                                Date.parse  revisor
"120"                                       120      120
"1.5"                                         0     null
"-1"                                          0     null
"12 30"                                       0     null
"Xyz, 21 Oct 2026 10:00:00 GMT"               0     null
"Wed, 32 Oct 2026 10:00:00 GMT"            null     null
"Wed, 21 Oct 2026 13:20:57 GMT"              61       61
"Wednesday, 21-Oct-26 13:20:57 GMT"          61       61
"Wed Oct 21 13:20:57 2026"                21661       61
`)
	// On a machine in UTC the naive reader's mistake does not show: the worst kind of failure.
	out.Reset()
	RetryAfterIngenuo(entorno.Entorno{Out: &out, Ahora: reloj}, time.UTC)
	if !strings.HasSuffix(out.String(), "\"Wed Oct 21 13:20:57 2026\"                   61       61\n") {
		t.Errorf("en UTC:\n%s", out.String())
	}
}

func TestSegundosConDateParse(t *testing.T) {
	t.Parallel()
	ahora := time.Date(2026, 10, 21, 13, 19, 56, 0, time.UTC)
	for _, c := range []struct {
		valor string
		n     float64
		ok    bool
	}{
		{"120", 120, true}, {"0", 0, true}, {"007", 7, true}, {"99999999999999999999", 1e20, true},
		{"mañana", 0, false}, {"Wed, 21 Oct 2026 13:19:57 GMT", 1, true}, {"Wed, 21 Oct 2026 13:19:55 GMT", 0, true},
	} {
		n, ok := segundosConDateParse(c.valor, ahora, time.UTC)
		if ok != c.ok || (ok && n != c.n) {
			t.Errorf("%q: %v %v, se esperaba %v %v", c.valor, n, ok, c.n, c.ok)
		}
	}
}

// leccion-4 Series E, verbatim except the third line's date, which is the run's now + 90 s.
func TestRetryAfterComoElCurso(t *testing.T) {
	t.Parallel()
	ahora := time.Date(2026, 10, 21, 13, 19, 56, 300e6, time.UTC)
	var out bytes.Buffer
	if c := RetryAfter(entorno.Entorno{Out: &out, Ahora: func() time.Time { return ahora }}); c != 0 {
		t.Fatalf("código de salida %d", c)
	}
	esperado := `"120"                              → 120
"0"                                → 0
"Wed, 21 Oct 2026 13:21:26 GMT"    → 90
"Wed, 21 Oct 2015 07:28:00 GMT"    → 0
"mañana"                           → null: no dice cuánto esperar
(sin la cabecera)                  → null: no dice cuánto esperar
`
	ordenestest.CompararLineas(t, out.String(), esperado)
}

// What each command line becomes, seen through runF without running the program.
func TestLineasDeOrdenes(t *testing.T) {
	t.Parallel()
	ordenestest.Lineas(t, []ordenestest.Linea{
		{Construir: ordenestest.SoloEntorno(NuevoCmd), Anotado: `revisor="" laboratorio=""`},
	})
}
