package nodejs

import (
	"strings"
	"testing"
)

// What Node writes for each set: encodeURIComponent(s), and the path, query and opaque host of
// new URL(...) (checked with Node 20).
func TestEscapar(t *testing.T) {
	t.Parallel()
	casos := []struct {
		conjunto   Conjunto
		entrada    string
		esperado   string
		comentario string
	}{
		{EnComponente, "https://revisor.example/problemas/llave-en-curso", "https%3A%2F%2Frevisor.example%2Fproblemas%2Fllave-en-curso", "the hostile paths"},
		{EnComponente, "a b+c&d=e?f#g", "a%20b%2Bc%26d%3De%3Ff%23g", "reserved characters"},
		{EnComponente, "-_.!~*'()", "-_.!~*'()", "unreserved marks stay"},
		{EnComponente, "ñ—", "%C3%B1%E2%80%94", "UTF-8 bytes, upper-case hex"},
		{EnComponente, "constructor", "constructor", ""},
		{EnComponente, "100%", "100%25", "a percent sign is escaped"},
		{EnRuta, "a b", "a%20b", ""},
		{EnRuta, "x{y}", "x%7By%7D", ""},
		{EnRuta, "{}`|^!$&()*+,;=:@[]", "%7B%7D%60|^!$&()*+,;=:@[]", "only ` { } of these"},
		{EnRuta, "\"#<>?", "%22%23%3C%3E%3F", ""},
		{EnRuta, "\x01\x7f", "%01%7F", "controls and DEL"},
		{EnRuta, "%zz%2F%31", "%zz%2F%31", "a percent sign stays as sent, well formed or not"},
		{EnRuta, "ñ", "%C3%B1", ""},
		{EnRuta, "'", "'", "the quote is only escaped in a query"},
		{EnConsulta, "a b\"<>'", "a%20b%22%3C%3E%27", ""},
		{EnConsulta, "{}`|^!$&()*+,;=:@[]?/", "{}`|^!$&()*+,;=:@[]?/", "a query keeps ? ` { }"},
		{EnConsulta, "<x>'\"", "%3Cx%3E%27%22", ""},
		{EnConsulta, "`{}|\\^", "`{}|\\^", ""},
		{EnConsulta, "ñ=1", "%C3%B1=1", ""},
		{EnHostOpaco, "a b\"{}", "a b\"{}", "an opaque host escapes only controls and non-ASCII"},
		{EnHostOpaco, "h\x01\x7fé", "h%01%7F%C3%A9", ""},
		{EnRuta, "\xff\xed\xa0\x80", "%FF%ED%A0%80", "invalid UTF-8 byte by byte"},
		{EnRuta, "", "", ""},
	}
	for _, c := range casos {
		if got := Escapar(c.entrada, c.conjunto); got != c.esperado {
			t.Errorf("Escapar(%q, %d) = %q, se esperaba %q (%s)", c.entrada, c.conjunto, got, c.esperado, c.comentario)
		}
	}
}

// The path Node's URL parser gives for "http://h/" + entrada.
func TestRuta(t *testing.T) {
	t.Parallel()
	casos := []struct{ entrada, esperado string }{
		{"servicios", "/servicios"},
		{"", "/"},
		{"servicios/../servicios/1", "/servicios/1"},
		{"a/./b/.", "/a/b/"},
		{"a/%2E%2e/b", "/b"},
		{"a/.%2E/", "/"},
		{".%2e/x", "/x"},
		{"%2e", "/"},
		{"a/.", "/a/"},
		{"a/..", "/"},
		{"..", "/"},
		{"../../servicios", "/servicios"},
		{`a\b`, "/a/b"},
		{`a\..\b`, "/b"},
		{"/x/../y", "//y"},
		{"servicios//1", "/servicios//1"},
		{"v0/", "/v0/"},
		{"servicios/%2F1", "/servicios/%2F1"},
		{"a/%zz", "/a/%zz"},
		{"ñ/é", "/%C3%B1/%C3%A9"},
		{"{}`|^!$&()*+,;=:@[]", "/%7B%7D%60|^!$&()*+,;=:@[]"},
		{"a b/\x01\x7f", "/a%20b/%01%7F"},
		{"...", "/..."},
		{"%2e%2e%2e", "/%2e%2e%2e"},
		{"%2", "/%2"},
		{"*", "/*"},
		// Node 20's Ada: only the first "/." decides whether the path is resolved (AtajoDeAda).
		{"a/.b/../c", "/a/.b/../c"},
		{"/.00/.", "//.00/."},
		{".b/../c", "/c"},
		{"a/./.b/..", "/a/"},
		{"a/.b/%2e%2e", "/a/"},
		{`a/.b\..`, "/a/"},
		{"a/.b/../ c", "/a/%20c"},
	}
	for _, c := range casos {
		if got := Ruta(c.entrada); got != c.esperado {
			t.Errorf("Ruta(%q) = %q, se esperaba %q", c.entrada, got, c.esperado)
		}
	}
}

