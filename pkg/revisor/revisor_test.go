package revisor

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"cursohttp/internal/nodejs"
	"cursohttp/pkg/almacen"
)

func TestIdentificar(t *testing.T) {
	t.Parallel()
	casos := []struct {
		cabecera *string
		id       Identificacion
		nombre   string
	}{
		{nil, Ninguna, ""},
		{ptr(""), OtroEsquema, ""},
		{ptr("Bearer lectura-a"), Valida, "lectura-a"},
		{ptr("bearer lectura-a"), Valida, "lectura-a"},
		{ptr("BeArEr    admin"), Valida, "admin"},
		{ptr("Bearer"), Invalida, ""},
		{ptr("Bearer nadie"), Invalida, ""},
		{ptr("Bearer lectura-a extra"), Invalida, ""},
		{ptr("Bearer constructor"), Invalida, ""},
		{ptr("Bearer __proto__"), Invalida, ""},
		{ptr("Bearer\tlectura-a"), OtroEsquema, ""},
		{ptr("Basic bGVjdHVyYS1hOg=="), OtroEsquema, ""},
		{ptr("Bearerx lectura-a"), OtroEsquema, ""},
		{ptr("Beareſ lectura-a"), OtroEsquema, ""}, // U+017F folds to s only in Unicode case folding
		{ptr("Bearer lectura-a\u00a0"), Invalida, ""},
	}
	for _, c := range casos {
		h := http.Header{}
		if c.cabecera != nil {
			h["Authorization"] = []string{*c.cabecera}
		}
		id, cr := Identificar(h, nil)
		if id != c.id || cr.Nombre != c.nombre {
			t.Errorf("Identificar(%q) = %v %q, se esperaba %v %q", deref(c.cabecera), id, cr.Nombre, c.id, c.nombre)
		}
	}
	if Reto(Invalida) != `Bearer realm="revisor", error="invalid_token"` || Reto(Ninguna) != `Bearer realm="revisor"` || Reto(OtroEsquema) != `Bearer realm="revisor"` {
		t.Error("retos")
	}
	// Node keeps the first Authorization field.
	h := http.Header{"Authorization": {"Bearer admin", "Bearer nadie"}}
	if id, cr := Identificar(h, nil); id != Valida || cr.Nombre != "admin" {
		t.Errorf("dos Authorization: %v %v", id, cr)
	}
}

func ptr(s string) *string { return &s }

func deref(s *string) string {
	if s == nil {
		return "(sin cabecera)"
	}
	return *s
}

func FuzzIdentificar(f *testing.F) {
	for _, s := range []string{"Bearer lectura-a", "bearer  admin", "Basic x", "", "Bearer", " Bearer admin"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, cr := Identificar(http.Header{"Authorization": {s}}, nil)
		if (id == Valida) != (cr.Nombre != "") {
			t.Fatalf("%q: %v con %+v", s, id, cr)
		}
		if id == Valida && !strings.HasSuffix(s, cr.Nombre) {
			t.Fatalf("%q dio %s", s, cr.Nombre)
		}
	})
}

