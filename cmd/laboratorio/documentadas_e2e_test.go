//go:build linux

package main

import (
	"cmp"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"cursohttp/internal/prueba/red"
	"cursohttp/pkg/curso"
	"cursohttp/pkg/examen"
	"cursohttp/pkg/ordenes/predecir"
	"cursohttp/pkg/pgefimero"
)

// The command lines the README and docs/comprobar.md and docs/predicciones.md show the instructor
// and the student (issue 40, item 2): every line that starts with «laboratorio clase», «revisor
// comprobar» or «revisor predecir», in a fenced block or in the code of a table's row, is read
// from the files when the test runs, and each must be a row of ordenesDocumentadas below, which
// runs it as a user would (TestOrdenesDocumentadas); a row no document shows any more is stale.

// documentos are the pages whose command lines are run, from the repository's root.
var documentos = []string{"README.md", "docs/comprobar.md", "docs/predicciones.md"}

// ordenDocumentada is one command line the docs show, and how this test runs it: the line itself,
// word by word, with the placeholders a user fills in (IP-DEL-PROFESOR, SU-CREDENCIAL, NOMBRE,
// postgres://…) filled in the same way, in a working folder with the files the docs name
// (alumnos.txt, mi_cliente.py, cliente.mjs, mis-respuestas.txt).
type ordenDocumentada struct {
	linea string // as the docs write it, normalised (normalizarOrden)

	nombre  string                            // who NOMBRE is (a student of the roster; the first if not said)
	mas     func(*escenaDocumentada) []string // what the line's «…» («more of the same») stands for
	entrada func(*escenaDocumentada) string   // what the user types, for a line that asks
	junto   string                            // a revisor on 18080 while it runs: the one the docs start beside it

	// A long-running line runs in the background until the line hasta has run, then gets Ctrl+C
	// (interrumpir) or ends by itself; listo is the line of its output after which the next ones
	// run, and alListo what must hold then.
	hasta       string
	interrumpir bool
	listo       string
	alListo     func(*testing.T, *escenaDocumentada, string)

	codigo int                                          // its exit code
	dice   []string                                     // what its output says, among the rest
	y      func(*testing.T, *escenaDocumentada, string) // and what must hold after it, given its output
}

// escenaDocumentada is one user's session: the lines in the order a user runs them, on a machine
// of their own (the class's: the instructor's, and a student's beside it).
type escenaDocumentada struct {
	nombre  string
	clase   bool // the instructor's machine and a student's; a line with IP-DEL-PROFESOR is the student's
	ordenes []ordenDocumentada

	// While it runs.
	bin                  string
	profesor, estudiante *red.Maquina
	carpeta, carpetaAl   string            // the working folders, the instructor's and the student's
	pg                   string            // a throwaway PostgreSQL's URL, made when a line needs one
	antes                map[string]string // credenciales.txt as it was before the line that runs
}

// What a correct client's report says: every check of the grader's table judged and passed.
var (
	todas        = strconv.Itoa(len(examen.Checks))
	todasDeTodas = todas + " de " + todas
	todasPasaron = todasDeTodas + " comprobaciones del cliente pasaron"
)

// alumnosDocumentados is the roster the test writes in alumnos.txt.
var alumnosDocumentados = []string{"Ana García", "Beto Ruiz", "Carla Díaz"}

