// Package predecir is «revisor predecir»: the prediction exercises of Lessons 4, 6 and 7 (and of
// the Spanish note's key table), each a list of typed questions that a student answers before a
// run, and the run itself, on a fresh laboratory and revisor of this process, which gives the real
// answers and the line that explains each one. The answer key is always a run, never a copy.
//
// The types serve the class too (clase.go, and the class lab of pkg/clase): an exercise has a
// stable ID, its questions have stable IDs and check their own answers (Pregunta.Leer), and
// Ejercicio.Correr returns the real answers with their explanations, so the class lab stores each
// student's answers and reveals its own run.
package predecir

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"cursohttp/pkg/explicaciones"
	"cursohttp/pkg/ordenes/entorno"
	"cursohttp/pkg/reintento"
	"cursohttp/pkg/tabladecision"
)

// Ejercicio is one prediction exercise of a lesson.
type Ejercicio struct {
	ID        string     `json:"id"`      // stable: «6.ejercicio-2», «6.5.4-409-en-curso»
	Leccion   int        `json:"leccion"` // 4, 6, 7; 0 for the Spanish note
	Seccion   string     `json:"seccion"` // where the lesson asks it: «6.5.4», «ejercicio 2»
	Titulo    string     `json:"titulo"`
	Enunciado string     `json:"enunciado"` // the lesson's prompt, in Spanish
	Preguntas []Pregunta `json:"preguntas"`
	// Correr runs the exercise's requests and programs and returns the real answer of every
	// question by its ID. Nil when the suite cannot run it yet: SinCorrer says why.
	Correr    func(ctx context.Context, c Corrida) (map[string]Real, error) `json:"-"`
	SinCorrer string                                                        `json:"sin_correr,omitempty"`
}

// Real is what happened for one question: its canonical answer and the line that explains it.
type Real struct {
	Valor  string `json:"valor"`
	Porque string `json:"porque"`
}

// Corrida is what a run may take from outside: where its progress goes and how it waits.
type Corrida struct {
	Out io.Writer // one line per step («corro: …»); nil says nothing
	// Dormir is every wait the lesson makes (sleep 6, the retries' jitter); nil sleeps for real.
	Dormir func(context.Context, time.Duration) error
}

func (c Corrida) decir(formato string, a ...any) {
	if c.Out != nil {
		fmt.Fprintf(c.Out, "  corro: "+formato+"\n", a...)
	}
}

func (c Corrida) dormir(ctx context.Context, d time.Duration) error {
	if c.Dormir != nil {
		return c.Dormir(ctx, d)
	}
	return reintento.Dormir(ctx, d)
}

// Cita is the lesson's section, the explanation of last resort.
func (e Ejercicio) Cita() string {
	if e.Leccion == 0 {
		return "la nota sobre Idempotency-Key y límites de tasa"
	}
	if strings.HasPrefix(e.Seccion, "ejercicio ") {
		return "lección " + strconv.Itoa(e.Leccion) + ", " + e.Seccion + " y su solución"
	}
	return "lección " + strconv.Itoa(e.Leccion) + ", §" + e.Seccion
}

// Buscar returns the exercises sel names, in the catalogue's order: a section (6.5.4, or an
// exercise of a lesson, 6.ejercicio-2, with every part of it), a lesson (6), or one exercise's ID.
func Buscar(sel string) []Ejercicio {
	var r []Ejercicio
	for _, e := range Ejercicios() {
		seccion := strconv.Itoa(e.Leccion) + "." + strings.ReplaceAll(e.Seccion, " ", "-")
		if e.Leccion == 0 {
			seccion = e.Seccion
		}
		if e.Seccion == sel || seccion == sel || (e.Leccion != 0 && strconv.Itoa(e.Leccion) == sel) {
			r = append(r, e)
		}
	}
	if len(r) > 0 {
		return r
	}
	for _, e := range Ejercicios() {
		if e.ID == sel {
			r = append(r, e)
		}
	}
	return r
}

// porRespuesta explains an answer by what it carries: the problem page of its Problem Details
// type (pkg/explicar), or else its first line of text.
func porRespuesta(r entorno.Respuesta) string {
	if tipo, ok := entorno.TypeDe(r); ok {
		nombre := tipo[strings.LastIndex(tipo, "/")+1:]
		if ps, err := explicaciones.Buscar(nombre); err == nil && len(ps) == 1 {
			p := ps[0]
			que := p.Que
			if i := strings.Index(que, ". "); i > 0 {
				que = que[:i+1]
			}
			return fmt.Sprintf("%d %s («revisor explicar %s»): %s", p.Tipo.Status, p.Nombre(), p.Nombre(), que)
		}
		return fmt.Sprintf("%d con type %s", r.Codigo, tipo)
	}
	var m map[string]any
	if json.Unmarshal(r.Cuerpo, &m) == nil {
		if d, ok := m["detail"].(string); ok {
			return fmt.Sprintf("%d: %s", r.Codigo, d)
		}
	}
	linea, _, _ := strings.Cut(strings.TrimSpace(string(r.Cuerpo)), "\n")
	if linea == "" {
		return fmt.Sprintf("%d sin cuerpo", r.Codigo)
	}
	if len(linea) > 120 {
		linea = linea[:120] + "…"
	}
	return fmt.Sprintf("%d: %s", r.Codigo, linea)
}

// porFila explains a decision by the decision table's row.
func porFila(codigo int, d tabladecision.Decision) string {
	return fmt.Sprintf("la tabla de decisión, fila del %d: %s — %s (reintenta: %s, espera: %s)",
		codigo, d.Accion, d.Motivo, d.ReintentaTexto(), d.EsperaTexto())
}

// Ejercicios is the whole catalogue, in the lessons' order.
func Ejercicios() []Ejercicio {
	var es []Ejercicio
	es = append(es, leccion4()...)
	es = append(es, leccion6()...)
	es = append(es, leccion7()...)
	es = append(es, nota()...)
	return es
}
