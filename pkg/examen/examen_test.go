package examen

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"cursohttp/internal/prueba"
	"cursohttp/pkg/topes"
)

// binarios builds the suite's alta-segura once per test binary.
var binarios struct {
	once sync.Once
	dir  string
	err  error
}

func altaSegura(t *testing.T) string {
	t.Helper()
	binarios.once.Do(func() {
		binarios.dir, binarios.err = os.MkdirTemp("", "examen-bin")
		if binarios.err != nil {
			return
		}
		out, err := exec.Command("go", "build", "-o", binarios.dir, "cursohttp/cmd/alta-segura").CombinedOutput()
		if err != nil {
			binarios.err = errors.New(string(out))
		}
	})
	if binarios.err != nil {
		t.Fatal(binarios.err)
	}
	return filepath.Join(binarios.dir, "alta-segura")
}

// turnos bounds the gradings of the whole test binary that run at once: each runs four clients at
// a time, and a machine of two cores shared with others starves a client past its own time limits
// (a 201 later than its 2 s, a Node that takes 30 s to start) when a dozen gradings run together.
var turnos = make(chan struct{}, 2)

// turno waits for a grading's turn; it is given back when the test ends.
func turno(t *testing.T) {
	t.Helper()
	turnos <- struct{}{}
	t.Cleanup(func() { <-turnos })
}

// envoltorio is a client command: a shell script that runs linea with the grader's NOMBRE URL
// after it.
func envoltorio(t *testing.T, linea string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "cliente.sh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\nexec "+linea+" \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// interprete is python3 or node, or a skip (a failure under CI) when it is not installed.
func interprete(t *testing.T, nombre string) string {
	t.Helper()
	p, err := exec.LookPath(nombre)
	if err == nil && nombre == "python3" {
		// The interpreter itself, not a version manager's shim (pyenv's takes a lock per run).
		var out []byte
		out, err = exec.Command(p, "-c", "import sys; print(sys.executable)").Output()
		p = strings.TrimSpace(string(out))
	}
	if err != nil {
		if os.Getenv("CURSOHTTP_CI") == "1" {
			t.Fatalf("CI necesita %s para calificar clientes en otro lenguaje", nombre)
		}
		t.Skipf("sin %s no se califica el cliente de prueba en ese lenguaje", nombre)
	}
	return p
}

func fallidas(inf *Informe) []string {
	var f []string
	for _, c := range inf.Comprobaciones {
		if !c.Paso {
			f = append(f, c.ID)
		}
	}
	return f
}

func texto(inf *Informe) string {
	var b strings.Builder
	inf.Escribir(&b)
	return b.String()
}

// The course's alta-segura passes every check, in under 60 s, and the same seed gives the same
// report, text and JSON, byte for byte.
func TestAltaSeguraPasaTodoYSeRepite(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("califica dos veces a alta-segura con todos los escenarios (unos 10 s)")
	}
	orden := envoltorio(t, altaSegura(t)+` --pasarela "$PASARELA_URL"`)
	var informes [2]*Informe
	var wg sync.WaitGroup
	for i := range informes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			turnos <- struct{}{}
			defer func() { <-turnos }()
			inf, err := Correr(context.Background(), Opciones{Orden: []string{orden}, Semilla: 7, PuertosLibres: true})
			if err != nil {
				t.Error(err)
				return
			}
			informes[i] = inf
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	a, b := informes[0], informes[1]
	if f := fallidas(a); len(f) > 0 || a.Codigo() != 0 {
		t.Fatalf("alta-segura falla %v:\n%s", f, texto(a))
	}
	todas := len(Checks)
	if !strings.HasSuffix(texto(a), fmt.Sprintf("\n%d de %d comprobaciones del cliente pasaron\n", todas, todas)) {
		t.Errorf("resumen:\n%s", texto(a))
	}
	if texto(a) != texto(b) {
		t.Errorf("la misma semilla dio dos informes:\n%s\n%s", texto(a), texto(b))
	}
	var ja, jb bytes.Buffer
	a.JSON(&ja)
	b.JSON(&jb)
	if ja.String() != jb.String() {
		t.Errorf("la misma semilla dio dos JSON:\n%s\n%s", ja.String(), jb.String())
	}
	var v struct {
		Pasaron, Juzgadas int
		Comprobaciones    []struct {
			ID, Estado string
			Paso       bool
		}
	}
	if err := json.Unmarshal(ja.Bytes(), &v); err != nil || v.Pasaron != todas || v.Juzgadas != todas || len(v.Comprobaciones) != todas || v.Comprobaciones[0].ID != "una-escritura" ||
		!v.Comprobaciones[0].Paso || v.Comprobaciones[0].Estado != EstadoPaso {
		t.Errorf("JSON %v: %s", err, ja.String())
	}
	// alta-segura sends X-Simular: perder-primera on every attempt; the grader's script ignores it.
	for _, in := range a.Intenciones {
		if in.Escenario.ID == "sin-falla" && len(in.Intentos) != 1 {
			t.Errorf("sin-falla: %d intentos: X-Simular no se ignoró", len(in.Intentos))
		}
	}
	t.Logf("alta-segura: %v y %v", a.Duracion, b.Duracion)
}

