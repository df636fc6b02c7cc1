//go:build unix

package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Consola is the student's one terminal for a whole scene: a single bash runs every `$ ` line in
// turn, so whatever a line leaves behind is there for the next, as in the lessons' terminal: shell
// variables (ETAG=…), functions (docs/comandos.md's esperar_puerto), and programs started in the
// background with `&` (`laboratorio mentira --callado mudo & MUDO=$!`), whose output goes on
// appearing among the next commands' lines and which a later `kill $MUDO; wait $MUDO` stops.
// What is still running when the scene ends is stopped then (Cerrar).
type Consola struct {
	archivos string // a folder of its own, outside the scene's: each line's script
	cmd      *exec.Cmd
	entrada  io.WriteCloser

	mu      sync.Mutex
	texto   []byte        // everything the terminal has shown
	cambio  chan struct{} // a token when texto grows, EOF comes or bash ends
	leida   bool          // the pipe reached EOF: nobody holds the terminal any more
	termino chan struct{} // closed when bash has exited

	pasos int // lines typed so far
	desde int // where in texto the next line's output starts
}

// finDePaso is what the console prints after each line: \x1e, the line's number, its exit code,
// \x1e. A program's output has no \x1e (the record separator of ASCII, never text).
var finDePaso = regexp.MustCompile("\x1e([0-9]+) ([0-9]+)\x1e")

// AbrirConsola starts the terminal in dir with the environment entorno.
func AbrirConsola(dir string, entorno []string) (*Consola, error) {
	archivos, err := os.MkdirTemp("", "escena-consola-")
	if err != nil {
		return nil, err
	}
	lector, escritor, err := os.Pipe()
	if err != nil {
		os.RemoveAll(archivos)
		return nil, err
	}
	cmd := exec.Command("bash", "--noprofile", "--norc")
	cmd.Dir = dir
	cmd.Env = entorno
	// Both streams to one pipe, as a terminal shows them; a program started in the background
	// keeps writing there after its line has ended.
	cmd.Stdout, cmd.Stderr = escritor, escritor
	entrada, err := cmd.StdinPipe()
	if err != nil {
		lector.Close()
		escritor.Close()
		os.RemoveAll(archivos)
		return nil, err
	}
	// A process group of its own: the line's programs and its background jobs are all in it, so
	// stopping the group stops everything the scene typed, and nothing of the replayer's.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		lector.Close()
		escritor.Close()
		os.RemoveAll(archivos)
		return nil, fmt.Errorf("no pude arrancar bash: %w", err)
	}
	escritor.Close()
	c := &Consola{archivos: archivos, cmd: cmd, entrada: entrada, cambio: make(chan struct{}, 1), termino: make(chan struct{})}
	go func() {
		buf := make([]byte, 32*1024)
		for {
			n, err := lector.Read(buf)
			c.mu.Lock()
			c.texto = append(c.texto, buf[:n]...)
			if err != nil {
				c.leida = true
			}
			c.mu.Unlock()
			c.avisar()
			if err != nil {
				lector.Close()
				return
			}
		}
	}()
	go func() {
		_ = cmd.Wait()
		close(c.termino)
		c.avisar()
	}()
	return c, nil
}

func (c *Consola) avisar() {
	select {
	case c.cambio <- struct{}{}:
	default:
	}
}

// Viva says whether the terminal can take another line (a line that ran `exit` closed it).
func (c *Consola) Viva() bool {
	select {
	case <-c.termino:
		return false
	default:
		return true
	}
}

// Orden is one `$ ` line as the console types it.
type Orden struct {
	Comando string
	// Entorno is NAME=value exported before the line (the scene's «# env», in force from then on,
	// as an export in the student's shell).
	Entorno []string
	// Primero, if set, is a folder first on PATH for this line only, and Evento the value of
	// ESCENA_EVENTO for it («# espera»'s sleep).
	Primero, Evento string
}

