package examen

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"cursohttp/internal/prueba"
)

// clienteGo builds testdata/cliente.go once per test binary.
var clienteGoBin struct {
	once sync.Once
	ruta string
	err  error
}

func clienteGo(t *testing.T) string {
	t.Helper()
	clienteGoBin.once.Do(func() {
		dir, err := os.MkdirTemp("", "examen-cliente-go")
		if err != nil {
			clienteGoBin.err = err
			return
		}
		clienteGoBin.ruta = filepath.Join(dir, "cliente-go")
		out, err := exec.Command("go", "build", "-o", clienteGoBin.ruta, "testdata/cliente.go").CombinedOutput()
		if err != nil {
			clienteGoBin.err = errors.New(string(out))
		}
	})
	if clienteGoBin.err != nil {
		t.Fatal(clienteGoBin.err)
	}
	return clienteGoBin.ruta
}

func clienteSh(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"bash", "curl"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("sin %s no se califica el cliente de shell", p)
		}
	}
	dir, _ := os.Getwd()
	return filepath.Join(dir, "testdata", "cliente.sh")
}

// soloEscenarios is a short run: the scenarios of seed 11 with these ids.
func soloEscenarios(ids ...string) []Escenario {
	var l []Escenario
	for _, e := range Escenarios(11) {
		if slices.Contains(ids, e.ID) {
			l = append(l, e)
		}
	}
	return l
}

func estados(inf *Informe) map[string]string {
	m := map[string]string{}
	for _, c := range inf.Comprobaciones {
		m[c.ID] = c.Estado
	}
	return m
}

// fallos are the checks that judged and failed (fallidas also lists the ones not judged).
func fallos(inf *Informe) []string {
	var f []string
	for _, c := range inf.Comprobaciones {
		if c.Estado == EstadoFallo {
			f = append(f, c.ID)
		}
	}
	return f
}

func calificar(t *testing.T, o Opciones) *Informe {
	t.Helper()
	o.PuertosLibres = o.PuertosLibres || o.puertos == nil
	inf, err := Correr(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	return inf
}

// A correct client in Go and one in shell with curl pass every check on several seeds, and the
// same seed gives the same report.
func TestClientesGoYShellCorrectos(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("califica dos clientes con todos los escenarios, dos semillas")
	}
	goBin, sh := clienteGo(t), clienteSh(t)
	for _, c := range []struct{ nombre, orden string }{{"go", goBin}, {"shell", sh}} {
		for _, semilla := range []uint64{3, 12} {
			t.Run(c.nombre+"-"+strconv.FormatUint(semilla, 10), func(t *testing.T) {
				t.Parallel()
				turno(t)
				inf := calificar(t, Opciones{Orden: []string{c.orden}, Semilla: semilla})
				if f := fallidas(inf); len(f) > 0 || inf.Codigo() != 0 || len(inf.Avisos) > 0 {
					t.Errorf("falla %v:\n%s", f, texto(inf))
				}
			})
		}
	}
}

