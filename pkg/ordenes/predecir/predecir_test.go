package predecir

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"cursohttp/internal/prueba"
)

func TestLeerRespuestaTipada(t *testing.T) {
	t.Parallel()
	casos := []struct {
		p     Pregunta
		texto string
		want  string // canonical answer; "" when refused
		error string // what the refusal says
	}{
		{Pregunta{Tipo: Codigo}, "418", "418", ""},
		{Pregunta{Tipo: Codigo}, " 404 \n", "404", ""},
		{Pregunta{Tipo: Codigo}, "cuatro", "", "«cuatro» no es un código de estado HTTP"},
		{Pregunta{Tipo: Codigo}, "99", "", "no es un código de estado HTTP (un número de 100 a 599)"},
		{Pregunta{Tipo: Codigo}, "", "", "falta la respuesta"},
		{Pregunta{Tipo: Codigos}, "404, 404 202  429", "404 404 202 429", ""},
		{Pregunta{Tipo: Codigos}, "404 cuatro", "", "«cuatro» no es un código"},
		{Pregunta{Tipo: Numero}, "4", "4", ""},
		{Pregunta{Tipo: Numero}, "cuatro", "", "«cuatro» no es un número entero (escríbelo con cifras: 4, no cuatro)"},
		{Pregunta{Tipo: Numero}, "-1", "", "no es un número entero"},
		{Pregunta{Tipo: Numero, Nada: "null"}, "NULL", "null", ""},
		{Pregunta{Tipo: Numeros}, "500 1000 2000", "500 1000 2000", ""},
		{Pregunta{Tipo: Numeros}, "500 mil", "", "«mil» no es un número entero"},
		{Pregunta{Tipo: Salida}, "1", "1", ""},
		{Pregunta{Tipo: Salida}, "256", "", "no es un código de salida (un número de 0 a 255)"},
		{Pregunta{Tipo: Opcion, Opciones: acciones}, "Esperar", "esperar", ""},
		{Pregunta{Tipo: Opcion, Opciones: acciones}, "reintentar", "", "«reintentar» no es una de las opciones: seguir, corregir"},
		{Pregunta{Tipo: SiNo}, "Si", "sí", ""},
		{Pregunta{Tipo: SiNo}, "sí", "sí", ""},
		{Pregunta{Tipo: SiNo}, "n", "no", ""},
		{Pregunta{Tipo: SiNo}, "quizá", "", "«quizá» no es sí ni no"},
	}
	for _, c := range casos {
		got, err := c.p.Leer(c.texto)
		if c.want != "" {
			if err != nil || got != c.want {
				t.Errorf("%s %q: %q, %v; se esperaba %q", c.p.Tipo, c.texto, got, err, c.want)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.error) {
			t.Errorf("%s %q: %q, %v; se esperaba un error con %q", c.p.Tipo, c.texto, got, err, c.error)
		}
	}
	if !(Pregunta{Tipo: Numero, Margen: 1}).Acierta("60", "61") || (Pregunta{Tipo: Numero}).Acierta("60", "61") {
		t.Error("el margen de un número no se aplica como se espera")
	}
}

// The catalogue is well formed: unique IDs, questions with a type, options where a choice is asked.
func TestCatalogo(t *testing.T) {
	t.Parallel()
	vistos := map[string]bool{}
	for _, e := range Ejercicios() {
		if vistos[e.ID] {
			t.Errorf("el ejercicio %s está dos veces", e.ID)
		}
		vistos[e.ID] = true
		if e.Titulo == "" || e.Enunciado == "" || len(e.Preguntas) == 0 || e.Seccion == "" {
			t.Errorf("%s: le falta título, enunciado, sección o preguntas", e.ID)
		}
		if e.Correr == nil && e.SinCorrer == "" {
			t.Errorf("%s: no tiene corrida ni dice por qué", e.ID)
		}
		preguntas := map[string]bool{}
		for _, p := range e.Preguntas {
			if preguntas[p.ID] || p.ID == "" || p.Texto == "" || p.Pista() == "" {
				t.Errorf("%s: pregunta %q repetida, sin texto o sin tipo", e.ID, p.ID)
			}
			preguntas[p.ID] = true
			if (p.Tipo == Opcion) != (len(p.Opciones) > 0) {
				t.Errorf("%s/%s: opciones %q para el tipo %s", e.ID, p.ID, p.Opciones, p.Tipo)
			}
		}
	}
	if got := len(Buscar("6.5.4")); got != 6 {
		t.Errorf("la sección 6.5.4 tiene %d ejercicios, se esperaban 6", got)
	}
}

// otra is a valid answer to p that is not v: what a student who guessed wrong types.
func otra(t *testing.T, p Pregunta, v string) string {
	t.Helper()
	var r string
	switch p.Tipo {
	case Codigo:
		r = "200"
		if v == "200" {
			r = "201"
		}
	case Codigos, Numeros:
		r = v + " 200"
	case Numero:
		if n, err := strconv.Atoi(v); err == nil {
			r = strconv.Itoa(n + p.Margen + 1)
		} else {
			r = "0"
		}
	case Salida:
		n, _ := strconv.Atoi(v)
		r = strconv.Itoa((n + 1) % 256)
	case Opcion:
		r = p.Opciones[0]
		if v == r {
			r = p.Opciones[1]
		}
	case SiNo:
		r = "sí"
		if v == "sí" {
			r = "no"
		}
	}
	canon, err := p.Leer(r)
	if err != nil || p.Acierta(canon, v) {
		t.Fatalf("%s: no sé dar una respuesta equivocada a %q (%q, %v)", p.ID, v, r, err)
	}
	return canon
}

// esperanElReloj are the exercises whose run waits what the lesson waits, on the revisor's real
// clock (a key that expires, the retries' backoff): go test -short (make check) leaves them to
// make test. Measured on two cores, each run takes 5–14 s; the others, 2.3 s at most.
var esperanElReloj = map[string]string{
	"6.ejercicio-2": "los cuatro intentos de alta-segura, con sus esperas entre uno y otro",
	"6.ejercicio-3": "dos sleep 6 a que venzan las llaves",
	"6.ejercicio-4": "ocho segundos antes de pedir los resultados",
	"nota.1":        "un sleep 6 a que venza la llave",
}

// Every exercise is answered right and wrong by two scripted students. What is right comes from a
// first run; both are then graded against a second run, which must find the first one right on
// every question and the second one wrong on every question.
func TestCadaEjercicioBienYMal(t *testing.T) {
	t.Parallel()
	for id := range esperanElReloj {
		if !slices.ContainsFunc(Ejercicios(), func(e Ejercicio) bool { return e.ID == id }) {
			t.Errorf("esperanElReloj nombra %q, que no es un ejercicio", id)
		}
	}
	for _, e := range Ejercicios() {
		t.Run(e.ID, func(t *testing.T) {
			t.Parallel()
			if e.Correr == nil {
				if _, err := Ejecutar(context.Background(), e, Corrida{}); err == nil || !strings.Contains(err.Error(), "no tiene corrida todavía") {
					t.Errorf("un ejercicio sin corrida dio %v", err)
				}
				t.Skipf("sin ejecución todavía: %s", e.SinCorrer)
			}
			if espera, ok := esperanElReloj[e.ID]; ok && testing.Short() {
				t.Skipf("la lección espera de reloj (%s)", espera)
			}
			ctx, cancelar := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancelar()
			// The two runs are independent labs, so they run at once: the students' answers come
			// from the first alone, and only the second grades them.
			type corrida struct {
				reales map[string]Real
				err    error
			}
			otraCorrida := make(chan corrida, 1)
			go func() {
				r, err := Ejecutar(ctx, e, Corrida{})
				otraCorrida <- corrida{r, err}
			}()
			primera, err := Ejecutar(ctx, e, Corrida{})
			c := <-otraCorrida
			if err != nil || c.err != nil {
				t.Fatalf("primera corrida: %v; segunda: %v", err, c.err)
			}
			bien, mal := map[string]string{}, map[string]string{}
			for _, p := range e.Preguntas {
				bien[p.ID] = primera[p.ID].Valor
				mal[p.ID] = otra(t, p, primera[p.ID].Valor)
			}
			segunda := c.reales
			for _, c := range Calificar(e, bien, segunda) {
				if !c.Acierto {
					t.Errorf("%s: %q salió de la primera corrida y la segunda dio %q", c.Pregunta, c.Dada, c.Real)
				}
			}
			for _, c := range Calificar(e, mal, segunda) {
				if c.Acierto {
					t.Errorf("%s: %q se dio por buena (la corrida dio %q)", c.Pregunta, c.Dada, c.Real)
				}
				if strings.TrimSpace(c.Porque) == "" {
					t.Errorf("%s: un fallo sin la línea que lo explica", c.Pregunta)
				}
			}
		})
	}
}

// semillas is where the lessons are, beside the repository (../shared/seeds from its root).
func semillas(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "..", "..", "shared", "seeds"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no están las lecciones en %s", dir)
	}
	return dir
}

