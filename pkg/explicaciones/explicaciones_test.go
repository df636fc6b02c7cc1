package explicaciones_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"cursohttp/internal/contrato"
	"cursohttp/pkg/documentoapi"
	"cursohttp/pkg/explicaciones"
	"cursohttp/pkg/grabacion"
	"cursohttp/pkg/problema"
)

// Every type of the catalogue has its page, whole: what happened, the table's action, the key's
// case, at least one lesson; and each one the document says the revisor answers, an example that
// is a response the OpenAPI document admits for an operation that answers that type (pkg/revisor's
// contract test writes the examples from what the real revisor answered, and fails when one
// drifts). A type no operation answers yet has no example: the change that makes the revisor
// answer it records one.
func TestCadaTypeTieneSuPagina(t *testing.T) {
	t.Parallel()
	c, err := contrato.Nuevo(documentoapi.Documento())
	if err != nil {
		t.Fatal(err)
	}
	respondidos := map[problema.Tipo]bool{}
	for _, r := range c.Documentadas() {
		respondidos[problema.Tipo{Type: r.Tipo, Status: r.Codigo}] = true
	}
	paginas := explicaciones.Paginas()
	if len(paginas) != len(problema.DelRevisor()) {
		t.Fatalf("%d páginas para %d types", len(paginas), len(problema.DelRevisor()))
	}
	for _, p := range paginas {
		if p.Que == "" || p.Llave == "" || len(p.Citas) == 0 || p.Decision.Accion == "" {
			t.Errorf("%s: página incompleta: %+v", p.Nombre(), p)
			continue
		}
		if !respondidos[problema.Tipo{Type: p.Tipo.Type, Status: p.Tipo.Status}] {
			if p.Ejemplo != "" || len(p.Operaciones) > 0 {
				t.Errorf("%s: ninguna respuesta del documento es de este type, y su página tiene ejemplo u operaciones", p.Nombre())
			}
			continue
		}
		if p.Ejemplo == "" {
			t.Errorf("%s: el revisor lo responde y su página no tiene ejemplo (go test ./pkg/revisor -run TestContrato -actualizar lo escribe)", p.Nombre())
			continue
		}
		i := leerEjemplo(t, p.Ejemplo)
		r, err := c.Validar(i)
		if err != nil {
			t.Errorf("%s: su ejemplo no es una respuesta del documento: %v", p.Nombre(), err)
			continue
		}
		if r.Codigo != p.Tipo.Status || r.Tipo != p.Tipo.Type {
			t.Errorf("%s: su ejemplo es un %d %s", p.Nombre(), r.Codigo, r.Tipo)
		}
		if !strings.HasPrefix(r.Operacion, "fuera:") && !contiene(p.Operaciones, r.Operacion) {
			t.Errorf("%s: el ejemplo sale de %s, que la página no nombra entre %v", p.Nombre(), r.Operacion, p.Operaciones)
		}
	}
}

func contiene(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// leerEjemplo reads an example back: the request line and headers, a blank line, the status
// line, the response headers, a blank line, the body.
func leerEjemplo(t *testing.T, texto string) grabacion.Intercambio {
	t.Helper()
	peticion, respuesta, _ := strings.Cut(texto, "\n\n")
	cabeza, cuerpo, _ := strings.Cut(respuesta, "\n\n")
	linea := strings.Fields(strings.Split(peticion, "\n")[0])
	lineas := strings.Split(cabeza, "\n")
	codigo, err := strconv.Atoi(strings.Fields(lineas[0])[1])
	if err != nil || len(linea) != 2 {
		t.Fatalf("ejemplo mal escrito:\n%s", texto)
	}
	h := http.Header{}
	for _, l := range lineas[1:] {
		n, v, _ := strings.Cut(l, ": ")
		h[n] = append(h[n], v)
	}
	return grabacion.Intercambio{Metodo: linea[0], Ruta: linea[1], Codigo: codigo, Cabeceras: h, Cuerpo: []byte(cuerpo)}
}

// A name finds its page; a status, every type of the catalogue with that status.
func TestBuscar(t *testing.T) {
	t.Parallel()
	deCodigo := map[int]int{}
	for _, c := range problema.DelRevisor() {
		deCodigo[problema.Buscar(c).Status]++
	}
	for nombre, want := range map[string]int{"llave-en-curso": 1, "https://revisor.example/problemas/llave-en-curso": 1,
		"409": deCodigo[409], "404": deCodigo[404], "500": deCodigo[500]} {
		ps, err := explicaciones.Buscar(nombre)
		if err != nil || len(ps) != want {
			t.Errorf("Buscar(%q): %d páginas, %v; se esperaban %d", nombre, len(ps), err, want)
		}
	}
	for _, nombre := range []string{"no-existe", "418", "constructor"} {
		if _, err := explicaciones.Buscar(nombre); err == nil {
			t.Errorf("Buscar(%q) encontró algo", nombre)
		}
	}
}
