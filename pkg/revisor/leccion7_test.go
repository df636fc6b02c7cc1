package revisor

import (
	"strconv"
	"strings"
	"testing"
)

// Lesson 7 S3, S4 and S11 (§7.6.3, §7.13): what the lesson's programs read has not changed.
func TestLeccion7LoDemasSigueIgual(t *testing.T) {
	t.Parallel()
	e := nuevoEntorno(t, rapido)
	e.pedir("GET", "/servicios", "", cred("inventada")).comoLaLeccion(t, `HTTP/1.1 401 Unauthorized
WWW-Authenticate: Bearer realm="revisor", error="invalid_token"
Content-Type: application/problem+json
Content-Language: es
Content-Length: 180

{"type":"https://revisor.example/problemas/credencial-invalida","title":"Falta una credencial válida","status":401,"detail":"la credencial no es válida","instance":"/servicios"}`)
	if r := e.pedir("PUT", "/mantenimiento", `{"activo":true}`, cred("admin"), jsonCT); r.codigo() != "204" {
		t.Fatal(r.linea)
	}
	e.pedir("GET", "/servicios", "", cred("lectura-a")).comoLaLeccion(t, `HTTP/1.1 503 Service Unavailable
Retry-After: 120
Content-Type: application/problem+json
Content-Language: es
Content-Length: 188

{"type":"https://revisor.example/problemas/en-mantenimiento","title":"El revisor está en mantenimiento","status":503,"detail":"el revisor está en mantenimiento","instance":"/servicios"}`)
	if r := e.pedir("PUT", "/mantenimiento", `{"activo":false}`, cred("admin"), jsonCT); r.codigo() != "204" {
		t.Fatal(r.linea)
	}

	etag := e.pedir("GET", "/servicios/1", "", cred("lectura-a")).cab.Get("ETag")
	e.pedir("GET", "/servicios/1", "", cred("lectura-a"), "If-None-Match: W/"+etag).comoLaLeccion(t, "HTTP/1.1 304 Not Modified\nETag: \"1-1-a9baef47\"\n\n")
	e.pedir("PUT", "/servicios/1", catalogo1500, cred("escritura-a"), jsonCT, "If-Match: W/"+etag).comoLaLeccion(t, `HTTP/1.1 412 Precondition Failed
Content-Type: application/problem+json
Content-Language: es
Content-Length: 263

{"type":"https://revisor.example/problemas/etiqueta-vencida","title":"Tu etiqueta ya no es la vigente","status":412,"detail":"If-Match se compara en fuerte: una etiqueta débil (W/) no sirve para cambiar; manda la ETag tal como llegó","instance":"/servicios/1"}`)
	e.pedir("POST", "/servicios", strings.Repeat("a", 20000), cred("escritura-a"), jsonCT).comoLaLeccion(t, `HTTP/1.1 413 Content Too Large
Connection: close
Content-Type: application/problem+json
Content-Language: es
Content-Length: 129

{"type":"about:blank","title":"Content Too Large","status":413,"detail":"el cuerpo pasa de 16384 bytes","instance":"/servicios"}`)
	var salud []string
	for range 4 {
		r := e.pedir("GET", "/servicios/1/salud", "", cred("lectura-a"))
		salud = append(salud, r.codigo()+" "+r.cab.Get("Retry-After"))
	}
	if got := strings.Join(salud, "\n"); got != "200 \n200 \n200 \n429 60" {
		t.Errorf("salud:\n%s", got)
	}
	var revs []string
	for i := 1; i <= 6; i++ {
		revs = append(revs, e.pedir("POST", "/servicios/"+strconv.Itoa(i)+"/revisiones", "", cred("escritura-b")).codigo())
	}
	if got := strings.Join(revs, " "); got != "404 404 202 429 429 429" {
		t.Errorf("revisiones: %s", got)
	}
	if got := e.out.String(); !strings.Contains(got, "PUT /mantenimiento\noperación: mantenimiento encendido\nGET /servicios\nPUT /mantenimiento\noperación: mantenimiento apagado\n") {
		t.Errorf("bitácora:\n%s", got)
	}
}