// A prediction prompt of a lesson, by what the line says, and the exercises that ask it; or, when
// ids is empty, why the line is no prompt (the verb used of something the course foresaw).
var lineasQuePredicen = []struct {
	archivo, fragmento string
	ids                []string
	noPregunta         string
}{
	// Lesson 4 (001_*.txt, English).
	{"001_", "Write your prediction in the log before running anything", []string{"4.ejercicio-1", "4.ejercicio-2", "4.ejercicio-3", "4.ejercicio-3-por-servicio", "4.ejercicio-4"}, ""},
	{"001_", "Predict the code of each of these six requests", []string{"4.ejercicio-1"}, ""},
	{"001_", "decide which are valid Retry-After values", []string{"4.ejercicio-2"}, ""},
	{"001_", "predict which codes escritura-b receives", []string{"4.ejercicio-3"}, ""},
	{"001_", "repeat the same requests, and predict again", []string{"4.ejercicio-3-por-servicio"}, ""},
	{"001_", "Predict what these requests answer, and how long the second takes", []string{"4.ejercicio-4"}, ""},
	// Lesson 6 (000_*.txt, Bulgarian).
	{"000_", "Да предвидиш какво прави alta-segura.ts с 4xx", []string{"6.5.4-4xx", "6.5.4-retry-after-corto", "6.5.4-retry-after-largo", "6.5.4-mudo", "6.5.4-409-en-curso", "6.5.4-409"}, ""},
	{"000_", "Това е случаят, който Урок 1 предвиди", nil, "«which Lesson 1 foresaw»: a fact, not a question"},
	{"000_", "предвиденият му статус беше Standards", nil, "«its intended status was Standards Track»: the draft's history"},
	{"000_", "Урок 3 вече го беше предвидил", nil, "«Lesson 3 had foreseen it»: a fact, not a question"},
	{"000_", "Запиши прогнозата си в дневника", []string{"6.ejercicio-1", "6.ejercicio-2", "6.ejercicio-2-fig06_04", "6.ejercicio-3", "6.ejercicio-4"}, ""},
	{"000_", "предвиди дали е идемпотентна и какво отговаря втория път", []string{"6.ejercicio-1"}, ""},
	{"000_", "ако четирите опита на alta-segura.ts получат 502", []string{"6.ejercicio-2", "6.ejercicio-2-fig06_04"}, ""},
	{"000_", "Idempotency-Key: vence-1 два пъти подред", []string{"6.ejercicio-3"}, ""},
	{"000_", "предвиди колко пъти се появява всеки маршрут", []string{"6.ejercicio-4"}, ""},
	// Lesson 7 (003_*.txt, Bulgarian).
	{"003_", "Урок 6 предвиди, че един 409", nil, "«Lesson 6 foresaw that a 409…»: a fact, not a question"},
	{"003_", "RFC 9457 са предвидили за машините", nil, "«the fields RFC 9110 and RFC 9457 meant for machines»"},
	{"003_", "кратък и предвиден да се обработва от програми", nil, "«code, short and meant to be processed by programs»"},
	{"003_", "по непредвидени начини", nil, "«in unforeseen ways»: prompt injection's definition"},
	{"003_", "най-често се греши при предположението", []string{"7.ejercicio-1"}, ""}, // exercise 1's solution: 500 is the usual wrong guess
	{"003_", "Запиши предположението си в дневника", []string{"7.ejercicio-1", "7.ejercicio-2", "7.ejercicio-3", "7.ejercicio-4"}, ""},
	{"003_", "предскажи действието и дали повтаря за тези десет", []string{"7.ejercicio-1"}, ""},
	{"003_", "предскажи действието, дали повтаря и причината за 413", []string{"7.ejercicio-2"}, ""},
	{"003_", "Предскажи, преди да изпълниш, какво се променя", []string{"7.ejercicio-3"}, ""},
	{"003_", "Предскажи какво показва texto_no_confiable", []string{"7.ejercicio-4"}, ""},
}