func TestValidar(t *testing.T) {
	t.Parallel()
	casos := []struct {
		cuerpo string
		campos string
		limite int
	}{
		{`{"nombre":"a","url":"http://x"}`, "", 2000},
		{`{"nombre":"a","url":"HTTPS://x:443/","limite_ms":100}`, "", 100},
		{`{"nombre":"a","url":"http://x","limite_ms":1e4}`, "", 10000},
		{`{"nombre":"a","url":"http://x","limite_ms":1500.0}`, "", 1500},
		{`{}`, "nombre url", 0},
		{`{"nombre":"   ","url":"ftp://x","limite_ms":99}`, "nombre url limite_ms", 0},
		{`{"nombre":"\u00a0\ufeff\u2028","url":"http://x"}`, "nombre", 0},
		{`{"nombre":"\u0085","url":"http://x"}`, "", 2000}, // not whitespace in JavaScript
		{`{"nombre":"` + strings.Repeat("n", 40) + `","url":"http://x"}`, "", 2000},
		{`{"nombre":"` + strings.Repeat("n", 41) + `","url":"http://x"}`, "nombre", 0},
		{`{"nombre":"` + strings.Repeat("😀", 20) + `","url":"http://x"}`, "", 2000},
		{`{"nombre":"` + strings.Repeat("😀", 20) + `a","url":"http://x"}`, "nombre", 0}, // 41 UTF-16 units
		{`{"nombre":"` + strings.Repeat("ñ", 40) + `","url":"http://x"}`, "", 2000},
		{`{"nombre":1,"url":"http:x"}`, "nombre", 0},
		{`{"nombre":"a","url":"http://"}`, "url", 0},
		{`{"nombre":"a","url":"javascript:alert(1)"}`, "url", 0},
		{`{"nombre":"a","url":["http://x"]}`, "url", 0},
		{`{"nombre":"a","url":"http://x","limite_ms":null}`, "limite_ms", 0},
		{`{"nombre":"a","url":"http://x","limite_ms":"2000"}`, "limite_ms", 0},
		{`{"nombre":"a","url":"http://x","limite_ms":100.5}`, "limite_ms", 0},
		{`{"nombre":"a","url":"http://x","limite_ms":10001}`, "limite_ms", 0},
		{`{"nombre":"a","url":"http://x","limite_ms":true}`, "limite_ms", 0},
	}
	for _, c := range casos {
		v, err := nodejs.DecodificarJSON([]byte(c.cuerpo))
		if err != nil {
			t.Fatalf("%s: %v", c.cuerpo, err)
		}
		datos, fallas := Validar(v.(nodejs.Objeto))
		var campos []string
		for _, f := range fallas {
			campos = append(campos, f.Campo)
		}
		if got := strings.Join(campos, " "); got != c.campos {
			t.Errorf("Validar(%s) falla en %q, se esperaba %q", c.cuerpo, got, c.campos)
		}
		if c.campos == "" && datos.LimiteMs != c.limite {
			t.Errorf("Validar(%s) límite %d, se esperaba %d", c.cuerpo, datos.LimiteMs, c.limite)
		}
	}
}

// A header value that is not UTF-8 reads as Node's parser reads it, latin1, one character a byte:
// a trailing 0xA0 is a no-break space trim removes, and the key and the type echoed in a detail are
// the characters Node shows. Checked against fig07_01 with raw requests.
func TestCabecerasQueNoSonUTF8ComoNode(t *testing.T) {
	t.Parallel()
	e := nuevoEntorno(t, rapido)
	if r := e.pedir("POST", "/servicios", `{"nombre":"nbsp","url":"http://127.0.0.1:18081/codigo/200"}`, cred("escritura-a"), "Content-Type: application/json\xa0"); r.codigo() != "201" {
		t.Errorf("Content-Type con 0xA0 al final: %s %s", r.linea, r.cuerpo)
	}
	e.pedir("POST", "/servicios", `{}`, cred("escritura-a"), "Content-Type: text/pla\xefn").comoLaLeccion(t, `HTTP/1.1 415 Unsupported Media Type
Accept: application/json
Content-Type: application/problem+json
Content-Language: es

{"type":"about:blank","title":"Unsupported Media Type","status":415,"detail":"el cuerpo debe ser application/json, no text/plaïn","instance":"/servicios"}`)
	llave := "Idempotency-Key: \xf1and\xfa"
	if r := e.pedir("POST", "/servicios", `{"nombre":"n1","url":"http://127.0.0.1:18081/codigo/200"}`, cred("escritura-a"), jsonCT, llave); r.codigo() != "201" {
		t.Fatalf("primera con la llave: %s %s", r.linea, r.cuerpo)
	}
	r := e.pedir("POST", "/servicios", `{"nombre":"n2","url":"http://127.0.0.1:18081/codigo/200"}`, cred("escritura-a"), jsonCT, llave)
	if r.codigo() != "422" || !strings.Contains(r.cuerpo, `"detail":"la llave ñandú ya se usó con un cuerpo distinto"`) {
		t.Errorf("otra petición con la llave latin1: %s %s", r.linea, r.cuerpo)
	}
	// A key in UTF-8 stays as it came (docs/diferencias.md: Node would show «Ã±»).
	utf := "Idempotency-Key: ñu"
	e.pedir("POST", "/servicios", `{"nombre":"n3","url":"http://127.0.0.1:18081/codigo/200"}`, cred("escritura-a"), jsonCT, utf)
	if r := e.pedir("POST", "/servicios", `{"nombre":"n4","url":"http://127.0.0.1:18081/codigo/200"}`, cred("escritura-a"), jsonCT, utf); !strings.Contains(r.cuerpo, "la llave ñu ya se usó") {
		t.Errorf("otra petición con la llave UTF-8: %s %s", r.linea, r.cuerpo)
	}
}

