//go:build unix

package control

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// separar makes cmd a server that outlives the controller and the terminal: a session of its own,
// so neither Ctrl+C in that terminal nor its closing (SIGHUP) reaches it.
func separar(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }

// agrupar puts a foreground server in a process group of its own: Ctrl+C reaches the controller
// alone, which passes each signal on once (see reenviar), so the first one is still a graceful stop.
func agrupar(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// pedirQueTermine asks the server with this pid to stop as Ctrl+C would (SIGTERM): it lets the
// requests in flight finish.
func pedirQueTermine(pid int) error { return syscall.Kill(pid, syscall.SIGTERM) }

// matar stops it at once.
func matar(pid int) error { return syscall.Kill(pid, syscall.SIGKILL) }

// existe says whether a process with this pid exists (EPERM: it does, but is someone else's).
func existe(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// reenviar passes a signal the controller received on to a foreground server.
func reenviar(p *os.Process, s os.Signal) error { return p.Signal(s) }