// The words a lesson asks a prediction with, in English and in Bulgarian (предвиди, предскажи,
// прогноза, предположение), and the exercises' «before running anything».
var predice = regexp.MustCompile(`(?i)predict|предвид|предскаж|прогноз|предполож|без да изпълняваш нищо`)

// Every line of Lessons 4, 6 and 7 that asks for a prediction has its exercises in the catalogue.
func TestCadaPronosticoDeLasLeccionesTieneEjercicio(t *testing.T) {
	t.Parallel()
	dir := semillas(t)
	ids := map[string]bool{}
	for _, e := range Ejercicios() {
		ids[e.ID] = true
	}
	usado := make([]bool, len(lineasQuePredicen))
	for _, prefijo := range []string{"001_", "000_", "003_"} {
		archivos, _ := filepath.Glob(filepath.Join(dir, prefijo+"*.txt"))
		if len(archivos) != 1 {
			t.Fatalf("%s*.txt: %d archivos en %s", prefijo, len(archivos), dir)
		}
		f, err := os.Open(archivos[0])
		if err != nil {
			t.Fatal(err)
		}
		s := bufio.NewScanner(f)
		s.Buffer(make([]byte, 0, 1<<20), 1<<20)
		for n := 1; s.Scan(); n++ {
			linea := s.Text()
			if !predice.MatchString(linea) {
				continue
			}
			encontrada := false
			for i, l := range lineasQuePredicen {
				if l.archivo == prefijo && strings.Contains(linea, l.fragmento) {
					encontrada, usado[i] = true, true
				}
			}
			if !encontrada {
				t.Errorf("%s línea %d pide una predicción que ningún ejercicio hace: %.160s", filepath.Base(archivos[0]), n, linea)
			}
		}
		f.Close()
		if err := s.Err(); err != nil {
			t.Fatal(err)
		}
	}
	for i, l := range lineasQuePredicen {
		if !usado[i] {
			t.Errorf("la línea «%s» (%s*) ya no está en la lección o ya no predice", l.fragmento, l.archivo)
		}
		if len(l.ids) == 0 && l.noPregunta == "" {
			t.Errorf("«%s»: ni ejercicios ni la razón por la que no pregunta", l.fragmento)
		}
		for _, id := range l.ids {
			if !ids[id] {
				t.Errorf("«%s» pide el ejercicio %s, que no existe", l.fragmento, id)
			}
		}
	}
}