var ordenesDocumentadas = []escenaDocumentada{
	{nombre: "calificar a solas", ordenes: []ordenDocumentada{
		{linea: "revisor comprobar cliente -- alta-segura",
			dice: []string{"comprobar cliente: alta-segura, 25 altas", todasPasaron}},
		{linea: "revisor comprobar cliente --semilla 7 -- python3 mi_cliente.py",
			dice: []string{"comprobar cliente: python3 mi_cliente.py, 25 altas con la semilla 7", todasPasaron}},
		{linea: "revisor comprobar historial",
			dice: []string{"alta-segura: " + todasDeTodas, "semilla 7  python3 mi_cliente.py: " + todasDeTodas, "✔ pasó · ✘ falló · ○ no se juzgó"}},
	}},
	{nombre: "el lado del servidor", ordenes: []ordenDocumentada{
		{linea: "revisor comprobar servidor http://127.0.0.1:18080", junto: "revisor",
			dice: []string{"5 de 5 comprobaciones del servidor pasaron"}},
		{linea: "revisor comprobar servidor --vigencia 5s", junto: "revisor --vigencia-llaves 5s",
			dice: []string{"ok    vence", "6 de 6 comprobaciones del servidor pasaron"}},
		// With the lab's revisor on 18080, which only --puertos-libres lets it pass.
		{linea: "revisor comprobar cliente --puertos-libres --json -- node cliente.mjs", junto: "revisor",
			y: informeJSON("node cliente.mjs")},
	}},
	{nombre: "predecir a solas", ordenes: []ordenDocumentada{
		{linea: "revisor predecir", y: listaLosEjercicios},
		{linea: "revisor predecir 6.5.4", entrada: respuestasAlTeclado("6.5.4"), y: acierta("6.5.4")},
		{linea: "revisor predecir 4.ejercicio-1", entrada: respuestasAlTeclado("4.ejercicio-1"), y: acierta("4.ejercicio-1")},
		{linea: "revisor predecir 7.ejercicio-2 --respuesta 413-accion=corregir …", mas: respuestasDeMas("7.ejercicio-2", "413-accion"),
			dice: []string{"dijiste: corregir"}, y: acierta("7.ejercicio-2")},
		{linea: "revisor predecir 6.ejercicio-2 --respuestas mis-respuestas.txt", y: acierta("6.ejercicio-2")},
		{linea: "revisor predecir --ver-historial", y: historialDePredicciones("6.5.4", "4.ejercicio-1", "7.ejercicio-2", "6.ejercicio-2")},
	}},
	{nombre: "la clase", clase: true, ordenes: []ordenDocumentada{
		{linea: "laboratorio clase iniciar --lista alumnos.txt --direccion 0.0.0.0",
			hasta: "laboratorio clase quitar NOMBRE", interrumpir: true, listo: "clase: para quitar filas",
			alListo: arrancoLaClase("(SQLite)", "1 revisor detrás"),
			dice:    []string{"clase: Ana García empieza una calificación", "clase: calificación de Ana García anotada", "clase: predicción 6.5.4-4xx revelada"}},
		{linea: `laboratorio clase agregar "Eva Pérez"`, y: credencialNueva("Eva Pérez")},
		{linea: "revisor comprobar cliente --clase http://IP-DEL-PROFESOR:18084 --credencial SU-CREDENCIAL -- python3 mi_cliente.py",
			dice: []string{todasPasaron}},
		{linea: "laboratorio clase exportar --salida notas.csv", dice: []string{"notas.csv: 4 filas de alumnos y la cabecera"}, y: notasExportadas},
		{linea: "laboratorio clase predecir 6.5.4-4xx", dice: []string{"6.5.4-4xx — ", "abierta: los alumnos responden", "0 de 4 respondieron"}},
		{linea: "revisor predecir --clase http://IP-DEL-PROFESOR:18084 --credencial SU-CREDENCIAL", entrada: respuestasAlTeclado("6.5.4-4xx"),
			hasta: "laboratorio clase predecir revelar", listo: "Respuesta enviada",
			dice: []string{"en la clase, como Ana García", "Tu predicción y lo que pasó:", "En la clase acertaron: "}},
		{linea: "laboratorio clase predecir", dice: []string{"1 de 4 respondieron", "por alumno:", "  Ana García: "}},
		{linea: "laboratorio clase predecir histograma", dice: []string{"respuestas: "}},
		{linea: "laboratorio clase predecir revelar", dice: []string{"revelada", "pasó: ", "por qué: "}},
		{linea: "laboratorio clase predecir cerrar", dice: []string{"pregunta cerrada"}},
		{linea: "laboratorio clase exportar predicciones --salida predicciones.csv", y: prediccionesExportadas},
		{linea: "laboratorio clase entrar", y: enlaceDeUnaVez},
		{linea: "laboratorio clase revocar NOMBRE", nombre: "Beto Ruiz", dice: []string{"la credencial de Beto Ruiz ya no vale"}, y: sinCredencial("Beto Ruiz", false)},
		{linea: "laboratorio clase renovar NOMBRE", nombre: "Beto Ruiz", y: credencialNueva("Beto Ruiz")},
		{linea: "laboratorio clase rotar", dice: []string{"(4 credenciales"}, y: todasNuevas},
		{linea: "laboratorio clase limpiar NOMBRE", dice: []string{"pizarra limpia"}, y: pendientes("Ana García")},
		{linea: "laboratorio clase limpiar", dice: []string{"pizarra limpia"}, y: pendientes(alumnosDocumentados...)},
		{linea: "laboratorio clase quitar NOMBRE", nombre: "Eva Pérez", dice: []string{"Eva Pérez ya no está en la clase"}, y: sinCredencial("Eva Pérez", true)},
	}},
	{nombre: "la clase en PostgreSQL", clase: true, ordenes: []ordenDocumentada{
		{linea: "laboratorio clase iniciar --lista alumnos.txt --direccion 0.0.0.0 --datos postgres://… --revisores 2",
			hasta: "laboratorio clase iniciar --lista alumnos.txt --direccion 0.0.0.0 --datos postgres://… --revisores 2", interrumpir: true,
			listo: "clase: para quitar filas", alListo: arrancoLaClase("en PostgreSQL", "2 revisores detrás")},
	}},
}

// prefijosDocumentados start the lines this test runs.
var prefijosDocumentados = regexp.MustCompile(`^(laboratorio clase|revisor comprobar|revisor predecir)( |$)`)

