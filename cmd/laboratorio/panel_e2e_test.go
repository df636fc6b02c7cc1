//go:build unix

package main

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"cursohttp/internal/prueba"
	"cursohttp/internal/prueba/navegador"
	"cursohttp/pkg/lab"
)

// EnvCI, set by .ci/run, turns the skip of a machine without Chromium into a failure: in CI the
// browser test must run.
const EnvCI = "CURSOHTTP_CI"

// EnvArtefactos names a folder for the test's artefacts (the panel's screenshot); EnvCapturaDocs=1
// also writes it to docs/panel.png, the README's picture, taken on the course's ports.
const (
	EnvArtefactos  = "CURSOHTTP_ARTEFACTOS"
	EnvCapturaDocs = "CURSOHTTP_CAPTURA_DOCS"
)

// The lab with its panel, as «make lab-up PANEL=1» starts it (the lab controller, on free ports),
// one alta-segura through «X-Simular: perder-primera», and the page in a real headless Chromium:
// the intent is one trace with two attempts, the first lost after the revisor's 201, the second
// answered with the recorded response. The client's, the gateway's and the revisor's JSON lines
// carry the trace the page shows. The page's screenshot is kept; the control changes the gateway's
// process-wide fault.
func TestPanelEnNavegador(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("arranca el laboratorio y Chromium; se salta con -short")
	}
	bin := t.TempDir()
	if out, err := exec.Command("go", "build", "-o", bin+string(filepath.Separator),
		"cursohttp/cmd/revisor", "cursohttp/cmd/pasarela", "cursohttp/cmd/alta-segura", "cursohttp/cmd/laboratorio").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	p := prueba.PuertosLibres(t, 4)
	puertos := lab.Puertos{Revisor: p[0], Laboratorio: p[1], Pasarela: p[2], Panel: p[3]}
	if os.Getenv(EnvCapturaDocs) == "1" {
		// The README's picture shows the course's addresses: run it in a network of its own
		// (unshare -n), where they are free.
		puertos = lab.PuertosDelCurso()
	}
	servidores := puertos.Servidores(true)
	for i := range servidores {
		if servidores[i].Programa == "revisor" || servidores[i].Programa == "pasarela" {
			servidores[i].Args = append(servidores[i].Args, "--log-json")
		}
	}
	dir := filepath.Join(t.TempDir(), "lab")
	var dijo prueba.Buffer
	c := &lab.Control{Dir: dir, Bin: bin, Servidores: servidores, Out: &dijo}
	ctx, cancelar := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancelar()
	if err := c.Arrancar(ctx); err != nil {
		t.Fatalf("el laboratorio no arrancó:\n%s", dijo.String())
	}
	t.Cleanup(func() { c.Detener(context.Background()) })
	panelURL := "http://127.0.0.1:" + strconv.Itoa(puertos.Panel)
	if !strings.Contains(dijo.String(), "panel en "+strings.TrimPrefix(panelURL, "")+" (ábrelo en el navegador)") {
		t.Errorf("el controlador no dijo dónde está el panel:\n%s", dijo.String())
	}

	nav, err := navegador.Abrir(t.TempDir(), 1600, 1000)
	if errors.Is(err, navegador.ErrSinNavegador) {
		if os.Getenv(EnvCI) != "" {
			t.Fatalf("%s está puesta y Chromium no arranca: %v", EnvCI, err)
		}
		t.Skip(strings.SplitN(err.Error(), "\n", 2)[0])
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nav.Cerrar)
	pagina, err := nav.Abrir(ctx, panelURL+"/", 1600, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if err := pagina.Esperar(ctx, `document.querySelector("#conexion").dataset.estado === "en-vivo"`); err != nil {
		t.Fatalf("la página no se conectó al panel: %v\n%s", err, nav.Salida())
	}

	alta := exec.CommandContext(ctx, filepath.Join(bin, "alta-segura"), "agenda",
		"http://127.0.0.1:"+strconv.Itoa(puertos.Laboratorio)+"/codigo/200",
		"--pasarela", "http://127.0.0.1:"+strconv.Itoa(puertos.Pasarela), "--panel", panelURL, "--log-json")
	salida, err := alta.Output()
	if err != nil {
		t.Fatalf("alta-segura: %v\n%s", err, salida)
	}
	var lineas []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(string(salida)), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("alta-segura --log-json: %q", l)
		}
		lineas = append(lineas, m)
	}
	if len(lineas) != 3 || lineas[0]["codigo"] != 502.0 || lineas[2]["codigo"] != 201.0 {
		t.Fatalf("alta-segura:\n%s", salida)
	}
	id, _ := lineas[0]["traza"].(string)

	// The intent's card, once both attempts and the intent's end are in, and each attempt's lanes
	// of the client, the gateway and the revisor: three processes send their events on their own,
	// so the client's end may be drawn before the others' lines arrive.
	articulo := `document.querySelector('article.traza[data-nombre="agenda"]')`
	if err := pagina.Esperar(ctx, articulo+` && `+articulo+`.querySelectorAll(".fila[data-intento]").length === 2 && `+
		articulo+`.querySelector("h2").textContent.includes("hecha") && `+
		`[...`+articulo+`.querySelectorAll(".fila[data-intento]")].every(f => ["cliente", "pasarela", "revisor"].every(c => `+
		`f.querySelector('[data-carril="' + c + '"] .item')))`); err != nil {
		var html string
		pagina.Evaluar(ctx, "document.body.innerText", &html)
		t.Fatalf("la página no mostró el alta con sus dos intentos: %v\n%s", err, html)
	}
	type celda struct {
		Codigo, Revisor, Cliente, Perdida, Repetida, Texto string
	}
	var vista struct {
		Traza   string
		Titulo  string
		Filas   []map[string]celda
		Resumen struct{ Escrituras, Exitos string }
	}
	err = pagina.Evaluar(ctx, `(() => {
		const a = `+articulo+`;
		const celda = (f, c) => { const e = f.querySelector('[data-carril="' + c + '"]'); const d = e.dataset;
			return {Codigo: d.codigo || "", Revisor: d.revisor || "", Cliente: d.cliente || "", Perdida: d.perdida || "",
				Repetida: d.repetida || "", Texto: e.innerText}; };
		const r = document.querySelector("#resumen").dataset;
		return {Traza: a.dataset.traza, Titulo: a.querySelector("h2").textContent,
			Filas: [...a.querySelectorAll(".fila[data-intento]")].map(f => ({
				cliente: celda(f, "cliente"), pasarela: celda(f, "pasarela"), revisor: celda(f, "revisor")})),
			Resumen: {Escrituras: r.escrituras, Exitos: r.exitos}};
	})()`, &vista)
	if err != nil {
		t.Fatal(err)
	}
	if vista.Traza != id {
		t.Errorf("la página muestra la traza %s; alta-segura abrió %s", vista.Traza, id)
	}
	if !strings.HasPrefix(vista.Titulo, "alta «agenda» · 2 intentos · hecha: 201") {
		t.Errorf("título %q", vista.Titulo)
	}
	uno, dos := vista.Filas[0], vista.Filas[1]
	// Attempt 1: the revisor answered 201, the gateway lost it, the client got 502.
	if uno["cliente"].Codigo != "502" || uno["pasarela"].Revisor != "201" || uno["pasarela"].Cliente != "502" ||
		uno["pasarela"].Perdida != "si" || !strings.Contains(uno["pasarela"].Texto, "RESPUESTA PERDIDA") ||
		uno["revisor"].Codigo != "201" || uno["revisor"].Repetida != "" {
		t.Errorf("intento 1: %+v", uno)
	}
	// Attempt 2: the revisor's recorded response, delivered.
	if dos["cliente"].Codigo != "201" || dos["pasarela"].Revisor != "201" || dos["pasarela"].Cliente != "201" ||
		dos["pasarela"].Perdida != "" || dos["revisor"].Codigo != "201" || dos["revisor"].Repetida != "si" ||
		!strings.Contains(dos["revisor"].Texto, "RESPUESTA REPETIDA") {
		t.Errorf("intento 2: %+v", dos)
	}
	if vista.Resumen.Escrituras != "1" || vista.Resumen.Exitos != "1" {
		t.Errorf("resumen %+v, se esperaba 1 escritura y 1 éxito", vista.Resumen)
	}
	// The same trace in the gateway's and the revisor's JSON lines.
	for _, programa := range []string{"pasarela", "revisor"} {
		b, _ := os.ReadFile(filepath.Join(dir, programa+".log"))
		if !strings.Contains(string(b), `"traza":"`+id+`"`) {
			t.Errorf("la bitácora de %s no tiene la traza %s:\n%s", programa, id, b)
		}
	}

	// A live health query of the new service through the gateway: its trace goes on to the bench
	// (the revisor's probe), so the picture shows all four lanes.
	req, _ := http.NewRequestWithContext(ctx, "GET", "http://127.0.0.1:"+strconv.Itoa(puertos.Pasarela)+"/servicios/7/salud", nil)
	req.Header.Set("Authorization", "Bearer escritura-a")
	if resp, err := http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	} else {
		resp.Body.Close()
	}
	if err := pagina.Esperar(ctx, `[...document.querySelectorAll('[data-carril="laboratorio"]')].some(c => c.textContent.includes("GET /codigo/200"))`); err != nil {
		t.Fatalf("la consulta de salud no llegó al carril del laboratorio: %v", err)
	}

	png, err := pagina.Captura(ctx)
	if err != nil || len(png) < 1000 {
		t.Fatalf("captura: %v (%d bytes)", err, len(png))
	}
	destinos := []string{filepath.Join(t.TempDir(), "panel.png")}
	if d := os.Getenv(EnvArtefactos); d != "" {
		destinos = append(destinos, filepath.Join(d, "panel.png"))
	}
	if os.Getenv(EnvCapturaDocs) == "1" {
		destinos = append(destinos, filepath.Join("..", "..", "docs", "panel.png"))
	}
	for _, d := range destinos {
		if err := os.MkdirAll(filepath.Dir(d), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(d, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("captura del panel: %s", d)
	}

	// The control sets the gateway's process-wide fault, and the page says what is in force.
	if err := pagina.Evaluar(ctx, `(() => { document.querySelector("#modo").value = "rechazar";
		document.querySelector("#prob").value = "0.5"; document.querySelector("#semilla").value = "7";
		document.querySelector('#simular button[type="submit"]').click(); })()`, nil); err != nil {
		t.Fatal(err)
	}
	const enVigor = "pasarela: --simular rechazar@0.5 --semilla 7 (las peticiones sin X-Simular)"
	if err := pagina.Esperar(ctx, `document.querySelector("#simulando").textContent === "`+enVigor+`"`); err != nil {
		var texto string
		pagina.Evaluar(ctx, `document.querySelector("#simulando").textContent`, &texto)
		t.Fatalf("el control no cambió la falla: %v (dice %q)", err, texto)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "pasarela.log"))
	if !strings.Contains(string(b), enVigor) {
		t.Errorf("la pasarela no dijo la falla nueva:\n%s", b)
	}
}
