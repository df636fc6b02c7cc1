package examen

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"cursohttp/internal/prueba"
)

// guion is a client command: a shell script with cuerpo.
func guion(t *testing.T, cuerpo string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "cliente.sh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+cuerpo), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// apartado is shell that waits until the process in the file $1 leads a session of its own and
// has an empty environment: from then on neither the client's group and session nor its mark
// find it. Without the process it ends the client with 3.
const apartado = `apartado() {
  while [ ! -s "$1" ]; do sleep 0.01; done
  p=$(cat "$1")
  while [ "$(wc -c < /proc/$p/environ)" != 0 ] || [ "$(cut -d' ' -f6 /proc/$p/stat)" != "$p" ]; do
    [ -e /proc/$p ] || exit 3
    sleep 0.01
  done
}
`

// estadoDe is /proc/PID/stat's state letter and parent; "" when the process is gone, reaped.
func estadoDe(t *testing.T, archivo string) (pid, estado string, padre int) {
	t.Helper()
	b, err := os.ReadFile(archivo)
	if err != nil {
		t.Fatal(err)
	}
	pid = strings.TrimSpace(string(b))
	stat, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return pid, "", 0
	}
	c := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	padre, _ = strconv.Atoi(c[1])
	return pid, c[0], padre
}

// 10: what a client starts with setsid and then env -i (no group, no session, no mark of the run
// left) is gone when the grading ends, killed and reaped, whether the client exits or hangs until
// the limit, and whether the process was orphaned when the client ended or at once (a double
// fork). Not parallel: such a process of a client still running is stopped by another's sweep.
func TestLoQueSeApartaYBorraSuEntornoMuere(t *testing.T) {
	for _, fin := range []string{"exit 1", "exec sleep 300"} {
		dir := t.TempDir()
		orden := guion(t, apartado+
			`setsid sh -c 'echo $$ > `+dir+`/setsid; exec env -i sleep 300' </dev/null >/dev/null 2>&1 &
( setsid sh -c 'echo $$ > `+dir+`/doble; exec env -i sleep 300' </dev/null >/dev/null 2>&1 & )
apartado `+dir+`/setsid
apartado `+dir+`/doble
: > `+dir+`/apartados
`+fin+"\n")
		inf := calificar(t, Opciones{Orden: []string{orden}, Escenarios: uno(), Limite: 3 * time.Second})
		if _, err := os.Stat(filepath.Join(dir, "apartados")); err != nil {
			t.Fatalf("%s: el cliente no llegó a apartar sus procesos:\n%s", fin, texto(inf))
		}
		// Correr's sweep waits for them to die and reaps them: not even a zombie is left.
		for _, f := range []string{"setsid", "doble"} {
			if pid, estado, padre := estadoDe(t, filepath.Join(dir, f)); estado != "" {
				t.Errorf("%s: el sleep %s (%s) sigue: estado %s, padre %d", fin, pid, f, estado, padre)
			}
		}
	}
}

// 10: with two clients at once, the sweep after the one that ends kills its orphans and spares
// those of the one still running (found by its session and group, or by its mark), which the
// grader adopted meanwhile; they die when that one ends.
func TestBarrerRespetaAlClienteQueSigue(t *testing.T) {
	ctx, cancelar := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancelar()
	dir := t.TempDir()
	a := guion(t, apartado+
		`setsid sh -c 'echo $$ > `+dir+`/a; exec env -i sleep 300' </dev/null >/dev/null 2>&1 &
apartado `+dir+`/a
exit 0
`)
	// b orphans two sleeps at once (the subshells end): one in its session and group, one that
	// leaves them with setsid and keeps the environment; then it waits for b-fin.
	b := guion(t, `( sleep 300 </dev/null >/dev/null 2>&1 & echo $! > `+dir+`/b-sesion )
( setsid sh -c 'echo $$ > `+dir+`/b-marca; exec sleep 300' </dev/null >/dev/null 2>&1 & )
while [ ! -s `+dir+`/b-marca ] || [ "$(cut -d' ' -f6 /proc/$(cat `+dir+`/b-marca)/stat)" != "$(cat `+dir+`/b-marca)" ]; do sleep 0.01; done
: > `+dir+`/b-listo
while [ ! -e `+dir+`/b-fin ]; do sleep 0.01; done
`)
	lanzar := func(orden, nombre string) Resultado {
		return Proceso(orden, []string{orden}, os.Environ())(ctx, "http://127.0.0.1:9", Encargo{Nombre: nombre, URL: "http://x.invalid",
			Marca: "prueba-" + strconv.Itoa(os.Getpid()) + "-" + nombre})
	}
	var rb Resultado
	hecho := make(chan struct{})
	go func() {
		defer close(hecho)
		rb = lanzar(b, "b")
	}()
	terminarB := func() {
		os.WriteFile(filepath.Join(dir, "b-fin"), nil, 0o644) //nolint:errcheck // b is stopped at ctx's end otherwise
		<-hecho
	}
	defer terminarB()
	esperarArchivo(t, filepath.Join(dir, "b-listo"), hecho)

	if r := lanzar(a, "a"); r.Salida != 0 || r.Detenido {
		t.Fatalf("a: %+v %s", r, r.Texto)
	}
	if pid, estado, _ := estadoDe(t, filepath.Join(dir, "a")); estado != "" {
		t.Errorf("el sleep %s de a sigue tras terminar a: %s", pid, estado)
	}
	for _, f := range []string{"b-sesion", "b-marca"} {
		pid, estado, padre := estadoDe(t, filepath.Join(dir, f))
		if estado == "" || estado == "Z" || padre != os.Getpid() {
			t.Errorf("el sleep %s de b (%s), que sigue corriendo, tendría que vivir, adoptado por el calificador: estado %q, padre %d (el calificador es %d)",
				pid, f, estado, padre, os.Getpid())
		}
	}

	terminarB()
	if rb.Salida != 0 || rb.Detenido {
		t.Fatalf("b: %+v %s", rb, rb.Texto)
	}
	for _, f := range []string{"b-sesion", "b-marca"} {
		if pid, estado, _ := estadoDe(t, filepath.Join(dir, f)); estado != "" {
			t.Errorf("el sleep %s de b (%s) sigue tras terminar b: %s", pid, f, estado)
		}
	}
}

// esperarArchivo waits until a client creates archivo, or fails if the client ends first.
func esperarArchivo(t *testing.T, archivo string, fin <-chan struct{}) {
	t.Helper()
	var termino bool
	prueba.Esperar(t, "que el cliente cree "+filepath.Base(archivo), func() bool {
		select {
		case <-fin:
			termino = true
			return true
		default:
		}
		_, err := os.Stat(archivo)
		return err == nil
	})
	if termino {
		if _, err := os.Stat(archivo); err != nil {
			t.Fatalf("el cliente terminó sin crear %s", filepath.Base(archivo))
		}
	}
}
