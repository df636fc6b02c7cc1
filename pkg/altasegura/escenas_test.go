//go:build unix

// Signals (SIGTERM, Ctrl+C as SIGINT) and /proc: unix only; Windows has neither to send.

package altasegura_test

// End-to-end: the lesson's 6.5 scenes with the real programs (revisor, pasarela, alta-segura and
// laboratorio mentira), built with `go build` and started on ephemeral ports.

import (
	"bufio"
	"cursohttp/internal/prueba"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

var (
	binarios    string // folder with the built programs; empty when they could not be built
	sinBinarios string // why not
)

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "alta-segura-escenas")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if testing.Short() {
		sinBinarios = "-short"
	} else {
		cmd := exec.Command("go", "build", "-o", dir+string(filepath.Separator),
			"cursohttp/cmd/revisor", "cursohttp/cmd/pasarela", "cursohttp/cmd/alta-segura", "cursohttp/cmd/laboratorio")
		if out, err := cmd.CombinedOutput(); err != nil {
			sinBinarios = "no se pudieron construir los programas: " + string(out)
		} else {
			binarios = dir
		}
	}
	codigo := prueba.SinFugas(m, (*testing.M).Run) // and nothing the tests started is left running
	os.RemoveAll(dir)
	os.Exit(codigo)
}

// proceso is a running server with its output collected.
type proceso struct {
	cmd  *exec.Cmd
	addr string
	mu   sync.Mutex
	log  strings.Builder
	fin  chan struct{}
}

func (p *proceso) salida() string { p.mu.Lock(); defer p.mu.Unlock(); return p.log.String() }

// salidaCuando waits until what the program printed satisfies cumple, and returns it: a line a
// server writes while answering reaches the test through a pipe, possibly after the client already
// has its answer and has exited. If it never does, the test fails showing what was printed.
func (p *proceso) salidaCuando(t *testing.T, cumple func(string) bool) string {
	t.Helper()
	s := p.salida()
	defer func() {
		if !cumple(s) {
			t.Logf("lo que escribió:\n%s", s)
		}
	}()
	prueba.Esperar(t, "la salida esperada", func() bool { s = p.salida(); return cumple(s) })
	return s
}

// contiene is the condition of salidaCuando that the output has texto n times.
func contiene(texto string, n int) func(string) bool {
	return func(s string) bool { return strings.Count(s, texto) == n }
}

// parar stops the program as Ctrl+C would and waits for it.
func (p *proceso) parar() {
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.fin:
	case <-time.After(5 * time.Second):
		p.cmd.Process.Kill()
		<-p.fin
	}
}

var lineaInicio = regexp.MustCompile(`en http://(127\.0\.0\.1:[0-9]+)`)

// arrancar starts a server program and waits for its start-up line.
func arrancar(t *testing.T, programa string, args ...string) *proceso {
	t.Helper()
	if binarios == "" {
		t.Skip(sinBinarios)
	}
	p := &proceso{cmd: exec.Command(filepath.Join(binarios, programa), args...), fin: make(chan struct{})}
	tubo, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p.cmd.Stderr = p.cmd.Stdout
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	listo := make(chan string, 1)
	go func() {
		defer close(p.fin)
		sc := bufio.NewScanner(tubo)
		for sc.Scan() {
			p.mu.Lock()
			p.log.WriteString(sc.Text() + "\n")
			p.mu.Unlock()
			if m := lineaInicio.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case listo <- m[1]:
				default:
				}
			}
		}
		p.cmd.Wait()
	}()
	select {
	case p.addr = <-listo:
	case <-p.fin:
		t.Fatalf("%s terminó sin arrancar:\n%s", programa, p.salida())
	case <-time.After(10 * time.Second):
		t.Fatalf("%s no arrancó:\n%s", programa, p.salida())
	}
	t.Cleanup(p.parar)
	return p
}

