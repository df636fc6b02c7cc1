package bitacora

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"cursohttp/internal/prueba"
	"cursohttp/pkg/traza"
)

func TestLaBitacoraEnTerminalMuestraSoloLaLinea(t *testing.T) {
	t.Parallel()
	var out, errOut prueba.Buffer
	log := NuevoLogger(&out, &errOut, false)
	h := Registrar(log, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.Error().Str("referencia", "x").Msg("error x en GET /a?b=1: falla\n    at algo")
	}))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/a?b=1", nil))
	if got := out.String(); got != "GET /a?b=1\n" {
		t.Errorf("stdout = %q", got)
	}
	if got := errOut.String(); got != "error x en GET /a?b=1: falla\n    at algo\n" {
		t.Errorf("stderr = %q", got)
	}
}

func TestLaBitacoraJSON(t *testing.T) {
	t.Parallel()
	var out, errOut prueba.Buffer
	log := NuevoLogger(&out, &errOut, true)
	log.Info().Str("metodo", "GET").Msg("GET /x")
	if !strings.Contains(out.String(), `"metodo":"GET"`) || !strings.Contains(out.String(), `"message":"GET /x"`) {
		t.Errorf("json = %q", out.String())
	}
}

// The terminal log prints each message exactly, whatever JSON escaping zerolog needed for it.
func TestSoloMensajeDevuelveElTextoExacto(t *testing.T) {
	t.Parallel()
	for _, msg := range []string{
		"GET /servicios/1",
		`POST /a?b="c"`,
		`GET /a\b`,
		"error\n    at algo\ttab",
		"ñandú → ☃ 😀",
		"\u2028\u2029<>&",
		"control \x01\x1f",
		"revisor en http://127.0.0.1:18080",
	} {
		var out, errOut prueba.Buffer
		log := NuevoLogger(&out, &errOut, false)
		log.Info().Str("metodo", "GET").Str("url", "/x").Msg(msg)
		if got := out.String(); got != msg+"\n" {
			t.Errorf("Msg(%q) escribió %q", msg, got)
		}
	}
}

// Invalid UTF-8 reaches the terminal as U+FFFD, as zerolog encodes it; never as broken JSON.
func TestSoloMensajeConUTF8Invalido(t *testing.T) {
	t.Parallel()
	var out, errOut prueba.Buffer
	log := NuevoLogger(&out, &errOut, false)
	log.Info().Msg("GET /\xff")
	if got := out.String(); got != "GET /\ufffd\n" {
		t.Errorf("escribió %q", got)
	}
}

func FuzzSoloMensaje(f *testing.F) {
	for _, s := range []string{"GET /", `a"b`, `a\b`, "a\nb", "\xff", "}", `"message":"x"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		if msg == "" {
			t.Skip("zerolog writes no message field for an empty message")
		}
		var out, errOut prueba.Buffer
		log := NuevoLogger(&out, &errOut, false)
		log.Info().Str("url", msg).Msg(msg)
		got := out.String()
		if !strings.HasSuffix(got, "\n") || strings.Count(got, "\n") != strings.Count(msg, "\n")+1 {
			t.Fatalf("Msg(%q) escribió %q", msg, got)
		}
		if want := string([]rune(msg)) + "\n"; got != want { // one U+FFFD per invalid byte, like zerolog
			t.Fatalf("Msg(%q) escribió %q, se esperaba %q", msg, got, want)
		}
	})
}

// BenchmarkRegistrar is the per-request log line in a terminal, without the write itself.
func BenchmarkRegistrar(b *testing.B) {
	log := NuevoLogger(io.Discard, io.Discard, false)
	h := Registrar(log, http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	r, _ := http.NewRequest("GET", "/servicios/1", nil)
	r.RequestURI = "/servicios/1"
	r.RemoteAddr = "127.0.0.1:54321"
	b.ReportAllocs()
	for b.Loop() {
		h.ServeHTTP(nil, r)
	}
}

// BenchmarkRegistrarJSON is the request line with --log-json: the trace and the time cost no
// allocation of their own.
func BenchmarkRegistrarJSON(b *testing.B) {
	log := NuevoLogger(io.Discard, io.Discard, true)
	h := Registrar(log, http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	r, _ := http.NewRequest("GET", "/servicios/1", nil)
	r.RequestURI = "/servicios/1"
	r.RemoteAddr = "127.0.0.1:54321"
	tc := traza.Nueva()
	r = r.WithContext(traza.EnContexto(r.Context(), &tc))
	b.ReportAllocs()
	for b.Loop() {
		h.ServeHTTP(nil, r)
	}
}
