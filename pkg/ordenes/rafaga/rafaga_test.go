package rafaga

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"cursohttp/internal/prueba"
	"cursohttp/internal/prueba/ordenestest"
	"cursohttp/pkg/cli"
	"cursohttp/pkg/limitador"
	"cursohttp/pkg/ordenes/entorno"
)

// ejecutar runs `revisor rafaga …` as the revisor binary does.
func ejecutar(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	return ordenestest.Ejecutar(t, func(f *entorno.Fabrica) *cobra.Command { return NuevoCmd(f, nil) }, args...)
}

// revisorDeRafaga answers POST /servicios/{id}/revisiones as the revisor's limited route does: the
// limit per credential first, then 202. With cabeceras it announces the policy as
// --cabeceras-ratelimit does. It stands in for pkg/revisor so the pacing logic is tested alone.
func revisorDeRafaga(t *testing.T, lim limitador.Limitador, reloj *prueba.Reloj, cabeceras bool) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("POST /servicios/{id}/revisiones", func(w http.ResponseWriter, r *http.Request) {
		credencial := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		v := lim.Permitir("revisiones:"+credencial, reloj.Ahora())
		if cabeceras {
			w.Header().Set("RateLimit-Policy", limitador.ValorRateLimitPolicy("revisiones", lim.Politica()))
			w.Header().Set("RateLimit", limitador.ValorRateLimit("revisiones", v))
		}
		if !v.Permitido {
			w.Header().Set("Retry-After", strconv.FormatInt(v.RetryAfter, 10))
			http.Error(w, "ya pediste 3 revisiones en el último minuto", http.StatusTooManyRequests)
			return
		}
		w.WriteHeader(http.StatusAccepted)
	})
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return ts.URL
}

