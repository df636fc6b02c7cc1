package main

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"cursohttp/internal/prueba"
	"cursohttp/pkg/cli"
	"cursohttp/pkg/servidor"
	"cursohttp/pkg/token"
)

func TestUsoIncorrecto(t *testing.T) {
	t.Parallel()
	prueba.UsosIncorrectos(t, run, map[string]string{
		"mentira":                       "uso: laboratorio mentira <respuesta>...   (por ejemplo: 503:2 201)\n",
		"mentira abc":                   "laboratorio mentira: respuesta inválida «abc»: se espera mudo o CÓDIGO[:extra], con un código de tres cifras\n",
		"mentira 201 99":                "laboratorio mentira: respuesta inválida «99»: se espera mudo o CÓDIGO[:extra], con un código de tres cifras\n",
		"mentira 100":                   "laboratorio mentira: respuesta inválida «100»: el código va de 200 a 999 (un 100 no puede ser la última respuesta)\n",
		"--x":                           "laboratorio: no existe la opción --x; «laboratorio --help» muestra las opciones\n",
		"-x":                            "laboratorio: no existe la opción -x; «laboratorio --help» muestra las opciones\n",
		"--puerto":                      "laboratorio: la opción --puerto necesita un valor; «laboratorio --help» muestra las opciones\n",
		"--puerto abc":                  "laboratorio: la opción --puerto espera un número entero, no «abc»; «laboratorio --help» muestra las opciones\n",
		"--puerto 70000":                "laboratorio: --puerto va de 0 a 65535 (0: uno libre), no 70000\n",
		"hostil --log-json=tal":         "laboratorio hostil: la opción --log-json espera true o false, no «tal»; «laboratorio hostil --help» muestra las opciones\n",
		"mentira 201 --puerto=-1":       "laboratorio mentira: --puerto va de 0 a 65535 (0: uno libre), no -1\n",
		"otra":                          "laboratorio: sobra «otra»; «laboratorio --help» muestra cómo se usa\n",
		"--leccion 5 --puerto 0":        "laboratorio: --leccion: «laboratorio» tiene versiones de las lecciones 4, 6 y 7, no de «5»\n",
		"mentira 201 --leccion 4":       "laboratorio mentira: no existe la opción --leccion; «laboratorio mentira --help» muestra las opciones\n",
		"hostil de-mas":                 "laboratorio hostil: sobra «de-mas»; «laboratorio hostil --help» muestra cómo se usa\n",
		"panel --pasarela x --puerto 0": "laboratorio panel: --pasarela debe ser una dirección http, no «x»\n",
		"panel --puerto 70000":          "laboratorio panel: --puerto va de 0 a 65535 (0: uno libre), no 70000\n",
		"panel otra":                    "laboratorio panel: sobra «otra»; «laboratorio panel --help» muestra cómo se usa\n",
		"--panel x --puerto 0":          "laboratorio: --panel debe ser una dirección http, no «x»\n",
		"esperar":                       "uso: laboratorio esperar PUERTO   (por ejemplo: laboratorio esperar 18082)\n",
		"esperar 1 2":                   "uso: laboratorio esperar PUERTO   (por ejemplo: laboratorio esperar 18082)\n",
		"esperar abc":                   "laboratorio esperar: el puerto va de 1 a 65535, no «abc»\n",
		"esperar 0":                     "laboratorio esperar: el puerto va de 1 a 65535, no «0»\n",
		"esperar 18082 --limite 0s":     "laboratorio esperar: --limite debe ser mayor que cero, no 0s\n",
		"esperar 18082 --limite x":      "laboratorio esperar: la opción --limite espera una duración (como 90s o 1m30s), no «x»; «laboratorio esperar --help» muestra las opciones\n",
	})
}

