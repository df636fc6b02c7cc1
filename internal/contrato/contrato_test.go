package contrato_test

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"cursohttp/internal/contrato"
	"cursohttp/pkg/grabacion"
	"cursohttp/pkg/revisor"
	"cursohttp/pkg/variantes"
)

var final = sync.OnceValues(func() (*contrato.Contrato, error) {
	return contrato.Nuevo(revisor.Documento(variantes.Eleccion{}))
})

func problema(codigo int, tipo, titulo, extra string, cabeceras ...string) grabacion.Intercambio {
	h := http.Header{"Content-Type": {"application/problem+json"}, "Content-Language": {"es"}}
	for _, c := range cabeceras {
		n, v, _ := strings.Cut(c, ": ")
		h[n] = []string{v}
	}
	return grabacion.Intercambio{Codigo: codigo, Cabeceras: h, Cuerpo: []byte(`{"type":"https://revisor.example/problemas/` + tipo +
		`","title":"` + titulo + `","status":` + strconv.Itoa(codigo) + `,"detail":"d","instance":"/x"` + extra + "}\n")}
}

func en(i grabacion.Intercambio, metodo, ruta string) grabacion.Intercambio {
	i.Metodo, i.Ruta = metodo, ruta
	return i
}

// The validator is not a rubber stamp: each of these departs from the document in one way, and
// each is refused; the same answers done right pass.
func TestRechazaLoQueElDocumentoNoDice(t *testing.T) {
	t.Parallel()
	c, err := final()
	if err != nil {
		t.Fatal(err)
	}
	servicio := grabacion.Intercambio{Codigo: 200, Cabeceras: http.Header{"Content-Type": {"application/json"}, "ETag": {`"1-1-6db25d01"`}},
		Cuerpo: []byte(`{"id":1,"nombre":"catalogo","url":"http://127.0.0.1:18081/codigo/200","limite_ms":2000}` + "\n")}
	sinEtiqueta := servicio
	sinEtiqueta.Cabeceras = http.Header{"Content-Type": {"application/json"}}
	otroMiembro := servicio
	otroMiembro.Cuerpo = []byte(`{"id":1,"nombre":"catalogo","url":"u","limite_ms":2000,"equipo":"a"}`)
	credencial := problema(401, "credencial-invalida", "Falta una credencial válida", "", `WWW-Authenticate: Bearer realm="revisor"`)
	buenas := map[string]grabacion.Intercambio{
		"un servicio": en(servicio, "GET", "/servicios/1"),
		"un 401":      en(credencial, "GET", "/servicios/1"),
		"un 404 afuera": en(grabacion.Intercambio{Codigo: 404, Cabeceras: http.Header{"Content-Type": {"application/problem+json"}, "Content-Language": {"es"}},
			Cuerpo: []byte(`{"type":"about:blank","title":"Not Found","status":404,"detail":"no existe esa ruta","instance":"/no-existe"}`)}, "GET", "/no-existe"),
	}
	for nombre, i := range buenas {
		if _, err := c.Validar(i); err != nil {
			t.Errorf("%s: %v", nombre, err)
		}
	}
	malas := map[string]grabacion.Intercambio{
		"sin ETag":                  en(sinEtiqueta, "GET", "/servicios/1"),
		"un miembro de más":         en(otroMiembro, "GET", "/servicios/1"),
		"un código no documentado":  en(problema(409, "nombre-repetido", "Ya existe un servicio con ese nombre", `,"existente":"/servicios/1"`), "GET", "/servicios/1"),
		"otro type para ese código": en(problema(404, "revision-inexistente", "La revisión no existe", ""), "GET", "/servicios/1"),
		"401 sin WWW-Authenticate":  en(problema(401, "credencial-invalida", "Falta una credencial válida", ""), "GET", "/servicios/1"),
		"otro título":               en(problema(401, "credencial-invalida", "Sin credencial", "", `WWW-Authenticate: Bearer realm="revisor"`), "GET", "/servicios/1"),
		"un 200 fuera de las rutas": en(servicio, "GET", "/no-existe"),
		"/servicios/abc es afuera":  en(servicio, "GET", "/servicios/abc"),
		"un 405 sin Allow":          en(grabacion.Intercambio{Codigo: 405, Cabeceras: http.Header{"Content-Type": {"application/problem+json"}, "Content-Language": {"es"}}, Cuerpo: []byte(`{"type":"about:blank","title":"Method Not Allowed","status":405,"detail":"d","instance":"/servicios"}`)}, "PATCH", "/servicios"),
		"un 422 sin errors":         en(problema(422, "datos-invalidos", "Los datos no se pueden cumplir", ""), "POST", "/servicios"),
	}
	for nombre, i := range malas {
		if _, err := c.Validar(i); err == nil {
			t.Errorf("%s: el validador la dio por buena", nombre)
		}
	}
}