func TestRafaga(t *testing.T) {
	t.Parallel()
	const sinRitmo = "sin mirar las cabeceras (escritura-b): 202 202 202 429 429 429 429 429 429 429\n" +
		"  7 con 429 de 10, en 0 ms\n"
	casos := []struct {
		nombre    string
		algoritmo string
		cabeceras bool
		tope      time.Duration
		conRitmo  string
	}{
		// 3 per window and a whole window's wait after each third: three waits of 60 s.
		{"ventana", limitador.AlgoritmoVentana, true, 0,
			"marcando el ritmo (escritura-a): 202 202 202 202 202 202 202 202 202 202\n" +
				"  0 con 429 de 10, en 180000 ms\n"},
		{"deslizante", limitador.AlgoritmoDeslizante, true, 0,
			"marcando el ritmo (escritura-a): 202 202 202 202 202 202 202 202 202 202\n" +
				"  0 con 429 de 10, en 180000 ms\n"},
		// A burst of 2, then one token every 30 s: eight waits of 30 s.
		{"cubeta", limitador.AlgoritmoCubeta, true, 0,
			"marcando el ritmo (escritura-a): 202 202 202 202 202 202 202 202 202 202\n" +
				"  0 con 429 de 10, en 240000 ms\n"},
		// Without the headers (the course's revisor) the paced client learns only from each 429.
		{"sin cabeceras", limitador.AlgoritmoVentana, false, 0,
			"marcando el ritmo (escritura-a): 202 202 202 429 202 202 202 429 202 202\n" +
				"  2 con 429 de 10, en 120000 ms\n"},
		// With the course's 5 s cap the paced client stops rather than go early into a 429.
		{"tope corto", limitador.AlgoritmoVentana, true, 5 * time.Second,
			"marcando el ritmo (escritura-a): 202 202 202\n" +
				"  0 con 429 de 3, en 0 ms\n" +
				"  se detiene: el servidor pide esperar 60 s y el tope es 5 s\n"},
	}
	for _, c := range casos {
		t.Run(c.nombre, func(t *testing.T) {
			t.Parallel()
			reloj := prueba.NuevoReloj(time.Date(2026, 10, 21, 13, 19, 9, 0, time.UTC))
			lim, err := limitador.Nuevo(c.algoritmo, 3, time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			e := entorno.Entorno{
				Revisor: revisorDeRafaga(t, lim, reloj, c.cabeceras),
				Cliente: entorno.NuevoCliente(), Out: &out, Err: &out,
				Ahora: reloj.Ahora, Dormir: reloj.Dormir, Azar: func() float64 { return 0 },
			}
			if codigo := Rafaga(context.Background(), e, OpcionesRafaga{Tope: c.tope}); codigo != 0 {
				t.Fatalf("código de salida %d:\n%s", codigo, out.String())
			}
			want := sinRitmo + c.conRitmo
			if c.algoritmo == limitador.AlgoritmoCubeta { // its burst is 2 of the 3
				want = strings.Replace(want, "202 202 202 429", "202 202 429 429", 1)
				want = strings.Replace(want, "7 con 429", "8 con 429", 1)
			}
			if got := out.String(); got != want {
				t.Errorf("salida:\n%s\nquiero:\n%s", got, want)
			}
		})
	}
}

func TestRafagaSinRevisor(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(http.NotFoundHandler())
	url := ts.URL
	ts.Close() // nobody listens there any more
	var out, errOut bytes.Buffer
	e := entorno.Entorno{Revisor: url, Cliente: entorno.NuevoCliente(), Out: &out, Err: &errOut}
	if codigo := Rafaga(context.Background(), e, OpcionesRafaga{N: 2}); codigo != 1 {
		t.Errorf("código de salida %d", codigo)
	}
	if !strings.HasPrefix(errOut.String(), "rafaga: ") {
		t.Errorf("stderr %q", errOut.String())
	}
}

// A count or a run that cannot be read is a usage error: one line, exit code 2, nothing sent.
func TestComandoRafaga(t *testing.T) {
	t.Parallel()
	casos := []struct {
		args   []string
		stderr string
	}{
		{[]string{"cero"}, "rafaga: N debe ser un entero positivo, no «cero»\n"},
		{[]string{"0"}, "rafaga: N debe ser un entero positivo, no «0»\n"},
		{[]string{"--sin-ritmo", "escritura-b"}, "rafaga: se esperaba credencial:servicio (p. ej. escritura-a:1), no «escritura-b»\n"},
		{[]string{"--con-ritmo", "escritura-a:x"}, "rafaga: se esperaba credencial:servicio (p. ej. escritura-a:1), no «escritura-a:x»\n"},
	}
	for _, c := range casos {
		out, errOut, codigo := ejecutar(t, append([]string{"rafaga", "--revisor", "http://127.0.0.1:1"}, c.args...)...)
		if codigo != cli.SalidaUso || out != "" || errOut != c.stderr {
			t.Errorf("%v: código %d, stdout %q, stderr %q", c.args, codigo, out, errOut)
		}
	}
}

func TestComandoRafagaContraUnRevisor(t *testing.T) {
	t.Parallel()
	reloj := prueba.NuevoReloj(time.Date(2026, 10, 21, 13, 19, 9, 0, time.UTC))
	url := revisorDeRafaga(t, limitador.NuevaVentanaFija(3, time.Minute), reloj, true)
	// A real clock: 3 of each run fit at once, and a 1 s cap stops the paced run at its fourth.
	out, errOut, codigo := ejecutar(t, "rafaga", "4", "--revisor", url+"/", "--sin-ritmo", "admin:2", "--tope", "1s")
	want := "sin mirar las cabeceras (admin): 202 202 202 429\n" +
		"  1 con 429 de 4, en "
	if codigo != 0 || !strings.HasPrefix(out, want) || !strings.Contains(out, "marcando el ritmo (escritura-a): 202 202 202\n") ||
		!strings.HasSuffix(out, "  se detiene: el servidor pide esperar 60 s y el tope es 1 s\n") {
		t.Errorf("código %d, salida:\n%s%s", codigo, out, errOut)
	}
}

// What each command line becomes, seen through runF without running the program.
func TestLineasDeOrdenes(t *testing.T) {
	t.Parallel()
	rafaga := func(f *entorno.Fabrica, a ordenestest.Anotar) *cobra.Command {
		return NuevoCmd(f, func(_ context.Context, e entorno.Entorno, o OpcionesRafaga) int {
			a(fmt.Sprintf("%s %+v", ordenestest.Bases(e), o))
			return 0
		})
	}
	ordenestest.Lineas(t, []ordenestest.Linea{
		{Construir: rafaga, Anotado: `revisor="http://127.0.0.1:18080" laboratorio="" {N:0 SinRitmo:{Credencial:escritura-b Servicio:3} ConRitmo:{Credencial:escritura-a Servicio:1} Tope:1m5s}`},
		{Construir: rafaga, Linea: "4 --sin-ritmo admin:2 --tope 5s", Anotado: `revisor="http://127.0.0.1:18080" laboratorio="" {N:4 SinRitmo:{Credencial:admin Servicio:2} ConRitmo:{Credencial:escritura-a Servicio:1} Tope:5s}`},
		{Construir: rafaga, Linea: "-3", Codigo: cli.SalidaUso, Stderr: "rafaga: no existe la opción -3; «rafaga --help» muestra las opciones\n"},
		{Construir: rafaga, Linea: "x", Codigo: cli.SalidaUso, Stderr: "rafaga: N debe ser un entero positivo, no «x»\n"},
	})
}
