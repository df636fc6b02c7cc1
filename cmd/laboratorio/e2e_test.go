//go:build unix

// Signals (SIGTERM, Ctrl+C as SIGINT) and /proc: unix only; Windows has neither to send.

package main

import (
	"bufio"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"cursohttp/internal/prueba"
)

// These tests build the binary and use it as a student does: a terminal, signals, exit codes.

func compilar(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("compila el programa; se salta con -short")
	}
	bin := filepath.Join(t.TempDir(), "laboratorio")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// proceso is the running program with its stdout read line by line.
type proceso struct {
	cmd    *exec.Cmd
	lineas chan string
	stderr *prueba.Buffer
}

func lanzar(t *testing.T, bin string, args ...string) *proceso {
	t.Helper()
	cmd := exec.Command(bin, args...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &proceso{cmd: cmd, lineas: make(chan string, 100), stderr: &prueba.Buffer{}}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		s := bufio.NewScanner(stdout)
		for s.Scan() {
			p.lineas <- s.Text()
		}
		close(p.lineas)
	}()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	return p
}

func (p *proceso) linea(t *testing.T) string {
	t.Helper()
	select {
	case l, ok := <-p.lineas:
		if !ok {
			t.Fatalf("stdout se cerró; stderr: %q", p.stderr.String())
		}
		return l
	case <-time.After(10 * time.Second):
		t.Fatal("no llegó ninguna línea")
	}
	return ""
}

func (p *proceso) terminar(t *testing.T, sig os.Signal) int {
	t.Helper()
	if sig != nil {
		p.cmd.Process.Signal(sig)
	}
	fin := make(chan error, 1)
	go func() { fin <- p.cmd.Wait() }()
	select {
	case err := <-fin:
		var salidaErr *exec.ExitError
		if errors.As(err, &salidaErr) {
			return salidaErr.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(15 * time.Second):
		t.Fatal("el programa no terminó")
	}
	return -1
}

// sinFecha drops the Date header, the one thing that changes between runs.
func sinFecha(s string) string {
	return regexp.MustCompile(`Date: [^\r]*\r\n`).ReplaceAllString(s, "")
}

func TestE2ELaboratorio(t *testing.T) {
	t.Parallel()
	bin := compilar(t)
	p := lanzar(t, bin, "--puerto", "0")
	m := regexp.MustCompile(`^laboratorio en http://(127\.0\.0\.1:(\d+))/codigo/NNN$`).FindStringSubmatch(p.linea(t))
	if m == nil {
		t.Fatal("la línea de inicio no dice la dirección")
	}
	addr, puerto := m[1], m[2]

	got := sinFecha(prueba.PedirCrudo(t, addr, "GET /codigo/503 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"))
	// The head as the course's laboratorio writes it (its fields in the order it sets them, then
	// Date, taken out here, and Connection).
	want := "HTTP/1.1 503 Service Unavailable\r\n" +
		"Retry-After: 120\r\n" +
		"Content-Type: text/plain; charset=utf-8\r\n" +
		"Content-Length: 50\r\n" +
		"Connection: close\r\n" +
		"\r\n" +
		"503 Service Unavailable\nlo pediste en /codigo/503\n"
	if got != want {
		t.Errorf("/codigo/503:\n%q\nse esperaba\n%q", got, want)
	}
	if l := p.linea(t); l != "GET /codigo/503" {
		t.Errorf("bitácora %q", l)
	}

	// A second copy on the same port: one sentence, exit 1.
	segunda := exec.Command(bin, "--puerto", puerto)
	var out, errOut strings.Builder
	segunda.Stdout, segunda.Stderr = &out, &errOut
	err := segunda.Run()
	var salidaErr *exec.ExitError
	if !errors.As(err, &salidaErr) || salidaErr.ExitCode() != 1 {
		t.Errorf("la segunda copia terminó con %v, se esperaba la salida 1", err)
	}
	wantErr := "laboratorio no puede escuchar en 127.0.0.1:" + puerto + ": el puerto ya está en uso; quizá otra copia de laboratorio sigue corriendo (detenlo con Ctrl+C o con laboratorio lab detener) o usa --puerto\n"
	if out.String() != "" || errOut.String() != wantErr {
		t.Errorf("segunda copia: stdout %q, stderr %q", out.String(), errOut.String())
	}

	if codigo := p.terminar(t, syscall.SIGTERM); codigo != 0 {
		t.Errorf("SIGTERM: salida %d, stderr %q", codigo, p.stderr.String())
	}
	if p.stderr.String() != "" {
		t.Errorf("stderr %q", p.stderr.String())
	}
}

func TestE2EInterrumpirConLentoEnCurso(t *testing.T) {
	t.Parallel()
	bin := compilar(t)
	p := lanzar(t, bin, "--puerto", "0")
	addr := regexp.MustCompile(`127\.0\.0\.1:\d+`).FindString(p.linea(t))
	respuesta := make(chan string, 1)
	go func() {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			respuesta <- err.Error()
			return
		}
		defer c.Close()
		io.WriteString(c, "GET /lento/500 HTTP/1.1\r\nHost: x\r\n\r\n")
		todo, _ := io.ReadAll(c)
		respuesta <- string(todo)
	}()
	if l := p.linea(t); l != "GET /lento/500" {
		t.Fatalf("bitácora %q", l)
	}
	if codigo := p.terminar(t, os.Interrupt); codigo != 0 {
		t.Errorf("Ctrl+C: salida %d", codigo)
	}
	if r := <-respuesta; !strings.HasPrefix(r, "HTTP/1.1 200 OK\r\n") || !strings.HasSuffix(r, "\r\n\r\n200 OK\ntardé 500 ms\n") {
		t.Errorf("la petición en curso recibió %q", r)
	}
}

