//go:build unix

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	neturl "net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"cursohttp/internal/prueba"
	"cursohttp/internal/prueba/navegador"
)

// The class page (issue 24.5) as a projector shows it, in a real headless Chromium, fed the way a
// class feeds it: «laboratorio panel --datos clase.json» in the test's own folder, students who
// run «revisor comprobar cliente --puertos-libres --enviar … --alumno … --token …» with the
// course's alta-segura and with its broken version, and a student whose name is HTML. The page
// shows each student's row with each check as the run said and when it last passed, the name as
// text; a student's second run redraws the row without a reload; a post without the token, with
// a wrong one or from a page of another site changes nothing; after a restart with the same
// --datos the rows are still there. The problem page and the API's page, which a student opens
// from the panel, render their content in the same browser.
func TestClaseEnNavegador(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("arranca el panel, el revisor y Chromium; se salta con -short")
	}
	bin := t.TempDir()
	if out, err := exec.Command("go", "build", "-o", bin+string(filepath.Separator),
		"cursohttp/cmd/revisor", "cursohttp/cmd/alta-segura", "cursohttp/cmd/laboratorio").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ctx, cancelar := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancelar()

	nav := navegador.Arrancar(t, 1280, 800)

	// The instructor's folder; the panel makes both tokens and says them, as in a class.
	carpeta := t.TempDir()
	puerto := strconv.Itoa(prueba.PuertosLibres(t, 1)[0])
	panel := arrancarPanel(ctx, t, filepath.Join(bin, "laboratorio"), carpeta, nil, "--puerto", puerto, "--datos", "clase.json")
	url := "http://127.0.0.1:" + puerto
	// The token lines follow the start-up line.
	if err := panel.esperar(ctx, func(l []string) bool {
		return contar(l, "panel: token de la clase ") == 1 && contar(l, "panel: token del laboratorio ") == 1
	}); err != nil {
		t.Fatalf("el panel no dijo sus tokens: %v\n%s", err, panel.todo())
	}
	tokenClase, tokenLab := panel.dicho("panel: token de la clase "), panel.dicho("panel: token del laboratorio ")

	// A projector's 1280×800.
	pagina, err := nav.Abrir(ctx, url+"/clase", 1280, 800)
	if err != nil {
		t.Fatal(err)
	}
	if err := pagina.Esperar(ctx, `document.querySelector("#estado").textContent === "0 alumnos; se actualiza sola"`); err != nil {
		t.Fatalf("la página de la clase no cargó: %v\n%s", err, nav.Salida())
	}
	// What an injected name would do, and what would say the page was reloaded: a policy violation
	// (the page's CSP blocking an inline script), a global a script would set, a mark a reload clears.
	if err := pagina.Evaluar(ctx, `window.violaciones = 0; window.sinRecargar = true;
		document.addEventListener("securitypolicyviolation", () => window.violaciones++)`, nil); err != nil {
		t.Fatal(err)
	}

	// Two students grade their clients and post the results; a third has the token wrong, and is
	// told so before its client runs (a client that leaves a mark when it does). A name with HTML
	// and script in it is posted directly (with the lab's token, which also may), and one post
	// carries no token at all.
	alta := filepath.Join(bin, "alta-segura")
	marca := filepath.Join(t.TempDir(), "el-cliente-corrio")
	delIntruso := filepath.Join(t.TempDir(), "cliente-del-intruso")
	if err := os.WriteFile(delIntruso, []byte("#!/bin/sh\n: > '"+marca+"'\nexec '"+alta+"' \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	var ana, bruno, intruso corrida
	var grupo sync.WaitGroup
	for _, c := range []struct {
		r       *corrida
		alumno  string
		tok     string
		cliente string
		defecto []string
	}{
		{&ana, "Ana", tokenClase, alta, nil},
		{&bruno, "Bruno", tokenClase, alta, []string{"--defecto", "llave-por-intento"}},
		{&intruso, "Intruso", "no-es-el-token", delIntruso, nil},
	} {
		grupo.Go(func() { *c.r = calificar(ctx, t, bin, carpeta, url, c.alumno, c.tok, c.cliente, c.defecto...) })
	}
	const hostil = `Eva <img src=x onerror=window.xss=1><script>xss=2</script>`
	cuerpo := func(alumno string) string {
		b, _ := json.Marshal(map[string]any{"alumno": alumno, "comprobaciones": []map[string]any{{"id": "una-escritura", "paso": true}}})
		return string(b)
	}
	if codigo := postarClase(t, url, tokenLab, cuerpo(hostil)); codigo != http.StatusNoContent {
		t.Fatalf("el nombre hostil con el token del laboratorio: %d", codigo)
	}
	if codigo := postarClase(t, url, "", cuerpo("Nadie")); codigo != http.StatusUnauthorized {
		t.Errorf("sin token: %d, se esperaba 401", codigo)
	}
	grupo.Wait()
	if t.Failed() {
		t.FailNow()
	}
	if !ana.paso("misma-llave") || bruno.paso("misma-llave") {
		t.Fatalf("alta-segura y su versión rota no se distinguieron en misma-llave:\n%s\n%s", ana.salida, bruno.salida)
	}
	// A wrong token is said before grading: one line, exit 1, no report, the client never ran.
	if intruso.codigo != 1 || intruso.salida != "" || strings.Count(intruso.errores, "\n") != 1 ||
		!strings.HasPrefix(intruso.errores, "revisor comprobar cliente: no califico, el panel no aceptaría los resultados: el panel respondió 401: ") {
		t.Errorf("con otro token: salida %d, informe %q, dijo %q", intruso.codigo, intruso.salida, intruso.errores)
	}
	if _, err := os.Stat(marca); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("con otro token el cliente se corrió igual (%v)", err)
	}
	t.Logf("con otro token, revisor comprobar cliente se negó en %v", intruso.fin.Sub(intruso.inicio).Round(time.Millisecond))
	// The refusal tells a student where the class token comes from, not how to find the lab's.
	if !strings.Contains(intruso.errores, "token de la clase") || strings.Contains(intruso.errores, "«laboratorio lab token» lo muestra") {
		t.Errorf("el rechazo no dice de dónde sale el token de la clase: %q", intruso.errores)
	}

	estado := leerEstado(t, url)
	var ids []string
	for _, c := range ana.informe.Comprobaciones {
		ids = append(ids, c.ID)
	}
	if len(ids) != 8 || !slices.Equal(estado.Comprobaciones, ids) {
		t.Fatalf("el panel tiene las comprobaciones %v; la corrida dio %v", estado.Comprobaciones, ids)
	}
	nombres := []string{"Ana", "Bruno", hostil}
	for _, n := range nombres {
		if estado.alumno(n) == nil {
			t.Fatalf("el panel no tiene a %q: %+v", n, estado)
		}
	}
	if !estado.alumno("Ana").Ultima.After(ana.inicio) || estado.alumno("Ana").Ultima.After(ana.fin) {
		t.Errorf("la hora de Ana (%v) no está en su corrida (%v – %v)", estado.alumno("Ana").Ultima, ana.inicio, ana.fin)
	}
	esperadas := map[string][]celdaClase{
		"Ana":   ana.celdas(estado, "Ana"),
		"Bruno": bruno.celdas(estado, "Bruno"),
		hostil:  estado.celdas(hostil, ids),
	}

	// The page, within its next redraw: one row per student (by name), the columns the runs gave.
	if err := pagina.Esperar(ctx, `document.querySelectorAll("#bloques tbody tr").length === 3`); err != nil {
		t.Fatalf("la página no mostró a los tres alumnos: %v", err)
	}
	vista := leerClase(ctx, t, pagina)
	// The hostile name is text: its cell holds it whole, no element came from it, nothing ran.
	if vista.Elementos != "" || vista.Imagenes != 0 || vista.Xss != "" || vista.Violaciones != 0 {
		t.Errorf("el nombre hostil se interpretó: elementos %q, imágenes %d, xss %q, violaciones de la CSP %d",
			vista.Elementos, vista.Imagenes, vista.Xss, vista.Violaciones)
	}
	comprobarVista(t, vista, ids, nombres, esperadas, estado)
	if vista.Estado != "3 alumnos; se actualiza sola" {
		t.Errorf("la página dice %q", vista.Estado)
	}
	vista.enPantalla(t, 3)

	// A page of another site the student opens tries to post as the class: the forms and the
	// no-cors fetch reach the panel and are refused; the fetch with the token never leaves the
	// browser (its preflight is not approved).
	deOtroSitioALaClase(ctx, t, nav, url, tokenClase, panel)
	rechazos := func(l []string) bool {
		return contar(l, "panel: rechazo POST /clase/resultados: ") >= 3 && contar(l, "panel: rechazo GET /clase/resultados: ") >= 1
	}
	if err := panel.esperar(ctx, rechazos); err != nil {
		t.Fatalf("el panel no dijo los 4 rechazos (sin token, otro token antes de calificar, dos de otro sitio): %v\n%s", err, panel.todo())
	}
	lineas := panel.lineas()
	for _, motivo := range []string{"POST /clase/resultados: publicar resultados pide el token de la clase",
		"GET /clase/resultados: ese no es el token de la clase ni el del laboratorio"} {
		if contar(lineas, "panel: rechazo "+motivo) != 1 {
			t.Errorf("el panel no dijo una vez «%s»:\n%s", motivo, panel.todo())
		}
	}
	if n := contar(lineas, "panel: rechazo POST /clase/resultados: ese no es el token"); n != 0 {
		t.Errorf("el intruso llegó a publicar %d veces:\n%s", n, panel.todo())
	}
	if n := contar(lineas, "panel: rechazo POST /clase/resultados: una página de otro sitio"); n != 2 {
		t.Errorf("%d rechazos de otro sitio, se esperaban 2:\n%s", n, panel.todo())
	}

	// Ana breaks her client and grades it again: her row changes in the open page, without a
	// reload; misma-llave now fails and still says when it last passed (her first run). Every
	// refused post above came before this one: the redraw that shows it shows them too.
	ana2 := calificar(ctx, t, bin, carpeta, url, "Ana", tokenClase, alta, "--defecto", "llave-por-intento")
	if ana2.paso("misma-llave") {
		t.Fatalf("la versión rota pasó misma-llave:\n%s", ana2.salida)
	}
	antes := estado
	estado = leerEstado(t, url)
	if !estado.alumno("Ana").Ultima.After(antes.alumno("Ana").Ultima) {
		t.Fatalf("la segunda corrida de Ana no cambió su hora: %+v", estado.alumno("Ana"))
	}
	esperadas["Ana"] = ana2.celdas(estado, "Ana")
	if ok := *estado.alumno("Ana").Checks["misma-llave"].UltimoOK; !ok.Equal(antes.alumno("Ana").Ultima) {
		t.Errorf("misma-llave de Ana pasó por última vez a las %v; su primera corrida fue a las %v", ok, antes.alumno("Ana").Ultima)
	}
	fila := `[...document.querySelectorAll("#bloques tbody tr")].find(f => f.firstChild.textContent === "Ana")`
	if err := pagina.Esperar(ctx, fila+`.lastChild.dataset.hora === "`+hora(estado.alumno("Ana").Ultima)+`"`); err != nil {
		t.Fatalf("la fila de Ana no cambió sola: %v", err)
	}
	vista = leerClase(ctx, t, pagina)
	comprobarVista(t, vista, ids, nombres, esperadas, estado)
	if !vista.SinRecargar {
		t.Error("la página se recargó para mostrar la segunda corrida")
	}
	guardarCaptura(ctx, t, pagina, "clase.png")

	// A real class: 27 more students post their results (some names long), 30 in all with the 8
	// checks. At 1280×800 every row, every check and its header is inside the viewport, in type
	// that reads from the back of a room, with ✔ and ✘ told apart by lightness, not only hue.
	for i, nombre := range claseDe27 {
		var cs []map[string]any
		for j, id := range ids {
			cs = append(cs, map[string]any{"id": id, "paso": (i+j)%3 != 0})
		}
		b, _ := json.Marshal(map[string]any{"alumno": nombre, "comprobaciones": cs})
		if codigo := postarClase(t, url, tokenClase, string(b)); codigo != http.StatusNoContent {
			t.Fatalf("%s: %d", nombre, codigo)
		}
	}
	estado = leerEstado(t, url)
	nombres = append(nombres, claseDe27...)
	for _, n := range claseDe27 {
		esperadas[n] = estado.celdas(n, ids)
	}
	if err := pagina.Esperar(ctx, `document.querySelector("#estado").textContent === "30 alumnos; se actualiza sola"`); err != nil {
		t.Fatalf("la página no mostró a los 30: %v", err)
	}
	vista = leerClase(ctx, t, pagina)
	comprobarVista(t, vista, ids, nombres, esperadas, estado)
	vista.enPantalla(t, 30)
	if vista.Contraste == nil || vista.Contraste.Fondos < 3 || vista.Contraste.Bien < 4.5 || vista.Contraste.Mal < 4.5 {
		t.Errorf("✔ y ✘ no se distinguen sin color (contraste entre sus fondos ≥ 3, de cada marca con su fondo ≥ 4,5): %+v", vista.Contraste)
	}
	guardarCaptura(ctx, t, pagina, "clase-30.png")

	// When a check last passed is a cell's detail: with the focus on it (Tab, or the pointer), a
	// bar in sight says who, which check, when it last passed and when the student was graded.
	celdaDeAna := fila + `.querySelector('td[data-id="misma-llave"]')`
	if err := pagina.AlFrente(ctx); err != nil {
		t.Fatal(err)
	}
	if err := pagina.Evaluar(ctx, celdaDeAna+`.focus()`, nil); err != nil {
		t.Fatal(err)
	}
	var detalle struct {
		Texto   string
		Visible bool
	}
	const jsDetalle = `(() => { const b = document.querySelector("#detalle"), r = b.getBoundingClientRect();
		return {Texto: b.textContent, Visible: !b.hidden && r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && r.right <= innerWidth}; })()`
	if err := pagina.Evaluar(ctx, jsDetalle, &detalle); err != nil {
		t.Fatal(err)
	}
	deAna := estado.alumno("Ana")
	if want := "Ana · ✘ misma-llave: pasó por última vez a las " + hora(*deAna.Checks["misma-llave"].UltimoOK) + " · calificado a las " + hora(deAna.Ultima); !detalle.Visible || detalle.Texto != want {
		t.Errorf("con el foco en misma-llave de Ana, la barra (visible %v) dice %q; se esperaba %q", detalle.Visible, detalle.Texto, want)
	}
	if err := pagina.Evaluar(ctx, `document.activeElement.blur()`, nil); err != nil {
		t.Fatal(err)
	}
	if err := pagina.Evaluar(ctx, jsDetalle, &detalle); err != nil || detalle.Visible {
		t.Errorf("sin foco la barra sigue a la vista (%v): %q", err, detalle.Texto)
	}

	// The panel behind a proxy that answers 503 for a while: the open page says so (the code, the
	// time of what it still shows, greyed) and comes back by itself when the panel answers again.
	panelEn503(ctx, t, nav, url)

	// The panel stops and starts again with the same file: the open page says it lost the panel,
	// then shows the same rows from the new one; a page opened now shows them too.
	if codigo := panel.detener(t); codigo != 0 && codigo != 130 {
		t.Errorf("el panel salió con %d tras Ctrl+C:\n%s", codigo, panel.todo())
	}
	if err := pagina.Esperar(ctx, `document.querySelector("#estado").textContent.startsWith("sin conexión")`); err != nil {
		t.Fatalf("la página no dijo que perdió el panel: %v", err)
	}
	panel = arrancarPanel(ctx, t, filepath.Join(bin, "laboratorio"), carpeta, []string{"CURSOHTTP_TOKEN_CLASE=" + tokenClase},
		"--puerto", puerto, "--datos", "clase.json")
	if err := pagina.Esperar(ctx, `document.querySelector("#estado").textContent.endsWith("; se actualiza sola")`); err != nil {
		t.Fatalf("la página no volvió con el panel: %v", err)
	}
	if otro := leerEstado(t, url); !igualesJSON(otro, estado) {
		t.Errorf("tras el reinicio el panel tiene\n%+v\nantes tenía\n%+v", otro, estado)
	}
	comprobarVista(t, leerClase(ctx, t, pagina), ids, nombres, esperadas, estado)
	nueva, err := nav.Abrir(ctx, url+"/clase", 1280, 800)
	if err != nil {
		t.Fatal(err)
	}
	if err := nueva.Esperar(ctx, `document.querySelectorAll("#bloques tbody tr").length === 30`); err != nil {
		t.Fatalf("una página abierta tras el reinicio no muestra a los 30 alumnos: %v", err)
	}
	comprobarVista(t, leerClase(ctx, t, nueva), ids, nombres, esperadas, estado)

	documentacionEnNavegador(ctx, t, nav, url)
}

