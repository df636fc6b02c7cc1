package predecir

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/spf13/cobra"

	"cursohttp/pkg/cli"
	"cursohttp/pkg/curso"
	"cursohttp/pkg/ordenes/entorno"
)

// Opciones are one «revisor predecir» run's inputs.
type Opciones struct {
	Ejercicios []Ejercicio
	// Dadas are answers given beforehand (--respuesta, --respuestas), by exercise and question,
	// already checked; a question without one is asked on In.
	Dadas     map[string]map[string]string
	Historial string // "" keeps nothing
	In        io.Reader
	Out, Err  io.Writer
	Corrida   Corrida
	Ahora     func() time.Time // nil: time.Now
}

// Calificar puts each answer beside the run's and says which are right.
func Calificar(e Ejercicio, dadas map[string]string, reales map[string]Real) []Calificada {
	var r []Calificada
	for _, p := range e.Preguntas {
		real := reales[p.ID]
		r = append(r, Calificada{Pregunta: p.ID, Dada: dadas[p.ID], Real: real.Valor,
			Acierto: p.Acierta(dadas[p.ID], real.Valor), Porque: real.Porque})
	}
	return r
}

// Ejecutar runs an exercise and checks that the run answered every question in its type: a run
// that cannot is an error, never a made-up answer.
func Ejecutar(ctx context.Context, e Ejercicio, c Corrida) (map[string]Real, error) {
	if e.Correr == nil {
		return nil, fmt.Errorf("el ejercicio %s no tiene corrida todavía: %s", e.ID, e.SinCorrer)
	}
	reales, err := e.Correr(ctx, c)
	if err != nil {
		return nil, err
	}
	for _, p := range e.Preguntas {
		r, ok := reales[p.ID]
		if !ok {
			return nil, fmt.Errorf("la corrida de %s no respondió la pregunta %s", e.ID, p.ID)
		}
		if v, err := p.Leer(r.Valor); err != nil || v != r.Valor {
			return nil, fmt.Errorf("la corrida de %s dio para %s «%s», que no es una respuesta de su tipo", e.ID, p.ID, r.Valor)
		}
	}
	return reales, nil
}

// Predecir asks, runs and compares each exercise of o, and keeps the answers in the history. Exit
// code 0 when every exercise ran (whatever was guessed), 1 when one could not, 130 after Ctrl+C.
func Predecir(ctx context.Context, o Opciones) int {
	entrada := bufio.NewReader(o.In)
	salida := 0
	for i, e := range o.Ejercicios {
		if i > 0 {
			fmt.Fprintln(o.Out)
		}
		fmt.Fprintf(o.Out, "%s — %s (%s)\n%s\n", e.ID, e.Titulo, e.Cita(), envolver(e.Enunciado, ""))
		if e.Correr == nil {
			fmt.Fprintf(o.Out, "Este ejercicio no tiene corrida todavía (%s), así que no puedo comprobar ninguna predicción: no te muestro respuestas que no salgan de una corrida.\n", e.SinCorrer)
			salida = 1
			continue
		}
		dadas, err := preguntar(ctx, e, o.Dadas[e.ID], entrada, o.Out)
		if ctx.Err() != nil {
			return curso.Interrumpido
		}
		if err != nil {
			fmt.Fprintf(o.Err, "revisor predecir: %v\n", err)
			return 1
		}
		fmt.Fprintln(o.Out, "Lo corro en un laboratorio y un revisor nuevos, en puertos libres de "+curso.Host+":")
		c := o.Corrida
		if c.Out == nil {
			c.Out = o.Out
		}
		reales, err := Ejecutar(ctx, e, c)
		if err != nil {
			if ctx.Err() != nil {
				return curso.Interrumpido
			}
			fmt.Fprintf(o.Err, "revisor predecir: %s: %s\n", e.ID, entorno.Describir(err))
			salida = 1
			continue
		}
		cal := Calificar(e, dadas, reales)
		aciertos := mostrar(o.Out, e, cal)
		if o.Historial != "" {
			ahora := time.Now
			if o.Ahora != nil {
				ahora = o.Ahora
			}
			ent := Entrada{Cuando: ahora().UTC(), Ejercicio: e.ID, Respuestas: cal, Aciertos: aciertos, Total: len(cal)}
			if err := Guardar(o.Historial, ent); err != nil {
				fmt.Fprintf(o.Err, "revisor predecir: no pude guardar el historial en %s: %v\n", o.Historial, err)
				salida = 1
			}
		}
	}
	return salida
}

