//go:build unix

package main

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"cursohttp/pkg/pgefimero"
)

// make postgres, stopped with Ctrl+C, ends 0 with the program's own lines: go run used to end 1
// after the signal whatever the program did, and make then added «make: *** [Makefile:…:
// postgres] Error 1» (issue 42).
func TestCtrlCEnMakePostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("compila el programa y arranca un PostgreSQL (sin -short)")
	}
	if _, err := pgefimero.Binarios(); err != nil {
		if os.Getenv("CURSOHTTP_CI") == "1" {
			t.Fatal(err)
		}
		t.Skip("sin PostgreSQL: " + err.Error())
	}
	mk, err := exec.LookPath("make")
	if err != nil {
		t.Skip("make no está instalado")
	}
	cmd := exec.Command(mk, "--no-print-directory", "postgres", "BIN="+t.TempDir())
	cmd.Dir = "../.."
	lector, escritor := io.Pipe()
	cmd.Stdout, cmd.Stderr = escritor, escritor
	// A group of its own, as a terminal's foreground job: Ctrl+C reaches make and everything under it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	termino := make(chan error, 1)
	go func() { termino <- cmd.Wait(); escritor.Close() }()
	listo := make(chan struct{})
	var lineas []string
	leido := make(chan struct{})
	go func() {
		defer close(leido)
		sc := bufio.NewScanner(lector)
		for sc.Scan() {
			lineas = append(lineas, sc.Text())
			if sc.Text() == "Ctrl+C lo detiene." {
				close(listo)
			}
		}
	}()
	// Building the program and initdb can take minutes on a loaded machine.
	select {
	case <-listo:
	case err := <-termino:
		<-leido
		t.Fatalf("make postgres terminó antes de arrancar (%v):\n%s", err, strings.Join(lineas, "\n"))
	case <-time.After(3 * time.Minute):
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		t.Fatal("make postgres no dijo «Ctrl+C lo detiene.» en 3 minutos")
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
	err = <-termino
	<-leido
	salida := strings.Join(lineas, "\n")
	// make itself dies of the SIGINT it got (a terminal shows ^C and nothing else), or ends 0.
	var salio *exec.ExitError
	porCtrlC := errors.As(err, &salio) && salio.Sys().(syscall.WaitStatus).Signal() == syscall.SIGINT
	if (err != nil && !porCtrlC) || strings.Contains(salida, "make:") || strings.Contains(salida, "exit status") {
		t.Errorf("tras Ctrl+C: %v\n%s", err, salida)
	}
}
