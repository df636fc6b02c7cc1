package clase

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"cursohttp/pkg/examen"
	"cursohttp/pkg/matricula"
	"cursohttp/pkg/ordenes/entorno"
	"cursohttp/pkg/ordenes/predecir"
	"cursohttp/pkg/pizarra"
	"cursohttp/pkg/respuesta"
	"cursohttp/pkg/topes"
)

// Predictions as a class (issue 32, part 3). The instructor opens one of revisor predecir's
// exercises; each student answers it with the personal credential, from «revisor predecir
// --clase» or the small page at /clase/predecir; the projector's page shows how many answered and,
// when the instructor asks, the histogram of the answers, never a name; then the instructor has the
// class lab run the exercise, on a fresh lab of its own (predecir.Ejecutar), and the page shows the
// real answers, the share who got each, and why. Every answer is kept per student in the class's
// store (matricula.Responder) before it counts, and the run's answers with its round.
//
// One prediction is open at a time, in memory: a restart of the class lab forgets it (its
// answers stay in the store), and the instructor opens it again.

// EsperaCorrida bounds the class lab's run of an exercise (the longest, 6.ejercicio-4, sleeps 8 s).
const EsperaCorrida = 2 * time.Minute

// barrasVistas: past this many different answers to a question, the rest are one bar, «otras».
const barrasVistas = 10

// prediccion is the open prediction. Its fields change under Clase.pmu.
type prediccion struct {
	ronda      string
	ej         predecir.Ejercicio
	fase       string
	histograma bool
	respuestas map[string]map[string]string // by student: what the store holds
	reales     map[string]predecir.Real     // once revealed
	falla      string                       // why the last run did not reveal
	hecho      chan struct{}                // closed when the run in progress ends
	cancelar   context.CancelFunc           // of the run in progress
}

// predicciones are Clase's fields for the open prediction.
type predicciones struct {
	// turno: an answer holds it shared from the phase's check until the store has it; closing the
	// answers (revelar, abrir, cerrar) holds it alone, so no answer counts after they are closed
	// nor is lost before.
	turno sync.RWMutex
	pmu   sync.Mutex
	pred  *prediccion
}

//go:embed web
var web embed.FS

// rutasPrediccion adds the predictions' routes to mux.
func (c *Clase) rutasPrediccion(mux *http.ServeMux) {
	mux.HandleFunc("POST "+pizarra.RutaPrediccion, c.abrirPrediccion)
	mux.HandleFunc("DELETE "+pizarra.RutaPrediccion, c.cerrarPrediccion)
	mux.HandleFunc("GET "+pizarra.RutaPrediccion, c.leerPrediccion)
	mux.HandleFunc("POST "+pizarra.RutaPrediccionHistograma, c.mostrarHistograma)
	mux.HandleFunc("POST "+pizarra.RutaPrediccionRevelar, c.revelar)
	mux.HandleFunc("PUT "+pizarra.RutaPrediccionRespuesta, c.responder)
	mux.HandleFunc("GET "+pizarra.RutaPrediccionEstado, c.estadoPrediccion)
	c.rutasExportar(mux)
	mux.HandleFunc("GET "+pizarra.RutaProyector, pagina("web/proyector.html", "text/html; charset=utf-8"))
	mux.HandleFunc("GET "+pizarra.RutaPredecir, pagina("web/predecir.html", "text/html; charset=utf-8"))
	for _, a := range []string{"prediccion.css", "proyector.js", "predecir.js"} {
		tipo := "text/javascript; charset=utf-8"
		if strings.HasSuffix(a, ".css") {
			tipo = "text/css; charset=utf-8"
		}
		mux.HandleFunc("GET /clase/prediccion/"+a, pagina("web/"+a, tipo))
	}
}

// pagina serves one embedded file with the board's headers: the same for everybody (who asks is
// in the JSON), so a cache may keep it if it asks each time.
func pagina(nombre, tipo string) http.HandlerFunc {
	datos, err := web.ReadFile(nombre)
	if err != nil {
		panic("clase: falta " + nombre)
	}
	return func(w http.ResponseWriter, r *http.Request) {
		pizarra.CabecerasDePagina(w)
		w.Header().Set("Cache-Control", "no-cache")
		respuesta.Bytes(w, r, http.StatusOK, tipo, datos)
	}
}

