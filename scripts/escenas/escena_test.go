//go:build unix

package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

func TestParsearEscena(t *testing.T) {
	t.Parallel()
	texto := `# 9.1 — Una escena de prueba
#
# lección 4 a secas es narración
# env: A=1
# lección: 4
# servidores: laboratorio revisor
$ curl -i http://127.0.0.1:18080/
HTTP/1.1 200 OK
Date: x

cuerpo

# sale: 1
$ false
# detener: revisor
# comentario en medio
# arrancar: mentira 503:2 201
# env B=2
$ echo hola
\# no es un comentario
\$ ni un comando
# reiniciar revisor
# bitácora: laboratorio sin orden
laboratorio en http://127.0.0.1:18081/codigo/NNN
GET /codigo/200

`
	e, err := ParsearEscena(strings.NewReader(texto), "x/9.1-prueba.escena")
	if err != nil {
		t.Fatal(err)
	}
	if e.Nombre != "9.1-prueba" || e.Titulo != "9.1 — Una escena de prueba" {
		t.Errorf("nombre %q, título %q", e.Nombre, e.Titulo)
	}
	if !reflect.DeepEqual(e.Servidores, []string{"laboratorio", "revisor"}) {
		t.Errorf("servidores %v", e.Servidores)
	}
	if !reflect.DeepEqual(e.Entorno, []string{"A=1"}) {
		t.Errorf("entorno %v", e.Entorno)
	}
	type resumen struct {
		Tipo     TipoPaso
		Numero   int
		Texto    string
		Esperado []string
		Primera  int
	}
	var got []resumen
	for _, p := range e.Pasos {
		r := resumen{Tipo: p.Tipo, Numero: p.Numero, Texto: p.Comando + p.Servidor + strings.Join(p.Args, " ")}
		for _, l := range p.Esperado {
			r.Esperado = append(r.Esperado, l.Texto)
		}
		if len(p.Esperado) > 0 {
			r.Primera = p.Esperado[0].Numero
		}
		got = append(got, r)
	}
	want := []resumen{
		{Comando, 7, "curl -i http://127.0.0.1:18080/", []string{"HTTP/1.1 200 OK", "Date: x", "", "cuerpo"}, 8},
		{Comando, 14, "false", nil, 0},
		{Detener, 15, "revisor", nil, 0},
		{Arrancar, 17, "mentira503:2 201", nil, 0},
		{Comando, 19, "echo hola", []string{"# no es un comentario", "$ ni un comando"}, 20},
		{Detener, 22, "revisor", nil, 0},
		{Arrancar, 22, "revisor", nil, 0},
		{Bitacora, 23, "laboratorio", []string{"laboratorio en http://127.0.0.1:18081/codigo/NNN", "GET /codigo/200"}, 24},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("pasos:\n got %+v\nwant %+v", got, want)
	}
	if p := e.Pasos[1]; p.Sale == nil || *p.Sale != 1 {
		t.Errorf("«# sale: 1» no llegó al comando siguiente")
	}
	if e.Pasos[0].Sale != nil || e.Pasos[4].Sale != nil {
		t.Errorf("«# sale» vale solo para el comando siguiente")
	}
	if !reflect.DeepEqual(e.Pasos[4].Env, []string{"A=1", "B=2"}) {
		t.Errorf("env del tercer comando: %v", e.Pasos[4].Env)
	}
	if !e.Pasos[7].SinOrden {
		t.Errorf("«sin orden» no se leyó")
	}
	if e.Leccion != "4" || !e.Pasos[6].Repetir || e.Pasos[3].Repetir {
		t.Errorf("lección %q; «# reiniciar» repite los argumentos: %v, «# arrancar» no: %v", e.Leccion, e.Pasos[6].Repetir, e.Pasos[3].Repetir)
	}
}

