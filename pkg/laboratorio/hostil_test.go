package laboratorio

import (
	"errors"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"cursohttp/internal/prueba/servidortest"
)

const (
	hostilEs = `{"type":"https://revisor.example/problemas/llave-en-curso","title":"Esa llave sigue en curso","status":409,"detail":"la petición original todavía no termina"}`
	hostilEn = `{"type":"https://revisor.example/problemas/llave-en-curso","title":"That key is still in use","status":409,"detail":"the original request has not finished yet"}`
)

func tipoX(tipo string) string {
	return `{"type":"` + tipo + `","title":"x","status":409,"detail":"x"}`
}

// TestHostil compares with what the course's hostile service sent for the same targets.
func TestHostil(t *testing.T) {
	t.Parallel()
	ts := servidortest.Nuevo(t, NuevoHostil())
	addr := ts.Listener.Addr().String()
	casos := []struct {
		metodo, objetivo, cuerpo string
	}{
		{"GET", "/type/abc", tipoX("abc")},
		{"GET", "/type/https%3A%2F%2Frevisor.example%2Fproblemas%2Fllave-en-curso", tipoX("https://revisor.example/problemas/llave-en-curso")},
		{"GET", "/type/https%3A%2F%2Frevisor.example%2Fproblemas%2Fnombre-repetido", tipoX("https://revisor.example/problemas/nombre-repetido")},
		{"GET", "/type/https%3A%2F%2Fotro.example%2Fproblemas%2Fnuevo", tipoX("https://otro.example/problemas/nuevo")},
		{"GET", "/type/constructor", tipoX("constructor")},
		{"GET", "/type/__proto__", tipoX("__proto__")},
		{"GET", "/type/toString", tipoX("toString")},
		{"GET", "/type/hasOwnProperty", tipoX("hasOwnProperty")},
		{"GET", "/type/", tipoX("")},
		{"GET", "/type/a%20b", tipoX("a b")},
		{"GET", "/type/a+b", tipoX("a+b")},
		{"GET", "/type/%E2%82%AC", tipoX("€")},
		{"GET", "/type/%e2%82%ac", tipoX("€")},
		{"GET", "/type/%F0%9F%98%80", tipoX("😀")},
		{"GET", "/type/%00%01%1F", tipoX(`\u0000\u0001\u001f`)},
		{"GET", "/type/%22%5C", tipoX(`\"\\`)},
		{"GET", "/type/%3Cscript%3E", tipoX("<script>")},
		{"GET", "/type/%E2%80%A8", tipoX("\u2028")},
		{"GET", "/type/a?b=c", tipoX("a?b=c")},
		{"GET", "/type/a#b", tipoX("a#b")},
		{"GET", "/type/%2e%2e", tipoX("..")},
		{"GET", "/%74ype/x", tipoX("x")},
		{"POST", "/type/x", tipoX("x")},
		{"DELETE", "/type/x", tipoX("x")},
		{"OPTIONS", "/type/x", tipoX("x")},
		{"GET", "/idioma/en", hostilEn},
		{"GET", "/idioma/%65n", hostilEn},
		{"GET", "/idioma/es", hostilEs},
		{"GET", "/idioma/EN", hostilEs},
		{"GET", "/idioma/en/", hostilEs},
		{"GET", "/idioma/en?x", hostilEs},
		{"GET", "/", hostilEs},
		{"GET", "/otra", hostilEs},
		{"GET", "/TYPE/x", hostilEs},
		{"GET", "//type/x", hostilEs},
		{"GET", "http://x/type/abc", hostilEs},
		{"GET", "*", hostilEs},
		// decodeURIComponent would throw (the course's program died): the target is used as it came.
		{"GET", "/type/%C0%AF", tipoX("%C0%AF")},
		{"GET", "/type/%ED%A0%80", tipoX("%ED%A0%80")},
		{"GET", "/type/%F4%90%80%80", tipoX("%F4%90%80%80")},
		{"GET", "/idioma/%FF", hostilEs},
	}
	for _, c := range casos {
		t.Run(c.metodo+" "+c.objetivo, func(t *testing.T) {
			t.Parallel()
			r := pedirCrudo(t, addr, c.metodo, c.objetivo, "")
			if r.linea != "HTTP/1.1 409 Conflict" {
				t.Errorf("línea %q", r.linea)
			}
			if ct := r.cabeceras["Content-Type"]; ct != "application/problem+json" {
				t.Errorf("Content-Type %q", ct)
			}
			if r.cuerpo != c.cuerpo {
				t.Errorf("cuerpo %q, se esperaba %q", r.cuerpo, c.cuerpo)
			}
		})
	}
	r := pedirCrudo(t, addr, "HEAD", "/type/x", "")
	if r.linea != "HTTP/1.1 409 Conflict" || r.cuerpo != "" || r.cabeceras["Content-Length"] != "50" {
		t.Errorf("HEAD: %q", r.todo)
	}
}

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
