//go:build unix

package main

import (
	"reflect"
	"strings"
	"testing"
)

// Each rule of the table, one line at a time: what the lesson printed and
// what a later run printed must normalise to the same text, and a change the
// course does not list must survive.
func TestNormalizarLinea(t *testing.T) {
	t.Parallel()
	casos := []struct {
		nombre           string
		leccion, corrida string
		igual            bool
	}{
		{"fecha", "Date: Wed, 21 Oct 2026 13:19:06 GMT", "Date: Mon, 30 Nov 2026 05:51:39 GMT", true},
		{"etiqueta", `ETag: "7-1-6db25d01"`, `ETag: "7-1-0cabc364"`, true},
		{"etiqueta: la versión sí cuenta", `ETag: "7-1-6db25d01"`, `ETag: "7-2-6db25d01"`, false},
		{"etiqueta en un echo", `ETAG="1-1-a9fec589"`, `ETAG="1-1-77777777"`, true},
		{"etiqueta débil", `If-None-Match: W/"1-1-a9fec589"`, `If-None-Match: W/"1-1-00000000"`, true},
		{"uuid", `"instance":"urn:uuid:affc3b8a-5ab9-42f5-8b37-2face1f8eafd"}`, `"instance":"urn:uuid:0b0c1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b"}`, true},
		{"ms medidos", `{"servicio":1,"codigo":200,"ms":8}`, `{"servicio":1,"codigo":200,"ms":1234}`, true},
		{"ms medidos: el código sí cuenta", `{"servicio":1,"codigo":200,"ms":8}`, `{"servicio":1,"codigo":503,"ms":8}`, false},
		{"ms nulos no se tocan", `"codigo":null,"ms":null`, `"codigo":null,"ms":0`, false},
		{"tardó", "tardó 1.004405 s", "tardó 0.998000 s", true},
		{"curl 28", "curl: (28) Operation timed out after 1001 milliseconds with 0 bytes received", "curl: (28) Operation timed out after 1000 milliseconds with 0 bytes received", true},
		{"curl 7", "curl: (7) Failed to connect to 127.0.0.1 port 18080 after 0 ms: Couldn't connect to server", "curl: (7) Failed to connect to 127.0.0.1 port 18080 after 1 ms: Connection refused", true},
		{"curl 52 no varía", "curl: (52) Empty reply from server", "curl: (56) Recv failure", false},
		{"el límite de un 504 no es una medida", "el servicio 5 no respondió en 1000 ms", "el servicio 5 no respondió en 999 ms", false},
		{"revisar", "catalogo     200 en 6 ms        seguir        salió bien", "catalogo     200 en 12 ms       seguir        salió bien", true},
		{"revisar: la acción sí cuenta", "pagos        503 en 4 ms        esperar       x", "pagos        503 en 4 ms        seguir        x", false},
		{"ventana", "  961 ms  permitida", "  963 ms  permitida", true},
		{"ventana: el veredicto sí cuenta", " 1021 ms  rechazada: Retry-After 1", " 1021 ms  permitida", false},
		{"ventana entre", "permitidas entre 950 y 1016 ms: 5", "permitidas entre 951 y 1015 ms: 5", true},
		{"ventana entre: el 5 sí cuenta", "permitidas entre 950 y 1016 ms: 5", "permitidas entre 950 y 1016 ms: 6", false},
		{"ahora + 90 s", `"Wed, 21 Oct 2026 13:21:26 GMT"    → 90`, `"Mon, 30 Nov 2026 05:53:09 GMT"    → 90`, true},
		{"ahora + 60 s", `"Wed, 21 Oct 2026 13:20:57 GMT"              61       61`, `"Mon, 30 Nov 2026 16:12:46 GMT"              61       61`, true},
		{"ahora + 60 s en RFC 850", `"Wednesday, 21-Oct-26 13:20:57 GMT"          61       61`, `"Monday, 30-Nov-26 16:12:46 GMT"             61       61`, true},
		{"ahora + 60 s en asctime", `"Wed Oct 21 13:20:57 2026"                21661       61`, `"Mon Nov 30 16:12:46 2026"                21661       61`, true},
		{"ahora + 60 s: las columnas sí cuentan", `"Wed Oct 21 13:20:57 2026"                21661       61`, `"Mon Nov 30 16:12:46 2026"                   61       61`, false},
		{"ahora + 60 s: la forma sí cuenta", `"Wed Oct 21 13:20:57 2026"                   61       61`, `"Mon, 30 Nov 2026 16:12:46 GMT"              61       61`, false},
		{"el 32 de octubre sigue fijo", `"Wed, 32 Oct 2026 10:00:00 GMT"            null     null`, `"Wed, 31 Oct 2026 10:00:00 GMT"            null     null`, false},
		{"una fecha fija sigue fija", `"Wed, 21 Oct 2015 07:28:00 GMT"    → 0`, `"Wed, 21 Oct 2015 07:28:01 GMT"    → 0`, false},
		{"sorteos dentro del techo", "      3        2000  205, 575, 343, 1365, 1722", "      3        2000  0, 2000, 1, 999, 12", true},
		{"un sorteo sobre el techo se ve", "      1         500  159, 181, 478, 282, 231", "      1         500  159, 181, 478, 282, 501", false},
		{"el techo sí cuenta", "      1         500  159, 181, 478, 282, 231", "      1         250  159, 181, 178, 82, 231", false},
		{"ventanas con jitter", "0-99                   0         179", "0-99                   0         201", true},
		{"ventanas sin jitter sí cuentan", "500 o más           1000           3", "500 o más            999           3", false},
		{"la ventana más cargada", "la ventana más cargada: 1000 sin jitter, 219 con jitter", "la ventana más cargada: 1000 sin jitter, 207 con jitter", true},
		{"una frase del curso no se toca", "el servidor respondió 409: repetir lo mismo no lo arregla", "el servidor respondió 409: repetir lo mismo no lo arregla.", false},
	}
	for _, c := range casos {
		t.Run(c.nombre, func(t *testing.T) {
			t.Parallel()
			a := NormalizarLinea(c.leccion, NuevoNumerador())
			b := NormalizarLinea(c.corrida, NuevoNumerador())
			if (a == b) != c.igual {
				t.Errorf("lección %q → %q\ncorrida %q → %q\nse esperaba igual=%v", c.leccion, a, c.corrida, b, c.igual)
			}
		})
	}
}

