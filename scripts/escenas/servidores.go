//go:build unix

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	"cursohttp/pkg/curso"
	"cursohttp/pkg/grabacion"
)

// Programa says how to start one of the lesson's servers.
type Programa struct {
	Binario string   // file in the bin folder
	Args    []string // before the transcript's own arguments
	Puerto  int
	// PorLeccion: it has one program per lesson, chosen with --leccion (a scene's "# lección").
	PorLeccion bool
}

// ServidoresDelCurso are the programs a scene may start, on the course's ports.
func ServidoresDelCurso() map[string]Programa {
	return map[string]Programa{
		"revisor":     {Binario: "revisor", Puerto: curso.PuertoRevisor, PorLeccion: true},
		"laboratorio": {Binario: "laboratorio", Puerto: curso.PuertoLaboratorio, PorLeccion: true},
		"pasarela":    {Binario: "pasarela", Puerto: curso.PuertoPasarela},
		// fig06_04.ts, the fake gateway, replaces the pasarela on 18082 (L6 §2.8).
		"mentira": {Binario: "laboratorio", Args: []string{"mentira"}, Puerto: curso.PuertoPasarela},
		// The hostile server fig07_04.ts opens on 18083 (L7 R-11).
		"hostil": {Binario: "laboratorio", Args: []string{"hostil"}, Puerto: curso.PuertoHostil},
	}
}

// Terminal is what a server printed, across every start in one scene, like
// the lesson's terminal window. Safe for the server's two streams at once.
type Terminal struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (t *Terminal) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.Write(p)
}

// Texto returns everything printed so far.
func (t *Terminal) Texto() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.String()
}

// proceso is one running server.
type proceso struct {
	cmd     *exec.Cmd
	puerto  int
	termino chan struct{} // closed when the process has exited
}

// Flota holds the servers of one scene.
type Flota struct {
	Bin        string
	Dir        string
	Programas  map[string]Programa
	Entorno    []string
	Terminales map[string]*Terminal
	// Leccion, if set, starts every PorLeccion program with --leccion Leccion.
	Leccion string
	// Grabaciones, if set, is a folder where each start of the revisor records its exchanges
	// (pkg/grabacion's hidden hook), to be checked against the OpenAPI document.
	Grabaciones string
	grabadas    []Grabada
	vivos       map[string]*proceso
	ultimos     map[string][]string // the transcript's arguments of each server's last start
}

// NuevaFlota prepares an empty fleet.
func NuevaFlota(bin, dir string, programas map[string]Programa, entorno []string) *Flota {
	return &Flota{Bin: bin, Dir: dir, Programas: programas, Entorno: entorno,
		Terminales: map[string]*Terminal{}, vivos: map[string]*proceso{}, ultimos: map[string][]string{}}
}

