// Command clase-carga measures classroom mode at the scale of a class: one class lab (the real
// «revisor clase» that «laboratorio clase iniciar» runs, a process of its own, on SQLite or PostgreSQL) and N students
// grading at the same moment, each with a client drawn from a mix of correct and broken ones. In a
// real class each client runs on its own laptop, so the clients run here in-process (the course's
// alta-segura and its broken versions, pkg/altasegura, one goroutine per run of the client), each
// student from an address of its own on loopback (127.1.x.y), as a classroom's laptops would; the
// measurement stays on the lab. Each (client, seed) pair is then graded alone with the local
// grader, and each student's verdict compared with it.
//
// Its last line is exactly
//
//	clase: N alumnos, V de N veredictos como a solas, p95 P s (a solas S s), I intenciones perdidas
//
// make clase-carga ALUMNOS=N [PG=1] [REVISORES=2] runs it.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"cursohttp/internal/saltos"
	"cursohttp/pkg/altasegura"
	"cursohttp/pkg/examen"
	"cursohttp/pkg/pgefimero"
	"cursohttp/pkg/reintento"
)

// tipos are the clients of the mix, in turn: the course's correct one and three broken ones.
var tipos = []string{"correcto", "sin-llave", "llave-por-intento", "sin-reintentos"}

// argumentosDe are alta-segura's arguments for each kind, when the clients are processes.
var argumentosDe = map[string][]string{"correcto": nil, "sin-llave": {"--sin-llave"}, "llave-por-intento": {"--defecto", "llave-por-intento"}}

// semillas: each student's seed is one of these, so that every (client, seed) pair is graded alone
// once, not once per student.
var semillas = []uint64{1, 2}

// errDistinto ends a run whose figures missed: the line above says by how much.
var errDistinto = errors.New("no todos los veredictos son los de a solas, o se perdieron intenciones")

func main() {
	alumnos := flag.Int("alumnos", 200, "cuántos alumnos califican a la vez")
	bin := flag.String("bin", "bin", "la carpeta de los programas construidos (revisor)")
	pg := flag.Bool("pg", false, "la clase en un PostgreSQL de usar y tirar (pkg/pgefimero) en vez de SQLite")
	datosURL := flag.String("datos", "", "la clase en esta URL postgres://… (en vez de -pg)")
	revisores := flag.Int("revisores", 1, "cuántos revisores detrás de la pasarela de la clase (más de uno: con PostgreSQL)")
	procesos := flag.Bool("procesos", false, "cada corrida del cliente, un proceso de verdad (bin/alta-segura y sus versiones rotas), como en clase: para comprobar que los clientes en proceso miden lo mismo")
	flag.Parse()
	if *pg && *datosURL == "" {
		if _, err := pgefimero.Binarios(); err != nil {
			os.Exit(sinPostgres(err, os.Getenv("CURSOHTTP_CI") == "1", os.Stdout, os.Stderr))
		}
	}
	lanzar := cliente
	if *procesos {
		tipos = tipos[:3] // alta-segura has no version that never retries
		lanzar = func(tipo string) examen.Lanzador {
			orden := append([]string{"alta-segura"}, argumentosDe[tipo]...)
			return examen.Proceso(filepath.Join(*bin, "alta-segura"), orden, os.Environ())
		}
	}
	if err := correr(*alumnos, *bin, *pg, *datosURL, *revisores, lanzar); err != nil {
		fmt.Fprintln(os.Stderr, "clase-carga:", err)
		os.Exit(1)
	}
}

// sinPostgres is what a class in a throwaway PostgreSQL (--pg) does where PostgreSQL is not
// installed: outside CI it is skipped, with one line here and its reason in make test's record of
// what it skipped (internal/saltos, in the tests' words, so make test's last line names it with
// them); CI installs PostgreSQL, so under CURSOHTTP_CI=1 it fails. It returns the exit code.
func sinPostgres(motivo error, ci bool, out, errOut io.Writer) int {
	if ci {
		fmt.Fprintf(errOut, "clase-carga: la clase en PostgreSQL no puede correr, y CURSOHTTP_CI=1 la pide: %v\n", motivo)
		return 1
	}
	fmt.Fprintf(out, "clase-carga: me salto la clase en PostgreSQL: %v\n", motivo)
	if err := saltos.Anotar("clase-carga con PostgreSQL", "sin PostgreSQL: "+motivo.Error()); err != nil {
		fmt.Fprintln(errOut, "clase-carga:", err)
		return 1
	}
	return 0
}

// cliente is one run of the client kind tipo, in-process.
func cliente(tipo string) examen.Lanzador {
	d := &net.Dialer{Timeout: 10 * time.Second}
	c := &http.Client{Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 4, IdleConnTimeout: 2 * time.Second}}
	return func(ctx context.Context, pasarela string, e examen.Encargo) examen.Resultado {
		o := altasegura.Opciones{Nombre: e.Nombre, URL: e.URL, Pasarela: pasarela, Salida: io.Discard, Cliente: c}
		switch tipo {
		case "sin-llave":
			o.SinLlave = true
		case "llave-por-intento":
			o.LlavePorIntento = true
		case "sin-reintentos":
			o.Politica = reintento.PoliticaAlta()
			o.Politica.Intentos = 1
		}
		return examen.Resultado{Salida: altasegura.Correr(ctx, o)}
	}
}

