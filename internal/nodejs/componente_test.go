package nodejs

import (
	"errors"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestDecodificarComponente(t *testing.T) {
	t.Parallel()
	casos := []struct {
		entrada, salida string
		falla           bool
	}{
		{entrada: "", salida: ""},
		{entrada: "abc", salida: "abc"},
		{entrada: "a+b", salida: "a+b"},
		{entrada: "%2F%3f%23%25", salida: "/?#%"},
		{entrada: "%C3%A9", salida: "é"},
		{entrada: "%F0%9F%98%80", salida: "😀"},
		{entrada: "%EF%BF%BF", salida: "\uffff"},
		{entrada: "%F4%8F%BF%BF", salida: "\U0010ffff"},
		{entrada: "\xff", salida: "\xff"},
		{entrada: "%", falla: true},
		{entrada: "%4", falla: true},
		{entrada: "%ZZ", falla: true},
		{entrada: "%E0%A4%A", falla: true},
		{entrada: "%C3", falla: true},
		{entrada: "%C3A", falla: true},
		{entrada: "%C3%41", falla: true},
		{entrada: "%80", falla: true},
		{entrada: "%C0%AF", falla: true},
		{entrada: "%E0%80%AF", falla: true},
		{entrada: "%ED%A0%80", falla: true},
		{entrada: "%F4%90%80%80", falla: true},
		{entrada: "%F8%88%80%80%80", falla: true},
		{entrada: "%FF", falla: true},
	}
	for _, c := range casos {
		got, err := DecodificarComponente(c.entrada)
		if c.falla {
			if !errors.Is(err, ErrURIMalformada) {
				t.Errorf("DecodificarComponente(%q) = %q, %v; se esperaba un error", c.entrada, got, err)
			}
			continue
		}
		if err != nil || got != c.salida {
			t.Errorf("DecodificarComponente(%q) = %q, %v; se esperaba %q", c.entrada, got, err, c.salida)
		}
	}
}

// FuzzDecodificarComponente: it never panics; on valid input it agrees with url.PathUnescape, and
// it never makes invalid UTF-8 out of escapes.
func FuzzDecodificarComponente(f *testing.F) {
	for _, s := range []string{"/type/abc", "%E2%82%AC", "%E0%A4%A", "%C0%AF", "%ED%A0%80", "a+b%20c", "%%41"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := DecodificarComponente(s)
		if err != nil {
			return
		}
		want, err := url.PathUnescape(s)
		if err != nil || got != want {
			t.Fatalf("DecodificarComponente(%q) = %q; url.PathUnescape da %q, %v", s, got, want, err)
		}
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Fatalf("DecodificarComponente(%q) = %q no es UTF-8", s, got)
		}
		if !strings.Contains(s, "%") && got != s {
			t.Fatalf("sin escapes cambió %q por %q", s, got)
		}
	})
}