// corrida is one «revisor comprobar cliente --json --enviar» run, as its student saw it.
type corrida struct {
	codigo          int
	salida, errores string
	inicio, fin     time.Time
	informe         struct {
		Comprobaciones []struct {
			ID     string `json:"id"`
			Paso   bool   `json:"paso"`
			Estado string `json:"estado"` // paso, fallo or no-juzgada (issue 30)
		} `json:"comprobaciones"`
	}
}

func (c corrida) paso(id string) bool {
	for _, x := range c.informe.Comprobaciones {
		if x.ID == id {
			return x.Paso
		}
	}
	return false
}

// calificar runs the grader on alta-segura (or a script that runs it) as a student does with
// --puertos-libres: alta-segura takes its gateway from --pasarela, so a line of sh hands it
// PASARELA_URL.
func calificar(ctx context.Context, t *testing.T, bin, carpeta, panel, alumno, tok, alta string, defecto ...string) corrida {
	args := append([]string{"comprobar", "cliente", "--puertos-libres", "--semilla", "7", "--json",
		"--enviar", panel, "--alumno", alumno, "--token", tok,
		"--", "sh", "-c", `exec "$0" --pasarela "$PASARELA_URL" "$@"`, alta}, defecto...)
	cmd := exec.CommandContext(ctx, filepath.Join(bin, "revisor"), args...)
	cmd.Dir = carpeta
	var out, errOut prueba.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	c := corrida{inicio: time.Now()}
	err := cmd.Run()
	c.fin = time.Now()
	c.salida, c.errores = out.String(), errOut.String()
	var salida *exec.ExitError
	switch {
	case errors.As(err, &salida):
		c.codigo = salida.ExitCode()
	case err != nil:
		t.Errorf("revisor comprobar cliente (%s): %v\n%s", alumno, err, c.errores)
		return c
	}
	if c.salida == "" && c.codigo != 0 {
		return c // refused before grading: no report; the caller says whether it should have been
	}
	if err := json.Unmarshal([]byte(c.salida), &c.informe); err != nil || len(c.informe.Comprobaciones) == 0 {
		t.Errorf("revisor comprobar cliente --json (%s): %v\n%s\n%s", alumno, err, c.salida, c.errores)
	}
	return c
}

