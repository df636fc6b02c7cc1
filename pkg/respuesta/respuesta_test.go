package respuesta

import (
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"cursohttp/internal/nodejs"
	"cursohttp/pkg/topes"
)

func TestRutaComoElParserDeURL(t *testing.T) {
	t.Parallel()
	casos := map[string]string{
		"/servicios":                "/servicios",
		"/servicios/1?x=1":          "/servicios/1",
		"/a/../servicios":           "/servicios",
		"/a/%2e%2E/servicios":       "/servicios",
		"/servicios/./1":            "/servicios/1",
		"/servicios/1/..":           "/servicios/",
		"/a\\b":                     "/a/b",
		"/a b":                      "/a%20b",
		"/%31":                      "/%31",
		"/ñ":                        "/%C3%B1",
		"/x{y}":                     "/x%7By%7D",
		"http://h:1/servicios?q":    "/servicios",
		"/../../servicios":          "/servicios",
		"/servicios//1":             "/servicios//1",
		"/v0/":                      "/v0/",
		"/servicios/1#fragmento":    "/servicios/1",
		"/servicios/%2F1":           "/servicios/%2F1",
		"/api/servicios/1?orden=id": "/api/servicios/1",
		"//host/servicios":          "/servicios",
		"/\\host/servicios":         "/servicios",
		"//host":                    "/",
		"":                          "/",
		"*":                         "/*",
	}
	for objetivo, quiere := range casos {
		r := httptest.NewRequest("GET", "/", nil)
		r.RequestURI = objetivo
		if got := Ruta(r); got != quiere {
			t.Errorf("Ruta(%q) = %q, quiere %q", objetivo, got, quiere)
		}
	}
}

func TestJSONYVacio(t *testing.T) {
	t.Parallel()
	rec := httptest.NewRecorder()
	JSON(rec, httptest.NewRequest("GET", "/", nil), 200, map[string]any{"a": "<b>"}, Cabecera{"ETag", `"1-1-x"`})
	if rec.Body.String() != "{\"a\":\"<b>\"}\n" || rec.Header()["ETag"][0] != `"1-1-x"` || rec.Header().Get("Content-Length") != "12" {
		t.Errorf("JSON: %q %v", rec.Body.String(), rec.Header())
	}
	for codigo, largo := range map[int]string{204: "", 304: "", 301: "0"} {
		rec := httptest.NewRecorder()
		Vacio(rec, httptest.NewRequest("GET", "/", nil), codigo, Cabecera{"Location", "/x"})
		if rec.Code != codigo || rec.Header().Get("Content-Length") != largo || rec.Header().Get("Location") != "/x" {
			t.Errorf("Vacio(%d): %d %v", codigo, rec.Code, rec.Header())
		}
	}
	h := http.Header{}
	h.Set("Etag", "viejo")
	Poner(h, Cabecera{"ETag", "nuevo"})
	if len(h) != 1 || h["ETag"][0] != "nuevo" {
		t.Errorf("Poner no reemplazó el nombre canónico: %v", h)
	}
}

// ListaJSON sends the bytes and headers JSON sends for the same object, whether the list fits in
// topes.Listado or is sent piece by piece.
func TestListaJSONComoJSON(t *testing.T) {
	t.Parallel()
	elemento := func(i int) any {
		return nodejs.Objeto{{Nombre: "id", Valor: i}, {Nombre: "url", Valor: "http://x/" + strings.Repeat("ñ", i%500)}}
	}
	for _, n := range []int{0, 1, 3, 100, 2000} {
		for _, metodo := range []string{"GET", "HEAD"} {
			lista := make([]nodejs.Objeto, n)
			for i := range lista {
				lista[i] = elemento(i).(nodejs.Objeto)
			}
			quiere := httptest.NewRecorder()
			r := httptest.NewRequest(metodo, "/servicios", nil)
			JSON(quiere, r, 200, nodejs.Objeto{{Nombre: "servicios", Valor: lista}}, Cabecera{"Link", "<x>"})
			got := httptest.NewRecorder()
			ListaJSON(got, r, 200, "servicios", n, elemento, Cabecera{"Link", "<x>"})
			largo := len(quiere.Body.Bytes())
			if metodo == "HEAD" {
				quiere.Body.Reset() // net/http would drop a HEAD's body; ListaJSON does not send the long one
				if largo <= topes.Listado {
					got.Body.Reset()
				}
			}
			if got.Body.String() != quiere.Body.String() || !maps.EqualFunc(got.Header(), quiere.Header(), slices.Equal) {
				t.Errorf("%s de %d elementos (%d bytes): encabezados %v, %d bytes; se esperaba %v, %d bytes",
					metodo, n, largo, got.Header(), got.Body.Len(), quiere.Header(), quiere.Body.Len())
			}
		}
	}
}

// ArmarLista builds the body JSON sends for the same object, from a buffer too small or large
// enough, when it fits in its limit to the byte, and nothing when it is one byte short.
func TestArmarListaComoJSON(t *testing.T) {
	t.Parallel()
	elemento := func(i int) any {
		return nodejs.Objeto{{Nombre: "id", Valor: i}, {Nombre: "url", Valor: "http://x/\"" + strings.Repeat("ñ", i%50)}}
	}
	for _, n := range []int{0, 1, 3, 100} {
		lista := make([]nodejs.Objeto, n)
		for i := range lista {
			lista[i] = elemento(i).(nodejs.Objeto)
		}
		quiere := append(nodejs.CodificarJSON(nodejs.Objeto{{Nombre: "servicios", Valor: lista}}), '\n')
		for _, reserva := range []int{0, len(quiere) / 2, len(quiere)} {
			if got, ok := ArmarLista("servicios", n, elemento, reserva, len(quiere)); !ok || string(got) != string(quiere) {
				t.Errorf("%d elementos en %d bytes, reservando %d: %v, %q\nse esperaba %q", n, len(quiere), reserva, ok, got, quiere)
			}
		}
		if got, ok := ArmarLista("servicios", n, elemento, len(quiere), len(quiere)-1); ok || got != nil {
			t.Errorf("%d elementos en %d bytes, uno menos de los que ocupan: %v, %d bytes", n, len(quiere)-1, ok, len(got))
		}
	}
}
