package revisor

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"cursohttp/internal/prueba/servidortest"
	"cursohttp/pkg/variantes"
)

// The revisor of Lesson 4 (fig04_01), as the lesson prints each answer: the errors are a line of
// text, the rest is the final revisor's.

func leccion4(o *Opciones) { o.Programa = variantes.Eleccion{Leccion: 4} }

// conVariante starts the program the command line «revisor ARGS» would.
func conVariante(t *testing.T, p variantes.Pedido) ajuste {
	t.Helper()
	e, err := variantes.Resolver(variantes.Revisor, p)
	if err != nil {
		t.Fatal(err)
	}
	return func(o *Opciones) { o.Programa = e }
}

// Series B in Lesson 4's words: the reference in a line of text, 63 bytes; the terminal as in L7.
func TestPrograma4Error500EnTexto(t *testing.T) {
	t.Parallel()
	e := nuevoEntorno(t, rapido, leccion4)
	r := e.pedir("GET", "/servicios/1/informe", "", cred("lectura-a"))
	r.comoLaLeccion(t, `HTTP/1.1 500 Internal Server Error
Content-Type: text/plain; charset=utf-8
Content-Length: 63

error interno; referencia affc3b8a-5ab9-42f5-8b37-2face1f8eafd`)
	ref := reUUID.FindString(r.cuerpo)
	if !strings.HasPrefix(e.err.String(), "error "+ref+" en GET /servicios/1/informe: runtime error: index out of range [-1]\n    at cursohttp/") {
		t.Errorf("bitácora de errores:\n%s", e.err.String())
	}
}

// Series C, D, F and K: every error of the lesson, byte for byte.
func TestPrograma4ErroresComoLaLeccion(t *testing.T) {
	t.Parallel()
	e := nuevoEntorno(t, rapido, leccion4)
	e.pedir("GET", "/servicios/5/salud", "", cred("escritura-a")).comoLaLeccion(t, `HTTP/1.1 504 Gateway Timeout
Content-Type: text/plain; charset=utf-8
Content-Length: 39

el servicio 5 no respondió en 1000 ms`)
	e.pedir("GET", "/servicios/6/salud", "", cred("escritura-a")).comoLaLeccion(t, `HTTP/1.1 502 Bad Gateway
Content-Type: text/plain; charset=utf-8
Content-Length: 102

el servicio 6 no dio una respuesta HTTP válida: cortó la conexión o respondió algo que no es HTTP`)
	e.pedir("PUT", "/mantenimiento", `{"activo":true}`, cred("escritura-a"), jsonCT).comoLaLeccion(t, `HTTP/1.1 403 Forbidden
Content-Type: text/plain; charset=utf-8
Content-Length: 59

solo quien opera el revisor puede cambiar el mantenimiento`)
	e.pedir("PUT", "/mantenimiento", `{"activo":"si"}`, cred("admin"), jsonCT).comoLaLeccion(t, `HTTP/1.1 422 Unprocessable Content
Content-Type: text/plain; charset=utf-8
Content-Length: 30

activo: debe ser true o false`)
	e.pedir("PUT", "/mantenimiento", `{"activo":true}`, cred("admin"), jsonCT).comoLaLeccion(t, "HTTP/1.1 204 No Content\n\n")
	for _, ruta := range []string{"/servicios", "/no-existe"} {
		e.pedir("GET", ruta, "").comoLaLeccion(t, `HTTP/1.1 503 Service Unavailable
Retry-After: 120
Content-Type: text/plain; charset=utf-8
Content-Length: 34

el revisor está en mantenimiento`)
	}
	e.pedir("PUT", "/mantenimiento", `{"activo":false}`, cred("admin"), jsonCT).comoLaLeccion(t, "HTTP/1.1 204 No Content\n\n")
	for range 3 {
		e.pedir("POST", "/servicios/2/revisiones", "", cred("escritura-a"))
	}
	e.pedir("POST", "/servicios/2/revisiones", "", cred("escritura-a")).comoLaLeccion(t, `HTTP/1.1 429 Too Many Requests
Retry-After: 60
Content-Type: text/plain; charset=utf-8
Content-Length: 45

ya pediste 3 revisiones en el último minuto`)
	for range 3 {
		e.pedir("GET", "/servicios/2/salud", "", cred("lectura-a"))
	}
	e.pedir("GET", "/servicios/1/salud", "", cred("lectura-a")).comoLaLeccion(t, `HTTP/1.1 429 Too Many Requests
Retry-After: 60
Content-Type: text/plain; charset=utf-8
Content-Length: 52

ya pediste 3 consultas en vivo en el último minuto`)
	e.pedir("GET", "/servicios/3/salud", "", cred("escritura-a")).comoLaLeccion(t, `HTTP/1.1 404 Not Found
Content-Type: text/plain; charset=utf-8
Content-Length: 24

no existe el servicio 3`)
	e.pedir("POST", "/servicios/5/revisiones", "", cred("lectura-a")).comoLaLeccion(t, `HTTP/1.1 403 Forbidden
Content-Type: text/plain; charset=utf-8
Content-Length: 74

tu credencial solo puede leer; para escribir pide una con rol de escritor`)
	e.pedir("PUT", "/mantenimiento", "").comoLaLeccion(t, `HTTP/1.1 401 Unauthorized
WWW-Authenticate: Bearer realm="revisor"
Content-Type: text/plain; charset=utf-8

falta la credencial`)
	e.pedir("GET", "/mantenimiento", "", cred("admin")).comoLaLeccion(t, `HTTP/1.1 405 Method Not Allowed
Allow: PUT
Content-Type: text/plain; charset=utf-8

GET no se admite en /mantenimiento`)
	e.pedir("PUT", "/mantenimiento", `{}`, cred("admin"), "Content-Type: text/plain").comoLaLeccion(t, `HTTP/1.1 415 Unsupported Media Type
Accept: application/json
Content-Type: text/plain; charset=utf-8

el cuerpo debe ser application/json, no text/plain`)
	e.pedir("GET", "/v0/servicios", "").comoLaLeccion(t, `HTTP/1.1 410 Gone
Content-Type: text/plain; charset=utf-8

la versión 0 de la API se retiró el 31 de enero de 2026; usa /servicios`)
}

