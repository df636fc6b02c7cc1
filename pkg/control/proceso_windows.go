package control

import (
	"context"
	"os"
	"os/exec"
	"syscall"
	"time"
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

// esperarProceso waits for a process that is not this controller's child to end: its handle is
// signalled the moment it ends.
func esperarProceso(ctx context.Context, pid int, espera time.Duration) bool {
	h, err := syscall.OpenProcess(syscall.SYNCHRONIZE, false, uint32(pid))
	if err != nil {
		return true // no such process any more
	}
	defer syscall.CloseHandle(h)
	limite := time.Now().Add(espera)
	for {
		// In slices, so a cancelled context is noticed; the process's end ends the wait at once.
		resto := min(time.Until(limite), 200*time.Millisecond)
		if resto <= 0 || ctx.Err() != nil {
			return false
		}
		r, err := syscall.WaitForSingleObject(h, uint32(resto.Milliseconds())+1)
		if err != nil {
			return esperarSondeando(ctx, pid, time.Until(limite))
		}
		if r == syscall.WAIT_OBJECT_0 {
			return true
		}
	}
}