// Every broken client fails exactly the check its mistake breaks and passes the others; the checks
// whose premise its mistake took away (a key already wrong sets its intents aside) are not judged.
func TestCadaDefectoFallaSuComprobacion(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("califica diez clientes con todos los escenarios (un minuto)")
	}
	alta := altaSegura(t)
	casos := []struct {
		nombre, interprete, linea string
		fallan                    []string
		sinJuicio                 []string
	}{
		{"alta-segura llave-por-intento", "", alta + ` --defecto llave-por-intento --pasarela "$PASARELA_URL"`, []string{"misma-llave"}, []string{"una-escritura"}},
		{"alta-segura sin llave", "", alta + ` --sin-llave --pasarela "$PASARELA_URL"`, []string{"misma-llave"}, []string{"una-escritura", "llave-por-intencion", "codigo-de-salida"}},
		{"python correcto", "python3", "testdata/cliente.py", nil, nil},
		{"python ignora Retry-After", "python3", "testdata/cliente.py --defecto ignora-retry-after", []string{"respeta-retry-after"}, nil},
		{"python reintenta 422", "python3", "testdata/cliente.py --defecto reintenta-422", []string{"no-reintenta-4xx"}, nil},
		{"python nunca se rinde", "python3", "testdata/cliente.py --defecto nunca-se-rinde", []string{"se-rinde"}, nil},
		{"python una llave para todo", "python3", "testdata/cliente.py --defecto una-llave", []string{"llave-por-intencion"}, []string{"una-escritura", "codigo-de-salida"}},
		{"python sale con 0", "python3", "testdata/cliente.py --defecto sale-0", []string{"codigo-de-salida"}, nil},
		{"node correcto", "node", "testdata/cliente.mjs", nil, nil},
		{"node espera fija", "node", "testdata/cliente.mjs --defecto espera-fija", []string{"espera-con-jitter"}, nil},
	}
	for _, c := range casos {
		t.Run(c.nombre, func(t *testing.T) {
			t.Parallel()
			turno(t)
			linea := c.linea
			if c.interprete != "" {
				dir, _ := os.Getwd()
				partes := strings.SplitN(linea, " ", 2)
				linea = interprete(t, c.interprete) + " " + filepath.Join(dir, partes[0]) + strings.TrimPrefix(linea, partes[0])
			}
			inf, err := Correr(context.Background(), Opciones{Orden: []string{envoltorio(t, linea)}, Semilla: 11, PuertosLibres: true})
			if err != nil {
				t.Fatal(err)
			}
			var sinJuicio []string
			for _, x := range inf.Comprobaciones {
				if !x.Juzgada() {
					sinJuicio = append(sinJuicio, x.ID)
				}
			}
			if f := fallos(inf); !slices.Equal(f, c.fallan) || !slices.Equal(sinJuicio, c.sinJuicio) {
				t.Errorf("fallan %v y no se juzgan %v; quiero %v y %v\n%s", f, sinJuicio, c.fallan, c.sinJuicio, texto(inf))
			}
			if (inf.Codigo() == 0) != (len(c.fallan) == 0) {
				t.Errorf("código %d", inf.Codigo())
			}
		})
	}
}

