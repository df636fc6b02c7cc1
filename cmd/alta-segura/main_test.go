package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"cursohttp/internal/prueba"
	"cursohttp/pkg/cli"
	"cursohttp/pkg/reintento"
	"cursohttp/pkg/token"
)

// conEntorno is the program with entorno as its environment.
func conEntorno(entorno map[string]string) prueba.Programa {
	leer := func(k string) (string, bool) { v, ok := entorno[k]; return v, ok }
	return func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
		return cli.Ejecutar(ctx, nuevaRaiz(stdout, stderr, leer), args, stdin, stdout, stderr)
	}
}

// correr runs the program in-process with entorno as its environment.
func correr(t *testing.T, entorno map[string]string, args ...string) (int, string, string) {
	t.Helper()
	return prueba.Correr(t, conEntorno(entorno), args...)
}

func TestUsoIncorrecto(t *testing.T) {
	t.Parallel()
	const uso = "uso: alta-segura <nombre> <url> [--sin-llave]\n"
	prueba.UsosIncorrectos(t, conEntorno(nil), map[string]string{
		"":                                     uso,
		"agenda":                               uso,
		"--sin-llave agenda":                   uso,
		"agenda --pasarela http://127.0.0.1:1": uso,
		"a b c":                                "alta-segura: sobra «c»; «alta-segura --help» muestra cómo se usa\n",
		"a b --x":                              "alta-segura: no existe la opción --x; «alta-segura --help» muestra las opciones\n",
		"a b --pasarela":                       "alta-segura: la opción --pasarela necesita un valor; «alta-segura --help» muestra las opciones\n",
		"a b --sin-llave=quizá":                "alta-segura: la opción --sin-llave espera true o false, no «quizá»; «alta-segura --help» muestra las opciones\n",
		"a b --pasarela 127.0.0.1:18082":       "alta-segura: --pasarela debe ser una dirección http, no «127.0.0.1:18082»\n",
		"help":                                 uso,
		"a b --defecto rota":                   "alta-segura: --defecto: «alta-segura» no tiene la versión rota «rota»; las que hay: llave-por-intento\n",
		"--defecto llave-por-intento agenda":   uso,
		"a b --simular=":                       "alta-segura: --simular necesita un valor para X-Simular\n",
		"a b --panel 127.0.0.1:18084":          "alta-segura: --panel debe ser una dirección http, no «127.0.0.1:18084»\n",
		"a b --log-json=tal":                   "alta-segura: la opción --log-json espera true o false, no «tal»; «alta-segura --help» muestra las opciones\n",
	})
}

func TestAyuda(t *testing.T) {
	t.Parallel()
	prueba.Ayudas(t, conEntorno(nil), nuevaRaiz(io.Discard, io.Discard, nil), "Idempotency-Key", "http://127.0.0.1:18082",
		"ALTA_LIMITE_MS", "Ctrl+C", "Ejemplos:\n", "Uso:\n  alta-segura <nombre> <url> [opciones]\n", "--sin-llave  ",
		"--pasarela TEXTO", "(si no se dice: http://127.0.0.1:18082)", "(si no se dice: escritura-a)", "muestra esta ayuda",
		"--defecto llave-por-intento  lección 6, la llave que cambia en cada intento, serie K")
}

// The help's numbers and rule come from the policy: with the course's, the course's sentences; with
// another, other numbers in the same sentences.
func TestAyudaSaleDeLaPolitica(t *testing.T) {
	t.Parallel()
	_, out, _ := correr(t, nil, "--help")
	for _, s := range []string{
		"lo reintenta: hasta 4 intentos, con\nesperas sorteadas (jitter) de hasta 500, 1000 y 2000 ms.",
		"Reintenta sin respuesta, 502, 503, 504 y el 409 de «llave en curso»; cualquier otro código es\ndefinitivo.",
		"Obedece Retry-After hasta 5 s;", "Cada intento\nespera su respuesta 2000 ms;",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("la ayuda no dice %q:\n%s", s, out)
		}
	}
	otra := reintento.PoliticaRevision()
	otra.TopeRetryAfter = 9 * time.Second
	texto := descripcion(otra)
	for _, s := range []string{"hasta 3 intentos", "de hasta 500 y 1000 ms.", "Reintenta sin respuesta, 429, 502, 503 y 504;", "Retry-After hasta 9 s;"} {
		if !strings.Contains(texto, s) {
			t.Errorf("con otra política la ayuda no dice %q:\n%s", s, texto)
		}
	}
}

