package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"cursohttp/pkg/clase"
	"cursohttp/pkg/datosclase"
	"cursohttp/pkg/pizarra"
)

// «laboratorio clase predecir» against a class lab (in this process, on SQLite): it opens the
// question, shows the histogram, has the lab run and reveal it, says who answered what, and closes
// it; what the lab refuses is its exit 1 with the lab's line.
func TestClasePredecir(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	mat, err := datosclase.Abrir(ctx, filepath.Join(dir, pizarra.ArchivoMatricula))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mat.Cerrar() })
	creds, err := mat.Agregar(ctx, []string{"Ana", "Luis", "Eva"})
	if err != nil {
		t.Fatal(err)
	}
	const tok = "token-del-profesor"
	if err := os.WriteFile(filepath.Join(dir, pizarra.ArchivoTokenClase), []byte(tok+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cl, err := clase.Nueva(clase.Opciones{Matricula: mat, Token: tok, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Cerrar)
	srv := httptest.NewServer(cl.Sitio(http.NotFoundHandler()))
	t.Cleanup(srv.Close)

	laboratorio := func(args ...string) (int, string, string) {
		t.Helper()
		var out, errOut bytes.Buffer
		c := run(ctx, append([]string{"clase", "--dir", dir, "--clase", srv.URL, "predecir"}, args...), strings.NewReader(""), &out, &errOut)
		return c, out.String(), errOut.String()
	}
	responder := func(cred string, r map[string]string) {
		t.Helper()
		b, _ := json.Marshal(map[string]any{"respuestas": r})
		req, _ := http.NewRequest(http.MethodPut, srv.URL+pizarra.RutaPrediccionRespuesta, bytes.NewReader(b))
		req.Header.Set("Authorization", "Bearer "+cred)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNoContent {
			t.Fatalf("responder: %d", resp.StatusCode)
		}
	}

	if c, out, errOut := laboratorio(); c != 0 || !strings.HasPrefix(out, "no hay ninguna pregunta abierta") || errOut != "" {
		t.Errorf("sin pregunta: %d %q %q", c, out, errOut)
	}
	if c, out, errOut := laboratorio("9.9"); c != 1 || out != "" || !strings.Contains(errOut, "la clase respondió 404: no hay ningún ejercicio «9.9»") {
		t.Errorf("un ejercicio que no hay: %d %q %q", c, out, errOut)
	}
	c, out, errOut := laboratorio("6.5.4-4xx")
	if c != 0 || errOut != "" || !strings.HasPrefix(out, "6.5.4-4xx — Un 4xx no se reintenta (lección 6, §6.5.4): abierta: los alumnos responden\n0 de 3 respondieron\n") ||
		!strings.Contains(out, "el proyector: "+srv.URL+"/clase/prediccion/proyector; los alumnos responden en "+srv.URL+"/clase/predecir") {
		t.Errorf("abrir: %d %q\n%s", c, errOut, out)
	}
	porNombre := map[string]string{}
	for _, cr := range creds {
		porNombre[cr.Alumno] = cr.Secreto
	}
	responder(porNombre["Ana"], map[string]string{"intentos": "1", "final": "agotados", "salida": "1"})
	responder(porNombre["Luis"], map[string]string{"intentos": "4", "final": "agotados", "salida": "1"})
	if c, out, _ := laboratorio("histograma"); c != 0 || !strings.Contains(out, "2 de 3 respondieron") ||
		!strings.Contains(out, "    respuestas: 1 ×1 · 4 ×1\n") || !strings.Contains(out, "respuestas: agotados ×2 · no-lo-arregla ×0 · espera-larga ×0 · hecha ×0") {
		t.Errorf("el histograma: %d\n%s", c, out)
	}
	c, out, errOut = laboratorio("revelar")
	if c != 0 || errOut != "" || !strings.Contains(out, "El laboratorio de la clase corre el ejercicio…\n") || !strings.Contains(out, ": revelada\n") ||
		strings.Count(out, "    pasó: ") != 3 || strings.Count(out, "    por qué: ") != 3 || !strings.Contains(out, "  Ana: 1 · agotados · 1  (") {
		t.Errorf("revelar: %d %q\n%s", c, errOut, out)
	}
	if c, out, _ := laboratorio(); c != 0 || !strings.Contains(out, "por alumno:\n  Ana: ") || !strings.Contains(out, "\n  Luis: 4 · agotados · 1") {
		t.Errorf("cómo va: %d\n%s", c, out)
	}
	if c, out, _ := laboratorio("cerrar"); c != 0 || out != "pregunta cerrada (las respuestas quedan en la matrícula de la clase)\n" {
		t.Errorf("cerrar: %d %q", c, out)
	}
	if c, _, errOut := laboratorio("revelar"); c != 1 || !strings.Contains(errOut, "la clase respondió 409: no hay ninguna pregunta abierta") {
		t.Errorf("revelar sin pregunta: %d %q", c, errOut)
	}
	if c, _, errOut := laboratorio("a", "b"); c != 2 || errOut == "" {
		t.Errorf("dos argumentos: %d %q", c, errOut)
	}
}

// The instructor's summary of an open question tells the students the address their machines reach
// the lab at, which the lab says, not the 127.0.0.1 the instructor's command used.
func TestLosAlumnosRespondenDondeLlegan(t *testing.T) {
	t.Parallel()
	var v prediccionDeClase
	if err := json.Unmarshal([]byte(`{"fase":"abierta","ejercicio":{"id":"6.5.4-4xx","titulo":"t","preguntas":[]},`+
		`"direcciones":["http://192.0.2.7:18084"]}`), &v); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	escribirPrediccion(&b, v, "http://127.0.0.1:18084")
	if !strings.Contains(b.String(), "el proyector: http://127.0.0.1:18084/clase/prediccion/proyector; los alumnos responden en http://192.0.2.7:18084/clase/predecir o con «revisor predecir --clase http://192.0.2.7:18084") {
		t.Errorf("el resumen del profesor:\n%s", b.String())
	}
}
