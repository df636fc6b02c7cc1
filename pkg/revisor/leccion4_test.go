package revisor

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Series B (§4.3.2): the planted defect gives a 500 with a fresh reference each time; the operator's
// log gets the same reference, the panic's message and the project's frames; the body nothing else.
func TestLeccion4SerieBInformeSinRevisiones(t *testing.T) {
	t.Parallel()
	e := nuevoEntorno(t, rapido)
	var refs []string
	for range 2 {
		r := e.pedir("GET", "/servicios/1/informe", "", cred("lectura-a"))
		r.comoLaLeccion(t, `HTTP/1.1 500 Internal Server Error
Content-Type: application/problem+json
Content-Language: es
Content-Length: 244

{"type":"https://revisor.example/problemas/error-interno","title":"Error interno del revisor","status":500,"detail":"ocurrió un error inesperado; si se repite, reporta la referencia","instance":"urn:uuid:<uuid>"}`)
		ref := reUUID.FindString(r.cuerpo)
		refs = append(refs, ref)
		for _, prohibido := range []string{"runtime", "goroutine", ".go", "index out of range", "/work", "cursohttp"} {
			if strings.Contains(r.cuerpo, prohibido) {
				t.Errorf("el cuerpo del 500 lleva %q: %s", prohibido, r.cuerpo)
			}
		}
	}
	if refs[0] == "" || refs[0] == refs[1] {
		t.Fatalf("referencias %v: cada error lleva la suya", refs)
	}
	errores := e.err.String()
	for _, ref := range refs {
		primera := "error " + ref + " en GET /servicios/1/informe: runtime error: index out of range [-1]\n" +
			"    at cursohttp/pkg/revisor.(*Revisor).informe ("
		if !strings.Contains(errores, primera) {
			t.Errorf("la bitácora de errores no empieza la traza de %s como se esperaba:\n%s", ref, errores)
		}
	}
	if strings.Contains(errores, "net/http") || strings.Contains(errores, "runtime.") {
		t.Errorf("la traza lleva marcos ajenos al proyecto:\n%s", errores)
	}
	if got := e.out.String(); got != "GET /servicios/1/informe\nGET /servicios/1/informe\n" {
		t.Errorf("salida estándar:\n%s", got)
	}
}

// Series B variant: the last check still pending reads a nil result; a finished one gives 200.
func TestLeccion4InformeConRevisionPendienteYTerminada(t *testing.T) {
	t.Parallel()
	e := nuevoEntorno(t, func(o *Opciones) { o.EsperaEnCola = 300 * time.Millisecond })
	e.pedir("POST", "/servicios/1/revisiones", "", cred("admin")).comoLaLeccion(t, `HTTP/1.1 202 Accepted
Location: /revisiones/1
Content-Type: application/json
Content-Length: 60

{"id":1,"servicio":1,"estado":"pendiente","resultado":null}`)
	e.pedir("GET", "/revisiones/1", "", cred("admin")).comoLaLeccion(t, `HTTP/1.1 200 OK
Retry-After: 1
Content-Type: application/json
Content-Length: 60

{"id":1,"servicio":1,"estado":"pendiente","resultado":null}`)
	r := e.pedir("GET", "/servicios/1/informe", "", cred("lectura-a"))
	if r.codigo() != "500" {
		t.Fatalf("informe con la última pendiente: %s", r.linea)
	}
	if !strings.Contains(e.err.String(), "runtime error: invalid memory address or nil pointer dereference") {
		t.Errorf("bitácora: %s", e.err.String())
	}
	e.esperarTerminada("1")
	e.pedir("GET", "/servicios/1/informe", "", cred("lectura-a")).comoLaLeccion(t, `HTTP/1.1 200 OK
Content-Type: application/json

{"servicio":1,"revisiones":1,"ultimo_estado":"ARRIBA"}`)
}