// «# espera» reaches the next command only, with the server and the whole line.
func TestParsearEspera(t *testing.T) {
	t.Parallel()
	e, err := ParsearEscena(strings.NewReader("# espera: revisor POST /servicios\n$ ( curl a & sleep 0.1; curl b; wait )\n$ true\n"), "x.escena")
	if err != nil {
		t.Fatal(err)
	}
	if p := e.Pasos[0].Espera; p == nil || *p != (Espera{Servidor: "revisor", Linea: "POST /servicios"}) {
		t.Errorf("espera del primer comando: %+v", p)
	}
	if e.Pasos[1].Espera != nil {
		t.Errorf("«# espera» vale solo para el comando siguiente")
	}
	// Without its colon it is narration, as Lesson 4's «# espera (la lección no lo imprime…)».
	e, err = ParsearEscena(strings.NewReader("# espera (la lección no lo imprime; sale del código).\n$ true\n"), "x.escena")
	if err != nil || e.Pasos[0].Espera != nil || len(e.Comentario) != 1 {
		t.Errorf("«# espera (…» se leyó como directiva: %v %+v", err, e)
	}
}

// The waiting sleep: it returns only after the server's terminal shows one more line equal to
// the awaited one, and then runs the real sleep with the arguments it got.
func TestEsperarEvento(t *testing.T) {
	t.Parallel()
	terminal := &Terminal{}
	terminal.Write([]byte("POST /servicios\n"))
	carpeta, evento, terminar, err := esperarEvento(context.Background(), Espera{Servidor: "revisor", Linea: "POST /servicios"}, terminal)
	if err != nil {
		t.Fatal(err)
	}
	defer terminar()
	cmd := exec.Command("bash", "-c", "sleep 0 && echo despierto")
	cmd.Env = []string{"PATH=" + carpeta + string(os.PathListSeparator) + os.Getenv("PATH"), "ESCENA_EVENTO=" + evento}
	salida := make(chan string, 1)
	var out strings.Builder
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { cmd.Wait(); salida <- out.String() }()
	terminal.Write([]byte("GET /servicios\nPOST /servicios\n"))
	if got := <-salida; got != "despierto\n" {
		t.Errorf("salida %q", got)
	}
	if _, err := os.Stat(evento); err != nil {
		t.Errorf("el sleep volvió sin el evento: %v", err)
	}
}

func TestParsearEscenaErrores(t *testing.T) {
	t.Parallel()
	casos := map[string]string{
		"salida sin comando":         "hola\n",
		"sale sin número":            "# sale: uno\n$ true\n",
		"sale al final":              "$ true\n# sale: 0\n",
		"servidores tarde":           "$ true\n# servidores: revisor\n",
		"detener sin nombre":         "# detener\n",
		"detener con argumentos":     "# detener: revisor ya\n",
		"env sin igual":              "# env: A\n",
		"bitácora con otra cosa":     "# bitácora: revisor al revés\n",
		"bitácora sin nombre":        "# bitácora:\n",
		"sale fuera del rango 0-255": "# sale: 300\n$ true\n",
		"lección sin número":         "# lección: cuatro\n",
		"lección dos veces":          "# lección: 4\n# lección: 4\n",
		"lección tarde":              "$ true\n# lección: 4\n",
		"espera sin línea":           "# espera: revisor\n$ true\n",
		"espera al final":            "$ true\n# espera: revisor POST /servicios\n",
	}
	for nombre, texto := range casos {
		t.Run(nombre, func(t *testing.T) {
			t.Parallel()
			if _, err := ParsearEscena(strings.NewReader(texto), "x.escena"); err == nil {
				t.Errorf("se esperaba un error para %q", texto)
			} else if !strings.HasPrefix(err.Error(), "x.escena") {
				t.Errorf("el error no nombra el archivo: %v", err)
			}
		})
	}
}