// ordenesDeLosDocumentos reads the command lines of documentos under raiz, normalised, each with
// where it is written («docs/comprobar.md:273»).
func ordenesDeLosDocumentos(raiz string) (map[string][]string, error) {
	r := map[string][]string{}
	for _, doc := range documentos {
		b, err := os.ReadFile(filepath.Join(raiz, doc))
		if err != nil {
			return nil, err
		}
		enBloque := false
		for i, l := range strings.Split(string(b), "\n") {
			l = strings.TrimSpace(l)
			var candidatas []string
			switch {
			case strings.HasPrefix(l, "```"):
				enBloque = !enBloque
			case enBloque:
				candidatas = []string{l}
			case strings.HasPrefix(l, "|"):
				// The code of a table's row: every other piece between backticks.
				partes := strings.Split(l, "`")
				for j := 1; j < len(partes); j += 2 {
					candidatas = append(candidatas, partes[j])
				}
			}
			for _, c := range candidatas {
				for _, o := range normalizarOrden(c) {
					r[o] = append(r[o], doc+":"+strconv.Itoa(i+1))
				}
			}
		}
	}
	return r, nil
}

// normalizarOrden is what a doc's line says to run, one line per command, or nothing when it is
// not one of the instructor's or the student's commands: without its «# comment»; alternatives
// written «agregar "Eva Pérez" | revocar NOMBRE | rotar» each after the line's program and group
// («laboratorio clase revocar NOMBRE»); an optional word «[NOMBRE]» once without it and once with
// it; the words joined by one space. A program's message that starts with its name («revisor
// comprobar cliente: --enviar ya no existe…») is not a command.
func normalizarOrden(linea string) []string {
	if !prefijosDocumentados.MatchString(linea) {
		return nil
	}
	palabras := palabrasDe(linea)
	for _, p := range palabras[:min(3, len(palabras))] {
		if strings.HasSuffix(p, ":") {
			return nil
		}
	}
	if i := slices.Index(palabras, "#"); i >= 0 {
		palabras = palabras[:i]
	}
	var alternativas [][]string
	for len(palabras) > 0 {
		i := slices.Index(palabras, "|")
		if i < 0 {
			i = len(palabras)
		}
		alt := palabras[:i]
		if len(alternativas) > 0 {
			alt = append(slices.Clone(alternativas[0][:2]), alt...)
		}
		alternativas = append(alternativas, alt)
		palabras = palabras[min(i+1, len(palabras)):]
	}
	var r []string
	for _, alt := range alternativas {
		r = append(r, conOpcionales(alt)...)
	}
	return r
}

// conOpcionales writes a line with its «[OPTIONAL]» words left out and put in.
func conOpcionales(palabras []string) []string {
	i := slices.IndexFunc(palabras, func(p string) bool { return strings.HasPrefix(p, "[") && strings.HasSuffix(p, "]") })
	if i < 0 {
		return []string{strings.Join(palabras, " ")}
	}
	sin := append(slices.Clone(palabras[:i]), palabras[i+1:]...)
	con := append(slices.Clone(palabras[:i]), append([]string{strings.Trim(palabras[i], "[]")}, palabras[i+1:]...)...)
	return append(conOpcionales(sin), conOpcionales(con)...)
}

// palabrasDe splits a command line as a shell does on spaces, keeping a "quoted" word whole and
// with its quotes (unquoted by argumento).
func palabrasDe(linea string) []string {
	var r []string
	var p strings.Builder
	comillas, hay := false, false
	for _, c := range linea {
		switch {
		case c == '"':
			comillas, hay = !comillas, true
			p.WriteRune(c)
		case !comillas && (c == ' ' || c == '\t'):
			if hay {
				r = append(r, p.String())
				p.Reset()
				hay = false
			}
		default:
			p.WriteRune(c)
			hay = true
		}
	}
	if hay {
		r = append(r, p.String())
	}
	return r
}

// TestCadaOrdenDocumentadaEstaEnLaTabla: every command line the docs show is a row of
// ordenesDocumentadas, and every row is a line the docs still show. (Quick: it only reads.)
func TestCadaOrdenDocumentadaEstaEnLaTabla(t *testing.T) {
	t.Parallel()
	doc, err := ordenesDeLosDocumentos(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if len(doc) < 20 {
		t.Fatalf("solo encontré %d órdenes en %v: ¿cambió cómo se escriben?", len(doc), documentos)
	}
	enTabla := map[string]bool{}
	for _, e := range ordenesDocumentadas {
		for _, o := range e.ordenes {
			if enTabla[o.linea] {
				t.Errorf("«%s» está dos veces en la tabla de TestOrdenesDocumentadas: una fila por línea", o.linea)
			}
			enTabla[o.linea] = true
			if _, ok := doc[o.linea]; !ok {
				t.Errorf("la tabla de TestOrdenesDocumentadas (cmd/laboratorio/documentadas_e2e_test.go) corre «%s», que ya no muestra ninguno de %v: quítala de la tabla", o.linea, documentos)
			}
		}
	}
	var faltan []string
	for o, donde := range doc {
		if !enTabla[o] {
			faltan = append(faltan, fmt.Sprintf("%s: «%s» no está en la tabla de TestOrdenesDocumentadas: añádela a ordenesDocumentadas (cmd/laboratorio/documentadas_e2e_test.go), con cómo se corre y qué debe decir", donde[0], o))
		}
	}
	slices.Sort(faltan)
	for _, f := range faltan {
		t.Error(f)
	}
}

// TestOrdenesDocumentadas runs every row of ordenesDocumentadas with the real programs, each scene
// on a machine of its own (internal/prueba/red: the course's ports are free there and nothing of
// this machine is touched), the scenes at once: each line's exit code and what it says.
func TestOrdenesDocumentadas(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("compila los programas y corre cada orden de la documentación en máquinas de red propias; se salta con -short")
	}
	falta := func(err error) {
		if os.Getenv(EnvCI) != "" {
			t.Fatalf("%s está puesta y no puedo correr las órdenes documentadas: %v", EnvCI, err)
		}
		t.Skip(err.Error())
	}
	if _, err := red.Nueva(t); err != nil {
		falta(err)
	}
	for _, p := range []string{"python3", "node"} {
		if _, err := exec.LookPath(p); err != nil {
			falta(fmt.Errorf("falta %s para los clientes de ejemplo (pkg/examen/testdata)", p))
		}
	}
	bin := claseBin(t)
	// The scenes all at once, each in a goroutine of its own rather than t.Parallel: they mostly
	// wait (a grading's retries, a prediction's sleeps), and -parallel (the cores) would run two at
	// a time.
	var escenas sync.WaitGroup
	for _, e := range ordenesDocumentadas {
		escenas.Go(func() {
			t.Run(e.nombre, func(t *testing.T) {
				ctx, cancelar := context.WithTimeout(context.Background(), 4*time.Minute)
				defer cancelar()
				e.correr(ctx, t, bin)
			})
		})
	}
	escenas.Wait()
}