func TestHistorialAcotado(t *testing.T) {
	t.Parallel()
	ruta := filepath.Join(t.TempDir(), "sub", "predicciones.jsonl")
	e := Entrada{Cuando: time.Date(2026, 10, 21, 13, 0, 0, 0, time.UTC), Ejercicio: "6.ejercicio-2",
		Respuestas: []Calificada{{Pregunta: "salida", Dada: "0", Real: "1", Porque: strings.Repeat("x", 1000)}}, Total: 1}
	for range 400 {
		if err := Guardar(ruta, e); err != nil {
			t.Fatal(err)
		}
	}
	info, err := os.Stat(ruta)
	if err != nil {
		t.Fatal(err)
	}
	if info.Size() > TopeHistorial {
		t.Errorf("el historial ocupa %d bytes, más que su tope %d", info.Size(), TopeHistorial)
	}
	es, err := Leer(ruta)
	if err != nil || len(es) < 100 || es[len(es)-1].Ejercicio != "6.ejercicio-2" {
		t.Fatalf("%d entradas, %v", len(es), err)
	}
	var b strings.Builder
	Mostrar(&b, es[:1])
	if want := "2026-10-21"; !strings.Contains(b.String(), want) || !strings.Contains(b.String(), "✘ salida: dijiste 0; la corrida dio 1") {
		t.Errorf("Mostrar:\n%s", b.String())
	}
}