func TestE2EMentira(t *testing.T) {
	t.Parallel()
	bin := compilar(t)

	sinArgs := exec.Command(bin, "mentira")
	var errOut strings.Builder
	sinArgs.Stderr = &errOut
	err := sinArgs.Run()
	var salidaErr *exec.ExitError
	if !errors.As(err, &salidaErr) || salidaErr.ExitCode() != 2 ||
		errOut.String() != "uso: laboratorio mentira <respuesta>...   (por ejemplo: 503:2 201)\n" {
		t.Errorf("sin respuestas: %v, stderr %q", err, errOut.String())
	}

	p := lanzar(t, bin, "mentira", "503:2", "201", "--puerto", "0")
	m := regexp.MustCompile(`^servidor de mentira en http://(127\.0\.0\.1:\d+)$`).FindStringSubmatch(p.linea(t))
	if m == nil {
		t.Fatal("la línea de inicio no dice la dirección")
	}
	addr := m[1]
	peticion := "POST /servicios HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"
	esperadas := []string{
		// fig06_04 sets its fields with writeHead and lets end() add the length, after Connection.
		"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/problem+json\r\nRetry-After: 2\r\nConnection: close\r\nContent-Length: 67\r\n\r\n" +
			`{"type":"about:blank","title":"respuesta de mentira","status":503}` + "\n",
		"HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: 10\r\n\r\n" + `{"id":99}` + "\n",
		"HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: 10\r\n\r\n" + `{"id":99}` + "\n",
	}
	for i, want := range esperadas {
		if got := sinFecha(prueba.PedirCrudo(t, addr, peticion)); got != want {
			t.Errorf("petición %d:\n%q\nse esperaba\n%q", i+1, got, want)
		}
	}
	for _, want := range []string{"petición 1: 503:2", "petición 2: 201", "petición 3: 201"} {
		if l := p.linea(t); l != want {
			t.Errorf("bitácora %q, se esperaba %q", l, want)
		}
	}
	if codigo := p.terminar(t, syscall.SIGTERM); codigo != 0 {
		t.Errorf("SIGTERM: salida %d", codigo)
	}
}

func TestE2EHostil(t *testing.T) {
	t.Parallel()
	bin := compilar(t)
	p := lanzar(t, bin, "hostil", "--puerto", "0")
	addr := regexp.MustCompile(`^servicio hostil en http://(127\.0\.0\.1:\d+)$`).FindStringSubmatch(p.linea(t))
	if addr == nil {
		t.Fatal("la línea de inicio no dice la dirección")
	}
	got := sinFecha(prueba.PedirCrudo(t, addr[1], "GET /idioma/en HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
	cuerpo := `{"type":"https://revisor.example/problemas/llave-en-curso","title":"That key is still in use","status":409,"detail":"the original request has not finished yet"}`
	want := "HTTP/1.1 409 Conflict\r\nContent-Type: application/problem+json\r\nConnection: close\r\nContent-Length: 160\r\n\r\n" + cuerpo
	if got != want {
		t.Errorf("/idioma/en:\n%q\nse esperaba\n%q", got, want)
	}
	if codigo := p.terminar(t, os.Interrupt); codigo != 0 {
		t.Errorf("Ctrl+C: salida %d", codigo)
	}
}

// The first Ctrl+C with a slow request in flight says what the server waits for; the second one
// stops it at once, with 130, instead of waiting up to 10 s.
func TestE2ESegundoCtrlC(t *testing.T) {
	t.Parallel()
	bin := compilar(t)
	p := lanzar(t, bin, "--puerto", "0")
	addr := regexp.MustCompile(`127\.0\.0\.1:\d+`).FindString(p.linea(t))
	go func() {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			return
		}
		defer c.Close()
		io.WriteString(c, "GET /lento/9000 HTTP/1.1\r\nHost: x\r\n\r\n")
		io.ReadAll(c)
	}()
	if l := p.linea(t); l != "GET /lento/9000" {
		t.Fatalf("bitácora %q", l)
	}
	p.cmd.Process.Signal(os.Interrupt)
	if l, want := p.linea(t), "esperando a que termine 1 petición en curso (hasta 10 s); otro Ctrl+C detiene el servidor ya"; l != want {
		t.Errorf("tras el primer Ctrl+C: %q, se esperaba %q", l, want)
	}
	t0 := time.Now()
	if codigo := p.terminar(t, os.Interrupt); codigo != 130 {
		t.Errorf("segundo Ctrl+C: salida %d, se esperaba 130", codigo)
	}
	if d := time.Since(t0); d > 3*time.Second {
		t.Errorf("el segundo Ctrl+C tardó %s en detenerlo", d)
	}
}
