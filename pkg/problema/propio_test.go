package problema

import (
	"net/http/httptest"
	"testing"

	"cursohttp/internal/nodejs"
	"cursohttp/pkg/respuesta"
)

// A problem of a program's own: the members in RFC 9457's order, detail only when given, the
// final newline, application/problem+json, no instance and no Content-Language.
func TestPropio(t *testing.T) {
	t.Parallel()
	casos := []struct {
		p         Propio
		cabeceras []respuesta.Cabecera
		codigo    int
		cuerpo    string
	}{
		{AboutBlank(502).ConDetail("el revisor no respondió: «x»"), nil, 502,
			`{"type":"about:blank","title":"Bad Gateway","status":502,"detail":"el revisor no respondió: «x»"}` + "\n"},
		{NuevoPropio("https://revisor.example/problemas/llave-en-curso", "Esa llave sigue en curso", 409),
			[]respuesta.Cabecera{{Nombre: "Retry-After", Valor: "1"}}, 409,
			`{"type":"https://revisor.example/problemas/llave-en-curso","title":"Esa llave sigue en curso","status":409}` + "\n"},
	}
	for _, c := range casos {
		rec := httptest.NewRecorder()
		c.p.Escribir(rec, httptest.NewRequest("GET", "/x", nil), c.cabeceras...)
		if rec.Code != c.codigo || rec.Body.String() != c.cuerpo || rec.Header().Get("Content-Type") != TipoMedio ||
			rec.Header().Get("Content-Language") != "" || (c.cabeceras != nil && rec.Header().Get("Retry-After") != "1") {
			t.Errorf("%d %v\n%s", rec.Code, rec.Header(), rec.Body.String())
		}
	}
	if got := string(nodejs.CodificarJSON(NuevoPropio("x", "x", 409).ConDetail("x").Objeto())); got != `{"type":"x","title":"x","status":409,"detail":"x"}` {
		t.Errorf("objeto: %s", got)
	}
}