func TestAyuda(t *testing.T) {
	t.Parallel()
	casos := []struct {
		args     []string
		contiene []string
	}{
		{[]string{"--help"}, []string{"/codigo/NNN", "/lento/MS", "/cortar", "/basura", "Uso:\n  laboratorio [opciones]", "mentira", "hostil", "--puerto NÚMERO", "(si no se dice: 18081)"}},
		{[]string{"-h"}, []string{"Órdenes:"}},
		{[]string{"mentira", "--help"}, []string{"laboratorio mentira <respuesta>...", "503:2", "409:en-curso", "mudo", "(si no se dice: 18082)"}},
		{[]string{"hostil", "-h"}, []string{"/type/<texto>", "/idioma/en", "(si no se dice: 18083)"}},
		{[]string{"panel", "--help"}, []string{"http://127.0.0.1:18084", "--panel http://127.0.0.1:18084", "make lab-up PANEL=1", "(si no se dice: 18084)", "--pasarela TEXTO"}},
		{[]string{"--help"}, []string{"--log-detalle", "--panel TEXTO"}},
		{[]string{"esperar", "--help"}, []string{"laboratorio esperar PUERTO", "esperar_puerto() { laboratorio esperar \"$@\"; }", "--limite"}},
		{[]string{"mentira", "--help"}, []string{"--callado", "& PIDE=$!"}},
	}
	for _, c := range casos {
		codigo, out, errOut := prueba.Correr(t, run, c.args...)
		if codigo != cli.SalidaBien || errOut != "" {
			t.Errorf("%v: salida %d, stderr %q", c.args, codigo, errOut)
		}
		for _, s := range c.contiene {
			if !strings.Contains(out, s) {
				t.Errorf("%v: la ayuda no dice %q:\n%s", c.args, s, out)
			}
		}
		if strings.Contains(out, "default") || strings.Contains(out, "Usage") || strings.Contains(out, "Flags") {
			t.Errorf("%v: la ayuda tiene texto en inglés:\n%s", c.args, out)
		}
	}
}

// TestPuertoOcupado: one clear sentence, exit 1, no usage.
func TestPuertoOcupado(t *testing.T) {
	t.Parallel()
	puerto := prueba.PuertoOcupado(t)
	for _, prog := range [][]string{{}, {"mentira", "201"}, {"hostil"}} {
		nombre := strings.TrimSpace("laboratorio " + strings.Join(prog[:min(len(prog), 1)], ""))
		args := append(append([]string{}, prog...), "--puerto", puerto)
		codigo, out, errOut := prueba.Correr(t, run, args...)
		want := (&servidor.PuertoOcupado{Programa: nombre, Addr: "127.0.0.1:" + puerto}).Error() + "\n"
		if codigo != cli.SalidaFallo || out != "" || errOut != want {
			t.Errorf("%v: salida %d, stdout %q, stderr %q; se esperaba 1 y %q", args, codigo, out, errOut, want)
		}
	}
}

var lineaInicio = regexp.MustCompile(`^(?:laboratorio en http://|servidor de mentira en http://|servicio hostil en http://)(127\.0\.0\.1:\d+)`)

// arrancar runs the program in-process on a free port until the test ends or parar is called.
func arrancar(t *testing.T, args ...string) (addr string, out *prueba.Buffer, parar func() int) {
	t.Helper()
	s := prueba.Arrancar(t, run, lineaInicio, append(args, "--puerto", "0")...)
	return s.Addr, s.Out, s.Parar
}

func TestCorrerLaboratorio(t *testing.T) {
	t.Parallel()
	addr, out, parar := arrancar(t)
	resp, err := http.Get("http://" + addr + "/codigo/503")
	if err != nil {
		t.Fatal(err)
	}
	cuerpo, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.Status != "503 Service Unavailable" || resp.Header.Get("Retry-After") != "120" ||
		string(cuerpo) != "503 Service Unavailable\nlo pediste en /codigo/503\n" {
		t.Errorf("%s %v %q", resp.Status, resp.Header, cuerpo)
	}
	// OPTIONS * is a request like any other: 405, not net/http's own 200.
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(c, "OPTIONS * HTTP/1.1\r\nHost: banco\r\nConnection: close\r\n\r\n")
	linea, _ := bufio.NewReader(c).ReadString('\n')
	c.Close()
	if linea != "HTTP/1.1 405 Method Not Allowed\r\n" {
		t.Errorf("OPTIONS *: %q", linea)
	}
	if codigo := parar(); codigo != cli.SalidaBien {
		t.Errorf("salida %d tras el apagado", codigo)
	}
	want := "laboratorio en http://" + addr + "/codigo/NNN\nGET /codigo/503\nOPTIONS *\n"
	if out.String() != want {
		t.Errorf("stdout %q, se esperaba %q", out.String(), want)
	}
}

