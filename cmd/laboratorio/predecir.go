package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"cursohttp/pkg/cli"
	"cursohttp/pkg/pizarra"
)

// prediccionDeClase is what the class lab says of its open prediction (predecir.EnClase, as the
// instructor sees it; laboratorio links neither the class lab nor revisor predecir).
type prediccionDeClase struct {
	Fase      string `json:"fase"`
	Ejercicio *struct {
		ID        string `json:"id"`
		Titulo    string `json:"titulo"`
		Preguntas []struct {
			ID    string `json:"id"`
			Texto string `json:"texto"`
		} `json:"preguntas"`
	} `json:"ejercicio"`
	Cita         string   `json:"cita"`
	Alumnos      int      `json:"alumnos"`
	Direcciones  []string `json:"direcciones"`
	Respondieron int      `json:"respondieron"`
	Histograma   []struct {
		Pregunta string `json:"pregunta"`
		Barras   []struct {
			Valor   string `json:"valor"`
			Cuantos int    `json:"cuantos"`
		} `json:"barras"`
	} `json:"histograma"`
	Reales map[string]struct {
		Valor     string `json:"valor"`
		Porque    string `json:"porque"`
		Acertaron int    `json:"acertaron"`
	} `json:"reales"`
	Falla     string `json:"falla"`
	PorAlumno []struct {
		Alumno     string            `json:"alumno"`
		Respuestas map[string]string `json:"respuestas"`
		Aciertos   *int              `json:"aciertos"`
	} `json:"por_alumno"`
}

// esperaRevelar bounds «predecir revelar»: the class lab's run of an exercise (pkg/clase's
// EsperaCorrida, two minutes) and a margin.
const esperaRevelar = 150 * time.Second

// nuevaClasePredecir is «laboratorio clase predecir»: a prediction of revisor predecir asked to
// the whole class, through the class lab, with the instructor's token.
func nuevaClasePredecir(f flujos, url_ *string, pedirEn func(time.Duration, string, string, []byte) (*http.Response, error)) *cobra.Command {
	return &cobra.Command{
		Use:   "predecir [EJERCICIO | histograma | revelar | cerrar]",
		Short: "pregunta a la clase uno de los ejercicios de «revisor predecir»: lo abre, muestra el histograma, lo corre y revela, lo cierra",
		Long: `Pregunta a toda la clase uno de los ejercicios de «revisor predecir» (la lista: «revisor
predecir»), una pregunta a la vez:

  laboratorio clase predecir 6.5.4-4xx    la abre: el proyector la muestra y los alumnos responden
  laboratorio clase predecir histograma   el proyector muestra cuántos dieron cada respuesta
  laboratorio clase predecir revelar      el laboratorio de la clase corre el ejercicio y el proyector
                                          muestra lo que pasó, cuántos acertaron y por qué
  laboratorio clase predecir cerrar       la cierra (las respuestas quedan en la matrícula)
  laboratorio clase predecir              cómo va: cuántos respondieron y qué respondió cada uno

El proyector está en URL/clase/prediccion/proyector (sin nombres; abierto con tu enlace de una
vez, «laboratorio clase entrar», tiene también estos botones y, plegadas, las respuestas de cada
alumno). Cada alumno responde con su credencial personal desde URL/clase/predecir (teléfono o
portátil) o con «revisor predecir --clase URL --credencial SU-CREDENCIAL»; cuenta la última
respuesta que mande hasta que reveles. Lo revelado es siempre una corrida del ejercicio, nunca una
copia.`,
		Example: `  laboratorio clase predecir 6.5.4-4xx
  laboratorio clase predecir histograma
  laboratorio clase predecir revelar
  laboratorio clase predecir cerrar`,
		Args: cli.HastaArgumentos(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			espera, metodo, ruta, hecho := 30*time.Second, http.MethodGet, pizarra.RutaPrediccionEstado, ""
			var cuerpo []byte
			switch {
			case len(args) == 0:
			case args[0] == "histograma":
				metodo, ruta = http.MethodPost, pizarra.RutaPrediccionHistograma
			case args[0] == "revelar":
				espera, metodo, ruta = esperaRevelar, http.MethodPost, pizarra.RutaPrediccionRevelar
				fmt.Fprintln(f.out, "El laboratorio de la clase corre el ejercicio…")
			case args[0] == "cerrar":
				metodo, ruta, hecho = http.MethodDelete, pizarra.RutaPrediccion, "pregunta cerrada (las respuestas quedan en la matrícula de la clase)"
			default:
				metodo, ruta = http.MethodPost, pizarra.RutaPrediccion
				cuerpo, _ = json.Marshal(map[string]string{"ejercicio": args[0]})
			}
			resp, err := pedirEn(espera, metodo, ruta, cuerpo)
			if err != nil {
				return err
			}
			defer resp.Body.Close()
			if hecho != "" {
				fmt.Fprintln(f.out, hecho)
				return nil
			}
			var v prediccionDeClase
			if err := json.NewDecoder(io.LimitReader(resp.Body, 4<<20)).Decode(&v); err != nil {
				return fmt.Errorf("la clase respondió algo que no entiendo: %v", err)
			}
			escribirPrediccion(f.out, v, strings.TrimRight(*url_, "/"))
			return nil
		},
	}
}

