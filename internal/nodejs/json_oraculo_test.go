package nodejs

import (
	"testing"

	"cursohttp/internal/prueba/oraculo"
)

// FuzzCuerpoComoNode: a request body read by DecodificarCuerpoJSON and written by CodificarJSON gives the
// bytes JSON.stringify(JSON.parse(buffer.toString())) gives in Node, or both refuse it: member
// order, numbers, escapes, invalid UTF-8 and lone surrogates, checked against the real engine.
func FuzzCuerpoComoNode(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `[1,2]`, `"x"`, `{"1":{"0":[]}}`, `1e999`, `{"b":1,"a":2,"b":3}`,
		`{"2":1,"1":2,"x":3}`, `"\ud800"`, `"\udc00\ud800"`, "\"\xff\xfe\"", `-0`, `1E+2`, `0.1e-7`, `"\u2028<&>"`,
		`{"4294967294":1,"4294967295":2}`, `[1e21,1e-7,123456789012345678901]`, "\"\xe2\x82\"", "\"\xf0\x9f\x98\""} {
		f.Add([]byte(s))
	}
	node := oraculo.Arrancar(f)
	f.Fuzz(func(t *testing.T, cuerpo []byte) {
		r := node.Preguntar(t, "JSON", cuerpo, "utf8", "")
		v, err := DecodificarCuerpoJSON(cuerpo)
		if (err == nil) != r.OK {
			t.Fatalf("JSON.parse(%q): ok %v (%s); DecodificarCuerpoJSON: %v", cuerpo, r.OK, r.Error, err)
		}
		if err != nil {
			return
		}
		want, _ := r.Texto()
		if got := string(CodificarJSON(v)); got != want {
			t.Fatalf("JSON.stringify(JSON.parse(%q)) = %q; CodificarJSON da %q", cuerpo, want, got)
		}
	})
}
