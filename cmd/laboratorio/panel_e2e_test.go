//go:build unix

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"cursohttp/internal/prueba"
	"cursohttp/internal/prueba/navegador"
	"cursohttp/pkg/control"
)

// EnvCI, set by .ci/run, turns the skip of a machine without what a test needs (PostgreSQL; for
// Chromium, navegador.Arrancar) into a failure: in CI every test must run.
const EnvCI = navegador.EnvCI

// EnvArtefactos names a folder for the test's artefacts (the panel's screenshot); EnvCapturaDocs=1
// also writes it to docs/panel.png, the README's picture, taken on the course's ports.
const (
	EnvArtefactos  = navegador.EnvArtefactos
	EnvCapturaDocs = "CURSOHTTP_CAPTURA_DOCS"
)

// The lab with its panel, as «make lab-up PANEL=1» starts it (the lab controller, on free ports),
// one alta-segura through «X-Simular: perder-primera», and the page in a real headless Chromium:
// the intent is one trace with two attempts, the first lost after the revisor's 201, the second
// answered with the recorded response. The client's, the gateway's and the revisor's JSON lines
// carry the trace the page shows. The page's screenshot is kept; the control changes the gateway's
// process-wide fault. The documentation's pages render in the same browser, and /clase says where
// the class board went.
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
	puertos := control.Puertos{Revisor: p[0], Laboratorio: p[1], Pasarela: p[2], Panel: p[3]}
	if os.Getenv(EnvCapturaDocs) == "1" {
		// The README's picture shows the course's addresses: run it in a network of its own
		// (unshare -n), where they are free.
		puertos = control.PuertosDelCurso()
	}
	servidores := puertos.Servidores(true)
	for i := range servidores {
		if servidores[i].Programa == "revisor" || servidores[i].Programa == "pasarela" {
			servidores[i].Args = append(servidores[i].Args, "--log-json")
		}
	}
	dir := filepath.Join(t.TempDir(), "lab")
	var dijo prueba.Buffer
	c := &control.Control{Dir: dir, Bin: bin, Servidores: servidores, Out: &dijo}
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

	// A projector's 1280×800: the last intents must stay in sight there.
	nav := navegador.Arrancar(t, 1280, 800)
	// The instructor opens the page with the controller's one-time link (issue 34, item 1): it
	// leads to the page, whose control then acts.
	m := regexp.MustCompile(`ábrela una vez con (` + regexp.QuoteMeta(panelURL) + `/entrar\?codigo=[^ ]+) `).FindStringSubmatch(dijo.String())
	if m == nil {
		t.Fatalf("el controlador no dio el enlace de una vez:\n%s", dijo.String())
	}
	pagina, err := nav.Abrir(ctx, m[1], 1280, 800)
	if err != nil {
		t.Fatal(err)
	}
	if err := pagina.Esperar(ctx, `location.pathname === "/" && document.querySelector('meta[name="acceso"]').content === "profesor" && !document.querySelector("#aviso-lectura")`); err != nil {
		t.Fatalf("el enlace de una vez no abrió la página del profesor: %v\n%s", err, nav.Salida())
	}
	if err := pagina.Esperar(ctx, `document.querySelector("#conexion").dataset.estado === "en-vivo"`); err != nil {
		t.Fatalf("la página no se conectó al panel: %v\n%s", err, nav.Salida())
	}

	tokens, err := c.LeerTokens()
	if err != nil {
		t.Fatal(err)
	}
	alta := exec.CommandContext(ctx, filepath.Join(bin, "alta-segura"), "agenda",
		"http://127.0.0.1:"+strconv.Itoa(puertos.Laboratorio)+"/codigo/200",
		"--pasarela", "http://127.0.0.1:"+strconv.Itoa(puertos.Pasarela), "--panel", panelURL, "--log-json")
	// The lab's token, as a shell where «laboratorio lab token» was exported has it.
	alta.Env = append(os.Environ(), "CURSOHTTP_TOKEN="+tokens.Instructor)
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
		uno["pasarela"].Perdida != "si" || !strings.Contains(strings.ToUpper(uno["pasarela"].Texto), "RESPUESTA PERDIDA") ||
		uno["revisor"].Codigo != "201" || uno["revisor"].Repetida != "" {
		t.Errorf("intento 1: %+v", uno)
	}
	// Attempt 2: the revisor's recorded response, delivered.
	if dos["cliente"].Codigo != "201" || dos["pasarela"].Revisor != "201" || dos["pasarela"].Cliente != "201" ||
		dos["pasarela"].Perdida != "" || dos["revisor"].Codigo != "201" || dos["revisor"].Repetida != "si" ||
		!strings.Contains(strings.ToUpper(dos["revisor"].Texto), "RESPUESTA REPETIDA") {
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

	// The README's picture is the lesson's story: the intent opened (a click on its row), with the
	// health query's row below it, before the other modes fill the page.
	if err := pagina.Evaluar(ctx, articulo+`.querySelector("header").click()`, nil); err != nil {
		t.Fatal(err)
	}
	if err := pagina.Esperar(ctx, articulo+`.dataset.abierta === "si"`); err != nil {
		t.Fatalf("el alta no se abrió con un clic: %v", err)
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

	cadaModo(ctx, t, pagina, bin, puertos, panelURL, tokens.Instructor)

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

	deOtroSitio(ctx, t, nav, pagina, puertos, dir, enVigor)

	// The documentation's pages carry the page's Content-Security-Policy (issue 34, item 5), which
	// allows their one inline style by its hash: the browser applies it.
	doc, err := nav.Abrir(ctx, panelURL+"/problemas/llave-en-curso", 1280, 800)
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Esperar(ctx, `document.readyState === "complete" && getComputedStyle(document.body).maxWidth === "960px"`); err != nil {
		t.Errorf("el estilo de /problemas no se aplicó bajo su Content-Security-Policy: %v\n%s", err, nav.Salida())
	}
	// The API's page and, by its link, a problem's page render what a student opens them for.
	documentacionEnNavegador(ctx, t, nav, panelURL)

	// The class page of local mode is gone (issue 40, item 9): an old bookmark of /clase reads, in
	// the browser, the one line that says where the class board is now.
	clase, err := nav.Abrir(ctx, panelURL+"/clase", 1280, 800)
	if err != nil {
		t.Fatal(err)
	}
	if err := clase.Esperar(ctx, `document.readyState === "complete" && document.body.innerText.includes("laboratorio clase iniciar")`); err != nil {
		var texto string
		clase.Evaluar(ctx, "document.body ? document.body.innerText : ''", &texto)
		t.Errorf("/clase en el navegador no dice dónde está la pizarra de la clase: %v\n%s", err, texto)
	}
}

// cadaModo runs alta-segura through every fault mode at once and reads, in the page, each
// attempt's row: the gateway's cell draws the outcome the gateway reports (data-desenlace), what it
// says the client got is what the client itself reported (its own lane), and a cut, reset or
// abandoned answer is never drawn as delivered (issue 25, item 8). Then, at 1280×800, the last
// intents are each a row in sight, with its time, and only the newest is open.
func cadaModo(ctx context.Context, t *testing.T, pagina *navegador.Pagina, bin string, p control.Puertos, panelURL, tok string) {
	const ent, per, nun, cor, rei, aba = "entregada", "perdida", "nunca-llego", "cortada", "reiniciada", "abandonada"
	modos := []struct {
		nombre, simular, limite string
		desenlaces              []string
	}{
		{"m-perder-2", "perder:2", "", []string{per, per, ent}},
		{"m-perder-siempre", "perder-siempre", "", []string{per, per, per, per}},
		{"m-rechazar", "rechazar", "", []string{nun, nun, nun, nun}},
		{"m-codigo-201", "codigo:201", "", []string{nun}},
		{"m-codigo-503", "codigo:503", "", []string{nun, nun, nun, nun}},
		{"m-cortar", "cortar", "", []string{cor, cor, cor, cor}},
		{"m-reiniciar", "reiniciar", "", []string{rei, rei, rei, rei}},
		{"m-lento", "lento:300", "", []string{ent}},
		{"m-lento-tarde", "lento:1500", "300", []string{aba, aba, aba, aba}},
	}
	hechos := make(chan error, len(modos))
	for _, m := range modos {
		alta := exec.CommandContext(ctx, filepath.Join(bin, "alta-segura"), m.nombre,
			"http://127.0.0.1:"+strconv.Itoa(p.Laboratorio)+"/codigo/200", "--simular", m.simular,
			"--pasarela", "http://127.0.0.1:"+strconv.Itoa(p.Pasarela), "--panel", panelURL)
		alta.Env = append(os.Environ(), "CURSOHTTP_TOKEN="+tok)
		if m.limite != "" {
			alta.Env = append(alta.Env, "ALTA_LIMITE_MS="+m.limite)
		}
		go func() {
			out, err := alta.CombinedOutput()
			if _, fallo := err.(*exec.ExitError); err != nil && !fallo {
				hechos <- fmt.Errorf("%s: %v\n%s", m.nombre, err, out)
				return
			}
			hechos <- nil
		}()
	}
	for range modos {
		if err := <-hechos; err != nil {
			t.Fatal(err)
		}
	}
	type celda struct{ Codigo, Cliente, Desenlace, Texto string }
	for _, m := range modos {
		art := `document.querySelector('article.traza[data-nombre="` + m.nombre + `"]')`
		filas := art + `.querySelectorAll(".fila[data-intento]")`
		if err := pagina.Esperar(ctx, art+` && `+filas+`.length === `+strconv.Itoa(len(m.desenlaces))+` && `+
			art+`.querySelector("h2").textContent.includes("intento") && !`+art+`.querySelector("h2").textContent.startsWith("alta en curso") && `+
			`[...`+filas+`].every(f => f.querySelector('[data-carril="pasarela"] .item') && f.querySelector('[data-carril="cliente"] .item'))`); err != nil {
			var texto string
			pagina.Evaluar(ctx, `(`+art+` || document.body).textContent`, &texto)
			t.Fatalf("%s (%s): la página no mostró sus %d intentos: %v\n%s", m.nombre, m.simular, len(m.desenlaces), err, texto)
		}
		var vista []map[string]celda
		if err := pagina.Evaluar(ctx, `[...`+filas+`].map(f => Object.fromEntries(["cliente", "pasarela"].map(c => {
			const e = f.querySelector('[data-carril="' + c + '"]'); const d = e.dataset;
			return [c, {Codigo: d.codigo || "", Cliente: d.cliente || "", Desenlace: d.desenlace || "", Texto: e.textContent.toLowerCase()}]; })))`, &vista); err != nil {
			t.Fatal(err)
		}
		for i, f := range vista {
			pas, cli := f["pasarela"], f["cliente"]
			if pas.Desenlace != m.desenlaces[i] || pas.Cliente != cli.Codigo ||
				(m.desenlaces[i] != ent && strings.Contains(pas.Texto, "entregada")) {
				t.Errorf("%s (%s), intento %d: la pasarela dibuja %+v y el cliente %+v; se esperaba %s", m.nombre, m.simular, i+1, pas, cli, m.desenlaces[i])
			}
		}
		if m.simular == "codigo:201" && !strings.Contains(vista[0]["pasarela"].Texto, "dijo que sí a una escritura que nadie hizo") {
			t.Errorf("codigo:201 no avisa del sí de la pasarela: %q", vista[0]["pasarela"].Texto)
		}
	}
	// At 1280×800 the newest intents are rows in sight, each with its time; only the newest is open.
	var vista struct {
		Alto     int
		Visibles []string
		Abiertas int
		Horas    bool
	}
	if err := pagina.Evaluar(ctx, `(() => { const arts = [...document.querySelectorAll("article.traza")];
		return {Alto: window.innerHeight,
			Visibles: arts.filter(a => a.querySelector("header").getBoundingClientRect().bottom <= window.innerHeight).map(a => a.dataset.nombre || ""),
			Abiertas: arts.filter(a => a.dataset.abierta === "si").length,
			Horas: arts.every(a => /^\d\d:\d\d:\d\d$/.test(a.querySelector("header time").textContent))}; })()`, &vista); err != nil {
		t.Fatal(err)
	}
	if vista.Alto != 800 || len(vista.Visibles) < 6 || vista.Abiertas != 1 || !vista.Horas {
		t.Errorf("a 1280×800: %+v (se esperaban al menos 6 intenciones a la vista, una abierta, todas con su hora)", vista)
	}
	// A click on a closed row opens it and closes the newest.
	if err := pagina.Evaluar(ctx, `document.querySelector('article.traza[data-nombre="m-cortar"] header').click()`, nil); err != nil {
		t.Fatal(err)
	}
	var abierta string
	pagina.Evaluar(ctx, `document.querySelector('article.traza[data-abierta="si"]').dataset.nombre`, &abierta)
	if abierta != "m-cortar" {
		t.Errorf("tras el clic está abierta %q", abierta)
	}
	// A second click goes back to following the newest.
	pagina.Evaluar(ctx, `document.querySelector('article.traza[data-nombre="m-cortar"] header').click()`, nil)
	pagina.Evaluar(ctx, `document.querySelector('article.traza[data-abierta="si"]') === document.querySelector("article.traza")`, &vista.Horas)
	if !vista.Horas {
		t.Error("tras el segundo clic no está abierta la más nueva")
	}
}

// deOtroSitio: a page of another site the student opens in the same browser (here on localhost,
// another host than the panel's 127.0.0.1) tries every write a browser lets it send without the
// panel's consent: forms posting a forged event, a fault and «Limpiar» to the panel, the same with
// fetch (no-cors), and a fetch PUT to the gateway's control. The requests that reach the panel are
// refused (its log says so), the PUT never leaves the browser (its preflight is not approved), and
// nothing changed: the gateway's fault, the panel's timeline and its ledger.
func deOtroSitio(ctx context.Context, t *testing.T, nav *navegador.Navegador, pagina *navegador.Pagina, p control.Puertos, dir, enVigor string) {
	panel := "http://127.0.0.1:" + strconv.Itoa(p.Panel)
	pasarela := "http://127.0.0.1:" + strconv.Itoa(p.Pasarela)
	var antes struct{ Trazas, Escrituras, Exitos string }
	leer := `(() => { const r = document.querySelector("#resumen").dataset;
		return {Trazas: String(document.querySelectorAll("article.traza").length), Escrituras: r.escrituras, Exitos: r.exitos}; })()`
	if err := pagina.Evaluar(ctx, leer, &antes); err != nil {
		t.Fatal(err)
	}
	evento := `{"programa":"pasarela","tipo":"peticion","traza":"0af7651916cd43dd8448eb211c80319c","escritura":true,"exito":true,"inicio":"2026-01-01T00:00:00Z","ms":1,"ruta":"/forjada","x":"`
	html := `<!doctype html><meta charset="utf-8"><title>ataque</title>
<iframe name="a"></iframe><iframe name="b"></iframe><iframe name="c"></iframe>
<form id="fa" target="a" method="post" enctype="text/plain" action="` + panel + `/eventos"><input name='` + evento + `' value='"}'></form>
<form id="fb" target="b" method="post" action="` + panel + `/simular"><input name="modo" value="codigo:201"></form>
<form id="fc" target="c" method="post" action="` + panel + `/borrar"></form>
<script>
const cargada = (n) => new Promise((listo) => document.querySelector('iframe[name="' + n + '"]').addEventListener("load", listo, { once: true }));
const esperas = ["a", "b", "c"].map(cargada);
for (const f of ["fa", "fb", "fc"]) document.getElementById(f).submit();
const intentos = [
  fetch("` + panel + `/simular", { method: "POST", mode: "no-cors", body: new URLSearchParams({ modo: "perder-siempre" }), headers: { Authorization: "Bearer x" } }),
  fetch("` + panel + `/borrar", { method: "POST", mode: "no-cors" }),
  fetch("` + pasarela + `/_pasarela/simular", { method: "PUT", body: "codigo:201", headers: { Authorization: "Bearer x" } }),
];
Promise.allSettled([...esperas, ...intentos]).then((r) => { document.title = "hecho " + r.map((x) => x.status).join(","); });
</script>`
	titulo := paginaDeOtroSitio(ctx, t, nav, html)
	// The three forms and the two no-cors fetches reach the panel and are refused there; the PUT's
	// preflight fails in the browser (rejected).
	if titulo != "hecho fulfilled,fulfilled,fulfilled,fulfilled,fulfilled,rejected" {
		t.Errorf("la página de otro sitio: %q", titulo)
	}
	var registro string
	prueba.Esperar(t, "los 5 rechazos en la bitácora del panel", func() bool {
		b, _ := os.ReadFile(filepath.Join(dir, "panel.log"))
		registro = string(b)
		return strings.Count(registro, "panel: rechazo POST /") >= 5
	})
	if n, m := strings.Count(registro, "panel: rechazo POST /"), strings.Count(registro, "una página de otro sitio no puede cambiar el laboratorio"); m != n {
		t.Errorf("de %d rechazos, %d por venir de otro sitio:\n%s", n, m, registro)
	}
	resp, err := http.Get(pasarela + "/_pasarela/simular")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if strings.TrimSpace(string(b)) != enVigor {
		t.Errorf("la falla de la pasarela cambió: %q", b)
	}
	var despues struct{ Trazas, Escrituras, Exitos string }
	if err := pagina.Evaluar(ctx, leer, &despues); err != nil {
		t.Fatal(err)
	}
	var forjada bool
	pagina.Evaluar(ctx, `document.body.innerText.includes("/forjada")`, &forjada)
	if despues != antes || forjada {
		t.Errorf("el panel cambió: antes %+v, después %+v, evento forjado a la vista: %v", antes, despues, forjada)
	}
}

// paginaDeOtroSitio opens html in the browser as a page of another site: served on localhost, a
// host other than the panel's 127.0.0.1. The page's script sets its title to «hecho …» when its
// attempts are over; that title is returned.
func paginaDeOtroSitio(ctx context.Context, t *testing.T, nav *navegador.Navegador, html string) string {
	t.Helper()
	otro := http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(html))
	})}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go otro.Serve(ln)
	defer otro.Close()
	_, puerto, _ := net.SplitHostPort(ln.Addr().String())
	ataque, err := nav.Abrir(ctx, "http://localhost:"+puerto+"/", 800, 600)
	if err != nil {
		t.Fatal(err)
	}
	if err := ataque.Esperar(ctx, `document.title.startsWith("hecho")`); err != nil {
		t.Fatalf("la página de otro sitio no terminó: %v", err)
	}
	var titulo string
	ataque.Evaluar(ctx, "document.title", &titulo)
	return titulo
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
