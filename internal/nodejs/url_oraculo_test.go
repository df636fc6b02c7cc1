package nodejs

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"cursohttp/internal/prueba/oraculo"
)

// FuzzLeerURLComoNode: LeerURL reads a registration's url (text from a JSON body) as new URL() does
// in Node: the same refusals and, for the special schemes the revisor connects to, the same scheme,
// host, port, credentials and request-line path (pathname + search, as fetch sends it).
func FuzzLeerURLComoNode(f *testing.F) {
	for _, c := range urlsDeNode {
		f.Add(c.entrada)
	}
	for _, s := range []string{"http://[::ffff:1.2.3.4]:80/a/../b?c#d", "https://u:p@x.y:443", "ws://a/%2e%2E/", "ftp://a:21/",
		"http://0x100000000/", "http://1.2.3/", "http://a b/", "mailto:x", "foo://h:99999/", "http://a/x?", "http://xn--bcher-kva.example/"} {
		f.Add(s)
	}
	node := oraculo.Arrancar(f)
	f.Fuzz(func(t *testing.T, texto string) {
		if !utf8.ValidString(texto) {
			return // JSON.parse hands new URL text, never bytes
		}
		r := node.Preguntar(t, "URL", []byte(texto), "utf8", "")
		u, err := LeerURL(texto)
		ascii := true
		for i := 0; i < len(texto); i++ {
			ascii = ascii && texto[i] < 0x80
		}
		if err != nil && r.OK && !ascii {
			return // a host outside ASCII needs UTS 46, which the suite refuses (docs/diferencias.md)
		}
		if (err == nil) != r.OK && punycode(texto) {
			return // an "xn--" label's validity under UTS 46 needs its tables (punycode.go; TestLeerURLPunycode pins the decoding)
		}
		if (err == nil) != r.OK {
			t.Fatalf("new URL(%q): ok %v (%s); LeerURL: %+v, %v", texto, r.OK, r.Error, u, err)
		}
		if err != nil {
			return
		}
		var js struct{ Protocol, Hostname, Port, Pathname, Search, Username, Password string }
		if err := json.Unmarshal(r.V, &js); err != nil {
			t.Fatal(err)
		}
		if u.Esquema != js.Protocol {
			t.Fatalf("new URL(%q).protocol = %q; LeerURL da %q", texto, js.Protocol, u.Esquema)
		}
		if _, especial := puertoEspecial(strings.TrimSuffix(u.Esquema, ":")); !especial || u.Esquema == "file:" {
			return // the revisor only needs to know it is not http(s)
		}
		host := strings.TrimSuffix(strings.TrimPrefix(js.Hostname, "["), "]")
		credenciales := js.Username != "" || js.Password != ""
		if u.Host != host || u.Puerto != js.Port || u.Ruta != js.Pathname+js.Search || u.ConCredenciales != credenciales {
			t.Fatalf("new URL(%q) = %+v; LeerURL da %+v", texto, js, u)
		}
	})
}

// punycode reports whether a text holds an "xn--" label, in any case.
func punycode(texto string) bool { return strings.Contains(strings.ToLower(texto), "xn--") }
