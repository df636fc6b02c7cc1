//go:build unix

// Command escenas replays the lessons' scenes (the request series and
// program runs of Lessons 4, 6 and 7) against the suite's programs and says
// whether each one still prints what the lesson prints.
//
// It is a small program of its own, not a subcommand of the suite: it drives
// the four binaries (revisor, laboratorio, pasarela, alta-segura) from the
// outside, exactly as a student does — servers on the course's ports, bash,
// curl, the client programs on PATH — so it must not link them.
//
// # Transcript format (scripts/leccion-N/<sección>-<tema>.escena; the Spanish note's in scripts/leccion-nota/)
//
// A transcript is written in the lessons' own form:
//
//	# 4.4.3 — El revisor como pasarela: GET /servicios/{id}/salud
//	# servidores: laboratorio revisor
//	$ curl -i http://127.0.0.1:18080/servicios/2/salud -H 'Authorization: Bearer lectura-a'
//	HTTP/1.1 200 OK
//	Content-Type: application/json
//	…
//
// A line starting with "$ " is a command, typed in the scene's one bash (the
// student's one terminal, Consola) in a fresh temporary folder, with the bin
// folder first in PATH and LC_ALL=C.UTF-8: variables, functions and programs
// left in the background with & are there for the next commands, and what
// such a program prints shows among their lines; whatever is still running
// when the scene ends is stopped. The lines after it, up to the next command
// or # line, are what the lesson prints (stdout and stderr together, as in a
// terminal); trailing blank lines are ignored. A line starting with \ loses
// the backslash, so output may start with # or $.
//
// Lines starting with # are comments, except these directives (the colon is
// optional):
//
//	# servidores: laboratorio revisor   start these fresh before the first step
//	# arrancar: mentira 503:2 201       start a server here (with arguments)
//	# detener: revisor                  stop it here, like Ctrl+C (SIGTERM, then SIGKILL)
//	# reiniciar: revisor                detener + arrancar, with the arguments of its last start
//	# lección: 4                        revisor and laboratorio are that lesson's (--leccion 4)
//	# env: ALTA_LIMITE_MS=300           environment for later commands and servers
//	# sale: 1                           the next command must exit with this code
//	# bitácora: revisor [sin orden]     the lines below are that server's terminal so far
//	# necesita: jq                      a program beyond bash and curl the commands run: without
//	                                    it the scene is skipped (a failure under CURSOHTTP_CI=1)
//	# espera: revisor POST /servicios   the next command's sleeps first wait for one more such
//	                                    line in that server's terminal, then sleep their time (the
//	                                    lesson's order, on a loaded machine too)
//
// Servers: revisor (18080), laboratorio (18081), pasarela (18082),
// mentira (`laboratorio mentira …`, 18082) and hostil (`laboratorio hostil`,
// 18083). Each scene starts with all four ports free and ends with every
// server it started stopped and its port closed.
//
// In expected lines, a line that is only … stands for any number of lines,
// and a line ending in … for any line that starts with what precedes it (the
// lessons use … for elided output).
//
// Before comparing, both sides are normalised with the table Reglas in
// normalizar.go — exactly what the course says changes between runs. The
// header block of each `curl -i` is compared line by line, in order, Node's
// Connection and Keep-Alive lines included: the suite writes heads as the
// course's programs do. Anything else that differs is a real difference.
//
// Usage:
//
//	escenas [--bin bin] [--escenas scripts] [--paso] [--paralelo n] [--lista] [--escena nombre] [escena|carpeta|archivo ...]
//
// On Linux, unless --paso or --paralelo 1, scenes run several at once (--paralelo, 12 by default),
// each in a child process with a network namespace of its own (a new user namespace too when not
// root, as `unshare -rn`), so the course's ports are always free for it and nothing on the
// machine's own ports is touched. The lines come out in the scenes' order, as one by one. Where
// no namespace can be made, scenes run one after another on the machine's ports.
//
// With no arguments it replays every scene under scripts/leccion-*/. A name
// may be a section: "4.4" replays every scene of §4.4 and its subsections (and "7.1" not 7.10);
// a name that does not end in a digit is a plain prefix. --escena picks the same
// way among the scenes the arguments name.
//
// Every start of the revisor records its exchanges (pkg/grabacion's hidden hook, switched on with
// CURSOHTTP_GRABAR; nothing it prints changes), and when the scene's servers have stopped each
// response is checked against the revisor's OpenAPI document, read from `revisor openapi` (the
// broken versions, --defecto, are left out): a response outside it is a difference.
//
// It drives bash, process groups and flock, as on the course's machines; on Windows it runs in WSL.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"cursohttp/pkg/curso"
)