func TestValidarTodasLasFallas(t *testing.T) {
	t.Parallel()
	e := nuevoEntorno(t, rapido)
	e.pedir("POST", "/servicios", `{"nombre":"","url":"ftp://archivos","limite_ms":50}`, cred("escritura-a"), jsonCT).comoLaLeccion(t, `HTTP/1.1 422 Unprocessable Content
Content-Type: application/problem+json
Content-Language: es

{"type":"https://revisor.example/problemas/datos-invalidos","title":"Los datos no se pueden cumplir","status":422,"detail":"3 dato(s) no se pueden cumplir","instance":"/servicios","errors":[{"detail":"debe ser un texto de 1 a 40 caracteres","pointer":"#/nombre"},{"detail":"debe ser una dirección http o https","pointer":"#/url"},{"detail":"debe ser un entero entre 100 y 10000","pointer":"#/limite_ms"}]}`)
	e.pedir("POST", "/servicios", `{}`, cred("escritura-a")).comoLaLeccion(t, `HTTP/1.1 415 Unsupported Media Type
Accept: application/json
Content-Type: application/problem+json
Content-Language: es

{"type":"about:blank","title":"Unsupported Media Type","status":415,"detail":"el cuerpo debe ser application/json, no (sin tipo)","instance":"/servicios"}`)
	if r := e.pedir("POST", "/servicios", `{"nombre":"mayus","url":"http://127.0.0.1:18081/codigo/200"}`, cred("escritura-a"), "Content-Type: Application/JSON ; charset=utf-8"); r.codigo() != "201" {
		t.Errorf("tipo con mayúsculas y parámetros: %s %s", r.linea, r.cuerpo)
	}
	// PUT: 415 before 428/412, 412 before 400, 400 before 422.
	e.pedir("PUT", "/servicios/1", `x`, cred("escritura-a"), "Content-Type: text/plain").comoLaLeccion(t, `HTTP/1.1 415 Unsupported Media Type
Accept: application/json
Content-Type: application/problem+json
Content-Language: es

{"type":"about:blank","title":"Unsupported Media Type","status":415,"detail":"el cuerpo debe ser application/json, no text/plain","instance":"/servicios/1"}`)
	e.pedir("PUT", "/servicios/1", `x`, cred("escritura-a"), jsonCT).comoLaLeccion(t, `HTTP/1.1 428 Precondition Required
Content-Type: application/problem+json
Content-Language: es

{"type":"https://revisor.example/problemas/falta-condicion","title":"Falta la condición If-Match","status":428,"detail":"para cambiar un servicio manda If-Match con su ETag","instance":"/servicios/1"}`)
	if r := e.pedir("PUT", "/servicios/1", `x`, cred("escritura-a"), jsonCT, `If-Match: "1-1-00000000"`); r.codigo() != "412" {
		t.Errorf("412 antes de leer: %s", r.linea)
	}
	if r := e.pedir("PUT", "/servicios/1", `x`, cred("escritura-a"), jsonCT, "If-Match: *"); r.codigo() != "400" {
		t.Errorf("400 antes de validar: %s", r.linea)
	}
	if r := e.pedir("PUT", "/servicios/1", `{"nombre":"pagos","url":"http://127.0.0.1:18081/codigo/200"}`, cred("escritura-a"), jsonCT, "If-Match: *"); r.codigo() != "409" || !strings.Contains(r.cuerpo, `"existente":"/servicios/2"`) {
		t.Errorf("renombrar a pagos: %s %s", r.linea, r.cuerpo)
	}
	if r := e.pedir("PUT", "/servicios/1", `{"nombre":"catalogo","url":"http://10.0.0.1/"}`, cred("escritura-a"), jsonCT, "If-Match: *"); r.codigo() != "422" {
		t.Errorf("SSRF en PUT: %s", r.linea)
	}
	if r := e.pedir("PUT", "/servicios/3", `{}`, cred("escritura-a"), jsonCT, "If-Match: *"); r.codigo() != "404" {
		t.Errorf("PUT a otro equipo: %s", r.linea)
	}
}