// Series C (§4.4.3): the revisor as a gateway.
func TestLeccion4SerieCSalud(t *testing.T) {
	t.Parallel()
	e := nuevoEntorno(t, rapido)
	e.pedir("GET", "/servicios/1/salud", "", cred("lectura-a")).comoLaLeccion(t, `HTTP/1.1 200 OK
Content-Type: application/json
Content-Length: 35

{"servicio":1,"codigo":200,"ms":8}`)
	e.pedir("GET", "/servicios/2/salud", "", cred("lectura-a")).comoLaLeccion(t, `HTTP/1.1 200 OK
Content-Type: application/json
Content-Length: 35

{"servicio":2,"codigo":503,"ms":1}`)
	r := e.pedir("GET", "/servicios/4/salud", "", cred("lectura-a"))
	r.comoLaLeccion(t, `HTTP/1.1 200 OK
Content-Type: application/json

{"servicio":4,"codigo":200,"ms":1503}`)
	if ms := regexp.MustCompile(`"ms":(\d+)`).FindStringSubmatch(r.cuerpo); ms == nil || ms[1] < "1500" || len(ms[1]) != 4 {
		t.Errorf("inventario tardó %v ms, se esperaba alrededor de 1500", ms)
	}
	r = e.pedir("GET", "/servicios/5/salud", "", cred("escritura-a"))
	r.comoLaLeccion(t, `HTTP/1.1 504 Gateway Timeout
Content-Type: application/problem+json
Content-Language: es
Content-Length: 200

{"type":"https://revisor.example/problemas/servicio-lento","title":"El servicio no respondió a tiempo","status":504,"detail":"el servicio 5 no respondió en 1000 ms","instance":"/servicios/5/salud"}`)
	if r.duracion < 950*time.Millisecond || r.duracion > 1500*time.Millisecond {
		t.Errorf("el 504 tardó %v; se esperaba el límite del servicio (1 s), no los 3 s del laboratorio", r.duracion)
	}
	r = e.pedir("GET", "/servicios/6/salud", "", cred("escritura-a"))
	r.comoLaLeccion(t, `HTTP/1.1 502 Bad Gateway
Content-Type: application/problem+json
Content-Language: es
Content-Length: 278

{"type":"https://revisor.example/problemas/respuesta-invalida","title":"El servicio no dio una respuesta HTTP válida","status":502,"detail":"el servicio 6 no dio una respuesta HTTP válida: cortó la conexión o respondió algo que no es HTTP","instance":"/servicios/6/salud"}`)
	if r.duracion > 300*time.Millisecond {
		t.Errorf("el 502 de /basura tardó %v; es casi inmediato", r.duracion)
	}
	e.pedir("POST", "/servicios", `{"nombre":"colgado","url":"http://127.0.0.1:18081/cortar"}`, cred("escritura-a"), jsonCT).comoLaLeccion(t, `HTTP/1.1 201 Created
Location: /servicios/7
ETag: "7-1-6db25d01"
Content-Type: application/json
Content-Length: 83

{"id":7,"nombre":"colgado","url":"http://127.0.0.1:18081/cortar","limite_ms":2000}`)
	e.pedir("GET", "/servicios/7/salud", "", cred("escritura-a")).comoLaLeccion(t, `HTTP/1.1 502 Bad Gateway
Content-Type: application/problem+json
Content-Language: es
Content-Length: 278

{"type":"https://revisor.example/problemas/respuesta-invalida","title":"El servicio no dio una respuesta HTTP válida","status":502,"detail":"el servicio 7 no dio una respuesta HTTP válida: cortó la conexión o respondió algo que no es HTTP","instance":"/servicios/7/salud"}`)
}

