package control

import (
	"context"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A server that has ended but that its parent has not reaped yet (a zombie: its parent here is this
// test, which waits for it only at the end) is seen as ended: «lab detener» does not wait for
// the reaping of a process that is not its child.
func TestEsperarProcesoNoEsperaAlQueLoRecoja(t *testing.T) {
	t.Parallel()
	if binarios == "" {
		t.Skip("arranca un programa construido (sin -short)")
	}
	cmd := exec.Command(filepath.Join(binarios, "laboratorio"), "--puerto", "0")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	pid := cmd.Process.Pid
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if !esperarProceso(context.Background(), pid, 10*time.Second) {
		t.Fatal("esperarProceso no vio terminar un proceso muerto con SIGKILL")
	}
	if !existe(pid) {
		t.Fatal("el proceso ya no existe: la prueba quería uno sin recoger")
	}
}