// celdaClase is one check's cell: its mark, its class (the colour) and its note.
type celdaClase struct{ Marca, Clase, Nota string }

// celdas are what alumno's row must show for this run: each check's mark as the run said it, and
// when it last passed as the panel recorded it.
func (c corrida) celdas(e estadoClase, alumno string) []celdaClase {
	var cs []celdaClase
	for _, x := range c.informe.Comprobaciones {
		celda := celdaClase{"✘", "mal", x.ID + ": nunca pasó"}
		if x.Paso {
			celda.Marca, celda.Clase = "✔", "bien"
		}
		if ok := e.alumno(alumno).Checks[x.ID].UltimoOK; ok != nil {
			celda.Nota = x.ID + ": pasó por última vez a las " + hora(*ok)
		}
		if x.Estado == "no-juzgada" {
			// Neither ✔ nor ✘: the run never met what the check needs.
			celda.Marca, celda.Clase = "○", "sinjuicio"
			celda.Nota = x.ID + ": no se juzgó; " + strings.TrimPrefix(celda.Nota, x.ID+": ")
		}
		cs = append(cs, celda)
	}
	return cs
}

// celdas are what alumno's row must show by the panel's own account (a result posted directly).
func (e estadoClase) celdas(alumno string, ids []string) []celdaClase {
	var cs []celdaClase
	for _, id := range ids {
		x, ok := e.alumno(alumno).Checks[id]
		switch {
		case !ok:
			cs = append(cs, celdaClase{"—", "falta", id + ": no llegó su resultado"})
		case x.UltimoOK == nil:
			cs = append(cs, celdaClase{"✘", "mal", id + ": nunca pasó"})
		case x.Paso:
			cs = append(cs, celdaClase{"✔", "bien", id + ": pasó por última vez a las " + hora(*x.UltimoOK)})
		default:
			cs = append(cs, celdaClase{"✘", "mal", id + ": pasó por última vez a las " + hora(*x.UltimoOK)})
		}
	}
	return cs
}