func TestPartir(t *testing.T) {
	t.Parallel()
	casos := []struct {
		objetivo, ruta, consulta string
		hay                      bool
	}{
		{"/servicios", "/servicios", "", false},
		{"/x?", "/x", "", true},
		{"/x??a", "/x", "?a", true},
		{"/servicios/1#frag", "/servicios/1", "", false},
		{"/viejo/servicios/#?a#b", "/viejo/servicios/", "", false},
		{"/viejo/servicios?a=1#f?b", "/viejo/servicios", "a=1", true},
		{"/x?#f", "/x", "", true},
		{"", "", "", false},
	}
	for _, c := range casos {
		ruta, consulta, hay := Partir(c.objetivo)
		if ruta != c.ruta || consulta != c.consulta || hay != c.hay {
			t.Errorf("Partir(%q) = %q, %q, %v; se esperaba %q, %q, %v", c.objetivo, ruta, consulta, hay, c.ruta, c.consulta, c.hay)
		}
	}
}

func FuzzEscapar(f *testing.F) {
	for _, s := range []string{"a b", "%zz", "ñ", "\x00\x7f\xff", "-_.!~*'()", "{}`'?#"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, conjunto := range []Conjunto{EnHostOpaco, EnConsulta, EnRuta, EnComponente} {
			got := Escapar(s, conjunto)
			// Each byte in the set became %XX of itself; every other byte stayed.
			var b strings.Builder
			for i := 0; i < len(s); i++ {
				if debeEscapar(s[i], conjunto) {
					b.WriteString("%" + strings.ToUpper(hex2(s[i])))
				} else {
					b.WriteByte(s[i])
				}
			}
			if got != b.String() {
				t.Fatalf("Escapar(%q, %d) = %q, se esperaba %q", s, conjunto, got, b.String())
			}
			for i := 0; i < len(got); i++ {
				if c := got[i]; c != '%' && debeEscapar(c, conjunto) {
					t.Fatalf("Escapar(%q, %d) = %q deja %q sin escapar", s, conjunto, got, c)
				}
			}
		}
	})
}

func hex2(c byte) string {
	const hex = "0123456789abcdef"
	return string([]byte{hex[c>>4], hex[c&0xf]})
}

func FuzzRuta(f *testing.F) {
	for _, s := range []string{"a/../b", `a\..\b`, "%2e%2E/x", "/x/../y", "a/.", "ñ/{x}", "..", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ruta := Ruta(s)
		if !strings.HasPrefix(ruta, "/") || strings.ContainsAny(ruta, "\\ \"#<>?`{}\x00\x7f") {
			t.Fatalf("Ruta(%q) = %q", s, ruta)
		}
		// Ada's shortcut keeps such a path as typed, dot segments and all (Node 20 gives "//.0/."
		// for "/.0/."): the comparison with node itself is FuzzRutaComoNode's.
		if AtajoDeAda(s) {
			if ruta != "/"+s {
				t.Fatalf("Ruta(%q) = %q; Ada lo deja como está", s, ruta)
			}
			return
		}
		for _, segmento := range strings.Split(ruta[1:], "/") {
			if esUnPunto(segmento) || esDosPuntos(segmento) {
				t.Fatalf("Ruta(%q) = %q conserva un segmento de puntos", s, ruta)
			}
		}
		// A resolved path reads back the same, as a URL's serialisation does.
		if otra := Ruta(ruta[1:]); otra != ruta {
			t.Fatalf("Ruta(%q) = %q, releída %q", s, ruta, otra)
		}
	})
}