// Placeholders are numbered by first appearance, so "the log names the same
// reference the client got" and "a restart draws a new ETag" stay checked.
func TestNumeradorConservaLaIgualdad(t *testing.T) {
	t.Parallel()
	leccion := []string{
		`"instance":"urn:uuid:affc3b8a-5ab9-42f5-8b37-2face1f8eafd"`,
		`error affc3b8a-5ab9-42f5-8b37-2face1f8eafd en GET /x: …`,
		`ANTES="3-1-7b8bb8f3"`,
		`ETag: "3-1-223a2357"`,
	}
	bien := []string{
		`"instance":"urn:uuid:11111111-1111-4111-8111-111111111111"`,
		`error 11111111-1111-4111-8111-111111111111 en GET /x: …`,
		`ANTES="3-1-aaaaaaaa"`,
		`ETag: "3-1-bbbbbbbb"`,
	}
	mal := []string{
		`"instance":"urn:uuid:11111111-1111-4111-8111-111111111111"`,
		`error 22222222-2222-4222-8222-222222222222 en GET /x: …`,
		`ANTES="3-1-aaaaaaaa"`,
		`ETag: "3-1-aaaaaaaa"`,
	}
	l, _ := Normalizar(leccion, NuevoNumerador())
	b, _ := Normalizar(bien, NuevoNumerador())
	m, _ := Normalizar(mal, NuevoNumerador())
	if !reflect.DeepEqual(l, b) {
		t.Errorf("las mismas relaciones deberían normalizar igual:\n%q\n%q", l, b)
	}
	for _, i := range []int{1, 3} {
		if l[i] == m[i] {
			t.Errorf("línea %d: otra referencia u otra ETag no deberían pasar: %q", i, m[i])
		}
	}
}

