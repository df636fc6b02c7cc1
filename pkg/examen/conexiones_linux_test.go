package examen

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"cursohttp/internal/proc"
	"cursohttp/internal/prueba"
	"cursohttp/pkg/topes"
)

// 11: a client that opens thousands of connections to the grader's gateway and sends nothing
// holds the grader at the gateway's cap (1,024), not at one descriptor per connection: the rest
// wait in the kernel's queue. 2,000 connections, not the 10,000: twice the cap already
// tells the two apart, and they all fit in the kernel's queue (somaxconn, 4,096 by default) without
// waiting for the gateway to close quiet ones. The grading still ends with a report. Not
// parallel: other tests' connections would count as the grader's.
func TestMilesDeConexionesNoLlenanAlCalificador(t *testing.T) {
	const n, holgura = 2000, 64
	var rl unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &rl); err != nil {
		t.Fatal(err)
	}
	// The client (a child) and, without the cap, the grader need a descriptor per connection.
	if necesarios := uint64(2*n + 1024); rl.Cur < necesarios {
		rl.Cur = min(rl.Max, necesarios)
		if unix.Setrlimit(unix.RLIMIT_NOFILE, &rl) != nil || rl.Cur < necesarios {
			t.Skipf("el límite de descriptores (ulimit -n %d, duro %d) no alcanza para %d conexiones", rl.Cur, rl.Max, n)
		}
	}
	goBin := clienteGo(t)
	dir := t.TempDir()
	abiertas, seguir := filepath.Join(dir, "abiertas"), filepath.Join(dir, "seguir")
	p := prueba.PuertosLibres(t, 2)
	base := proc.Descriptores(os.Getpid())

	var inf *Informe
	var err error
	hecho := make(chan struct{})
	go func() {
		defer close(hecho)
		inf, err = Correr(context.Background(), Opciones{Orden: []string{goBin, "--defecto", "conexiones", "--conexiones", strconv.Itoa(n),
			"--abiertas", abiertas, "--seguir", seguir}, Semilla: 11, Escenarios: soloEscenarios("sin-falla"), puertos: &[2]int{p[0], p[1]}})
	}()
	soltar := func() {
		os.WriteFile(seguir, nil, 0o644) //nolint:errcheck // the client is stopped at its limit otherwise
		<-hecho
	}
	defer soltar()
	esperarArchivo(t, abiertas, hecho)

	// Once the client holds them all, the gateway has taken what it will: its cap, or every one
	// (none left in its queue).
	var fds, cola int64
	prueba.Esperar(t, "que la pasarela acepte las conexiones que le caben", func() bool {
		fds, cola = proc.Descriptores(os.Getpid())-base, colaDeEscucha(t, p[1])
		return fds >= topes.Conexiones || cola == 0
	})
	t.Logf("%d conexiones: el calificador tiene %d descriptores más que antes de calificar; %d esperan en la cola del núcleo", n, fds, cola)
	if fds > topes.Conexiones+holgura {
		t.Errorf("con %d conexiones el calificador abrió %d descriptores, más que el tope de la pasarela (%d) y %d de holgura",
			n, fds, topes.Conexiones, holgura)
	}
	if cola < n-topes.Conexiones-holgura {
		t.Errorf("solo %d conexiones esperan en la cola: la pasarela aceptó más que su tope", cola)
	}

	soltar()
	if err != nil {
		t.Fatal(err)
	}
	if in := inf.Intenciones; len(in) != 1 || len(in[0].Intentos) == 0 || in[0].Salida != 0 || in[0].Detenido || !in[0].Registrada {
		t.Errorf("la calificación tras las conexiones:\n%s", texto(inf))
	}
}

// colaDeEscucha is how many connections wait to be accepted on 127.0.0.1:puerto (rx_queue of its
// listening socket in /proc/net/tcp); -1 when it is not there.
func colaDeEscucha(t *testing.T, puerto int) int64 {
	t.Helper()
	f, err := os.Open("/proc/net/tcp")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	local := fmt.Sprintf("0100007F:%04X", puerto)
	s := bufio.NewScanner(f)
	for s.Scan() {
		// sl local_address rem_address st tx_queue:rx_queue …; st 0A is LISTEN.
		c := strings.Fields(s.Text())
		if len(c) < 5 || c[1] != local || c[3] != "0A" {
			continue
		}
		_, rx, _ := strings.Cut(c[4], ":")
		n, err := strconv.ParseInt(rx, 16, 64)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	return -1
}