// The gate's order and its answers for what is not a route.
func TestPuerta(t *testing.T) {
	t.Parallel()
	e := nuevoEntorno(t, rapido)
	e.pedir("GET", "/no-existe", "").comoLaLeccion(t, `HTTP/1.1 404 Not Found
Content-Type: application/problem+json
Content-Language: es

{"type":"about:blank","title":"Not Found","status":404,"detail":"no existe esa ruta","instance":"/no-existe"}`)
	e.pedir("GET", "/v0/servicios", "").comoLaLeccion(t, `HTTP/1.1 410 Gone
Content-Type: application/problem+json
Content-Language: es

{"type":"https://revisor.example/problemas/version-retirada","title":"Esa versión de la API se retiró","status":410,"detail":"la versión 0 de la API se retiró el 31 de enero de 2026; usa /servicios","instance":"/v0/servicios"}`)
	if r := e.pedir("GET", "/v0x", ""); r.codigo() != "404" {
		t.Errorf("/v0x: %s", r.linea)
	}
	e.pedir("PATCH", "/servicios/1", "", cred("admin")).comoLaLeccion(t, `HTTP/1.1 405 Method Not Allowed
Allow: GET, HEAD, PUT, DELETE
Content-Type: application/problem+json
Content-Language: es

{"type":"about:blank","title":"Method Not Allowed","status":405,"detail":"PATCH no se admite en /servicios/1","instance":"/servicios/1"}`)
	// 405 comes before 401.
	if r := e.pedir("DELETE", "/servicios", ""); r.codigo() != "405" || r.cab.Get("Allow") != "GET, HEAD, POST" {
		t.Errorf("DELETE /servicios sin credencial: %s %v", r.linea, r.cab)
	}
	e.pedir("GET", "/servicios", "", cred("inventada")).comoLaLeccion(t, `HTTP/1.1 401 Unauthorized
WWW-Authenticate: Bearer realm="revisor", error="invalid_token"
Content-Type: application/problem+json
Content-Language: es
Content-Length: 180

{"type":"https://revisor.example/problemas/credencial-invalida","title":"Falta una credencial válida","status":401,"detail":"la credencial no es válida","instance":"/servicios"}`)
	// HEAD is served as GET, with the GET's headers and no body.
	r := e.pedir("HEAD", "/servicios/1", "", cred("admin"))
	if r.codigo() != "200" || r.cab.Get("Content-Length") != "88" || r.cuerpo != "" || r.cab.Get("ETag") == "" {
		t.Errorf("HEAD: %s %v %q", r.linea, r.cab, r.cuerpo)
	}
	// Routes match on the path a URL parser gives, leading zeros name the same service.
	if r := e.pedir("GET", "/servicios/../servicios/001?x=1", "", cred("admin")); r.codigo() != "200" || !strings.Contains(r.cuerpo, `"id":1,`) {
		t.Errorf("ruta normalizada: %s %s", r.linea, r.cuerpo)
	}
	e.pedir("GET", "/servicios/004", "", cred("admin")).comoLaLeccion(t, `HTTP/1.1 200 OK
ETag: "4-1-6db25d01"
Content-Type: application/json

{"id":4,"nombre":"inventario","url":"http://127.0.0.1:18081/lento/1500","limite_ms":2000}`)
	e.pedir("DELETE", "/servicios/4", "", cred("admin"))
	if r := e.pedir("GET", "/servicios/004", "", cred("admin")); !strings.Contains(r.cuerpo, `"detail":"el servicio 004 se retiró y no va a volver"`) {
		t.Errorf("detalle con el id tal como vino: %s", r.cuerpo)
	}
	if r := e.pedir("GET", "/servicios/99999999999999999999", "", cred("admin")); !strings.Contains(r.cuerpo, `"detail":"no existe el servicio 99999999999999999999"`) {
		t.Errorf("id enorme: %s", r.cuerpo)
	}
	if r := e.pedir("GET", "/revisiones/7", "", cred("admin")); !strings.Contains(r.cuerpo, `"detail":"no existe la revisión 7"`) || r.codigo() != "404" {
		t.Errorf("revisión inexistente: %s", r.cuerpo)
	}
	e.pedir("GET", "/viejo/servicios/1?a=\"b'c", "").comoLaLeccion(t, "HTTP/1.1 301 Moved Permanently\nLocation: /servicios/1?a=%22b%27c\nContent-Length: 0\n\n")
	e.pedir("GET", "/viejo/servicios?", "").comoLaLeccion(t, "HTTP/1.1 301 Moved Permanently\nLocation: /servicios\nContent-Length: 0\n\n")
	if r := e.pedir("GET", "/viejo/serviciosx", ""); r.codigo() != "404" {
		t.Errorf("/viejo/serviciosx: %s", r.linea)
	}
}