// enFondo is a long-running line while it runs.
type enFondo struct {
	orden ordenDocumentada
	p     *programaEnMarcha
}

// correr runs the scene's lines in order.
func (e *escenaDocumentada) correr(ctx context.Context, t *testing.T, bin string) {
	e.bin = bin
	var err error
	if e.profesor, err = red.Nueva(t); err != nil {
		t.Fatal(err)
	}
	e.carpeta = prepararCarpeta(t)
	if e.clase {
		if e.estudiante, err = e.profesor.Vecina(t); err != nil {
			t.Fatal(err)
		}
		e.carpetaAl = prepararCarpeta(t)
	}
	var fondo []enFondo
	for _, o := range e.ordenes {
		e.antes = e.credenciales()
		inicio := time.Now()
		if o.hasta != "" {
			fondo = append(fondo, enFondo{o, e.lanzar(ctx, t, o)})
		} else {
			e.ejecutar(ctx, t, o)
		}
		// The long-running lines that were needed until this one.
		fondo = slices.DeleteFunc(fondo, func(f enFondo) bool {
			if f.orden.hasta != o.linea {
				return false
			}
			if f.orden.interrumpir {
				f.p.cmd.Process.Signal(os.Interrupt)
			}
			e.terminar(ctx, t, f.orden, f.p)
			return true
		})
		t.Logf("%s (%.1f s)", o.linea, time.Since(inicio).Seconds())
	}
	for _, f := range fondo {
		t.Errorf("«%s» corre hasta «%s», que no es una línea de la escena %s después de ella", f.orden.linea, f.orden.hasta, e.nombre)
	}
}

