package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
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
		{[]string{"--x"}, "pasarela: no existe la opción --x; «pasarela --help» muestra las opciones\n"},
		{[]string{"-x"}, "pasarela: no existe la opción -x; «pasarela --help» muestra las opciones\n"},
		{[]string{"--destino"}, "pasarela: la opción --destino necesita un valor; «pasarela --help» muestra las opciones\n"},
		{[]string{"--puerto", "abc"}, "pasarela: la opción --puerto espera un número entero, no «abc»; «pasarela --help» muestra las opciones\n"},
		{[]string{"--puerto", "70000"}, "pasarela: --puerto va de 0 a 65535 (0: uno libre), no 70000\n"},
		{[]string{"--log-json=tal"}, "pasarela: la opción --log-json espera true o false, no «tal»; «pasarela --help» muestra las opciones\n"},
		{[]string{"--destino", "x"}, "pasarela: --destino debe ser una dirección http, no \"x\"\n"},
		{[]string{"--destino", "ftp://127.0.0.1:18080", "--puerto", "0"}, "pasarela: --destino debe ser una dirección http, no \"ftp://127.0.0.1:18080\"\n"},
		{[]string{"--destino=http://", "--puerto", "0"}, "pasarela: --destino debe ser una dirección http, no \"http://\"\n"},
		{[]string{"revisor"}, "pasarela: sobra «revisor»; «pasarela --help» muestra cómo se usa\n"},
		{[]string{"help"}, "pasarela: sobra «help»; «pasarela --help» muestra cómo se usa\n"},
		{[]string{"completion"}, "pasarela: sobra «completion»; «pasarela --help» muestra cómo se usa\n"},
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
	for _, ruta := range cli.Rutas(nuevaRaiz(io.Discard, io.Discard)) {
		for _, bandera := range []string{"--help", "-h"} {
			args := append(append([]string{}, ruta...), bandera)
			codigo, out, errOut := correr(t, args...)
			if codigo != cli.SalidaBien || errOut != "" {
				t.Errorf("%v: salida %d, stderr %q", args, codigo, errOut)
			}
			for _, s := range []string{"http://127.0.0.1:18082", "X-Simular: perder-primera", "Ctrl+C", "Ejemplos:\n",
				"Uso:\n  pasarela [opciones]\n", "--destino TEXTO", "(si no se dice: http://127.0.0.1:18080)",
				"--puerto NÚMERO", "(si no se dice: 18082)", "-h, --help", "muestra esta ayuda"} {
				if !strings.Contains(out, s) {
					t.Errorf("%v: la ayuda no dice %q:\n%s", args, s, out)
				}
			}
			if s := cli.EnIngles(out); s != "" {
				t.Errorf("%v: la ayuda dice %q:\n%s", args, s, out)
			}
		}
	}
}

func TestPuertoOcupado(t *testing.T) {
	t.Parallel()
	ocupado, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ocupado.Close()
	_, puerto, _ := net.SplitHostPort(ocupado.Addr().String())
	codigo, out, errOut := correr(t, "--puerto", puerto)
	want := (&servidor.PuertoOcupado{Programa: "pasarela", Addr: "127.0.0.1:" + puerto}).Error() + "\n"
	if codigo != cli.SalidaFallo || out != "" || errOut != want {
		t.Errorf("salida %d, stdout %q, stderr %q; se esperaba 1 y %q", codigo, out, errOut, want)
	}
}

// TestReenviaYSeDetiene runs the gateway in-process in front of a fake revisor: the start-up line,
// one forwarded request, and exit 0 on Ctrl+C.
func TestReenviaYSeDetiene(t *testing.T) {
	t.Parallel()
	revisor := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"camino":"`+r.URL.Path+`"}`)
	}))
	defer revisor.Close()
	ctx, cancelar := context.WithCancel(context.Background())
	defer cancelar()
	out, errOut := &salida{}, &salida{}
	fin := make(chan int, 1)
	go func() { fin <- run(ctx, []string{"--puerto", "0", "--destino", revisor.URL}, nil, out, errOut) }()
	var addr string
	for limite := time.Now().Add(5 * time.Second); addr == ""; time.Sleep(10 * time.Millisecond) {
		if linea, _, ok := strings.Cut(out.String(), "\n"); ok {
			var destino string
			if addr, destino = leerInicio(linea); destino != revisor.URL {
				t.Fatalf("línea de inicio %q", linea)
			}
		}
		if time.Now().After(limite) {
			t.Fatalf("no arrancó; stderr %q", errOut.String())
		}
	}
	resp, err := http.Get("http://" + addr + "/servicios")
	if err != nil {
		t.Fatal(err)
	}
	cuerpo, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(cuerpo) != `{"camino":"/servicios"}` {
		t.Errorf("%s %q", resp.Status, cuerpo)
	}
	cancelar()
	if codigo := <-fin; codigo != cli.SalidaBien || errOut.String() != "" {
		t.Errorf("salida %d tras Ctrl+C, stderr %q", codigo, errOut.String())
	}
}

// leerInicio reads «pasarela en http://ADDR → DESTINO».
func leerInicio(linea string) (addr, destino string) {
	resto, _ := strings.CutPrefix(linea, "pasarela en http://")
	addr, destino, _ = strings.Cut(resto, " → ")
	return addr, destino
}
