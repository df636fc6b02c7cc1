package predecir

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"cursohttp/pkg/curso"
	"cursohttp/pkg/pizarra"
	"cursohttp/pkg/reintento"
)

// Predicting as a class (issue 32, part 3): the class lab of classroom mode (pkg/clase) opens one
// exercise at a time, takes each student's answers under the student's personal credential and, on
// the instructor's word, runs the exercise itself and reveals the real answers. These are the wire's
// shapes, which the class lab writes and «revisor predecir --clase» reads, and that command.

// The phases of a prediction asked in class.
const (
	FaseNinguna   = "ninguna"   // none is open
	FaseAbierta   = "abierta"   // it takes answers
	FaseCorriendo = "corriendo" // answers are closed: the class lab is running the exercise
	FaseRevelada  = "revelada"  // the run's answers are shown
)

// EnClase is the class lab's open prediction as one asker sees it: GET /clase/prediccion for a
// student (with Alumno and Mias), /clase/prediccion/estado for the projector (no name at all) and
// for the instructor (with PorAlumno).
type EnClase struct {
	Fase      string     `json:"fase"`
	Ronda     string     `json:"ronda,omitempty"` // this opening's id: answers name it
	Ejercicio *Ejercicio `json:"ejercicio,omitempty"`
	// Cita is where the lesson asks it; Pistas, what each question takes (Pregunta.Pista).
	Cita    string            `json:"cita,omitempty"`
	Pistas  map[string]string `json:"pistas,omitempty"`
	Alumnos int               `json:"alumnos"` // in the roster
	// Direcciones are the class lab's URLs as the students' machines reach it (the instructor's
	// view only): where they answer.
	Direcciones  []string `json:"direcciones,omitempty"`
	Respondieron int      `json:"respondieron"` // of them, who answered
	// Histograma: how many gave each answer, once the instructor asked for it (and after the
	// reveal), in the questions' order.
	Histograma []Histograma `json:"histograma,omitempty"`
	// Reales: the run's answer to each question, with why, once revealed.
	Reales map[string]RealEnClase `json:"reales,omitempty"`
	// Falla: why the last run could not reveal (the answers stay open).
	Falla string `json:"falla,omitempty"`

	Alumno string            `json:"alumno,omitempty"` // a student's own name
	Mias   map[string]string `json:"mias,omitempty"`   // and answers, those that count

	Instructor bool                 `json:"instructor,omitempty"`
	PorAlumno  []RespuestasDeAlumno `json:"por_alumno,omitempty"` // the instructor's only: every answer, by name
}

// Histograma is one question's answers, counted.
type Histograma struct {
	Pregunta string  `json:"pregunta"`
	Barras   []Barra `json:"barras"`
}

// Barra is how many gave one answer. Otras sums the answers past the bars shown.
type Barra struct {
	Valor   string `json:"valor"`
	Cuantos int    `json:"cuantos"`
	Otras   bool   `json:"otras,omitempty"`
}

// RealEnClase is a question's real answer, why, and how many of those who answered got it.
type RealEnClase struct {
	Valor     string `json:"valor"`
	Porque    string `json:"porque"`
	Acertaron int    `json:"acertaron"`
}

// RespuestasDeAlumno is one student's answers, for the instructor.
type RespuestasDeAlumno struct {
	Alumno     string            `json:"alumno"`
	Respuestas map[string]string `json:"respuestas"`
	Aciertos   *int              `json:"aciertos,omitempty"` // once revealed
}

// PedidoRespuestas is a student's PUT /clase/prediccion/respuesta: an answer to every question of
// the round, each as Pregunta.Leer takes it. Alumno, when given, must be the credential's own.
type PedidoRespuestas struct {
	Ronda      string            `json:"ronda,omitempty"`
	Alumno     string            `json:"alumno,omitempty"`
	Respuestas map[string]string `json:"respuestas"`
}

// RechazoRespuestas is the 422 of answers refused: why, by question.
type RechazoRespuestas struct {
	Errores map[string]string `json:"errores"`
}

// VariableCredencial holds a student's class credential, as for «revisor comprobar cliente --clase».
const VariableCredencial = "CURSOHTTP_CREDENCIAL"

