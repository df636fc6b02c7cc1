//go:build unix

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Every scene docs/comandos.md names in its tables' last column exists (a name ending in «*» is a
// prefix), so the map from the lessons' commands to ours never points at a scene that is gone.
func TestComandosNombranEscenasQueExisten(t *testing.T) {
	t.Parallel()
	texto, err := os.ReadFile(filepath.Join("..", "..", "docs", "comandos.md"))
	if err != nil {
		t.Fatal(err)
	}
	rutas, err := filepath.Glob(filepath.Join("..", "leccion-*", "*.escena"))
	if err != nil || len(rutas) == 0 {
		t.Fatalf("no hay escenas: %v", err)
	}
	var escenas []string
	for _, r := range rutas {
		escenas = append(escenas, strings.TrimSuffix(filepath.Base(r), ".escena"))
	}
	existe := func(nombre string) bool {
		for _, e := range escenas {
			if e == nombre || (strings.HasSuffix(nombre, "*") && strings.HasPrefix(e, strings.TrimSuffix(nombre, "*"))) {
				return true
			}
		}
		return false
	}
	filas := 0
	for _, linea := range strings.Split(string(texto), "\n") {
		if !strings.HasPrefix(linea, "| ") || strings.HasSuffix(linea, "| scene |") {
			continue // not a row, or a table's head
		}
		celdas := strings.Split(strings.Trim(linea, "| "), " | ")
		filas++
		for _, nombre := range strings.Split(celdas[len(celdas)-1], ", ") {
			if nombre = strings.TrimSpace(nombre); nombre != "—" && !existe(nombre) {
				t.Errorf("docs/comandos.md nombra la escena «%s», que no existe: %s", nombre, linea)
			}
		}
	}
	if filas < 40 {
		t.Errorf("solo %d filas en las tablas de docs/comandos.md", filas)
	}
}

// Every command a row of docs/comandos.md gives in its «the suite» column (a `bin/…` one) is what
// a scene of its last column types, as written: a `$ ` line that starts with it (or runs it after
// «; », «&& » or «| »), or, for a server the lesson runs in a terminal of its own, a start of the
// scene's («# servidores», «# arrancar») with that command line. A command started with & is the
// student's own terminal, so only a `$ ` line types it. The scene then compares that terminal with
// the lesson's, and a row that prints what the lesson does not fails it (issue 42: the row that
// gave §6.8.4's one-line server as `laboratorio mentira mudo`, without --callado, printed the
// server's lines among alta-segura's). An alternative given as «(or `…`)» is not replayed.
func TestCadaFilaLaEscribeSuEscena(t *testing.T) {
	t.Parallel()
	texto, err := os.ReadFile(filepath.Join("..", "..", "docs", "comandos.md"))
	if err != nil {
		t.Fatal(err)
	}
	rutas, err := filepath.Glob(filepath.Join("..", "leccion-*", "*"+Extension))
	if err != nil {
		t.Fatal(err)
	}
	escenas := map[string]*Escena{}
	for _, r := range rutas {
		e, err := LeerEscena(r)
		if err != nil {
			t.Fatal(err)
		}
		escenas[e.Nombre] = e
	}
	codigo := regexp.MustCompile("(\\(or )?`([^`]+)`")
	comandos := 0
	for _, linea := range strings.Split(string(texto), "\n") {
		if !strings.HasPrefix(linea, "| ") || strings.HasSuffix(linea, "| scene |") {
			continue
		}
		celdas := strings.Split(strings.Trim(linea, "| "), " | ")
		if len(celdas) != 4 {
			t.Errorf("una fila sin sus cuatro columnas: %s", linea)
			continue
		}
		if celdas[3] == "—" {
			continue // no scene replays it, and the row says why
		}
		var suyas []*Escena
		for _, nombre := range strings.Split(celdas[3], ", ") {
			for n, e := range escenas {
				if n == nombre || (strings.HasSuffix(nombre, "*") && strings.HasPrefix(n, strings.TrimSuffix(nombre, "*"))) {
					suyas = append(suyas, e)
				}
			}
		}
		for _, m := range codigo.FindAllStringSubmatch(celdas[1], -1) {
			orden, ok := ordenDeLaFila(m[2])
			if !ok || m[1] != "" {
				continue
			}
			comandos++
			if !slices.ContainsFunc(suyas, func(e *Escena) bool { return laEscribe(e, orden) }) {
				t.Errorf("docs/comandos.md da «%s», y ninguna escena de la fila (%s) lo escribe así", m[2], celdas[3])
			}
		}
	}
	if comandos < 40 {
		t.Errorf("solo %d órdenes bin/… en docs/comandos.md", comandos)
	}
}

// ordenFila is a row's command as a scene types it: bin/ dropped (the scenes have it first on
// PATH), and whether a final «…» makes it a prefix.
type ordenFila struct {
	texto   string
	prefijo bool
}

func ordenDeLaFila(codigo string) (ordenFila, bool) {
	palabras := strings.Fields(codigo)
	i := 0
	for i < len(palabras) && strings.Contains(palabras[i], "=") && !strings.HasPrefix(palabras[i], "bin/") {
		i++ // NAME=value before the program
	}
	if i == len(palabras) || !strings.HasPrefix(palabras[i], "bin/") || palabras[i] == "bin/" || palabras[i] == "bin/…" {
		return ordenFila{}, false
	}
	o := ordenFila{texto: strings.ReplaceAll(codigo, "bin/", "")}
	if t, ok := strings.CutSuffix(o.texto, "…"); ok {
		o.texto, o.prefijo = strings.TrimSpace(t)+" ", true
	}
	return o, true
}

// laEscribe says whether the scene types o.
func laEscribe(e *Escena, o ordenFila) bool {
	empieza := func(s string) bool {
		resto, ok := strings.CutPrefix(s, o.texto)
		return ok && (o.prefijo || resto == "" || strings.ContainsAny(resto[:1], " ;&|)"))
	}
	for _, p := range e.Pasos {
		if p.Tipo != Comando {
			continue
		}
		if empieza(p.Comando) {
			return true
		}
		for _, sep := range []string{"; ", "&& ", "| "} {
			for _, parte := range strings.Split(p.Comando, sep)[1:] {
				if empieza(parte) {
					return true
				}
			}
		}
	}
	if strings.Contains(o.texto, "&") {
		return false
	}
	// A server in a terminal of its own: the scene's start of it, with the row's NAME=value in
	// the environment it starts with.
	programas := ServidoresDelCurso()
	flota := &Flota{Programas: programas, Leccion: e.Leccion}
	arranques := []Paso{}
	for _, s := range e.Servidores {
		arranques = append(arranques, Paso{Tipo: Arrancar, Servidor: s, Env: e.Entorno})
	}
	for _, p := range e.Pasos {
		if p.Tipo == Arrancar && !p.Repetir {
			arranques = append(arranques, p)
		}
	}
	for _, p := range arranques {
		linea := strings.Join(flota.Linea(p.Servidor, p.Args), " ")
		palabras := strings.Fields(o.texto)
		for len(palabras) > 0 && strings.Contains(palabras[0], "=") && slices.Contains(p.Env, palabras[0]) {
			palabras = palabras[1:]
		}
		if strings.Join(palabras, " ") == linea {
			return true
		}
	}
	return false
}