// A method Node's parser does not know gets its bare 400 and is never logged.
func TestMetodoDesconocido(t *testing.T) {
	t.Parallel()
	e := nuevoEntorno(t, rapido)
	for _, metodo := range []string{"constructor", "get", "FOO"} {
		conn, err := net.Dial("tcp", strings.TrimPrefix(e.srv.URL, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "%s /servicios/1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer admin\r\n\r\n", metodo)
		conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		todo, _ := io.ReadAll(conn)
		conn.Close()
		if string(todo) != "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n" {
			t.Errorf("%s: %q", metodo, todo)
		}
	}
	if got := e.out.String(); got != "" {
		t.Errorf("se registró %q", got)
	}
}

// Header names a student compares with the lesson go on the wire exactly as written.
func TestNombresExactosEnElCable(t *testing.T) {
	t.Parallel()
	e := nuevoEntorno(t, rapido)
	for _, p := range []struct{ pedido, linea string }{
		{"GET /servicios/1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer admin\r\n\r\n", "ETag: \"1-1-6db25d01\"\r\n"},
		{"GET /servicios/1 HTTP/1.1\r\nHost: x\r\n\r\n", "WWW-Authenticate: Bearer realm=\"revisor\"\r\n"},
		{"PUT /mantenimiento HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer admin\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n{\"activo\":\"\"}", "HTTP/1.1 422 Unprocessable Content\r\n"},
	} {
		conn, err := net.Dial("tcp", strings.TrimPrefix(e.srv.URL, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		conn.Write([]byte(p.pedido))
		br := bufio.NewReader(conn)
		var cabeza strings.Builder
		for {
			l, err := br.ReadString('\n')
			cabeza.WriteString(l)
			if err != nil || l == "\r\n" {
				break
			}
		}
		conn.Close()
		if !strings.Contains(cabeza.String(), p.linea) {
			t.Errorf("no aparece %q en\n%s", p.linea, cabeza.String())
		}
	}
}

// /v1: deprecated, with its notices and the old field names.
func TestVersion1(t *testing.T) {
	t.Parallel()
	e := nuevoEntorno(t, rapido)
	avisos := "Deprecation: @1782864000\nSunset: Sun, 31 Jan 2027 00:00:00 GMT\nLink: <https://revisor.example/docs/migrar-de-v1>; rel=\"deprecation\"; type=\"text/html\"\n"
	e.pedir("GET", "/v1/servicios/5", "", cred("lectura-a")).comoLaLeccion(t, "HTTP/1.1 200 OK\n"+avisos+"Content-Type: application/json\n\n"+
		`{"id":5,"nombre":"reportes","direccion":"http://127.0.0.1:18081/lento/3000","limite":1}`)
	e.pedir("PUT", "/servicios/1", catalogo1500, cred("escritura-a"), jsonCT, "If-Match: *")
	r := e.pedir("GET", "/v1/servicios", "", cred("escritura-b"))
	r.comoLaLeccion(t, "HTTP/1.1 200 OK\n"+avisos+"Content-Type: application/json\n\n"+
		`{"servicios":[{"id":3,"nombre":"nomina","direccion":"http://127.0.0.1:18081/codigo/200","limite":2}]}`)
	if r := e.pedir("GET", "/v1/servicios/1", "", cred("lectura-a")); !strings.Contains(r.cuerpo, `"limite":1.5}`) {
		t.Errorf("1500 ms en v1: %s", r.cuerpo)
	}
	if r := e.pedir("POST", "/v1/servicios", "", cred("admin")); r.codigo() != "405" || r.cab.Get("Allow") != "GET, HEAD" {
		t.Errorf("POST /v1: %s", r.linea)
	}
	if r := e.pedir("GET", "/v1/servicios/3", "", cred("lectura-a")); r.codigo() != "404" {
		t.Errorf("v1 de otro equipo: %s", r.linea)
	}
}

// Lists show only the credential's team; admin sees all, and admin's own registrations belong to "*".
func TestListasPorEquipo(t *testing.T) {
	t.Parallel()
	e := nuevoEntorno(t, rapido)
	if r := e.pedir("POST", "/servicios", `{"nombre":"deadmin","url":"http://127.0.0.1:18081/codigo/204"}`, cred("admin"), jsonCT); r.codigo() != "201" {
		t.Fatal(r.linea)
	}
	ids := func(c string) string {
		var ids []string
		for _, s := range strings.Split(e.pedir("GET", "/servicios", "", cred(c)).cuerpo, `{"id":`)[1:] {
			ids = append(ids, s[:strings.IndexByte(s, ',')])
		}
		return strings.Join(ids, " ")
	}
	for c, want := range map[string]string{"lectura-a": "1 2 4 5 6", "escritura-b": "3", "admin": "1 2 3 4 5 6 7"} {
		if got := ids(c); got != want {
			t.Errorf("%s ve %q, se esperaba %q", c, got, want)
		}
	}
}

// retenida is the store with the first creation of a service named nombre held until seguir is
// closed; llego is closed when it arrives.
type retenida struct {
	almacen.Almacen
	nombre        string
	llego, seguir chan struct{}
	una           sync.Once
}

func (r *retenida) Crear(ctx context.Context, equipo string, d almacen.Datos, tope int, alta *almacen.Alta) (almacen.Servicio, error) {
	if d.Nombre == r.nombre {
		r.una.Do(func() {
			close(r.llego)
			<-r.seguir
		})
	}
	return r.Almacen.Crear(ctx, equipo, d, tope, alta)
}

// Idempotency-Key on POST /servicios, wired to pkg/idempotencia (lesson 6 §2.9).
func TestLlaveDeIdempotencia(t *testing.T) {
	t.Parallel()
	// The registration of "correo" stays in progress for as long as the test needs, whatever the
	// load: the store holds its creation until the second attempt has had its answer.
	correo := &retenida{nombre: "correo", llego: make(chan struct{}), seguir: make(chan struct{})}
	e := nuevoEntorno(t, rapido, func(o *Opciones) { correo.Almacen, o.Almacen = o.Almacen, correo })
	avisos := `{"nombre":"avisos","url":"http://127.0.0.1:18081/codigo/200"}`
	primera := e.pedir("POST", "/servicios", avisos, cred("escritura-a"), jsonCT, "Idempotency-Key: alta-avisos-1")
	if primera.codigo() != "201" {
		t.Fatal(primera.linea, primera.cuerpo)
	}
	// A change after the fact does not change the replay.
	e.pedir("PUT", "/servicios/7", `{"nombre":"avisos","url":"http://127.0.0.1:18081/codigo/200","limite_ms":500}`, cred("escritura-a"), jsonCT, "If-Match: *")
	repetida := e.pedir("POST", "/servicios", `{ "nombre" : "avisos", "url":"http://127.0.0.1:18081/codigo/200" }`, cred("escritura-a"), jsonCT, "Idempotency-Key: alta-avisos-1")
	if repetida.linea != primera.linea || repetida.cuerpo != primera.cuerpo || repetida.cab.Get("ETag") != `"7-1-6db25d01"` || repetida.cab.Get("Location") != "/servicios/7" {
		t.Errorf("repetición %s %v %s", repetida.linea, repetida.cab, repetida.cuerpo)
	}
	if !strings.Contains(e.out.String(), "POST /servicios\nidempotencia: la llave alta-avisos-1 ya se atendió; repito su respuesta\n") {
		t.Errorf("bitácora:\n%s", e.out.String())
	}
	e.pedir("POST", "/servicios", `{"url":"http://127.0.0.1:18081/codigo/200","nombre":"avisos"}`, cred("escritura-a"), jsonCT, "Idempotency-Key: alta-avisos-1").comoLaLeccion(t, `HTTP/1.1 422 Unprocessable Content
Content-Type: application/problem+json
Content-Language: es

{"type":"https://revisor.example/problemas/llave-reutilizada","title":"Esa Idempotency-Key ya se usó con otra petición","status":422,"detail":"la llave alta-avisos-1 ya se usó con un cuerpo distinto","instance":"/servicios"}`)
	// In progress: the second arrives while the first saves.
	en := make(chan respuestaDePrueba)
	go func() {
		en <- e.pedir("POST", "/servicios", `{"nombre":"correo","url":"http://127.0.0.1:18081/codigo/200"}`, cred("escritura-a"), jsonCT, "Idempotency-Key: k3")
	}()
	<-correo.llego
	e.pedir("POST", "/servicios", `{"nombre":"correo","url":"http://127.0.0.1:18081/codigo/200"}`, cred("escritura-a"), jsonCT, "Idempotency-Key: k3").comoLaLeccion(t, `HTTP/1.1 409 Conflict
Content-Type: application/problem+json
Content-Language: es

{"type":"https://revisor.example/problemas/llave-en-curso","title":"Esa Idempotency-Key sigue en curso","status":409,"detail":"la petición original con la llave k3 todavía no termina","instance":"/servicios"}`)
	close(correo.seguir)
	if r := <-en; r.codigo() != "201" {
		t.Errorf("la original: %s", r.linea)
	}
	// A failed registration releases its key; 415/400 never reserve it; another credential has its own.
	if r := e.pedir("POST", "/servicios", `{"nombre":"k4","url":"ftp://archivos"}`, cred("escritura-a"), jsonCT, "Idempotency-Key: k4"); r.codigo() != "422" {
		t.Errorf("alta mala: %s", r.linea)
	}
	if r := e.pedir("POST", "/servicios", `{"nombre":"k4","url":"http://127.0.0.1:18081/codigo/200"}`, cred("escritura-a"), jsonCT, "Idempotency-Key: k4"); r.codigo() != "201" {
		t.Errorf("alta corregida: %s", r.linea)
	}
	if r := e.pedir("POST", "/servicios", `null`, cred("escritura-a"), jsonCT, "Idempotency-Key: k5"); r.codigo() != "400" {
		t.Errorf("ilegible: %s", r.linea)
	}
	if r := e.pedir("POST", "/servicios", `{"nombre":"k5","url":"http://127.0.0.1:18081/codigo/200"}`, cred("escritura-a"), jsonCT, "Idempotency-Key: k5"); r.codigo() != "201" {
		t.Errorf("tras un 400 la llave sigue libre: %s", r.linea)
	}
	if r := e.pedir("POST", "/servicios", avisos, cred("admin"), jsonCT, "Idempotency-Key: alta-avisos-1"); r.codigo() != "201" {
		t.Errorf("admin tiene sus propias llaves: %s %s", r.linea, r.cuerpo)
	}
	if r := e.pedir("POST", "/servicios", `{"nombre":"vacia","url":"http://127.0.0.1:18081/codigo/200"}`, cred("escritura-a"), jsonCT, "Idempotency-Key: "); r.codigo() != "201" {
		t.Errorf("una llave vacía es ninguna: %s", r.linea)
	}
}

// A panic after the response started cannot become a 500: the connection is cut, so the client
// sees an incomplete body instead of one that looks whole; the operator still gets the reference.
func TestPanicoConRespuestaEmpezada(t *testing.T) {
	t.Parallel()
	e := nuevoEntorno(t, rapido)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.rv.conRed(w, r, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "100")
			w.WriteHeader(http.StatusOK)
			w.Write([]byte("{\"a\":"))
			http.NewResponseController(w).Flush()
			var m map[string]int
			m["x"]++ // a nil map: a genuine panic
		})
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/a?b=1")
	if err != nil {
		t.Fatal(err)
	}
	_, err = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || err == nil {
		t.Errorf("%s, leer: %v; se esperaba un cuerpo cortado", resp.Status, err)
	}
	if !strings.Contains(e.err.String(), " en GET /a?b=1: assignment to entry in nil map\n    at cursohttp/pkg/revisor.") {
		t.Errorf("bitácora: %s", e.err.String())
	}
}

func TestUltimo(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]string{
		time.Minute:             "el último minuto",
		5 * time.Minute:         "los últimos 5 minutos",
		30 * time.Second:        "los últimos 30 segundos",
		1500 * time.Millisecond: "los últimos 1,5 segundos",
	} {
		if got := ultimo(d); got != want {
			t.Errorf("ultimo(%v) = %q, quiero %q", d, got, want)
		}
	}
}
