package pasarela

import (
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"cursohttp/internal/nodejs"
	"cursohttp/internal/prueba"
	"cursohttp/internal/prueba/servidortest"
)

// The targets Node's URL parser gives for "http://127.0.0.1:18080" + target (checked with Node 20).
func TestComoFetch(t *testing.T) {
	t.Parallel()
	casos := []struct{ objetivo, want string }{
		{"/servicios", "/servicios"},
		{"/servicios/1?x=%zz", "/servicios/1?x=%zz"},
		{"//servicios", "//servicios"},
		{"/servicios/../servicios/1", "/servicios/1"},
		{"/servicios/1#frag", "/servicios/1"},
		{"/a/./b/.", "/a/b/"},
		{"/a/%2E%2e/b", "/b"},
		{`/a\b`, "/a/b"},
		{`/a\..\b`, "/b"},
		{"/x?", "/x"},
		{"/x?#f", "/x"},
		{"/x?a b\"<>'#f", "/x?a%20b%22%3C%3E%27"},
		{"/ñ/é?ñ=1", "/%C3%B1/%C3%A9?%C3%B1=1"},
		{"/a/%zz", "/a/%zz"},
		{"/..", "/"},
		{"/a/..", "/"},
		{"/a/.%2E/", "/"},
		{"/{}`|^!$&()*+,;=:@[]", "/%7B%7D%60|^!$&()*+,;=:@[]"},
		{"/x?{}`|^!$&()*+,;=:@[]?/", "/x?{}`|^!$&()*+,;=:@[]?/"},
		{"/\x01\x7f", "/%01%7F"},
		{"/%2e", "/"},
		{"/a/.", "/a/"},
		{"/.%2e/x", "/x"},
		{"//x/../y", "//y"},
	}
	for _, c := range casos {
		camino, consulta, ok := comoFetch("", c.objetivo)
		got := camino
		if consulta != "" {
			got += "?" + consulta
		}
		if !ok || got != c.want {
			t.Errorf("%q: %q (ok %v), se esperaba %q", c.objetivo, got, ok, c.want)
		}
	}
	for _, o := range []string{"*", "http://otro.example/servicios", "servicios", ""} {
		if _, _, ok := comoFetch("", o); ok {
			t.Errorf("%q: el curso no tiene URL para él", o)
		}
	}
	if camino, _, _ := comoFetch("/base", "/../x"); camino != "/x" {
		t.Errorf("con prefijo: %q", camino)
	}
}

func FuzzComoFetch(f *testing.F) {
	for _, s := range []string{"/servicios/1?x=%zz", "//x/../y", `/a\..\b`, "/x?'#", "*", "/%2e%2E"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, objetivo string) {
		camino, consulta, ok := comoFetch("", objetivo)
		if !ok {
			if strings.HasPrefix(objetivo, "/") {
				t.Fatalf("%q rechazado", objetivo)
			}
			return
		}
		if !strings.HasPrefix(camino, "/") || strings.ContainsAny(camino+consulta, " \"#<>\x00\x7f") || strings.ContainsAny(camino, "?`{}") {
			t.Fatalf("%q → %q ? %q", objetivo, camino, consulta)
		}
		// Node 20's Ada keeps some paths as typed, dot segments and all ("//.0/." stays): what
		// nodejs.Ruta copies, compared with node itself by FuzzRutaComoNode.
		if ruta, _, _ := nodejs.Partir(objetivo); !(camino == ruta && nodejs.AtajoDeAda(ruta[1:])) {
			for _, s := range strings.Split(camino, "/") {
				if s == "." || s == ".." {
					t.Fatalf("%q → %q conserva un segmento de puntos", objetivo, camino)
				}
			}
		}
		// The URL built from it is written back on the request line unchanged.
		u := urlHacia(&url.URL{Scheme: "http", Host: "h"}, camino, consulta)
		want := camino
		if consulta != "" {
			want += "?" + consulta
		}
		if got := u.RequestURI(); !strings.HasPrefix(camino, "//") && got != want {
			t.Fatalf("%q: línea de petición %q", objetivo, got)
		}
	})
}

// What the revisor receives for odd targets, and the course's 502 for those it has no URL for.
func TestObjetivoComoElCurso(t *testing.T) {
	t.Parallel()
	var (
		mu     sync.Mutex
		vistos []string
	)
	ts := servidortest.Nuevo(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		vistos = append(vistos, r.RequestURI)
		mu.Unlock()
		w.WriteHeader(204)
	}))
	addr, log := levantar(t, ts.URL)
	for _, o := range []string{"/servicios/../servicios/1", "/servicios/1#frag", "/servicios/%41", "//servicios", "/x?a'b", "/ñ", "/y?"} {
		got := prueba.PedirCrudo(t, addr, "GET "+o+" HTTP/1.1\r\nHost: p\r\nConnection: close\r\n\r\n")
		if !strings.HasPrefix(got, "HTTP/1.1 204 ") {
			t.Fatalf("%s:\n%s", o, got)
		}
	}
	for _, o := range []string{"*", "http://otro.example/servicios"} {
		got := prueba.PedirCrudo(t, addr, "OPTIONS "+o+" HTTP/1.1\r\nHost: p\r\nConnection: close\r\n\r\n")
		if !strings.HasPrefix(got, "HTTP/1.1 502 Bad Gateway\r\n") || !strings.HasSuffix(got, sinRevisor) {
			t.Fatalf("%s:\n%s", o, got)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	want := []string{"/servicios/1", "/servicios/1", "/servicios/%41", "//servicios", "/x?a%27b", "/%C3%B1", "/y"}
	if strings.Join(vistos, " ") != strings.Join(want, " ") {
		t.Fatalf("el revisor vio %q, se esperaba %q", vistos, want)
	}
	if log.String() != strings.Repeat("pasarela: el revisor no respondió\n", 2) {
		t.Fatalf("bitácora %q", log.String())
	}
}
