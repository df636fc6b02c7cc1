package clase

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"net/http"
	"slices"
	"time"

	"cursohttp/pkg/matricula"
	"cursohttp/pkg/ordenes/predecir"
	"cursohttp/pkg/pizarra"
	"cursohttp/pkg/respuesta"
)

// rutasExportar adds the export of the predictions' answers (issue 40, item 8; the board's own
// CSV, pizarra.RutaExportarNotas, is the board's). rutasPrediccion calls it, so Rutas serves it.
func (c *Clase) rutasExportar(mux *http.ServeMux) {
	mux.HandleFunc("GET "+pizarra.RutaExportarPredicciones, c.exportarPredicciones)
}

// cabeceraPredicciones is the header of the predictions' CSV: one row per answer a student gave
// to a question of a round the store keeps, the oldest round first; a round is its exercise and
// when it was opened. real and acierto are empty until the round is revealed; acierto is «sí» or
// «no», as the exercise judges it (predecir.Pregunta.Acierta: a number within its margin).
var cabeceraPredicciones = []string{"ejercicio", "abierta", "pregunta", "alumno", "respuesta", "respondida", "real", "acierto"}

// exportarPredicciones is every kept round's answers as CSV (the instructor's: it names students).
func (c *Clase) exportarPredicciones(w http.ResponseWriter, r *http.Request) {
	if !c.instructor(w, r) {
		return
	}
	// At most topes.RondasClase rounds, each one query: more than one store call's time.
	ctx, cancelar := context.WithTimeout(r.Context(), 6*esperaAlmacen)
	defer cancelar()
	rondas, err := c.o.Matricula.Rondas(ctx)
	if err != nil {
		c.fallaAlExportar(w, err)
		return
	}
	var b bytes.Buffer
	cw := csv.NewWriter(&b)
	cw.UseCRLF = true
	cw.Write(cabeceraPredicciones) //nolint:errcheck // a buffer; cw.Error below
	for _, ronda := range rondas {
		ronda, respuestas, err := c.o.Matricula.Respuestas(ctx, ronda.ID)
		if err != nil {
			if errors.Is(err, matricula.ErrSinRonda) { // forgotten meanwhile (past the store's bound)
				continue
			}
			c.fallaAlExportar(w, err)
			return
		}
		var preguntas []predecir.Pregunta
		if i := slices.IndexFunc(predecir.Ejercicios(), func(e predecir.Ejercicio) bool { return e.ID == ronda.Ejercicio }); i >= 0 {
			preguntas = predecir.Ejercicios()[i].Preguntas
		}
		lugar := func(id string) int {
			if i := slices.IndexFunc(preguntas, func(q predecir.Pregunta) bool { return q.ID == id }); i >= 0 {
				return i
			}
			return len(preguntas)
		}
		// In the roster's order (the store's), each student's answers in the exercise's order.
		turno := map[string]int{}
		for _, x := range respuestas {
			if _, ok := turno[x.Alumno]; !ok {
				turno[x.Alumno] = len(turno)
			}
		}
		slices.SortStableFunc(respuestas, func(a, b matricula.Respuesta) int {
			if a.Alumno != b.Alumno {
				return turno[a.Alumno] - turno[b.Alumno]
			}
			return lugar(a.Pregunta) - lugar(b.Pregunta)
		})
		for _, x := range respuestas {
			real, acierto := "", ""
			if ronda.Reales != nil {
				real = ronda.Reales[x.Pregunta]
				if i := lugar(x.Pregunta); i < len(preguntas) {
					acierto = map[bool]string{true: "sí", false: "no"}[preguntas[i].Acierta(x.Valor, real)]
				}
			}
			cw.Write([]string{ronda.Ejercicio, hora(ronda.Abierta), x.Pregunta, x.Alumno, x.Valor, hora(x.Cuando), real, acierto}) //nolint:errcheck // a buffer
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		c.fallaAlExportar(w, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Disposition", `attachment; filename="predicciones.csv"`)
	respuesta.Bytes(w, r, http.StatusOK, pizarra.TipoCSV, b.Bytes())
}

func hora(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Local().Format(pizarra.FormatoHora)
}

// fallaAlExportar says the store failed: why to the log, one line to the instructor.
func (c *Clase) fallaAlExportar(w http.ResponseWriter, err error) {
	c.o.Log.Error().Err(err).Msg("clase: no pude exportar las predicciones: " + err.Error())
	linea(w, http.StatusServiceUnavailable, "no pude leer las predicciones en la matrícula de la clase: el laboratorio dice por qué en su registro")
}
