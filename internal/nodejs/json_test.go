package nodejs

import (
	"bytes"
	"testing"
)

func TestCodificarComoJSONStringify(t *testing.T) {
	t.Parallel()
	casos := []struct {
		nombre string
		valor  any
		quiere string
	}{
		{"orden de los miembros", Objeto{{"type", "about:blank"}, {"title", "Not Found"}, {"status", 404}}, `{"type":"about:blank","title":"Not Found","status":404}`},
		{"sin escapar html", "<a>&", `"<a>&"`},
		{"separadores unicode tal cual", "a\u2028b\u2029", "\"a\u2028b\u2029\""},
		{"controles", "a\nb\tc\x01\x7f", `"a\nb\tc\u0001` + "\x7f\""},
		{"comillas y barra", `"\`, `"\"\\"`},
		{"utf8 inválido", "a\xffb", "\"a\ufffdb\""},
		{"entero como float", 2.0, `2`},
		{"decimal", 1.5, `1.5`},
		{"pequeño", 0.1, `0.1`},
		{"exponente grande", 1e21, `1e+21`},
		{"exponente pequeño", 1.5e-7, `1.5e-7`},
		{"menos cero", -0.0, `0`},
		{"lista vacía", []any{}, `[]`},
		{"objeto vacío", Objeto{}, `{}`},
		{"nulos", Objeto{{"a", nil}, {"b", (*int64)(nil)}}, `{"a":null,"b":null}`},
		{"anidado", Objeto{{"errors", []Objeto{{{"detail", "x"}, {"pointer", "#/nombre"}}}}}, `{"errors":[{"detail":"x","pointer":"#/nombre"}]}`},
	}
	for _, c := range casos {
		if got := string(CodificarJSON(c.valor)); got != c.quiere {
			t.Errorf("%s: CodificarJSON = %s, quiere %s", c.nombre, got, c.quiere)
		}
	}
}

func TestCodificarSangriaComoStringifyConDosEspacios(t *testing.T) {
	t.Parallel()
	v := Objeto{{"estado", 201}, {"lista", []string{"#/nombre"}}, {"vacia", []any{}}, {"o", Objeto{}}}
	quiere := "{\n  \"estado\": 201,\n  \"lista\": [\n    \"#/nombre\"\n  ],\n  \"vacia\": [],\n  \"o\": {}\n}"
	if got := string(CodificarJSONSangria(v, "  ")); got != quiere {
		t.Errorf("got\n%s\nquiere\n%s", got, quiere)
	}
}

func TestDecodificarYCodificarEsStringifyDeParse(t *testing.T) {
	t.Parallel()
	casos := []struct{ entrada, quiere string }{
		{`{"nombre":"a","url":"b"}`, `{"nombre":"a","url":"b"}`},
		{` { "url" : "b" , "nombre" : "a" } `, `{"url":"b","nombre":"a"}`},
		{`{"a":1,"b":2,"a":3}`, `{"a":3,"b":2}`},
		{`{"b":1,"2":1,"1":1,"01":1,"a":1}`, `{"1":1,"2":1,"b":1,"01":1,"a":1}`},
		{`{"n":1.0,"m":1e2,"k":-0}`, `{"n":1,"m":100,"k":0}`},
		{`{"x":1e400}`, `{"x":null}`},
		{`[1,"\u003c",true,null]`, `[1,"<",true,null]`},
	}
	for _, c := range casos {
		v, err := DecodificarJSON([]byte(c.entrada))
		if err != nil {
			t.Errorf("DecodificarJSON(%s): %v", c.entrada, err)
			continue
		}
		if got := string(CodificarJSON(v)); got != c.quiere {
			t.Errorf("DecodificarJSON(%s) → %s, quiere %s", c.entrada, got, c.quiere)
		}
	}
}

func TestDecodificarRechazaLoQueJSONParseRechaza(t *testing.T) {
	t.Parallel()
	for _, entrada := range []string{``, `{`, `{} x`, `{"a":1,}`, `nope`, "\ufeff{}", `{'a':1}`, `[1,]`} {
		if _, err := DecodificarJSON([]byte(entrada)); err == nil {
			t.Errorf("DecodificarJSON(%q) aceptó", entrada)
		}
	}
}

func FuzzDecodificar(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `[1,2]`, `"x"`, `{"1":{"0":[]}}`, `1e999`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := DecodificarJSON([]byte(s))
		if err != nil {
			return
		}
		// What we write must read back to the same text.
		una := CodificarJSON(v)
		w, err := DecodificarJSON(una)
		if err != nil {
			t.Fatalf("no se relee %s: %v", una, err)
		}
		if dos := CodificarJSON(w); string(dos) != string(una) {
			t.Fatalf("no es estable: %s ≠ %s", una, dos)
		}
	})
}

// A request body read as Node reads it: Buffer.toString() then JSON.parse. The expected texts are
// what JSON.stringify(JSON.parse(Buffer.from(bytes).toString())) prints in Node 20.
func TestDecodificarCuerpoComoNode(t *testing.T) {
	t.Parallel()
	casos := []struct{ entrada, quiere string }{
		{`"\ud800"`, `"\ud800"`},
		{`"\uD800x\uDC00"`, `"\ud800x\udc00"`},
		{`"\ud83d\ude00"`, `"😀"`},
		{`"\ud800\ud83d\ude00\udbff"`, `"\ud800😀\udbff"`},
		{`"\udc00\ud800"`, `"\udc00\ud800"`},
		{`"\ud800\u0041"`, `"\ud800A"`},
		{`"\\ud800"`, `"\\ud800"`}, // an escaped backslash, then text
		{`{"\ud800":1,"\ud801":2}`, `{"\ud800":1,"\ud801":2}`},
		{`{"a":"\ud800","a":"\ud801"}`, `{"a":"\ud801"}`},
		{"\"\xf0\x9f\x98A\"", "\"\ufffdA\""}, // one U+FFFD for a cut sequence, as Node's decoder
		{"\"\xed\xa0\x80\"", "\"\ufffd\ufffd\ufffd\""},
		{"\"\xc3\"", "\"\ufffd\""},
		{`"\n\t\"\/\b\f\r\u0000\ud800"`, `"\n\t\"/\b\f\r\u0000\ud800"`},
	}
	for _, c := range casos {
		v, err := DecodificarCuerpoJSON([]byte(c.entrada))
		if err != nil {
			t.Errorf("DecodificarCuerpoJSON(%q): %v", c.entrada, err)
			continue
		}
		if got := string(CodificarJSON(v)); got != c.quiere {
			t.Errorf("DecodificarCuerpoJSON(%q) → %s, quiere %s", c.entrada, got, c.quiere)
		}
	}
	// Plain DecodificarJSON keeps its U+FFFD for the clients, which print what they read.
	if v, _ := DecodificarJSON([]byte(`"\ud800"`)); v != "\ufffd" {
		t.Errorf("DecodificarJSON de un sustituto suelto: %q", v)
	}
}

func FuzzDecodificarCuerpo(f *testing.F) {
	for _, s := range []string{`{"nombre":"\ud800"}`, `"\ud83d\ude00"`, "\"\xf0\x9f\x98\"", `["\udc00\\ud800"]`, `{"a":1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := DecodificarCuerpoJSON(b)
		limpio := []byte(Valido(string(b)))
		w, errPlano := DecodificarJSON(limpio)
		// The same texts are JSON; only surrogate escapes may decode differently.
		if (err == nil) != (errPlano == nil) {
			t.Fatalf("%q: DecodificarCuerpoJSON %v, DecodificarJSON %v", b, err, errPlano)
		}
		if err != nil {
			return
		}
		una := CodificarJSON(v)
		if !bytes.Contains(bytes.ToLower(limpio), []byte(`\ud`)) && !bytes.Equal(una, CodificarJSON(w)) {
			t.Fatalf("%q: %s ≠ %s", b, una, CodificarJSON(w))
		}
		// What we write reads back to the same text.
		x, err := DecodificarCuerpoJSON(una)
		if err != nil {
			t.Fatalf("no se relee %s: %v", una, err)
		}
		if dos := CodificarJSON(x); !bytes.Equal(dos, una) {
			t.Fatalf("no es estable: %s ≠ %s", una, dos)
		}
	})
}

// String(JSON.parse(texto)), as Node 20 prints it.
func TestCadenaComoString(t *testing.T) {
	t.Parallel()
	for texto, want := range map[string]string{
		`"a"`: "a", `1.5`: "1.5", `1e21`: "1e+21", `-0`: "0", `true`: "true", `null`: "null",
		`[1,[2,[null,"x"]],{"a":1}]`: "1,2,,x,[object Object]", `{"a":1}`: "[object Object]", `[]`: "", `[null]`: "",
		`0.1`: "0.1", `100`: "100",
	} {
		v, err := DecodificarJSON([]byte(texto))
		if err != nil {
			t.Fatal(err)
		}
		if got := CadenaJSON(v); got != want {
			t.Errorf("String(JSON.parse(%s)) = %q, se esperaba %q", texto, got, want)
		}
	}
}
