//go:build unix

// Signals (SIGTERM, Ctrl+C as SIGINT) and /proc: unix only; Windows has neither to send.

package e2e

import (
	"bufio"
	"cursohttp/internal/proc"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"cursohttp/internal/prueba/pgtest"
)

// binarios is the folder with the programs built for this run (empty with -short).
var binarios string

func TestMain(m *testing.M) {
	flag.Parse()
	if testing.Short() {
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "e2e-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// The programs as shipped: a plain build, no race detector inside them.
	build := exec.Command("go", "build", "-o", dir+string(filepath.Separator),
		"cursohttp/cmd/laboratorio", "cursohttp/cmd/revisor", "cursohttp/cmd/pasarela", "cursohttp/cmd/alta-segura")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: no se pudieron construir los programas:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	binarios = dir
	// These tests mostly wait (timeouts, retries, a soak of fixed length): run them all at once
	// rather than GOMAXPROCS at a time, unless -parallel was given.
	paralelo := false
	flag.Visit(func(f *flag.Flag) { paralelo = paralelo || f.Name == "test.parallel" })
	if !paralelo {
		flag.Set("test.parallel", "32")
	}
	codigo := pgtest.Main(m)
	os.RemoveAll(dir)
	os.Exit(codigo)
}

func largo(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("prueba de resistencia: arranca los programas construidos (sin -short)")
	}
}

// salida keeps the last bytes a program wrote, for a failure message.
type salida struct {
	mu sync.Mutex
	b  []byte
}

const topeSalida = 64 << 10

func (s *salida) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.b = append(s.b, p...)
	if len(s.b) > topeSalida {
		s.b = append(s.b[:0:0], s.b[len(s.b)-topeSalida:]...)
	}
	return len(p), nil
}

func (s *salida) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return string(s.b)
}

// proceso is one running server.
type proceso struct {
	nombre string
	cmd    *exec.Cmd
	addr   string // host:port it listens on
	salida *salida
	hecho  chan struct{}
}

func (p *proceso) url() string { return "http://" + p.addr }
func (p *proceso) pid() int    { return p.cmd.Process.Pid }

var direccion = regexp.MustCompile(`http://(127\.0\.0\.1:\d+)`)

// arrancar starts a built server and waits for its start-up line, which carries the real address
// (--puerto 0 unless args say otherwise).
func arrancar(t *testing.T, programa string, args ...string) *proceso {
	t.Helper()
	if !strings.Contains(strings.Join(args, " "), "--puerto") {
		args = append([]string{"--puerto", "0"}, args...)
	}
	cmd := exec.Command(filepath.Join(binarios, programa), args...)
	tubo, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &proceso{nombre: programa, cmd: cmd, salida: &salida{}, hecho: make(chan struct{})}
	cmd.Stderr = p.salida
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lector := bufio.NewReader(tubo)
	linea := make(chan string, 1)
	go func() {
		l, _ := lector.ReadString('\n')
		linea <- l
		io.Copy(p.salida, lector)
	}()
	go func() { cmd.Wait(); close(p.hecho) }()
	t.Cleanup(func() { p.matar() })
	select {
	case l := <-linea:
		m := direccion.FindStringSubmatch(l)
		if m == nil {
			p.matar()
			t.Fatalf("%s no dijo su dirección: %q %s", programa, l, p.salida)
		}
		p.addr = m[1]
	case <-time.After(10 * time.Second):
		p.matar()
		t.Fatalf("%s no arrancó en 10 s: %s", programa, p.salida)
	}
	return p
}

// parar asks for a graceful stop (SIGTERM) and waits for the exit.
func (p *proceso) parar(t *testing.T) {
	t.Helper()
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.hecho:
	case <-time.After(15 * time.Second):
		p.matar()
		t.Fatalf("%s no terminó 15 s después de SIGTERM", p.nombre)
	}
}

// matar kills the process (a crash) and waits for it.
func (p *proceso) matar() {
	select {
	case <-p.hecho:
		return
	default:
	}
	p.cmd.Process.Kill()
	<-p.hecho
}

// medida is a server's footprint at one moment.
type medida struct {
	rssKB, hilos, fds int64
}

func medir(p *proceso) medida {
	return medida{proc.Estado(p.pid(), "VmRSS"), proc.Estado(p.pid(), "Threads"), proc.Descriptores(p.pid())}
}

func (m medida) String() string {
	return fmt.Sprintf("%.1f MB, %d hilos, %d descriptores", float64(m.rssKB)/1024, m.hilos, m.fds)
}
