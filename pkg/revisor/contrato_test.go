package revisor

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"cursohttp/internal/contrato"
	"cursohttp/pkg/almacen"
	"cursohttp/pkg/datos"
	"cursohttp/pkg/encabezado"
	"cursohttp/pkg/grabacion"
	"cursohttp/pkg/idempotencia"
	"cursohttp/pkg/problema"
	"cursohttp/pkg/topes"
	"cursohttp/pkg/variantes"
)

// grabados collects what a test's revisor answered.
type grabados struct {
	mu sync.Mutex
	is []grabacion.Intercambio
}

func (g *grabados) anotar(i grabacion.Intercambio) {
	g.mu.Lock()
	g.is = append(g.is, i)
	g.mu.Unlock()
}

// contratos are the two documents, loaded once per test binary (loading one takes a while).
var contratos = map[bool]func() (*contrato.Contrato, error){
	false: sync.OnceValues(func() (*contrato.Contrato, error) { return contrato.Nuevo(Documento(variantes.Eleccion{})) }),
	true:  sync.OnceValues(func() (*contrato.Contrato, error) { return contrato.Nuevo(Documento(variantes.Eleccion{Leccion: 4})) }),
}

// validarContrato checks every response the test's revisor gave against its program's document.
// The broken versions are wrong on purpose (a stack in the body, a 500 for a 504): they are left out.
func (e *entorno) validarContrato(p variantes.Eleccion) {
	t := e.t
	if p.Variante != nil && p.Variante.Tipo == variantes.Defecto {
		return
	}
	c, err := contratos[p.EnLeccion4()]()
	if err != nil {
		t.Errorf("el documento OpenAPI no carga: %v", err)
		return
	}
	e.grabados.mu.Lock()
	defer e.grabados.mu.Unlock()
	for _, i := range e.grabados.is {
		if i.Cortado {
			continue // the client saw a cut connection, not a response
		}
		r, err := c.Validar(i)
		if err != nil {
			t.Errorf("respuesta fuera del documento OpenAPI: %v\n%s", err, i.Cuerpo)
			continue
		}
		if e.cobertura != nil {
			e.cobertura.Anotar(r)
		}
		if e.alValidar != nil {
			e.alValidar(i, r)
		}
	}
}

// The document is true both ways: every answer the real revisor gives in these scenes validates
// against it (nuevoEntorno checks each), and every answer it lists — each operation's statuses
// with their types, HEAD's included, and what the gate answers outside the paths — is reached.
func TestContratoDelRevisorFinal(t *testing.T) { probarContrato(t, variantes.Eleccion{}) }

// Lesson 4's program has its own document: errors as a line of text, no Idempotency-Key.
func TestContratoDelRevisorDeLaLeccion4(t *testing.T) {
	probarContrato(t, variantes.Eleccion{Leccion: 4})
}

