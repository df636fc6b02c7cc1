package nodejs

// Each reader of this package against the real Node (internal/prueba/oraculo): the fuzzer's inputs
// go to both, and any difference fails with the input, so `make fuzz` checks the contract against
// the engine it imitates, not against the tables we recorded from it.

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"cursohttp/internal/prueba/oraculo"
)

// soloASCIIImprimible reports whether s holds only printable ASCII: what a request target can
// carry as the course's Node parser and ours both read it (other bytes are a documented class of
// difference: docs/diferencias.md).
func soloASCIIImprimible(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x21 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// FuzzLeerFechaComoNode: LeerFecha reads a Retry-After value (latin1, as fetch's Headers hand it to
// JavaScript) as Date.parse does, in UTC and in the lesson's zone.
func FuzzLeerFechaComoNode(f *testing.F) {
	for _, s := range []string{"1.5", "-1", "12 30", "Wed, 21 Oct 2026 13:20:57 GMT", "Wednesday, 21-Oct-26 13:20:57 GMT",
		"Wed Oct 21 13:20:57 2026", "mañana", "Oct 5, 1999 3:04 PM", "Jan 1 2001 10:00 GMT-0500", "1/2/3",
		"2026-10-21T13:20:57Z", "2026-10-21", "2026-10-21T13:20", "+002026-10-21", "31 Feb 2020", "12:30 pm Oct 3"} {
		f.Add(s)
	}
	node := oraculo.Arrancar(f)
	mexico, err := time.LoadLocation("America/Mexico_City")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, texto string) {
		if !valorDeCabecera(texto) {
			return
		}
		for _, zona := range []*time.Location{time.UTC, mexico} {
			nombre := zona.String()
			r := node.Preguntar(t, "Date.parse", []byte(texto), "latin1", nombre)
			fecha, ok := LeerFecha(texto, zona) // the header's bytes, as fetch hands them over

			if ok != r.OK || ok && fecha.UnixMilli() != int64(float64(r.N)) {
				t.Fatalf("TZ=%s Date.parse(%q) = %v (ok %v); LeerFecha da %v (ok %v)", nombre, texto, int64(float64(r.N)), r.OK, fecha.UnixMilli(), ok)
			}
		}
	})
}

// valorDeCabecera reports whether s can arrive as a header's value: no control byte but the tab
// (both Node's parser and Go's refuse the others, so no client ever reads them).
func valorDeCabecera(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}

// FuzzLeerNumeroComoNode: LeerNumero is Number() and Numero is String() of what it read.
func FuzzLeerNumeroComoNode(f *testing.F) {
	for _, s := range []string{"300", " 1e3 ", "0x1F", "-Infinity", ".5", "1_0", "0b", "\u00a01\u2028", "1e400", "-0", "0o17", "5."} {
		f.Add(s)
	}
	node := oraculo.Arrancar(f)
	f.Fuzz(func(t *testing.T, texto string) {
		if !utf8.ValidString(texto) {
			return // a JavaScript string is text: what reached it was decoded first
		}
		r := node.Preguntar(t, "Number", []byte(texto), "utf8", "")
		n, ok := LeerNumero(texto)
		igual := n == float64(r.N) || math.IsNaN(n) && math.IsNaN(float64(r.N))
		if ok != r.OK || ok && (!igual || math.Signbit(n) != math.Signbit(float64(r.N))) {
			t.Fatalf("Number(%q) = %v (ok %v); LeerNumero da %v (ok %v)", texto, r.N, r.OK, n, ok)
		}
		if s, _ := r.Texto(); ok && Numero(n) != s {
			t.Fatalf("String(Number(%q)) = %q; Numero da %q", texto, s, Numero(n))
		}
	})
}

// FuzzDecodificarComponenteComoNode: DecodificarComponente is decodeURIComponent on a request
// target's text.
func FuzzDecodificarComponenteComoNode(f *testing.F) {
	for _, s := range []string{"/type/abc", "%E2%82%AC", "%E0%A4%A", "%C0%AF", "%ED%A0%80", "a+b%20c", "%%41", "%F0%9F%98%80", "%f4%90%80%80"} {
		f.Add(s)
	}
	node := oraculo.Arrancar(f)
	f.Fuzz(func(t *testing.T, s string) {
		if !soloASCIIImprimible(s) {
			return
		}
		r := node.Preguntar(t, "decodeURIComponent", []byte(s), "latin1", "")
		got, err := DecodificarComponente(s)
		want, _ := r.Texto()
		if (err == nil) != r.OK || err == nil && got != want {
			t.Fatalf("decodeURIComponent(%q) = %q (%s); DecodificarComponente da %q, %v", s, want, r.Error, got, err)
		}
	})
}

// FuzzEscaparComoNode: Escapar with EnComponente is encodeURIComponent for text.
func FuzzEscaparComoNode(f *testing.F) {
	for _, s := range []string{"a b", "ñ/€?", "-_.!~*'()", "\x00\x7f", "😀"} {
		f.Add(s)
	}
	node := oraculo.Arrancar(f)
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		r := node.Preguntar(t, "encodeURIComponent", []byte(s), "utf8", "")
		want, _ := r.Texto()
		if got := Escapar(s, EnComponente); !r.OK || got != want {
			t.Fatalf("encodeURIComponent(%q) = %q (%s); Escapar da %q", s, want, r.Error, got)
		}
	})
}

