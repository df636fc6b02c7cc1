package control

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"cursohttp/internal/prueba"
)

// binarios holds the three servers built for this run ("" with -short).
var binarios string

func TestMain(m *testing.M) {
	flag.Parse()
	if testing.Short() {
		os.Exit(prueba.SinFugas(m, (*testing.M).Run))
	}
	dir, err := os.MkdirTemp("", "lab-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	build := exec.Command("go", "build", "-o", dir+string(filepath.Separator),
		"cursohttp/cmd/laboratorio", "cursohttp/cmd/revisor", "cursohttp/cmd/pasarela")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "lab: no se pudieron construir los programas:", err)
		os.Exit(1)
	}
	binarios = dir
	codigo := prueba.SinFugas(m, (*testing.M).Run) // and nothing the tests started is left running
	os.RemoveAll(dir)
	os.Exit(codigo)
}

// nuevoControl is a controller for the three real servers on free ports, with its own lab folder.
func nuevoControl(t *testing.T) (*Control, *prueba.Buffer) {
	t.Helper()
	if binarios == "" {
		t.Skip("arranca los programas construidos (sin -short)")
	}
	p := prueba.PuertosLibres(t, 3)
	lab, rev, pas := p[0], p[1], p[2]
	out := &prueba.Buffer{}
	c := &Control{
		Dir: t.TempDir(),
		Bin: binarios,
		Out: out,
		Servidores: []Servidor{
			{Programa: "laboratorio", Puerto: lab, Args: []string{"--puerto", strconv.Itoa(lab)}},
			{Programa: "revisor", Puerto: rev, Args: []string{"--puerto", strconv.Itoa(rev)}},
			{Programa: "pasarela", Puerto: pas, Args: []string{"--puerto", strconv.Itoa(pas), "--destino", "http://127.0.0.1:" + strconv.Itoa(rev)}},
		},
	}
	t.Cleanup(func() { c.Detener(context.Background()) })
	return c, out
}

func escucha(s Servidor) bool { return Ocupado("127.0.0.1", s.Puerto) }

// esperarAnunciados waits until every server of c listens and has written its state file:
// listening comes first (anuncio), so Estado may catch a server between the two (CI saw «no todo
// salió bien» once when a test waited for the ports alone).
func esperarAnunciados(t *testing.T, c *Control) {
	t.Helper()
	prueba.Esperar(t, "los servidores escuchan y se anunciaron", func() bool {
		infs, err := c.Informes(context.Background())
		if err != nil || len(infs) != len(c.Servidores) {
			return false
		}
		for _, inf := range infs {
			if !inf.Vivo {
				return false
			}
		}
		return true
	})
}

func TestArrancarEstadoDetener(t *testing.T) {
	t.Parallel()
	c, out := nuevoControl(t)
	ctx := context.Background()
	if err := c.Arrancar(ctx); err != nil {
		t.Fatalf("Arrancar: %v\n%s", err, out)
	}
	informes, err := c.Informes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	pids := map[string]int{}
	for _, inf := range informes {
		if !inf.Vivo || inf.Estado.PID <= 0 || !escucha(inf.Servidor) {
			t.Fatalf("%s no está en marcha: %+v\n%s", inf.Programa, inf, out)
		}
		if want := "127.0.0.1:" + strconv.Itoa(inf.Puerto); inf.Estado.Direccion != want {
			t.Errorf("%s dice escuchar en %s, no en %s", inf.Programa, inf.Estado.Direccion, want)
		}
		if inf.Bitacora != filepath.Join(c.Dir, inf.Programa+".log") {
			t.Errorf("%s: bitácora %q", inf.Programa, inf.Bitacora)
		}
		pids[inf.Programa] = inf.Estado.PID
	}
	// The gateway in front of the revisor works: the servers are the real ones.
	resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/servicios", c.Servidores[2].Puerto))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 401 {
		t.Errorf("GET /servicios por la pasarela: %d, se esperaba el 401 del revisor", resp.StatusCode)
	}
	for _, s := range []string{"laboratorio en http://127.0.0.1:", "revisor en http://127.0.0.1:", "pasarela en http://127.0.0.1:"} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("Arrancar no mostró la línea de inicio %q:\n%s", s, out)
		}
	}

	// A second start touches nothing and says so.
	if err := c.Arrancar(ctx); err != nil {
		t.Fatalf("segundo Arrancar: %v", err)
	}
	if n := strings.Count(out.String(), "ya corre (pid "); n != 3 {
		t.Errorf("%d «ya corre», se esperaban 3:\n%s", n, out)
	}
	var estado bytes.Buffer
	c.Out = &estado
	if err := c.Estado(ctx); err != nil {
		t.Fatal(err)
	}
	for prog, pid := range pids {
		if !strings.Contains(estado.String(), fmt.Sprintf("%-12s en marcha  pid %-7d", prog, pid)) {
			t.Errorf("Estado no dice que %s corre con pid %d:\n%s", prog, pid, estado.String())
		}
	}

	var detener bytes.Buffer
	c.Out = &detener
	if err := c.Detener(ctx); err != nil {
		t.Fatalf("Detener: %v\n%s", err, detener.String())
	}
	for _, s := range c.Servidores {
		if escucha(s) {
			t.Errorf("%s sigue escuchando después de Detener", s.Programa)
		}
		if existe(pids[s.Programa]) {
			t.Errorf("%s (pid %d) sigue vivo después de Detener", s.Programa, pids[s.Programa])
		}
		if _, err := os.Stat(c.rutaEstado(s)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("queda el archivo de estado de %s: %v", s.Programa, err)
		}
		if !strings.Contains(detener.String(), fmt.Sprintf("%s (pid %d) se detuvo", s.Programa, pids[s.Programa])) {
			t.Errorf("Detener no dijo que %s se detuvo:\n%s", s.Programa, detener.String())
		}
	}
	detener.Reset()
	if err := c.Detener(ctx); err != nil || !strings.Contains(detener.String(), "no había ningún servidor") {
		t.Errorf("Detener sin nada corriendo: %v %q", err, detener.String())
	}
}