// Item by item of issue 30, a client making that mistake fails the right check or is reported.
func TestErroresDeClientes(t *testing.T) {
	t.Parallel()
	goBin, sh := clienteGo(t), clienteSh(t)
	tmp := t.TempDir()
	ingenuo := filepath.Join(tmp, "ingenuo.sh")
	os.WriteFile(ingenuo, []byte("#!/bin/sh\ncurl -s -o /dev/null -H 'Authorization: Bearer escritura-a' -H 'Content-Type: application/json' "+
		"--data \"{\\\"nombre\\\":\\\"$1\\\",\\\"url\\\":\\\"$2\\\"}\" \"$PASARELA_URL/servicios\"\nexit 0\n"), 0o755)
	sinShebang := filepath.Join(tmp, "sin-shebang")
	os.WriteFile(sinShebang, []byte("\x7fELF esto no es un programa\n"), 0o755)
	casos := []struct {
		nombre     string
		orden      []string
		escenarios []Escenario
		limite     time.Duration
		probar     func(t *testing.T, inf *Informe)
	}{
		{"1: un cliente ingenuo no gana lo que no se juzgó", []string{ingenuo}, Escenarios(11), 0, func(t *testing.T, inf *Informe) {
			e := estados(inf)
			if e["una-escritura"] != EstadoNoJuzgada || e["codigo-de-salida"] != EstadoNoJuzgada || e["misma-llave"] != EstadoFallo || inf.Codigo() == 0 {
				t.Errorf("%v\n%s", e, texto(inf))
			}
		}},
		{"2: inundar es solapar intentos", []string{goBin, "--defecto", "inunda"}, soloEscenarios("intermitente-1", "intermitente-2", "intermitente-3", "intermitente-4", "caida", "sin-falla"), 0, func(t *testing.T, inf *Informe) {
			c := porID(inf.Comprobaciones)["espera-con-jitter"]
			if c.Estado != EstadoFallo || !strings.Contains(strings.Join(c.Detalles, "\n"), "empezó antes de que terminara el") {
				t.Errorf("%+v\n%s", c, texto(inf))
			}
		}},
		{"2, 9: no esperar nunca se dice así", []string{goBin, "--defecto", "sin-espera"}, soloEscenarios("intermitente-1", "intermitente-2", "intermitente-3", "intermitente-4"), 0, func(t *testing.T, inf *Informe) {
			c := porID(inf.Comprobaciones)["espera-con-jitter"]
			if c.Estado != EstadoFallo || len(c.Detalles) != 1 || !strings.HasPrefix(c.Detalles[0], "no esperó nunca") {
				t.Errorf("%+v\n%s", c, texto(inf))
			}
		}},
		{"5: reintentar un 409 nombre-repetido", []string{goBin, "--defecto", "reintenta-409"}, soloEscenarios("409-nombre-repetido", "sin-falla"), 0, func(t *testing.T, inf *Informe) {
			if e := estados(inf); e["no-reintenta-4xx"] != EstadoFallo {
				t.Errorf("%v\n%s", e, texto(inf))
			}
		}},
		{"5: reintentar un 403 o un 401", []string{goBin, "--defecto", "reintenta-403"}, soloEscenarios("403", "401"), 0, func(t *testing.T, inf *Informe) {
			c := porID(inf.Comprobaciones)["no-reintenta-4xx"]
			if c.Estado != EstadoFallo || len(c.Detalles) != 2 {
				t.Errorf("%+v\n%s", c, texto(inf))
			}
		}},
		{"6: esperar 15 s una respuesta", []string{goBin, "--defecto", "espera-larga"}, soloEscenarios("estancada"), 0, func(t *testing.T, inf *Informe) {
			if e := estados(inf); e["se-rinde"] != EstadoFallo {
				t.Errorf("%v\n%s", e, texto(inf))
			}
		}},
		{"7: una llave sacada del cuerpo", []string{goBin, "--defecto", "llave-del-cuerpo"}, soloEscenarios("mismo-cuerpo", "sin-falla"), 0, func(t *testing.T, inf *Informe) {
			if e := estados(inf); e["llave-por-intencion"] != EstadoFallo {
				t.Errorf("%v\n%s", e, texto(inf))
			}
		}},
		{"7: el mismo cuerpo con dos llaves pasa", []string{goBin}, soloEscenarios("mismo-cuerpo", "perdida"), 0, func(t *testing.T, inf *Informe) {
			if e := estados(inf); e["llave-por-intencion"] != EstadoPaso || e["no-reintenta-4xx"] != EstadoPaso {
				t.Errorf("%v\n%s", e, texto(inf))
			}
		}},
		{"9: otra credencial: el 403 va primero", []string{sh, "--defecto", "otra-credencial"}, soloEscenarios("perdida", "sin-falla"), 0, func(t *testing.T, inf *Informe) {
			s := texto(inf)
			if len(inf.Avisos) == 0 || !strings.HasPrefix(inf.Avisos[0], "el revisor respondió 403 a ") ||
				!strings.Contains(s, "el último recibió 403 permiso-insuficiente") {
				t.Errorf("%s", s)
			}
		}},
		{"9: un cliente que no arranca", []string{sinShebang}, uno(), 0, func(t *testing.T, inf *Informe) {
			var j bytes.Buffer
			inf.JSON(&j)
			var v struct{ Intenciones []map[string]any }
			json.Unmarshal(j.Bytes(), &v)
			if len(inf.Avisos) == 0 || !strings.HasPrefix(inf.Avisos[0], "el cliente no arrancó en 1 de 1 altas: ") || inf.Codigo() == 0 ||
				len(v.Intenciones) != 1 || v.Intenciones[0]["codigo_de_salida"] != nil {
				t.Errorf("%s\n%s", texto(inf), j.String())
			}
		}},
	}
	for _, c := range casos {
		t.Run(c.nombre, func(t *testing.T) {
			t.Parallel()
			if testing.Short() && len(c.escenarios) > 6 {
				t.Skip("todos los escenarios")
			}
			if testing.Short() && slices.ContainsFunc(c.escenarios, func(e Escenario) bool { return e.ID == "estancada" }) {
				t.Skip("el escenario estancada espera 15 s de reloj a que el cliente se rinda")
			}
			turno(t)
			c.probar(t, calificar(t, Opciones{Orden: c.orden, Semilla: 11, Escenarios: c.escenarios, Limite: c.limite}))
		})
	}
}