func TestCorrerMentiraYHostil(t *testing.T) {
	t.Parallel()
	addr, out, parar := arrancar(t, "mentira", "409:en-curso", "201")
	for i, want := range []string{"409 Conflict", "201 Created"} {
		resp, err := http.Post("http://"+addr+"/servicios", "application/json", strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.Status != want {
			t.Errorf("petición %d: %s", i+1, resp.Status)
		}
	}
	if codigo := parar(); codigo != cli.SalidaBien {
		t.Errorf("salida %d", codigo)
	}
	want := "servidor de mentira en http://" + addr + "\npetición 1: 409:en-curso\npetición 2: 201\n"
	if out.String() != want {
		t.Errorf("stdout %q, se esperaba %q", out.String(), want)
	}

	addr, out, parar = arrancar(t, "hostil")
	resp, err := http.Get("http://" + addr + "/type/constructor")
	if err != nil {
		t.Fatal(err)
	}
	cuerpo, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 409 || string(cuerpo) != `{"type":"constructor","title":"x","status":409,"detail":"x"}` {
		t.Errorf("%s %q", resp.Status, cuerpo)
	}
	if codigo := parar(); codigo != cli.SalidaBien {
		t.Errorf("salida %d", codigo)
	}
	if want := "servicio hostil en http://" + addr + "\n"; out.String() != want {
		t.Errorf("stdout %q, se esperaba %q", out.String(), want)
	}
}

// TestMentiraMudaNoDetieneElApagado: Ctrl+C with a "mudo" request held exits at once.
func TestMentiraMudaNoDetieneElApagado(t *testing.T) {
	t.Parallel()
	addr, out, parar := arrancar(t, "mentira", "mudo")
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "POST /servicios HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}")
	prueba.Esperar(t, "mudo retiene la petición", func() bool { return strings.Contains(out.String(), "petición 1: mudo") })
	inicio := time.Now()
	if codigo := parar(); codigo != cli.SalidaBien {
		t.Errorf("salida %d", codigo)
	}
	if d := time.Since(inicio); d > 2*time.Second {
		t.Errorf("el apagado tardó %v", d)
	}
}

// Lesson 4's bench is the same program: --leccion 4 starts it as it is, without a warning.
func TestLaboratorioDeLaLeccion4(t *testing.T) {
	t.Parallel()
	s := prueba.Arrancar(t, run, lineaInicio, "--leccion", "4", "--puerto", "0")
	resp, err := http.Get("http://" + s.Addr + "/codigo/205")
	if err != nil {
		t.Fatal(err)
	}
	cuerpo, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.Status != "205 Reset Content" || resp.Header.Get("Content-Length") != "0" || len(cuerpo) != 0 {
		t.Errorf("%s %v %q", resp.Status, resp.Header, cuerpo)
	}
	s.Parar()
	if s.Err.String() != "" {
		t.Errorf("stderr %q", s.Err.String())
	}
}

// The controller's last line names the way to stop the lab that the user has: make's target under
// make, the program as typed elsewhere (a release's folder has no make).
func TestOrdenDetener(t *testing.T) {
	t.Setenv("MAKELEVEL", "1")
	if got := ordenDetener("lab"); got != "make lab-down" {
		t.Errorf("bajo make: %q", got)
	}
	os.Unsetenv("MAKELEVEL")
	if got := ordenDetener("lab"); got != "laboratorio lab detener" {
		t.Errorf("sin make: %q", got)
	}
	if got := ordenDetener("otra"); got != "laboratorio lab detener --dir otra" {
		t.Errorf("con --dir: %q", got)
	}
}

