package revisor

import (
	"strings"
	"testing"
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