// prepararCarpeta is a fresh working folder with the files the docs name: the roster, the example
// clients as the student's own, the answers written beforehand.
func prepararCarpeta(t *testing.T) string {
	t.Helper()
	d := t.TempDir()
	archivos := map[string]string{
		"alumnos.txt":        "# la clase\n" + strings.Join(alumnosDocumentados, "\n") + "\n",
		"mis-respuestas.txt": strings.Join(respuestasValidas("6.ejercicio-2"), "\n") + "\n",
	}
	for nombre, ejemplo := range map[string]string{"mi_cliente.py": "cliente.py", "cliente.mjs": "cliente.mjs"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "pkg", "examen", "testdata", ejemplo))
		if err != nil {
			t.Fatal(err)
		}
		archivos[nombre] = string(b)
	}
	for nombre, texto := range archivos {
		if err := os.WriteFile(filepath.Join(d, nombre), []byte(texto), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

// deAlumno: a line that names the instructor's address is a student's, run on the student's
// machine.
func (o ordenDocumentada) deAlumno() bool { return strings.Contains(o.linea, "IP-DEL-PROFESOR") }

// comando is the line as the user types it, on their machine, in their working folder, with an
// environment of their own (the history in a configuration folder of the test's; none of the
// lab's tokens).
func (e *escenaDocumentada) comando(ctx context.Context, t *testing.T, o ordenDocumentada, linea string) *exec.Cmd {
	t.Helper()
	m, carpeta := e.profesor, e.carpeta
	if o.deAlumno() {
		m, carpeta = e.estudiante, e.carpetaAl
	}
	var args []string
	for _, p := range palabrasDe(linea) {
		args = append(args, e.argumento(ctx, t, o, p)...)
	}
	cmd := m.Orden(ctx, args[0], args[1:]...)
	cmd.Dir = carpeta
	for _, v := range os.Environ() {
		if !strings.HasPrefix(v, "CURSOHTTP_") && !strings.HasPrefix(v, "PASARELA_URL=") && !strings.HasPrefix(v, "XDG_CONFIG_HOME=") {
			cmd.Env = append(cmd.Env, v)
		}
	}
	cmd.Env = append(cmd.Env, "PATH="+e.bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"XDG_CONFIG_HOME="+filepath.Join(carpeta, ".config"))
	if o.entrada != nil {
		cmd.Stdin = strings.NewReader(o.entrada(e))
	}
	return cmd
}

// argumento is one word of a line as the user fills it in.
func (e *escenaDocumentada) argumento(ctx context.Context, t *testing.T, o ordenDocumentada, p string) []string {
	t.Helper()
	switch {
	case p == "…":
		if o.mas == nil {
			t.Fatalf("«%s»: la fila no dice qué es su «…» (mas)", o.linea)
		}
		return o.mas(e)
	case p == "NOMBRE":
		return []string{cmp.Or(o.nombre, alumnosDocumentados[0])}
	case p == "SU-CREDENCIAL":
		quien := alumnosDocumentados[0] // the student who grades and answers
		c, ok := leerCreds(t, e.dirClase())[quien]
		if !ok {
			t.Fatalf("«%s»: %s no tiene credencial en credenciales.txt", o.linea, quien)
		}
		return []string{c}
	case strings.HasPrefix(p, "postgres://"):
		return []string{e.postgres(ctx, t)}
	}
	if e.estudiante != nil {
		p = strings.ReplaceAll(p, "IP-DEL-PROFESOR", e.estudiante.Anfitrion)
	}
	return []string{strings.ReplaceAll(p, `"`, "")}
}

// ejecutar runs a line to its end.
func (e *escenaDocumentada) ejecutar(ctx context.Context, t *testing.T, o ordenDocumentada) {
	t.Helper()
	if o.junto != "" {
		servidor := seguirPrograma(t, e.comando(ctx, t, ordenDocumentada{}, o.junto))
		defer func() {
			servidor.cmd.Process.Signal(os.Interrupt)
			servidor.cmd.Wait()
		}()
		espera := e.comando(ctx, t, ordenDocumentada{}, "laboratorio esperar "+strconv.Itoa(curso.PuertoRevisor))
		if out, err := espera.CombinedOutput(); err != nil {
			t.Fatalf("«%s» junto a «%s»: %v\n%s\n%s", o.linea, o.junto, err, out, servidor.todo())
		}
	}
	p := seguirPrograma(t, e.comando(ctx, t, o, o.linea))
	e.terminar(ctx, t, o, p)
}

// lanzar starts a long-running line and waits until it is ready.
func (e *escenaDocumentada) lanzar(ctx context.Context, t *testing.T, o ordenDocumentada) *programaEnMarcha {
	t.Helper()
	p := seguirPrograma(t, e.comando(ctx, t, o, o.linea))
	if err := p.esperar(ctx, func(l []string) bool {
		return slices.ContainsFunc(l, func(x string) bool { return strings.Contains(x, o.listo) })
	}); err != nil {
		t.Fatalf("«%s» no llegó a «%s»: %v\n%s", o.linea, o.listo, err, p.todo())
	}
	if o.alListo != nil {
		o.alListo(t, e, p.todo())
	}
	return p
}

// terminar waits for a line's end and checks its exit code and what it said.
func (e *escenaDocumentada) terminar(ctx context.Context, t *testing.T, o ordenDocumentada, p *programaEnMarcha) {
	t.Helper()
	hecho := make(chan error, 1)
	go func() { hecho <- p.cmd.Wait() }()
	var err error
	select {
	case err = <-hecho:
	case <-ctx.Done():
		p.cmd.Process.Kill()
		t.Fatalf("«%s» no terminó: %v\n%s", o.linea, ctx.Err(), p.todo())
	}
	<-p.fin
	codigo := 0
	var salida *exec.ExitError
	if errors.As(err, &salida) {
		codigo = salida.ExitCode()
	} else if err != nil {
		t.Fatalf("«%s»: %v", o.linea, err)
	}
	todo := p.todo()
	if codigo != o.codigo {
		t.Errorf("«%s» salió con %d; se esperaba %d:\n%s", o.linea, codigo, o.codigo, todo)
		return
	}
	for _, d := range o.dice {
		if !strings.Contains(todo, d) {
			t.Errorf("«%s» no dijo «%s»:\n%s", o.linea, d, todo)
		}
	}
	if o.y != nil {
		o.y(t, e, todo)
	}
}

// dirClase is the instructor's class folder, the one «laboratorio clase» uses without --dir.
func (e *escenaDocumentada) dirClase() string { return filepath.Join(e.carpeta, "lab", "clase") }

// credenciales is the instructor's list of credentials as it is now (none before the class).
func (e *escenaDocumentada) credenciales() map[string]string {
	b, err := os.ReadFile(filepath.Join(e.dirClase(), "credenciales.txt"))
	if err != nil {
		return nil
	}
	m := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if n, c, ok := strings.Cut(l, "\t"); ok {
			m[n] = c
		}
	}
	return m
}

// postgres is a throwaway PostgreSQL's database for the scene, made the first time it is asked
// for; its URL goes through a Unix socket, so it is reached from any machine of the test's.
func (e *escenaDocumentada) postgres(ctx context.Context, t *testing.T) string {
	t.Helper()
	if e.pg != "" {
		return e.pg
	}
	srv, err := pgefimero.Arrancar(ctx, "")
	if err != nil {
		if os.Getenv(EnvCI) != "" {
			t.Fatalf("%s está puesta y PostgreSQL no arranca: %v", EnvCI, err)
		}
		t.Skip(strings.SplitN(err.Error(), "\n", 2)[0])
	}
	t.Cleanup(func() { srv.Detener() })
	if e.pg, err = srv.CrearBase(ctx, "clase"); err != nil {
		t.Fatal(err)
	}
	return e.pg
}

// pizarra is the class's board as the instructor's browser on the class network reads it.
func (e *escenaDocumentada) pizarra(t *testing.T) map[string]filaDePizarra {
	t.Helper()
	resp, err := navegadorDePrueba.Get("http://" + e.profesor.Direccion + ":" + strconv.Itoa(curso.PuertoPanel) + "/clase/estado")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var estado struct{ Alumnos []filaDePizarra }
	if err := json.NewDecoder(resp.Body).Decode(&estado); err != nil {
		t.Fatal(err)
	}
	r := map[string]filaDePizarra{}
	for i, a := range estado.Alumnos {
		a.orden = i
		r[a.Nombre] = a
	}
	return r
}

// navegadorDePrueba is the instructor's browser, for what the test reads of the class itself.
var navegadorDePrueba = &http.Client{Timeout: 10 * time.Second}

type filaDePizarra struct {
	Nombre    string
	Pendiente bool
	orden     int
}

// respuestaValida is an answer of the question's type, right or not: what a student might type.
func respuestaValida(p predecir.Pregunta) string {
	switch p.Tipo {
	case predecir.Opcion:
		return p.Opciones[0]
	case predecir.SiNo:
		return "sí"
	case predecir.Salida:
		return "0"
	case predecir.Numero, predecir.Numeros:
		return "1"
	}
	return "200"
}

// respuestasValidas are PREGUNTA=VALOR for every question of the exercises sel names.
func respuestasValidas(sel string) []string {
	var r []string
	for _, e := range predecir.Buscar(sel) {
		for _, p := range e.Preguntas {
			r = append(r, p.ID+"="+respuestaValida(p))
		}
	}
	return r
}

// respuestasAlTeclado types an answer to each question of the exercises sel names, in order.
func respuestasAlTeclado(sel string) func(*escenaDocumentada) string {
	return func(*escenaDocumentada) string {
		var b strings.Builder
		for _, r := range respuestasValidas(sel) {
			_, v, _ := strings.Cut(r, "=")
			b.WriteString(v + "\n")
		}
		return b.String()
	}
}

// respuestasDeMas gives beforehand («--respuesta P=V …») the answers of the exercise's questions
// but the one the line gives.
func respuestasDeMas(id, dada string) func(*escenaDocumentada) []string {
	return func(*escenaDocumentada) []string {
		var r []string
		for _, x := range respuestasValidas(id) {
			if !strings.HasPrefix(x, dada+"=") {
				r = append(r, "--respuesta", x)
			}
		}
		return r
	}
}

var aciertos = regexp.MustCompile(`(?m)^Acertaste (\d+) de (\d+)\.$`)

// acierta: each exercise sel names ran and was compared with the answers, question by question.
func acierta(sel string) func(*testing.T, *escenaDocumentada, string) {
	return func(t *testing.T, _ *escenaDocumentada, salida string) {
		var dichos, esperados []string
		for _, m := range aciertos.FindAllStringSubmatch(salida, -1) {
			dichos = append(dichos, m[2])
		}
		for _, e := range predecir.Buscar(sel) {
			esperados = append(esperados, strconv.Itoa(len(e.Preguntas)))
		}
		if len(esperados) == 0 || !slices.Equal(dichos, esperados) {
			t.Errorf("revisor predecir %s: los «Acertaste N de M» dicen %v preguntas; los ejercicios tienen %v:\n%s", sel, dichos, esperados, salida)
		}
	}
}

// listaLosEjercicios: the list has every exercise of the catalogue, one a line.
func listaLosEjercicios(t *testing.T, _ *escenaDocumentada, salida string) {
	for _, e := range predecir.Ejercicios() {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(e.ID) + ` `).MatchString(salida) {
			t.Errorf("revisor predecir no lista %s:\n%s", e.ID, salida)
		}
	}
}

