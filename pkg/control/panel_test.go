package control

import (
	"bufio"
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"cursohttp/internal/prueba"
	"cursohttp/pkg/token"
)

// On the course's ports the servers get no arguments: make lab-up is what it was. With the panel,
// it starts first and the three are told where it is; on other ports each is told where the
// others are.
func TestServidoresSegunPuertos(t *testing.T) {
	t.Parallel()
	delCurso := []Servidor{{Programa: "laboratorio", Puerto: 18081}, {Programa: "revisor", Puerto: 18080}, {Programa: "pasarela", Puerto: 18082}}
	if got := PuertosDelCurso().Servidores(false); !reflect.DeepEqual(got, delCurso) {
		t.Errorf("sin panel: %+v", got)
	}
	const panel = "--panel=http://127.0.0.1:18084"
	want := []Servidor{
		{Programa: "laboratorio", Nombre: "panel", Puerto: 18084, Args: []string{"panel"}},
		{Programa: "laboratorio", Puerto: 18081, Args: []string{panel}},
		{Programa: "revisor", Puerto: 18080, Args: []string{panel}},
		{Programa: "pasarela", Puerto: 18082, Args: []string{panel}},
	}
	if got := PuertosDelCurso().Servidores(true); !reflect.DeepEqual(got, want) {
		t.Errorf("con panel:\n%+v\nse esperaba\n%+v", got, want)
	}
	otros := Puertos{Revisor: 1, Laboratorio: 2, Pasarela: 3, Panel: 4}
	want = []Servidor{
		{Programa: "laboratorio", Nombre: "panel", Puerto: 4, Args: []string{"panel", "--puerto", "4", "--pasarela", "http://127.0.0.1:3"}},
		{Programa: "laboratorio", Puerto: 2, Args: []string{"--puerto", "2", "--panel=http://127.0.0.1:4"}},
		{Programa: "revisor", Puerto: 1, Args: []string{"--destinos", "127.0.0.1:2", "--puerto", "1", "--panel=http://127.0.0.1:4"}},
		{Programa: "pasarela", Puerto: 3, Args: []string{"--destino", "http://127.0.0.1:1", "--puerto", "3", "--panel=http://127.0.0.1:4"}},
	}
	if got := otros.Servidores(true); !reflect.DeepEqual(got, want) {
		t.Errorf("en otros puertos:\n%+v\nse esperaba\n%+v", got, want)
	}
}

// make lab-up PANEL=1, then make lab-estado, make lab-restart and make lab-down without PANEL: the
// panel is listed, comes back with the restart, and is stopped with the rest.
func TestPanelArrancaYSeDetiene(t *testing.T) {
	t.Parallel()
	if binarios == "" {
		t.Skip("arranca los servidores; se salta con -short")
	}
	p := prueba.PuertosLibres(t, 4)
	puertos := Puertos{Revisor: p[0], Laboratorio: p[1], Pasarela: p[2], Panel: p[3]}
	dir := t.TempDir()
	var dijo prueba.Buffer
	c := &Control{Dir: dir, Bin: binarios, Escuchan: puertos, Panel: true, Out: &dijo}
	ctx := context.Background()
	if err := c.Arrancar(ctx); err != nil {
		t.Fatalf("arrancar: %v\n%s", err, dijo.String())
	}
	t.Cleanup(func() { c.Detener(ctx) })
	comprobarTokens(t, c, puertos)
	comprobarEnlace(t, c, dijo.String(), puertos)
	sin := &Control{Dir: dir, Bin: binarios, Escuchan: puertos, Out: &dijo}
	if err := sin.Estado(ctx); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(dijo.String(), "panel        en marcha  pid ") ||
		!strings.Contains(dijo.String(), "http://127.0.0.1:"+strconv.Itoa(puertos.Panel)+"  bitácora ") {
		t.Fatalf("estado:\n%s", dijo.String())
	}
	if err := sin.Reiniciar(ctx); err != nil {
		t.Fatalf("reiniciar: %v\n%s", err, dijo.String())
	}
	if n := strings.Count(dijo.String(), "panel en http://127.0.0.1:"+strconv.Itoa(puertos.Panel)+" (ábrelo en el navegador)"); n != 2 {
		t.Fatalf("el panel arrancó %d veces, se esperaban 2 (volvió con el reinicio):\n%s", n, dijo.String())
	}
	if err := (&Control{Dir: dir, Bin: binarios, Escuchan: puertos, Out: &dijo}).Detener(ctx); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(dijo.String()[strings.LastIndex(dijo.String(), "pasarela (pid "):], "panel (pid ") {
		t.Fatalf("detener no detuvo el panel:\n%s", dijo.String())
	}
	if Ocupado("127.0.0.1", puertos.Panel) {
		t.Fatal("el panel sigue escuchando")
	}
	// Not asked for and not running: estado does not mention it.
	antes := len(dijo.String())
	sin.Estado(ctx)
	if strings.Contains(dijo.String()[antes:], "panel") {
		t.Errorf("estado habla del panel detenido:\n%s", dijo.String()[antes:])
	}
}