// PuertoOcupado tells whether something accepts connections on 127.0.0.1:puerto.
func PuertoOcupado(puerto int) bool {
	c, err := net.DialTimeout("tcp", net.JoinHostPort(curso.Host, strconv.Itoa(puerto)), 200*time.Millisecond)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// ErrPuertoOcupado means a course port was taken by someone else.
var ErrPuertoOcupado = errors.New("puerto ocupado")

func puertoOcupadoError(puerto int) error {
	return fmt.Errorf("%w: el puerto %d ya responde antes de arrancar la escena; "+
		"puede que otra copia de las escenas siga corriendo, o un servidor del curso arrancado a mano (make lab-down)",
		ErrPuertoOcupado, puerto)
}

// Linea is the command line Arrancar runs for nombre with the transcript's args.
func (f *Flota) Linea(nombre string, args []string) []string {
	prog := f.Programas[nombre]
	linea := append([]string{prog.Binario}, prog.Args...)
	if f.Leccion != "" && prog.PorLeccion {
		linea = append(linea, "--leccion", f.Leccion)
	}
	return append(linea, args...)
}

// Grabada is one start of the revisor whose exchanges were recorded.
type Grabada struct {
	Archivo string
	Linea   []string // its command line
}

// Grabadas are the recorded starts of the revisor so far.
func (f *Flota) Grabadas() []Grabada { return f.grabadas }

// Ultimos are the transcript's arguments of nombre's last start, for a restart.
func (f *Flota) Ultimos(nombre string) []string { return f.ultimos[nombre] }

// Arrancar starts a server and waits until its port answers.
func (f *Flota) Arrancar(ctx context.Context, nombre string, args, env []string) error {
	prog, ok := f.Programas[nombre]
	if !ok {
		return fmt.Errorf("no conozco el servidor «%s»", nombre)
	}
	if _, vivo := f.vivos[nombre]; vivo {
		return fmt.Errorf("«%s» ya está arrancado en esta escena", nombre)
	}
	for otro, p := range f.vivos {
		if p.puerto == prog.Puerto {
			return fmt.Errorf("«%s» ya ocupa el puerto %d: la escena debe detenerlo antes de arrancar «%s»", otro, p.puerto, nombre)
		}
	}
	if PuertoOcupado(prog.Puerto) {
		return puertoOcupadoError(prog.Puerto)
	}
	binario := filepath.Join(f.Bin, prog.Binario)
	if _, err := os.Stat(binario); err != nil {
		return fmt.Errorf("falta %s (¿make build?)", binario)
	}
	t := f.Terminales[nombre]
	if t == nil {
		t = &Terminal{}
		f.Terminales[nombre] = t
	}
	f.ultimos[nombre] = args
	cmd := exec.Command(binario, f.Linea(nombre, args)[1:]...)
	cmd.Dir = f.Dir
	cmd.Env = append(append([]string(nil), f.Entorno...), env...)
	if prog.Binario == "revisor" && f.Grabaciones != "" {
		g := Grabada{Archivo: filepath.Join(f.Grabaciones, fmt.Sprintf("revisor-%d.jsonl", len(f.grabadas)+1)), Linea: f.Linea(nombre, args)}
		f.grabadas = append(f.grabadas, g)
		cmd.Env = append(cmd.Env, grabacion.Variable+"="+g.Archivo)
	}
	cmd.Stdout = t
	cmd.Stderr = t
	// Its own process group, so stopping it also stops anything it started.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("no pude arrancar %s: %w", binario, err)
	}
	p := &proceso{cmd: cmd, puerto: prog.Puerto, termino: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		close(p.termino)
	}()
	f.vivos[nombre] = p
	limite := time.NewTimer(10 * time.Second)
	defer limite.Stop()
	for {
		if PuertoOcupado(prog.Puerto) {
			return nil
		}
		select {
		case <-p.termino:
			delete(f.vivos, nombre)
			return fmt.Errorf("%s terminó al arrancar: %s", nombre, ultimaLinea(t.Texto()))
		case <-limite.C:
			f.Detener(nombre)
			return fmt.Errorf("%s no abrió el puerto %d en 10 s", nombre, prog.Puerto)
		case <-ctx.Done():
			f.Detener(nombre)
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// Detener stops a server like Ctrl+C would (SIGTERM, then SIGKILL after 3 s)
// and waits until its port no longer answers.
func (f *Flota) Detener(nombre string) error {
	p, ok := f.vivos[nombre]
	if !ok {
		return fmt.Errorf("«%s» no está arrancado", nombre)
	}
	delete(f.vivos, nombre)
	pgid := p.cmd.Process.Pid
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	select {
	case <-p.termino:
	case <-time.After(3 * time.Second):
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		<-p.termino
	}
	// Anything left in its group (it should be nothing) goes too.
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	for i := 0; i < 100 && PuertoOcupado(p.puerto); i++ {
		time.Sleep(20 * time.Millisecond)
	}
	if PuertoOcupado(p.puerto) {
		return fmt.Errorf("el puerto %d sigue respondiendo después de detener %s", p.puerto, nombre)
	}
	return nil
}

// DetenerTodos stops every server still running, in a fixed order.
func (f *Flota) DetenerTodos() error {
	var errs []error
	for _, nombre := range []string{"pasarela", "mentira", "hostil", "revisor", "laboratorio"} {
		if _, ok := f.vivos[nombre]; ok {
			errs = append(errs, f.Detener(nombre))
		}
	}
	for nombre := range f.vivos {
		errs = append(errs, f.Detener(nombre))
	}
	return errors.Join(errs...)
}

func ultimaLinea(s string) string {
	s = string(bytes.TrimSpace([]byte(s)))
	if i := bytes.LastIndexByte([]byte(s), '\n'); i >= 0 {
		s = s[i+1:]
	}
	if s == "" {
		return "(no escribió nada)"
	}
	return s
}
