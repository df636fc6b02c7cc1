package revisor

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// Cases found by sending the same requests to the course's reference and to this revisor. Each
// expected body is the one the reference answered.

// A body is read as Node reads it: Buffer.toString() (one U+FFFD per cut sequence) and JSON.parse
// (a surrogate escape without its pair stays one, counts as one character, and is echoed as the
// same escape).
func TestDiferencialCuerpoComoNode(t *testing.T) {
	t.Parallel()
	e := nuevoEntorno(t, rapido)
	alta := func(cuerpo string) respuestaDePrueba {
		return e.pedir("POST", "/servicios", cuerpo, cred("escritura-a"), jsonCT)
	}
	const url = `,"url":"http://127.0.0.1:18081/codigo/200"}`
	if r := alta(`{"nombre":"\ud800"` + url); r.codigo() != "201" || r.cuerpo != `{"id":7,"nombre":"\ud800","url":"http://127.0.0.1:18081/codigo/200","limite_ms":2000}`+"\n" {
		t.Errorf("sustituto suelto: %s %s", r.linea, r.cuerpo)
	}
	// Another lone surrogate is another name, not a repeat of the first.
	if r := alta(`{"nombre":"\udbff"` + url); r.codigo() != "201" || !strings.Contains(r.cuerpo, `"nombre":"\udbff"`) {
		t.Errorf("otro sustituto: %s %s", r.linea, r.cuerpo)
	}
	if r := alta(`{"nombre":"\uD800"` + url); r.codigo() != "409" || !strings.Contains(r.cuerpo, `"detail":"ya existe un servicio llamado \ud800"`) {
		t.Errorf("el mismo sustituto: %s %s", r.linea, r.cuerpo)
	}
	// 40 lone surrogates are 40 characters; 41 are too many.
	if r := alta(`{"nombre":"` + strings.Repeat(`\udc00`, 40) + `"` + url); r.codigo() != "201" {
		t.Errorf("40 sustitutos: %s %s", r.linea, r.cuerpo)
	}
	if r := alta(`{"nombre":"` + strings.Repeat(`\udc01`, 41) + `"` + url); r.codigo() != "422" {
		t.Errorf("41 sustitutos: %s %s", r.linea, r.cuerpo)
	}
	// A four-byte sequence cut after three bytes is one U+FFFD for Node, not three.
	if r := alta("{\"nombre\":\"\xf0\x9f\x98\"" + url); r.codigo() != "201" || !strings.Contains(r.cuerpo, "\"nombre\":\"\ufffd\"") {
		t.Errorf("secuencia cortada: %s %s", r.linea, r.cuerpo)
	}
	if r := alta("{\"nombre\":\"" + strings.Repeat("\xf0\x9f\x98", 40) + "\"" + url); r.codigo() != "201" {
		t.Errorf("40 secuencias cortadas son 40 caracteres: %s %s", r.linea, r.cuerpo)
	}
}

// A check probes the service as it is when the check runs, a second after the 202: a PUT in
// between changes the URL (and the limit) it uses, as in the course, where the timer reads the
// service's current fields.
func TestDiferencialRevisionUsaElServicioAlCorrer(t *testing.T) {
	t.Parallel()
	e := nuevoEntorno(t, func(o *Opciones) {
		o.Guardar = 5 * time.Millisecond
		o.EsperaEnCola = 300 * time.Millisecond
	})
	if r := e.pedir("POST", "/servicios/1/revisiones", "", cred("escritura-a")); r.codigo() != "202" {
		t.Fatalf("revisión: %s %s", r.linea, r.cuerpo)
	}
	if r := e.pedir("PUT", "/servicios/1", `{"nombre":"catalogo","url":"http://127.0.0.1:18081/codigo/503"}`,
		cred("escritura-a"), jsonCT, "If-Match: *"); r.codigo() != "200" {
		t.Fatalf("PUT: %s %s", r.linea, r.cuerpo)
	}
	const quiere = `{"id":1,"servicio":1,"estado":"terminada","resultado":{"estado":"CAIDO","codigo":503,"ms":N,"detalle":"503 (reintentar en 120 s)"}}` + "\n"
	if got := normalizar(e.esperarTerminada("1").cuerpo); got != quiere {
		t.Errorf("la revisión usó el servicio de antes del PUT:\n%s\nse esperaba\n%s", got, quiere)
	}
}

// The query kept by the /viejo and /api redirects is the URL parser's search: nothing after the first
// "#" belongs to it. Expected values are Node's new URL(target, base).search.
func TestDiferencialBusqueda(t *testing.T) {
	t.Parallel()
	casos := []struct{ objetivo, quiere string }{
		{"/viejo/servicios/#?a#b", ""},
		{"/viejo/servicios?a=1#f?b", "?a=1"},
		{"/v?", ""},
		{"/v?#x", ""},
		{"/x#", ""},
		{"/x??a", "??a"},
		{`/x?<x>'"`, "?%3Cx%3E%27%22"},
		{"/x?`{}|\\^", "?`{}|\\^"},
	}
	for _, c := range casos {
		r := httptest.NewRequest("GET", "/", nil)
		r.RequestURI = c.objetivo
		if got := busqueda(r); got != c.quiere {
			t.Errorf("busqueda(%q) = %q, se esperaba %q", c.objetivo, got, c.quiere)
		}
	}
}