func probarContrato(t *testing.T, p variantes.Eleccion) {
	t.Parallel()
	c, err := contratos[p.EnLeccion4()]()
	if err != nil {
		t.Fatal(err)
	}
	cob := &contrato.Cobertura{}
	// The first answer of each type (not a HEAD's) is the example on its page (pkg/explicaciones).
	ejemplos := map[problema.Clave]grabacion.Intercambio{}
	var labs []string
	anotar := func(e *entorno) {
		e.cobertura = cob
		labs = append(labs, e.labAddr)
		e.alValidar = func(i grabacion.Intercambio, r contrato.Respuesta) {
			if c, ok := claveDe(r); ok && i.Metodo != "HEAD" {
				if _, hay := ejemplos[c]; !hay {
					ejemplos[c] = i
				}
			}
		}
	}
	programa := func(o *Opciones) {
		o.Programa = p
		o.Guardar = 5 * time.Millisecond
		o.CabecerasRateLimit = true
		o.EsperaCierre = 50 * time.Millisecond
	}
	// Subtests one after another: each one's recording is checked (and tallied) when it ends.
	t.Run("rutas", func(t *testing.T) {
		e := nuevoEntorno(t, programa)
		anotar(e)
		contratoRutas(t, e, p)
	})
	t.Run("sin-credencial-y-en-mantenimiento", func(t *testing.T) {
		e := nuevoEntorno(t, programa)
		anotar(e)
		for _, op := range operacionesDe(c) {
			e.ambas(op.Metodo, strings.Replace(op.Ruta, "{id}", "1", 1), "")
		}
		e.pedir("PUT", "/mantenimiento", `{"activo":true}`, cred("admin"), jsonCT)
		for _, op := range operacionesDe(c) {
			e.ambas(op.Metodo, strings.Replace(op.Ruta, "{id}", "1", 1), "", cred("admin"))
		}
		e.pedir("GET", "/no-existe", "", cred("admin"))
		e.pedir("PATCH", "/servicios", "", cred("admin"))
	})
	t.Run("limites", func(t *testing.T) {
		e := nuevoEntorno(t, programa, func(o *Opciones) { o.TopeServicios = 1 })
		anotar(e)
		e.pedir("POST", "/servicios", `{"nombre":"uno-mas","url":"http://127.0.0.1:18081/codigo/200"}`, cred("escritura-a"), jsonCT)
	})
	if !p.EnLeccion4() {
		t.Run("llaves-en-curso", func(t *testing.T) {
			// The first registration stays in progress until the other two had their answers.
			correo := &retenida{nombre: "correo", llego: make(chan struct{}), seguir: make(chan struct{})}
			e := nuevoEntorno(t, programa, func(o *Opciones) {
				correo.Almacen = almacen.NuevaMemoria(almacen.Opciones{Arranque: arranqueDePrueba,
					Llaves: idempotencia.Opciones{EnCursoPorCredencial: 1}})
				o.Almacen = correo
			})
			anotar(e)
			alta := `{"nombre":"correo","url":"http://127.0.0.1:18081/codigo/200"}`
			hecha := make(chan respuestaDePrueba)
			go func() {
				hecha <- e.pedir("POST", "/servicios", alta, cred("escritura-a"), jsonCT, "Idempotency-Key: k1")
			}()
			<-correo.llego
			e.pedir("POST", "/servicios", alta, cred("escritura-a"), jsonCT, "Idempotency-Key: k1")
			e.pedir("POST", "/servicios", `{"nombre":"otro","url":"http://127.0.0.1:18081/codigo/200"}`, cred("escritura-a"), jsonCT, "Idempotency-Key: k2")
			close(correo.seguir)
			<-hecha
		})
	}
	t.Run("almacen-caido", func(t *testing.T) {
		e := nuevoEntorno(t, programa, func(o *Opciones) {
			a, err := datos.Abrir(context.Background(), filepath.Join(t.TempDir(), "revisor.db"), almacen.Opciones{Arranque: arranqueDePrueba})
			if err != nil {
				t.Fatal(err)
			}
			a.Cerrar() // every query fails from here on: the 500 of every operation
			o.Almacen = a
		})
		anotar(e)
		for _, op := range operacionesDe(c) {
			e.ambas(op.Metodo, strings.Replace(op.Ruta, "{id}", "1", 1), `{"activo":true}`, cred("admin"), jsonCT)
		}
		e.pedir("GET", "/no-existe", "", cred("admin"))
		e.pedir("PATCH", "/servicios", "", cred("admin"))
	})
	if t.Failed() {
		return
	}
	faltan := cob.Faltan(c.Documentadas())
	for _, r := range faltan {
		t.Errorf("ninguna prueba llega a %v", r)
	}
	t.Logf("%d respuestas documentadas, %d alcanzadas", len(c.Documentadas()), len(c.Documentadas())-len(faltan))
	if !p.EnLeccion4() {
		compararEjemplos(t, c, ejemplos, labs)
	}
}

var actualizar = flag.Bool("actualizar", false, "reescribe los ejemplos de pkg/explicaciones/ejemplos con lo que respondió el revisor")

// claveDe is the catalogue entry of a documented answer (about:blank types by their status).
func claveDe(r contrato.Respuesta) (problema.Clave, bool) {
	if r.Tipo == "" {
		return "", false
	}
	for _, c := range problema.DelRevisor() {
		if t := problema.Buscar(c); t.Type == r.Tipo && t.Status == r.Codigo {
			return c, true
		}
	}
	return "", false
}