// abrirPrediccion opens an exercise (the instructor's). Opening the one already open is that one
// again (a repeated request); another one while answers are open, or while it runs, is refused.
func (c *Clase) abrirPrediccion(w http.ResponseWriter, r *http.Request) {
	if !c.instructor(w, r) {
		return
	}
	var p struct {
		Ejercicio string `json:"ejercicio"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, topePedido)).Decode(&p); err != nil {
		linea(w, http.StatusBadRequest, `el pedido es un JSON con el ejercicio: {"ejercicio":"6.5.4-4xx"}`)
		return
	}
	i := slices.IndexFunc(predecir.Ejercicios(), func(e predecir.Ejercicio) bool { return e.ID == p.Ejercicio })
	if i < 0 {
		linea(w, http.StatusNotFound, "no hay ningún ejercicio «"+examen.Recortar(p.Ejercicio, 64)+"»: «revisor predecir» los lista")
		return
	}
	ej := predecir.Ejercicios()[i]
	if ej.Correr == nil {
		linea(w, http.StatusUnprocessableEntity, "el ejercicio "+ej.ID+" no tiene corrida todavía ("+ej.SinCorrer+"): no se puede revelar")
		return
	}
	c.p.turno.Lock()
	defer c.p.turno.Unlock()
	c.p.pmu.Lock()
	ya := c.p.pred
	c.p.pmu.Unlock()
	switch {
	case ya != nil && ya.ej.ID == ej.ID && ya.fase != predecir.FaseRevelada:
		c.escribirVista(w, r, http.StatusOK, "", true)
		return
	case ya != nil && ya.fase != predecir.FaseRevelada:
		linea(w, http.StatusConflict, "ya está abierta la pregunta de "+ya.ej.ID+": «laboratorio clase predecir cerrar» la cierra")
		return
	}
	ronda := uuid.NewString()
	ctx, cancelar := context.WithTimeout(r.Context(), esperaAlmacen)
	defer cancelar()
	if err := c.o.Matricula.AbrirRonda(ctx, matricula.Ronda{ID: ronda, Ejercicio: ej.ID, Abierta: c.o.Ahora()}); err != nil {
		c.o.Log.Error().Err(err).Msg("clase: no pude guardar la predicción en la matrícula")
		linea(w, http.StatusServiceUnavailable, "no pude guardar la predicción en la matrícula de la clase: el laboratorio dice por qué en su registro")
		return
	}
	c.p.pmu.Lock()
	c.p.pred = &prediccion{ronda: ronda, ej: ej, fase: predecir.FaseAbierta, respuestas: map[string]map[string]string{}}
	c.p.pmu.Unlock()
	c.o.Log.Info().Str("ejercicio", ej.ID).Msg("clase: el profesor abrió la predicción " + ej.ID)
	c.escribirVista(w, r, http.StatusCreated, "", true)
}

// esperaAlmacen bounds each call to the store from a prediction's route.
const esperaAlmacen = 5 * time.Second

// cerrarPrediccion forgets the open prediction (its answers stay in the store); a run in progress
// is stopped. Closing when none is open is done already.
func (c *Clase) cerrarPrediccion(w http.ResponseWriter, r *http.Request) {
	if !c.instructor(w, r) {
		return
	}
	c.p.turno.Lock()
	defer c.p.turno.Unlock()
	c.p.pmu.Lock()
	if p := c.p.pred; p != nil {
		if p.cancelar != nil {
			p.cancelar()
		}
		c.o.Log.Info().Str("ejercicio", p.ej.ID).Msg("clase: el profesor cerró la predicción " + p.ej.ID)
	}
	c.p.pred = nil
	c.p.pmu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

func (c *Clase) mostrarHistograma(w http.ResponseWriter, r *http.Request) {
	if !c.instructor(w, r) {
		return
	}
	c.p.pmu.Lock()
	p := c.p.pred
	if p != nil {
		p.histograma = true
	}
	c.p.pmu.Unlock()
	if p == nil {
		linea(w, http.StatusConflict, sinPrediccion)
		return
	}
	c.escribirVista(w, r, http.StatusOK, "", true)
}

const sinPrediccion = "no hay ninguna pregunta abierta: «laboratorio clase predecir EJERCICIO» abre una"

// revelar closes the answers and has the class lab run the exercise; the reveal is that run's.
// The run is the lab's, not the request's: a repeated request (the first one's answer lost) waits
// for the same run, and one after it gets the same reveal. A run that fails reveals nothing and
// opens the answers again.
func (c *Clase) revelar(w http.ResponseWriter, r *http.Request) {
	if !c.instructor(w, r) {
		return
	}
	c.p.turno.Lock()
	c.p.pmu.Lock()
	p := c.p.pred
	if p == nil {
		c.p.pmu.Unlock()
		c.p.turno.Unlock()
		linea(w, http.StatusConflict, sinPrediccion)
		return
	}
	if p.fase == predecir.FaseAbierta {
		ctx, cancelar := context.WithTimeout(context.Background(), EsperaCorrida)
		p.fase, p.falla, p.hecho, p.cancelar = predecir.FaseCorriendo, "", make(chan struct{}), cancelar
		go c.correr(ctx, cancelar, p)
		c.o.Log.Info().Str("ejercicio", p.ej.ID).Msg("clase: el profesor revela la predicción " + p.ej.ID + ": la corro")
	}
	hecho := p.hecho
	c.p.pmu.Unlock()
	c.p.turno.Unlock()
	select {
	case <-hecho:
	case <-r.Context().Done():
		return
	}
	c.p.pmu.Lock()
	sigue, fase, falla := c.p.pred == p, p.fase, p.falla
	c.p.pmu.Unlock()
	switch {
	case !sigue:
		linea(w, http.StatusConflict, "la pregunta se cerró mientras corría: no se reveló")
	case fase != predecir.FaseRevelada:
		linea(w, http.StatusBadGateway, "no pude correr "+p.ej.ID+": "+falla+"; las respuestas siguen abiertas: repite revelar")
	default:
		c.escribirVista(w, r, http.StatusOK, "", true)
	}
}

// correr runs p's exercise and keeps its answers: the real answers are always a run's.
func (c *Clase) correr(ctx context.Context, cancelar context.CancelFunc, p *prediccion) {
	defer cancelar()
	reales, err := predecir.Ejecutar(ctx, p.ej, predecir.Corrida{})
	if err == nil {
		valores := make(map[string]string, len(reales))
		for q, v := range reales {
			valores[q] = v.Valor
		}
		err = c.o.Matricula.Revelar(ctx, p.ronda, valores)
	}
	c.p.pmu.Lock()
	if err != nil {
		p.fase, p.falla = predecir.FaseAbierta, entorno.Describir(err)
		c.o.Log.Error().Err(err).Str("ejercicio", p.ej.ID).Msg("clase: no pude revelar la predicción " + p.ej.ID)
	} else {
		p.fase, p.reales, p.histograma = predecir.FaseRevelada, reales, true
		c.o.Log.Info().Str("ejercicio", p.ej.ID).Msg("clase: predicción " + p.ej.ID + " revelada")
	}
	close(p.hecho)
	c.p.pmu.Unlock()
}

// leerPrediccion is the open prediction for a student: with the student's own answers.
func (c *Clase) leerPrediccion(w http.ResponseWriter, r *http.Request) {
	alumno, ok := c.alumno(w, r)
	if !ok {
		return
	}
	c.escribirVista(w, r, http.StatusOK, alumno, false)
}

// estadoPrediccion is what the projector shows: no name, unless the instructor asks.
func (c *Clase) estadoPrediccion(w http.ResponseWriter, r *http.Request) {
	c.escribirVista(w, r, http.StatusOK, "", c.Instructor(r))
}

// responder keeps a student's answers to the open question: one to every question, each of its
// type (predecir.Pregunta.Leer), under the credential's own student only. The last one counts
// until the answers are closed; after that, 409.
func (c *Clase) responder(w http.ResponseWriter, r *http.Request) {
	alumno, ok := c.alumno(w, r)
	if !ok {
		return
	}
	var pedido predecir.PedidoRespuestas
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, topePedido)).Decode(&pedido); err != nil {
		var grande *http.MaxBytesError
		if errors.As(err, &grande) {
			linea(w, http.StatusRequestEntityTooLarge, "la respuesta pasa de "+strconv.Itoa(topePedido>>10)+" KiB")
			return
		}
		linea(w, http.StatusBadRequest, `la respuesta es un JSON: {"ronda":"…","respuestas":{"PREGUNTA":"VALOR",…}}`)
		return
	}
	if pedido.Alumno != "" {
		if n, err := matricula.Normalizar(pedido.Alumno); err != nil || n != alumno {
			linea(w, http.StatusForbidden, "una credencial responde solo por su alumno: esta es de «"+alumno+"»")
			return
		}
	}
	c.p.pmu.Lock()
	p := c.p.pred
	c.p.pmu.Unlock()
	if p == nil {
		linea(w, http.StatusConflict, "no hay ninguna pregunta abierta: espera a que el profesor abra una")
		return
	}
	canon, errores := leerRespuestas(p.ej, pedido.Respuestas)
	if len(errores) > 0 {
		escribirJSON(w, http.StatusUnprocessableEntity, predecir.RechazoRespuestas{Errores: errores})
		return
	}
	c.p.turno.RLock()
	defer c.p.turno.RUnlock()
	c.p.pmu.Lock()
	motivo := ""
	switch {
	case c.p.pred != p, pedido.Ronda != "" && pedido.Ronda != p.ronda:
		motivo = "esa pregunta ya no está abierta (el profesor la cerró o abrió otra): no cuenta"
	case p.fase == predecir.FaseCorriendo:
		motivo = "el profesor ya está corriendo el ejercicio: no admite más respuestas"
	case p.fase == predecir.FaseRevelada:
		motivo = "la respuesta ya se reveló: no admite más respuestas"
	}
	c.p.pmu.Unlock()
	if motivo != "" {
		linea(w, http.StatusConflict, motivo)
		return
	}
	ctx, cancelar := context.WithTimeout(r.Context(), esperaAlmacen)
	defer cancelar()
	switch err := c.o.Matricula.Responder(ctx, p.ronda, alumno, canon); {
	case errors.Is(err, matricula.ErrNoEsta):
		linea(w, http.StatusGone, "el profesor te quitó de la lista: tu respuesta no cuenta")
		return
	case errors.Is(err, matricula.ErrRevelada), errors.Is(err, matricula.ErrSinRonda):
		linea(w, http.StatusConflict, "esa pregunta ya no admite respuestas: no cuenta")
		return
	case err != nil:
		c.o.Log.Error().Err(err).Msg("clase: no pude guardar una respuesta en la matrícula")
		linea(w, http.StatusServiceUnavailable, "no pude guardar tu respuesta: no cuenta; repítela en unos segundos")
		return
	}
	c.p.pmu.Lock()
	p.respuestas[alumno] = canon
	c.p.pmu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// leerRespuestas checks one answer to every question of ej and gives each in its canonical text;
// or, by question, why not (at most a few: the request's bytes bound the rest).
func leerRespuestas(ej predecir.Ejercicio, dadas map[string]string) (map[string]string, map[string]string) {
	canon := make(map[string]string, len(ej.Preguntas))
	errores := map[string]string{}
	for _, q := range ej.Preguntas {
		dada, ok := dadas[q.ID]
		if !ok {
			errores[q.ID] = "falta la respuesta (" + q.Pista() + ")"
			continue
		}
		v, err := q.Leer(dada)
		switch {
		case err != nil:
			errores[q.ID] = err.Error()
		case len(v) > topes.RespuestaClase:
			errores[q.ID] = "la respuesta pasa de " + strconv.Itoa(topes.RespuestaClase) + " bytes"
		default:
			canon[q.ID] = v
		}
	}
	for id := range dadas {
		if _, ok := canon[id]; !ok && len(errores) < 10 && !slices.ContainsFunc(ej.Preguntas, func(q predecir.Pregunta) bool { return q.ID == id }) {
			errores[examen.Recortar(id, 64)] = "el ejercicio " + ej.ID + " no tiene esa pregunta"
		}
	}
	return canon, errores
}

// escribirVista answers the open prediction as alumno (a student, "" for the projector) or the
// instructor sees it.
func (c *Clase) escribirVista(w http.ResponseWriter, r *http.Request, codigo int, alumno string, instructor bool) {
	ctx, cancelar := context.WithTimeout(r.Context(), esperaAlmacen)
	defer cancelar()
	lista, err := c.o.Matricula.Alumnos(ctx)
	if err != nil {
		c.o.Log.Error().Err(err).Msg("clase: no pude leer la lista en la matrícula")
		linea(w, http.StatusServiceUnavailable, "la clase no puede leer su lista ahora: repite en unos segundos")
		return
	}
	escribirJSON(w, codigo, c.vista(lista, alumno, instructor))
}

// vista is the open prediction for one asker: counts of the roster's students only (one removed
// meanwhile no longer counts), names only to the instructor, a student's own answers to that
// student.
func (c *Clase) vista(lista []matricula.Alumno, alumno string, instructor bool) predecir.EnClase {
	v := predecir.EnClase{Fase: predecir.FaseNinguna, Alumnos: len(lista), Alumno: alumno, Instructor: instructor}
	if instructor {
		v.Direcciones = c.direcciones()
	}
	c.p.pmu.Lock()
	defer c.p.pmu.Unlock()
	p := c.p.pred
	if p == nil {
		return v
	}
	ej := p.ej
	v.Fase, v.Ronda, v.Ejercicio, v.Falla, v.Cita = p.fase, p.ronda, &ej, p.falla, ej.Cita()
	v.Pistas = map[string]string{}
	for _, q := range ej.Preguntas {
		v.Pistas[q.ID] = q.Pista()
	}
	var dadas []map[string]string
	for _, a := range lista {
		m, ok := p.respuestas[a.Nombre]
		if !ok {
			continue
		}
		dadas = append(dadas, m)
		fila := predecir.RespuestasDeAlumno{Alumno: a.Nombre, Respuestas: m}
		if p.reales != nil {
			n := 0
			for _, q := range ej.Preguntas {
				if q.Acierta(m[q.ID], p.reales[q.ID].Valor) {
					n++
				}
			}
			fila.Aciertos = &n
		}
		if instructor {
			v.PorAlumno = append(v.PorAlumno, fila)
		}
	}
	v.Respondieron = len(dadas)
	if alumno != "" {
		v.Mias = p.respuestas[alumno]
	}
	if p.histograma {
		for _, q := range ej.Preguntas {
			v.Histograma = append(v.Histograma, histograma(q, dadas))
		}
	}
	if p.reales != nil {
		v.Reales = map[string]predecir.RealEnClase{}
		for _, q := range ej.Preguntas {
			real := p.reales[q.ID]
			n := 0
			for _, m := range dadas {
				if q.Acierta(m[q.ID], real.Valor) {
					n++
				}
			}
			v.Reales[q.ID] = predecir.RealEnClase{Valor: real.Valor, Porque: real.Porque, Acertaron: n}
		}
	}
	return v
}

// histograma counts the answers to q: every option, in order, for a choice (sí and no too); the
// most given first otherwise, past barrasVistas summed as «otras».
func histograma(q predecir.Pregunta, dadas []map[string]string) predecir.Histograma {
	cuantos := map[string]int{}
	for _, m := range dadas {
		if v, ok := m[q.ID]; ok {
			cuantos[v]++
		}
	}
	h := predecir.Histograma{Pregunta: q.ID, Barras: []predecir.Barra{}}
	var fijas []string
	switch q.Tipo {
	case predecir.Opcion:
		fijas = q.Opciones
	case predecir.SiNo:
		fijas = []string{"sí", "no"}
	}
	if fijas != nil {
		for _, o := range fijas {
			h.Barras = append(h.Barras, predecir.Barra{Valor: o, Cuantos: cuantos[o]})
		}
		return h
	}
	for v, n := range cuantos {
		h.Barras = append(h.Barras, predecir.Barra{Valor: v, Cuantos: n})
	}
	slices.SortFunc(h.Barras, func(a, b predecir.Barra) int {
		if a.Cuantos != b.Cuantos {
			return b.Cuantos - a.Cuantos
		}
		return strings.Compare(a.Valor, b.Valor)
	})
	if len(h.Barras) > barrasVistas {
		otras := predecir.Barra{Valor: "otras", Otras: true}
		for _, b := range h.Barras[barrasVistas-1:] {
			otras.Cuantos += b.Cuantos
		}
		h.Barras = append(h.Barras[:barrasVistas-1], otras)
	}
	return h
}