// Series D (§4.5.2) and the extra cases verified against the final code.
func TestLeccion4SerieDMantenimiento(t *testing.T) {
	t.Parallel()
	e := nuevoEntorno(t, rapido)
	encender := `{"activo":true}`
	e.pedir("PUT", "/mantenimiento", encender, cred("escritura-a"), jsonCT).comoLaLeccion(t, `HTTP/1.1 403 Forbidden
Content-Type: application/problem+json
Content-Language: es
Content-Length: 218

{"type":"https://revisor.example/problemas/permiso-insuficiente","title":"La credencial no tiene permiso","status":403,"detail":"solo quien opera el revisor puede cambiar el mantenimiento","instance":"/mantenimiento"}`)
	e.pedir("PUT", "/mantenimiento", encender, cred("admin"), jsonCT).comoLaLeccion(t, "HTTP/1.1 204 No Content\n\n")
	mantenimiento := func(instance string) string {
		return `HTTP/1.1 503 Service Unavailable
Retry-After: 120
Content-Type: application/problem+json
Content-Language: es

{"type":"https://revisor.example/problemas/en-mantenimiento","title":"El revisor está en mantenimiento","status":503,"detail":"el revisor está en mantenimiento","instance":"` + instance + `"}`
	}
	e.pedir("GET", "/servicios", "", cred("lectura-a")).comoLaLeccion(t, mantenimiento("/servicios"))
	e.pedir("GET", "/no-existe", "").comoLaLeccion(t, mantenimiento("/no-existe"))
	// Redirects come before maintenance; /v0 and a bad credential after it.
	e.pedir("GET", "/viejo/servicios?x=1", "").comoLaLeccion(t, "HTTP/1.1 301 Moved Permanently\nLocation: /servicios?x=1\nContent-Length: 0\n\n")
	e.pedir("GET", "/api/servicios/1", "").comoLaLeccion(t, "HTTP/1.1 308 Permanent Redirect\nLocation: /servicios/1\nContent-Length: 0\n\n")
	e.pedir("GET", "/v0/servicios", "").comoLaLeccion(t, mantenimiento("/v0/servicios"))
	e.pedir("GET", "/servicios/1", "", cred("nadie")).comoLaLeccion(t, mantenimiento("/servicios/1"))
	// /mantenimiento itself goes through the whole gate.
	e.pedir("PUT", "/mantenimiento", "").comoLaLeccion(t, `HTTP/1.1 401 Unauthorized
WWW-Authenticate: Bearer realm="revisor"
Content-Type: application/problem+json
Content-Language: es

{"type":"https://revisor.example/problemas/credencial-invalida","title":"Falta una credencial válida","status":401,"detail":"falta la credencial","instance":"/mantenimiento"}`)
	e.pedir("GET", "/mantenimiento", "", cred("admin")).comoLaLeccion(t, `HTTP/1.1 405 Method Not Allowed
Allow: PUT
Content-Type: application/problem+json
Content-Language: es

{"type":"about:blank","title":"Method Not Allowed","status":405,"detail":"GET no se admite en /mantenimiento","instance":"/mantenimiento"}`)
	// A 503 spends no check.
	e.pedir("POST", "/servicios/1/revisiones", "", cred("admin")).comoLaLeccion(t, mantenimiento("/servicios/1/revisiones"))
	e.pedir("PUT", "/mantenimiento", `{"activo":false}`, cred("admin"), jsonCT).comoLaLeccion(t, "HTTP/1.1 204 No Content\n\n")
	if r := e.pedir("GET", "/servicios", "", cred("lectura-a")); r.codigo() != "200" {
		t.Errorf("D6: %s", r.linea)
	}
	for range 3 {
		if r := e.pedir("POST", "/servicios/1/revisiones", "", cred("admin")); r.codigo() != "202" {
			t.Errorf("el 503 gastó una revisión: %s", r.linea)
		}
	}
	want := strings.Join([]string{
		"PUT /mantenimiento", "PUT /mantenimiento", "operación: mantenimiento encendido",
		"GET /servicios", "GET /no-existe", "GET /viejo/servicios?x=1", "GET /api/servicios/1", "GET /v0/servicios",
		"GET /servicios/1", "PUT /mantenimiento", "GET /mantenimiento", "POST /servicios/1/revisiones",
		"PUT /mantenimiento", "operación: mantenimiento apagado", "GET /servicios",
		"POST /servicios/1/revisiones", "POST /servicios/1/revisiones", "POST /servicios/1/revisiones", "",
	}, "\n")
	if got := e.out.String(); got != want {
		t.Errorf("bitácora\n%s\nse esperaba\n%s", got, want)
	}
}