// Lesson 4's 422 lists every field on its own line, and its 409 names the existing service.
func TestPrograma4DatosYNombreRepetido(t *testing.T) {
	t.Parallel()
	e := nuevoEntorno(t, rapido, leccion4)
	e.pedir("POST", "/servicios", `{"nombre":"","url":"ftp://archivos","limite_ms":50}`, cred("escritura-a"), jsonCT).comoLaLeccion(t, `HTTP/1.1 422 Unprocessable Content
Content-Type: text/plain; charset=utf-8

nombre: debe ser un texto de 1 a 40 caracteres
url: debe ser una dirección http o https
limite_ms: debe ser un entero entre 100 y 10000`)
	e.pedir("POST", "/servicios", `{"nombre":"catalogo","url":"http://127.0.0.1:18081/codigo/200"}`, cred("escritura-a"), jsonCT).comoLaLeccion(t, `HTTP/1.1 409 Conflict
Content-Type: text/plain; charset=utf-8

ya existe un servicio llamado catalogo: /servicios/1`)
}

// Lesson 4's program predates Lesson 6: no Idempotency-Key, no pause when saving.
func TestPrograma4SinIdempotenciaNiPausa(t *testing.T) {
	t.Parallel()
	e := nuevoEntorno(t, leccion4) // the course's 500 ms pause, had it one
	alta := `{"nombre":"colgado","url":"http://127.0.0.1:18081/cortar"}`
	r := e.pedir("POST", "/servicios", alta, cred("escritura-a"), jsonCT, "Idempotency-Key: k1")
	r.comoLaLeccion(t, `HTTP/1.1 201 Created
Location: /servicios/7
ETag: "7-1-6db25d01"
Content-Type: application/json
Content-Length: 83

{"id":7,"nombre":"colgado","url":"http://127.0.0.1:18081/cortar","limite_ms":2000}`)
	if r.duracion >= Guardar {
		t.Errorf("el alta tardó %v: la lección 4 no hace la pausa de guardar", r.duracion)
	}
	// The same key again is just another registration of the same name.
	e.pedir("POST", "/servicios", alta, cred("escritura-a"), jsonCT, "Idempotency-Key: k1").comoLaLeccion(t, `HTTP/1.1 409 Conflict
Content-Type: text/plain; charset=utf-8

ya existe un servicio llamado colgado: /servicios/7`)
	if strings.Contains(e.out.String(), "idempotencia") {
		t.Errorf("la bitácora habla de idempotencia:\n%s", e.out.String())
	}
}