// The example on each type's page is a response the revisor gave in this test, written as curl -i
// shows it: the request, the status line, the headers that carry meaning and the body. A type of
// the catalogue that no answer of the document names has no example until something answers it.
func compararEjemplos(t *testing.T, doc *contrato.Contrato, ejemplos map[problema.Clave]grabacion.Intercambio, labs []string) {
	t.Helper()
	respondidos := map[problema.Clave]bool{}
	for _, r := range doc.Documentadas() {
		if c, ok := claveDe(r); ok {
			respondidos[c] = true
		}
	}
	dir := filepath.Join("..", "explicaciones", "ejemplos")
	for _, c := range problema.DelRevisor() {
		if !respondidos[c] {
			continue
		}
		i, ok := ejemplos[c]
		if !ok {
			t.Errorf("ninguna respuesta de %s para su página", c)
			continue
		}
		texto := ejemploDe(i, labs)
		archivo := filepath.Join(dir, string(c)+".txt")
		if *actualizar {
			if err := os.WriteFile(archivo, []byte(texto), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		guardado, err := os.ReadFile(archivo)
		if err != nil || normalizar(string(guardado)) != normalizar(texto) {
			t.Errorf("el ejemplo de %s no es lo que respondió el revisor (go test ./pkg/revisor -run TestContrato -actualizar lo reescribe):\n%s\nguardado:\n%s %v", c, texto, guardado, err)
		}
	}
}

// cabecerasDelEjemplo are the headers a page shows, in this order.
var cabecerasDelEjemplo = []string{"Location", "ETag", "Retry-After", "Allow", "Accept", "WWW-Authenticate", "Content-Type", "Content-Language"}

func ejemploDe(i grabacion.Intercambio, labs []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s\n", i.Metodo, i.Ruta)
	for _, n := range []string{"Authorization", "Content-Type", "If-Match", "If-None-Match", "Idempotency-Key"} {
		if v := i.Peticion.Get(n); v != "" {
			fmt.Fprintf(&b, "%s: %s\n", n, v)
		}
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "HTTP/1.1 %d %s\n", i.Codigo, encabezado.Frase(i.Codigo))
	for _, n := range cabecerasDelEjemplo {
		for k, vs := range i.Cabeceras {
			if strings.EqualFold(k, n) {
				fmt.Fprintf(&b, "%s: %s\n", n, strings.Join(vs, ", "))
			}
		}
	}
	cuerpo := string(i.Cuerpo)
	for _, l := range labs {
		cuerpo = strings.ReplaceAll(cuerpo, l, "127.0.0.1:18081")
	}
	fmt.Fprintf(&b, "\n%s", cuerpo)
	return b.String()
}

// operacionesDe are the document's operations ("GET /servicios/{id}"), HEAD left out: ambas sends
// it beside each GET.
func operacionesDe(c *contrato.Contrato) []struct{ Metodo, Ruta string } {
	var ops []struct{ Metodo, Ruta string }
	vistas := map[string]bool{}
	for _, r := range c.Documentadas() {
		metodo, ruta, _ := strings.Cut(r.Operacion, " ")
		if strings.HasPrefix(r.Operacion, "fuera:") || metodo == "HEAD" || vistas[r.Operacion] {
			continue
		}
		vistas[r.Operacion] = true
		ops = append(ops, struct{ Metodo, Ruta string }{metodo, ruta})
	}
	return ops
}

// ambas sends the request and, for a GET, its HEAD twin.
func (e *entorno) ambas(metodo, ruta, cuerpo string, cabeceras ...string) respuestaDePrueba {
	e.t.Helper()
	if metodo != "GET" {
		return e.pedir(metodo, ruta, cuerpo, cabeceras...)
	}
	r := e.pedir("GET", ruta, "", cabeceras...)
	e.pedir("HEAD", ruta, "", cabeceras...)
	return r
}

// contratoRutas walks each route through its answers, in an order that builds what the next
// needs: a service to retire, a pending check, a finished one.
func contratoRutas(t *testing.T, e *entorno, p variantes.Eleccion) {
	const lab = "http://127.0.0.1:18081"
	grande := `{"nombre":"` + strings.Repeat("x", topes.Cuerpo) + `"}`
	final := !p.EnLeccion4()
	escribe := func(metodo, ruta string, cuerpo string, cabeceras ...string) respuestaDePrueba {
		return e.pedir(metodo, ruta, cuerpo, append([]string{cred("escritura-a"), jsonCT}, cabeceras...)...)
	}
	debe := func(r respuestaDePrueba, codigo string) respuestaDePrueba {
		t.Helper()
		if r.codigo() != codigo {
			t.Fatalf("%s, se esperaba %s: %s", r.linea, codigo, r.cuerpo)
		}
		return r
	}
	// POST /servicios
	debe(e.ambas("GET", "/servicios", "", cred("lectura-a")), "200")
	avisos := `{"nombre":"avisos","url":"` + lab + `/codigo/200"}`
	if final {
		debe(escribe("POST", "/servicios", avisos, "Idempotency-Key: k1"), "201")
		debe(escribe("POST", "/servicios", avisos, "Idempotency-Key: k1"), "201")
		debe(escribe("POST", "/servicios", `{"nombre":"otro","url":"`+lab+`/codigo/200"}`, "Idempotency-Key: k1"), "422")
	} else {
		debe(escribe("POST", "/servicios", avisos), "201")
	}
	debe(e.pedir("POST", "/servicios", avisos, cred("lectura-a"), jsonCT), "403")
	debe(e.pedir("POST", "/servicios", avisos, "Content-Type: text/plain"+"", cred("escritura-a")), "415")
	debe(escribe("POST", "/servicios", `null`), "400")
	debe(escribe("POST", "/servicios", grande), "413")
	debe(escribe("POST", "/servicios", `{"nombre":"","url":"ftp://x"}`), "422")
	debe(escribe("POST", "/servicios", `{"nombre":"cerrado","url":"http://127.0.0.1:1/"}`), "422")
	debe(escribe("POST", "/servicios", `{"nombre":"catalogo","url":"`+lab+`/codigo/200"}`), "409")
	basura := strings.TrimPrefix(debe(escribe("POST", "/servicios", `{"nombre":"basura","url":"`+lab+`/basura"}`), "201").cab.Get("Location"), "/servicios/")
	lento := strings.TrimPrefix(debe(escribe("POST", "/servicios", `{"nombre":"lento","url":"`+lab+`/lento/2000","limite_ms":100}`), "201").cab.Get("Location"), "/servicios/")
	// A service whose address the revisor no longer connects to (written straight into the store,
	// as if the allowed destinations had changed since it was registered).
	prohibido, err := e.rv.Almacen().Crear(context.Background(), "a", almacen.Datos{Nombre: "prohibido", URL: "http://127.0.0.1:1/", LimiteMs: 2000}, 100, nil)
	if err != nil {
		t.Fatal(err)
	}

	// GET, PUT, DELETE /servicios/{id}
	etiqueta := debe(e.ambas("GET", "/servicios/1", "", cred("lectura-a")), "200").cab.Get("ETag")
	debe(e.ambas("GET", "/servicios/1", "", cred("lectura-a"), "If-None-Match: "+etiqueta), "304")
	debe(e.ambas("GET", "/servicios/3", "", cred("lectura-a")), "404")
	debe(escribe("PUT", "/servicios/1", `{"nombre":"catalogo","url":"`+lab+`/codigo/200"}`), "428")
	debe(escribe("PUT", "/servicios/1", `{"nombre":"catalogo","url":"`+lab+`/codigo/200"}`, `If-Match: "1-9-x"`), "412")
	debe(e.pedir("PUT", "/servicios/1", `{}`, cred("escritura-a"), "Content-Type: text/plain", "If-Match: *"), "415")
	debe(escribe("PUT", "/servicios/1", `[]`, "If-Match: *"), "400")
	debe(escribe("PUT", "/servicios/1", grande, "If-Match: *"), "413")
	debe(escribe("PUT", "/servicios/1", `{"nombre":"catalogo","url":"ftp://x"}`, "If-Match: *"), "422")
	debe(escribe("PUT", "/servicios/1", `{"nombre":"catalogo","url":"http://127.0.0.1:1/"}`, "If-Match: *"), "422")
	debe(escribe("PUT", "/servicios/1", `{"nombre":"pagos","url":"`+lab+`/codigo/200"}`, "If-Match: *"), "409")
	debe(escribe("PUT", "/servicios/1", `{"nombre":"catalogo","url":"`+lab+`/codigo/200"}`, "If-Match: "+etiqueta), "200")
	debe(e.pedir("PUT", "/servicios/1", `{}`, cred("lectura-a"), jsonCT), "403")
	debe(escribe("DELETE", "/servicios/7", ""), "204")
	for _, ruta := range []string{"/servicios/7", "/servicios/999"} {
		codigo := map[bool]string{true: "410", false: "404"}[ruta == "/servicios/7"]
		debe(e.ambas("GET", ruta, "", cred("lectura-a")), codigo)
		debe(escribe("PUT", ruta, `{}`, "If-Match: *"), codigo)
		debe(escribe("DELETE", ruta, ""), codigo)
		debe(e.ambas("GET", ruta+"/informe", "", cred("lectura-a")), codigo)
		debe(e.ambas("GET", "/v1"+ruta, "", cred("lectura-a")), codigo)
		debe(e.ambas("GET", ruta+"/salud", "", cred("lectura-a")), codigo)
		e.reloj.Avanzar(Ventana)
	}
	debe(e.pedir("DELETE", "/servicios/1", "", cred("lectura-a")), "403")

	// Checks: three per credential and window, then 429; a pending one carries Retry-After.
	debe(escribe("POST", "/servicios/999/revisiones", ""), "404")
	debe(escribe("POST", "/servicios/7/revisiones", ""), "410")
	revision := strings.TrimPrefix(debe(escribe("POST", "/servicios/1/revisiones", ""), "202").cab.Get("Location"), "/revisiones/")
	debe(escribe("POST", "/servicios/1/revisiones", ""), "429")
	debe(e.pedir("POST", "/servicios/1/revisiones", "", cred("lectura-a")), "403")
	debe(e.ambas("GET", "/revisiones/"+revision, "", cred("lectura-a")), "200")
	debe(e.ambas("GET", "/revisiones/999", "", cred("lectura-a")), "404")
	e.esperarTerminada(revision)
	debe(e.ambas("GET", "/servicios/1/informe", "", cred("lectura-a")), "200")
	debe(e.ambas("GET", "/servicios/2/informe", "", cred("lectura-a")), "500") // the lesson's planted defect

	// Live queries: each in a fresh window (HEAD counts too).
	for ruta, codigo := range map[string]string{"1": "200", basura: "502", lento: "504", strconv.Itoa(prohibido.ID): "422"} {
		e.reloj.Avanzar(Ventana)
		debe(e.ambas("GET", "/servicios/"+ruta+"/salud", "", cred("lectura-a")), codigo)
	}
	e.reloj.Avanzar(Ventana)
	for range 2 {
		e.ambas("GET", "/servicios/1/salud", "", cred("lectura-a"))
	}
	debe(e.ambas("GET", "/servicios/1/salud", "", cred("lectura-a")), "429")

	// Maintenance, by its admin only.
	debe(escribe("PUT", "/mantenimiento", `{"activo":true}`), "403")
	admin := func(cuerpo string, cabeceras ...string) respuestaDePrueba {
		return e.pedir("PUT", "/mantenimiento", cuerpo, append([]string{cred("admin")}, cabeceras...)...)
	}
	debe(admin(`{"activo":true}`, "Content-Type: text/plain"), "415")
	debe(admin(`1`, jsonCT), "400")
	debe(admin(grande, jsonCT), "413")
	debe(admin(`{"activo":"sí"}`, jsonCT), "422")
	debe(admin(`{"activo":false}`, jsonCT), "204")

	// The previous version, and what lies outside the paths.
	debe(e.ambas("GET", "/v1/servicios", "", cred("lectura-a")), "200")
	debe(e.ambas("GET", "/v1/servicios/1", "", cred("lectura-a")), "200")
	debe(e.pedir("GET", "/no-existe", "", cred("lectura-a")), "404")
	debe(e.pedir("GET", "/servicios/abc", "", cred("lectura-a")), "404")
	debe(e.pedir("GET", "/viejo/servicios/1?x=1", "", cred("lectura-a")), "301")
	debe(e.pedir("POST", "/api/servicios", "", cred("lectura-a")), "308")
	debe(e.pedir("GET", "/v0/servicios", "", cred("lectura-a")), "410")
	debe(e.pedir("PATCH", "/servicios/1", "", cred("lectura-a")), "405")
	debe(e.pedir("HEAD", "/mantenimiento", "", cred("lectura-a")), "405")
}