// pasarelaDePrueba answers each POST with the next of respuestas (the last one repeats) and
// records whether each carried an Idempotency-Key.
func pasarelaDePrueba(t *testing.T, respuestas ...func(http.ResponseWriter)) (*httptest.Server, *atomic.Int32, chan string) {
	t.Helper()
	var manejadores []http.HandlerFunc
	for _, r := range respuestas {
		manejadores = append(manejadores, func(w http.ResponseWriter, _ *http.Request) { r(w) })
	}
	return pasarelaConPeticion(t, manejadores...)
}

// pasarelaConPeticion is pasarelaDePrueba with answers that see the request.
func pasarelaConPeticion(t *testing.T, respuestas ...http.HandlerFunc) (*httptest.Server, *atomic.Int32, chan string) {
	t.Helper()
	var n atomic.Int32
	llaves := make(chan string, 10)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(n.Add(1)) - 1
		llaves <- r.Header.Get("Idempotency-Key")
		io.Copy(io.Discard, r.Body)
		respuestas[min(i, len(respuestas)-1)](w, r)
	}))
	t.Cleanup(ts.Close)
	return ts, &n, llaves
}

func creado(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(201)
	io.WriteString(w, `{"id":7}`)
}

// TestAltaConSinLlave: exit 0 once made; --sin-llave anywhere on the line sends no key.
func TestAltaConSinLlave(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"agenda", "http://127.0.0.1:18081/codigo/200"},
		{"--sin-llave", "agenda", "http://127.0.0.1:18081/codigo/200"},
		{"agenda", "--sin-llave", "http://127.0.0.1:18081/codigo/200"},
		{"agenda", "http://127.0.0.1:18081/codigo/200", "--sin-llave"},
	} {
		ts, _, llaves := pasarelaDePrueba(t, creado)
		codigo, out, errOut := correr(t, nil, append(args, "--pasarela", ts.URL)...)
		if codigo != cli.SalidaBien || errOut != "" || out != "intento 1: 201 {\"id\":7}\n" {
			t.Errorf("%v: salida %d, stdout %q, stderr %q", args, codigo, out, errOut)
		}
		sinLlave := strings.Contains(strings.Join(args, " "), "--sin-llave")
		if llave := <-llaves; (llave == "") != sinLlave {
			t.Errorf("%v: Idempotency-Key %q", args, llave)
		}
	}
}

// TestRechazadoSaleConUno: a 4xx is not retried and the exit code is 1.
func TestRechazadoSaleConUno(t *testing.T) {
	t.Parallel()
	ts, n, _ := pasarelaDePrueba(t, func(w http.ResponseWriter) {
		w.WriteHeader(422)
		io.WriteString(w, `{"status":422}`)
	})
	codigo, out, _ := correr(t, nil, "invalida", "ftp://archivos", "--pasarela", ts.URL)
	if want := "intento 1: 422 {\"status\":422}\nel servidor respondió 422: repetir lo mismo no lo arregla\n"; codigo != cli.SalidaFallo || out != want || n.Load() != 1 {
		t.Errorf("salida %d, %d peticiones, stdout %q", codigo, n.Load(), out)
	}
}

// TestLimiteDeEntorno: ALTA_LIMITE_MS bounds each attempt; a nonsense value keeps the 2000 ms.
func TestLimiteDeEntorno(t *testing.T) {
	t.Parallel()
	// The first attempt gets no answer at all (the gateway holds it until the client leaves), so
	// only the limit can end it; the second is answered at once, well within a limit that a loaded
	// machine's scheduling cannot eat (50 ms could, at a load of 10).
	muda := func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }
	ts, _, _ := pasarelaConPeticion(t, muda, func(w http.ResponseWriter, _ *http.Request) { creado(w) })
	codigo, out, _ := correr(t, map[string]string{"ALTA_LIMITE_MS": "1000"}, "muda", "http://x", "--pasarela", ts.URL)
	if !strings.HasPrefix(out, "intento 1: sin respuesta (tiempo agotado: 1000 ms)\n") || !strings.HasSuffix(out, "intento 2: 201 {\"id\":7}\n") || codigo != 0 {
		t.Errorf("ALTA_LIMITE_MS=1000: salida %d:\n%s", codigo, out)
	}
	lenta := func(w http.ResponseWriter) {
		// Time is under test: an answer 300 ms late is within the 2000 ms that a nonsense value keeps.
		time.Sleep(300 * time.Millisecond)
		creado(w)
	}
	ts, _, _ = pasarelaDePrueba(t, lenta, creado)
	codigo, out, _ = correr(t, map[string]string{"ALTA_LIMITE_MS": "abc"}, "paciente", "http://x", "--pasarela", ts.URL)
	if out != "intento 1: 201 {\"id\":7}\n" || codigo != 0 {
		t.Errorf("ALTA_LIMITE_MS=abc: salida %d:\n%s", codigo, out)
	}
}