func TestLeerRespuestasDeAntemano(t *testing.T) {
	t.Parallel()
	uno := Buscar("6.5.4-409")
	r, err := leerRespuestas([]string{"# comentario", "", "intentos= 1", "salida=1", "final=no-lo-arregla"}, uno)
	if err != nil || r["6.5.4-409"]["intentos"] != "1" || len(r["6.5.4-409"]) != 3 {
		t.Errorf("%v, %v", r, err)
	}
	for lineas, want := range map[string]string{
		"intentos":           "«intentos» no es una respuesta: se escribe PREGUNTA=VALOR",
		"intentos=cuatro":    "6.5.4-409:intentos: «cuatro» no es un número entero",
		"nada=1":             "el ejercicio 6.5.4-409 no tiene la pregunta «nada»",
		"6.5.4-mudo:final=x": "el ejercicio 6.5.4-mudo no tiene la pregunta «final» entre los elegidos",
	} {
		if _, err := leerRespuestas([]string{lineas}, uno); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v; se esperaba %q", lineas, err, want)
		}
	}
	if _, err := leerRespuestas([]string{"intentos=1"}, Buscar("6.5.4")); err == nil || !strings.Contains(err.Error(), "no dice de qué ejercicio es (la pregunta «intentos» la tienen 6.5.4-4xx, 6.5.4-retry-after-largo") {
		t.Errorf("sin ejercicio entre varios que tienen la pregunta: %v", err)
	}
	if _, err := leerRespuestas([]string{"nada=1"}, Buscar("6.5.4")); err == nil || !strings.Contains(err.Error(), "ninguno de los 6 ejercicios elegidos tiene la pregunta «nada»") {
		t.Errorf("sin ejercicio, una pregunta que ninguno tiene: %v", err)
	}
	// docs/predicciones.md: «revisor predecir 6.ejercicio-2 --respuestas mis-respuestas.txt», one
	// PREGUNTA=VALOR a line; 6.ejercicio-2 chooses the exercise and its part, whose questions differ.
	dos := Buscar("6.ejercicio-2")
	r, err = leerRespuestas([]string{"esperas=3", "422-salida=1"}, dos)
	if len(dos) != 2 || err != nil || r["6.ejercicio-2"]["esperas"] != "3" || r["6.ejercicio-2-fig06_04"]["422-salida"] != "1" {
		t.Errorf("6.ejercicio-2 sin ejercicio: %v, %v", r, err)
	}
}

