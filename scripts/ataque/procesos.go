//go:build unix

package main

import (
	"bufio"
	"bytes"
	"cursohttp/internal/proc"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"
)

// servidor is one of the three programs under attack, started as a student starts it.
type servidor struct {
	nombre string
	cmd    *exec.Cmd
	addr   string // host:port from its start-up line
	log    *bitacora
	hecho  chan struct{}

	mu              sync.Mutex
	rssPico, fdPico int64 // since the last pico()
}

var direccion = regexp.MustCompile(`http://(127\.0\.0\.1:\d+)`)

// arrancar starts bin/programa on a free port and waits for its start-up line.
func arrancar(bin, programa string, args ...string) (*servidor, error) {
	return arrancarOrden(bin, programa, nil, args...)
}

// arrancarOrden is arrancar for one of the program's orders («laboratorio panel»).
func arrancarOrden(bin, programa string, orden []string, args ...string) (*servidor, error) {
	ruta := filepath.Join(bin, programa)
	if _, err := os.Stat(ruta); err != nil {
		return nil, fmt.Errorf("%s no está construido (%s): make build", programa, ruta)
	}
	cmd := exec.Command(ruta, append(append(append([]string{}, orden...), "--puerto", "0"), args...)...)
	salida, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	s := &servidor{nombre: programa, cmd: cmd, log: &bitacora{}, hecho: make(chan struct{})}
	cmd.Stderr = s.log
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	lector := bufio.NewReader(salida)
	linea := make(chan string, 1)
	go func() {
		l, _ := lector.ReadString('\n')
		s.log.Write([]byte(l))
		linea <- l
		io.Copy(s.log, lector)
	}()
	go func() { cmd.Wait(); close(s.hecho) }()
	select {
	case l := <-linea:
		m := direccion.FindStringSubmatch(l)
		if m == nil {
			s.parar()
			return nil, fmt.Errorf("%s no dijo su dirección: %q", programa, l)
		}
		s.addr = m[1]
	case <-time.After(10 * time.Second):
		s.parar()
		return nil, fmt.Errorf("%s no arrancó en 10 s", programa)
	}
	go s.medir()
	return s, nil
}

func (s *servidor) url() string { return "http://" + s.addr }

func (s *servidor) vivo() bool {
	select {
	case <-s.hecho:
		return false
	default:
		return true
	}
}

func (s *servidor) parar() {
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.hecho:
	case <-time.After(5 * time.Second):
		s.cmd.Process.Kill()
		<-s.hecho
	}
}

// medir samples the server's resident memory and open descriptors every 20 ms, keeping the peaks.
func (s *servidor) medir() {
	t := time.NewTicker(20 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-s.hecho:
			return
		case <-t.C:
		}
		rss, fds := proc.Estado(s.cmd.Process.Pid, "VmRSS")*1024, proc.Descriptores(s.cmd.Process.Pid)
		s.mu.Lock()
		s.rssPico, s.fdPico = max(s.rssPico, rss), max(s.fdPico, fds)
		s.mu.Unlock()
	}
}

// pico returns the peaks since the last call and starts again from what the server holds now.
func (s *servidor) pico() (rss, fds int64) {
	pid := s.cmd.Process.Pid
	ahoraRSS, ahoraFds := proc.Estado(pid, "VmRSS")*1024, proc.Descriptores(pid)
	s.mu.Lock()
	defer s.mu.Unlock()
	rss, fds = max(s.rssPico, ahoraRSS), max(s.fdPico, ahoraFds)
	s.rssPico, s.fdPico = ahoraRSS, ahoraFds
	return rss, fds
}

// picoTotal is the peak resident memory of the whole run, as the kernel kept it.
func (s *servidor) picoTotal() int64 { return proc.Estado(s.cmd.Process.Pid, "VmHWM") * 1024 }

// bitacora keeps what a server logged.
type bitacora struct {
	mu    sync.Mutex
	b     bytes.Buffer
	total int64 // bytes written, kept or not
}

// escritos is how many bytes the server has logged since it started.
func (b *bitacora) escritos() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.total
}

func (b *bitacora) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.total += int64(len(p))
	if b.b.Len() < 4<<20 {
		b.b.Write(p)
	}
	return len(p), nil
}

// lineas returns the lines that contain texto.
func (b *bitacora) lineas(texto string) []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, l := range strings.Split(b.b.String(), "\n") {
		if strings.Contains(l, texto) {
			out = append(out, l)
		}
	}
	return out
}
