//go:build linux

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"cursohttp/internal/prueba"
	"cursohttp/internal/prueba/red"
	"cursohttp/pkg/clase"
	"cursohttp/pkg/datosclase"
	"cursohttp/pkg/documentoapi"
	"cursohttp/pkg/examen"
	"cursohttp/pkg/montaje"
	"cursohttp/pkg/pgefimero"
)

// Issue 40's acceptance, as a class lives it: the class lab (revisor clase, a real process) on the
// instructor's machine, listening on the class network; three students, Ana, Beto and Carla, each
// on a machine of their own (a network namespace, internal/prueba/red), grading real client
// processes with «revisor comprobar cliente --clase»; and an intruder on a fourth machine. On SQLite
// and on PostgreSQL (with two revisors), in one class each:
//
//   - the instructor's session opens only from «laboratorio clase entrar», whose link works once;
//     the start-up prints none;
//   - every credential the course prints, on every route of the class gateway and its own, sent by
//     the intruder while Ana grades a correct client: all refused at the gateway's door, nothing of
//     Ana's seen, nothing changed (Ana and then Beto pass every check);
//   - Carla's grader interrupted (Ctrl+C) in the middle, then repeated with the same seed: every check passed;
//   - the class lab killed (kill -9) while the three grade, and started again: each grading is
//     repeated, every check passed, and each student has exactly the gradings they finished;
//   - on PostgreSQL, the database restarted while the three grade: the same.
func TestClaseEnLaRed(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("una clase entera en máquinas de red propias, con clientes de verdad; se salta con -short")
	}
	if _, err := red.Nueva(t); err != nil {
		if os.Getenv(EnvCI) != "" {
			t.Fatalf("%s está puesta y no puedo crear otra máquina de red: %v", EnvCI, err)
		}
		t.Skip(err.Error())
	}
	bin := claseBin(t)
	for _, almacen := range []string{"sqlite", "postgres"} {
		t.Run(almacen, func(t *testing.T) {
			t.Parallel()
			ctx, cancelar := context.WithTimeout(context.Background(), 8*time.Minute)
			defer cancelar()
			c := nuevaClaseEnRed(ctx, t, bin, almacen == "postgres")
			c.sesionDelProfesor(ctx, t)
			c.intruso(ctx, t)
			c.interrumpida(ctx, t)
			c.matarYVolver(ctx, t, "kill -9 del laboratorio de la clase", func() {
				c.lab.cmd.Process.Signal(syscall.SIGKILL)
				c.lab.cmd.Wait()
				c.arrancar(ctx, t)
			})
			if c.pg != nil {
				c.matarYVolver(ctx, t, "reinicio de PostgreSQL", func() {
					if err := c.pg.Parar(); err != nil {
						t.Fatal(err)
					}
					if err := c.pg.Reanudar(ctx); err != nil {
						t.Fatal(err)
					}
				})
			}
		})
	}
}

// claseEnRed is one class: the lab's process and what restarting it needs, the students'
// credentials and machines, the gradings each one finished.
type claseEnRed struct {
	bin, dir, carpeta, datos string
	args                     []string
	pizarra, pasarela        int
	lab                      *programaEnMarcha
	pg                       *pgefimero.Servidor
	creds                    map[string]string
	maquinas                 map[string]*red.Maquina
	mu                       sync.Mutex
	hechas                   map[string]int // gradings each student finished, as the board must hold them
}

var alumnosEnRed = []string{"Ana", "Beto", "Carla"}

