package proc

import (
	"os"
	"runtime"
	"testing"
)

// The test process reads itself: it has memory, threads and at least its three standard streams.
func TestEsteProceso(t *testing.T) {
	if runtime.GOOS != "linux" {
		if Estado(os.Getpid(), "VmRSS") != -1 || Descriptores(os.Getpid()) != -1 {
			t.Fatal("sin /proc las cifras son -1")
		}
		return
	}
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	antes := Descriptores(os.Getpid())
	f.Close()
	if despues := Descriptores(os.Getpid()); antes < 4 || despues != antes-1 {
		t.Errorf("descriptores con un archivo abierto %d, tras cerrarlo %d", antes, despues)
	}
	if rss := Estado(os.Getpid(), "VmRSS"); rss <= 0 {
		t.Errorf("VmRSS = %d kB", rss)
	}
	if hilos := Estado(os.Getpid(), "Threads"); hilos < 1 {
		t.Errorf("Threads = %d", hilos)
	}
	if n := Estado(os.Getpid(), "NoExiste"); n != -1 {
		t.Errorf("un campo que no existe da %d", n)
	}
}
