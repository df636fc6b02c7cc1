package segundosdeespera

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"cursohttp/internal/prueba/ordenestest"
	"cursohttp/pkg/ordenes/entorno"
)

// Lesson 6's S-I32, verbatim: digits only; 1.5, -1 and «12 30» say nothing; the same date in
// asctime and IMF-fixdate is the same wait, whatever the machine's zone.
func TestComoLaLeccion(t *testing.T) {
	t.Parallel()
	ahora := time.Date(2026, 10, 21, 22, 9, 21, 500e6, time.UTC)
	var out bytes.Buffer
	c := SegundosDeEspera(context.Background(), entorno.Entorno{Out: &out, Ahora: func() time.Time { return ahora }}, Opciones{
		Valores: []string{"120", "1.5", "-1", "12 30"},
		Restar:  []string{"Fri Jan  1 00:00:00 2100", "Fri, 01 Jan 2100 00:00:00 GMT"},
	})
	if c != 0 {
		t.Fatalf("código %d", c)
	}
	ordenestest.CompararLineas(t, out.String(), `"120" -> 120
"1.5" -> null
"-1" -> null
"12 30" -> null
asctime menos IMF-fixdate (misma fecha): 0 s
`)
}

// Other values and dates: a date an hour ahead, a past one, RFC 850, and two different dates.
func TestOtrosValores(t *testing.T) {
	t.Parallel()
	ahora := time.Date(2026, 10, 21, 13, 0, 0, 0, time.UTC)
	var out bytes.Buffer
	SegundosDeEspera(context.Background(), entorno.Entorno{Out: &out, Ahora: func() time.Time { return ahora }}, Opciones{
		Valores: []string{"Wed, 21 Oct 2026 14:00:00 GMT", "Wed, 21 Oct 2015 07:28:00 GMT", "mañana", `"7"`},
		Restar:  []string{"Wednesday, 21-Oct-26 14:00:00 GMT", "Wed Oct 21 13:30:00 2026"},
	})
	ordenestest.CompararLineas(t, out.String(), `"Wed, 21 Oct 2026 14:00:00 GMT" -> 3600
"Wed, 21 Oct 2015 07:28:00 GMT" -> 0
"mañana" -> null
"\"7\"" -> null
RFC 850 menos asctime: 1800 s
`)
}

func TestUsoIncorrecto(t *testing.T) {
	t.Parallel()
	nuevo := func(f *entorno.Fabrica) *cobra.Command { return NuevoCmd(f, nil) }
	for _, q := range []struct {
		args  []string
		error string
	}{
		{[]string{"segundos-de-espera"}, "revisor segundos-de-espera: falta al menos un valor; «revisor segundos-de-espera --help» muestra cómo se usa\n"},
		{[]string{"segundos-de-espera", "1", "--restar", "x", "--restar", "y"}, "revisor segundos-de-espera: --restar: «x» no es una fecha HTTP (IMF-fixdate, RFC 850 o asctime)\n"},
		{[]string{"segundos-de-espera", "1", "--restar", "Fri, 01 Jan 2100 00:00:00 GMT"}, "revisor segundos-de-espera: --restar va dos veces, una por fecha, no 1\n"},
		{[]string{"segundos-de-espera", "1", "--restar"}, "revisor segundos-de-espera: la opción --restar necesita un valor; «revisor segundos-de-espera --help» muestra las opciones\n"},
		{[]string{"segundos-de-espera", "--x"}, "revisor segundos-de-espera: no existe la opción --x; «revisor segundos-de-espera --help» muestra las opciones\n"},
	} {
		out, errOut, c := ordenestest.Ejecutar(t, nuevo, q.args...)
		if c != 2 || out != "" || errOut != q.error {
			t.Errorf("%q: código %d, salida %q, error %q; quiere 2 y %q", q.args, c, out, errOut, q.error)
		}
	}
	// Through the command line, as the scene types it.
	out, _, c := ordenestest.Ejecutar(t, nuevo, "segundos-de-espera", "120", "-1", "--restar=Fri, 01 Jan 2100 00:00:00 GMT", "--restar", "Fri, 01 Jan 2100 00:00:00 GMT", "--", "--x")
	if c != 0 || out != "\"120\" -> 120\n\"-1\" -> null\n\"--x\" -> null\nIMF-fixdate menos IMF-fixdate (misma fecha): 0 s\n" {
		t.Errorf("código %d, salida %q", c, out)
	}
}