// A taken port is a failure that names the port and who holds it, and the run ends in ErrFallo
// having started nothing: the lab starts whole or not at all. Estado then fails too.
func TestArrancarConElPuertoOcupado(t *testing.T) {
	t.Parallel()
	c, out := nuevoControl(t)
	ocupa, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(c.Servidores[1].Puerto))
	if err != nil {
		t.Fatal(err)
	}
	defer ocupa.Close()
	ctx := context.Background()
	if err := c.Arrancar(ctx); !errors.Is(err, ErrFallo) {
		t.Fatalf("Arrancar con el puerto del revisor ocupado: %v, se esperaba ErrFallo\n%s", err, out)
	}
	for _, want := range []string{
		fmt.Sprintf("revisor no arrancó: el puerto %d ya está en uso", c.Servidores[1].Puerto),
		"no arrancó ninguno: el laboratorio arranca entero o nada\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("falta %q en:\n%s", want, out)
		}
	}
	if strings.Contains(out.String(), " en http://") {
		t.Errorf("arrancó alguno:\n%s", out)
	}
	informes, err := c.Informes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if informes[0].Vivo || informes[1].Vivo || !informes[1].Ocupado || informes[2].Vivo {
		t.Errorf("informes: %+v", informes)
	}
	if escucha(c.Servidores[0]) || escucha(c.Servidores[2]) {
		t.Error("quedó escuchando alguno de los otros dos")
	}
	if o := informes[1].Ocupante; o.PID != 0 && o.PID != os.Getpid() {
		t.Errorf("el puerto lo tiene esta prueba (pid %d), no %v", os.Getpid(), o)
	}
	var estado bytes.Buffer
	c.Out = &estado
	if err := c.Estado(ctx); !errors.Is(err, ErrFallo) {
		t.Errorf("Estado sin ninguno en marcha: %v, se esperaba ErrFallo", err)
	}
	if !strings.Contains(estado.String(), fmt.Sprintf("revisor      detenido   el puerto %d lo tiene otro programa", c.Servidores[1].Puerto)) {
		t.Errorf("Estado:\n%s", estado.String())
	}
	estado.Reset()
	if err := c.Detener(ctx); err != nil || !strings.Contains(estado.String(), "no había ningún servidor") ||
		!strings.Contains(estado.String(), fmt.Sprintf("el puerto %d (revisor) lo tiene otro programa", c.Servidores[1].Puerto)) ||
		strings.Contains(estado.String(), fmt.Sprintf("el puerto %d ", c.Servidores[0].Puerto)) {
		t.Errorf("Detener: %v %q", err, estado.String())
	}
	if !escucha(c.Servidores[1]) {
		t.Error("Detener cerró el puerto que tenía otro programa")
	}
}

// A server that cannot start after the others did (here the last one ends at start-up) makes
// Arrancar stop the ones it started, and say so: nothing of the run is left running.
func TestArrancarDeshaceSiUnoNoArranca(t *testing.T) {
	t.Parallel()
	c, out := nuevoControl(t)
	c.Servidores[2].Args = append(c.Servidores[2].Args, "--destino", "no-es-una-url")
	ctx := context.Background()
	if err := c.Arrancar(ctx); !errors.Is(err, ErrFallo) {
		t.Fatalf("Arrancar: %v, se esperaba ErrFallo\n%s", err, out)
	}
	dijo := out.String()
	var pids []int
	for _, s := range c.Servidores[:2] {
		m := regexp.MustCompile(regexp.QuoteMeta(s.Programa) + ` en http://\S+.*\(pid (\d+),`).FindStringSubmatch(dijo)
		if m == nil {
			t.Fatalf("%s no llegó a arrancar:\n%s", s.Programa, dijo)
		}
		pid, _ := strconv.Atoi(m[1])
		pids = append(pids, pid)
		if !strings.Contains(dijo, fmt.Sprintf("%s (pid %d) se detuvo", s.Programa, pid)) {
			t.Errorf("no dijo que detuvo %s:\n%s", s.Programa, dijo)
		}
	}
	for _, want := range []string{"pasarela no arrancó: ", "no quedó ninguno arrancado: el laboratorio arranca entero o nada\n"} {
		if !strings.Contains(dijo, want) {
			t.Errorf("falta %q en:\n%s", want, dijo)
		}
	}
	if strings.Index(dijo, "revisor (pid") > strings.Index(dijo, "laboratorio (pid") {
		t.Errorf("detuvo primero el laboratorio, no el último que arrancó:\n%s", dijo)
	}
	for i, s := range c.Servidores {
		if escucha(s) {
			t.Errorf("%s sigue escuchando", s.Programa)
		}
		if _, err := os.Stat(c.rutaEstado(s)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("queda el archivo de estado de %s: %v", s.Programa, err)
		}
		if i < len(pids) && existe(pids[i]) {
			t.Errorf("%s (pid %d) sigue vivo", s.Programa, pids[i])
		}
	}
}

