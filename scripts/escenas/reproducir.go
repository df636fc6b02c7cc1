//go:build unix

package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"cursohttp/internal/saltos"
)

// Reproductor replays scenes.
type Reproductor struct {
	Bin       string              // folder with revisor, laboratorio, pasarela, alta-segura
	Programas map[string]Programa // the servers a scene may start
	Puertos   []int               // must be free when a scene starts
	Paso      bool                // pause before each command (--paso)
	Entrada   *bufio.Reader       // where Enter comes from in --paso
	Salida    io.Writer           // where --paso shows everything live
	Color     bool                // ANSI colours on Salida: a terminal, and no NO_COLOR
	// LimiteComando bounds one command; the longest lesson command is a sleep 8.
	LimiteComando time.Duration
	// EsperaBitacora is how long a server's terminal may take to show its lines.
	EsperaBitacora time.Duration
	// Contratos, if set, checks every response of the scene's revisor against the OpenAPI
	// document once the scene's servers have stopped (a response outside it is a difference).
	Contratos *Contratos
}

// Resultado is how one scene went.
type Resultado struct {
	Escena      *Escena
	Diferencias []string // readable reports; empty means "como en la lección"
	Err         error    // the scene could not run (a port taken, a binary missing)
	// Saltada says why the scene did not run: a program of its «# necesita» is not installed.
	Saltada  string
	Duracion time.Duration
}

// Bien says whether the scene ran as in the lesson.
func (r Resultado) Bien() bool { return r.Err == nil && r.Saltada == "" && len(r.Diferencias) == 0 }

// faltaAlgo says which program of the scene's «# necesita» is not installed, in a sentence: the
// scene is then skipped, and the skip recorded for make test's last line (internal/saltos); CI
// installs them all, so under CURSOHTTP_CI=1 it is an error instead.
func faltaAlgo(e *Escena) (saltada string, err error) {
	for _, programa := range e.Necesita {
		if _, falta := exec.LookPath(programa); falta != nil {
			if os.Getenv("CURSOHTTP_CI") == "1" {
				return "", fmt.Errorf("la escena necesita %s, que no está instalado, y CURSOHTTP_CI=1 pide todas", programa)
			}
			saltada = programa + " no está instalado"
			return saltada, saltos.Anotar("escena "+e.Nombre, saltada)
		}
	}
	return "", nil
}

// curlrc reproduces how the lessons were recorded: "-sS was added to every
// curl (output went to a file) and then removed from the command lines
// shown" (L6 §0.1, L7 §0.3). Without it curl draws a progress meter whenever
// its output is not a terminal, which it never is here.
const curlrc = "silent\nshow-error\n"

func (r *Reproductor) entorno(bin, dir string) []string {
	var env []string
	for _, kv := range os.Environ() {
		nombre, _, _ := strings.Cut(kv, "=")
		switch nombre {
		// CURSO_LECCION would change which program the servers are; a scene says it with "# lección".
		// ESCENAS_HIJA is this replayer's own word to its children, not the scene's.
		case "PATH", "LC_ALL", "CURL_HOME", "CURSO_LECCION", variableHija:
			continue
		}
		env = append(env, kv)
	}
	return append(env,
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		// The lessons' texts are UTF-8 (ó, →, «»); a C locale would mangle what bash passes.
		"LC_ALL=C.UTF-8",
		"CURL_HOME="+dir,
	)
}

