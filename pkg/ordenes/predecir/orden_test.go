package predecir

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"cursohttp/internal/prueba"
	"cursohttp/internal/prueba/ordenestest"
	"cursohttp/pkg/ordenes/entorno"
)

// anotarOpciones writes down what the command hands Predecir: the exercises, the answers given
// beforehand and the history.
func anotarOpciones(f *entorno.Fabrica, a ordenestest.Anotar) *cobra.Command {
	return NuevoCmd(f, func(_ context.Context, o Opciones) int {
		var ids []string
		for _, e := range o.Ejercicios {
			ids = append(ids, e.ID)
		}
		var dadas []string
		for e, ps := range o.Dadas {
			for p, v := range ps {
				dadas = append(dadas, e+":"+p+"="+v)
			}
		}
		sort.Strings(dadas)
		a(fmt.Sprintf("%s %s historial=%s", strings.Join(ids, ","), strings.Join(dadas, ","), filepath.Base(o.Historial)))
		return 0
	})
}

func TestLineasDeOrdenes(t *testing.T) {
	t.Parallel()
	ordenestest.Lineas(t, []ordenestest.Linea{
		{Construir: anotarOpciones, Linea: "6.5.4-409 --historial /tmp/h.jsonl", Anotado: "6.5.4-409  historial=h.jsonl"},
		{Construir: anotarOpciones, Linea: "6.5.4-409 --respuesta intentos=1 --respuesta final=No-Lo-Arregla",
			Anotado: "6.5.4-409 6.5.4-409:final=no-lo-arregla,6.5.4-409:intentos=1 historial=predicciones.jsonl"},
		{Construir: anotarOpciones, Linea: "6.ejercicio-2 --respuesta 6.ejercicio-2:salida=1",
			Anotado: "6.ejercicio-2,6.ejercicio-2-fig06_04 6.ejercicio-2:salida=1 historial=predicciones.jsonl"},
		{Construir: anotarOpciones, Linea: "6.5.4-409 --respuesta intentos=cuatro", Codigo: 2,
			Stderr: "predecir: 6.5.4-409:intentos: «cuatro» no es un número entero (escríbelo con cifras: 4, no cuatro)\n"},
		{Construir: anotarOpciones, Linea: "6.5.4-409 --respuesta salida=130",
			Anotado: "6.5.4-409 6.5.4-409:salida=130 historial=predicciones.jsonl"},
		{Construir: anotarOpciones, Linea: "6.5.4-409 --respuesta salida=4180", Codigo: 2,
			Stderr: "predecir: 6.5.4-409:salida: «4180» no es un código de salida (un número de 0 a 255)\n"},
		{Construir: anotarOpciones, Linea: "9.9", Codigo: 2,
			Stderr: "predecir: no hay ningún ejercicio ni sección «9.9»; «predecir» los lista\n"},
		{Construir: anotarOpciones, Linea: "--respuesta salida=1", Codigo: 2,
			Stderr: "predecir: las respuestas necesitan un ejercicio; «predecir» lista los ejercicios\n"},
		// In class: the instructor opens the question, the credential is the student's.
		{Construir: anotarOpciones, Linea: "--clase http://127.0.0.1:18084", Codigo: 2,
			Stderr: "predecir: --clase pide tu credencial de la clase: --credencial C (o CURSOHTTP_CREDENCIAL), la que te dio el profesor\n"},
		{Construir: anotarOpciones, Linea: "6.5.4-4xx --clase http://127.0.0.1:18084 --credencial cl-x", Codigo: 2,
			Stderr: "predecir: con --clase la pregunta la abre el profesor: no lleva ejercicio ni --ver-historial\n"},
		{Construir: anotarOpciones, Linea: "--clase ftp://x --credencial cl-x", Codigo: 2,
			Stderr: "predecir: --clase debe ser una dirección http, no «ftp://x»\n"},
		{Construir: anotarOpciones, Linea: "6.5.4-4xx --credencial cl-x", Codigo: 2,
			Stderr: "predecir: --credencial y --esperar van con --clase URL\n"},
		{Construir: anotarOpciones, Linea: "6.5.4-4xx --esperar=false", Codigo: 2,
			Stderr: "predecir: --credencial y --esperar van con --clase URL\n"},
	})
	// The system's words for a missing file vary (Windows has its own): only the suite's are checked.
	falta := filepath.Join(t.TempDir(), "no-existe.txt")
	out, errOut, c := ordenestest.Ejecutar(t, func(f *entorno.Fabrica) *cobra.Command { return anotarOpciones(f, func(string) {}) },
		"predecir", "6.5.4", "--respuestas", falta)
	if c != 2 || out != "" || !strings.HasPrefix(errOut, "revisor predecir: --respuestas: no puedo leer "+falta+": ") {
		t.Errorf("--respuestas sin archivo: código %d, stdout %q, stderr %q", c, out, errOut)
	}
}

