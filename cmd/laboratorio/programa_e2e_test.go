//go:build unix

package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// contar is how many of lineas start with prefijo.
func contar(lineas []string, prefijo string) int {
	n := 0
	for _, l := range lineas {
		if strings.HasPrefix(l, prefijo) {
			n++
		}
	}
	return n
}

// programaEnMarcha is one of the lab's programs as a process (the class lab, «revisor clase»), its
// output (stdout and stderr: the start-up lines and what it says) read line by line; each new line
// wakes whoever waits for one.
type programaEnMarcha struct {
	cmd   *exec.Cmd
	mu    sync.Mutex
	todas []string
	nueva chan struct{} // closed at the next line (or the end), then replaced
	fin   chan struct{} // closed when the output ended
}

// arrancarPrograma starts bin with args in carpeta, with an environment without tokens but extra,
// and waits for a line that starts with listo.
func arrancarPrograma(ctx context.Context, t *testing.T, bin, carpeta string, extra []string, listo string, args ...string) *programaEnMarcha {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = carpeta
	for _, v := range os.Environ() {
		if !strings.HasPrefix(v, "CURSOHTTP_TOKEN") {
			cmd.Env = append(cmd.Env, v)
		}
	}
	cmd.Env = append(cmd.Env, extra...)
	p := seguirPrograma(t, cmd)
	if err := p.esperar(ctx, func(l []string) bool { return contar(l, listo) > 0 }); err != nil {
		t.Fatalf("%s no arrancó: %v\n%s", filepath.Base(bin), err, p.todo())
	}
	return p
}

// seguirPrograma starts cmd with its output (stdout and stderr) read line by line; a process still
// running when t ends is killed.
func seguirPrograma(t *testing.T, cmd *exec.Cmd) *programaEnMarcha {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	p := &programaEnMarcha{cmd: cmd, nueva: make(chan struct{}), fin: make(chan struct{})}
	go func() {
		defer r.Close()
		s := bufio.NewScanner(r)
		for s.Scan() {
			p.mu.Lock()
			p.todas = append(p.todas, s.Text())
			close(p.nueva)
			p.nueva = make(chan struct{})
			p.mu.Unlock()
		}
		close(p.fin)
	}()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	return p
}

func (p *programaEnMarcha) lineas() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.todas)
}

func (p *programaEnMarcha) todo() string { return strings.Join(p.lineas(), "\n") }

// esperar waits until cond holds over the lines so far, woken by each new line.
func (p *programaEnMarcha) esperar(ctx context.Context, cond func([]string) bool) error {
	for {
		p.mu.Lock()
		ok, nueva := cond(p.todas), p.nueva
		p.mu.Unlock()
		if ok {
			return nil
		}
		select {
		case <-nueva:
		case <-p.fin:
			if cond(p.lineas()) {
				return nil
			}
			return fmt.Errorf("el programa terminó")
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