// Series F (§4.6.3): 429 per credential, counted before the lookup, with a computed Retry-After.
func TestLeccion4SerieFLimites(t *testing.T) {
	t.Parallel()
	e := nuevoEntorno(t, rapido)
	// C1 opened lectura-a's live-query window; use it up as C1, C2 and C4 did.
	for _, id := range []string{"1", "2", "1"} {
		e.pedir("GET", "/servicios/"+id+"/salud", "", cred("lectura-a"))
	}
	e.reloj.Avanzar(3 * time.Second)
	for i := range 3 {
		if r := e.pedir("POST", "/servicios/2/revisiones", "", cred("escritura-a")); r.codigo() != "202" {
			t.Fatalf("F%d: %s", i+1, r.linea)
		}
	}
	e.pedir("POST", "/servicios/2/revisiones", "", cred("escritura-a")).comoLaLeccion(t, `HTTP/1.1 429 Too Many Requests
Retry-After: 60
Content-Type: application/problem+json
Content-Language: es
Content-Length: 214

{"type":"https://revisor.example/problemas/demasiadas-revisiones","title":"Demasiadas revisiones seguidas","status":429,"detail":"ya pediste 3 revisiones en el último minuto","instance":"/servicios/2/revisiones"}`)
	if r := e.pedir("POST", "/servicios/4/revisiones", "", cred("admin")); r.codigo() != "202" {
		t.Errorf("F5 (admin tiene su propia ventana): %s", r.linea)
	}
	e.pedir("GET", "/servicios/1/salud", "", cred("lectura-a")).comoLaLeccion(t, `HTTP/1.1 429 Too Many Requests
Retry-After: 57
Content-Type: application/problem+json
Content-Language: es
Content-Length: 222

{"type":"https://revisor.example/problemas/demasiadas-consultas","title":"Demasiadas consultas en vivo seguidas","status":429,"detail":"ya pediste 3 consultas en vivo en el último minuto","instance":"/servicios/1/salud"}`)
	var codigos []string
	for id := 1; id <= 10; id++ {
		codigos = append(codigos, e.pedir("POST", "/servicios/"+strconv.Itoa(id)+"/revisiones", "", cred("escritura-b")).codigo())
	}
	if got := strings.Join(codigos, " "); got != "404 404 202 429 429 429 429 429 429 429" {
		t.Errorf("F7 el enumerador: %s", got)
	}
	e.reloj.Avanzar(20 * time.Second)
	r := e.pedir("POST", "/servicios/2/revisiones", "", cred("escritura-a"))
	if r.codigo() != "429" || r.cab.Get("Retry-After") != "40" {
		t.Errorf("F8 veinte segundos después: %s Retry-After %q", r.linea, r.cab.Get("Retry-After"))
	}
	e.esperarTerminada("1").comoLaLeccion(t, `HTTP/1.1 200 OK
Content-Type: application/json

{"id":1,"servicio":2,"estado":"terminada","resultado":{"estado":"CAIDO","codigo":503,"ms":1,"detalle":"503 (reintentar en 120 s)"}}`)
	e.esperarTerminada("4").comoLaLeccion(t, `HTTP/1.1 200 OK
Content-Type: application/json

{"id":4,"servicio":4,"estado":"terminada","resultado":{"estado":"LENTO","codigo":200,"ms":1501,"detalle":"200"}}`)
	e.esperarTerminada("2")
	e.esperarTerminada("3")
	e.pedir("GET", "/servicios/2/informe", "", cred("lectura-a")).comoLaLeccion(t, `HTTP/1.1 200 OK
Content-Type: application/json
Content-Length: 54

{"servicio":2,"revisiones":3,"ultimo_estado":"CAIDO"}`)
}

