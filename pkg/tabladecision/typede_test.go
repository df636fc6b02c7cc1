package tabladecision

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// The expected results come from passing the same bytes through Response.text() and decisiones.ts's
// typeDe; the one difference sought is the body with two BOMs (Node 20 strips two; WHATWG, one).
func TestTypeDe(t *testing.T) {
	t.Parallel()
	casos := []struct {
		contentType string
		cuerpo      string
		want        string
		ok          bool
	}{
		{"application/problem+json", "{\"type\":\"https://x\"}", "https://x", true},
		{"Application/Problem+JSON; charset=utf-8", "{\"type\":\"t\"}", "t", true},
		{"  application/problem+json  ;x", "{\"type\":\"t\"}", "t", true},
		{"application/json", "{\"type\":\"t\"}", "", false},
		{"", "{\"type\":\"t\"}", "", false},
		{"application/problem+json+x", "{\"type\":\"t\"}", "", false},
		{"\ufeffapplication/problem+json", "{\"type\":\"t\"}", "t", true},
		{"\u0085application/problem+json", "{\"type\":\"t\"}", "", false},
		{"\u00a0application/problem+json\u3000", "{\"type\":\"t\"}", "t", true},
		{"application/problem+json, text/plain", "{\"type\":\"t\"}", "", false},
		{"application/problem+json", "", "", false},
		{"application/problem+json", "null", "", false},
		{"application/problem+json", " null ", "", false},
		{"application/problem+json", "5", "about:blank", true},
		{"application/problem+json", "\"x\"", "about:blank", true},
		{"application/problem+json", "[]", "about:blank", true},
		{"application/problem+json", "true", "about:blank", true},
		{"application/problem+json", "{}", "about:blank", true},
		{"application/problem+json", "{\"type\":5}", "about:blank", true},
		{"application/problem+json", "{\"type\":null}", "about:blank", true},
		{"application/problem+json", "{\"type\":{\"a\":1}}", "about:blank", true},
		{"application/problem+json", "{\"type\":\"a\",\"type\":5}", "about:blank", true},
		{"application/problem+json", "{\"type\":5,\"type\":\"b\"}", "b", true},
		{"application/problem+json", "{\"type\":\"constructor\"}", "constructor", true},
		{"application/problem+json", "{\"\\u0074ype\":\"x\"}", "x", true},
		{"application/problem+json", "{\"Type\":\"x\"}", "about:blank", true},
		{"application/problem+json", "{\"type\":\"x\"} \r\n\t", "x", true},
		{"application/problem+json", "{\"type\":\"x\"}x", "", false},
		{"application/problem+json", "{\"type\":\"x\"}{}", "", false},
		{"application/problem+json", "{\"type\":\"x\",}", "", false},
		{"application/problem+json", "{'type':'x'}", "", false},
		{"application/problem+json", "\ufeff{\"type\":\"x\"}", "x", true},
		{"application/problem+json", "\ufeff\ufeff{\"type\":\"x\"}", "", false},
		{"application/problem+json", "{\"type\":\"\xe2\x82A\"}", "\ufffdA", true},
		{"application/problem+json", "{\"type\":\"\xf0\x9f\x98\"}", "\ufffd", true},
		{"application/problem+json", "{\"type\":\"\xed\xa0\x80z\"}", "\ufffd\ufffd\ufffdz", true},
		{"application/problem+json", "{\"type\":\"\xc0\xafz\xff\"}", "\ufffd\ufffdz\ufffd", true},
		{"application/problem+json", "1e400", "about:blank", true},
		{"application/problem+json", "{\"type\":\"x\",\"n\":1e400}", "x", true},
		{"application/problem+json", "{\"type\":\"x\"", "", false},
		{"application/problem+json", "[1,2", "", false},
		{"application/problem+json", "{\"a\":{\"type\":\"no\"}}", "about:blank", true},
		{"application/problem+json", "{\"__proto__\":{\"type\":\"x\"}}", "about:blank", true},
		{"application/problem+json", "{\"type\":\"x\\u00e9\\n\"}", "xé\n", true},
		{"application/problem+json", "{\"type\":\"a\tb\"}", "", false},
		{"application/problem+json", "{\"type\":\"x\"}\x00", "", false},
		{"application/problem+json", "\x0b{\"type\":\"x\"}", "", false},
		{"application/problem+json", "{\"type\":01}", "", false},
		{"application/problem+json", "{\"type\":-0.5e+3,\"x\":[{\"y\":[]}]}", "about:blank", true},
		{"application/problem+json", "{\"type\":\"\\x\"}", "", false},
		{"application/problem+json", "{\"title\":\"t\",\"detail\":\"d\",\"type\":\"https://revisor.example/problemas/llave-en-curso\",\"status\":409}", "https://revisor.example/problemas/llave-en-curso", true},
		{"application/problem+json;", "{\"type\":\"t\"}", "t", true},
		{"application/problem+json\t; q=1", "{\"type\":\"t\"}", "t", true},
		{"application/problem+jſon", "{\"type\":\"t\"}", "", false},
		{"APPLICATION/PROBLEM+JSON", "{\"type\":\"t\"}", "t", true}}
	for _, c := range casos {
		got, ok := TypeDe(c.contentType, []byte(c.cuerpo))
		if got != c.want || ok != c.ok {
			t.Errorf("TypeDe(%q, %q) = %q, %v; quiero %q, %v", c.contentType, c.cuerpo, got, ok, c.want, c.ok)
		}
	}
}

