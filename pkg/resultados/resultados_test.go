package resultados

import (
	"encoding/json"
	"testing"
)

// The bytes on the wire are those the grader sent before the type was shared (issue 33, item 3):
// a panel of the previous release reads them, and so does this one.
func TestBytesDelEnvio(t *testing.T) {
	for _, c := range []struct {
		e      Envio
		quiere string
	}{
		{Envio{Alumno: "Ana", Comprobaciones: []Comprobacion{{ID: "a", Paso: true, Estado: "paso"}, {ID: "b-2", Estado: "no-juzgada"}, {ID: "c"}}},
			`{"alumno":"Ana","comprobaciones":[{"id":"a","paso":true,"estado":"paso"},{"id":"b-2","paso":false,"estado":"no-juzgada"},{"id":"c","paso":false}]}`},
		{Envio{Alumno: "Eva"}, `{"alumno":"Eva","comprobaciones":null}`},
	} {
		b, err := json.Marshal(c.e)
		if err != nil || string(b) != c.quiere {
			t.Errorf("json.Marshal(%+v) = %s, %v; se esperaba %s", c.e, b, err, c.quiere)
		}
		var e Envio
		if err := json.Unmarshal([]byte(c.quiere), &e); err != nil {
			t.Fatal(err)
		}
		if b, _ := json.Marshal(e); string(b) != c.quiere {
			t.Errorf("leído y escrito de nuevo: %s; se esperaba %s", b, c.quiere)
		}
	}
}
