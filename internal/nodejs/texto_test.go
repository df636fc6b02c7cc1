package nodejs

import (
	"strings"
	"testing"
)

func TestTextoComoResponseText(t *testing.T) {
	t.Parallel()
	casos := []struct{ entrada, quiere string }{
		{"hola", "hola"},
		{"\ufeffhola", "hola"},
		{"\ufeff\ufeffhola", "\ufeffhola"},
		{"a\xffb", "a\ufffdb"},
		{"a\xe2\x82b", "a\ufffdb"},             // a cut three-byte sequence is one U+FFFD
		{"a\xf0\x9f\x98", "a\ufffd"},           // a cut four-byte sequence at the end
		{"\xed\xa0\x80", "\ufffd\ufffd\ufffd"}, // a surrogate is three invalid bytes
		{"\xc0\xaf", "\ufffd\ufffd"},
	}
	for _, c := range casos {
		if got := Texto([]byte(c.entrada)); got != c.quiere {
			t.Errorf("Texto(%q) = %q, quiere %q", c.entrada, got, c.quiere)
		}
	}
}

func TestRecortarComoTrim(t *testing.T) {
	t.Parallel()
	casos := map[string]string{
		" \t\n\v\f\r x \u00a0\u2028\u2029\ufeff\u3000": "x",
		"\u0085x\u0085": "\u0085x\u0085",
		"\u200bx":       "\u200bx", // zero width space is Cf, not white space
	}
	for entrada, quiere := range casos {
		if got := Recortar(entrada); got != quiere {
			t.Errorf("Recortar(%q) = %q, quiere %q", entrada, got, quiere)
		}
	}
}

func TestLargo(t *testing.T) {
	t.Parallel()
	const sustituto = "\xed\xbf\xbf" // a lone \uDFFF as nodejs.DecodificarCuerpoJSON keeps it
	casos := []struct {
		texto string
		largo int
	}{
		{"", 0}, {"abc", 3}, {"ñ", 1}, {"—", 1}, {"😀", 2}, {"e\u0301", 2}, {sustituto, 1},
		{strings.Repeat(sustituto, 40), 40}, {"a" + sustituto + "😀", 4},
		{"\xff", 1}, {"a\xe2\x82b", 4}, // invalid bytes count one each, as Go's range reads them
		{"\xed\x9f\xbf", 1}, // U+D7FF, just below the surrogates, is a character
	}
	for _, c := range casos {
		if got := Largo(c.texto); got != c.largo {
			t.Errorf("Largo(%q) = %d, quiere %d", c.texto, got, c.largo)
		}
	}
}
