package pizarra

import (
	"context"
	"encoding/csv"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// The board as CSV, read back as a gradebook would (encoding/csv): a header with the columns in
// the board's order, one row per roster name in its order, the names as typed (accents, an
// apostrophe, a dash), each check's state in the board's words, pending for who never graded, an
// empty cell for a check the last grading lacked, and the time of the last grading; only for the
// instructor.
func TestExportarNotas(t *testing.T) {
	t.Parallel()
	a := claseDePrueba(t)
	if _, err := a.Agregar(context.Background(), []string{"María-José O'Neill", "Łukasz Żółć"}); err != nil {
		t.Fatal(err)
	}
	anotar(t, a, "María-José O'Neill", "m1", hace.Add(3*time.Minute), "", "una-escritura=paso", "misma-llave=fallo", "codigo-de-salida=paso")
	srv := servirTablero(t, a)

	resp, cuerpo := pedir(t, http.MethodGet, srv.URL+RutaExportarNotas, "", "Authorization", "Bearer profe")
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/csv; charset=utf-8; header=present" ||
		!strings.Contains(resp.Header.Get("Content-Disposition"), "notas.csv") || resp.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("GET %s: %d %v\n%s", RutaExportarNotas, resp.StatusCode, resp.Header, cuerpo)
	}
	if !strings.HasSuffix(cuerpo, "\r\n") || strings.HasPrefix(cuerpo, "\ufeff") {
		t.Errorf("las líneas acaban en CRLF y no hay BOM: %q", cuerpo[:min(len(cuerpo), 40)])
	}
	filas, err := csv.NewReader(strings.NewReader(cuerpo)).ReadAll()
	if err != nil {
		t.Fatalf("no es CSV: %v\n%s", err, cuerpo)
	}
	if quiere := []string{"alumno", "ultima_calificacion", "pasaron", "juzgadas", "una-escritura", "misma-llave", "respeta-retry-after", "codigo-de-salida"}; !slices.Equal(filas[0], quiere) {
		t.Errorf("la cabecera: %q", filas[0])
	}
	hora := func(t time.Time) string { return t.Local().Format(time.RFC3339) }
	quiere := [][]string{
		{"Zoe", hora(hace.Add(2 * time.Minute)), "2", "3", "paso", "fallo", "no-juzgada", "paso"},
		{"Ana", hora(hace.Add(time.Minute)), "4", "4", "paso", "paso", "paso", "paso"},
		{"Mario", "", "", "", "pendiente", "pendiente", "pendiente", "pendiente"},
		{"Bea", "", "", "", "pendiente", "pendiente", "pendiente", "pendiente"},
		{"María-José O'Neill", hora(hace.Add(3 * time.Minute)), "2", "3", "paso", "fallo", "", "paso"},
		{"Łukasz Żółć", "", "", "", "pendiente", "pendiente", "pendiente", "pendiente"},
	}
	if len(filas)-1 != len(quiere) {
		t.Fatalf("%d filas; se esperaban %d:\n%s", len(filas)-1, len(quiere), cuerpo)
	}
	for i, q := range quiere {
		if !slices.Equal(filas[i+1], q) {
			t.Errorf("fila %d: %q; se esperaba %q", i+1, filas[i+1], q)
		}
	}
	if cuando, err := time.Parse(time.RFC3339, filas[1][1]); err != nil || !cuando.Equal(hace.Add(2*time.Minute)) {
		t.Errorf("la hora de Zoe %q: %v, %v", filas[1][1], cuando, err)
	}

	// Not the projector's: without the token (or the session) 401, from another site 403.
	if resp, _ := pedir(t, http.MethodGet, srv.URL+RutaExportarNotas, ""); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("sin token: %d", resp.StatusCode)
	}
	if resp, _ := pedir(t, http.MethodGet, srv.URL+RutaExportarNotas, "", "Authorization", "Bearer profe", "Sec-Fetch-Site", "cross-site"); resp.StatusCode != http.StatusForbidden {
		t.Errorf("desde otro sitio: %d", resp.StatusCode)
	}
	if resp, _ := pedir(t, http.MethodPost, srv.URL+RutaExportarNotas, "", "Authorization", "Bearer profe"); resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d", resp.StatusCode)
	}
}