// OpcionesClase are «revisor predecir --clase»'s inputs.
type OpcionesClase struct {
	URL, Credencial string
	// Respuestas are PREGUNTA=VALOR lines given beforehand (--respuesta), checked when the
	// question arrives; the rest are asked on In.
	Respuestas []string
	Esperar    bool   // after answering, wait for the reveal and compare
	Historial  string // "" keeps nothing
	In         io.Reader
	Out, Err   io.Writer
	Cliente    *http.Client  // nil: one with a 10 s timeout
	Cada       time.Duration // between two reads while waiting; 0 is 2 s
}

// errClase is an answer of the class lab that ends the command: its line, as the lab said it.
type errClase struct {
	codigo int
	texto  string
}

func (e *errClase) Error() string { return e.texto }

// clienteDeClase talks to the class lab with a student's credential.
type clienteDeClase struct {
	o OpcionesClase
}

func (c clienteDeClase) pedir(ctx context.Context, metodo, ruta string, cuerpo any, v any) error {
	var b io.Reader
	if cuerpo != nil {
		js, err := json.Marshal(cuerpo)
		if err != nil {
			return err
		}
		b = bytes.NewReader(js)
	}
	req, err := http.NewRequestWithContext(ctx, metodo, strings.TrimRight(c.o.URL, "/")+ruta, b)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.o.Credencial)
	req.Header.Set("Accept", "application/json")
	if cuerpo != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.o.Cliente.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	datos, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		texto := strings.TrimSpace(string(datos))
		var r RechazoRespuestas
		if resp.StatusCode == http.StatusUnprocessableEntity && json.Unmarshal(datos, &r) == nil && len(r.Errores) > 0 {
			var l []string
			for p, e := range r.Errores {
				l = append(l, p+": "+e)
			}
			texto = strings.Join(l, "; ")
		}
		return &errClase{resp.StatusCode, fmt.Sprintf("la clase respondió %d: %s", resp.StatusCode, texto)}
	}
	if v == nil || resp.StatusCode == http.StatusNoContent {
		return nil
	}
	return json.Unmarshal(datos, v)
}

// leer is the open prediction as this student sees it. While the lab does not answer (it
// restarts) it tries again, saying so once; a refusal (a credential not of the class) ends it.
func (c clienteDeClase) leer(ctx context.Context, dicho *bool) (EnClase, error) {
	for {
		var v EnClase
		err := c.pedir(ctx, http.MethodGet, pizarra.RutaPrediccion, nil, &v)
		var rechazo *errClase
		switch {
		case err == nil:
			return v, nil
		case ctx.Err() != nil, errors.As(err, &rechazo) && rechazo.codigo/100 == 4:
			return EnClase{}, err
		}
		if !*dicho {
			fmt.Fprintf(c.o.Err, "revisor predecir: no llego a la clase (%v); sigo intentándolo\n", err)
			*dicho = true
		}
		if err := reintento.Dormir(ctx, c.o.Cada); err != nil {
			return EnClase{}, err
		}
	}
}