// Reproducir runs one scene on freshly started servers and stops them all.
func (r *Reproductor) Reproducir(ctx context.Context, e *Escena) (res Resultado) {
	inicio := time.Now()
	res.Escena = e
	defer func() { res.Duracion = time.Since(inicio) }()
	if res.Saltada, res.Err = faltaAlgo(e); res.Saltada != "" || res.Err != nil {
		return res
	}
	for _, p := range r.Puertos {
		if PuertoOcupado(p) {
			res.Err = puertoOcupadoError(p)
			return res
		}
	}
	bin, err := filepath.Abs(r.Bin)
	if err != nil {
		res.Err = err
		return res
	}
	dir, err := os.MkdirTemp("", "escena-")
	if err != nil {
		res.Err = err
		return res
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, ".curlrc"), []byte(curlrc), 0o644); err != nil {
		res.Err = err
		return res
	}
	entorno := r.entorno(bin, dir)
	flota := NuevaFlota(bin, dir, r.Programas, entorno)
	flota.Leccion = e.Leccion
	if r.Contratos != nil {
		// Outside the scene's folder, where its commands could see the files.
		grabaciones, err := os.MkdirTemp("", "escena-grabaciones-")
		if err != nil {
			res.Err = err
			return res
		}
		defer os.RemoveAll(grabaciones)
		flota.Grabaciones = grabaciones
	}
	// The student's one terminal, opened at the first command; closing it (what it left running
	// in the background goes with it) comes before the servers stop, as a student would.
	terminal := &terminalDeEscena{dir: dir, entorno: entorno}
	defer func() {
		terminal.cerrar()
		if err := flota.DetenerTodos(); err != nil {
			res.Diferencias = append(res.Diferencias, "al terminar: "+err.Error())
		}
		if r.Contratos != nil && res.Err == nil {
			res.Diferencias = append(res.Diferencias, r.Contratos.validarGrabaciones(e.Ruta, flota.Grabadas())...)
		}
	}()
	mostrado := 0 // the last transcript line whose comments --paso has shown
	if r.Paso {
		primero := 1 << 30
		if len(e.Pasos) > 0 {
			primero = e.Pasos[0].Numero
		}
		r.mostrarComentarios(e, mostrado, primero)
		mostrado = primero - 1
	}
	for _, nombre := range e.Servidores {
		if r.Paso {
			fmt.Fprintln(r.Salida, r.tinta(tenue, "# arranco "+strings.Join(flota.Linea(nombre, nil), " ")))
		}
		if err := flota.Arrancar(ctx, nombre, nil, e.Entorno); err != nil {
			res.Err = err
			return res
		}
	}
	nEsp, nObt := NuevoNumerador(), NuevoNumerador()
	for _, p := range e.Pasos {
		if ctx.Err() != nil {
			res.Err = ctx.Err()
			return res
		}
		if r.Paso {
			r.mostrarComentarios(e, mostrado, p.Numero)
			mostrado = p.Numero
		}
		switch p.Tipo {
		case Arrancar:
			args := p.Args
			if p.Repetir {
				args = flota.Ultimos(p.Servidor)
			}
			if r.Paso {
				fmt.Fprintln(r.Salida, r.tinta(tenue, "# arranco "+strings.Join(flota.Linea(p.Servidor, args), " ")))
			}
			if err := flota.Arrancar(ctx, p.Servidor, args, p.Env); err != nil {
				res.Err = fmt.Errorf("%s:%d: %w", e.Ruta, p.Numero, err)
				return res
			}
		case Detener:
			if r.Paso {
				fmt.Fprintln(r.Salida, r.tinta(tenue, "# detengo "+p.Servidor+" (Ctrl+C)"))
			}
			if err := flota.Detener(p.Servidor); err != nil {
				res.Err = fmt.Errorf("%s:%d: %w", e.Ruta, p.Numero, err)
				return res
			}
		case Comando:
			d, err := r.comando(ctx, e, p, terminal, flota, nEsp, nObt)
			if err != nil {
				res.Err = err
				return res
			}
			if d != "" {
				res.Diferencias = append(res.Diferencias, d)
			}
		case Bitacora:
			d := r.bitacora(ctx, e, p, flota, nEsp, nObt)
			if d != "" {
				res.Diferencias = append(res.Diferencias, d)
			}
		}
	}
	return res
}

// terminalDeEscena opens the scene's console at its first command, and again after a command
// closed it (exit): a new terminal, as a student would open.
type terminalDeEscena struct {
	dir     string
	entorno []string
	consola *Consola
}