var fasesDePrediccion = map[string]string{
	"ninguna":   "no hay ninguna pregunta abierta",
	"abierta":   "abierta: los alumnos responden",
	"corriendo": "respuestas cerradas: el laboratorio corre el ejercicio",
	"revelada":  "revelada",
}

// escribirPrediccion is the instructor's summary: the question, how many answered, the histogram
// and the reveal when there are, and what each student answered.
func escribirPrediccion(w io.Writer, v prediccionDeClase, base string) {
	if v.Ejercicio == nil {
		fmt.Fprintf(w, "%s; «laboratorio clase predecir EJERCICIO» abre una («revisor predecir» las lista)\n", fasesDePrediccion["ninguna"])
		return
	}
	fase := fasesDePrediccion[v.Fase]
	if fase == "" {
		fase = v.Fase
	}
	fmt.Fprintf(w, "%s — %s (%s): %s\n", v.Ejercicio.ID, v.Ejercicio.Titulo, v.Cita, fase)
	fmt.Fprintf(w, "%d de %d respondieron\n", v.Respondieron, v.Alumnos)
	if v.Falla != "" {
		fmt.Fprintf(w, "la última corrida no pudo revelar: %s\n", v.Falla)
	}
	hist := map[string]string{}
	for _, h := range v.Histograma {
		var l []string
		for _, b := range h.Barras {
			l = append(l, fmt.Sprintf("%s ×%d", b.Valor, b.Cuantos))
		}
		hist[h.Pregunta] = strings.Join(l, " · ")
	}
	for i, q := range v.Ejercicio.Preguntas {
		fmt.Fprintf(w, "%2d. %s\n", i+1, q.Texto)
		if h, ok := hist[q.ID]; ok {
			fmt.Fprintf(w, "    respuestas: %s\n", h)
		}
		if r, ok := v.Reales[q.ID]; ok {
			porcentaje := 0
			if v.Respondieron > 0 {
				porcentaje = 100 * r.Acertaron / v.Respondieron
			}
			fmt.Fprintf(w, "    pasó: %s · acertaron %d de %d (%d %%)\n    por qué: %s\n", r.Valor, r.Acertaron, v.Respondieron, porcentaje, r.Porque)
		}
	}
	if len(v.PorAlumno) > 0 {
		fmt.Fprintln(w, "por alumno:")
		for _, a := range v.PorAlumno {
			var l []string
			for _, q := range v.Ejercicio.Preguntas {
				l = append(l, a.Respuestas[q.ID])
			}
			aciertos := ""
			if a.Aciertos != nil {
				aciertos = fmt.Sprintf("  (%d de %d)", *a.Aciertos, len(v.Ejercicio.Preguntas))
			}
			fmt.Fprintf(w, "  %s: %s%s\n", a.Alumno, strings.Join(l, " · "), aciertos)
		}
	}
	if v.Fase == "abierta" {
		// The students answer where their machines reach the lab, which is not where the instructor's
		// own command reached it (127.0.0.1).
		alumnos := base
		if len(v.Direcciones) > 0 {
			alumnos = v.Direcciones[0]
		}
		fmt.Fprintf(w, "el proyector: %s%s; los alumnos responden en %s%s o con «revisor predecir --clase %s --credencial SU-CREDENCIAL»\n",
			base, pizarra.RutaProyector, alumnos, pizarra.RutaPredecir, alumnos)
	}
}