// historialDePredicciones: the history has a line for each exercise answered before.
func historialDePredicciones(sels ...string) func(*testing.T, *escenaDocumentada, string) {
	return func(t *testing.T, _ *escenaDocumentada, salida string) {
		for _, sel := range sels {
			for _, e := range predecir.Buscar(sel) {
				if !strings.Contains(salida, "  "+e.ID+": ") {
					t.Errorf("el historial no tiene %s:\n%s", e.ID, salida)
				}
			}
		}
	}
}

// informeJSON: the report as an object, every check judged and passed, of the client orden.
func informeJSON(orden string) func(*testing.T, *escenaDocumentada, string) {
	return func(t *testing.T, _ *escenaDocumentada, salida string) {
		var inf struct {
			Orden                    string
			Pasaron, Juzgadas, Total int
		}
		if err := json.Unmarshal([]byte(salida), &inf); err != nil {
			t.Fatalf("--json no dio un objeto: %v\n%s", err, salida)
		}
		if n := len(examen.Checks); inf.Orden != orden || inf.Pasaron != n || inf.Juzgadas != n || inf.Total != n {
			t.Errorf("--json: %+v; se esperaba %s, %d de %d", inf, orden, n, n)
		}
	}
}

// arrancoLaClase: the start-up says where the data lives, how many revisors run and the address a
// student's machine reaches (not only 127.0.0.1), and no instructor's link; the roster is on the
// board and in credenciales.txt (0600), each name once.
func arrancoLaClase(datos, revisores string) func(*testing.T, *escenaDocumentada, string) {
	return func(t *testing.T, e *escenaDocumentada, salida string) {
		alcanzable := "--clase http://" + e.estudiante.Anfitrion + ":" + strconv.Itoa(curso.PuertoPanel) + " "
		for _, d := range []string{datos, revisores, alcanzable} {
			if !strings.Contains(salida, d) {
				t.Errorf("el arranque no dice «%s»:\n%s", d, salida)
			}
		}
		if strings.Contains(salida, "/entrar?") {
			t.Errorf("el arranque dice el enlace del profesor sin que lo pida:\n%s", salida)
		}
		creds := leerCreds(t, e.dirClase())
		pizarra := e.pizarra(t)
		for i, a := range alumnosDocumentados {
			if !strings.HasPrefix(creds[a], "cl-") {
				t.Errorf("credenciales.txt no tiene a %s: %v", a, creds)
			}
			if f, ok := pizarra[a]; !ok || f.orden != i || !f.Pendiente {
				t.Errorf("la pizarra no tiene a %s en su lugar, pendiente: %+v", a, pizarra)
			}
		}
		if len(creds) != len(alumnosDocumentados) || len(pizarra) != len(alumnosDocumentados) {
			t.Errorf("la clase tiene más que la lista: credenciales.txt %v, la pizarra %v", creds, pizarra)
		}
	}
}