func nuevaClaseEnRed(ctx context.Context, t *testing.T, bin string, enPG bool) *claseEnRed {
	t.Helper()
	c := &claseEnRed{bin: bin, carpeta: t.TempDir(), maquinas: map[string]*red.Maquina{}, hechas: map[string]int{}}
	c.dir = filepath.Join(c.carpeta, "clase")
	lista := filepath.Join(c.carpeta, "alumnos.txt")
	if err := os.WriteFile(lista, []byte(strings.Join(alumnosEnRed, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p := prueba.PuertosLibres(t, 2)
	c.pizarra, c.pasarela = p[0], p[1]
	c.args = []string{"clase", "--dir", c.dir, "--lista", lista, "--direccion", "0.0.0.0",
		"--puerto", strconv.Itoa(c.pizarra), "--puerto-pasarela", strconv.Itoa(c.pasarela)}
	c.datos = filepath.Join(c.dir, "clase.db")
	if enPG {
		srv, err := pgefimero.Arrancar(ctx, "")
		if err != nil {
			if os.Getenv(EnvCI) != "" {
				t.Fatalf("%s está puesta y PostgreSQL no arranca: %v", EnvCI, err)
			}
			t.Skip(strings.SplitN(err.Error(), "\n", 2)[0])
		}
		t.Cleanup(func() { srv.Detener() })
		if c.datos, err = srv.CrearBase(ctx, "clase"); err != nil {
			t.Fatal(err)
		}
		c.pg = srv
		c.args = append(c.args, "--datos", c.datos, "--revisores", "2")
	}
	c.arrancar(ctx, t)
	c.creds = leerCreds(t, c.dir)
	for _, quien := range append(slices.Clone(alumnosEnRed), "intruso") {
		m, err := red.Nueva(t)
		if err != nil {
			t.Fatal(err)
		}
		c.maquinas[quien] = m
	}
	return c
}

// arrancar starts (or starts again) the class lab's process.
func (c *claseEnRed) arrancar(ctx context.Context, t *testing.T) {
	t.Helper()
	c.lab = arrancarPrograma(ctx, t, filepath.Join(c.bin, "revisor"), c.carpeta, nil, "clase: la pizarra en http://", c.args...)
}

// urlClase is the class lab as a student's machine reaches it.
func (c *claseEnRed) urlClase(quien string) string {
	return "http://" + net.JoinHostPort(c.maquinas[quien].Anfitrion, strconv.Itoa(c.pizarra))
}

// resultado is one run of a student's grader: its exit code, its report, what it said.
type resultado struct {
	codigo        int
	salida, error string
	pasaron, de   int
}

// calificar starts a student's grader on the student's machine, with alta-segura (a real process,
// which registers through the class gateway the grader serves it at 127.0.0.1:18082, as alone).
func (c *claseEnRed) calificar(ctx context.Context, t *testing.T, alumno string, semilla int) (*exec.Cmd, func() resultado) {
	t.Helper()
	cmd := c.maquinas[alumno].Orden(ctx, filepath.Join(c.bin, "revisor"), "comprobar", "cliente", "--clase", c.urlClase(alumno),
		"--semilla", strconv.Itoa(semilla), "--json", "--", "alta-segura")
	cmd.Env = append(os.Environ(), "PATH="+c.bin+string(os.PathListSeparator)+os.Getenv("PATH"), "CURSOHTTP_CREDENCIAL="+c.creds[alumno])
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, func() resultado {
		err := cmd.Wait()
		r := resultado{salida: out.String(), error: errOut.String()}
		var salida *exec.ExitError
		if errors.As(err, &salida) {
			r.codigo = salida.ExitCode()
		} else if err != nil {
			t.Fatalf("el calificador de %s: %v", alumno, err)
		}
		var inf struct{ Pasaron, Total int }
		if json.Unmarshal([]byte(r.salida), &inf) == nil {
			r.pasaron, r.de = inf.Pasaron, inf.Total
		}
		return r
	}
}

// aprueba says a grading passed every check the grader has with exit code 0, and
// counts it as finished.
func (c *claseEnRed) aprueba(t *testing.T, alumno, que string, r resultado) {
	t.Helper()
	if r.codigo != 0 || r.pasaron != len(examen.Checks) || r.de != len(examen.Checks) {
		t.Fatalf("%s: %s salió con %d, %d de %d\nstderr: %s\n%s\n--- el laboratorio:\n%s", que, alumno, r.codigo, r.pasaron, r.de, r.error, r.salida, c.lab.todo())
	}
	c.mu.Lock()
	c.hechas[alumno]++
	c.mu.Unlock()
}

// anotadas checks that the class's store holds, for each student, exactly the gradings they
// finished, each of them passed: nothing recorded half, nothing lost.
func (c *claseEnRed) anotadas(ctx context.Context, t *testing.T, que string) {
	t.Helper()
	mat, err := datosclase.Abrir(ctx, c.datos)
	if err != nil {
		t.Fatal(err)
	}
	defer mat.Cerrar()
	for _, a := range alumnosEnRed {
		h, err := mat.Historial(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		c.mu.Lock()
		hechas := c.hechas[a]
		c.mu.Unlock()
		if len(h) != hechas {
			t.Errorf("%s: %s tiene %d calificaciones anotadas; terminó %d", que, a, len(h), hechas)
		}
		for _, cal := range h {
			for _, v := range cal.Comprobaciones {
				if v.Estado != examen.EstadoPaso {
					t.Errorf("%s: %s tiene anotada %s=%s", que, a, v.ID, v.Estado)
				}
			}
		}
	}
}

// sesionDelProfesor: the start-up printed no link; «laboratorio clase entrar» gives one, which opens
// the instructor's session once.
func (c *claseEnRed) sesionDelProfesor(ctx context.Context, t *testing.T) {
	t.Helper()
	if strings.Contains(c.lab.todo(), "/entrar?") {
		t.Errorf("el arranque dice un enlace de profesor sin que nadie lo pidiera:\n%s", c.lab.todo())
	}
	url := "http://127.0.0.1:" + strconv.Itoa(c.pizarra)
	cmd := exec.CommandContext(ctx, filepath.Join(c.bin, "laboratorio"), "clase", "entrar", "--dir", c.dir, "--clase", url)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("laboratorio clase entrar: %v", err)
	}
	enlace := strings.TrimSpace(string(out))
	sinSeguir := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for vez, esperado := range []int{http.StatusSeeOther, http.StatusForbidden} {
		resp, err := sinSeguir.Get(enlace)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		galleta := resp.Header.Get("Set-Cookie") != ""
		if resp.StatusCode != esperado || galleta != (vez == 0) {
			t.Errorf("el enlace de «entrar», vez %d: %d (galleta: %v); se esperaba %d", vez+1, resp.StatusCode, galleta, esperado)
		}
	}
}

// intento is one request of the intruder and what it got.
type intento struct {
	Metodo, Ruta, Credencial, Como string
	Codigo                         int
	Cuerpo                         string
}

// intruso: while Ana grades a correct client, the intruder sends every credential the course
// prints on every route, the documented ones of the revisor and the gateway's own, to the class
// gateway, plainly, with a forged stamp and with a made-up pase; then Beto grades. Everything is
// refused at the door, nothing of Ana's shows in any answer, and both pass.
func (c *claseEnRed) intruso(ctx context.Context, t *testing.T) {
	t.Helper()
	_, fin := c.calificar(ctx, t, "Ana", 7)
	if err := c.lab.esperar(ctx, func(l []string) bool { return contar(l, "clase: Ana empieza una calificación") > 0 }); err != nil {
		t.Fatalf("Ana no empezó: %v\n%s", err, c.lab.todo())
	}
	m := c.maquinas["intruso"]
	cmd := m.Orden(ctx, os.Args[0])
	cmd.Env = append(os.Environ(), "CURSOHTTP_INTRUSO="+net.JoinHostPort(m.Anfitrion, strconv.Itoa(c.pasarela)),
		"CURSOHTTP_INTRUSO_EQUIPO="+clase.Equipo("Ana"))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("el intruso: %v\n%s", err, out)
	}
	var intentos []intento
	for _, l := range strings.Split(string(out), "\n") {
		var i intento
		if json.Unmarshal([]byte(l), &i) == nil && i.Metodo != "" {
			intentos = append(intentos, i)
		}
	}
	if len(intentos) < 100 {
		t.Fatalf("el intruso mandó solo %d peticiones:\n%s", len(intentos), out)
	}
	for _, i := range intentos {
		if i.Codigo != http.StatusForbidden || !strings.Contains(i.Cuerpo, "permiso-insuficiente") || strings.Contains(i.Cuerpo, "calificacion=") {
			t.Errorf("%s %s con %q (%s): %d %s; se esperaba el 403 de la puerta", i.Metodo, i.Ruta, i.Credencial, i.Como, i.Codigo, i.Cuerpo)
		}
	}
	c.aprueba(t, "Ana", "con el intruso", fin())
	// Nothing changed for those who grade after it (maintenance, the gateway's fault, the limits).
	_, fin = c.calificar(ctx, t, "Beto", 8)
	c.aprueba(t, "Beto", "tras el intruso", fin())
	if !strings.Contains(c.lab.todo(), "pasarela de la clase: rechazo") {
		t.Errorf("el laboratorio no dijo los rechazos de la puerta:\n%s", c.lab.todo())
	}
	c.anotadas(ctx, t, "tras el intruso")
}

// intrusoSiLoEs is the intruder, when TestClaseEnLaRed runs this test binary on the intruder's
// machine with CURSOHTTP_INTRUSO set: each request and its answer, one JSON line each, then exit.
func intrusoSiLoEs() {
	destino := os.Getenv("CURSOHTTP_INTRUSO")
	if destino == "" {
		return
	}
	defer os.Exit(0)
	credenciales := []string{"", "admin", "escritura-a", "escritura-b", "lectura-a", "lectura-b",
		"escritura-a@" + os.Getenv("CURSOHTTP_INTRUSO_EQUIPO"), "admin@" + os.Getenv("CURSOHTTP_INTRUSO_EQUIPO")}
	type ruta struct{ metodo, ruta string }
	var rutas []ruta
	for _, o := range documentoapi.Operaciones() {
		for _, id := range []string{"1", "7"} {
			r := strings.NewReplacer("{id}", id, "{revision}", id).Replace(o.Ruta)
			rutas = append(rutas, ruta{o.Metodo, r})
			if !strings.Contains(o.Ruta, "{") {
				break
			}
		}
	}
	rutas = append(rutas, ruta{"GET", "/_pasarela/libro"}, ruta{"GET", "/_pasarela/resumen"}, ruta{"GET", "/_pasarela/simular"},
		ruta{"PUT", "/_pasarela/simular"}, ruta{"GET", "/"})
	cuerpos := map[string]string{"POST": `{"nombre":"sin-falla-x","url":"http://127.0.0.1:18081/codigo/200"}`,
		"PUT": `{"activo":true}`, "PATCH": `{"nombre":"x"}`}
	sal := json.NewEncoder(os.Stdout)
	cliente := &http.Client{Timeout: 10 * time.Second}
	for _, r := range rutas {
		for _, cr := range credenciales {
			for _, como := range []string{"tal cual", "sello inventado", "pase inventado"} {
				i := intento{Metodo: r.metodo, Ruta: r.ruta, Credencial: cr, Como: como}
				if como == "pase inventado" {
					i.Codigo, i.Cuerpo = conPaseInventado(destino, r.metodo, r.ruta, cr, cuerpos[r.metodo])
				} else {
					req, _ := http.NewRequest(r.metodo, "http://"+destino+r.ruta, strings.NewReader(cuerpos[r.metodo]))
					if cr != "" {
						req.Header.Set("Authorization", "Bearer "+cr)
					}
					req.Header.Set("Content-Type", "application/json")
					req.Header.Set("X-Simular", "codigo:201")
					if como == "sello inventado" {
						req.Header.Set(montaje.CabeceraSello, "adivinado")
					}
					if resp, err := cliente.Do(req); err != nil {
						i.Cuerpo = err.Error()
					} else {
						b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
						resp.Body.Close()
						i.Codigo, i.Cuerpo = resp.StatusCode, string(b)
					}
				}
				sal.Encode(i) //nolint:errcheck // stdout
			}
		}
	}
}

// conPaseInventado sends one request on a connection that opens with a pase nobody gave.
func conPaseInventado(destino, metodo, ruta, credencial, cuerpo string) (int, string) {
	c, err := net.DialTimeout("tcp", destino, 10*time.Second)
	if err != nil {
		return 0, err.Error()
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	pedido := montaje.PrefijoPase + "pase-inventado-0123456789\r\n" + metodo + " " + ruta + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
	if credencial != "" {
		pedido += "Authorization: Bearer " + credencial + "\r\n"
	}
	pedido += "Content-Type: application/json\r\nContent-Length: " + strconv.Itoa(len(cuerpo)) + "\r\n\r\n" + cuerpo
	if _, err := io.WriteString(c, pedido); err != nil {
		return 0, err.Error()
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	return resp.StatusCode, string(b)
}

// interrumpida: Carla's grader gets Ctrl+C in the middle (exit 130, nothing recorded), and the
// same grading again, with the same seed, passes.
func (c *claseEnRed) interrumpida(ctx context.Context, t *testing.T) {
	t.Helper()
	empezadas := contar(c.lab.lineas(), "clase: Carla empieza una calificación")
	cmd, fin := c.calificar(ctx, t, "Carla", 9)
	if err := c.lab.esperar(ctx, func(l []string) bool {
		i := slices.IndexFunc(l, func(x string) bool { return strings.HasPrefix(x, "clase: Carla empieza una calificación") })
		return contar(l, "clase: Carla empieza una calificación") > empezadas && contar(l[i:], "pasarela: ") > 3
	}); err != nil {
		t.Fatalf("Carla no llegó a la pasarela: %v\n%s", err, c.lab.todo())
	}
	cmd.Process.Signal(os.Interrupt)
	if r := fin(); r.codigo != 130 {
		t.Fatalf("Carla interrumpida salió con %d; se esperaba 130\n%s", r.codigo, r.error)
	}
	_, fin = c.calificar(ctx, t, "Carla", 9)
	c.aprueba(t, "Carla", "repetida tras Ctrl+C", fin())
	c.anotadas(ctx, t, "tras Ctrl+C")
}

// matarYVolver: the three grade at once; once each one's attempts reach the class gateway, the lab
// fails (romper); each grading is thrown away, said, repeated from the start, and passes.
func (c *claseEnRed) matarYVolver(ctx context.Context, t *testing.T, que string, romper func()) {
	t.Helper()
	antes := map[string]int{}
	for _, a := range alumnosEnRed {
		antes[a] = contar(c.lab.lineas(), "clase: "+a+" empieza una calificación")
	}
	fines := map[string]func() resultado{}
	for i, a := range alumnosEnRed {
		_, fines[a] = c.calificar(ctx, t, a, 20+i)
	}
	// Each one's grading has started, and after the last start the gateway has handled more
	// attempts (a grading the lab took but whose answer a kill cut is only started again).
	if err := c.lab.esperar(ctx, func(l []string) bool {
		ultima := -1
		for _, a := range alumnosEnRed {
			n := 0
			for i, x := range l {
				if strings.HasPrefix(x, "clase: "+a+" empieza una calificación") {
					if n++; n > antes[a] {
						ultima = max(ultima, i)
						break
					}
				}
			}
			if n <= antes[a] {
				return false
			}
		}
		return contar(l[ultima:], "pasarela: ") > 2*len(alumnosEnRed)
	}); err != nil {
		t.Fatalf("%s: los tres no llegaron a la pasarela: %v\n%s", que, err, c.lab.todo())
	}
	romper()
	for _, a := range alumnosEnRed {
		r := fines[a]()
		c.aprueba(t, a, "tras el "+que, r)
		if !strings.Contains(r.error, "la repito desde el principio") {
			t.Errorf("%s: a %s no se le dijo que su calificación se repetía\nstderr: %s\n--- el laboratorio, tras el arranque:\n%s", que, a, r.error, c.lab.todo())
		}
	}
	c.anotadas(ctx, t, "tras el "+que)
}

// claseBin builds the programs classroom mode runs, once per test.
func claseBin(t *testing.T) string {
	t.Helper()
	bin := t.TempDir()
	if out, err := exec.Command("go", "build", "-o", bin+string(filepath.Separator),
		"cursohttp/cmd/revisor", "cursohttp/cmd/alta-segura", "cursohttp/cmd/laboratorio").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// leerCreds reads the instructor's list of credentials, which must be the instructor's alone.
func leerCreds(t *testing.T, dir string) map[string]string {
	t.Helper()
	ruta := filepath.Join(dir, "credenciales.txt")
	b, err := os.ReadFile(ruta)
	if err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(ruta); fi.Mode().Perm() != 0o600 {
		t.Errorf("credenciales.txt tiene modo %v; se esperaba 0600", fi.Mode().Perm())
	}
	m := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if n, c, ok := strings.Cut(l, "\t"); ok {
			m[n] = c
		}
	}
	return m
}