func (t *terminalDeEscena) abierta() (*Consola, error) {
	if t.consola != nil && t.consola.Viva() {
		return t.consola, nil
	}
	t.cerrar()
	c, err := AbrirConsola(t.dir, t.entorno)
	if err != nil {
		return nil, err
	}
	t.consola = c
	return c, nil
}

func (t *terminalDeEscena) cerrar() {
	if t.consola != nil {
		t.consola.Cerrar()
		t.consola = nil
	}
}

// comando types one `$ ` line in the scene's terminal and compares what it printed.
func (r *Reproductor) comando(ctx context.Context, e *Escena, p Paso, terminal *terminalDeEscena, flota *Flota, nEsp, nObt *Numerador) (string, error) {
	if r.Paso {
		fmt.Fprint(r.Salida, "\n"+r.tinta(negrita, "$ "+p.Comando))
		if err := r.esperarEnter(ctx); err != nil {
			return "", err
		}
	}
	var eco io.Writer
	if r.Paso {
		eco = r.Salida
	}
	orden := Orden{Comando: p.Comando, Entorno: p.Env}
	if p.Espera != nil {
		carpeta, evento, terminar, err := esperarEvento(ctx, *p.Espera, flota.Terminales[p.Espera.Servidor])
		if err != nil {
			return "", fmt.Errorf("%s:%d: %w", e.Ruta, p.Numero, err)
		}
		defer terminar()
		orden.Primero, orden.Evento = carpeta, evento
	}
	consola, err := terminal.abierta()
	if err != nil {
		return "", fmt.Errorf("%s:%d: %w", e.Ruta, p.Numero, err)
	}
	limite := r.LimiteComando
	if limite == 0 {
		limite = 90 * time.Second
	}
	salida, codigo, err := consola.Correr(ctx, orden, eco, limite)
	if err != nil {
		return "", fmt.Errorf("%s:%d: %w", e.Ruta, p.Numero, err)
	}
	d := comparar(e.Ruta, p.Numero, p.Esperado, salida, "$ "+p.Comando, nEsp, nObt)
	if p.Sale != nil && codigo != *p.Sale {
		d += fmt.Sprintf("%s:%d: «$ %s» salió con %d; la escena espera %d\n", e.Ruta, p.Numero, p.Comando, codigo, *p.Sale)
	}
	if r.Paso {
		if d == "" {
			fmt.Fprintln(r.Salida, r.tinta(verde, "✔ como en la lección"))
		} else {
			fmt.Fprintf(r.Salida, "%s\n%s", r.tinta(rojo, "✘ distinto de la lección:"), d)
		}
	}
	return d, nil
}