// 3: what reaches the grader's revisor without its gateway is seen, named and judged.
func TestIntentosDirectosAlRevisor(t *testing.T) {
	t.Parallel()
	p := prueba.PuertosLibres(t, 2)
	inf := calificar(t, Opciones{Orden: []string{clienteGo(t), "--defecto", "directo", "--revisor", "http://127.0.0.1:" + strconv.Itoa(p[0])},
		Semilla: 11, Escenarios: soloEscenarios("perdida", "503-retry-after"), puertos: &[2]int{p[0], p[1]}})
	directos := 0
	for _, in := range inf.Intenciones {
		for _, a := range in.Intentos {
			if a.Directo {
				directos++
			}
		}
	}
	if directos != 2 || len(inf.Avisos) != 1 || !strings.HasPrefix(inf.Avisos[0], "2 intentos fueron directo al revisor") || inf.Codigo() == 0 {
		t.Errorf("%d directos:\n%s", directos, texto(inf))
	}
}

// 4: a client that ignores PASARELA_URL reaches another grading's gateway: refused and counted
// there, and the other grading (the same seed, the same names) still judges only its own client.
func TestOtraCalificacionNoSeMezcla(t *testing.T) {
	t.Parallel()
	goBin, sh := clienteGo(t), clienteSh(t)
	p := prueba.PuertosLibres(t, 2)
	listo := filepath.Join(t.TempDir(), "listo")
	// A's client waits until B's grading is over, so B's requests arrive while A runs.
	espera := filepath.Join(t.TempDir(), "espera.sh")
	os.WriteFile(espera, []byte("#!/bin/sh\nwhile [ ! -e "+listo+" ]; do sleep 0.05; done\nexec "+goBin+" \"$@\"\n"), 0o755)
	escenarios := soloEscenarios("sin-falla", "perdida")
	var a *Informe
	hecho := make(chan struct{})
	go func() {
		defer close(hecho)
		a = calificar(t, Opciones{Orden: []string{espera}, Semilla: 11, Escenarios: escenarios, puertos: &[2]int{p[0], p[1]}})
	}()
	b := calificar(t, Opciones{Orden: []string{sh, "--defecto", "sin-pasarela", "http://127.0.0.1:" + strconv.Itoa(p[1])}, Semilla: 11, Escenarios: escenarios})
	os.WriteFile(listo, nil, 0o644)
	<-hecho
	if a == nil {
		return
	}
	if f := fallos(a); len(f) > 0 || a.Ajenas == 0 {
		t.Errorf("A: %d ajenas, fallan %v:\n%s", a.Ajenas, f, texto(a))
	}
	for _, in := range b.Intenciones {
		if len(in.Intentos) > 0 {
			t.Errorf("B vio intentos que fueron a A:\n%s", texto(b))
		}
	}
}

// 10, 11: what a client leaves behind goes with it, however it detached, and it gets only the
// contract's environment.
func TestNadaSobreviveNiSeFiltra(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("solo Linux garantiza que muere lo que se apartó con setsid (docs/comprobar.md)")
	}
	dir := t.TempDir()
	colgado := envoltorio(t, `sh -c 'setsid sleep 1000 </dev/null >/dev/null 2>&1 & echo $! > `+dir+`/colgado; sleep 1000' sh`)
	suelto := envoltorio(t, `sh -c 'setsid sleep 1000 </dev/null >/dev/null 2>&1 & echo $! > `+dir+`/suelto; env > `+dir+`/entorno; exit 1' sh`)
	for _, orden := range []string{colgado, suelto} {
		calificar(t, Opciones{Orden: []string{orden}, Escenarios: uno(), Limite: time.Second,
			Entorno: append(os.Environ(), "CURSOHTTP_TOKEN=secreto", "CURSOHTTP_TOKEN_CLASE=otro", PasarelaFalsa)})
	}
	for _, f := range []string{"colgado", "suelto"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		pid := strings.TrimSpace(string(b))
		prueba.Esperar(t, "que muera el sleep "+f, func() bool {
			stat, err := os.ReadFile("/proc/" + pid + "/stat")
			if err != nil {
				return true
			}
			campos := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
			return len(campos) > 0 && campos[0] == "Z"
		})
	}
	env, _ := os.ReadFile(filepath.Join(dir, "entorno"))
	if strings.Contains(string(env), "CURSOHTTP_") || strings.Contains(string(env), PasarelaFalsa) ||
		!strings.Contains(string(env), "\n"+VariablePasarela+"=http://127.0.0.1:") {
		t.Errorf("entorno del cliente:\n%s", env)
	}
}

// PasarelaFalsa is a PASARELA_URL the grader's own environment had: the client gets the grader's.
const PasarelaFalsa = "PASARELA_URL=http://falsa.invalid"
