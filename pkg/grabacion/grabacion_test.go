package grabacion_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"cursohttp/pkg/grabacion"
)

func respuestaDe(t *testing.T, h http.Handler, metodo string) (int, http.Header, string) {
	t.Helper()
	srv := httptest.NewServer(h)
	defer srv.Close()
	req, _ := http.NewRequest(metodo, srv.URL+"/servicios/1?x=1", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	resp.Header.Del("Date")
	return resp.StatusCode, resp.Header, string(b)
}

// The recorder copies what the handler writes and changes nothing the client gets; what it keeps
// survives the trip through the file.
func TestGrabaSinCambiarLaRespuesta(t *testing.T) {
	t.Parallel()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["ETag"] = []string{`"1-1-x"`} // a name as the course writes it
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		io.WriteString(w, `{"id":1}`)
		io.WriteString(w, "\n")
		w.Header().Set("X-Tarde", "no") // after the head: not part of the response
	})
	var archivo bytes.Buffer
	a := grabacion.NuevoArchivo(&archivo)
	envuelto := grabacion.Envolver(h, a.Anotar)
	for _, metodo := range []string{"GET", "HEAD"} {
		c1, h1, b1 := respuestaDe(t, h, metodo)
		c2, h2, b2 := respuestaDe(t, envuelto, metodo)
		if c1 != c2 || b1 != b2 || len(h1) != len(h2) || h1.Get("ETag") != h2.Get("ETag") {
			t.Errorf("%s: sin grabar %d %v %q; grabando %d %v %q", metodo, c1, h1, b1, c2, h2, b2)
		}
	}
	is, err := grabacion.Leer(&archivo)
	if err != nil {
		t.Fatal(err)
	}
	if len(is) != 2 {
		t.Fatalf("%d intercambios grabados: %+v", len(is), is)
	}
	g := is[0]
	if g.Metodo != "GET" || g.Ruta != "/servicios/1?x=1" || g.Codigo != 201 || string(g.Cuerpo) != "{\"id\":1}\n" ||
		g.Cabeceras["ETag"][0] != `"1-1-x"` || g.Cabeceras.Get("X-Tarde") != "" || g.Cortado || g.Truncado {
		t.Errorf("GET grabado: %+v", g)
	}
	if h := is[1]; h.Metodo != "HEAD" || h.Codigo != 201 || len(h.Cuerpo) != 0 {
		t.Errorf("HEAD grabado: %+v", h)
	}
}

// A body past TopeCuerpo is kept cut and marked; a handler that panics is marked cut off.
func TestTopeYCorte(t *testing.T) {
	t.Parallel()
	var is []grabacion.Intercambio
	anotar := func(i grabacion.Intercambio) { is = append(is, i) }
	grande := grabacion.Envolver(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, strings.Repeat("x", grabacion.TopeCuerpo+10))
	}), anotar)
	grande.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
	if len(is) != 1 || len(is[0].Cuerpo) != grabacion.TopeCuerpo || !is[0].Truncado || is[0].Codigo != 200 {
		t.Errorf("cuerpo grande: %d bytes, truncado %v, código %d", len(is[0].Cuerpo), is[0].Truncado, is[0].Codigo)
	}
	cae := grabacion.Envolver(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "medio")
		panic(http.ErrAbortHandler)
	}), anotar)
	func() {
		defer func() { recover() }()
		cae.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
	}()
	if len(is) != 2 || !is[1].Cortado {
		t.Errorf("un manejador que corta: %+v", is[len(is)-1])
	}
}

// Without the variable nothing is wrapped.
func TestSinVariableNoGraba(t *testing.T) {
	t.Parallel()
	h := http.NewServeMux()
	got, cerrar, err := grabacion.DesdeEntorno(h, func(string) (string, bool) { return "", false })
	if err != nil || cerrar() != nil {
		t.Fatal(err)
	}
	if got != http.Handler(h) {
		t.Error("sin CURSOHTTP_GRABAR el manejador se envolvió igual")
	}
}