// TestEsperar: «laboratorio esperar» ends at once, silently, when something listens; waits while
// nothing does, and ends as soon as something starts listening.
func TestEsperar(t *testing.T) {
	t.Parallel()
	if codigo, out, errOut := prueba.Correr(t, run, "esperar", prueba.PuertoOcupado(t)); codigo != cli.SalidaBien || out != "" || errOut != "" {
		t.Errorf("puerto ocupado: salida %d, stdout %q, stderr %q", codigo, out, errOut)
	}
	puerto := strconv.Itoa(prueba.PuertosLibres(t, 1)[0])
	fin := make(chan int, 1)
	go func() {
		codigo, _, _ := prueba.Correr(t, run, "esperar", "--limite", "1m", puerto)
		fin <- codigo
	}()
	ln, err := net.Listen("tcp", "127.0.0.1:"+puerto)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if codigo := <-fin; codigo != cli.SalidaBien {
		t.Errorf("salida %d cuando empezó a escuchar", codigo)
	}
}

// TestEsperarSinNadie: nobody listens: one sentence on stderr and exit 1 when the time runs out.
func TestEsperarSinNadie(t *testing.T) {
	t.Parallel()
	puerto := strconv.Itoa(prueba.PuertosLibres(t, 1)[0])
	codigo, out, errOut := prueba.Correr(t, run, "esperar", "--limite", "150ms", puerto)
	want := "laboratorio esperar: nadie escucha en 127.0.0.1:" + puerto + " después de 150ms; ¿arrancó el servidor? (mira su terminal o su bitácora)\n"
	if codigo != cli.SalidaFallo || out != "" || errOut != want {
		t.Errorf("salida %d, stdout %q, stderr %q; se esperaba 1 y %q", codigo, out, errOut, want)
	}
}

// TestMentiraCallada: with --callado the fake gateway answers as usual and writes nothing, as the
// lesson's one-line servers in the background of the student's terminal (§6.8.4).
func TestMentiraCallada(t *testing.T) {
	t.Parallel()
	puerto := strconv.Itoa(prueba.PuertosLibres(t, 1)[0])
	ctx, parar := context.WithCancel(context.Background())
	defer parar()
	var out, errOut prueba.Buffer
	fin := make(chan int, 1)
	go func() {
		fin <- run(ctx, []string{"mentira", "--callado", "--titulos-reales", "--puerto", puerto, "503:2", "201"}, strings.NewReader(""), &out, &errOut)
	}()
	if codigo, _, e := prueba.Correr(t, run, "esperar", "--limite", "1m", puerto); codigo != cli.SalidaBien {
		t.Fatalf("esperar: salida %d, %s", codigo, e)
	}
	for _, want := range []string{"503 Service Unavailable", "201 Created"} {
		resp, err := http.Post("http://127.0.0.1:"+puerto+"/servicios", "application/json", strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.Status != want {
			t.Errorf("%s; se esperaba %s", resp.Status, want)
		}
	}
	parar()
	if codigo := <-fin; codigo != cli.SalidaBien || out.String() != "" || errOut.String() != "" {
		t.Errorf("salida %d, stdout %q, stderr %q; se esperaba 0 y nada", codigo, out.String(), errOut.String())
	}
}

// laboratorio panel's start-up line offers the one-time link and says, whole, what the page does
// without it: the sentence used to end at «…sin él, la página solo muestra» (issue 42).
func TestElPanelDiceQueHaceSinElEnlace(t *testing.T) {
	t.Parallel()
	s := prueba.Arrancar(t, run, regexp.MustCompile(`^panel en http://(127\.0\.0\.1:\d+) \(ábrelo en el navegador\)$`), "panel", "--puerto", "0")
	defer s.Parar()
	enlace := regexp.MustCompile(`(?m)^panel: para actuar desde la página .*, ábrela una vez con http://127\.0\.0\.1:\d+/entrar\?codigo=\S+ \(sirve una vez, durante 15 minutos\); (.*)$`)
	var linea []string
	prueba.Esperar(t, "el panel ofrece el enlace de una vez", func() bool {
		linea = enlace.FindStringSubmatch(s.Out.String())
		return linea != nil
	})
	if linea[1] != token.SinEnlace || !strings.HasSuffix(linea[1], "sin poder cambiar nada") {
		t.Errorf("la línea termina en %q", linea[1])
	}
}