// credencialNueva: the line said a new credential for nombre, once, and credenciales.txt holds it.
func credencialNueva(nombre string) func(*testing.T, *escenaDocumentada, string) {
	return func(t *testing.T, e *escenaDocumentada, salida string) {
		m := regexp.MustCompile(`(?m)^`+regexp.QuoteMeta(nombre)+`\t(cl-\S+)$`).FindAllStringSubmatch(salida, -1)
		if len(m) != 1 {
			t.Fatalf("no dijo una credencial para %s:\n%s", nombre, salida)
		}
		if c := leerCreds(t, e.dirClase())[nombre]; c != m[0][1] || c == e.antes[nombre] {
			t.Errorf("credenciales.txt tiene para %s %q; dijo %q (antes: %q)", nombre, c, m[0][1], e.antes[nombre])
		}
	}
}

// sinCredencial: nombre's line left credenciales.txt and the credential it had opens nothing (and
// with quitar, the row left the board).
func sinCredencial(nombre string, tambienDeLaPizarra bool) func(*testing.T, *escenaDocumentada, string) {
	return func(t *testing.T, e *escenaDocumentada, _ string) {
		if c, ok := leerCreds(t, e.dirClase())[nombre]; ok {
			t.Errorf("credenciales.txt aún tiene a %s: %s", nombre, c)
		}
		req, _ := http.NewRequest(http.MethodGet, "http://"+e.profesor.Direccion+":"+strconv.Itoa(curso.PuertoPanel)+"/clase/prediccion", nil)
		req.Header.Set("Authorization", "Bearer "+e.antes[nombre])
		resp, err := navegadorDePrueba.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("la credencial de %s, tras la orden: %d; se esperaba 401", nombre, resp.StatusCode)
		}
		if _, ok := e.pizarra(t)[nombre]; ok == tambienDeLaPizarra {
			t.Errorf("%s en la pizarra: %v; se esperaba %v", nombre, ok, !tambienDeLaPizarra)
		}
	}
}

// todasNuevas: every student has a new credential, in credenciales.txt.
func todasNuevas(t *testing.T, e *escenaDocumentada, salida string) {
	ahora := leerCreds(t, e.dirClase())
	if len(ahora) != len(e.antes) {
		t.Errorf("credenciales.txt tenía %d alumnos y tiene %d", len(e.antes), len(ahora))
	}
	for n, c := range e.antes {
		if ahora[n] == c || !strings.Contains(salida, n+"\t"+ahora[n]) {
			t.Errorf("%s: antes %q, ahora %q; la orden dijo:\n%s", n, c, ahora[n], salida)
		}
	}
}

// pendientes: those students are pending on the board again (their gradings gone), still on it.
func pendientes(nombres ...string) func(*testing.T, *escenaDocumentada, string) {
	return func(t *testing.T, e *escenaDocumentada, _ string) {
		pizarra := e.pizarra(t)
		for _, n := range nombres {
			if f, ok := pizarra[n]; !ok || !f.Pendiente {
				t.Errorf("%s en la pizarra: %+v (%v); se esperaba pendiente", n, f, ok)
			}
		}
	}
}

