package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"cursohttp/pkg/cli"
	"cursohttp/pkg/servidor"
)

// salida is a stream the program writes while the test reads it.
type salida struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *salida) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *salida) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func correr(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut salida
	codigo := run(context.Background(), args, strings.NewReader(""), &out, &errOut)
	return codigo, out.String(), errOut.String()
}

func TestUsoIncorrecto(t *testing.T) {
	t.Parallel()
	casos := []struct {
		args   []string
		stderr string
	}{
		{[]string{"mentira"}, "uso: laboratorio mentira <respuesta>...   (por ejemplo: 503:2 201)\n"},
		{[]string{"mentira", "abc"}, "laboratorio mentira: respuesta inválida «abc»: se espera mudo o CÓDIGO[:extra], con un código de tres cifras\n"},
		{[]string{"mentira", "201", "99"}, "laboratorio mentira: respuesta inválida «99»: se espera mudo o CÓDIGO[:extra], con un código de tres cifras\n"},
		{[]string{"mentira", "100"}, "laboratorio mentira: respuesta inválida «100»: el código va de 200 a 999 (un 100 no puede ser la última respuesta)\n"},
		{[]string{"--x"}, "laboratorio: no existe la opción --x; «laboratorio --help» muestra las opciones\n"},
		{[]string{"-x"}, "laboratorio: no existe la opción -x; «laboratorio --help» muestra las opciones\n"},
		{[]string{"--puerto"}, "laboratorio: la opción --puerto necesita un valor; «laboratorio --help» muestra las opciones\n"},
		{[]string{"--puerto", "abc"}, "laboratorio: la opción --puerto espera un número entero, no «abc»; «laboratorio --help» muestra las opciones\n"},
		{[]string{"--puerto", "70000"}, "laboratorio: --puerto va de 0 a 65535 (0: uno libre), no 70000\n"},
		{[]string{"hostil", "--log-json=tal"}, "laboratorio hostil: la opción --log-json espera true o false, no «tal»; «laboratorio hostil --help» muestra las opciones\n"},
		{[]string{"mentira", "201", "--puerto=-1"}, "laboratorio mentira: --puerto va de 0 a 65535 (0: uno libre), no -1\n"},
		{[]string{"otra"}, "laboratorio: sobra «otra»; «laboratorio --help» muestra cómo se usa\n"},
		{[]string{"hostil", "de-mas"}, "laboratorio hostil: sobra «de-mas»; «laboratorio hostil --help» muestra cómo se usa\n"},
	}
	for _, c := range casos {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			t.Parallel()
			codigo, out, errOut := correr(t, c.args...)
			if codigo != cli.SalidaUso || out != "" || errOut != c.stderr {
				t.Errorf("salida %d, stdout %q, stderr %q; se esperaba 2 y %q", codigo, out, errOut, c.stderr)
			}
		})
	}
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
	}
	for _, c := range casos {
		codigo, out, errOut := correr(t, c.args...)
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
	ocupado, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ocupado.Close()
	puerto := strconv.Itoa(ocupado.Addr().(*net.TCPAddr).Port)
	for _, prog := range [][]string{{}, {"mentira", "201"}, {"hostil"}} {
		nombre := strings.TrimSpace("laboratorio " + strings.Join(prog[:min(len(prog), 1)], ""))
		args := append(append([]string{}, prog...), "--puerto", puerto)
		codigo, out, errOut := correr(t, args...)
		want := (&servidor.PuertoOcupado{Programa: nombre, Addr: "127.0.0.1:" + puerto}).Error() + "\n"
		if codigo != cli.SalidaFallo || out != "" || errOut != want {
			t.Errorf("%v: salida %d, stdout %q, stderr %q; se esperaba 1 y %q", args, codigo, out, errOut, want)
		}
	}
}

var lineaInicio = regexp.MustCompile(`^(laboratorio en http://|servidor de mentira en http://|servicio hostil en http://)(127\.0\.0\.1:\d+)`)

// arrancar runs the program in-process on a free port until the test ends or parar is called.
func arrancar(t *testing.T, args ...string) (addr string, out *salida, parar func() int) {
	t.Helper()
	ctx, cancelar := context.WithCancel(context.Background())
	out = &salida{}
	var errOut salida
	fin := make(chan int, 1)
	go func() { fin <- run(ctx, append(args, "--puerto", "0"), strings.NewReader(""), out, &errOut) }()
	limite := time.Now().Add(5 * time.Second)
	for {
		primera, _, _ := strings.Cut(out.String(), "\n")
		if m := lineaInicio.FindStringSubmatch(primera); m != nil {
			addr = m[2]
			break
		}
		select {
		case codigo := <-fin:
			t.Fatalf("terminó con %d antes de escuchar: %q", codigo, errOut.String())
		default:
		}
		if time.Now().After(limite) {
			t.Fatal("no imprimió la línea de inicio")
		}
		time.Sleep(10 * time.Millisecond)
	}
	var una sync.Once
	codigo := -1
	parar = func() int {
		una.Do(func() {
			cancelar()
			codigo = <-fin
		})
		return codigo
	}
	t.Cleanup(func() { parar() })
	return addr, out, parar
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
	addr, _, parar := arrancar(t, "mentira", "mudo")
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "POST /servicios HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}")
	time.Sleep(100 * time.Millisecond)
	inicio := time.Now()
	if codigo := parar(); codigo != cli.SalidaBien {
		t.Errorf("salida %d", codigo)
	}
	if d := time.Since(inicio); d > 2*time.Second {
		t.Errorf("el apagado tardó %v", d)
	}
}