// altaSegura runs the client and returns its output (stdout) and exit code.
func altaSegura(t *testing.T, pasarela string, entorno []string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(filepath.Join(binarios, "alta-segura"), append(args, "--pasarela", "http://"+pasarela)...)
	cmd.Env = append(os.Environ(), entorno...)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if errOut.Len() > 0 {
		t.Errorf("alta-segura escribió en stderr: %s", errOut.String())
	}
	codigo := 0
	if ee, ok := err.(*exec.ExitError); ok {
		codigo = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), codigo
}

var (
	uuidRe = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}`)
)

const (
	perdidaJSON = `{"type":"about:blank","title":"Bad Gateway","status":502,"detail":"la pasarela no recibió una respuesta completa del revisor"}`
	sinRevJSON  = `{"type":"about:blank","title":"Bad Gateway","status":502,"detail":"la pasarela no recibió respuesta del revisor"}`
)

// comparar checks the output line by line; the UUID is the only thing that varies.
func comparar(t *testing.T, got, want string) string {
	t.Helper()
	llave := uuidRe.FindString(got)
	if llave != "" {
		got = strings.ReplaceAll(got, llave, "LLAVE")
	}
	if got != want {
		t.Errorf("salida:\n%s\nse esperaba:\n%s", got, want)
	}
	return llave
}

func pedir(t *testing.T, metodo, url, credencial, cuerpo string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(metodo, url, strings.NewReader(cuerpo))
	req.Header.Set("Authorization", "Bearer "+credencial)
	if cuerpo != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func revisorYPasarela(t *testing.T) (*proceso, *proceso) {
	rev := arrancar(t, "revisor", "--puerto", "0")
	pas := arrancar(t, "pasarela", "--puerto", "0", "--destino", "http://"+rev.addr)
	if !strings.HasPrefix(pas.salida(), "pasarela en http://"+pas.addr+" → http://"+rev.addr+"\n") {
		t.Errorf("línea de inicio: %q", pas.salida())
	}
	return rev, pas
}

// S-D5, S-D6: the lost 201, then the same 201; without a key, the 409 of the name.
func TestEscenaRespuestaPerdida(t *testing.T) {
	t.Parallel()
	rev, pas := revisorYPasarela(t)
	out, codigo := altaSegura(t, pas.addr, nil, "agenda", "http://127.0.0.1:18081/codigo/200")
	comparar(t, out, "intento 1: 502 "+perdidaJSON+"\n  espero entre 0 y 500 ms y reintento con la misma llave\n"+
		`intento 2: 201 {"id":7,"nombre":"agenda","url":"http://127.0.0.1:18081/codigo/200","limite_ms":2000}`+"\n")
	if codigo != 0 {
		t.Errorf("código de salida %d, se esperaba 0", codigo)
	}
	out, codigo = altaSegura(t, pas.addr, nil, "nomina2", "http://127.0.0.1:18081/codigo/200", "--sin-llave")
	comparar(t, out, "intento 1: 502 "+perdidaJSON+"\n  espero entre 0 y 500 ms y reintento sin llave (podría duplicar)\n"+
		`intento 2: 409 {"type":"https://revisor.example/problemas/nombre-repetido","title":"Ya existe un servicio con ese nombre","status":409,"detail":"ya existe un servicio llamado nomina2","instance":"/servicios","existente":"/servicios/8"}`+"\n"+
		"el servidor respondió 409: repetir lo mismo no lo arregla; sin llave no se sabe si lo que ya existe lo creó un intento anterior\n")
	if codigo != 1 {
		t.Errorf("código de salida %d, se esperaba 1", codigo)
	}
	// One service per name: nothing was duplicated.
	_, lista := pedir(t, "GET", "http://"+rev.addr+"/servicios", "escritura-a", "")
	for _, nombre := range []string{"agenda", "nomina2"} {
		if n := strings.Count(lista, `"nombre":"`+nombre+`"`); n != 1 {
			t.Errorf("%d servicios %s:\n%s", n, nombre, lista)
		}
	}
	// The key is not printed on success; the revisor's log shows it was one UUID, replayed once.
	repetida := regexp.MustCompile(`(?m)^idempotencia: la llave ` + uuidRe.String() + ` ya se atendió; repito su respuesta$`)
	if log := rev.salidaCuando(t, func(s string) bool { return len(repetida.FindAllString(s, -1)) == 1 }); len(repetida.FindAllString(log, -1)) != 1 {
		t.Errorf("bitácora del revisor:\n%s", log)
	}
	if log := pas.salidaCuando(t, contiene("pasarela: el revisor respondió 201, pero la respuesta se pierde\n", 2)); strings.Count(log, "pasarela: el revisor respondió 201, pero la respuesta se pierde\n") != 2 {
		t.Errorf("bitácora de la pasarela:\n%s", log)
	}
}

// S-E2, S-E3, S-E4: revisor stopped (four 502s), then the gateway stopped (four ECONNREFUSED).
func TestEscenaNadieResponde(t *testing.T) {
	t.Parallel()
	rev, pas := revisorYPasarela(t)
	rev.parar()
	cuatro := func(linea, como, final string) string {
		return "intento 1: " + linea + "\n  espero entre 0 y 500 ms y reintento " + como + "\n" +
			"intento 2: " + linea + "\n  espero entre 0 y 1000 ms y reintento " + como + "\n" +
			"intento 3: " + linea + "\n  espero entre 0 y 2000 ms y reintento " + como + "\n" +
			"intento 4: " + linea + "\n" + final + "\n"
	}
	out, codigo := altaSegura(t, pas.addr, nil, "sin-revisor", "http://127.0.0.1:18081/codigo/200")
	comparar(t, out, cuatro("502 "+sinRevJSON, "con la misma llave",
		"se agotaron los 4 intentos sin una respuesta definitiva; repetir más tarde con la llave LLAVE es seguro"))
	if codigo != 1 {
		t.Errorf("código de salida %d", codigo)
	}
	out, codigo = altaSegura(t, pas.addr, nil, "sin-revisor", "http://127.0.0.1:18081/codigo/200", "--sin-llave")
	comparar(t, out, cuatro("502 "+sinRevJSON, "sin llave (podría duplicar)",
		"se agotaron los 4 intentos sin una respuesta definitiva; no se sabe si el alta ocurrió"))
	if codigo != 1 {
		t.Errorf("código de salida %d", codigo)
	}
	if log := pas.salidaCuando(t, contiene("pasarela: el revisor no respondió\n", 8)); strings.Count(log, "pasarela: el revisor no respondió\n") != 8 {
		t.Errorf("la pasarela registró %d veces que el revisor no respondió:\n%s", strings.Count(log, "pasarela: el revisor no respondió\n"), log)
	}
	pas.parar()
	out, codigo = altaSegura(t, pas.addr, nil, "sin-pasarela", "http://127.0.0.1:18081/codigo/200")
	comparar(t, out, cuatro("sin respuesta (ECONNREFUSED)", "con la misma llave",
		"se agotaron los 4 intentos sin una respuesta definitiva; repetir más tarde con la llave LLAVE es seguro"))
	if codigo != 1 {
		t.Errorf("código de salida %d", codigo)
	}
}

// S-F1 and S-F2: a 4xx is not retried; maintenance asks for 120 s and the client does not insist.
func TestEscenaLoQueRecibe(t *testing.T) {
	t.Parallel()
	rev, pas := revisorYPasarela(t)
	out, codigo := altaSegura(t, pas.addr, nil, "invalida", "ftp://archivos")
	comparar(t, out, "intento 1: 502 "+perdidaJSON+"\n  espero entre 0 y 500 ms y reintento con la misma llave\n"+
		`intento 2: 422 {"type":"https://revisor.example/problemas/datos-invalidos","title":"Los datos no se pueden cumplir","status":422,"detail":"1 dato(s) no se pueden cumplir","instance":"/servicios","errors":[{"detail":"debe ser una dirección http o https","pointer":"#/url"}]}`+"\n"+
		"el servidor respondió 422: repetir lo mismo no lo arregla\n")
	if codigo != 1 {
		t.Errorf("código de salida %d", codigo)
	}
	if c, _ := pedir(t, "PUT", "http://"+rev.addr+"/mantenimiento", "admin", `{"activo":true}`); c != 204 {
		t.Fatalf("PUT /mantenimiento: %d", c)
	}
	out, codigo = altaSegura(t, pas.addr, nil, "enmantenimiento", "http://127.0.0.1:18081/codigo/200")
	comparar(t, out, "intento 1: 502 "+perdidaJSON+"\n  espero entre 0 y 500 ms y reintento con la misma llave\n"+
		`intento 2: 503 {"type":"https://revisor.example/problemas/en-mantenimiento","title":"El revisor está en mantenimiento","status":503,"detail":"el revisor está en mantenimiento","instance":"/servicios"}`+"\n"+
		"el servidor pidió esperar 120 s (Retry-After), más de los 5 s que este programa espera; no se reintenta; repetir más tarde con la llave LLAVE es seguro\n")
	if codigo != 1 {
		t.Errorf("código de salida %d", codigo)
	}
	want := "pasarela: el revisor respondió 422, pero la respuesta se pierde\npasarela: el revisor respondió 503, pero la respuesta se pierde\n"
	if log := pas.salidaCuando(t, func(s string) bool { return strings.HasSuffix(s, want) }); !strings.HasSuffix(log, want) {
		t.Errorf("bitácora de la pasarela:\n%s", log)
	}
}

// S-F3, S-F4, S-F6 with laboratorio mentira in the gateway's place.
func TestEscenaMentira(t *testing.T) {
	t.Parallel()
	casos := []struct {
		nombre   string
		guion    []string
		entorno  []string
		alta     string
		salida   string
		codigo   int
		bitacora string
	}{
		{"503:2 201", []string{"503:2", "201"}, nil, "paciente",
			"intento 1: 503 {\"type\":\"about:blank\",\"title\":\"respuesta de mentira\",\"status\":503}\n" +
				"  el servidor pide esperar 2 s (Retry-After); espero 2 s y reintento con la misma llave\nintento 2: 201 {\"id\":99}\n",
			0, "petición 1: 503:2\npetición 2: 201\n"},
		{"409:en-curso 201", []string{"409:en-curso", "201"}, nil, "en-curso",
			"intento 1: 409 {\"type\":\"https://revisor.example/problemas/llave-en-curso\",\"title\":\"respuesta de mentira\",\"status\":409}\n" +
				"  espero entre 0 y 500 ms y reintento con la misma llave\nintento 2: 201 {\"id\":99}\n",
			0, "petición 1: 409:en-curso\npetición 2: 201\n"},
		{"409", []string{"409"}, nil, "repetida",
			"intento 1: 409 {\"type\":\"about:blank\",\"title\":\"respuesta de mentira\",\"status\":409}\nel servidor respondió 409: repetir lo mismo no lo arregla\n",
			1, "petición 1: 409\n"},
		{"mudo", []string{"mudo"}, []string{"ALTA_LIMITE_MS=300"}, "muda",
			"intento 1: sin respuesta (tiempo agotado: 300 ms)\n  espero entre 0 y 500 ms y reintento con la misma llave\n" +
				"intento 2: sin respuesta (tiempo agotado: 300 ms)\n  espero entre 0 y 1000 ms y reintento con la misma llave\n" +
				"intento 3: sin respuesta (tiempo agotado: 300 ms)\n  espero entre 0 y 2000 ms y reintento con la misma llave\n" +
				"intento 4: sin respuesta (tiempo agotado: 300 ms)\n" +
				"se agotaron los 4 intentos sin una respuesta definitiva; repetir más tarde con la llave LLAVE es seguro\n",
			1, "petición 1: mudo\npetición 2: mudo\npetición 3: mudo\npetición 4: mudo\n"},
	}
	for _, c := range casos {
		t.Run(c.nombre, func(t *testing.T) {
			t.Parallel()
			m := arrancar(t, "laboratorio", append([]string{"mentira", "--puerto", "0"}, c.guion...)...)
			inicio := time.Now()
			out, codigo := altaSegura(t, m.addr, c.entorno, c.alta, "http://127.0.0.1:18081/codigo/200")
			comparar(t, out, c.salida)
			if codigo != c.codigo {
				t.Errorf("código de salida %d, se esperaba %d", codigo, c.codigo)
			}
			if c.nombre == "503:2 201" && time.Since(inicio) < 2*time.Second {
				t.Errorf("no esperó los 2 s que pidió Retry-After")
			}
			sinInicio := func(s string) string { return strings.SplitN(s, "\n", 2)[1] }
			if log := m.salidaCuando(t, func(s string) bool { return sinInicio(s) == c.bitacora }); sinInicio(log) != c.bitacora {
				t.Errorf("bitácora del servidor de mentira:\n%s", log)
			}
		})
	}
}

// Series K (--defecto llave-por-intento) with the real gateway and revisor: four 502s although the
// first attempt created agenda; the revisor saw four registrations and never a repeated key, the
// gateway lost one 201 and three 409s.
func TestEscenaLlavePorIntento(t *testing.T) {
	t.Parallel()
	rev, pas := revisorYPasarela(t)
	cmd := exec.Command(filepath.Join(binarios, "alta-segura"), "--defecto", "llave-por-intento", "agenda",
		"http://127.0.0.1:18081/codigo/200", "--pasarela", "http://"+pas.addr)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Errorf("salida %v, se esperaba el código 1", err)
	}
	if !strings.HasPrefix(errOut.String(), "AVISO: «alta-segura --defecto llave-por-intento» es una versión rota a propósito, la de la lección 6") ||
		strings.Count(errOut.String(), "\n") != 1 {
		t.Errorf("stderr: %q", errOut.String())
	}
	comparar(t, out.String(), "intento 1: 502 "+perdidaJSON+"\n  espero entre 0 y 500 ms y reintento con la misma llave\n"+
		"intento 2: 502 "+perdidaJSON+"\n  espero entre 0 y 1000 ms y reintento con la misma llave\n"+
		"intento 3: 502 "+perdidaJSON+"\n  espero entre 0 y 2000 ms y reintento con la misma llave\n"+
		"intento 4: 502 "+perdidaJSON+"\n"+
		"se agotaron los 4 intentos sin una respuesta definitiva; repetir más tarde con la llave LLAVE es seguro\n")
	_, lista := pedir(t, "GET", "http://"+rev.addr+"/servicios", "escritura-a", "")
	if n := strings.Count(lista, `"nombre":"agenda"`); n != 1 || !strings.Contains(lista, `{"id":7,"nombre":"agenda"`) {
		t.Errorf("%d servicios agenda:\n%s", n, lista)
	}
	if log := rev.salidaCuando(t, contiene("POST /servicios\n", 4)); strings.Count(log, "POST /servicios\n") != 4 || strings.Contains(log, "idempotencia:") {
		t.Errorf("bitácora del revisor:\n%s", log)
	}
	want := "pasarela: el revisor respondió 201, pero la respuesta se pierde\n" +
		strings.Repeat("pasarela: el revisor respondió 409, pero la respuesta se pierde\n", 3)
	if log := pas.salidaCuando(t, func(s string) bool { return strings.HasSuffix(s, want) }); !strings.HasSuffix(log, want) {
		t.Errorf("bitácora de la pasarela:\n%s", log)
	}
}

// lineasJSON reads a program's JSON log, one object per line.
func lineasJSON(t *testing.T, programa, texto string) []map[string]any {
	t.Helper()
	var r []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(texto), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("%s: una línea que no es JSON: %q", programa, l)
		}
		r = append(r, m)
	}
	return r
}

var horaFina = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}(Z|[+-]\d\d:\d\d)$`)

