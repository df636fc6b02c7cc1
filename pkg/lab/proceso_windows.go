package lab

import (
	"os"
	"os/exec"
	"syscall"
)

// Process creation flags (winbase.h).
const (
	detachedProcess       = 0x00000008
	createNewProcessGroup = 0x00000200
)

// separar makes cmd a server that outlives the controller and its console: no console of its own
// and a group of its own, so Ctrl+C in the console that started it does not reach it.
func separar(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: detachedProcess | createNewProcessGroup, HideWindow: true}
}

// agrupar leaves a foreground server on the controller's console: Windows delivers Ctrl+C to every
// process of the console, the servers included.
func agrupar(*exec.Cmd) {}

// pedirQueTermine stops the server. Windows cannot send Ctrl+C to a process without a console, so
// this is TerminateProcess: the servers keep nothing on disk, and the requests in flight are cut.
func pedirQueTermine(pid int) error { return matar(pid) }

func matar(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	defer p.Release()
	return p.Kill()
}

// existe says whether a process with this pid is still running.
func existe(pid int) bool {
	h, err := syscall.OpenProcess(syscall.SYNCHRONIZE, false, uint32(pid))
	if err != nil {
		return false
	}
	defer syscall.CloseHandle(h)
	r, _ := syscall.WaitForSingleObject(h, 0)
	return r == syscall.WAIT_TIMEOUT
}

// reenviar does nothing: the console already gave each Ctrl+C to every server.
func reenviar(*os.Process, os.Signal) error { return nil }
