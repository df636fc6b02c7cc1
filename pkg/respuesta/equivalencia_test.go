package respuesta

// Temporary: the old copy, frozen, against the shared code that replaced it (pkg/nodejs). Removed
// once the comparison has run; see the commit that deletes it.

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func rutaDeVieja(objetivo string) string {
	if i := strings.IndexAny(objetivo, "?#"); i >= 0 {
		objetivo = objetivo[:i]
	}
	switch {
	case len(objetivo) >= 2 && objetivo[0] == '/' && (objetivo[1] == '/' || objetivo[1] == '\\'):
		// "//host/x" is a scheme-relative URL to a parser: what follows the slashes is a host.
		objetivo = sinHost(strings.TrimLeft(objetivo, "/\\"))
	case !strings.HasPrefix(objetivo, "/") && strings.Contains(objetivo, "://"):
		// absolute-form ("GET http://host/x HTTP/1.1"): keep only the path.
		_, resto, _ := strings.Cut(objetivo, "://")
		objetivo = sinHost(resto)
	}
	objetivo = strings.ReplaceAll(objetivo, "\\", "/")
	if !strings.HasPrefix(objetivo, "/") {
		objetivo = "/" + objetivo
	}
	partes := strings.Split(objetivo[1:], "/")
	salida := make([]string, 0, len(partes))
	for i, p := range partes {
		ultimo := i == len(partes)-1
		switch strings.ToLower(p) {
		case ".", "%2e":
			if ultimo {
				salida = append(salida, "")
			}
		case "..", ".%2e", "%2e.", "%2e%2e":
			if len(salida) > 0 {
				salida = salida[:len(salida)-1]
			}
			if ultimo {
				salida = append(salida, "")
			}
		default:
			salida = append(salida, codificarVieja(p))
		}
	}
	return "/" + strings.Join(salida, "/")
}

const hexMayusVieja = "0123456789ABCDEF"

// codificar percent-encodes the bytes of the WHATWG path percent-encode set.
func codificarVieja(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= 0x20 || c >= 0x7f || strings.IndexByte("\"#<>?`{}", c) >= 0 {
			b.WriteByte('%')
			b.WriteByte(hexMayusVieja[c>>4])
			b.WriteByte(hexMayusVieja[c&0xf])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// trozos are the pieces the seeded comparison strings are made of: every byte class the old code
// treated apart (separators, dots and their escapes, each set's members, controls, invalid UTF-8).
var trozos = []string{"/", "\\", ".", "..", "%2e", "%2E", "%", "%zz", "%41", "?", "#", "a", "B", "é", "\x00", "\x1f",
	"\x7f", "\xff", "\xed\xa0\x80", " ", "\"", "<", ">", "'", "`", "{", "}", "|", "^", "//", "://", "http://h", "*",
	":", "@", "[", "]", "~", "+", "&", "=", "-", "_", "!", "(", ")"}

func aleatorio(r *rand.Rand) string {
	var b strings.Builder
	for n := r.IntN(14); n > 0; n-- {
		b.WriteString(trozos[r.IntN(len(trozos))])
	}
	return b.String()
}

func TestRutaDeComoLaVieja(t *testing.T) {
	t.Parallel()
	casos := []string{"/servicios", "/servicios/1?x=1", "/a/../servicios", "/a/%2e%2E/servicios", "/servicios/./1", "/servicios/1/..", "/a\\b", "/a b", "/%31", "/ñ", "/x{y}", "http://h:1/servicios?q", "/../../servicios", "/servicios//1", "/v0/", "/servicios/1#fragmento", "/servicios/%2F1", "/api/servicios/1?orden=id", "//host/servicios", "/\\host/servicios", "//host", "", "*", "/codigo/200", "//x/y", "/\\", "http://a", "/a/../../b", "?", "/%2e%2E/x", "//"}
	r := rand.New(rand.NewPCG(15, 1))
	for range 100_000 {
		casos = append(casos, aleatorio(r))
	}
	for _, c := range casos {
		if got, want := RutaDe(c), rutaDeVieja(c); got != want {
			t.Fatalf("RutaDe(%q) = %q, la vieja daba %q", c, got, want)
		}
	}
}

func FuzzRutaDeComoLaVieja(f *testing.F) {
	f.Add("/a/%2e%2E/b\\c?d#e")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := RutaDe(s), rutaDeVieja(s); got != want {
			t.Fatalf("RutaDe(%q) = %q, la vieja daba %q", s, got, want)
		}
	})
}