func main() {
	ctx, parar := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	var codigo int
	if modo := os.Getenv(variableHija); modo != "" {
		codigo = Hija(ctx, modo, os.Args[1:], os.Stdout, ServidoresDelCurso(), PuertosDelCurso())
	} else {
		codigo = run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	}
	parar()
	os.Exit(codigo)
}

func run(ctx context.Context, args []string, entrada io.Reader, salida, errores io.Writer) int {
	banderas := flag.NewFlagSet("escenas", flag.ContinueOnError)
	banderas.SetOutput(errores)
	bin := banderas.String("bin", "bin", "carpeta con revisor, laboratorio, pasarela y alta-segura")
	raiz := banderas.String("escenas", "scripts", "carpeta que contiene leccion-4/, leccion-6/, leccion-7/ y leccion-nota/")
	paso := banderas.Bool("paso", false, "para antes de cada comando: Enter lo ejecuta y muestra su salida en vivo")
	lista := banderas.Bool("lista", false, "lista las escenas y no reproduce nada")
	paralelo := banderas.Int("paralelo", 0, fmt.Sprintf("cuántas escenas a la vez, cada una en su propio espacio de red (Linux); 0: %d, 1: una tras otra en los puertos de esta máquina", ParaleloPorOmision))
	elegida := banderas.String("escena", "", "solo esta escena, o las de esta sección y sus subsecciones (7.1 no incluye 7.10), o las que empiezan así (6.5.4-ment)")
	banderas.Usage = func() {
		fmt.Fprintln(errores, "uso: escenas [--bin bin] [--escenas scripts] [--paso] [--paralelo n] [--lista] [--escena nombre] [escena|carpeta|archivo ...]")
		banderas.PrintDefaults()
	}
	if err := banderas.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	rutas, err := Buscar(*raiz, banderas.Args())
	if err == nil && *elegida != "" {
		rutas, err = Elegir(rutas, *elegida)
	}
	if err != nil {
		fmt.Fprintln(errores, "escenas:", err)
		return 2
	}
	var escenas []*Escena
	for _, r := range rutas {
		e, err := LeerEscena(r)
		if err != nil {
			fmt.Fprintln(errores, "escenas:", err)
			return 2
		}
		escenas = append(escenas, e)
	}
	if *lista {
		for _, e := range escenas {
			fmt.Fprintf(salida, "%-44s %s\n", filepath.Base(filepath.Dir(e.Ruta))+"/"+e.Nombre, e.Titulo)
		}
		return 0
	}
	color := false
	if f, ok := salida.(*os.File); ok {
		color = ConColor(f, os.LookupEnv)
	}
	inicio := time.Now()
	bien, saltadas := 0, 0
	modo := "una tras otra"
	// --paso is an instructor at the keyboard, on the machine's own ports; otherwise each scene
	// gets a network of its own when this machine can give it one.
	yo, err := os.Executable()
	if *paralelo != 1 && !*paso && err == nil && redDisponible(yo) {
		bin, err := filepath.Abs(*bin)
		if err != nil {
			fmt.Fprintln(errores, "escenas:", err)
			return 2
		}
		n := *paralelo
		if n <= 0 {
			n = ParaleloPorOmision
		}
		modo = fmt.Sprintf("hasta %d a la vez, cada una en su propia red", n)
		bien, saltadas = reproducirEnParalelo(ctx, yo, bin, escenas, n, EspaciadoPorOmision, salida)
	} else {
		candado, err := TomarCandado()
		if err != nil {
			fmt.Fprintln(errores, "escenas:", err)
			return 2
		}
		defer candado.Close()
		r := nuevoReproductor(*bin, *paso, entrada, salida, color)
		for _, e := range escenas {
			if *paso {
				fmt.Fprintf(salida, "\n%s\n", r.tinta(negrita, "=== "+e.Nombre))
			}
			res := r.Reproducir(ctx, e)
			switch ok, salto := informar(salida, e, res, *paso); {
			case ok:
				bien++
			case salto:
				saltadas++
			}
			if ctx.Err() != nil {
				break
			}
			// Another copy, or a server started by hand: stop rather than report
			// every remaining scene as failed.
			if errors.Is(res.Err, ErrPuertoOcupado) {
				break
			}
		}
	}
	fmt.Fprintf(salida, "tiempo: %.0f s (%s)\n", time.Since(inicio).Seconds(), modo)
	// A scene skipped for want of a program (its «salta» line says which) is not counted: outside
	// CI the run passes without it, and make test's last line names it.
	if saltadas > 0 {
		fmt.Fprintf(salida, "%d de %d escenas como en la lección; %d saltada(s) (su línea «salta» dice por qué)\n", bien, len(escenas)-saltadas, saltadas)
	} else {
		fmt.Fprintf(salida, "%d de %d escenas como en la lección\n", bien, len(escenas))
	}
	if bien != len(escenas)-saltadas {
		return 1
	}
	return 0
}