// comprobarTokens: the lab started with one token, kept in its folder for its owner only; the
// servers got it through their environment (their events reach the panel, which asks for it),
// the gateway's control and the panel's writes take it and refuse anything else.
func comprobarTokens(t *testing.T, c *Control, p Puertos) {
	t.Helper()
	tk, err := c.LeerTokens()
	if err != nil || len(tk.Instructor) != 22 {
		t.Fatalf("tokens %+v: %v", tk, err)
	}
	if runtime.GOOS != "windows" {
		for _, nombre := range []string{ArchivoToken, ArchivoCabecera} {
			if st, err := os.Stat(filepath.Join(c.Dir, nombre)); err != nil || st.Mode().Perm() != 0o600 {
				t.Errorf("%s: %v %v", nombre, st.Mode(), err)
			}
		}
	}
	// curl -H @lab/autorizacion (issue 34, item 2).
	if b, _ := os.ReadFile(filepath.Join(c.Dir, ArchivoCabecera)); string(b) != "Authorization: Bearer "+tk.Instructor+"\n" {
		t.Errorf("%s: %q", ArchivoCabecera, b)
	}
	for _, s := range c.servidores() {
		b, _ := os.ReadFile(c.rutaBitacora(s))
		if strings.Contains(string(b), tk.Instructor) || strings.Contains(string(b), "token del laboratorio ") ||
			strings.Contains(string(b), "codigo=") {
			t.Errorf("%s dice el token en su bitácora (lo recibió del laboratorio):\n%s", s.Etiqueta(), b)
		}
	}
	pedir := func(metodo, url, tok, cuerpo string) int {
		req, _ := http.NewRequest(metodo, url, strings.NewReader(cuerpo))
		if tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	pas := "http://127.0.0.1:" + strconv.Itoa(p.Pasarela)
	panel := "http://127.0.0.1:" + strconv.Itoa(p.Panel)
	if c := pedir("PUT", pas+"/_pasarela/simular", "", "codigo:201"); c != 401 {
		t.Errorf("PUT sin token: %d", c)
	}
	if c := pedir("PUT", pas+"/_pasarela/simular", "escritura-a", "codigo:201"); c != 401 {
		t.Errorf("PUT con una credencial del curso: %d", c)
	}
	if c := pedir("PUT", pas+"/_pasarela/simular", tk.Instructor, "ninguna"); c != 200 {
		t.Errorf("PUT con el token: %d", c)
	}
	if c := pedir("POST", panel+"/borrar", "", ""); c != 401 {
		t.Errorf("borrar sin token: %d", c)
	}
	if c := pedir("POST", panel+"/borrar", tk.Instructor, ""); c != 204 {
		t.Errorf("borrar con el token: %d", c)
	}
	// The gateway's events reach the panel: it sends the token it got from the lab.
	ctx, cancelar := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancelar()
	req, _ := http.NewRequestWithContext(ctx, "GET", panel+"/flujo", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if c := pedir("GET", pas+"/servicios", "lectura-a", ""); c != 200 {
		t.Fatalf("GET /servicios por la pasarela: %d", c)
	}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if strings.Contains(sc.Text(), `"programa":"pasarela"`) && strings.Contains(sc.Text(), `"ruta":"/servicios"`) {
			return
		}
	}
	t.Errorf("el panel no recibió el evento de la pasarela: %v", sc.Err())
}

// comprobarEnlace: the controller says the panel's one-time link (issue 34, item 1), and it and
// Enlace's each open the instructor's session once.
func comprobarEnlace(t *testing.T, c *Control, dijo string, p Puertos) {
	t.Helper()
	panel := "http://127.0.0.1:" + strconv.Itoa(p.Panel)
	_, resto, ok := strings.Cut(dijo, "ábrela una vez con "+panel+"/entrar?codigo=")
	if !ok {
		t.Fatalf("el controlador no dio el enlace de una vez:\n%s", dijo)
	}
	codigo, _, _ := strings.Cut(resto, " ")
	if linea, _, _ := strings.Cut(resto, "\n"); !strings.HasSuffix(linea, "; "+token.SinEnlace) {
		t.Errorf("la línea del enlace no dice entera qué hace la página sin él: %q", linea)
	}
	otro, err := c.Enlace()
	if err != nil || !strings.HasPrefix(otro, panel+"/entrar?codigo=") {
		t.Fatalf("Enlace: %q %v", otro, err)
	}
	sinSeguir := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, enlace := range []string{panel + "/entrar?codigo=" + codigo, otro} {
		for vez, quiere := range []int{303, 403} {
			resp, err := sinSeguir.Get(enlace)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != quiere || (quiere == 303) != (len(resp.Cookies()) == 1) {
				t.Errorf("%s, vez %d: %d %v", enlace, vez+1, resp.StatusCode, resp.Header)
			}
		}
	}
}

// make lab-up, then make lab-up PANEL=1: the servers already running were started without the
// panel and would send it nothing, so the panel is not started beside them and the run says why.
func TestPanelConElLaboratorioYaArrancado(t *testing.T) {
	t.Parallel()
	if binarios == "" {
		t.Skip("arranca los servidores; se salta con -short")
	}
	p := prueba.PuertosLibres(t, 4)
	puertos := Puertos{Revisor: p[0], Laboratorio: p[1], Pasarela: p[2], Panel: p[3]}
	dir := t.TempDir()
	var dijo prueba.Buffer
	sin := &Control{Dir: dir, Bin: binarios, Escuchan: puertos, Out: &dijo, Detenerlo: "make lab-down"}
	ctx := context.Background()
	if err := sin.Arrancar(ctx); err != nil {
		t.Fatalf("arrancar: %v\n%s", err, dijo.String())
	}
	t.Cleanup(func() { sin.Detener(ctx) })
	con := &Control{Dir: dir, Bin: binarios, Escuchan: puertos, Panel: true, Out: &dijo, Detenerlo: "make lab-down"}
	if err := con.Arrancar(ctx); !errors.Is(err, ErrFallo) {
		t.Fatalf("arrancar con el panel: %v, se esperaba ErrFallo\n%s", err, dijo.String())
	}
	if !strings.Contains(dijo.String(), "el panel no arrancó: los servidores que ya corren arrancaron sin él y no le mandarían sus eventos; detenlos («make lab-down») y arráncalos de nuevo con el panel\n") {
		t.Errorf("no dijo por qué:\n%s", dijo.String())
	}
	if Ocupado("127.0.0.1", puertos.Panel) {
		t.Error("el panel arrancó igual")
	}
}

// make puertos says who needs the course's ports on each system: on Linux the scenes of make
// escenas and make test run each in a network of its own, so only PASO=1 needs them (the line
// used to say make test and make escenas did, on Linux too: issue 42).
func TestQuienNecesitaLosPuertos(t *testing.T) {
	t.Parallel()
	quien, aparte := quienNecesitaLosPuertos("linux")
	if !strings.Contains(quien, "PASO=1") || strings.Contains(quien, "make test") || !strings.Contains(aparte, "make escenas y make test no los necesitan") {
		t.Errorf("Linux: %q %q", quien, aparte)
	}
	for _, goos := range []string{"darwin", "freebsd", "windows"} {
		if quien, aparte := quienNecesitaLosPuertos(goos); !strings.Contains(quien, "make escenas, make test") || aparte != "" {
			t.Errorf("%s: %q %q", goos, quien, aparte)
		}
	}
}