// claseDe27 fill a class of 30 with the three above: names as a class has them, a few long.
var claseDe27 = []string{"Alba", "Bea Castro", "Carlos", "Diego", "Elena", "Fátima", "Gonzalo", "Hugo", "Irene",
	"Javier", "Lucía", "Manuel", "María José Fernández de la Vega", "Nuria", "Óscar", "Pablo", "Quim", "Raquel",
	"Sofía", "Tomás", "Úrsula", "Valeria", "Xavier", "Yago", "Zoe", "Juan Carlos Rodríguez Peña", "Lola"}

// claveEspañola is a name as a Spanish list sorts it: without case or accents, ñ a letter of its own
// after n. Enough for the names of these tests; the page itself uses the browser's collator.
func claveEspañola(s string) string {
	r := strings.NewReplacer("á", "a", "é", "e", "í", "i", "ó", "o", "ú", "u", "ü", "u", "ñ", "n\x7f")
	return r.Replace(strings.ToLower(s))
}

// hora is a time as the page writes it (hh:mm:ss, local time: Chromium and the test share TZ).
func hora(t time.Time) string { return t.Local().Format("15:04:05") }

// estadoClase is GET /clase/estado, the panel's own account of the class.
type estadoClase struct {
	Comprobaciones []string      `json:"comprobaciones"`
	Alumnos        []alumnoClase `json:"alumnos"`
}