// bitacora compares a server's terminal, giving it a moment to settle: a
// retry or a log line may still be on its way when the last command returns.
func (r *Reproductor) bitacora(ctx context.Context, e *Escena, p Paso, flota *Flota, nEsp, nObt *Numerador) string {
	t := flota.Terminales[p.Servidor]
	limite := time.Now().Add(r.EsperaBitacora)
	for {
		texto := ""
		if t != nil {
			texto = t.Texto()
		}
		esp, obt := nEsp.Clonar(), nObt.Clonar()
		var d string
		if p.SinOrden {
			d = compararSinOrden(e.Ruta, p.Numero, p.Esperado, texto, "terminal de "+p.Servidor, esp, obt)
		} else {
			d = comparar(e.Ruta, p.Numero, p.Esperado, texto, "terminal de "+p.Servidor, esp, obt)
		}
		if d == "" || time.Now().After(limite) || ctx.Err() != nil {
			*nEsp, *nObt = *esp, *obt
			if r.Paso {
				fmt.Fprintf(r.Salida, "\n%s\n%s", r.tinta(negrita, "--- terminal de "+p.Servidor+":"), texto)
				if d == "" {
					fmt.Fprintln(r.Salida, r.tinta(verde, "✔ como en la lección"))
				} else {
					fmt.Fprintf(r.Salida, "%s\n%s", r.tinta(rojo, "✘ distinto de la lección:"), d)
				}
			}
			return d
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// lineasDe splits a program's output into lines, without the blank lines at
// its end (the transcripts drop them too).
func lineasDe(texto string) []string {
	texto = strings.ReplaceAll(texto, "\r\n", "\n")
	lineas := strings.Split(texto, "\n")
	for len(lineas) > 0 && strings.TrimSpace(lineas[len(lineas)-1]) == "" {
		lineas = lineas[:len(lineas)-1]
	}
	return lineas
}

// comparar normalises both sides and diffs them.
func comparar(ruta string, paso int, esperado []Linea, obtenido, titulo string, nEsp, nObt *Numerador) string {
	textos := make([]string, len(esperado))
	for i, l := range esperado {
		textos[i] = l.Texto
	}
	normE, origen := Normalizar(textos, nEsp)
	esp := make([]Linea, len(normE))
	for i, t := range normE {
		esp[i] = Linea{Texto: t, Numero: esperado[origen[i]].Numero}
	}
	normO, _ := Normalizar(lineasDe(obtenido), nObt)
	return Diferencia(ruta, paso, esp, titulo, normO)
}

// compararSinOrden compares a terminal whose lines may come in any order
// (retries separated by random waits, L6 S-C9): both sides are sorted.
func compararSinOrden(ruta string, paso int, esperado []Linea, obtenido, titulo string, nEsp, nObt *Numerador) string {
	textos := make([]string, len(esperado))
	for i, l := range esperado {
		textos[i] = l.Texto
	}
	normE, origen := Normalizar(textos, nEsp)
	esp := make([]Linea, len(normE))
	for i, t := range normE {
		esp[i] = Linea{Texto: t, Numero: esperado[origen[i]].Numero}
	}
	normO, _ := Normalizar(lineasDe(obtenido), nObt)
	ordenarLineas(esp)
	obt := append([]string(nil), normO...)
	ordenarTextos(obt)
	return Diferencia(ruta, paso, esp, titulo+" (sin orden: ambas partes ordenadas)", obt)
}

func ordenarLineas(l []Linea) {
	for a := 1; a < len(l); a++ {
		for b := a; b > 0 && l[b].Texto < l[b-1].Texto; b-- {
			l[b], l[b-1] = l[b-1], l[b]
		}
	}
}

func ordenarTextos(l []string) {
	for a := 1; a < len(l); a++ {
		for b := a; b > 0 && l[b] < l[b-1]; b-- {
			l[b], l[b-1] = l[b-1], l[b]
		}
	}
}

// esperarEnter waits for the instructor, or for Ctrl+C.
func (r *Reproductor) esperarEnter(ctx context.Context) error {
	fmt.Fprint(r.Salida, "   "+r.tinta(tenue, "[Enter]"))
	listo := make(chan error, 1)
	go func() {
		_, err := r.Entrada.ReadString('\n')
		listo <- err
	}()
	select {
	case err := <-listo:
		if err != nil && err != io.EOF {
			return err
		}
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// mostrarComentarios prints the transcript's comments between two lines, as
// the narration of --paso.
func (r *Reproductor) mostrarComentarios(e *Escena, desde, hasta int) {
	for _, c := range e.Comentario {
		if c.Numero > desde && c.Numero < hasta {
			fmt.Fprintln(r.Salida, r.tinta(tenue, "# "+c.Texto))
		}
	}
}

// The replayer's ANSI styles.
const (
	negrita = "1"
	tenue   = "2"
	rojo    = "31"
	verde   = "32"
)

// tinta styles texto when the output has colour (Color); plain text otherwise.
func (r *Reproductor) tinta(estilo, texto string) string {
	if !r.Color {
		return texto
	}
	return "\033[" + estilo + "m" + texto + "\033[0m"
}

// ConColor says whether to colour what goes to f: a terminal, unless NO_COLOR is set and not
// empty (no-color.org).
func ConColor(f *os.File, entorno func(string) (string, bool)) bool {
	if v, _ := entorno("NO_COLOR"); v != "" {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