// Series K (exercise 1): who is at fault.
func TestLeccion4SerieKQuienTieneLaCulpa(t *testing.T) {
	t.Parallel()
	e := nuevoEntorno(t, rapido)
	e.pedir("GET", "/servicios/3/salud", "", cred("lectura-a")).comoLaLeccion(t, `HTTP/1.1 404 Not Found
Content-Type: application/problem+json
Content-Language: es
Content-Length: 178

{"type":"https://revisor.example/problemas/servicio-inexistente","title":"El servicio no existe","status":404,"detail":"no existe el servicio 3","instance":"/servicios/3/salud"}`)
	if r := e.pedir("GET", "/servicios/4/informe", "", cred("lectura-a")); r.codigo() != "500" {
		t.Errorf("K2: %s", r.linea)
	}
	e.pedir("POST", "/servicios/5/revisiones", "", cred("lectura-a")).comoLaLeccion(t, `HTTP/1.1 403 Forbidden
Content-Type: application/problem+json
Content-Language: es
Content-Length: 242

{"type":"https://revisor.example/problemas/permiso-insuficiente","title":"La credencial no tiene permiso","status":403,"detail":"tu credencial solo puede leer; para escribir pide una con rol de escritor","instance":"/servicios/5/revisiones"}`)
	if r := e.pedir("GET", "/servicios/2/salud", "", cred("escritura-a")); r.linea != "HTTP/1.1 200 OK" || !strings.Contains(r.cuerpo, `"codigo":503`) {
		t.Errorf("K5: %s %s", r.linea, r.cuerpo)
	}
	e.pedir("PUT", "/mantenimiento", `{"activo":"si"}`, cred("admin"), jsonCT).comoLaLeccion(t, `HTTP/1.1 422 Unprocessable Content
Content-Type: application/problem+json
Content-Language: es
Content-Length: 252

{"type":"https://revisor.example/problemas/datos-invalidos","title":"Los datos no se pueden cumplir","status":422,"detail":"1 dato(s) no se pueden cumplir","instance":"/mantenimiento","errors":[{"detail":"debe ser true o false","pointer":"#/activo"}]}`)
	// More of the handler's order (§4 extra cases).
	e.pedir("PUT", "/mantenimiento", `{"activo":true}`, cred("lectura-a"), jsonCT).comoLaLeccion(t, `HTTP/1.1 403 Forbidden
Content-Type: application/problem+json
Content-Language: es

{"type":"https://revisor.example/problemas/permiso-insuficiente","title":"La credencial no tiene permiso","status":403,"detail":"tu credencial solo puede leer; para escribir pide una con rol de escritor","instance":"/mantenimiento"}`)
	e.pedir("PUT", "/mantenimiento", `{"activo":true}`, cred("admin"), "Content-Type: application/x-www-form-urlencoded").comoLaLeccion(t, `HTTP/1.1 415 Unsupported Media Type
Accept: application/json
Content-Type: application/problem+json
Content-Language: es

{"type":"about:blank","title":"Unsupported Media Type","status":415,"detail":"el cuerpo debe ser application/json, no application/x-www-form-urlencoded","instance":"/mantenimiento"}`)
	e.pedir("PUT", "/mantenimiento", `{activo`, cred("admin"), jsonCT).comoLaLeccion(t, `HTTP/1.1 400 Bad Request
Content-Type: application/problem+json
Content-Language: es
Content-Length: 181

{"type":"https://revisor.example/problemas/cuerpo-ilegible","title":"El cuerpo no se puede leer","status":400,"detail":"el cuerpo no es un objeto JSON","instance":"/mantenimiento"}`)
	if r := e.pedir("PUT", "/mantenimiento", `{"activo":1}`, cred("admin"), jsonCT); r.codigo() != "422" {
		t.Errorf("activo 1: %s", r.linea)
	}
	e.pedir("POST", "/servicios/1/salud", "", cred("admin")).comoLaLeccion(t, `HTTP/1.1 405 Method Not Allowed
Allow: GET, HEAD
Content-Type: application/problem+json
Content-Language: es

{"type":"about:blank","title":"Method Not Allowed","status":405,"detail":"POST no se admite en /servicios/1/salud","instance":"/servicios/1/salud"}`)
	if r := e.pedir("GET", "/servicios/1/informe", "", cred("escritura-b")); r.codigo() != "404" {
		t.Errorf("informe de otro equipo: %s", r.linea)
	}
}

