package revisor

// Temporary: the old copy, frozen, against the shared code that replaced it (pkg/nodejs). Removed
// once the comparison has run; see the commit that deletes it.

import (
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
)

func busquedaVieja(r *http.Request) string {
	objetivo := r.RequestURI
	// The fragment ends the URL: a "?" after the first "#" belongs to the fragment.
	if j := strings.IndexByte(objetivo, '#'); j >= 0 {
		objetivo = objetivo[:j]
	}
	i := strings.IndexByte(objetivo, '?')
	if i < 0 {
		return ""
	}
	q := objetivo[i+1:]
	if q == "" {
		return ""
	}
	var b strings.Builder
	b.WriteByte('?')
	const hex = "0123456789ABCDEF"
	for k := 0; k < len(q); k++ {
		c := q[k]
		if c <= 0x20 || c >= 0x7f || c == '"' || c == '#' || c == '<' || c == '>' || c == '\'' {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&0xf])
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

func TestBusquedaComoLaVieja(t *testing.T) {
	t.Parallel()
	casos := []string{"/viejo/servicios/#?a#b", "/viejo/servicios?a=1#f?b", "/v?", "/v?#x", "/x#", "/x??a", `/x?<x>'"`, "/x?`{}|\\^",
		"/viejo/servicios?x=1", "/viejo/servicios/1?a=\"b'c", "/viejo/servicios?"}
	rnd := rand.New(rand.NewPCG(15, 4))
	for range 100_000 {
		casos = append(casos, aleatorio(rnd))
	}
	for _, c := range casos {
		comparar(t, c)
	}
}

func comparar(t *testing.T, objetivo string) {
	r := &http.Request{RequestURI: objetivo}
	if got, want := busqueda(r), busquedaVieja(r); got != want {
		t.Fatalf("busqueda(%q) = %q, la vieja daba %q", objetivo, got, want)
	}
}

func FuzzBusquedaComoLaVieja(f *testing.F) {
	f.Add("/v?a b#c?d")
	f.Fuzz(comparar)
}
