//go:build unix

package examen

import (
	"os/exec"
	"syscall"
)

// agrupar gives the client a session of its own, and so a process group: stopping the group stops
// what it started (a shell script's children, npx's node), and on Linux the sweep finds by the
// session whatever left the group without leaving the session (a double fork, setpgid).
func agrupar(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }

// matarGrupo stops the client's whole group at once.
func matarGrupo(cmd *exec.Cmd) error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