// TestRunEnProceso: run reads the real environment and the real streams it is given.
func TestRunEnProceso(t *testing.T) {
	t.Parallel()
	var out, errOut bytes.Buffer
	if codigo := run(context.Background(), []string{"solo-nombre"}, nil, &out, &errOut); codigo != cli.SalidaUso ||
		out.Len() != 0 || errOut.String() != "uso: alta-segura <nombre> <url> [--sin-llave]\n" {
		t.Errorf("salida %d, stdout %q, stderr %q", codigo, out.String(), errOut.String())
	}
}

// TestPasarelaDeEntorno: PASARELA_URL names the gateway, as in the course's client (and as «revisor
// comprobar cliente --puertos-libres» sets it); --pasarela still wins; a bad one is a usage error.
func TestPasarelaDeEntorno(t *testing.T) {
	t.Parallel()
	ts, n, _ := pasarelaDePrueba(t, creado)
	entorno := map[string]string{VariablePasarela: ts.URL}
	codigo, out, errOut := correr(t, entorno, "agenda", "http://127.0.0.1:18081/codigo/200")
	if codigo != cli.SalidaBien || errOut != "" || out != "intento 1: 201 {\"id\":7}\n" || n.Load() != 1 {
		t.Errorf("salida %d, %d peticiones, stdout %q, stderr %q", codigo, n.Load(), out, errOut)
	}
	otra, m, _ := pasarelaDePrueba(t, creado)
	if codigo, _, errOut := correr(t, entorno, "agenda", "http://127.0.0.1:18081/codigo/200", "--pasarela", otra.URL); codigo != cli.SalidaBien || m.Load() != 1 || n.Load() != 1 {
		t.Errorf("--pasarela con PASARELA_URL: salida %d, stderr %q, %d y %d peticiones", codigo, errOut, m.Load(), n.Load())
	}
	codigo, out, errOut = correr(t, map[string]string{VariablePasarela: "127.0.0.1:18082"}, "agenda", "http://127.0.0.1:18081/codigo/200")
	if want := "alta-segura: PASARELA_URL debe ser una dirección http, no «127.0.0.1:18082»\n"; codigo != cli.SalidaUso || out != "" || errOut != want {
		t.Errorf("PASARELA_URL mala: salida %d, stdout %q, stderr %q", codigo, out, errOut)
	}
}

// TestTokenDelLab: with --panel the token comes from --token, else CURSOHTTP_TOKEN, else the file
// make lab-up wrote, as the lab's servers get it; without any, alta-segura says so.
func TestTokenDelLab(t *testing.T) {
	t.Parallel()
	archivo := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(archivo, []byte("del-archivo\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	casos := []struct {
		entorno map[string]string
		archivo string
		want    string
	}{
		{map[string]string{"CURSOHTTP_TOKEN": "del-entorno"}, archivo, "del-entorno"},
		{nil, archivo, "del-archivo"},
		{map[string]string{}, filepath.Join(t.TempDir(), "no-esta"), ""},
	}
	for _, c := range casos {
		leer := func(k string) (string, bool) { v, ok := c.entorno[k]; return v, ok }
		if c.entorno == nil {
			leer = nil
		}
		if got, err := token.Buscar("", "", conTokenDelLab(leer, c.archivo)); err != nil || got != c.want {
			t.Errorf("%v, %s: token %q, se esperaba %q", c.entorno, c.archivo, got, c.want)
		}
		if v, ok := conTokenDelLab(leer, c.archivo)("ALTA_LIMITE_MS"); ok || v != "" {
			t.Errorf("otra variable: %q %v", v, ok)
		}
	}
	// No token anywhere: one line says the panel will refuse the events.
	panel := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusUnauthorized) }))
	defer panel.Close()
	ts, _, _ := pasarelaDePrueba(t, creado)
	_, _, errOut := correr(t, map[string]string{}, "agenda", "http://127.0.0.1:18081/codigo/200", "--pasarela", ts.URL, "--panel", panel.URL)
	if !strings.HasPrefix(errOut, "alta-segura: no tengo el token del laboratorio (--token-archivo, --token, CURSOHTTP_TOKEN, CURSOHTTP_TOKEN_ARCHIVO o lab/token, que escribe «make lab-up»)") {
		t.Errorf("stderr %q", errOut)
	}
}
