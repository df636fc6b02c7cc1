package prueba

import (
	"context"
	"io"
	"net"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/cobra"
)

// Programa is a command's whole life with its arguments and streams passed in: each cmd's run.
type Programa func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int

// Correr runs the program in-process with args and an empty stdin, and returns its exit code,
// stdout and stderr.
func Correr(t testing.TB, run Programa, args ...string) (codigo int, out, errOut string) {
	t.Helper()
	var o, e Buffer
	codigo = run(context.Background(), args, strings.NewReader(""), &o, &e)
	return codigo, o.String(), e.String()
}

// UsosIncorrectos checks, in parallel, that the program refuses each command line in casos as the
// suite does: exit code 2 (cli.SalidaUso), nothing on stdout and exactly the one line given on
// stderr. A command line is its arguments separated by spaces.
func UsosIncorrectos(t *testing.T, run Programa, casos map[string]string) {
	t.Helper()
	for linea, stderr := range casos {
		t.Run(linea, func(t *testing.T) {
			t.Parallel()
			codigo, out, errOut := Correr(t, run, strings.Fields(linea)...)
			if codigo != 2 || out != "" || errOut != stderr {
				t.Errorf("salida %d, stdout %q, stderr %q; se esperaba 2 y %q", codigo, out, errOut, stderr)
			}
		})
	}
}

// Ayudas asks every command under raiz for its help, with --help and with -h, through run: each
// must exit 0 with nothing on stderr, say every one of contiene and keep none of cobra's English.
func Ayudas(t *testing.T, run Programa, raiz *cobra.Command, contiene ...string) {
	t.Helper()
	for _, ruta := range Rutas(raiz) {
		for _, bandera := range []string{"--help", "-h"} {
			args := append(append([]string{}, ruta...), bandera)
			codigo, out, errOut := Correr(t, run, args...)
			if codigo != 0 || errOut != "" {
				t.Errorf("%v: salida %d, stderr %q", args, codigo, errOut)
			}
			for _, s := range contiene {
				if !strings.Contains(out, s) {
					t.Errorf("%v: la ayuda no dice %q:\n%s", args, s, out)
				}
			}
			if s := EnIngles(out); s != "" {
				t.Errorf("%v: la ayuda dice %q:\n%s", args, s, out)
			}
		}
	}
}

// Rutas lists the arguments that reach each visible command under raiz, raiz itself first (an
// empty list).
func Rutas(raiz *cobra.Command) [][]string {
	var rutas [][]string
	var visitar func(c *cobra.Command, camino []string)
	visitar = func(c *cobra.Command, camino []string) {
		rutas = append(rutas, camino)
		for _, sub := range c.Commands() {
			if sub.IsAvailableCommand() {
				visitar(sub, append(append([]string{}, camino...), sub.Name()))
			}
		}
	}
	visitar(raiz, []string{})
	return rutas
}

// EnIngles returns the first text of cobra's or pflag's own English help found in ayuda, or "" if
// there is none.
func EnIngles(ayuda string) string {
	for _, s := range []string{
		"Usage", "Flags:", "Available Commands:", "Global Flags:", "Examples:", "Additional help",
		"help for", "Help about", "(default", "completion", "[flags]", "[command]", "for more information",
	} {
		if strings.Contains(ayuda, s) {
			return s
		}
	}
	return ""
}

// PuertoOcupado returns a port on 127.0.0.1 that someone is listening on until the test ends.
func PuertoOcupado(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	_, puerto, _ := net.SplitHostPort(ln.Addr().String())
	return puerto
}

// PuertosLibres returns n distinct ports on 127.0.0.1 that nobody listens on, for programs the test
// starts as processes of their own, and keeps them for the test: until it ends, no other process
// is handed one of them for a listener on port 0 or an outgoing connection (on Linux; see
// reservarPuerto), so another package's tests running at the same time cannot take a port between
// the moment it is chosen and the moment the program listens on it.
func PuertosLibres(t testing.TB, n int) []int {
	t.Helper()
	puertos := make([]int, n)
	for i := range puertos {
		puerto, soltar, err := reservarPuerto()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(soltar)
		puertos[i] = puerto
	}
	return puertos
}

// Servidor is a server program running in-process (see Arrancar).
type Servidor struct {
	Linea    string  // its start-up line
	Addr     string  // the address in it
	Out, Err *Buffer // its streams
	parar    func() int
}

// Parar is the program's Ctrl+C: it cancels its context and returns its exit code once it ended.
// Arrancar calls it when the test ends, so calling it is needed only to check the exit or the log.
func (s *Servidor) Parar() int { return s.parar() }

// Arrancar runs a server program in-process with args until the test ends or Parar is called, and
// waits (5 s at most) for its start-up line: the first line of stdout, which must match inicio, whose
// first group is the address it listens on. Add "--puerto", "0" to args for a free port.
func Arrancar(t testing.TB, run Programa, inicio *regexp.Regexp, args ...string) *Servidor {
	t.Helper()
	ctx, cancelar := context.WithCancel(context.Background())
	s := &Servidor{Out: &Buffer{}, Err: &Buffer{}}
	fin := make(chan int, 1)
	go func() { fin <- run(ctx, args, strings.NewReader(""), s.Out, s.Err) }()
	var una sync.Once
	codigo := -1
	s.parar = func() int {
		una.Do(func() {
			cancelar()
			codigo = <-fin
		})
		return codigo
	}
	t.Cleanup(func() { s.Parar() })
	for limite := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if linea, _, ok := strings.Cut(s.Out.String(), "\n"); ok {
			m := inicio.FindStringSubmatch(linea)
			if m == nil || len(m) < 2 {
				t.Fatalf("línea de inicio %q", linea)
			}
			s.Linea, s.Addr = linea, m[1]
			return s
		}
		select {
		case c := <-fin:
			fin <- c
			t.Fatalf("terminó con %d antes de escuchar: %q", c, s.Err.String())
		default:
		}
		if time.Now().After(limite) {
			t.Fatalf("no imprimió la línea de inicio; stderr %q", s.Err.String())
		}
	}
}
