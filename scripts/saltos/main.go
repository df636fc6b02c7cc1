// Command saltos is how «make test» says what it did not run. Every part of it that skips
// something for want of a tool (a test without Chromium or PostgreSQL, the attack campaign without
// node…) leaves one line in the record named by CURSOHTTP_SALTOS, «who: why»; at the end «saltos
// resumen» turns the record into the one line make test ends with.
//
//	saltos go -- go test -json [flags] [packages] [-- go test -json [flags] [packages]]…
//
// runs the tests and writes their output as go test does without -json (each package's line, the
// whole output of each failing test), recording every skipped test with the reason it gave. Each
// «--» starts another go test, run at the same time (make unit: the packages that always run and
// those the cache may answer); a failing test's output goes out in one piece, whatever the other
// does meanwhile.
//
//	saltos resumen
//
// prints the record as one line, reasons grouped, and clears it.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"

	"cursohttp/internal/saltos"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "uso: saltos go -- go test -json …  |  saltos resumen")
		os.Exit(2)
	}
	registro := os.Getenv(saltos.Variable)
	switch os.Args[1] {
	case "go":
		os.Exit(correrVarias(ordenes(os.Args[2:]), registro, os.Stdout, os.Stderr))
	case "resumen":
		linea, err := resumir(registro)
		if err != nil {
			fmt.Fprintln(os.Stderr, "saltos:", err)
			os.Exit(1)
		}
		fmt.Println(linea)
	default:
		fmt.Fprintf(os.Stderr, "saltos: no existe la orden «%s»\n", os.Args[1])
		os.Exit(2)
	}
}

// ordenes splits «-- cmd args… -- cmd args…» into its command lines.
func ordenes(args []string) [][]string {
	var r [][]string
	for _, a := range args {
		if a == "--" || len(r) == 0 {
			r = append(r, nil)
			if a == "--" {
				continue
			}
		}
		r[len(r)-1] = append(r[len(r)-1], a)
	}
	return r
}

// correrVarias runs each command line at once with correrPruebas, their output through one lock,
// and returns the first non-zero exit code among them.
func correrVarias(lineas [][]string, registro string, out, errOut io.Writer) int {
	if len(lineas) == 0 {
		lineas = [][]string{nil}
	}
	if _, esArchivo := errOut.(*os.File); !esArchivo { // a file the commands write to themselves
		errOut = &salidaCompartida{w: errOut}
	}
	compartida := &salidaCompartida{w: out}
	codigos := make([]int, len(lineas))
	var wg sync.WaitGroup
	for i, args := range lineas {
		wg.Go(func() { codigos[i] = correrPruebas(args, registro, compartida, errOut) })
	}
	wg.Wait()
	for _, c := range codigos {
		if c != 0 {
			return c
		}
	}
	return 0
}

// salidaCompartida lets several go test runs write to one output, a Write at a time.
type salidaCompartida struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *salidaCompartida) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// correrPruebas runs args (a go test -json command line), writes its output the way go test writes
// it without -json, and appends the skipped tests to registro. The result is go test's exit code.
func correrPruebas(args []string, registro string, out, errOut io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(errOut, "saltos go: falta la orden (go test -json …)")
		return 2
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stderr = errOut
	salida, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(errOut, "saltos:", err)
		return 1
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(errOut, "saltos:", err)
		return 1
	}
	saltadas, errLeer := Traducir(salida, out)
	err = cmd.Wait()
	if errLeer != nil {
		fmt.Fprintln(errOut, "saltos: la salida de go test no se pudo leer:", errLeer)
	}
	if errAnotar := anotar(registro, saltadas); errAnotar != nil {
		fmt.Fprintln(errOut, "saltos:", errAnotar)
	}
	var salio *exec.ExitError
	switch {
	case errors.As(err, &salio):
		return salio.ExitCode()
	case err != nil || errLeer != nil:
		return 1
	}
	return 0
}

// evento is one line of go test -json (test2json's TestEvent, and the build's events).
type evento struct {
	Action  string
	Package string
	Test    string
	Output  string
}

// Saltada is a test that skipped itself, with the reason it gave.
type Saltada struct {
	Paquete, Prueba, Motivo string
}

// ubicacion is the «archivo_test.go:84: » go test puts before what a test says.
var ubicacion = regexp.MustCompile(`^\s*\S+\.go:\d+: `)

