package examen

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"cursohttp/pkg/topes"
)

// intencion is an intent of scenario id (of Escenarios(1)) with attempts at the given offsets from
// t0: each [start, end] in ms, all with key llave and status codigo.
func intencion(t *testing.T, id, llave string, codigo int, tramos ...[2]int) *Intencion {
	t.Helper()
	for _, e := range Escenarios(1) {
		if e.ID == id {
			in := &Intencion{Escenario: &e, Nombre: id + "-abc"}
			t0 := time.Unix(1000, 0)
			for _, tr := range tramos {
				in.Intentos = append(in.Intentos, Intento{Inicio: t0.Add(time.Duration(tr[0]) * time.Millisecond),
					Fin: t0.Add(time.Duration(tr[1]) * time.Millisecond), Llave: llave, Llaves: 1, Cliente: codigo})
			}
			return in
		}
	}
	t.Fatalf("no hay escenario %s", id)
	return nil
}

func porID(cs []Comprobacion) map[string]Comprobacion {
	m := map[string]Comprobacion{}
	for _, c := range cs {
		m[c.ID] = c
	}
	return m
}

// A client whose one intent succeeded at once met none of the checks' premises: each check says it
// judged nothing, and why; none passes, «N de M» counts none, and the exit code is not 0.
func TestSinPremisaNoSeJuzga(t *testing.T) {
	t.Parallel()
	in := intencion(t, "sin-falla", "k1", 201, [2]int{0, 5})
	in.Registrada = true
	inf := &Informe{Intenciones: []*Intencion{in}, Comprobaciones: juzgar([]*Intencion{in}, time.Minute)}
	cs := porID(inf.Comprobaciones)
	porques := map[string]bool{}
	for _, ch := range Checks {
		t.Run(ch.ID, func(t *testing.T) {
			c, ok := cs[ch.ID]
			if !ok || c.Estado != EstadoNoJuzgada || c.Paso || c.Juzgada() || !strings.HasPrefix(c.Linea, "no se juzgó: ") {
				t.Errorf("%+v", c)
			}
		})
		porques[cs[ch.ID].Linea] = true
	}
	if len(porques) != len(Checks) {
		t.Errorf("dos comprobaciones dan el mismo porqué: %v", porques)
	}
	if inf.Juzgadas() != 0 || inf.Codigo() == 0 || !strings.HasSuffix(texto(inf), fmt.Sprintf("\n0 de 0 comprobaciones del cliente pasaron; %d no se juzgaron\n", len(Checks))) ||
		!strings.Contains(texto(inf), "\n—     una-escritura        no se juzgó: ") {
		t.Errorf("código %d:\n%s", inf.Codigo(), texto(inf))
	}
}

// A naive client (one POST, no key, no retry, exit 0) earns no check its key already fails:
// una-escritura and codigo-de-salida say they judged nothing, not that it did well.
func TestClienteIngenuoNoGanaLoQueNoSeJuzgo(t *testing.T) {
	t.Parallel()
	var ins []*Intencion
	for _, id := range []string{"perdida", "rechazada", "422", "sin-falla"} {
		in := intencion(t, id, "", 502, [2]int{0, 5})
		in.Intentos[0].Llaves = 0
		ins = append(ins, in)
	}
	cs := porID(juzgar(ins, time.Minute))
	for _, id := range []string{"una-escritura", "codigo-de-salida", "llave-por-intencion"} {
		if cs[id].Estado != EstadoNoJuzgada {
			t.Errorf("%s: %+v", id, cs[id])
		}
	}
	if cs["misma-llave"].Estado != EstadoFallo {
		t.Errorf("misma-llave: %+v", cs["misma-llave"])
	}
}

// A wait runs from the end of the previous attempt: attempts at once are a finding of their own,
// not random waits; a client that never waits is told so, not that it «always waited the same».
func TestEsperasSolapadasYNulas(t *testing.T) {
	t.Parallel()
	var solapadas, seguidas []*Intencion
	for i := range 4 {
		id := "intermitente-" + string(rune('1'+i))
		// Attempt 2 starts 200 ms before attempt 1 ends.
		solapadas = append(solapadas, intencion(t, id, "k"+id, 502, [2]int{0, 300}, [2]int{100, 400}, [2]int{100 * i, 500}, [2]int{600, 700}))
		seguidas = append(seguidas, intencion(t, id, "k"+id, 502, [2]int{0, 10}, [2]int{11, 20}, [2]int{21, 30}, [2]int{31, 40}))
	}
	c := juzgarEsperas(solapadas)
	if c.Estado != EstadoFallo || len(c.Detalles) == 0 || !strings.HasSuffix(c.Detalles[0], ": el intento 2 empezó antes de que terminara el 1") {
		t.Errorf("solapadas: %+v", c)
	}
	c = juzgarEsperas(seguidas)
	if c.Estado != EstadoFallo || len(c.Detalles) != 1 || !strings.HasPrefix(c.Detalles[0], "no esperó nunca") {
		t.Errorf("sin espera: %+v", c)
	}
}