// PuertosDelCurso are the ports that must be free when a scene starts.
func PuertosDelCurso() []int {
	return []int{curso.PuertoRevisor, curso.PuertoLaboratorio, curso.PuertoPasarela, curso.PuertoHostil}
}

// ParaleloPorOmision is how many scenes run at once when each has a network of its own, and
// EspaciadoPorOmision the least time between two starts. A scene mostly waits (its timers, its
// servers' timeouts): all of them together cost about 5 s of CPU for some 240 s of replay.
const (
	ParaleloPorOmision  = 12
	EspaciadoPorOmision = 100 * time.Millisecond
)

// nuevoReproductor is the replayer with the lessons' limits.
func nuevoReproductor(bin string, paso bool, entrada io.Reader, salida io.Writer, color bool) *Reproductor {
	if entrada == nil {
		entrada = strings.NewReader("")
	}
	return &Reproductor{
		Bin: bin, Programas: ServidoresDelCurso(), Puertos: PuertosDelCurso(),
		Paso: paso, Entrada: bufio.NewReader(entrada), Salida: salida, Color: color,
		LimiteComando: 90 * time.Second, EsperaBitacora: 2 * time.Second,
		Contratos: NuevosContratos(bin),
	}
}

// informar prints how one scene went, the same lines whether it ran here or in a child, and says
// whether it went as in the lesson, or was skipped for a program not installed.
func informar(salida io.Writer, e *Escena, res Resultado, paso bool) (bien, saltada bool) {
	switch {
	case res.Saltada != "":
		fmt.Fprintf(salida, "salta  %s: %s\n", e.Nombre, res.Saltada)
		return false, true
	case errors.Is(res.Err, context.Canceled):
		fmt.Fprintf(salida, "ERROR  %s: interrumpida (Ctrl+C); los servidores de la escena se detuvieron\n", e.Nombre)
	case res.Err != nil:
		fmt.Fprintf(salida, "ERROR  %s: %v\n", e.Nombre, res.Err)
	case res.Bien():
		fmt.Fprintf(salida, "ok     %s (%.1f s)\n", e.Nombre, res.Duracion.Seconds())
		return true, false
	default:
		fmt.Fprintf(salida, "FALLA  %s (%.1f s)\n", e.Nombre, res.Duracion.Seconds())
		if !paso {
			for _, d := range res.Diferencias {
				fmt.Fprint(salida, sangrar(d))
			}
		}
	}
	return false, false
}

func sangrar(s string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if l != "" {
			b.WriteString("       " + l)
		}
	}
	return b.String()
}