// veredicto is a grading's checks, id → state, from its --json.
type veredicto map[string]string

func leerVeredicto(js []byte) (veredicto, []intencion, error) {
	v, ins, _, err := leerConDetalles(js)
	return v, ins, err
}

// leerConDetalles also keeps each check's first details, to say why a verdict differs.
func leerConDetalles(js []byte) (veredicto, []intencion, map[string][]string, error) {
	var v struct {
		Comprobaciones []examen.Comprobacion `json:"comprobaciones"`
		Intenciones    []intencion           `json:"intenciones"`
	}
	if err := json.Unmarshal(js, &v); err != nil {
		return nil, nil, nil, err
	}
	r, detalles := veredicto{}, map[string][]string{}
	for _, c := range v.Comprobaciones {
		detalles[c.ID] = c.Detalles
		e := c.Estado
		if e == "" {
			e = map[bool]string{true: examen.EstadoPaso, false: examen.EstadoFallo}[c.Paso]
		}
		r[c.ID] = e
	}
	return r, v.Intenciones, detalles, nil
}

type intencion struct {
	Escenario  string   `json:"escenario"`
	Intentos   int      `json:"intentos"`
	Respuestas []string `json:"respuestas"`
	Hecha      bool     `json:"alta_hecha"`
}

// distintas are v's checks whose state differs in otro.
func distintas(v, otro veredicto) string {
	var l []string
	for _, c := range examen.Checks {
		if v[c.ID] != otro[c.ID] {
			l = append(l, c.ID+"="+v[c.ID])
		}
	}
	return strings.Join(l, " ")
}

func (v veredicto) String() string {
	var l []string
	for _, c := range examen.Checks {
		l = append(l, c.ID+"="+v[c.ID])
	}
	return strings.Join(l, " ")
}

// solo is a (client, seed) pair graded alone.
type solo struct {
	v           veredicto
	intenciones []intencion
	duracion    time.Duration
}