// Without an exercise the order lists them all, each with its section, and says which have no run.
func TestListar(t *testing.T) {
	t.Parallel()
	out, errOut, c := ordenestest.Ejecutar(t, func(f *entorno.Fabrica) *cobra.Command { return NuevoCmd(f, nil) }, "predecir")
	if c != 0 || errOut != "" {
		t.Fatalf("código %d, stderr %q", c, errOut)
	}
	lineas := strings.Split(strings.TrimSpace(out), "\n")
	if len(lineas) != len(Ejercicios()) {
		t.Errorf("%d líneas para %d ejercicios:\n%s", len(lineas), len(Ejercicios()), out)
	}
	for _, want := range []string{"6.5.4-mudo", "lección 6, §6.5.4", "4.ejercicio-1", "lección 4, ejercicio 1 y su solución", "nota.1"} {
		if !strings.Contains(out, want) {
			t.Errorf("falta %q:\n%s", want, out)
		}
	}
	for i, e := range Ejercicios() {
		if i < len(lineas) && (e.Correr == nil) != strings.HasSuffix(lineas[i], "— sin ejecución todavía") {
			t.Errorf("%s: la lista no dice bien si se puede correr: %s", e.ID, lineas[i])
		}
	}
}

func TestCompletar(t *testing.T) {
	t.Parallel()
	got, _ := completar(nil, nil, "6.5.4")
	if len(got) != 7 || got[0] != "6.5.4\ttodos los de lección 6, §6.5.4" || !strings.HasPrefix(got[1], "6.5.4-4xx\tUn 4xx no se reintenta") {
		t.Errorf("6.5.4<Tab>: %q", got)
	}
	if got, _ := completar(nil, []string{"6.5.4"}, ""); len(got) != 0 {
		t.Errorf("un segundo argumento: %q", got)
	}
}

// The wrapped explanation keeps a quoted value as it is: asctime's date has two spaces before a
// one-digit day (RFC 9110's asctime-date), which the wrapping once squeezed into one (issue 42),
// and a quoted value is not split across lines.
func TestEnvolverCitaElValorEntero(t *testing.T) {
	t.Parallel()
	valor := `"Mon Dec  7 12:49:59 2026"`
	for _, relleno := range []int{0, 60, 75, 85, 95} {
		s := "por qué: " + strings.Repeat("x", relleno) + " segundosDeEspera da 61 s para " + valor + ": y algo más"
		got := envolver(s, "      ")
		if !strings.Contains(got, valor) {
			t.Errorf("relleno %d: el valor no sale entero:\n%s", relleno, got)
		}
		if strings.Join(strings.Fields(got), " ") != strings.Join(strings.Fields(s), " ") {
			t.Errorf("relleno %d: cambió el texto:\n%s", relleno, got)
		}
	}
	// An unclosed quote is a character: the rest still wraps.
	if got := envolver(`a "b `+strings.Repeat("palabra ", 30), ""); strings.Count(got, "\n") == 0 {
		t.Errorf("una comilla sin cerrar impidió partir la línea:\n%s", got)
	}
}

// 4.ejercicio-2's explanation of a miss quotes each value exactly as the run's table printed it.
func TestLaExplicacionCitaElValorUsado(t *testing.T) {
	t.Parallel()
	e := Buscar("4.ejercicio-2")[0]
	reales, err := Ejecutar(context.Background(), e, Corrida{})
	if err != nil {
		t.Fatal(err)
	}
	dadas := map[string]string{}
	for _, p := range e.Preguntas {
		dadas[p.ID] = otra(t, p, reales[p.ID].Valor)
	}
	var out, errOut prueba.Buffer
	if codigo := Predecir(context.Background(), Opciones{Ejercicios: []Ejercicio{e}, Dadas: map[string]map[string]string{e.ID: dadas},
		Out: &out, Err: &errOut, In: strings.NewReader("")}); codigo != 0 {
		t.Fatalf("código %d: %s", codigo, errOut.String())
	}
	citas := regexp.MustCompile(`"[^"]*"`)
	for id, r := range reales {
		for _, v := range citas.FindAllString(r.Porque, -1) {
			if !strings.Contains(out.String(), v) {
				t.Errorf("%s: la explicación no cita %s como lo usó la corrida:\n%s", id, v, out.String())
			}
		}
	}
}