type alumnoClase struct {
	Nombre string    `json:"nombre"`
	Ultima time.Time `json:"ultima"`
	Checks map[string]struct {
		Paso     bool       `json:"paso"`
		Estado   string     `json:"estado"`
		UltimoOK *time.Time `json:"ultima_vez_bien"`
	} `json:"comprobaciones"`
}

func (e estadoClase) alumno(nombre string) *alumnoClase {
	for i := range e.Alumnos {
		if e.Alumnos[i].Nombre == nombre {
			return &e.Alumnos[i]
		}
	}
	return nil
}

func igualesJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func leerEstado(t *testing.T, url string) estadoClase {
	t.Helper()
	resp, err := http.Get(url + "/clase/estado")
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

// postarClase posts one result the way a program does (no browser headers); its status.
func postarClase(t *testing.T, url, tok, cuerpo string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url+"/clase/resultados", strings.NewReader(cuerpo))
	req.Header.Set("Content-Type", "application/json")
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// vistaClase is what the class page shows, read from its DOM.
type vistaClase struct {
	Bloques   [][]string // each block's headers: a check's id, else the header's text
	Cabeceras []struct{ ID, Texto, Titulo string }
	Leyenda   []string
	Filas     []struct {
		Nombre       string
		Celdas       []celdaClase
		Ultima, Hora string
	}
	Estado      string
	Elementos   string // elements in the rows other than the page's own
	Imagenes    int
	Xss         string
	Violaciones int
	SinRecargar bool
	// What must be in sight at once: the boxes that are not (each cell and header, the legend,
	// the title and the status), how far the document scrolls, the least type of a row.
	Fuera                       []string
	Ancho, Alto, AnchoDocumento int
	AltoDocumento               int
	Letra                       float64
	Contraste                   *struct{ Fondos, Bien, Mal float64 }
}

const jsLeerClase = `(() => {
	const filas = [...document.querySelectorAll("#bloques tbody tr")].map(tr => {
		const tds = [...tr.children], u = tds[tds.length - 1];
		return {Nombre: tds[0].textContent, Ultima: u.textContent, Hora: u.dataset.hora || "",
			Celdas: tds.slice(1, -1).map(td => ({Marca: td.firstChild ? td.firstChild.nodeValue || "" : "",
				Clase: td.className, Nota: td.querySelector("small") ? td.querySelector("small").textContent : ""}))};
	});
	const ajenos = [...document.querySelectorAll("#bloques tbody *")].filter(e => !["TR", "TD", "SPAN", "SMALL"].includes(e.tagName));
	const caja = (e) => e.getBoundingClientRect();
	const fuera = [...document.querySelectorAll("#bloques td, #bloques th, #leyenda:not([hidden]) span, h1, #estado")].filter(e => {
		const r = caja(e);
		return r.width <= 0 || r.height <= 0 || r.left < 0 || r.top < 0 || r.right > innerWidth || r.bottom > innerHeight;
	}).map(e => e.tagName + " «" + e.textContent.slice(0, 30) + "» " + JSON.stringify(caja(e)));
	const letras = [...document.querySelectorAll("#bloques td.nombre, #bloques td[data-id]")].map(td => parseFloat(getComputedStyle(td).fontSize));
	// WCAG's relative luminance and contrast ratio: lightness alone, what a colour-blind eye keeps.
	const luz = (c) => {
		const [r, g, b] = c.match(/[\d.]+/g).slice(0, 3).map(Number).map(v => (v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
		return 0.2126 * r + 0.7152 * g + 0.0722 * b;
	};
	const contraste = (a, b) => { const [x, y] = [luz(a), luz(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
	const bien = document.querySelector("#bloques td.bien"), mal = document.querySelector("#bloques td.mal");
	const estilo = (e) => getComputedStyle(e);
	return {Bloques: [...document.querySelectorAll("#bloques table")].map(t => [...t.querySelectorAll("thead th")].map(th => th.dataset.id || th.textContent)),
		Cabeceras: [...document.querySelectorAll("#bloques table:first-child thead th[data-id]")].map(th => ({ID: th.dataset.id, Texto: th.textContent,
			Titulo: th.querySelector("abbr") ? th.querySelector("abbr").title : ""})),
		Leyenda: document.querySelector("#leyenda").hidden ? [] : [...document.querySelectorAll("#leyenda span")].map(s => s.textContent),
		Filas: filas, Estado: document.querySelector("#estado").textContent,
		Elementos: ajenos.map(e => e.tagName).join(","), Imagenes: document.images.length,
		Xss: window.xss === undefined ? "" : String(window.xss), Violaciones: window.violaciones || 0,
		SinRecargar: window.sinRecargar === true,
		Fuera: fuera, Ancho: innerWidth, Alto: innerHeight,
		AnchoDocumento: document.documentElement.scrollWidth, AltoDocumento: document.documentElement.scrollHeight,
		Letra: letras.length ? Math.min(...letras) : 0,
		Contraste: bien && mal ? {Fondos: contraste(estilo(bien).backgroundColor, estilo(mal).backgroundColor),
			Bien: contraste(estilo(bien).color, estilo(bien).backgroundColor), Mal: contraste(estilo(mal).color, estilo(mal).backgroundColor)} : null};
})()`

func leerClase(ctx context.Context, t *testing.T, p *navegador.Pagina) vistaClase {
	t.Helper()
	var v vistaClase
	if err := p.Evaluar(ctx, jsLeerClase, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// comprobarVista: each block's columns are the checks in the runs' order, each header the check's
// name or its abbreviation, which the legend spells out; one row per student, in the panel's
// order down the blocks, each with its name as text, each check's cell and its last grading's
// time (hh:mm in sight, with the seconds in its details).
func comprobarVista(t *testing.T, v vistaClase, ids, nombres []string, celdas map[string][]celdaClase, e estadoClase) {
	t.Helper()
	want := append(append([]string{"alumno"}, ids...), "última")
	for i, b := range v.Bloques {
		if !slices.Equal(b, want) {
			t.Errorf("bloque %d: columnas %q, se esperaban %q", i, b, want)
		}
	}
	for _, c := range v.Cabeceras {
		if c.Texto != c.ID && (c.Titulo != c.ID || !slices.Contains(v.Leyenda, c.Texto+" "+c.ID)) {
			t.Errorf("la cabecera %q de %s no es su nombre ni una abreviatura de la leyenda %q", c.Texto, c.ID, v.Leyenda)
		}
	}
	var vistos []string
	for _, f := range v.Filas {
		vistos = append(vistos, f.Nombre)
	}
	// As a Spanish class list orders them (the page's Intl.Collator("es")): «Óscar» between «Nuria»
	// and «Pablo», not after «Zoe» as bytes would put it.
	orden := slices.SortedFunc(slices.Values(nombres), func(a, b string) int {
		return strings.Compare(claveEspañola(a), claveEspañola(b))
	})
	if !slices.Equal(vistos, orden) {
		t.Fatalf("filas %q, se esperaban %q", vistos, orden)
	}
	for _, f := range v.Filas {
		if !slices.Equal(f.Celdas, celdas[f.Nombre]) {
			t.Errorf("%q:\n muestra  %v\n se esperaba %v", f.Nombre, f.Celdas, celdas[f.Nombre])
		}
		if want := hora(e.alumno(f.Nombre).Ultima); f.Hora != want || f.Ultima != want[:5] {
			t.Errorf("%q: última %q (%q), se esperaba %q", f.Nombre, f.Ultima, f.Hora, want)
		}
	}
}

// enPantalla: on a projector the whole class is in sight at once: every cell, header and legend
// entry inside the viewport, nothing to scroll, and the rows in type of at least 16 px (20 px for
// a class of 30 at 1280×800: what reads from the back of a room).
func (v vistaClase) enPantalla(t *testing.T, alumnos int) {
	t.Helper()
	if len(v.Filas) != alumnos {
		t.Errorf("%d filas a la vista, se esperaban %d", len(v.Filas), alumnos)
	}
	if len(v.Fuera) > 0 {
		t.Errorf("a %d×%d, %d cajas fuera de la pantalla, como %q", v.Ancho, v.Alto, len(v.Fuera), v.Fuera[0])
	}
	if v.AnchoDocumento > v.Ancho || v.AltoDocumento > v.Alto {
		t.Errorf("a %d×%d el documento mide %d×%d: hay que desplazarse", v.Ancho, v.Alto, v.AnchoDocumento, v.AltoDocumento)
	}
	if minimo := 16.0 + 4*float64(min(alumnos, 30))/30; v.Letra < minimo {
		t.Errorf("con %d alumnos la letra de las filas es de %.1f px; se quería al menos %.0f", alumnos, v.Letra, minimo)
	}
}

// panelEn503 opens the class page through a proxy in front of the panel that, while told to,
// answers 503 for the class (as one does when it cannot reach the panel): the page says the code,
// greys what it still shows and says from when; told to stop, the page is back by itself.
func panelEn503(ctx context.Context, t *testing.T, nav *navegador.Navegador, panel string) {
	t.Helper()
	destino, err := neturl.Parse(panel)
	if err != nil {
		t.Fatal(err)
	}
	transporte := &http.Transport{}
	defer transporte.CloseIdleConnections()
	proxy := httputil.NewSingleHostReverseProxy(destino)
	proxy.Transport = transporte
	var falla atomic.Bool
	delante := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/clase/estado" && falla.Load() {
			http.Error(w, "el panel no está al alcance", http.StatusServiceUnavailable)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	defer delante.Close()
	p, err := nav.Abrir(ctx, delante.URL+"/clase", 1280, 800)
	if err != nil {
		t.Fatal(err)
	}
	const filas = `document.querySelectorAll("#bloques tbody tr").length === 30`
	const gris = `document.body.classList.contains("atrasada") && getComputedStyle(document.querySelector("#bloques")).opacity < 1`
	if err := p.Esperar(ctx, `document.querySelector("#estado").textContent === "30 alumnos; se actualiza sola" && `+filas); err != nil {
		t.Fatalf("la página tras el proxy no cargó: %v", err)
	}
	falla.Store(true)
	if err := p.Esperar(ctx, `/^el panel respondió 503 Service Unavailable; lo de abajo es de las \d\d:\d\d:\d\d; reintento cada 2 s$/.test(document.querySelector("#estado").textContent) && `+gris+` && `+filas); err != nil {
		var estado string
		p.Evaluar(ctx, `document.querySelector("#estado").textContent`, &estado)
		t.Fatalf("con el panel en 503 la página dice %q: %v", estado, err)
	}
	falla.Store(false)
	if err := p.Esperar(ctx, `document.querySelector("#estado").textContent === "30 alumnos; se actualiza sola" && !(`+gris+`) && `+filas); err != nil {
		t.Fatalf("la página no volvió cuando el panel respondió otra vez: %v", err)
	}
}

// deOtroSitioALaClase: a page on localhost (another site than the panel's 127.0.0.1) posts a
// forged result to the class page in each way a browser lets it: a text/plain form whose body is
// JSON, a no-cors fetch, and a fetch that carries the class token (a student knows it), which
// needs a preflight the panel does not approve.
func deOtroSitioALaClase(ctx context.Context, t *testing.T, nav *navegador.Navegador, panel, tok string, p *panelEnMarcha) {
	t.Helper()
	forjado := `{"alumno":"Forjado","comprobaciones":[{"id":"una-escritura","paso":true}],"x":"`
	html := `<!doctype html><meta charset="utf-8"><title>ataque</title>
<iframe name="a"></iframe>
<form id="fa" target="a" method="post" enctype="text/plain" action="` + panel + `/clase/resultados"><input name='` + forjado + `' value='"}'></form>
<script>
const cargada = new Promise((listo) => document.querySelector('iframe[name="a"]').addEventListener("load", listo, { once: true }));
document.getElementById("fa").submit();
const cuerpo = JSON.stringify({ alumno: "Forjado2", comprobaciones: [{ id: "una-escritura", paso: true }] });
const intentos = [
  fetch("` + panel + `/clase/resultados", { method: "POST", mode: "no-cors", body: cuerpo, headers: { "Content-Type": "text/plain" } }),
  fetch("` + panel + `/clase/resultados", { method: "POST", body: cuerpo, headers: { "Content-Type": "application/json", Authorization: "Bearer ` + tok + `" } }),
];
Promise.allSettled([cargada, ...intentos]).then((r) => { document.title = "hecho " + r.map((x) => x.status).join(","); });
</script>`
	titulo := paginaDeOtroSitio(ctx, t, nav, html)
	if titulo != "hecho fulfilled,fulfilled,rejected" {
		t.Errorf("la página de otro sitio: %q (se esperaba el formulario y el no-cors enviados, el fetch con token detenido)", titulo)
	}
}

// documentacionEnNavegador: the API's page and, by its link, the page of llave-en-curso render
// what a student opens them for: the operation, the problem's heading, the real response as an
// example, what to do and the lessons that teach it.
func documentacionEnNavegador(ctx context.Context, t *testing.T, nav *navegador.Navegador, url string) {
	t.Helper()
	api, err := nav.Abrir(ctx, url+"/openapi", 1280, 800)
	if err != nil {
		t.Fatal(err)
	}
	enlace := `[...document.querySelectorAll("h2")].find(h => h.textContent === "POST /servicios")?.nextElementSibling?.nextElementSibling?.querySelector('a[href="/problemas/llave-en-curso"]')`
	if err := api.Esperar(ctx, `document.readyState === "complete" && document.querySelector("h1").textContent === "La API del revisor" && `+enlace); err != nil {
		var texto string
		api.Evaluar(ctx, "document.body ? document.body.innerText : ''", &texto)
		t.Fatalf("/openapi no muestra POST /servicios con su 409 llave-en-curso: %v\n%s", err, texto)
	}
	if err := api.Evaluar(ctx, enlace+`.click()`, nil); err != nil {
		t.Fatal(err)
	}
	if err := api.Esperar(ctx, `location.pathname === "/problemas/llave-en-curso" && document.readyState === "complete"`); err != nil {
		t.Fatalf("el enlace de /openapi no llevó a la página del problema: %v", err)
	}
	var v struct {
		Titulo, H1, Ejemplo, Accion string
		Secciones, Citas            []string
		AltoH1                      float64
	}
	if err := api.Evaluar(ctx, `(() => ({Titulo: document.title, H1: document.querySelector("h1").innerText,
		AltoH1: document.querySelector("h1").getBoundingClientRect().height,
		Secciones: [...document.querySelectorAll("h2")].map(h => h.innerText),
		Ejemplo: document.querySelector("pre") ? document.querySelector("pre").innerText : "",
		Accion: document.querySelector("strong") ? document.querySelector("strong").innerText : "",
		Citas: [...document.querySelectorAll("ul li")].map(li => li.innerText)}))()`, &v); err != nil {
		t.Fatal(err)
	}
	if v.H1 != "llave-en-curso — 409 Esa Idempotency-Key sigue en curso" || v.AltoH1 == 0 {
		t.Errorf("encabezado %q (alto %v)", v.H1, v.AltoH1)
	}
	for _, s := range []string{"Qué pasó", "Qué hacer", "Un ejemplo (una respuesta real del revisor)", "Dónde lo enseña el curso"} {
		if !slices.Contains(v.Secciones, s) {
			t.Errorf("falta la sección %q: %q", s, v.Secciones)
		}
	}
	for _, s := range []string{"POST /servicios", "Idempotency-Key: k1", "HTTP/1.1 409 Conflict", "Content-Type: application/problem+json",
		`"type":"https://revisor.example/problemas/llave-en-curso"`, `"status":409`} {
		if !strings.Contains(v.Ejemplo, s) {
			t.Errorf("el ejemplo no muestra %q:\n%s", s, v.Ejemplo)
		}
	}
	if v.Accion != "esperar" {
		t.Errorf("la acción de la tabla de decisión: %q", v.Accion)
	}
	if !slices.ContainsFunc(v.Citas, func(c string) bool { return strings.HasPrefix(c, "lección 6, §6.6.4 ") }) {
		t.Errorf("no cita la lección 6, §6.6.4: %q", v.Citas)
	}
	guardarCaptura(ctx, t, api, "problema-llave-en-curso.png")
}

// guardarCaptura keeps a screenshot of the page among CI's artefacts (CURSOHTTP_ARTEFACTOS), never
// in the repository.
func guardarCaptura(ctx context.Context, t *testing.T, p *navegador.Pagina, nombre string) {
	t.Helper()
	png, err := p.Captura(ctx)
	if err != nil || len(png) < 1000 {
		t.Fatalf("captura: %v (%d bytes)", err, len(png))
	}
	d := os.Getenv(EnvArtefactos)
	if d == "" {
		return
	}
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d, nombre), png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("captura: %s", filepath.Join(d, nombre))
}

func contar(lineas []string, prefijo string) int {
	n := 0
	for _, l := range lineas {
		if strings.HasPrefix(l, prefijo) {
			n++
		}
	}
	return n
}

// panelEnMarcha is «laboratorio panel» as a process, its output (stdout and stderr: the start-up
// lines and the refusals) read line by line; each new line wakes whoever waits for one.
type panelEnMarcha struct {
	cmd   *exec.Cmd
	mu    sync.Mutex
	todas []string
	nueva chan struct{} // closed at the next line (or the end), then replaced
	fin   chan struct{} // closed when the output ended
}

// arrancarPanel starts the panel in carpeta, with an environment without tokens but extra, and
// waits for its start-up line.
func arrancarPanel(ctx context.Context, t *testing.T, bin, carpeta string, extra []string, args ...string) *panelEnMarcha {
	t.Helper()
	return arrancarPrograma(ctx, t, bin, carpeta, extra, "panel en http://", append([]string{"panel"}, args...)...)
}

// arrancarPrograma starts bin with args in carpeta, with an environment without tokens but extra,
// and waits for a line that starts with listo.
func arrancarPrograma(ctx context.Context, t *testing.T, bin, carpeta string, extra []string, listo string, args ...string) *panelEnMarcha {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = carpeta
	for _, v := range os.Environ() {
		if !strings.HasPrefix(v, "CURSOHTTP_TOKEN") {
			cmd.Env = append(cmd.Env, v)
		}
	}
	cmd.Env = append(cmd.Env, extra...)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	p := &panelEnMarcha{cmd: cmd, nueva: make(chan struct{}), fin: make(chan struct{})}
	go func() {
		defer r.Close()
		s := bufio.NewScanner(r)
		for s.Scan() {
			p.mu.Lock()
			p.todas = append(p.todas, s.Text())
			close(p.nueva)
			p.nueva = make(chan struct{})
			p.mu.Unlock()
		}
		close(p.fin)
	}()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	if err := p.esperar(ctx, func(l []string) bool { return contar(l, listo) > 0 }); err != nil {
		t.Fatalf("%s no arrancó: %v\n%s", filepath.Base(bin), err, p.todo())
	}
	return p
}

func (p *panelEnMarcha) lineas() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.todas)
}

func (p *panelEnMarcha) todo() string { return strings.Join(p.lineas(), "\n") }

// dicho is the word after prefijo in the line that starts with it ("" when none does).
func (p *panelEnMarcha) dicho(prefijo string) string {
	for _, l := range p.lineas() {
		if resto, ok := strings.CutPrefix(l, prefijo); ok {
			return strings.Fields(resto)[0]
		}
	}
	return ""
}

// esperar waits until cond holds over the lines so far, woken by each new line.
func (p *panelEnMarcha) esperar(ctx context.Context, cond func([]string) bool) error {
	for {
		p.mu.Lock()
		ok, nueva := cond(p.todas), p.nueva
		p.mu.Unlock()
		if ok {
			return nil
		}
		select {
		case <-nueva:
		case <-p.fin:
			if cond(p.lineas()) {
				return nil
			}
			return fmt.Errorf("el panel terminó")
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// detener is Ctrl+C: the panel's exit code once it ended.
func (p *panelEnMarcha) detener(t *testing.T) int {
	t.Helper()
	p.cmd.Process.Signal(syscall.SIGINT)
	err := p.cmd.Wait()
	<-p.fin
	var salida *exec.ExitError
	if errors.As(err, &salida) {
		return salida.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0
}
