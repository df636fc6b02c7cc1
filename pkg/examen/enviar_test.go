package examen

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// Enviar posts the same bytes whatever type carries them (issue 33, item 3): the panel of any
// release reads a grading of this one.
func TestEnviarLosMismosBytes(t *testing.T) {
	t.Parallel()
	cuerpos := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		cuerpos <- r.Method + " " + r.URL.Path + " " + r.Header.Get("Content-Type") + " " + string(b)
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	cs := []Comprobacion{{ID: "a", Paso: true, Estado: EstadoPaso, Linea: "✔ a", Detalles: []string{"x"}},
		{ID: "b-2", Estado: EstadoNoJuzgada, Linea: "· b"}, {ID: "c", Estado: EstadoFallo}}
	if err := Enviar(context.Background(), srv.URL, "tok", "Ana", cs); err != nil {
		t.Fatal(err)
	}
	const quiere = `POST /clase/resultados application/json {"alumno":"Ana","comprobaciones":[` +
		`{"id":"a","paso":true,"estado":"paso"},{"id":"b-2","paso":false,"estado":"no-juzgada"},{"id":"c","paso":false,"estado":"fallo"}]}`
	if got := <-cuerpos; got != quiere {
		t.Errorf("Enviar mandó\n%s\nse esperaba\n%s", got, quiere)
	}
	if err := Enviar(context.Background(), srv.URL, "tok", "Eva", nil); err != nil {
		t.Fatal(err)
	}
	if got, quiere := <-cuerpos, `POST /clase/resultados application/json {"alumno":"Eva","comprobaciones":null}`; got != quiere {
		t.Errorf("Enviar sin comprobaciones mandó\n%s\nse esperaba\n%s", got, quiere)
	}
}