// JSON.parse has no nesting cap; encoding/json has one (10000).
func TestTypeDeAnidamientoProfundo(t *testing.T) {
	t.Parallel()
	hondo := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	casos := []struct {
		cuerpo string
		want   string
		ok     bool
	}{
		{hondo, "about:blank", true},
		{`{"a":` + hondo + `,"type":"t"}`, "t", true},
		{`{"type":"t","a":` + hondo[:len(hondo)-1] + `}`, "", false},
	}
	for _, c := range casos {
		got, ok := TypeDe("application/problem+json", []byte(c.cuerpo))
		if got != c.want || ok != c.ok {
			t.Errorf("anidamiento profundo (%d bytes) = %q, %v; quiero %q, %v", len(c.cuerpo), got, ok, c.want, c.ok)
		}
	}
}

// Only the type is read from the body: title and detail change nothing.
func TestTypeDeNoLeeNadaMas(t *testing.T) {
	t.Parallel()
	a := `{"type":"https://revisor.example/problemas/llave-en-curso","title":"Esa llave sigue en curso","status":409,"detail":"la petición original todavía no termina"}`
	b := `{"type":"https://revisor.example/problemas/llave-en-curso","title":"That key is still in use","status":409,"detail":"the original request has not finished yet"}`
	ta, _ := TypeDe("application/problem+json", []byte(a))
	tb, _ := TypeDe("application/problem+json", []byte(b))
	if ta != tb || Decidir(409, nil, &ta) != Decidir(409, nil, &tb) || Decidir(409, nil, &ta).Accion != Esperar {
		t.Errorf("traducir title y detail cambió la decisión: %q, %q", ta, tb)
	}
}

// oraculo is the obvious reading with encoding/json; it holds for valid UTF-8 bodies without a BOM
// and with fewer than 10000 levels.
func oraculo(cuerpo []byte) (string, bool) {
	dec := json.NewDecoder(bytes.NewReader(cuerpo))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.InputOffset() != int64(len(bytes.TrimRight(cuerpo, " \t\r\n"))) {
		return "", false
	}
	switch v := v.(type) {
	case nil:
		return "", false
	case map[string]any:
		if s, ok := v["type"].(string); ok {
			return s, true
		}
	}
	return "about:blank", true
}

func FuzzTypeDe(f *testing.F) {
	for _, s := range []string{`{"type":"https://revisor.example/problemas/llave-en-curso"}`, `null`, `5`, `[]`,
		`{"type":5,"type":"b"}`, `{"type":"a","type":{}}`, `{"__proto__":{"type":"x"}}`, `{"type":"constructor"}`,
		"\ufeff{\"type\":\"x\"}", "{\"type\":\"\xe2\x82A\"}", `{"type":"x"}x`, `1e400`, `{"a":[[{"type":1}]],"type":"t"}`, ``} {
		f.Add("application/problem+json", []byte(s))
	}
	f.Add("Application/Problem+JSON; charset=utf-8", []byte(`{"type":"t"}`))
	f.Add("text/plain", []byte(`{"type":"t"}`))
	f.Fuzz(func(t *testing.T, contentType string, cuerpo []byte) {
		tipo, ok := TypeDe(contentType, cuerpo)
		if !ok {
			if tipo != "" {
				t.Fatalf("sin type pero devolvió %q", tipo)
			}
		} else if !utf8.ValidString(tipo) {
			t.Fatalf("type no es UTF-8 válido: %q", tipo)
		}
		problema := strings.ToLower(strings.TrimSpace(strings.Split(contentType, ";")[0])) == "application/problem+json"
		if !problema {
			if ok && !strings.ContainsAny(contentType, "\ufeff\u00a0\u1680\u2028\u2029\u202f\u205f\u3000\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a") {
				t.Fatalf("leyó un type de %q, que no es Problem Details", contentType)
			}
			return
		}
		if len(cuerpo) >= 10000 || !utf8.Valid(cuerpo) || bytes.HasPrefix(cuerpo, []byte("\ufeff")) {
			return
		}
		want, wok := oraculo(cuerpo)
		if tipo != want || ok != wok {
			t.Fatalf("TypeDe(%q) = %q, %v; encoding/json dice %q, %v", cuerpo, tipo, ok, want, wok)
		}
	})
}

// What the graders read from an answer they know is a problem: its type, the default for a problem
// that names none, nothing for a body that is not JSON.
func TestTypeDelCuerpo(t *testing.T) {
	t.Parallel()
	for cuerpo, want := range map[string]string{
		`{"type":"https://revisor.example/problemas/llave-en-curso","status":409}`: "https://revisor.example/problemas/llave-en-curso",
		`{"title":"Not Found","status":404}`:                                       "about:blank",
		`{"type":7}`:                                                               "about:blank",
		`no es JSON`:                                                               "",
		``:                                                                         "",
		`null`:                                                                     "",
	} {
		if got := TypeDelCuerpo([]byte(cuerpo)); got != want {
			t.Errorf("TypeDelCuerpo(%q) = %q; se esperaba %q", cuerpo, got, want)
		}
	}
}