// Buscar turns the arguments into transcript paths: a file, a folder (its
// *.escena), or a name or name prefix looked up under raiz/leccion-*/.
// No arguments means every scene.
func Buscar(raiz string, args []string) ([]string, error) {
	todas, err := filepath.Glob(filepath.Join(raiz, "leccion-*", "*"+Extension))
	if err != nil {
		return nil, err
	}
	if len(args) == 0 {
		if len(todas) == 0 {
			return nil, fmt.Errorf("no hay escenas en %s/leccion-*/", raiz)
		}
		ordenarPorSeccion(todas)
		return todas, nil
	}
	var rutas []string
	for _, a := range args {
		if info, err := os.Stat(a); err == nil {
			if info.IsDir() {
				en, _ := filepath.Glob(filepath.Join(a, "*"+Extension))
				if len(en) == 0 {
					return nil, fmt.Errorf("no hay escenas en %s", a)
				}
				ordenarPorSeccion(en)
				rutas = append(rutas, en...)
			} else {
				rutas = append(rutas, a)
			}
			continue
		}
		nombre := strings.TrimSuffix(a, Extension)
		var encontradas []string
		for _, t := range todas {
			base := strings.TrimSuffix(filepath.Base(t), Extension)
			if base == nombre {
				encontradas = []string{t}
				break
			}
			if EsDeLaSeccion(base, nombre) {
				encontradas = append(encontradas, t)
			}
		}
		if len(encontradas) == 0 {
			return nil, fmt.Errorf("no encuentro la escena «%s» (mira escenas --lista)", a)
		}
		ordenarPorSeccion(encontradas)
		rutas = append(rutas, encontradas...)
	}
	return rutas, nil
}

// EsDeLaSeccion says whether the scene called base is nombre or falls under it. A name ending in a
// digit is a section: «7.1» takes 7.1 and its subsections (7.1-…, 7.1.2-…) but not 7.10-7.14;
// any other name is a plain prefix («6.5.4-ment»).
func EsDeLaSeccion(base, nombre string) bool {
	resto, ok := strings.CutPrefix(base, nombre)
	if !ok || resto == "" || nombre == "" {
		return ok
	}
	if u := nombre[len(nombre)-1]; u >= '0' && u <= '9' {
		return resto[0] == '.' || resto[0] == '-'
	}
	return true
}

// Elegir keeps the scenes whose name is nombre, or else falls under it (EsDeLaSeccion).
func Elegir(rutas []string, nombre string) ([]string, error) {
	nombre = strings.TrimSuffix(filepath.Base(nombre), Extension)
	var elegidas []string
	for _, r := range rutas {
		base := strings.TrimSuffix(filepath.Base(r), Extension)
		if base == nombre {
			return []string{r}, nil
		}
		if EsDeLaSeccion(base, nombre) {
			elegidas = append(elegidas, r)
		}
	}
	if len(elegidas) == 0 {
		return nil, fmt.Errorf("no encuentro la escena «%s» (make escenas-lista, o escenas --lista)", nombre)
	}
	return elegidas, nil
}

// ordenarPorSeccion sorts by lesson section as numbers, so 7.2 comes before
// 7.14, and unnumbered parts (4.ejercicio-1, 4.final) after the sections.
func ordenarPorSeccion(rutas []string) {
	partes := func(r string) []string {
		num, _, _ := strings.Cut(filepath.Base(r), "-")
		return strings.Split(num, ".")
	}
	antes := func(a, b string) (bool, bool) {
		na, ea := strconv.Atoi(a)
		nb, eb := strconv.Atoi(b)
		switch {
		case ea == nil && eb == nil:
			return na < nb, na != nb
		case ea == nil:
			return true, true
		case eb == nil:
			return false, true
		}
		return a < b, a != b
	}
	sort.SliceStable(rutas, func(i, j int) bool {
		a, b := partes(rutas[i]), partes(rutas[j])
		for k := 0; k < len(a) && k < len(b); k++ {
			if menor, distinto := antes(a[k], b[k]); distinto {
				return menor
			}
		}
		if len(a) != len(b) {
			return len(a) < len(b)
		}
		return rutas[i] < rutas[j]
	})
}

// Candado keeps two replays from fighting over the course's ports.
type Candado struct{ f *os.File }

// TomarCandado takes the replay lock of this network namespace without waiting: the ports it
// guards are the namespace's, so replays in separate namespaces (engineers on one machine, each
// in `unshare -n`) do not wait for each other.
func TomarCandado() (*Candado, error) {
	nombre := "cursohttp-escenas.lock"
	if red := espacioDeRed(); red != "" {
		nombre = "cursohttp-escenas-red" + red + ".lock"
	}
	ruta := filepath.Join(os.TempDir(), nombre)
	f, err := os.OpenFile(ruta, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("otra copia de las escenas está corriendo (tiene %s); usan los puertos %d-%d, así que solo puede correr una a la vez", ruta, curso.PuertoRevisor, curso.PuertoHostil)
	}
	return &Candado{f: f}, nil
}

// Close releases the lock.
func (c *Candado) Close() error { return c.f.Close() }