// Series M (exercise 3): the limit per credential before the lookup stops an enumerator and does
// not punish admin for someone else's requests.
func TestLeccion4SerieMEnumerador(t *testing.T) {
	t.Parallel()
	e := nuevoEntorno(t, rapido)
	var codigos []string
	for id := 1; id <= 10; id++ {
		codigos = append(codigos, e.pedir("POST", "/servicios/"+strconv.Itoa(id)+"/revisiones", "", cred("escritura-b")).codigo())
	}
	if got := strings.Join(codigos, " "); got != "404 404 202 429 429 429 429 429 429 429" {
		t.Errorf("enumerador: %s", got)
	}
	for range 3 {
		if r := e.pedir("POST", "/servicios/2/revisiones", "", cred("escritura-a")); r.codigo() != "202" {
			t.Errorf("escritura-a: %s", r.linea)
		}
	}
	e.pedir("POST", "/servicios/2/revisiones", "", cred("admin")).comoLaLeccion(t, `HTTP/1.1 202 Accepted
Location: /revisiones/5
Content-Type: application/json
Content-Length: 60

{"id":5,"servicio":2,"estado":"pendiente","resultado":null}`)
	// HEAD runs the query and counts; 404s count too; a retired service's 410 counts.
	e2 := nuevoEntorno(t, rapido)
	var salud []string
	for _, p := range []struct{ metodo, id string }{{"GET", "99"}, {"GET", "1"}, {"HEAD", "3"}, {"GET", "3"}} {
		salud = append(salud, e2.pedir(p.metodo, "/servicios/"+p.id+"/salud", "", cred("escritura-b")).codigo())
	}
	if got := strings.Join(salud, " "); got != "404 404 200 429" {
		t.Errorf("salud con escritura-b: %s", got)
	}
	if r := e2.pedir("DELETE", "/servicios/3", "", cred("escritura-b")); r.codigo() != "204" {
		t.Fatal(r.linea)
	}
	e2.pedir("POST", "/servicios/3/revisiones", "", cred("escritura-b")).comoLaLeccion(t, `HTTP/1.1 410 Gone
Content-Type: application/problem+json
Content-Language: es

{"type":"https://revisor.example/problemas/servicio-retirado","title":"El servicio se retiró","status":410,"detail":"el servicio 3 se retiró y no va a volver","instance":"/servicios/3/revisiones"}`)
	if r := e2.pedir("GET", "/servicios/3/salud", "", cred("admin")); r.codigo() != "410" {
		t.Errorf("admin ve el retiro de b: %s", r.linea)
	}
}

// Series N (exercise 4): without the laboratory. A refused connection is a 502 "no se pudo
// conectar", at once, and the check ends CAIDO / sin conexión after its retries.
func TestLeccion4SerieNSinLaboratorio(t *testing.T) {
	t.Parallel()
	e := nuevoEntorno(t, rapido)
	e.lab.Close()
	r := e.pedir("GET", "/servicios/1/salud", "", cred("lectura-a"))
	r.comoLaLeccion(t, `HTTP/1.1 502 Bad Gateway
Content-Type: application/problem+json
Content-Language: es
Content-Length: 214

{"type":"https://revisor.example/problemas/respuesta-invalida","title":"El servicio no dio una respuesta HTTP válida","status":502,"detail":"no se pudo conectar con el servicio 1","instance":"/servicios/1/salud"}`)
	if r := e.pedir("GET", "/servicios/5/salud", "", cred("lectura-a")); r.codigo() != "502" || r.duracion > 300*time.Millisecond {
		t.Errorf("reportes sin laboratorio: %s en %v (502 y casi inmediato, no 504)", r.linea, r.duracion)
	}
	if r := e.pedir("POST", "/servicios/1/revisiones", "", cred("escritura-a")); r.codigo() != "202" {
		t.Fatal(r.linea)
	}
	e.esperarTerminada("1").comoLaLeccion(t, `HTTP/1.1 200 OK
Content-Type: application/json

{"id":1,"servicio":1,"estado":"terminada","resultado":{"estado":"CAIDO","codigo":null,"ms":null,"detalle":"sin conexión"}}`)
}