func TestNormalizarCabeceras(t *testing.T) {
	t.Parallel()
	leccion := strings.Split(`HTTP/1.1 200 OK
Content-Type: application/json
Content-Length: 35
Date: Wed, 21 Oct 2026 13:19:06 GMT
Connection: keep-alive
Keep-Alive: timeout=5

{"servicio":1,"codigo":200,"ms":8}`, "\n")
	corrida := strings.Split("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 38\r\nDate: Mon, 30 Nov 2026 05:51:39 GMT\r\nConnection: keep-alive\r\nKeep-Alive: timeout=5\r\n\r\n{\"servicio\":1,\"codigo\":200,\"ms\":1503}", "\n")
	l, origen := Normalizar(leccion, NuevoNumerador())
	c, _ := Normalizar(corrida, NuevoNumerador())
	if !reflect.DeepEqual(l, c) {
		t.Errorf("deberían ser iguales:\n%q\n%q", l, c)
	}
	if !reflect.DeepEqual(origen, []int{0, 1, 2, 3, 4, 5, 6, 7}) {
		t.Errorf("origen %v: cada línea se conserva en su lugar", origen)
	}

	// The order is compared, and so are Node's Connection and Keep-Alive lines.
	for _, mal := range []string{
		"HTTP/1.1 200 OK\nContent-Length: 38\nContent-Type: application/json\nDate: x\nConnection: keep-alive\nKeep-Alive: timeout=5\n\n{\"servicio\":1,\"codigo\":200,\"ms\":1503}",
		"HTTP/1.1 200 OK\nContent-Type: application/json\nContent-Length: 38\nDate: x\n\n{\"servicio\":1,\"codigo\":200,\"ms\":1503}",
	} {
		if m, _ := Normalizar(strings.Split(mal, "\n"), NuevoNumerador()); reflect.DeepEqual(l, m) {
			t.Errorf("debería diferir de la lección: %q", m)
		}
	}

	// A Content-Length that does not match its own body is a real difference.
	mal := strings.Split("HTTP/1.1 200 OK\nContent-Type: application/json\nContent-Length: 40\nDate: x\n\n{\"servicio\":1,\"codigo\":200,\"ms\":1503}", "\n")
	m, _ := Normalizar(mal, NuevoNumerador())
	if reflect.DeepEqual(l, m) {
		t.Errorf("un Content-Length que no es el del cuerpo no debería pasar")
	}

	// Connection: close is behaviour (the 413), not Node's noise.
	cierre, _ := Normalizar([]string{"HTTP/1.1 413 Content Too Large", "Connection: close", ""}, NuevoNumerador())
	if len(cierre) != 3 {
		t.Errorf("Connection: close no debe quitarse: %q", cierre)
	}

	// The Retry-After of a 429 is computed from the window; of a 503 it is fixed.
	r429, _ := Normalizar([]string{"HTTP/1.1 429 Too Many Requests", "Retry-After: 58"}, NuevoNumerador())
	o429, _ := Normalizar([]string{"HTTP/1.1 429 Too Many Requests", "Retry-After: 57"}, NuevoNumerador())
	if !reflect.DeepEqual(r429, o429) {
		t.Errorf("el Retry-After de un 429 varía: %q %q", r429, o429)
	}
	r503, _ := Normalizar([]string{"HTTP/1.1 503 Service Unavailable", "Retry-After: 120"}, NuevoNumerador())
	o503, _ := Normalizar([]string{"HTTP/1.1 503 Service Unavailable", "Retry-After: 119"}, NuevoNumerador())
	if reflect.DeepEqual(r503, o503) {
		t.Errorf("el Retry-After: 120 del mantenimiento es fijo")
	}
}

// RateLimit's t counts down; its r and the policy are compared.
func TestNormalizarRateLimit(t *testing.T) {
	t.Parallel()
	n := NuevoNumerador()
	a := NormalizarLinea(`RateLimit: "revisiones";r=0;t=60`, n)
	b := NormalizarLinea(`RateLimit: "revisiones";r=0;t=58`, n)
	c := NormalizarLinea(`RateLimit: "revisiones";r=1;t=58`, n)
	p := NormalizarLinea(`RateLimit-Policy: "revisiones";q=3;w=60`, n)
	if a != b || a == c || p != `RateLimit-Policy: "revisiones";q=3;w=60` {
		t.Errorf("%q %q %q %q", a, b, c, p)
	}
}