// PredecirEnClase is «revisor predecir --clase URL»: it waits for the instructor to open a question,
// asks it with the same prompts and checks as alone, sends the answer under the student's
// credential and, with Esperar, waits for the reveal and shows the answer beside the real one.
// Exit code 0 when the answer was sent (and, waiting, the question revealed or closed), 1 when the
// class refused it, the question was closed already or the class could not be reached, 2 for an
// answer given beforehand that does not fit, 130 after Ctrl+C.
func PredecirEnClase(ctx context.Context, o OpcionesClase) int {
	if o.Cliente == nil {
		o.Cliente = &http.Client{Timeout: 10 * time.Second}
	}
	if o.Cada <= 0 {
		o.Cada = 2 * time.Second
	}
	c := clienteDeClase{o}
	fallo := func(err error) int {
		if ctx.Err() != nil {
			return curso.Interrumpido
		}
		fmt.Fprintf(o.Err, "revisor predecir: %v\n", err)
		return 1
	}
	dicho := false
	v, err := c.leer(ctx, &dicho)
	if err != nil {
		return fallo(err)
	}
	// None open yet: wait for it. One whose answers are closed (being run, or revealed) takes no
	// answer: an answer now would wait for nothing, so say so and end.
	if v.Fase == FaseNinguna {
		fmt.Fprintln(o.Out, "Espero a que el profesor abra una pregunta… (Ctrl+C para salir)")
		for v.Fase == FaseNinguna {
			if err := reintento.Dormir(ctx, o.Cada); err != nil {
				return fallo(err)
			}
			if v, err = c.leer(ctx, &dicho); err != nil {
				return fallo(err)
			}
		}
	}
	if v.Fase != FaseAbierta {
		fmt.Fprintf(o.Err, "revisor predecir: %s\n", cerrada(v))
		return 1
	}
	if v.Ejercicio == nil {
		return fallo(errors.New("la clase abrió una pregunta sin ejercicio"))
	}
	e := *v.Ejercicio
	fmt.Fprintf(o.Out, "%s — %s (%s), en la clase, como %s\n%s\n", e.ID, e.Titulo, e.Cita(), v.Alumno, envolver(e.Enunciado, ""))
	dadas, err := leerRespuestas(o.Respuestas, []Ejercicio{e})
	if err != nil {
		fmt.Fprintf(o.Err, "revisor predecir: %v\n", err)
		return 2
	}
	respuestas, err := preguntar(ctx, e, dadas[e.ID], bufio.NewReader(o.In), o.Out)
	if err != nil {
		return fallo(err)
	}
	if err := c.pedir(ctx, http.MethodPut, pizarra.RutaPrediccionRespuesta, PedidoRespuestas{Ronda: v.Ronda, Respuestas: respuestas}, nil); err != nil {
		return fallo(err)
	}
	fmt.Fprintln(o.Out, "Respuesta enviada: cuenta la última que mandes hasta que el profesor revele la respuesta.")
	if !o.Esperar {
		return 0
	}
	fmt.Fprintln(o.Out, "Espero a que el profesor revele la respuesta… (Ctrl+C para salir: tu respuesta ya cuenta)")
	mia := v.Ronda
	for {
		if err := reintento.Dormir(ctx, o.Cada); err != nil {
			return fallo(err)
		}
		if v, err = c.leer(ctx, &dicho); err != nil {
			return fallo(err)
		}
		switch {
		case v.Ronda == mia && v.Fase == FaseRevelada:
			return revelada(o, e, v)
		case v.Ronda == mia:
			continue
		}
		// Closed, or another opened (even the same exercise again: another round).
		fmt.Fprintln(o.Out, "El profesor cerró la pregunta sin revelarla.")
		return 0
	}
}

// cerrada says that v's question takes no more answers, and what to do.
func cerrada(v EnClase) string {
	que := "la pregunta"
	if v.Ejercicio != nil {
		que += " de " + v.Ejercicio.ID
	}
	porque := "el profesor ya reveló la respuesta"
	if v.Fase == FaseCorriendo {
		porque = "el profesor ya está corriendo el ejercicio para revelarla"
	}
	return que + " ya está cerrada (" + porque + "): no admite respuestas; cuando el profesor abra otra, vuelve a correr esta orden"
}

// revelada shows the student's answers (those that counted) beside the run's, how the class did,
// and keeps them in the history.
func revelada(o OpcionesClase, e Ejercicio, v EnClase) int {
	reales := map[string]Real{}
	for p, r := range v.Reales {
		reales[p] = Real{Valor: r.Valor, Porque: r.Porque}
	}
	cal := Calificar(e, v.Mias, reales)
	aciertos := mostrar(o.Out, e, cal)
	if v.Respondieron > 0 {
		var l []string
		for i, p := range e.Preguntas {
			l = append(l, fmt.Sprintf("%d. %d de %d", i+1, v.Reales[p.ID].Acertaron, v.Respondieron))
		}
		fmt.Fprintf(o.Out, "En la clase acertaron: %s.\n", strings.Join(l, " · "))
	}
	if o.Historial == "" {
		return 0
	}
	ent := Entrada{Cuando: time.Now().UTC(), Ejercicio: e.ID, Respuestas: cal, Aciertos: aciertos, Total: len(cal)}
	if err := Guardar(o.Historial, ent); err != nil {
		fmt.Fprintf(o.Err, "revisor predecir: no pude guardar el historial en %s: %v\n", o.Historial, err)
		return 1
	}
	return 0
}