// Traducir reads go test -json from r and writes to w what go test writes without it: every line
// of a package's own (its «ok», «FAIL» and build errors) and the whole output of a test that
// failed, or that never ended (a panic, a time-out); a test that passed or skipped says nothing.
// It returns the tests that skipped themselves.
func Traducir(r io.Reader, w io.Writer) ([]Saltada, error) {
	type clave struct{ paquete, prueba string }
	guardado := map[clave][]string{}
	var saltadas []Saltada
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for sc.Scan() {
		var e evento
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			// Not an event (go test writes some errors on stdout as text): pass it on.
			fmt.Fprintln(w, sc.Text())
			continue
		}
		k := clave{e.Package, e.Test}
		switch {
		case e.Action == "build-output":
			io.WriteString(w, e.Output)
		case e.Test == "" && e.Action == "output":
			if e.Output != "PASS\n" { // written only with -v
				io.WriteString(w, e.Output)
			}
		case e.Test == "" && (e.Action == "pass" || e.Action == "fail" || e.Action == "skip"):
			// The package ended: what its unfinished tests said is all there is of them.
			for kk, lineas := range guardado {
				if kk.paquete == e.Package {
					escribir(w, lineas)
					delete(guardado, kk)
				}
			}
		case e.Action == "output":
			guardado[k] = append(guardado[k], e.Output)
		case e.Action == "fail":
			escribir(w, guardado[k])
			delete(guardado, k)
		case e.Action == "skip":
			saltadas = append(saltadas, Saltada{e.Package, e.Test, motivo(guardado[k])})
			delete(guardado, k)
		case e.Action == "pass":
			delete(guardado, k)
		}
	}
	return saltadas, sc.Err()
}

// escribir writes a test's output without the lines only -v shows, in one Write.
func escribir(w io.Writer, lineas []string) {
	var b strings.Builder
	for _, l := range lineas {
		if !strings.HasPrefix(l, "=== ") {
			b.WriteString(l)
		}
	}
	if b.Len() > 0 {
		io.WriteString(w, b.String())
	}
}

// motivo is what a skipped test said, on one line, without where it said it.
func motivo(lineas []string) string {
	var partes []string
	for _, l := range lineas {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- SKIP") {
			continue
		}
		partes = append(partes, strings.TrimSpace(ubicacion.ReplaceAllString(l, "")))
	}
	if len(partes) == 0 {
		return "sin motivo"
	}
	return strings.Join(partes, " ")
}

// anotar appends one line per skipped test to registro: «paquete.Prueba: motivo».
func anotar(registro string, saltadas []Saltada) error {
	if registro == "" || len(saltadas) == 0 {
		return nil
	}
	f, err := os.OpenFile(registro, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	for _, s := range saltadas {
		fmt.Fprintf(f, "%s %s: %s\n", strings.TrimPrefix(s.Paquete, "cursohttp/"), s.Prueba, s.Motivo)
	}
	return f.Close()
}

// resumir turns the record into make test's last line: each reason once, with who skipped for it
// (at most three names, then how many more), and removes the record.
func resumir(registro string) (string, error) {
	if registro == "" {
		return "", fmt.Errorf("falta %s: el registro de lo que se saltó", saltos.Variable)
	}
	b, err := os.ReadFile(registro)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	os.Remove(registro)
	return Resumen(string(b)), nil
}

// Resumen is the one line for a record's text («quién: por qué» per line).
func Resumen(texto string) string {
	var motivos []string
	quienes := map[string][]string{}
	for _, l := range strings.Split(texto, "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		quien, por, ok := strings.Cut(l, ": ")
		if !ok {
			quien, por = "", l
		}
		if _, visto := quienes[por]; !visto {
			motivos = append(motivos, por)
		}
		if quien != "" && !slices.Contains(quienes[por], quien) {
			quienes[por] = append(quienes[por], quien)
		}
	}
	if len(motivos) == 0 {
		return "make test no se saltó nada"
	}
	partes := make([]string, len(motivos))
	total := 0
	for i, m := range motivos {
		q := quienes[m]
		total += max(len(q), 1)
		switch {
		case len(q) == 0:
			partes[i] = m
		case len(q) <= 3:
			partes[i] = m + " (" + strings.Join(q, ", ") + ")"
		default:
			partes[i] = fmt.Sprintf("%s (%s y %d más)", m, strings.Join(q[:3], ", "), len(q)-3)
		}
	}
	return fmt.Sprintf("make test se saltó %d: %s", total, strings.Join(partes, "; "))
}