// Estado fails while any server is down, and says which.
func TestEstadoConUnoCaido(t *testing.T) {
	t.Parallel()
	c, out := nuevoControl(t)
	ctx := context.Background()
	if err := c.Arrancar(ctx); err != nil {
		t.Fatalf("Arrancar: %v\n%s", err, out)
	}
	e, vivo, err := c.vivo(c.Servidores[2])
	if err != nil || !vivo {
		t.Fatalf("la pasarela no corre: %v %v", vivo, err)
	}
	if err := matar(e.PID); err != nil {
		t.Fatal(err)
	}
	if !c.esperarFin(ctx, e.PID, 10*time.Second) {
		t.Fatal("la pasarela no terminó tras SIGKILL")
	}
	var estado bytes.Buffer
	c.Out = &estado
	if err := c.Estado(ctx); !errors.Is(err, ErrFallo) {
		t.Errorf("Estado con la pasarela caída: %v, se esperaba ErrFallo\n%s", err, estado.String())
	}
	if !strings.Contains(estado.String(), "pasarela     detenido") || strings.Count(estado.String(), " en marcha ") != 2 {
		t.Errorf("Estado:\n%s", estado.String())
	}
}

// A state file nobody holds is stale, whatever pid it names: here this test's own, which Detener
// must not touch.
func TestEstadoRancio(t *testing.T) {
	t.Parallel()
	c, out := nuevoControl(t)
	s := c.Servidores[0]
	rancio := fmt.Sprintf(`{"programa":"laboratorio","pid":%d,"direccion":"127.0.0.1:%d"}`, os.Getpid(), s.Puerto)
	if err := os.WriteFile(c.rutaEstado(s), []byte(rancio), 0o644); err != nil {
		t.Fatal(err)
	}
	informes, err := c.Informes(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if informes[0].Vivo {
		t.Fatalf("un archivo de estado sin dueño se tomó por un servidor vivo: %+v", informes[0])
	}
	if _, err := os.Stat(c.rutaEstado(s)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("el archivo rancio sigue ahí: %v", err)
	}
	os.WriteFile(c.rutaEstado(s), []byte(rancio), 0o644)
	if err := c.Detener(context.Background()); err != nil || !strings.Contains(out.String(), "no había ningún servidor") {
		t.Errorf("Detener con un estado rancio: %v\n%s", err, out)
	}
}

// If one server cannot start, make lab stops the ones it already started and fails.
func TestPrimerPlanoConElPuertoOcupado(t *testing.T) {
	t.Parallel()
	c, out := nuevoControl(t)
	ocupa, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(c.Servidores[2].Puerto))
	if err != nil {
		t.Fatal(err)
	}
	defer ocupa.Close()
	if err := c.PrimerPlano(make(chan os.Signal)); !errors.Is(err, ErrFallo) {
		t.Fatalf("PrimerPlano: %v, se esperaba ErrFallo\n%s", err, out)
	}
	if !strings.Contains(out.String(), fmt.Sprintf("pasarela no arrancó: el puerto %d ya está en uso", c.Servidores[2].Puerto)) {
		t.Errorf("salida:\n%s", out)
	}
	if escucha(c.Servidores[0]) || escucha(c.Servidores[1]) {
		t.Error("quedaron escuchando los que sí arrancaron")
	}
}

// A server that ends at start-up is reported with what it wrote, on one line.
func TestArrancarUnServidorQueTermina(t *testing.T) {
	t.Parallel()
	c, out := nuevoControl(t)
	c.Servidores = c.Servidores[:1]
	c.Servidores[0].Args = []string{"--puerto", "99999"}
	if err := c.Arrancar(context.Background()); !errors.Is(err, ErrFallo) {
		t.Fatalf("Arrancar: %v", err)
	}
	if !strings.Contains(out.String(), "laboratorio no arrancó: laboratorio: --puerto va de 0 a 65535") {
		t.Errorf("salida:\n%s", out)
	}
}