// leerCSV reads a file the instructor exported: 0600 and CSV a reader takes whole.
func leerCSV(t *testing.T, ruta string) [][]string {
	t.Helper()
	b, err := os.ReadFile(ruta)
	if err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(ruta); fi.Mode().Perm() != 0o600 {
		t.Errorf("%s tiene modo %v; se esperaba 0600", ruta, fi.Mode().Perm())
	}
	filas, err := csv.NewReader(strings.NewReader(string(b))).ReadAll()
	if err != nil || len(filas) == 0 {
		t.Fatalf("%s no es CSV: %v\n%s", ruta, err, b)
	}
	return filas
}

// notasExportadas: notas.csv has one row per roster name in its order, the graded student's
// checks passed and the others pending.
func notasExportadas(t *testing.T, e *escenaDocumentada, _ string) {
	filas := leerCSV(t, filepath.Join(e.carpeta, "notas.csv"))
	cabecera := []string{"alumno", "ultima_calificacion", "pasaron", "juzgadas"}
	for _, c := range examen.Checks {
		cabecera = append(cabecera, c.ID)
	}
	if !slices.Equal(filas[0], cabecera) {
		t.Errorf("notas.csv: la cabecera es %q; se esperaba %q", filas[0], cabecera)
	}
	lista := append(slices.Clone(alumnosDocumentados), "Eva Pérez")
	if len(filas) != len(lista)+1 {
		t.Fatalf("notas.csv tiene %d filas; se esperaba una por alumno de la lista (%d):\n%q", len(filas)-1, len(lista), filas)
	}
	for i, a := range lista {
		f := filas[i+1]
		estado := "pendiente"
		if i == 0 {
			estado = "paso"
			if _, err := time.Parse(time.RFC3339, f[1]); err != nil || f[2] != todas || f[3] != todas {
				t.Errorf("notas.csv, %s: %q", a, f)
			}
		}
		if f[0] != a || slices.ContainsFunc(f[4:], func(x string) bool { return x != estado }) {
			t.Errorf("notas.csv, fila %d: %q; se esperaba %s, cada comprobación %s", i+1, f, a, estado)
		}
	}
}

// prediccionesExportadas: predicciones.csv has the student's answer to each question of the round,
// with the run's answer and whether it was right.
func prediccionesExportadas(t *testing.T, e *escenaDocumentada, salida string) {
	filas := leerCSV(t, filepath.Join(e.carpeta, "predicciones.csv"))
	cabecera := []string{"ejercicio", "abierta", "pregunta", "alumno", "respuesta", "respondida", "real", "acierto"}
	if !slices.Equal(filas[0], cabecera) {
		t.Errorf("predicciones.csv: la cabecera es %q; se esperaba %q", filas[0], cabecera)
	}
	dadas := respuestasValidas("6.5.4-4xx")
	if len(filas) != len(dadas)+1 || !strings.Contains(salida, fmt.Sprintf("%d filas de respuestas", len(dadas))) {
		t.Fatalf("predicciones.csv tiene %d filas; se esperaba una por pregunta (%d):\n%q\n%s", len(filas)-1, len(dadas), filas, salida)
	}
	for i, d := range dadas {
		p, v, _ := strings.Cut(d, "=")
		f := filas[i+1]
		if f[0] != "6.5.4-4xx" || f[2] != p || f[3] != alumnosDocumentados[0] || f[4] != v || f[6] == "" || (f[7] != "sí" && f[7] != "no") {
			t.Errorf("predicciones.csv, fila %d: %q; se esperaba la respuesta %s=%s de %s, con la real y el acierto", i+1, f, p, v, alumnosDocumentados[0])
		}
	}
}

// enlaceDeUnaVez: «entrar» gives a link that opens the instructor's session once.
func enlaceDeUnaVez(t *testing.T, e *escenaDocumentada, salida string) {
	i := strings.Index(salida, "http://127.0.0.1:"+strconv.Itoa(curso.PuertoPanel)+"/")
	if i < 0 {
		t.Fatalf("«entrar» no dio un enlace:\n%s", salida)
	}
	enlace, _, _ := strings.Cut(salida[i:], "\n")
	// Opened by the instructor's browser: on the instructor's machine, which this one reaches at
	// the class network's address.
	enlace = strings.Replace(enlace, "127.0.0.1", e.profesor.Direccion, 1)
	sinSeguir := &http.Client{Timeout: navegadorDePrueba.Timeout, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for vez, esperado := range []int{http.StatusSeeOther, http.StatusForbidden} {
		resp, err := sinSeguir.Get(enlace)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if galleta := resp.Header.Get("Set-Cookie") != ""; resp.StatusCode != esperado || galleta != (vez == 0) {
			t.Errorf("el enlace de «entrar», vez %d: %d (galleta: %v); se esperaba %d", vez+1, resp.StatusCode, galleta, esperado)
		}
	}
}
