//go:build unix

package pgefimero

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// vigilante runs the server under a shell that waits on its standard input, a pipe from this
// process: when this process closes it, or dies and the kernel closes it, the shell stops the
// server at once (SIGQUIT, PostgreSQL's immediate shutdown). A line INT asks instead for the fast
// shutdown (SIGINT: clients cut off, every commit kept), which Parar uses.
const vigilante = `"$0" "$@" & pid=$!
read senal
kill -"${senal:-QUIT}" $pid 2>/dev/null
wait $pid`

func (s *Servidor) arrancar(ctx context.Context, bin string) error {
	cred, err := quien()
	if err != nil {
		return err
	}
	if cred != nil {
		// The server refuses to run as root: the folder becomes its user's.
		if err := os.Chown(s.dir, int(cred.Uid), int(cred.Gid)); err != nil {
			return err
		}
		if err := os.Chmod(s.dir, 0o700); err != nil {
			return err
		}
	}
	datos := filepath.Join(s.dir, "datos")
	if _, err := os.Stat(filepath.Join(datos, "PG_VERSION")); err != nil {
		initdb := exec.CommandContext(ctx, filepath.Join(bin, "initdb"), "-D", datos, "-A", "trust", "-U", "postgres",
			"-E", "UTF8", "--locale=C", "--no-sync")
		initdb.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		if salida, err := initdb.CombinedOutput(); err != nil {
			return fmt.Errorf("initdb: %v: %s", err, ultimaLinea(salida))
		}
	}
	servidor := exec.Command("/bin/sh", append([]string{"-c", vigilante, filepath.Join(bin, "postgres")}, opciones(s.dir)...)...)
	servidor.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Setpgid: true}
	entrada, err := servidor.StdinPipe()
	if err != nil {
		return err
	}
	bitacora := &registro{}
	servidor.Stdout, servidor.Stderr = bitacora, bitacora
	if err := servidor.Start(); err != nil {
		return err
	}
	termino := make(chan struct{})
	go func() { servidor.Wait(); close(termino) }()
	var una sync.Once
	esperar := func() {
		select {
		case <-termino:
		case <-time.After(10 * time.Second):
			syscall.Kill(-servidor.Process.Pid, syscall.SIGKILL)
			<-termino
		}
	}
	s.detener = func() error {
		una.Do(func() { entrada.Close() })
		esperar()
		return nil
	}
	s.parar = func() error {
		una.Do(func() {
			io.WriteString(entrada, "INT\n")
			entrada.Close()
		})
		esperar()
		return nil
	}
	// 15 s unless the caller's context says how long: a loaded machine may need longer.
	espera := 15 * time.Second
	if d, ok := ctx.Deadline(); ok {
		espera = time.Until(d)
	}
	limite := time.Now().Add(espera)
	for {
		c, err := pgx.Connect(ctx, s.URL("postgres"))
		if err == nil {
			c.Close(ctx)
			return nil
		}
		select {
		case <-termino:
			return fmt.Errorf("postgres terminó al arrancar: %s", ultimaLinea(bitacora.bytes()))
		default:
		}
		if time.Now().After(limite) || ctx.Err() != nil {
			s.detener()
			return fmt.Errorf("postgres no aceptó conexiones en %v: %s", espera.Round(time.Second), ultimaLinea(bitacora.bytes()))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// quien is the user the server runs as: this one, or, for root (whom PostgreSQL refuses), the
// system's postgres user, else nobody.
func quien() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	for _, nombre := range []string{"postgres", "nobody"} {
		u, err := user.Lookup(nombre)
		if err != nil {
			continue
		}
		uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
		gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
		if err1 == nil && err2 == nil {
			return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
		}
	}
	return nil, errors.New("como root, PostgreSQL necesita otro usuario (postgres o nobody) y no hay ninguno")
}

// carpetaTemporal is where a new cluster's folder goes: the usual temporary folder, unless the
// server will run as another user (we are root) who cannot reach it, as with a private TMPDIR
// made by mktemp -d; then /tmp, which every user can cross.
func carpetaTemporal() string {
	tmp := os.TempDir()
	if os.Geteuid() != 0 || atravesable(tmp) {
		return tmp
	}
	return "/tmp"
}

// atravesable reports whether any user can reach dir: every folder on its path lets others in.
func atravesable(dir string) bool {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		info, err := os.Stat(d)
		if err != nil || info.Mode().Perm()&0o001 == 0 {
			return false
		}
		if d == filepath.Dir(d) {
			return true
		}
	}
}

// registro keeps the server's last output, for a failure message.
type registro struct {
	mu sync.Mutex
	b  []byte
}

func (r *registro) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.b = append(r.b, p...)
	if len(r.b) > 16<<10 {
		r.b = append(r.b[:0:0], r.b[len(r.b)-16<<10:]...)
	}
	return len(p), nil
}

func (r *registro) bytes() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return bytes.Clone(r.b)
}

func ultimaLinea(b []byte) string {
	lineas := strings.Split(strings.TrimSpace(string(b)), "\n")
	return strings.TrimSpace(lineas[len(lineas)-1])
}
