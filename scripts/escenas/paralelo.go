//go:build unix

package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// A scene mostly waits (a server's timeout, a Retry-After, a sleep 8), so several run at once, each
// in a child process of this program with a network namespace of its own: there the course's
// ports are free and no other scene, lab or engineer can take them. The parent prints each
// scene's lines in the scenes' order, exactly as a sequential run does.

// variableHija, in a child's environment, says what the child is for.
const variableHija = "ESCENAS_HIJA"

const (
	hijaProbar = "probar" // bring the loopback up and exit: can this machine give scenes a network?
	hijaEscena = "escena" // replay the scene named in the arguments
)

// Hija is the whole program in a child: with hijaEscena, `--bin CARPETA RUTA` replays one
// scene in the network namespace the parent made for it, with programas on puertos (the course's:
// ServidoresDelCurso), prints its lines as a sequential run would and exits with 0 when it went as
// in the lesson.
func Hija(ctx context.Context, modo string, args []string, salida io.Writer, programas map[string]Programa, puertos []int) int {
	if err := levantarLo(); err != nil {
		fmt.Fprintln(salida, "escenas:", err)
		return 2
	}
	if modo == hijaProbar {
		return 0
	}
	banderas := flag.NewFlagSet("escenas", flag.ContinueOnError)
	banderas.SetOutput(salida)
	bin := banderas.String("bin", "bin", "")
	if err := banderas.Parse(args); err != nil || banderas.NArg() != 1 {
		fmt.Fprintln(salida, "escenas: una hija reproduce una escena: --bin CARPETA RUTA")
		return 2
	}
	e, err := LeerEscena(banderas.Arg(0))
	if err != nil {
		fmt.Fprintln(salida, "escenas:", err)
		return 2
	}
	r := nuevoReproductor(*bin, false, nil, salida, false)
	r.Programas, r.Puertos = programas, puertos
	switch bien, saltada := informar(salida, e, r.Reproducir(ctx, e), false); {
	case bien:
		return 0
	case saltada:
		return salidaSaltada
	}
	return 1
}

// salidaSaltada is a child's exit code for a scene skipped for want of a program.
const salidaSaltada = 3

// hecho is what one child left: its lines and whether the scene went as in the lesson, or was
// skipped.
type hecho struct {
	salida        []byte
	bien, saltada bool
}

// reproducirEnParalelo replays escenas, at most n at once and starting one at most every espaciado,
// each in a child with a network of its own, and prints their lines in order as each one and those
// before it are done. It returns how many went as in the lesson and how many were skipped; after
// Ctrl+C it prints the scenes that ran and stops.
func reproducirEnParalelo(ctx context.Context, yo, bin string, escenas []*Escena, n int, espaciado time.Duration, salida io.Writer) (bien, saltadas int) {
	hechos := make([]chan hecho, len(escenas))
	for i := range hechos {
		hechos[i] = make(chan hecho, 1)
	}
	turnos := make(chan struct{}, n)
	go func() {
		// Starting a scene is most of what it costs (two or three servers and their runtimes): spaced
		// out, the starts do not pile up on a loaded machine into the timing of the scenes running.
		proxima := time.NewTimer(0)
		defer proxima.Stop()
		for i, e := range escenas {
			select {
			case <-proxima.C:
			case <-ctx.Done():
			}
			select {
			case turnos <- struct{}{}:
			case <-ctx.Done():
			}
			if ctx.Err() != nil {
				for _, h := range hechos[i:] {
					close(h) // never started
				}
				return
			}
			proxima.Reset(espaciado)
			go func() {
				defer func() { <-turnos }()
				hechos[i] <- reproducirEnHija(ctx, yo, bin, e)
			}()
		}
	}()
	for _, h := range hechos {
		r, empezo := <-h
		if !empezo {
			break
		}
		salida.Write(r.salida)
		switch {
		case r.bien:
			bien++
		case r.saltada:
			saltadas++
		}
	}
	return bien, saltadas
}

// reproducirEnHija runs one scene in a child of this program (yo) in a new network namespace.
func reproducirEnHija(ctx context.Context, yo, bin string, e *Escena) hecho {
	ruta, err := filepath.Abs(e.Ruta)
	if err != nil {
		return hecho{salida: fmt.Appendf(nil, "ERROR  %s: %v\n", e.Nombre, err)}
	}
	cmd := exec.Command(yo, "--bin", bin, ruta)
	cmd.Env = append(os.Environ(), variableHija+"="+hijaEscena)
	enRedPropia(cmd)
	var b bytes.Buffer
	cmd.Stdout, cmd.Stderr = &b, &b
	if err := cmd.Start(); err != nil {
		return hecho{salida: fmt.Appendf(nil, "ERROR  %s: no pude arrancar su proceso: %v\n", e.Nombre, err)}
	}
	// Ctrl+C reaches the child from the terminal; a SIGTERM to the parent alone is passed on, and
	// the child stops its servers and reports the scene as interrupted either way.
	termino := make(chan error, 1)
	go func() { termino <- cmd.Wait() }()
	select {
	case err = <-termino:
	case <-ctx.Done():
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case err = <-termino:
		case <-time.After(15 * time.Second):
			_ = cmd.Process.Kill()
			err = <-termino
		}
	}
	var salida *exec.ExitError
	if err != nil && !errors.As(err, &salida) || b.Len() == 0 {
		return hecho{salida: fmt.Appendf(b.Bytes(), "ERROR  %s: su proceso terminó sin informar (%v)\n", e.Nombre, err)}
	}
	if !strings.HasSuffix(b.String(), "\n") {
		b.WriteByte('\n')
	}
	return hecho{salida: b.Bytes(), bien: err == nil, saltada: errors.As(err, &salida) && salida.ExitCode() == salidaSaltada}
}
