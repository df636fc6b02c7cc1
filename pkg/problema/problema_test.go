package problema

import (
	"net/http/httptest"
	"strings"
	"testing"

	"cursohttp/internal/nodejs"
	"cursohttp/pkg/curso"
)

func TestEscribirComoElCurso(t *testing.T) {
	t.Parallel()
	rec := httptest.NewRecorder()
	r := httptest.NewRequest("GET", "/servicios/99?x=1", nil)
	Escribir(rec, r, ServicioInexistente, "no existe el servicio 99")
	quiere := `{"type":"https://revisor.example/problemas/servicio-inexistente","title":"El servicio no existe","status":404,"detail":"no existe el servicio 99","instance":"/servicios/99"}` + "\n"
	if rec.Code != 404 || rec.Body.String() != quiere {
		t.Errorf("%d %s", rec.Code, rec.Body.String())
	}
	h := rec.Header()
	if h.Get("Content-Type") != "application/problem+json" || h.Get("Content-Language") != "es" || h.Get("Content-Length") != "174" {
		t.Errorf("cabeceras %v", h)
	}
}

func TestExtensionesYCabeceras(t *testing.T) {
	t.Parallel()
	rec := httptest.NewRecorder()
	r := httptest.NewRequest("POST", "/servicios", nil)
	errores := []nodejs.Objeto{{{Nombre: "detail", Valor: "debe ser true o false"}, {Nombre: "pointer", Valor: "#/activo"}}}
	Escribir(rec, r, DatosInvalidos, "1 dato(s) no se pueden cumplir", ConExtension("errors", errores),
		ConCabecera("WWW-Authenticate", `Bearer realm="revisor"`), ConInstance("urn:uuid:x"))
	if !strings.HasSuffix(rec.Body.String(), `"instance":"urn:uuid:x","errors":[{"detail":"debe ser true o false","pointer":"#/activo"}]}`+"\n") {
		t.Errorf("cuerpo %s", rec.Body.String())
	}
	if rec.Header()["WWW-Authenticate"][0] != `Bearer realm="revisor"` || rec.Code != 422 {
		t.Errorf("%d %v", rec.Code, rec.Header())
	}
}

func TestCadaTipoTieneSuCodigoYSuTitulo(t *testing.T) {
	t.Parallel()
	vistas := map[Clave]bool{}
	for _, e := range catalogo {
		c, tipo := e.clave, e.Tipo
		if vistas[c] {
			t.Errorf("%s: dos filas en el catálogo", c)
		}
		vistas[c] = true
		if tipo.Status < 400 || tipo.Status > 599 || tipo.Title == "" {
			t.Errorf("%s: %+v", c, tipo)
		}
		if tipo.Type != "about:blank" && tipo.Type != curso.Problemas+string(c) {
			t.Errorf("%s: type %s", c, tipo.Type)
		}
	}
}

func TestExtensionReservadaEsUnError(t *testing.T) {
	t.Parallel()
	defer func() {
		if recover() == nil {
			t.Error("ConExtension(\"status\") no se negó")
		}
	}()
	ConExtension("status", 1)
}

// Lesson 4's fallar: the status and headers of the entry, the detail as one line of text, no
// instance and no extension (K6, D3).
func TestEscribirTextoComoLaLeccion4(t *testing.T) {
	t.Parallel()
	rec := httptest.NewRecorder()
	r := httptest.NewRequest("GET", "/servicios", nil)
	EscribirTexto(rec, r, EnMantenimiento, "el revisor está en mantenimiento", ConCabecera("Retry-After", "120"),
		ConExtension("errors", []string{"x"}), ConInstance("urn:uuid:x"))
	if rec.Code != 503 || rec.Body.String() != "el revisor está en mantenimiento\n" {
		t.Errorf("%d %q", rec.Code, rec.Body.String())
	}
	h := rec.Header()
	if h.Get("Content-Type") != "text/plain; charset=utf-8" || h.Get("Content-Length") != "34" ||
		h.Get("Retry-After") != "120" || h.Get("Content-Language") != "" {
		t.Errorf("cabeceras %v", h)
	}
}

// cuerpo writes member by member the very bytes nodejs.CodificarJSON writes for the object {type, title, status,
// detail, instance, …extensions}, whatever the texts hold.
func TestCuerpoComoElObjeto(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		t                Tipo
		detail, instance string
		ext              nodejs.Objeto
	}{
		{Buscar(RutaInexistente), "no existe esa ruta", "/no-existe", nil},
		{Buscar(DatosInvalidos), "2 dato(s) \"raros\"\n\t<&>", "/servicios/%E2%82%AC", nodejs.Objeto{
			{Nombre: "errors", Valor: []nodejs.Objeto{{{Nombre: "detail", Valor: "x"}, {Nombre: "pointer", Valor: "#/nombre"}}}},
			{Nombre: "existente", Valor: "/servicios/3"}, {Nombre: "n", Valor: 1.5}, {Nombre: "nada", Valor: nil},
		}},
		{Tipo{"about:blank", "I'm a \\ Teapot \x01", 418}, "ñandú ☃ \u2028", "urn:uuid:x", nil},
		{Tipo{"", "", 0}, "", "", nodejs.Objeto{}},
	} {
		quiere := append(nodejs.CodificarJSON(append(nodejs.Objeto{
			{Nombre: "type", Valor: c.t.Type}, {Nombre: "title", Valor: c.t.Title}, {Nombre: "status", Valor: c.t.Status},
			{Nombre: "detail", Valor: c.detail}, {Nombre: "instance", Valor: c.instance},
		}, c.ext...)), '\n')
		if got := cuerpo(prefijo(c.t), c.detail, c.instance, c.ext); string(got) != string(quiere) {
			t.Errorf("cuerpo:\n%s\nquiere\n%s", got, quiere)
		}
	}
}

// Every key of the catalogue, once, by status.
func TestClaves(t *testing.T) {
	t.Parallel()
	claves := Claves()
	if len(claves) != len(catalogo) || len(porClave) != len(catalogo) {
		t.Fatalf("%d claves, el catálogo tiene %d", len(claves), len(catalogo))
	}
	for i, c := range claves {
		if Buscar(c).Status == 0 || (i > 0 && Buscar(claves[i-1]).Status > Buscar(c).Status) {
			t.Errorf("clave %d, %s: %+v", i, c, Buscar(c))
		}
	}
}