// uno is the scenario list of the tests of bad input: one intent with nothing failing.
func uno() []Escenario { return Escenarios(1)[:1] }

func TestOrdenQueNoExiste(t *testing.T) {
	t.Parallel()
	_, err := Correr(context.Background(), Opciones{Orden: []string{"no-existe-este-cliente"}, PuertosLibres: true})
	var e *Error
	if !errors.As(err, &e) || !strings.Contains(e.Texto, "no encuentro la orden «no-existe-este-cliente»") {
		t.Fatalf("error %v", err)
	}
}

func TestPuertoOcupado(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	ocupado := ln.Addr().(*net.TCPAddr).Port
	libres := prueba.PuertosLibres(t, 1)
	_, err = Correr(context.Background(), Opciones{Orden: []string{"true"}, puertos: &[2]int{libres[0], ocupado}})
	var e *Error
	if !errors.As(err, &e) || !strings.Contains(e.Texto, "no puedo abrir la pasarela en 127.0.0.1:") || !strings.Contains(e.Texto, "--puertos-libres") {
		t.Fatalf("error %v", err)
	}
}

// A client that never ends, and what it started, are stopped at the limit and judged: it did not
// give up.
func TestClienteQueNoTermina(t *testing.T) {
	t.Parallel()
	pid := filepath.Join(t.TempDir(), "pid")
	orden := envoltorio(t, `sh -c 'sleep 1000 & echo $! > `+pid+`; wait' sh`)
	inicio := time.Now()
	inf, err := Correr(context.Background(), Opciones{Orden: []string{orden}, PuertosLibres: true, Limite: time.Second, Escenarios: uno()})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(inicio); d > 10*time.Second {
		t.Errorf("tardó %v con un límite de 1 s", d)
	}
	if !inf.Intenciones[0].Detenido || !slices.Contains(fallidas(inf), "se-rinde") {
		t.Errorf("no se juzgó como detenido:\n%s", texto(inf))
	}
	b, err := os.ReadFile(pid)
	if err != nil {
		t.Fatal(err)
	}
	// The grandchild went with its group: soon it is gone, or dead and not yet reaped by its new parent.
	prueba.Esperar(t, "que muera el sleep que arrancó el cliente", func() bool {
		stat, err := os.ReadFile("/proc/" + strings.TrimSpace(string(b)) + "/stat")
		if err != nil {
			return true
		}
		campos := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		return len(campos) > 0 && campos[0] == "Z"
	})
}

// A client that prints megabytes costs the grader a bounded buffer, nothing else.
func TestClienteQueImprimeMegas(t *testing.T) {
	t.Parallel()
	orden := envoltorio(t, `sh -c 'head -c 20000000 /dev/zero; head -c 20000000 /dev/zero >&2; exit 0' sh`)
	inf, err := Correr(context.Background(), Opciones{Orden: []string{orden}, PuertosLibres: true, Escenarios: uno()})
	if err != nil {
		t.Fatal(err)
	}
	in := inf.Intenciones[0]
	if len(in.Texto) > topes.SalidaCliente || in.Detenido || in.Salida != 0 {
		t.Errorf("guardó %d bytes, detenido %v, salida %d", len(in.Texto), in.Detenido, in.Salida)
	}
	if f := fallidas(inf); !slices.Contains(f, "codigo-de-salida") || !slices.Contains(f, "una-escritura") {
		t.Errorf("un cliente que no da de alta y sale con 0 pasó: %v", f)
	}
}
