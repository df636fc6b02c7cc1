package programas

// Temporary: the old copy, frozen, against the shared code that replaced it (pkg/nodejs). Removed
// once the comparison has run; see the commit that deletes it.

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"cursohttp/pkg/nodejs"
)

func encodeURIComponentViejo(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || strings.IndexByte("-_.!~*'()", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
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

func TestEncodeURIComponentComoElViejo(t *testing.T) {
	t.Parallel()
	casos := []string{"https://revisor.example/problemas/llave-en-curso", "a b+c&d=e?f#g", "-_.!~*'()", "ñ—", "constructor",
		"https://otro.example/problemas/nuevo", "https://revisor.example/problemas/nombre-repetido"}
	r := rand.New(rand.NewPCG(15, 5))
	for range 100_000 {
		casos = append(casos, aleatorio(r))
	}
	for _, c := range casos {
		comparar(t, c)
	}
}

func comparar(t *testing.T, s string) {
	if got, want := nodejs.Escapar(s, nodejs.EnComponente), encodeURIComponentViejo(s); got != want {
		t.Fatalf("Escapar(%q, EnComponente) = %q, el viejo daba %q", s, got, want)
	}
}

func FuzzEncodeURIComponentComoElViejo(f *testing.F) {
	f.Add("a b/ñ%")
	f.Fuzz(comparar)
}
