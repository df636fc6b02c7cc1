package pasarela

// Temporary: the old copy, frozen, against the shared code that replaced it (pkg/nodejs). Removed
// once the comparison has run; see the commit that deletes it.

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func comoFetchViejo(prefijo, objetivo string) (camino, consulta string, ok bool) {
	if !strings.HasPrefix(objetivo, "/") {
		return "", "", false
	}
	objetivo, _, _ = strings.Cut(objetivo, "#")
	c, q, _ := strings.Cut(objetivo, "?")
	partes := strings.Split(strings.ReplaceAll(prefijo+c, `\`, "/"), "/")[1:]
	salida := make([]string, 0, len(partes))
	for i, p := range partes {
		ultimo := i == len(partes)-1
		switch strings.ToLower(p) {
		case "..", ".%2e", "%2e.", "%2e%2e":
			if len(salida) > 0 {
				salida = salida[:len(salida)-1]
			}
			if ultimo {
				salida = append(salida, "")
			}
		case ".", "%2e":
			if ultimo {
				salida = append(salida, "")
			}
		default:
			salida = append(salida, porcientoViejo(p, "\"#<>?`{}"))
		}
	}
	return "/" + strings.Join(salida, "/"), porcientoViejo(q, "\"#<>'"), true
}

// porciento percent-encodes controls, space, bytes above 0x7E and those in conjunto; a "%" already
// there stays as sent, well formed or not.
func porcientoViejo(s, conjunto string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= 0x20 || c >= 0x7f || strings.IndexByte(conjunto, c) >= 0 {
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

func TestComoFetchComoElViejo(t *testing.T) {
	t.Parallel()
	casos := []string{"/servicios", "/servicios/1?x=%zz", "//servicios", "/servicios/../servicios/1", "/servicios/1#frag", "/a/./b/.", "/a/%2E%2e/b", `/a\b`, `/a\..\b`, "/x?", "/x?#f", "/x?a b\"<>'#f", "/ñ/é?ñ=1", "/a/%zz", "/..", "/a/..", "/a/.%2E/", "/{}`|^!$&()*+,;=:@[]", "/x?{}`|^!$&()*+,;=:@[]?/", "/\x01\x7f", "/%2e", "/a/.", "/.%2e/x", "//x/../y", "*", "http://otro.example/servicios", "servicios", "", "/x?'#", "/%2e%2E", "/servicios/%41", "/x?a'b", "/y?"}
	r := rand.New(rand.NewPCG(15, 2))
	for range 100_000 {
		casos = append(casos, "/"+aleatorio(r), aleatorio(r))
	}
	for _, prefijo := range []string{"", "/base", "/a/b", "/%2e"} {
		for _, c := range casos {
			comparar(t, prefijo, c)
		}
	}
}

func comparar(t *testing.T, prefijo, objetivo string) {
	c1, q1, ok1 := comoFetch(prefijo, objetivo)
	c2, q2, ok2 := comoFetchViejo(prefijo, objetivo)
	if c1 != c2 || q1 != q2 || ok1 != ok2 {
		t.Fatalf("comoFetch(%q, %q) = %q %q %v, el viejo daba %q %q %v", prefijo, objetivo, c1, q1, ok1, c2, q2, ok2)
	}
}

func FuzzComoFetchComoElViejo(f *testing.F) {
	f.Add("/base", "/a/%2e%2E/b\\c?d#e")
	f.Fuzz(func(t *testing.T, prefijo, objetivo string) {
		if prefijo != "" && prefijo[0] != '/' {
			prefijo = "/" + prefijo // what EscapedPath gives
		}
		comparar(t, prefijo, objetivo)
	})
}