// FuzzRutaComoNode: Ruta resolves a request target's path as new URL's pathname does.
func FuzzRutaComoNode(f *testing.F) {
	for _, s := range []string{"a/b", "a/../b", "%2e%2E/x", "a/./", `a\b`, "a/..", "{x}`", "a%2fb", ".%2e/c", "%2e.", "/.00/.", "a/.b/../c"} {
		f.Add(s)
	}
	node := oraculo.Arrancar(f)
	f.Fuzz(func(t *testing.T, s string) {
		if !soloASCIIImprimible(s) || strings.ContainsAny(s, "?#") {
			return // Partir has taken the query and the fragment off before Ruta
		}
		r := node.Preguntar(t, "URL.pathname", []byte(s), "latin1", "")
		want, _ := r.Texto()
		if got := Ruta(s); !r.OK || got != want {
			t.Fatalf("new URL(%q).pathname = %q (%s); Ruta da %q", "http://h/"+s, want, r.Error, got)
		}
	})
}

// TestRutaYURLComoNodeExhaustiva asks node about every short path and URL over the bytes that
// decide dot segments, hosts that read as IPv4 and where the path ends (".", "/", "\\", "%2e",
// "?", "#", "0"), the family of the difference FuzzLeerURLComoNode found in issue 35
// ("http:0//.00/.#0"): a search cannot miss a short case here.
func TestRutaYURLComoNodeExhaustiva(t *testing.T) {
	t.Parallel()
	node := oraculo.Arrancar(t)
	todas(".a/\\%2e{", 4, func(s string) {
		r := node.Preguntar(t, "URL.pathname", []byte(s), "latin1", "")
		if want, _ := r.Texto(); Ruta(s) != want {
			t.Errorf("new URL(%q).pathname = %q; Ruta da %q", "http://h/"+s, want, Ruta(s))
		}
	})
	todas("0./#?\\", 5, func(s string) {
		texto := "http:" + s
		r := node.Preguntar(t, "URL", []byte(texto), "utf8", "")
		u, err := LeerURL(texto)
		if (err == nil) != r.OK {
			t.Errorf("new URL(%q): ok %v; LeerURL: %v", texto, r.OK, err)
			return
		}
		var js struct{ Hostname, Pathname, Search string }
		if err == nil && (json.Unmarshal(r.V, &js) != nil || u.Host != js.Hostname || u.Ruta != js.Pathname+js.Search) {
			t.Errorf("new URL(%q) = %+v; LeerURL da %+v", texto, js, u)
		}
	})
}

// todas calls f with every string of up to n bytes of alfabeto.
func todas(alfabeto string, n int, f func(string)) {
	var crecer func(s string)
	crecer = func(s string) {
		f(s)
		for i := 0; len(s) < n && i < len(alfabeto); i++ {
			crecer(s + alfabeto[i:i+1])
		}
	}
	crecer("")
}

// FuzzLargoYRecortarComoNode: Largo is a string's length (UTF-16 code units) and Recortar is trim().
func FuzzLargoYRecortarComoNode(f *testing.F) {
	for _, s := range []string{"abc", "😀", "\u00a0 x \ufeff", "\u2028\u3000y\u180e", "ñ"} {
		f.Add(s)
	}
	node := oraculo.Arrancar(f)
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		if r := node.Preguntar(t, "length", []byte(s), "utf8", ""); Largo(s) != int(r.N) {
			t.Fatalf("%q.length = %v; Largo da %d", s, r.N, Largo(s))
		}
		r := node.Preguntar(t, "trim", []byte(s), "utf8", "")
		if want, _ := r.Texto(); Recortar(s) != want {
			t.Fatalf("%q.trim() = %q; Recortar da %q", s, want, Recortar(s))
		}
	})
}

// FuzzValidoComoNode: Valido decodes bytes as Buffer's toString() does, one U+FFFD per maximal
// invalid subpart.
func FuzzValidoComoNode(f *testing.F) {
	for _, s := range []string{"abc", "\xff", "\xe2\x82", "\xf0\x9f\x98", "\xed\xa0\x80", "\xc0\xaf", "\xf4\x90\x80\x80", "a\x80b"} {
		f.Add([]byte(s))
	}
	node := oraculo.Arrancar(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		want, _ := node.Preguntar(t, "texto", b, "utf8", "").Texto()
		if got := Valido(string(b)); got != want {
			t.Fatalf("Buffer.from(%q).toString() = %q; Valido da %q", b, want, got)
		}
	})
}

// FuzzCabeceraComoNode: a header value that is not UTF-8 reads as the latin1 text Node's parser makes
// of it; one that is UTF-8 stays as it came (a recorded difference).
func FuzzCabeceraComoNode(f *testing.F) {
	for _, s := range []string{"\xf1and\xfa", "k1", "\xff\xfe", "a\xa0", "\xc3\xb1\xff"} {
		f.Add([]byte(s))
	}
	node := oraculo.Arrancar(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		if utf8.Valid(b) {
			if got := Cabecera(string(b)); got != string(b) {
				t.Fatalf("Cabecera(%q) = %q; UTF-8 stays as it came", b, got)
			}
			return
		}
		want, _ := node.Preguntar(t, "texto", b, "latin1", "").Texto()
		if got := Cabecera(string(b)); got != want {
			t.Fatalf("a header %q is %q in Node; Cabecera da %q", b, want, got)
		}
	})
}