// Every transcript in the repository parses, names only known servers and
// does something; fewer than the 98 there are means one was lost.
func TestLasEscenasDelCurso(t *testing.T) {
	t.Parallel()
	rutas, err := filepath.Glob(filepath.Join("..", "leccion-*", "*"+Extension))
	if err != nil {
		t.Fatal(err)
	}
	if len(rutas) < 98 {
		t.Errorf("hay %d escenas; se esperaban al menos 98", len(rutas))
	}
	programas := ServidoresDelCurso()
	porLeccion := map[string]int{}
	for _, r := range rutas {
		e, err := LeerEscena(r)
		if err != nil {
			t.Error(err)
			continue
		}
		porLeccion[filepath.Base(filepath.Dir(r))]++
		if e.Titulo == "" {
			t.Errorf("%s: sin título (la primera línea de comentario)", r)
		}
		for _, s := range e.Servidores {
			if _, ok := programas[s]; !ok {
				t.Errorf("%s: servidor desconocido %q", r, s)
			}
		}
		comandos := 0
		for _, p := range e.Pasos {
			if p.Tipo == Comando {
				comandos++
			}
			if p.Tipo != Comando && p.Servidor != "" {
				if _, ok := programas[p.Servidor]; !ok {
					t.Errorf("%s:%d: servidor desconocido %q", r, p.Numero, p.Servidor)
				}
			}
		}
		if comandos == 0 && len(e.Pasos) == 0 {
			t.Errorf("%s: no hace nada", r)
		}
	}
	for _, l := range []string{"leccion-4", "leccion-6", "leccion-7"} {
		if porLeccion[l] == 0 {
			t.Errorf("no hay escenas de %s", l)
		}
	}
}

func FuzzParsearEscena(f *testing.F) {
	f.Add("# t\n# servidores: revisor\n$ echo a\na\n\n# bitácora: revisor\nrevisor en x\n")
	f.Add("# sale: 2\n$ false\n# env A=1 B=2\n# arrancar mentira 503:2\n$ x\n\\# y\n")
	f.Add("$ a\r\nb\r\n")
	f.Fuzz(func(t *testing.T, texto string) {
		e, err := ParsearEscena(strings.NewReader(texto), "f.escena")
		if err != nil {
			return
		}
		lineas := strings.Count(texto, "\n") + 1
		for _, p := range e.Pasos {
			if p.Numero < 1 || p.Numero > lineas {
				t.Fatalf("paso en la línea %d de %d", p.Numero, lineas)
			}
			for _, l := range p.Esperado {
				if l.Numero <= p.Numero || l.Numero > lineas {
					t.Fatalf("línea esperada %d fuera de su paso (%d)", l.Numero, p.Numero)
				}
			}
		}
	})
}

// A short sleep after a request sent to the background orders two requests, as the lessons do
// («curl … & sleep 0.1; curl …»): on a loaded machine the first can start later than the sleep
// lasts (issue 42: 6.6.5 got «primera: 409 … segunda: 201» at load 19), so every such command
// waits for the event, the first request reaching its server, with «# espera».
func TestLosSleepsQueOrdenanEsperanElEvento(t *testing.T) {
	t.Parallel()
	rutas, err := filepath.Glob(filepath.Join("..", "leccion-*", "*"+Extension))
	if err != nil {
		t.Fatal(err)
	}
	ordena := regexp.MustCompile(`&\s*(\w+=\$!;\s*)?sleep 0\.[0-9]+`)
	vistos := 0
	for _, r := range rutas {
		e, err := LeerEscena(r)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range e.Pasos {
			if p.Tipo != Comando || !ordena.MatchString(p.Comando) {
				continue
			}
			vistos++
			if p.Espera == nil {
				t.Errorf("%s:%d: un sleep ordena dos peticiones sin «# espera» antes: %.90s…", r, p.Numero, p.Comando)
			}
		}
	}
	if vistos < 9 {
		t.Errorf("solo %d comandos ordenan peticiones con un sleep; se esperaban los 9 de las lecciones", vistos)
	}
}
