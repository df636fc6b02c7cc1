package hostil

import (
	"strings"
	"testing"

	"cursohttp/internal/prueba"
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
	ts := servidortest.Nuevo(t, Nuevo())
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
			linea, cabeceras, cuerpo := partir(prueba.PedirCrudo(t, addr, c.metodo+" "+c.objetivo+" HTTP/1.1\r\nHost: x\r\n\r\n"))
			if linea != "HTTP/1.1 409 Conflict" {
				t.Errorf("línea %q", linea)
			}
			if ct := cabeceras["Content-Type"]; ct != "application/problem+json" {
				t.Errorf("Content-Type %q", ct)
			}
			if cuerpo != c.cuerpo {
				t.Errorf("cuerpo %q, se esperaba %q", cuerpo, c.cuerpo)
			}
		})
	}
	todo := prueba.PedirCrudo(t, addr, "HEAD /type/x HTTP/1.1\r\nHost: x\r\n\r\n")
	if linea, cabeceras, cuerpo := partir(todo); linea != "HTTP/1.1 409 Conflict" || cuerpo != "" || cabeceras["Content-Length"] != "50" {
		t.Errorf("HEAD: %q", todo)
	}
}

// partir splits a raw response into its status line, its fields by name and its body.
func partir(todo string) (linea string, cabeceras map[string]string, cuerpo string) {
	cabeza, cuerpo, _ := strings.Cut(todo, "\r\n\r\n")
	lineas := strings.Split(cabeza, "\r\n")
	cabeceras = map[string]string{}
	for _, l := range lineas[1:] {
		if n, v, ok := strings.Cut(l, ": "); ok {
			cabeceras[n] = v
		}
	}
	return lineas[0], cabeceras, cuerpo
}