// One intent through the lossy gateway is one trace: the client's lines, the gateway's and the
// revisor's carry its id, each attempt is a span of it, each server's span hangs from its caller's,
// and every line's time has microseconds.
func TestEscenaUnaTraza(t *testing.T) {
	t.Parallel()
	rev := arrancar(t, "revisor", "--puerto", "0", "--log-json")
	pas := arrancar(t, "pasarela", "--puerto", "0", "--destino", "http://"+rev.addr, "--log-json")
	out, codigo := altaSegura(t, pas.addr, nil, "agenda", "http://127.0.0.1:18081/codigo/200", "--log-json")
	if codigo != 0 {
		t.Fatalf("código de salida %d:\n%s", codigo, out)
	}
	cliente := lineasJSON(t, "alta-segura", out)
	if len(cliente) != 3 || cliente[0]["message"] != "intento 1: 502 "+perdidaJSON || cliente[0]["codigo"] != 502.0 || cliente[0]["intento"] != 1.0 ||
		cliente[1]["message"] != "  espero entre 0 y 500 ms y reintento con la misma llave" || cliente[2]["codigo"] != 201.0 {
		t.Fatalf("líneas de alta-segura:\n%s", out)
	}
	id := cliente[0]["traza"]
	intencion := cliente[1]["tramo"]
	intentos := []any{cliente[0]["tramo"], cliente[2]["tramo"]}
	for _, l := range cliente {
		if l["traza"] != id || !horaFina.MatchString(l["time"].(string)) {
			t.Errorf("línea de alta-segura fuera de la traza %v o sin hora fina: %v", id, l)
		}
	}
	if cliente[0]["padre"] != intencion || cliente[2]["padre"] != intencion || intentos[0] == intentos[1] || cliente[1]["padre"] != nil {
		t.Errorf("cada intento debía ser un tramo hijo de la intención %v: %v", intencion, cliente)
	}
	// The gateway's line about the lost answer is attempt 1's: a span whose parent is the attempt.
	var perdida map[string]any
	logPas := pas.salidaCuando(t, contiene(`"message":"pasarela: el revisor respondió 201, pero la respuesta se pierde"`, 1))
	for _, l := range lineasJSON(t, "pasarela", logPas) {
		if l["message"] == "pasarela: el revisor respondió 201, pero la respuesta se pierde" {
			perdida = l
		}
	}
	if perdida == nil || perdida["traza"] != id || perdida["padre"] != intentos[0] || !horaFina.MatchString(perdida["time"].(string)) {
		t.Fatalf("la pasarela no dijo la pérdida en la traza %v:\n%s", id, logPas)
	}
	// The revisor saw both attempts in the trace, the first as the gateway's child, and the
	// replay of the second under the same trace.
	var posts, repetida []map[string]any
	logRev := rev.salidaCuando(t, contiene(`"message":"idempotencia: la llave `, 1))
	for _, l := range lineasJSON(t, "revisor", logRev) {
		switch {
		case l["message"] == "POST /servicios":
			posts = append(posts, l)
		case strings.HasPrefix(l["message"].(string), "idempotencia: la llave "):
			repetida = append(repetida, l)
		}
	}
	if len(posts) != 2 || len(repetida) != 1 {
		t.Fatalf("bitácora del revisor:\n%s", logRev)
	}
	for _, l := range append(posts, repetida...) {
		if l["traza"] != id || !horaFina.MatchString(l["time"].(string)) {
			t.Errorf("línea del revisor fuera de la traza %v: %v", id, l)
		}
	}
	if posts[0]["padre"] != perdida["tramo"] || posts[1]["padre"] == perdida["tramo"] || repetida[0]["tramo"] != posts[1]["tramo"] {
		t.Errorf("tramos del revisor: %v; la pasarela perdió en el tramo %v", posts, perdida["tramo"])
	}
}