// preguntar asks every question without an answer yet, again until the answer is of its type.
func preguntar(ctx context.Context, e Ejercicio, dadas map[string]string, in *bufio.Reader, out io.Writer) (map[string]string, error) {
	r := map[string]string{}
	for i, p := range e.Preguntas {
		if v, ok := dadas[p.ID]; ok {
			r[p.ID] = v
			fmt.Fprintf(out, "%2d. %s\n    → %s\n", i+1, p.Texto, v)
			continue
		}
		fmt.Fprintf(out, "%2d. %s\n    (%s) → ", i+1, p.Texto, p.Pista())
		for {
			linea, err := leerLinea(ctx, in)
			if linea == "" && err != nil {
				fmt.Fprintln(out) // the question's line ends before the error's
				if errors.Is(err, io.EOF) {
					return nil, fmt.Errorf("la entrada se acabó antes de responder la pregunta %d de %s", i+1, e.ID)
				}
				return nil, err
			}
			v, errLeer := p.Leer(linea)
			if errLeer == nil {
				r[p.ID] = v
				break
			}
			fmt.Fprintf(out, "    %v; prueba otra vez → ", errLeer)
			if err != nil {
				fmt.Fprintln(out)
				return nil, fmt.Errorf("la entrada se acabó antes de responder la pregunta %d de %s", i+1, e.ID)
			}
		}
	}
	return r, nil
}

// leerLinea reads one line, or gives up when ctx ends (Ctrl+C while a question waits): the read
// itself goes on in its goroutine until the terminal gives a line or the process exits.
func leerLinea(ctx context.Context, in *bufio.Reader) (string, error) {
	type leida struct {
		linea string
		err   error
	}
	c := make(chan leida, 1)
	go func() {
		l, err := in.ReadString('\n')
		c <- leida{l, err}
	}()
	select {
	case l := <-c:
		return l.linea, l.err
	case <-ctx.Done():
		return "", context.Cause(ctx)
	}
}

// mostrar writes each prediction beside what happened, and for each miss the line that explains
// it and where the lesson teaches it; it returns the number of hits.
func mostrar(w io.Writer, e Ejercicio, cal []Calificada) int {
	fmt.Fprintln(w, "Tu predicción y lo que pasó:")
	aciertos := 0
	for i, c := range cal {
		marca := "✘"
		if c.Acierto {
			marca = "✔"
			aciertos++
		}
		fmt.Fprintf(w, " %s %2d. %s\n      dijiste: %s · pasó: %s\n", marca, i+1, e.Preguntas[i].Texto, c.Dada, c.Real)
		if !c.Acierto {
			fmt.Fprintf(w, "%s\n      dónde: %s\n", envolver("por qué: "+c.Porque, "      "), e.Cita())
		}
	}
	fmt.Fprintf(w, "Acertaste %d de %d.\n", aciertos, len(cal))
	return aciertos
}

// envolver wraps s at 100 columns, each line after sangria. A line breaks only at a single space
// outside double quotes: a quoted value stays whole and keeps its spaces, so an explanation quotes
// exactly the value the run used (asctime's "Mon Dec  7 …", two spaces before a one-digit day).
func envolver(s, sangria string) string {
	var b strings.Builder
	linea := sangria
	for _, p := range palabras(s) {
		if len([]rune(linea))+1+len([]rune(p)) > 100 && strings.TrimSpace(linea) != "" {
			b.WriteString(linea + "\n")
			linea = sangria + "  "
		}
		if strings.TrimSpace(linea) != "" {
			linea += " "
		}
		linea += p
	}
	b.WriteString(linea)
	return b.String()
}

