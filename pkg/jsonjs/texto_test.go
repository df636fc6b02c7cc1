package jsonjs

import "testing"

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