// A check of Lesson 4 probes once; the final revisor retries a 502 up to three times.
func TestPrograma4RevisionSinReintentos(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		nombre string
		ajuste ajuste
		veces  int32
	}{{"lección 4", leccion4, 1}, {"final", func(*Opciones) {}, 3}} {
		t.Run(c.nombre, func(t *testing.T) {
			t.Parallel()
			var veces atomic.Int32
			caido := servidortest.Nuevo(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				veces.Add(1)
				w.WriteHeader(http.StatusBadGateway)
			}))
			addr := strings.TrimPrefix(caido.URL, "http://")
			e := nuevoEntorno(t, rapido, c.ajuste, func(o *Opciones) { o.Destinos = append(o.Destinos, addr) })
			if r := e.pedir("POST", "/servicios", `{"nombre":"caido","url":"`+caido.URL+`"}`, cred("escritura-a"), jsonCT); r.codigo() != "201" {
				t.Fatal(r.linea, r.cuerpo)
			}
			e.pedir("POST", "/servicios/7/revisiones", "", cred("escritura-a"))
			if r := e.esperarTerminada("1"); !strings.Contains(r.cuerpo, `"detalle":"502"`) {
				t.Fatalf("revisión: %s", r.cuerpo)
			}
			if got := veces.Load(); got != c.veces {
				t.Errorf("el servicio recibió %d consultas, se esperaban %d", got, c.veces)
			}
		})
	}
}

// Series I, the broken net: the trace travels to the client and the operator gets one bare line.
func TestPrograma4DefectoPila(t *testing.T) {
	t.Parallel()
	e := nuevoEntorno(t, rapido, conVariante(t, variantes.Pedido{Defecto: variantes.Pila}))
	r := e.pedir("GET", "/servicios/1/informe", "", cred("lectura-a"))
	if r.linea != "HTTP/1.1 500 Internal Server Error" || r.cab.Get("Content-Type") != "text/plain; charset=utf-8" ||
		r.cab.Get("Content-Length") != strconv.Itoa(len(r.crudo)) {
		t.Errorf("%s %v", r.linea, r.cab)
	}
	for _, fuga := range []string{"runtime error: index out of range [-1]\ngoroutine ", "cursohttp/pkg/revisor.(*Revisor).informe(",
		"pkg/revisor/servicios.go:", "net/http.(*conn).serve(", "net/http/server.go:"} { // file:line, with or without -trimpath
		if !strings.Contains(r.cuerpo, fuga) {
			t.Errorf("el cuerpo no lleva %q:\n%s", fuga, r.cuerpo)
		}
	}
	if !strings.HasSuffix(r.cuerpo, "\n") || strings.HasSuffix(r.cuerpo, "\n\n") {
		t.Errorf("el cuerpo termina en %q", r.cuerpo[max(0, len(r.cuerpo)-20):])
	}
	if got := e.err.String(); got != "error en GET /servicios/1/informe\n" {
		t.Errorf("terminal: %q", got)
	}
	// Only the net changed: the other errors are Lesson 4's.
	e.pedir("GET", "/servicios/3/salud", "", cred("lectura-a")).comoLaLeccion(t, "HTTP/1.1 404 Not Found\nContent-Type: text/plain; charset=utf-8\n\nno existe el servicio 3")
}

