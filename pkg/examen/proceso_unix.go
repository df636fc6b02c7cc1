//go:build unix

package examen

import (
	"os/exec"
	"syscall"
)

// agrupar gives the client a process group of its own, so that stopping it stops what it started
// (a shell script's children, npx's node).
func agrupar(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// matarGrupo stops the client's whole group at once.
func matarGrupo(cmd *exec.Cmd) error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