func correr(n int, bin string, pg bool, datosURL string, revisores int, cliente func(string) examen.Lanzador) error {
	ctx, cancelar := context.WithCancel(context.Background())
	defer cancelar()
	dir, err := os.MkdirTemp("", "clase-carga")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	donde := ""
	switch {
	case datosURL != "":
		donde = datosURL
	case pg:
		srv, err := pgefimero.Arrancar(ctx, "")
		if err != nil {
			return err
		}
		defer srv.Detener()
		if donde, err = srv.CrearBase(ctx, "clase"); err != nil {
			return err
		}
	}

	// The roster and the lab.
	var nombres []string
	for i := range n {
		nombres = append(nombres, fmt.Sprintf("Alumno %03d", i+1))
	}
	lista := filepath.Join(dir, "alumnos.txt")
	if err := os.WriteFile(lista, []byte(strings.Join(nombres, "\n")+"\n"), 0o600); err != nil {
		return err
	}
	// The class lab's server itself (laboratorio clase iniciar runs this one), so that its memory
	// is the one measured.
	args := []string{"clase", "--dir", filepath.Join(dir, "clase"), "--lista", lista,
		"--puerto", "0", "--puerto-pasarela", "0", "--revisores", strconv.Itoa(revisores)}
	if donde != "" {
		args = append(args, "--datos", donde)
	}
	lab := exec.CommandContext(ctx, filepath.Join(bin, "revisor"), args...)
	salida, err := lab.StdoutPipe()
	if err != nil {
		return err
	}
	lab.Stderr = os.Stderr
	if err := lab.Start(); err != nil {
		return fmt.Errorf("no arranca %s: %w (¿make build?)", lab.Path, err)
	}
	defer func() { lab.Process.Signal(os.Interrupt); lab.Wait() }() //nolint:errcheck // the end
	pizarra, err := esperarPizarra(salida)
	if err != nil {
		return err
	}
	creds, err := leerCredenciales(filepath.Join(dir, "clase", "credenciales.txt"))
	if err != nil {
		return err
	}

	// Every student at the same moment.
	type alumno struct {
		tipo     string
		semilla  uint64
		v        veredicto
		detalles map[string][]string
		ins      []intencion
		duracion time.Duration
		err      error
	}
	al := make([]alumno, n)
	var todos sync.WaitGroup
	salida1 := make(chan struct{})
	for i := range n {
		al[i].tipo, al[i].semilla = tipos[i%len(tipos)], semillas[(i/len(tipos))%len(semillas)]
		todos.Add(1)
		go func() {
			defer todos.Done()
			a := &al[i]
			s := a.semilla
			<-salida1
			inicio := time.Now()
			// Each student's door to the class gateway on a port of its own, its connections from an
			// address of its own: a machine each, as in a classroom.
			v, err := examen.CorrerEnClase(ctx, examen.OpcionesClase{URL: pizarra, Credencial: creds[nombres[i]], Orden: []string{a.tipo},
				Semilla: &s, Lanzador: cliente(a.tipo), PuertosLibres: true, Desde: direccionDe(i)})
			a.duracion = time.Since(inicio)
			if err != nil {
				a.err = err
				return
			}
			a.v, a.ins, a.detalles, a.err = leerConDetalles(v.JSON)
		}()
	}
	close(salida1)
	todos.Wait()
	rss := memoria(lab.Process.Pid)

	// The same clients and seeds, alone, one after another, with the local grader.
	solos := map[string]*solo{}
	for _, a := range al {
		k := a.tipo + "/" + strconv.FormatUint(a.semilla, 10)
		if solos[k] != nil {
			continue
		}
		inicio := time.Now()
		inf, err := examen.Correr(ctx, examen.Opciones{Orden: []string{a.tipo}, Semilla: a.semilla, PuertosLibres: true, Lanzador: cliente(a.tipo)})
		if err != nil {
			return fmt.Errorf("a solas %s: %w", k, err)
		}
		var js strings.Builder
		inf.JSON(&js) //nolint:errcheck // a builder
		v, ins, err := leerVeredicto([]byte(js.String()))
		if err != nil {
			return err
		}
		solos[k] = &solo{v, ins, time.Since(inicio)}
	}

	iguales, perdidas := 0, 0
	var tiempos, tiemposSolos []time.Duration
	for i, a := range al {
		s := solos[a.tipo+"/"+strconv.FormatUint(a.semilla, 10)]
		if a.err != nil {
			fmt.Printf("%s (%s, semilla %d): %v\n", nombres[i], a.tipo, a.semilla, a.err)
			perdidas += len(s.intenciones)
			continue
		}
		tiempos = append(tiempos, a.duracion)
		if a.v.String() == s.v.String() {
			iguales++
		} else {
			fmt.Printf("%s (%s, semilla %d): en clase %s; a solas %s\n", nombres[i], a.tipo, a.semilla, distintas(a.v, s.v), distintas(s.v, a.v))
			for id, e := range a.v {
				if s.v[id] != e {
					for _, d := range a.detalles[id] {
						fmt.Printf("    %s: %s\n", id, d)
						// What that intent got, attempt by attempt, in class and alone.
						esc, _, _ := strings.Cut(d, ":")
						for j, in := range a.ins {
							if in.Escenario == strings.Fields(esc + " x")[0] && j < len(s.intenciones) {
								fmt.Printf("      en clase %v; a solas %v\n", in.Respuestas, s.intenciones[j].Respuestas)
							}
						}
					}
				}
			}
		}
		// An intent the client ran whose attempts never reached the lab's records.
		for j, in := range s.intenciones {
			if j < len(a.ins) && in.Intentos > 0 && a.ins[j].Intentos == 0 {
				perdidas++
			}
		}
	}
	for _, s := range solos {
		tiemposSolos = append(tiemposSolos, s.duracion)
	}
	fmt.Printf("laboratorio clase: %d MB de RSS como mucho (VmHWM), %d revisor(es), %s, %d núcleos\n", rss>>20, revisores,
		map[bool]string{true: "PostgreSQL", false: "SQLite"}[donde != ""], runtime.NumCPU())
	fmt.Printf("clase: %d alumnos, %d de %d veredictos como a solas, p95 %.1f s (a solas %.1f s), %d intenciones perdidas\n",
		n, iguales, n, p95(tiempos).Seconds(), p95(tiemposSolos).Seconds(), perdidas)
	if iguales != n || perdidas != 0 {
		return errDistinto
	}
	return nil
}

// direccionDe is student i's own loopback address (Linux routes all of 127/8 to lo); elsewhere nil.
func direccionDe(i int) string {
	if runtime.GOOS != "linux" {
		return ""
	}
	return net.IPv4(127, 1, byte(i/250), byte(2+i%250)).String()
}

func p95(l []time.Duration) time.Duration {
	if len(l) == 0 {
		return 0
	}
	slices.Sort(l)
	return l[min(len(l)-1, (len(l)*95+99)/100-1)]
}

var rePizarra = regexp.MustCompile(`pizarra en (http://\S+)/clase`)

// esperarPizarra reads the lab's lines until it says where its board listens.
func esperarPizarra(r io.Reader) (string, error) {
	s := bufio.NewScanner(r)
	for s.Scan() {
		if m := rePizarra.FindStringSubmatch(s.Text()); m != nil {
			go io.Copy(io.Discard, r) //nolint:errcheck // the rest of its log
			return m[1], nil
		}
	}
	return "", errors.New("el laboratorio de la clase terminó sin decir dónde escucha")
}

func leerCredenciales(ruta string) (map[string]string, error) {
	b, err := os.ReadFile(ruta)
	if err != nil {
		return nil, err
	}
	m := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		nombre, cred, ok := strings.Cut(l, "\t")
		if ok {
			m[nombre] = cred
		}
	}
	return m, nil
}

// memoria is the process's peak resident memory (VmHWM), in bytes; 0 where /proc has none.
func memoria(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}