// Series J: the health query that does not classify. A timeout or garbage reaches the net and comes
// out as a 500 with a reference; the terminal shows the HTTP client's error as fetch's.
func TestPrograma4DefectoSinPasarela(t *testing.T) {
	t.Parallel()
	e := nuevoEntorno(t, rapido, conVariante(t, variantes.Pedido{Defecto: variantes.SinPasarela}))
	e.pedir("GET", "/servicios/2/salud", "", cred("lectura-a")).comoLaLeccion(t, `HTTP/1.1 200 OK
Content-Type: application/json

{"servicio":2,"codigo":503,"ms":20}`)
	r5 := e.pedir("GET", "/servicios/5/salud", "", cred("lectura-a"))
	r5.comoLaLeccion(t, `HTTP/1.1 500 Internal Server Error
Content-Type: text/plain; charset=utf-8
Content-Length: 63

error interno; referencia 53423d0e-11e2-4ce0-befe-6f701044a854`)
	if r5.duracion < 950*time.Millisecond || r5.duracion > 1500*time.Millisecond {
		t.Errorf("el 500 de reportes tardó %v; el límite del servicio es 1 s", r5.duracion)
	}
	r6 := e.pedir("GET", "/servicios/6/salud", "", cred("lectura-a"))
	r6.comoLaLeccion(t, `HTTP/1.1 500 Internal Server Error
Content-Type: text/plain; charset=utf-8
Content-Length: 63

error interno; referencia 3ec30ef1-4589-44c0-a95c-00c1195b86d9`)
	want := "error " + reUUID.FindString(r5.cuerpo) + " en GET /servicios/5/salud: TimeoutError: The operation was aborted due to timeout\n" +
		"error " + reUUID.FindString(r6.cuerpo) + " en GET /servicios/6/salud: TypeError: fetch failed\n"
	if got := e.err.String(); got != want {
		t.Errorf("terminal\n%s\nse esperaba\n%s", got, want)
	}
}

// Series M's variant: per service, after the lookup. The enumerator never meets the limit, and
// admin pays for escritura-a's three checks.
func TestPrograma4Ejercicio3PorServicio(t *testing.T) {
	t.Parallel()
	e := nuevoEntorno(t, rapido, conVariante(t, variantes.Pedido{Leccion: 4, LeccionDada: true, Ejercicio: 3, EjercicioDado: true}))
	var codigos []string
	for id := 1; id <= 10; id++ {
		codigos = append(codigos, e.pedir("POST", "/servicios/"+strconv.Itoa(id)+"/revisiones", "", cred("escritura-b")).codigo())
	}
	if got := strings.Join(codigos, " "); got != "404 404 202 404 404 404 404 404 404 404" {
		t.Errorf("enumerador: %s", got)
	}
	for range 3 {
		if r := e.pedir("POST", "/servicios/2/revisiones", "", cred("escritura-a")); r.codigo() != "202" {
			t.Errorf("escritura-a: %s", r.linea)
		}
	}
	e.pedir("POST", "/servicios/2/revisiones", "", cred("admin")).comoLaLeccion(t, `HTTP/1.1 429 Too Many Requests
Retry-After: 60
Content-Type: text/plain; charset=utf-8
Content-Length: 62

ya pediste 3 revisiones de este servicio en el último minuto`)
	// The live queries keep the course's limit, per credential.
	var salud []string
	for range 4 {
		salud = append(salud, e.pedir("GET", "/servicios/99/salud", "", cred("lectura-a")).codigo())
	}
	if got := strings.Join(salud, " "); got != "404 404 404 429" {
		t.Errorf("salud: %s", got)
	}
}

// Without a variant, the program is the final one: a defect or an exercise never leaks into it.
func TestSinVarianteNadaCambia(t *testing.T) {
	t.Parallel()
	rec := httptest.NewRecorder()
	rv := Nuevo(Opciones{})
	defer rv.Cerrar()
	rv.ServeHTTP(rec, httptest.NewRequest("GET", "/no-existe", nil))
	if rec.Header().Get("Content-Type") != "application/problem+json" {
		t.Errorf("%v", rec.Header())
	}
}