// Correr types one line and waits until it ends: what the terminal showed meanwhile (the line's
// output, and anything a program left in the background wrote in that time) and its exit code.
// eco, if set, gets the output as it comes. A line that has not ended after limite, or when ctx
// ends, stops the terminal and everything in it.
func (c *Consola) Correr(ctx context.Context, l Orden, eco io.Writer, limite time.Duration) (string, int, error) {
	c.pasos++
	n := c.pasos
	var antes, despues strings.Builder
	for _, kv := range l.Entorno {
		nombre, valor, _ := strings.Cut(kv, "=")
		fmt.Fprintf(&antes, "export %s=%s\n", nombre, citar(valor))
	}
	if l.Primero != "" {
		fmt.Fprintf(&antes, "__escena_path=$PATH; PATH=%s:$PATH; export ESCENA_EVENTO=%s\n", citar(l.Primero), citar(l.Evento))
		despues.WriteString("PATH=$__escena_path; unset __escena_path ESCENA_EVENTO\n")
	}
	guion := func(nombre, texto string) (string, error) {
		ruta := filepath.Join(c.archivos, fmt.Sprintf("%s-%d", nombre, n))
		return ruta, os.WriteFile(ruta, []byte(texto), 0o600)
	}
	rAntes, err := guion("antes", antes.String())
	if err != nil {
		return "", -1, err
	}
	rPaso, err := guion("paso", l.Comando+"\n")
	if err != nil {
		return "", -1, err
	}
	rDespues, err := guion("despues", despues.String())
	if err != nil {
		return "", -1, err
	}
	// The line reads nothing of the console's own input: that is where the next lines come from.
	orden := fmt.Sprintf(". %s; . %s </dev/null; __escena_rc=$?; . %s; printf '\\036%d %%d\\036' \"$__escena_rc\"\n",
		citar(rAntes), citar(rPaso), citar(rDespues), n)
	if _, err := io.WriteString(c.entrada, orden); err != nil {
		return "", -1, fmt.Errorf("la terminal de la escena se cerró: %w", err)
	}
	ctx, cancelar := context.WithTimeout(ctx, limite)
	defer cancelar()
	mostrado := c.desde
	for {
		c.mu.Lock()
		texto := c.texto
		leida := c.leida
		c.mu.Unlock()
		if m := finDePaso.FindSubmatchIndex(texto[c.desde:]); m != nil {
			fin := c.desde + m[0]
			if num, _ := strconv.Atoi(string(texto[c.desde+m[2] : c.desde+m[3]])); num == n {
				codigo, _ := strconv.Atoi(string(texto[c.desde+m[4] : c.desde+m[5]]))
				if eco != nil && mostrado < fin {
					eco.Write(texto[mostrado:fin])
				}
				salida := string(texto[c.desde:fin])
				c.desde += m[1]
				return salida, codigo, nil
			}
		}
		if eco != nil {
			// Everything but what may be the start of the line's end mark.
			hasta := len(texto)
			if i := bytes.IndexByte(texto[mostrado:], 0x1e); i >= 0 {
				hasta = mostrado + i
			}
			if mostrado < hasta {
				eco.Write(texto[mostrado:hasta])
				mostrado = hasta
			}
		}
		if !c.Viva() && (leida || c.esperarLectura()) {
			// The line closed the terminal (exit): its code is bash's.
			c.mu.Lock()
			salida := string(c.texto[c.desde:])
			c.desde = len(c.texto)
			c.mu.Unlock()
			return salida, c.cmd.ProcessState.ExitCode(), nil
		}
		select {
		case <-c.cambio:
		case <-ctx.Done():
			c.matar()
			if ctx.Err() == context.DeadlineExceeded {
				return string(texto[c.desde:]), -1, fmt.Errorf("el comando no terminó en %s", limite)
			}
			return string(texto[c.desde:]), -1, ctx.Err()
		}
	}
}

// esperarLectura gives a closed terminal's last bytes a moment to arrive: a program left in the
// background may still hold the pipe, and then they are all there already.
func (c *Consola) esperarLectura() bool {
	limite := time.After(200 * time.Millisecond)
	for {
		c.mu.Lock()
		leida := c.leida
		c.mu.Unlock()
		if leida {
			return true
		}
		select {
		case <-c.cambio:
		case <-limite:
			return true
		}
	}
}

// Cerrar ends the scene's terminal as closing its window would: the programs it left in the
// background are asked to stop (SIGTERM) and waited for, 3 s at most, and then anything left in
// its process group is killed.
func (c *Consola) Cerrar() {
	if c.Viva() {
		io.WriteString(c.entrada, "for __p in $(jobs -p); do kill \"$__p\" 2>/dev/null; done; wait\n")
	}
	c.entrada.Close()
	select {
	case <-c.termino:
	case <-time.After(3 * time.Second):
	}
	c.matar()
	os.RemoveAll(c.archivos)
}

// matar kills everything in the terminal's process group and waits until bash is gone and the
// group is empty (its last processes reaped), a second at most for the latter.
func (c *Consola) matar() {
	pgid := c.cmd.Process.Pid
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	<-c.termino
	for i := 0; i < 100 && syscall.Kill(-pgid, 0) == nil; i++ {
		time.Sleep(10 * time.Millisecond)
	}
}

// citar is s as one word of bash, in single quotes.
func citar(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