// The order end to end, as a student at a terminal: a wrong type is asked again, the run's answers
// are shown beside the student's, and the history keeps them.
func TestPredecirEnLaTerminal(t *testing.T) {
	t.Parallel()
	e := Buscar("7.ejercicio-2")[0]
	reales, err := Ejecutar(context.Background(), e, Corrida{})
	if err != nil {
		t.Fatal(err)
	}
	// The first answer is typed wrong twice, then right; the rest are the run's, but the last is wrong.
	var entrada strings.Builder
	entrada.WriteString("cuatro\n\n")
	for i, p := range e.Preguntas {
		v := reales[p.ID].Valor
		if i == len(e.Preguntas)-1 {
			v = otra(t, p, v)
		}
		entrada.WriteString(v + "\n")
	}
	historial := filepath.Join(t.TempDir(), "h.jsonl")
	var out, errOut prueba.Buffer
	codigo := Predecir(context.Background(), Opciones{Ejercicios: []Ejercicio{e}, Historial: historial,
		In: strings.NewReader(entrada.String()), Out: &out, Err: &errOut})
	if codigo != 0 || errOut.String() != "" {
		t.Fatalf("código %d, stderr %q:\n%s", codigo, errOut.String(), out.String())
	}
	n := len(e.Preguntas)
	for _, want := range []string{
		"«cuatro» no es una de las opciones: seguir, corregir, reautenticar, esperar, reconciliar, rendirse; prueba otra vez",
		"falta la respuesta (seguir, corregir",
		"Lo corro en un laboratorio y un revisor nuevos",
		"✘ " + strconv.Itoa(n) + ". ",
		"dónde: lección 7, ejercicio 2 y su solución",
		"Acertaste " + strconv.Itoa(n-1) + " de " + strconv.Itoa(n) + ".",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("falta %q en:\n%s", want, out.String())
		}
	}
	es, err := Leer(historial)
	if err != nil || len(es) != 1 || es[0].Aciertos != n-1 || es[0].Total != n {
		t.Errorf("historial: %+v, %v", es, err)
	}

	// Input that ends before every question is answered: one sentence, exit 1, nothing kept.
	out, errOut = prueba.Buffer{}, prueba.Buffer{}
	otro := filepath.Join(t.TempDir(), "h.jsonl")
	codigo = Predecir(context.Background(), Opciones{Ejercicios: []Ejercicio{e}, Historial: otro, In: strings.NewReader("corregir\n"), Out: &out, Err: &errOut})
	if want := "revisor predecir: la entrada se acabó antes de responder la pregunta 2 de 7.ejercicio-2\n"; codigo != 1 || errOut.String() != want {
		t.Errorf("código %d, stderr %q", codigo, errOut.String())
	}
	if _, err := os.Stat(otro); !os.IsNotExist(err) {
		t.Errorf("quedó un historial sin respuestas: %v", err)
	}
}

// docs/predicciones.md lists every exercise, and no exercise that is gone.
func TestLaPaginaListaCadaEjercicio(t *testing.T) {
	t.Parallel()
	texto, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "predicciones.md"))
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, e := range Ejercicios() {
		ids[e.ID] = true
		if !strings.Contains(string(texto), "| `"+e.ID+"` |") {
			t.Errorf("docs/predicciones.md no tiene la fila de %s", e.ID)
		}
	}
	for _, m := range regexp.MustCompile("(?m)^\\| `([^`]+)` \\|").FindAllStringSubmatch(string(texto), -1) {
		if _, esTipo := map[Tipo]bool{Codigo: true, Codigos: true, Numero: true, Numeros: true, Salida: true, Opcion: true, SiNo: true}[Tipo(m[1])]; !esTipo && !ids[m[1]] {
			t.Errorf("docs/predicciones.md tiene una fila de %s, que no es un ejercicio", m[1])
		}
	}
}

// An exercise without a run yet says so plainly and shows no answer, not even its questions'.
func TestSinCorridaNoInventaRespuestas(t *testing.T) {
	t.Parallel()
	e := Ejercicio{ID: "9.prueba", Leccion: 9, Seccion: "9.1", Titulo: "Sin corrida", Enunciado: "Predice algo.",
		Preguntas: []Pregunta{{ID: "codigo", Tipo: Codigo, Texto: "¿Qué código?"}}, SinCorrer: "necesita el modo de clase"}
	var out, errOut prueba.Buffer
	historial := filepath.Join(t.TempDir(), "h.jsonl")
	codigo := Predecir(context.Background(), Opciones{Ejercicios: []Ejercicio{e}, Historial: historial,
		In: strings.NewReader("404\n"), Out: &out, Err: &errOut})
	want := "9.prueba — Sin corrida (lección 9, §9.1)\nPredice algo.\n" +
		"Este ejercicio no tiene corrida todavía (necesita el modo de clase), así que no puedo comprobar ninguna predicción: no te muestro respuestas que no salgan de una corrida.\n"
	if codigo != 1 || out.String() != want || errOut.String() != "" {
		t.Errorf("código %d, stderr %q, salida:\n%s", codigo, errOut.String(), out.String())
	}
	if _, err := os.Stat(historial); !os.IsNotExist(err) {
		t.Errorf("quedó historial de un ejercicio sin corrida: %v", err)
	}
}