// palabras splits s where a line may break: at whitespace, except inside double quotes and in a
// run of two or more spaces, which belong to what they separate.
func palabras(s string) []string {
	var (
		r      []string
		actual strings.Builder
		citado bool
	)
	runas := []rune(strings.TrimSpace(s))
	for i := 0; i < len(runas); i++ {
		c := runas[i]
		switch {
		case c == '"' && (citado || strings.ContainsRune(string(runas[i+1:]), '"')):
			citado = !citado // an opening quote counts only with its closing one
		case unicode.IsSpace(c) && !citado:
			j := i
			for j < len(runas) && runas[j] == ' ' {
				j++
			}
			if c == ' ' && j-i >= 2 && j < len(runas) {
				actual.WriteString(string(runas[i:j]))
				i = j - 1
				continue
			}
			if actual.Len() > 0 {
				r = append(r, actual.String())
				actual.Reset()
			}
			continue
		}
		actual.WriteRune(c)
	}
	if actual.Len() > 0 {
		r = append(r, actual.String())
	}
	return r
}

// Listar writes the catalogue: one line per exercise, and which cannot be run yet.
func Listar(w io.Writer) {
	for _, e := range Ejercicios() {
		falta := ""
		if e.Correr == nil {
			falta = " — sin ejecución todavía"
		}
		fmt.Fprintf(w, "%-25s %-44s %2d preguntas · %s%s\n", e.ID, e.Titulo, len(e.Preguntas), e.Cita(), falta)
	}
}

// leerRespuestas reads «[EJERCICIO:]PREGUNTA=VALOR» answers, checks each against its question and
// returns them by exercise. Without the exercise's ID it is the one chosen exercise that has that
// question (6.ejercicio-2 chooses two, whose questions differ); one the question leaves in doubt
// is asked for.
func leerRespuestas(lineas []string, es []Ejercicio) (map[string]map[string]string, error) {
	r := map[string]map[string]string{}
	for _, l := range lineas {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		clave, valor, ok := strings.Cut(l, "=")
		if !ok {
			return nil, fmt.Errorf("«%s» no es una respuesta: se escribe PREGUNTA=VALOR o EJERCICIO:PREGUNTA=VALOR", l)
		}
		ejercicio, pregunta, conEjercicio := strings.Cut(strings.TrimSpace(clave), ":")
		if !conEjercicio {
			pregunta = strings.TrimSpace(clave)
			ejercicio = es[0].ID
			if len(es) > 1 {
				var tienen []string
				for _, e := range es {
					if slices.ContainsFunc(e.Preguntas, func(p Pregunta) bool { return p.ID == pregunta }) {
						tienen = append(tienen, e.ID)
					}
				}
				switch len(tienen) {
				case 0:
					return nil, fmt.Errorf("«%s»: ninguno de los %d ejercicios elegidos tiene la pregunta «%s»", l, len(es), pregunta)
				case 1:
					ejercicio = tienen[0]
				default:
					return nil, fmt.Errorf("«%s» no dice de qué ejercicio es (la pregunta «%s» la tienen %s): escribe EJERCICIO:PREGUNTA=VALOR", l, pregunta, strings.Join(tienen, ", "))
				}
			}
		}
		var p *Pregunta
		for _, e := range es {
			if e.ID == ejercicio {
				for i := range e.Preguntas {
					if e.Preguntas[i].ID == pregunta {
						p = &e.Preguntas[i]
					}
				}
			}
		}
		if p == nil {
			return nil, fmt.Errorf("«%s»: el ejercicio %s no tiene la pregunta «%s» entre los elegidos", l, ejercicio, pregunta)
		}
		v, err := p.Leer(valor)
		if err != nil {
			return nil, fmt.Errorf("%s:%s: %v", ejercicio, pregunta, err)
		}
		if r[ejercicio] == nil {
			r[ejercicio] = map[string]string{}
		}
		r[ejercicio][pregunta] = v
	}
	return r, nil
}

