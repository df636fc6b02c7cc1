package predecir

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/spf13/cobra"

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
