package pizarra_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"cursohttp/pkg/examen"
	"cursohttp/pkg/panel"
	"cursohttp/pkg/pizarra"
)

// The local class page as the panel serves it: the panel's gate (its tokens, its sessions, its
// hint to a refused student) is half of what these tests check, so they build the panel, from a
// package of their own (the panel imports this one).

// estadoClase is GET /clase/estado, as the page reads it.
type estadoClase struct {
	Comprobaciones []string          `json:"comprobaciones"`
	Alumnos        []*pizarra.Alumno `json:"alumnos"`
}

func postar(t *testing.T, url, tok, cuerpo string, cabeceras ...string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url+pizarra.RutaResultados, strings.NewReader(cuerpo))
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	for i := 0; i+1 < len(cabeceras); i += 2 {
		req.Header.Set(cabeceras[i], cabeceras[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func estadoDe(t *testing.T, url string) estadoClase {
	t.Helper()
	resp, err := http.Get(url + pizarra.RutaEstado)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var e estadoClase
	if err := json.NewDecoder(resp.Body).Decode(&e); err != nil {
		t.Fatal(err)
	}
	return e
}

// Posting a result needs the class token or the lab's, from no other site; a student's name is
// text, bounded; the page lists each student, each check and when it last passed, and a panel
// given the same file after a restart still has them.
func TestPaginaDeLaClase(t *testing.T) {
	t.Parallel()
	archivo := filepath.Join(t.TempDir(), "clase.json")
	p := panel.Nuevo(panel.Opciones{Token: "lab", TokenClase: "clase"})
	if err := p.GuardarClaseEn(archivo); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(p)
	defer srv.Close()

	nombre := `<img src=x onerror=alert(1)> Ana`
	bien := `{"alumno":` + string(mustJSON(nombre)) + `,"comprobaciones":[{"id":"una-escritura","paso":true},{"id":"misma-llave","paso":false}]}`
	for _, c := range []struct {
		que, tok, cuerpo string
		cab              []string
		codigo           int
	}{
		{"sin token", "", bien, nil, 401},
		{"otro token", "x", bien, nil, 401},
		{"de otro sitio", "clase", bien, []string{"Sec-Fetch-Site", "cross-site"}, 403},
		{"sin nombre", "clase", `{"alumno":"  ","comprobaciones":[{"id":"a","paso":true}]}`, nil, 400},
		{"nombre largo", "clase", `{"alumno":"` + strings.Repeat("a", 61) + `","comprobaciones":[{"id":"a","paso":true}]}`, nil, 400},
		{"id raro", "clase", `{"alumno":"b","comprobaciones":[{"id":"A B","paso":true}]}`, nil, 400},
		{"sin comprobaciones", "clase", `{"alumno":"b","comprobaciones":[]}`, nil, 400},
		{"no es JSON", "clase", `hola`, nil, 400},
		{"con el de la clase", "clase", bien, nil, 204},
		{"con el del laboratorio", "lab", `{"alumno":"Bruno","comprobaciones":[{"id":"una-escritura","paso":false}]}`, nil, 204},
	} {
		if codigo, cuerpo := postar(t, srv.URL, c.tok, c.cuerpo, c.cab...); codigo != c.codigo {
			t.Errorf("%s: %d %s; quiero %d", c.que, codigo, cuerpo, c.codigo)
		}
	}
	// A refused student is told where the class token comes from, not how to find the lab's.
	for _, tok := range []string{"", "x"} {
		if _, cuerpo := postar(t, srv.URL, tok, bien); !strings.HasSuffix(strings.TrimSpace(cuerpo), ": "+pizarra.PistaClase) ||
			strings.Contains(cuerpo, "«laboratorio lab token»") {
			t.Errorf("con el token %q: %q", tok, cuerpo)
		}
	}
	// Ana passes misma-llave later: the time it last passed is kept when it fails again.
	postar(t, srv.URL, "clase", `{"alumno":`+string(mustJSON(nombre))+`,"comprobaciones":[{"id":"misma-llave","paso":true}]}`)
	postar(t, srv.URL, "clase", `{"alumno":`+string(mustJSON(nombre))+`,"comprobaciones":[{"id":"misma-llave","paso":false}]}`)

	comprobar := func(e estadoClase) {
		t.Helper()
		if strings.Join(e.Comprobaciones, ",") != "una-escritura,misma-llave" || len(e.Alumnos) != 2 {
			t.Fatalf("estado %+v", e)
		}
		ana := e.Alumnos[0] // "<img…" sorts before "Bruno"
		if ana.Nombre != nombre || !ana.Checks["una-escritura"].Paso || ana.Checks["misma-llave"].Paso || ana.Checks["misma-llave"].UltimoOK == nil {
			t.Errorf("Ana: %+v %+v", ana.Checks["una-escritura"], ana.Checks["misma-llave"])
		}
		if b := e.Alumnos[1]; b.Nombre != "Bruno" || b.Checks["una-escritura"].Paso || b.Checks["una-escritura"].UltimoOK != nil {
			t.Errorf("Bruno: %+v", b.Checks["una-escritura"])
		}
	}
	comprobar(estadoDe(t, srv.URL))

	// The page and its script come with the panel's protections; the script draws with textContent.
	resp, err := http.Get(srv.URL + pizarra.RutaClase)
	if err != nil {
		t.Fatal(err)
	}
	pagina, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(pagina), `<script src="/clase.js"`) || !strings.Contains(resp.Header.Get("Content-Security-Policy"), "default-src 'self'") {
		t.Errorf("GET /clase: %d %s %q", resp.StatusCode, resp.Header, pagina)
	}
	resp, _ = http.Get(srv.URL + "/clase.js")
	guion, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(guion), "textContent") || strings.Contains(string(guion), "innerHTML") {
		t.Errorf("clase.js no dibuja solo con textContent")
	}

	// A restart with the same file.
	otro := panel.Nuevo(panel.Opciones{Token: "lab", TokenClase: "clase"})
	if err := otro.GuardarClaseEn(archivo); err != nil {
		t.Fatal(err)
	}
	srv2 := httptest.NewServer(otro)
	defer srv2.Close()
	comprobar(estadoDe(t, srv2.URL))
}

// What revisor comprobar cliente --enviar sends is what the page takes; what it asks before
// grading (GET /clase/resultados) refuses what the post would refuse, and changes nothing.
func TestEnviarResultados(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(panel.Nuevo(panel.Opciones{Token: "lab", TokenClase: "clase"}))
	defer srv.Close()
	ctx := context.Background()
	cs := []examen.Comprobacion{{ID: "una-escritura", Paso: true}, {ID: "se-rinde"}, {ID: "codigo-de-salida", Estado: examen.EstadoNoJuzgada}}
	for _, tok := range []string{"", "otro"} {
		antes, despues := examen.ComprobarPanel(ctx, srv.URL, tok), examen.Enviar(ctx, srv.URL, tok, "Eva", cs)
		if antes == nil || despues == nil || antes.Error() != despues.Error() ||
			!strings.HasPrefix(antes.Error(), "el panel respondió 401: ") || !strings.HasSuffix(antes.Error(), pizarra.PistaClase) {
			t.Errorf("con el token %q: antes %v; al enviar %v", tok, antes, despues)
		}
	}
	for _, tok := range []string{"clase", "lab"} {
		if err := examen.ComprobarPanel(ctx, srv.URL+"/", tok); err != nil {
			t.Errorf("con el token %q: %v", tok, err)
		}
	}
	if e := estadoDe(t, srv.URL); len(e.Alumnos) != 0 {
		t.Fatalf("preguntar cambió la clase: %+v", e)
	}
	// The same guard as the post: from another site, 403 whatever the token; HEAD as GET.
	for _, c := range []struct {
		metodo, sitio string
		codigo        int
	}{{http.MethodGet, "cross-site", 403}, {http.MethodGet, "same-site", 403}, {http.MethodHead, "", 204}, {http.MethodGet, "", 204}} {
		req, _ := http.NewRequest(c.metodo, srv.URL+pizarra.RutaResultados, nil)
		req.Header.Set("Authorization", "Bearer clase")
		if c.sitio != "" {
			req.Header.Set("Sec-Fetch-Site", c.sitio)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.codigo || (c.codigo == 204 && len(b) != 0) {
			t.Errorf("%s %s desde %q: %d %q", c.metodo, pizarra.RutaResultados, c.sitio, resp.StatusCode, b)
		}
	}
	// No panel there: one line that says where it looked.
	cerrado := httptest.NewServer(http.NotFoundHandler())
	cerrado.Close()
	if err := examen.ComprobarPanel(ctx, cerrado.URL, "clase"); err == nil ||
		!strings.HasPrefix(err.Error(), "no llego al panel en "+cerrado.URL+" (") || strings.Contains(err.Error(), "\n") {
		t.Errorf("sin panel: %v", err)
	}
	if err := examen.Enviar(context.Background(), srv.URL+"/", "clase", "Eva", cs); err != nil {
		t.Fatal(err)
	}
	e := estadoDe(t, srv.URL)
	if len(e.Alumnos) != 1 || e.Alumnos[0].Nombre != "Eva" || !e.Alumnos[0].Checks["una-escritura"].Paso || e.Alumnos[0].Checks["se-rinde"].Paso ||
		e.Alumnos[0].Checks["se-rinde"].Estado != "" {
		t.Errorf("estado %+v", e)
	}
	// A check not judged is neither ✔ nor ✘ on the page: its own state, never a pass.
	if c := e.Alumnos[0].Checks["codigo-de-salida"]; c == nil || c.Paso || c.Estado != pizarra.EstadoNoJuzgada || c.UltimoOK != nil {
		t.Errorf("no juzgada: %+v", c)
	}
	if codigo, _ := postar(t, srv.URL, "clase", `{"alumno":"Eva","comprobaciones":[{"id":"se-rinde","paso":true,"estado":"quizas"}]}`); codigo != http.StatusBadRequest {
		t.Errorf("un estado desconocido: %d", codigo)
	}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