// completar offers, for Tab, the sections and exercises that start with what was typed, each with
// its title and where the lesson asks it.
func completar(_ *cobra.Command, args []string, empieza string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var r []cobra.Completion
	secciones := map[string]bool{}
	for _, e := range Ejercicios() {
		if e.Leccion != 0 && !strings.HasPrefix(e.Seccion, "ejercicio ") && !secciones[e.Seccion] && strings.HasPrefix(e.Seccion, empieza) {
			secciones[e.Seccion] = true
			r = append(r, cobra.CompletionWithDesc(e.Seccion, "todos los de "+e.Cita()))
		}
		if strings.HasPrefix(e.ID, empieza) {
			r = append(r, cobra.CompletionWithDesc(e.ID, e.Titulo+" ("+e.Cita()+")"))
		}
	}
	return r, cobra.ShellCompDirectiveNoFileComp
}

// NuevoCmd is «revisor predecir»; runF nil runs Predecir.
func NuevoCmd(f *entorno.Fabrica, runF func(context.Context, Opciones) int) *cobra.Command {
	if runF == nil {
		runF = Predecir
	}
	var respuestas []string
	var archivo, historial, clase, credencial string
	var verHistorial, esperar bool
	c := &cobra.Command{
		Use:   "predecir [ejercicio o sección] [opciones]",
		Short: "Predice y luego comprueba: los ejercicios de predicción de las lecciones 4, 6 y 7",
		Long: `Sin argumentos, lista los ejercicios de predicción de las lecciones 4, 6 y 7 (y la tabla de la
llave de la nota sobre Idempotency-Key). Con un ejercicio o una sección (6.5.4, 6.ejercicio-2),
hace cada pregunta y espera tu respuesta: un código, una lista de códigos, un número, un código
de salida, una de las opciones o sí/no. Luego corre las mismas peticiones y programas del
ejercicio en un laboratorio y un revisor nuevos, en puertos libres de 127.0.0.1 (no toca lo que
tengas en 18080-18082), y pone cada predicción al lado de lo que pasó; para cada fallo, la línea
que lo explica. La respuesta es siempre la corrida, nunca una copia.

Tus respuestas quedan en el historial (--historial); --ver-historial lo muestra. Con --respuesta o
--respuestas no pregunta nada: sirve para guiones y pruebas.

En clase (el modo clase del profesor, «laboratorio clase»): con --clase URL y tu credencial
personal (--credencial, o CURSOHTTP_CREDENCIAL), espera a que el profesor abra una pregunta, te
la hace igual, manda tu respuesta (cuenta la última que mandes hasta que el profesor la revele) y
espera a que la revele: el laboratorio de la clase corre el ejercicio y tu predicción sale al lado
de lo que pasó. Si la pregunta ya está cerrada (el profesor la reveló), lo dice y sale con 1.
También se responde desde el teléfono, en URL/clase/predecir.`,
		Example: `  revisor predecir
  revisor predecir 6.5.4
  revisor predecir 4.ejercicio-1
  revisor predecir 7.ejercicio-2 --respuesta 413-accion=corregir --respuesta 413-reintenta=no …
  revisor predecir 6.ejercicio-2 --respuestas mis-respuestas.txt   (una PREGUNTA=VALOR por línea)
  revisor predecir --ver-historial
  revisor predecir --clase http://IP-DEL-PROFESOR:18084 --credencial TU-CREDENCIAL`,
		Args:              entorno.HastaUnArgumento,
		ValidArgsFunction: completar,
		RunE: func(c *cobra.Command, args []string) error {
			if clase != "" {
				if verHistorial || len(args) > 0 {
					return cli.UsoMal("%s: con --clase la pregunta la abre el profesor: no lleva ejercicio ni --ver-historial", c.CommandPath())
				}
				if credencial == "" {
					credencial, _ = f.Variable(VariableCredencial)
				}
				if credencial == "" {
					return cli.UsoMal("%s: --clase pide tu credencial de la clase: --credencial C (o %s), la que te dio el profesor", c.CommandPath(), VariableCredencial)
				}
				lineas, err := lineasDe(c, archivo, respuestas)
				if err != nil {
					return err
				}
				return cli.Salir(PredecirEnClase(c.Context(), OpcionesClase{URL: clase, Credencial: credencial, Respuestas: lineas,
					Esperar: esperar, Historial: historial, In: c.InOrStdin(), Out: f.Out, Err: f.Err}))
			}
			if credencial != "" || c.Flags().Changed("esperar") {
				return cli.UsoMal("%s: --credencial y --esperar van con --clase URL", c.CommandPath())
			}
			if verHistorial {
				es, err := Leer(historial)
				if err != nil && !os.IsNotExist(err) {
					return fmt.Errorf("%s: no puedo leer el historial %s: %w", c.CommandPath(), historial, err)
				}
				Mostrar(f.Out, es)
				return nil
			}
			if len(args) == 0 {
				if len(respuestas) > 0 || archivo != "" {
					return cli.UsoMal("%s: las respuestas necesitan un ejercicio; «%s» lista los ejercicios", c.CommandPath(), c.CommandPath())
				}
				Listar(f.Out)
				return nil
			}
			es := Buscar(args[0])
			if len(es) == 0 {
				return cli.UsoMal("%s: no hay ningún ejercicio ni sección «%s»; «%s» los lista", c.CommandPath(), args[0], c.CommandPath())
			}
			lineas, err := lineasDe(c, archivo, respuestas)
			if err != nil {
				return err
			}
			dadas, err := leerRespuestas(lineas, es)
			if err != nil {
				return cli.UsoMal("%s: %v", c.CommandPath(), err)
			}
			return cli.Salir(runF(c.Context(), Opciones{Ejercicios: es, Dadas: dadas, Historial: historial,
				In: c.InOrStdin(), Out: f.Out, Err: f.Err}))
		},
	}
	c.Flags().StringArrayVar(&respuestas, "respuesta", nil, "una respuesta dada de antemano, PREGUNTA=VALOR (o EJERCICIO:PREGUNTA=VALOR); se repite")
	c.Flags().StringVar(&archivo, "respuestas", "", "un archivo con una respuesta PREGUNTA=VALOR por línea")
	c.Flags().StringVar(&historial, "historial", HistorialPorOmision(), "el archivo donde quedan tus respuestas (\"\": no guarda nada)")
	c.Flags().Lookup("respuesta").DefValue = ""
	c.Flags().Lookup("historial").DefValue = "predicciones.jsonl en tu directorio de configuración, cursohttp/"
	c.Flags().BoolVar(&verHistorial, "ver-historial", false, "muestra el historial en vez de preguntar")
	c.Flags().Var(cli.URL{Destino: &clase, Vacia: true}, "clase", "responde en clase: la pregunta que abra el profesor en el laboratorio de la clase en esta URL, con --credencial")
	c.Flags().StringVar(&credencial, "credencial", "", "tu credencial de la clase, la que te dio el profesor (si no se dice: "+VariableCredencial+")")
	c.Flags().BoolVar(&esperar, "esperar", true, "con --clase, tras responder espera a que el profesor revele la respuesta (--esperar=false: sale al mandarla)")
	return c
}

// lineasDe are the answers given beforehand: the file's lines (--respuestas), then --respuesta's.
func lineasDe(c *cobra.Command, archivo string, respuestas []string) ([]string, error) {
	if archivo == "" {
		return respuestas, nil
	}
	datos, err := os.ReadFile(archivo)
	if err != nil {
		return nil, cli.UsoMal("%s: --respuestas: no puedo leer %s: %v", c.CommandPath(), archivo, err)
	}
	return append(strings.Split(string(datos), "\n"), respuestas...), nil
}
