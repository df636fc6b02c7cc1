package clase

import (
	"encoding/csv"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"cursohttp/pkg/ordenes/predecir"
	"cursohttp/pkg/pizarra"
)

// Every kept round's answers as CSV, read back with encoding/csv: one row per answer, the oldest
// round first, each student's answers in the exercise's order and the students in the roster's;
// once revealed, the real answer and whether each hit it, as the exercise judges; the
// instructor's only.
func TestExportarPredicciones(t *testing.T) {
	t.Parallel()
	e := arrancar(t, "Ana María", "O'Neill", "Eva")
	abrir := func(ej string) predecir.EnClase {
		t.Helper()
		codigo, cuerpo := e.pedir(t, http.MethodPost, pizarra.RutaPrediccion, tokenDePrueba, map[string]string{"ejercicio": ej})
		var v predecir.EnClase
		if codigo != http.StatusCreated || json.Unmarshal([]byte(cuerpo), &v) != nil {
			t.Fatalf("abrir %s: %d %s", ej, codigo, cuerpo)
		}
		return v
	}
	responder := func(alumno string, r map[string]string) {
		t.Helper()
		if codigo, cuerpo := e.responderComo(t, alumno, predecir.PedidoRespuestas{Respuestas: r}); codigo != http.StatusNoContent {
			t.Fatalf("%s responde: %d %s", alumno, codigo, cuerpo)
		}
	}
	primera := abrir(ejercicioDePrueba)
	// Eva answers first; the roster's order still rules.
	responder("Eva", map[string]string{"salida": "0", "intentos": "1", "final": primera.Ejercicio.Preguntas[1].Opciones[0]})
	responder("O'Neill", map[string]string{"intentos": "4", "final": primera.Ejercicio.Preguntas[1].Opciones[1], "salida": "1"})
	codigo, cuerpo := e.pedir(t, http.MethodPost, pizarra.RutaPrediccionRevelar, tokenDePrueba, nil)
	var revelada predecir.EnClase
	if codigo != http.StatusOK || json.Unmarshal([]byte(cuerpo), &revelada) != nil || revelada.Fase != predecir.FaseRevelada {
		t.Fatalf("revelar: %d %s", codigo, cuerpo)
	}
	segunda := abrir(ejercicioDePrueba)
	responder("Ana María", map[string]string{"intentos": "2", "final": segunda.Ejercicio.Preguntas[1].Opciones[0], "salida": "1"})

	req, _ := http.NewRequest(http.MethodGet, e.pizarra+pizarra.RutaExportarPredicciones, nil)
	req.Header.Set("Authorization", "Bearer "+tokenDePrueba)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	filas, err := csv.NewReader(resp.Body).ReadAll()
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != pizarra.TipoCSV {
		t.Fatalf("GET %s: %d %q %v", pizarra.RutaExportarPredicciones, resp.StatusCode, resp.Header.Get("Content-Type"), err)
	}
	if quiere := []string{"ejercicio", "abierta", "pregunta", "alumno", "respuesta", "respondida", "real", "acierto"}; !slices.Equal(filas[0], quiere) {
		t.Errorf("la cabecera: %q", filas[0])
	}
	ej := *primera.Ejercicio
	var quiere [][]string
	for _, r := range []struct {
		alumno     string
		respuestas map[string]string
		revelada   bool
	}{
		{"O'Neill", map[string]string{"intentos": "4", "final": ej.Preguntas[1].Opciones[1], "salida": "1"}, true},
		{"Eva", map[string]string{"salida": "0", "intentos": "1", "final": ej.Preguntas[1].Opciones[0]}, true},
		{"Ana María", map[string]string{"intentos": "2", "final": ej.Preguntas[1].Opciones[0], "salida": "1"}, false},
	} {
		for _, q := range ej.Preguntas {
			real, acierto := "", ""
			if r.revelada {
				real = revelada.Reales[q.ID].Valor
				acierto = map[bool]string{true: "sí", false: "no"}[q.Acierta(r.respuestas[q.ID], real)]
			}
			quiere = append(quiere, []string{ejercicioDePrueba, q.ID, r.alumno, r.respuestas[q.ID], real, acierto})
		}
	}
	if len(filas)-1 != len(quiere) {
		t.Fatalf("%d filas; se esperaban %d: %q", len(filas)-1, len(quiere), filas)
	}
	var abiertas []string
	for i, q := range quiere {
		f := filas[i+1]
		// The times are the lab's: RFC 3339, of today.
		for _, h := range []string{f[1], f[5]} {
			if cuando, err := time.Parse(time.RFC3339, h); err != nil || time.Since(cuando) > time.Hour {
				t.Errorf("fila %d: la hora %q (%v)", i+1, h, err)
			}
		}
		if got := []string{f[0], f[2], f[3], f[4], f[6], f[7]}; !slices.Equal(got, q) {
			t.Errorf("fila %d: %q; se esperaba %q", i+1, got, q)
		}
		if !slices.Contains(abiertas, f[1]) {
			abiertas = append(abiertas, f[1])
		}
	}
	if len(abiertas) > 2 || !strings.HasPrefix(filas[1][1], "20") {
		t.Errorf("las aperturas: %q", abiertas)
	}

	if codigo, _ := e.pedir(t, http.MethodGet, pizarra.RutaExportarPredicciones, "", nil); codigo != http.StatusUnauthorized {
		t.Errorf("sin el token: %d", codigo)
	}
	if codigo, _ := e.pedir(t, http.MethodGet, pizarra.RutaExportarPredicciones, e.creds["Eva"], nil); codigo != http.StatusUnauthorized {
		t.Errorf("con la credencial de un alumno: %d", codigo)
	}
}