// An attempt the client waited for longer than the contract's 10 s fails se-rinde.
func TestEsperaDeMasPorIntento(t *testing.T) {
	t.Parallel()
	in := intencion(t, "estancada", "k", 0, [2]int{0, 15000}, [2]int{15100, 15200})
	in.Intentos[0].Abandonado = true
	in.Intentos[1].Cliente = 201
	in.Registrada = true
	c := porID(juzgar([]*Intencion{in}, time.Minute))["se-rinde"]
	if c.Estado != EstadoFallo || len(c.Detalles) != 1 || c.Detalles[0] != "estancada: esperó la respuesta del intento 1 más de 10 s (el contrato: 10 s como mucho)" {
		t.Errorf("%+v", c)
	}
}

// A check is one entry of Checks: a unique id that fits the report's column and the class store, a
// premise for --help, and a judge, whose verdict juzgar reports under the entry's id and in the table's order.
func TestCadaCheckTraeSuJuez(t *testing.T) {
	t.Parallel()
	if len(Checks) > topes.Comprobaciones {
		t.Errorf("%d comprobaciones: la matrícula de la clase guarda %d por calificación", len(Checks), topes.Comprobaciones)
	}
	forma := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	vistos := map[string]bool{}
	for i, ch := range Checks {
		switch {
		case !forma.MatchString(ch.ID) || len(ch.ID) > min(anchoID, topes.IDCalificacion):
			t.Errorf("%d: id %q", i, ch.ID)
		case vistos[ch.ID]:
			t.Errorf("%s: dos veces en la tabla", ch.ID)
		case strings.TrimSpace(ch.Premisa) == "":
			t.Errorf("%s: sin premisa", ch.ID)
		case ch.juez == nil:
			t.Errorf("%s: sin juez", ch.ID)
		}
		vistos[ch.ID] = true
	}
	if t.Failed() {
		return
	}
	in := intencion(t, "perdida", "k1", 502, [2]int{0, 5}, [2]int{10, 20})
	cs := juzgar([]*Intencion{in}, time.Minute)
	if len(cs) != len(Checks) || len(IDs) != len(Checks) {
		t.Fatalf("%d veredictos y %d ids para %d comprobaciones", len(cs), len(IDs), len(Checks))
	}
	for i, ch := range Checks {
		if cs[i].ID != ch.ID || IDs[i] != ch.ID || cs[i].Linea == "" {
			t.Errorf("%s: su veredicto es %+v; su id en IDs, %q", ch.ID, cs[i], IDs[i])
		}
	}
}

// docs/comprobar.md's table of checks is Checks: a row per entry, in its order, whose premise is
// the entry's (what --help prints) with code font.
func TestLaTablaDeComprobarEsLaDeChecks(t *testing.T) {
	t.Parallel()
	f, err := os.Open("../../docs/comprobar.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var filas [][]string
	dentro := false
	s := bufio.NewScanner(f)
	s.Buffer(nil, 1<<20)
	for s.Scan() {
		l := s.Text()
		switch {
		case strings.HasPrefix(l, "#"):
			dentro = l == "## Las comprobaciones"
		case dentro && strings.HasPrefix(l, "| `"):
			filas = append(filas, strings.Split(l, "|"))
		}
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	if len(filas) != len(Checks) {
		t.Fatalf("docs/comprobar.md tiene %d filas en «## Las comprobaciones»; Checks, %d entradas", len(filas), len(Checks))
	}
	for i, ch := range Checks {
		if c := filas[i]; len(c) < 5 || strings.TrimSpace(c[1]) != "`"+ch.ID+"`" || strings.ReplaceAll(strings.TrimSpace(c[3]), "`", "") != ch.Premisa {
			t.Errorf("la fila %d de docs/comprobar.md no es la de %s («%s»):\n%s", i+1, ch.ID, ch.Premisa, strings.Join(c, "|"))
		}
	}
}
