package clase

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"cursohttp/internal/prueba"
	"cursohttp/pkg/ordenes/predecir"
	"cursohttp/pkg/pizarra"
)

// ejercicioDePrueba is the exercise asked in these tests: three questions of three types (a
// number, a choice, an exit code), and a run of a fraction of a second (alta-segura against a
// fresh gateway, a 4xx that is not retried).
const ejercicioDePrueba = "6.5.4-4xx"

const tokenDePrueba = "token-del-profesor"

// pedirClase sends one request to the class lab's site, with a Bearer credential when given.
func (e *enMarcha) pedir(t *testing.T, metodo, ruta, credencial string, cuerpo any) (int, string) {
	t.Helper()
	var b io.Reader
	if cuerpo != nil {
		if s, ok := cuerpo.(string); ok {
			b = strings.NewReader(s)
		} else {
			js, _ := json.Marshal(cuerpo)
			b = bytes.NewReader(js)
		}
	}
	req, _ := http.NewRequest(metodo, e.pizarra+ruta, b)
	if credencial != "" {
		req.Header.Set("Authorization", "Bearer "+credencial)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	datos, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(datos)
}

// vistaDe reads the prediction as credencial sees it (the projector's when ""): the JSON and its text.
func (e *enMarcha) vistaDe(t *testing.T, ruta, credencial string) (predecir.EnClase, string) {
	t.Helper()
	codigo, cuerpo := e.pedir(t, http.MethodGet, ruta, credencial, nil)
	var v predecir.EnClase
	if codigo != http.StatusOK || json.Unmarshal([]byte(cuerpo), &v) != nil {
		t.Fatalf("GET %s: %d %s", ruta, codigo, cuerpo)
	}
	return v, cuerpo
}

func (e *enMarcha) responderComo(t *testing.T, alumno string, r predecir.PedidoRespuestas) (int, string) {
	t.Helper()
	return e.pedir(t, http.MethodPut, pizarra.RutaPrediccionRespuesta, e.creds[alumno], r)
}

// cuantosDe is a histogram's count of valor for pregunta.
func cuantosDe(v predecir.EnClase, pregunta, valor string) int {
	for _, h := range v.Histograma {
		if h.Pregunta == pregunta {
			for _, b := range h.Barras {
				if b.Valor == valor {
					return b.Cuantos
				}
			}
		}
	}
	return 0
}

// A prediction through the class lab's routes: only the instructor opens, shows the histogram,
// reveals and closes; each student answers only for itself, in the question's types; the last
// answer counts until the reveal and a late one is refused; the histogram is hidden until the
// instructor asks; the projector's view names nobody, the instructor's names everybody who
// answered; the real answers are a run's, stored with every answer.
func TestPrediccionEnClase(t *testing.T) {
	t.Parallel()
	nombres := []string{"Ana", "Luis", "Eva", "Óscar"}
	e := arrancar(t, nombres...)
	ruta := pizarra.RutaPrediccion

	if v, _ := e.vistaDe(t, pizarra.RutaPrediccionEstado, ""); v.Fase != predecir.FaseNinguna || v.Alumnos != 4 {
		t.Errorf("sin pregunta, el proyector: %+v", v)
	}
	if v, _ := e.vistaDe(t, ruta, e.creds["Ana"]); v.Fase != predecir.FaseNinguna || v.Alumno != "Ana" {
		t.Errorf("sin pregunta, Ana: %+v", v)
	}
	abrir := map[string]string{"ejercicio": ejercicioDePrueba}
	for _, c := range []struct {
		que, metodo, ruta, cred string
		cuerpo                  any
		codigo                  int
	}{
		{"abrir sin token", http.MethodPost, ruta, "", abrir, http.StatusUnauthorized},
		{"abrir con la credencial de un alumno", http.MethodPost, ruta, e.creds["Ana"], abrir, http.StatusUnauthorized},
		{"un ejercicio que no hay", http.MethodPost, ruta, tokenDePrueba, map[string]string{"ejercicio": "9.9"}, http.StatusNotFound},
		{"un pedido que no es JSON", http.MethodPost, ruta, tokenDePrueba, "6.5.4-4xx", http.StatusBadRequest},
		{"responder sin pregunta abierta", http.MethodPut, pizarra.RutaPrediccionRespuesta, e.creds["Ana"], predecir.PedidoRespuestas{}, http.StatusConflict},
		{"el histograma sin pregunta", http.MethodPost, pizarra.RutaPrediccionHistograma, tokenDePrueba, nil, http.StatusConflict},
		{"revelar sin pregunta", http.MethodPost, pizarra.RutaPrediccionRevelar, tokenDePrueba, nil, http.StatusConflict},
	} {
		if codigo, cuerpo := e.pedir(t, c.metodo, c.ruta, c.cred, c.cuerpo); codigo != c.codigo {
			t.Errorf("%s: %d %s; se esperaba %d", c.que, codigo, cuerpo, c.codigo)
		}
	}
	codigo, cuerpo := e.pedir(t, http.MethodPost, ruta, tokenDePrueba, abrir)
	var abierta predecir.EnClase
	if codigo != http.StatusCreated || json.Unmarshal([]byte(cuerpo), &abierta) != nil || abierta.Fase != predecir.FaseAbierta ||
		abierta.Ejercicio == nil || abierta.Ejercicio.ID != ejercicioDePrueba || abierta.Ronda == "" || len(abierta.Pistas) != 3 {
		t.Fatalf("abrir: %d %s", codigo, cuerpo)
	}
	// Asked again (its answer lost), the same round; another exercise waits for this one to close.
	if codigo, cuerpo := e.pedir(t, http.MethodPost, ruta, tokenDePrueba, abrir); codigo != http.StatusOK || !strings.Contains(cuerpo, abierta.Ronda) {
		t.Errorf("abrir otra vez: %d %s", codigo, cuerpo)
	}
	if codigo, cuerpo := e.pedir(t, http.MethodPost, ruta, tokenDePrueba, map[string]string{"ejercicio": "6.5.4-409"}); codigo != http.StatusConflict {
		t.Errorf("abrir otra con una abierta: %d %s", codigo, cuerpo)
	}

	ronda := abierta.Ronda
	primera := map[string]string{"intentos": "4", "final": "Agotados", "salida": "1"}
	if codigo, cuerpo := e.responderComo(t, "Ana", predecir.PedidoRespuestas{Ronda: ronda, Respuestas: primera}); codigo != http.StatusNoContent {
		t.Fatalf("Ana responde: %d %s", codigo, cuerpo)
	}
	// Answers of the wrong type, or missing, or extra: 422, by question, nothing kept.
	codigo, cuerpo = e.responderComo(t, "Ana", predecir.PedidoRespuestas{Ronda: ronda,
		Respuestas: map[string]string{"intentos": "cuatro", "final": "quizá", "otra": "1"}})
	var rechazo predecir.RechazoRespuestas
	if codigo != http.StatusUnprocessableEntity || json.Unmarshal([]byte(cuerpo), &rechazo) != nil ||
		!strings.Contains(rechazo.Errores["intentos"], "«cuatro» no es un número entero") ||
		!strings.Contains(rechazo.Errores["final"], "«quizá» no es una de las opciones") ||
		!strings.HasPrefix(rechazo.Errores["salida"], "falta la respuesta") || rechazo.Errores["otra"] == "" {
		t.Errorf("respuestas malas: %d %s", codigo, cuerpo)
	}
	// Answering twice: the last one counts.
	segunda := map[string]string{"intentos": "1", "final": "no-lo-arregla", "salida": "1"}
	if codigo, cuerpo := e.responderComo(t, "Ana", predecir.PedidoRespuestas{Ronda: ronda, Alumno: "Ana", Respuestas: segunda}); codigo != http.StatusNoContent {
		t.Fatalf("Ana responde otra vez: %d %s", codigo, cuerpo)
	}
	// Luis answers for Ana: refused, and Ana's answers are hers.
	if codigo, cuerpo := e.responderComo(t, "Luis", predecir.PedidoRespuestas{Ronda: ronda, Alumno: "Ana", Respuestas: primera}); codigo != http.StatusForbidden ||
		!strings.Contains(cuerpo, "una credencial responde solo por su alumno") {
		t.Errorf("Luis responde por Ana: %d %s", codigo, cuerpo)
	}
	for que, cred := range map[string]string{"sin credencial": "", "una inventada": "cl-inventada", "el token del profesor": tokenDePrueba} {
		if codigo, _ := e.pedir(t, http.MethodPut, pizarra.RutaPrediccionRespuesta, cred, predecir.PedidoRespuestas{Respuestas: segunda}); codigo != http.StatusUnauthorized {
			t.Errorf("responder con %s: %d; se esperaba 401", que, codigo)
		}
	}
	if codigo, _ := e.responderComo(t, "Eva", predecir.PedidoRespuestas{Ronda: "otra-ronda", Respuestas: primera}); codigo != http.StatusConflict {
		t.Errorf("responder a otra ronda: %d; se esperaba 409", codigo)
	}
	for alumno, r := range map[string]map[string]string{"Eva": primera, "Luis": segunda} {
		if codigo, cuerpo := e.responderComo(t, alumno, predecir.PedidoRespuestas{Ronda: ronda, Respuestas: r}); codigo != http.StatusNoContent {
			t.Fatalf("%s responde: %d %s", alumno, codigo, cuerpo)
		}
	}

	// The projector: counts, no histogram yet, no name. A student sees only its own answers.
	v, texto := e.vistaDe(t, pizarra.RutaPrediccionEstado, "")
	if v.Respondieron != 3 || v.Alumnos != 4 || v.Histograma != nil || v.Reales != nil || v.PorAlumno != nil || v.Instructor {
		t.Errorf("el proyector antes del histograma: %s", texto)
	}
	sinNombres := func(que, texto string) {
		t.Helper()
		for _, n := range nombres {
			if strings.Contains(texto, n) {
				t.Errorf("%s nombra a %s: %s", que, n, texto)
			}
		}
	}
	sinNombres("el proyector", texto)
	v, texto = e.vistaDe(t, ruta, e.creds["Ana"])
	if v.Alumno != "Ana" || !maps.Equal(v.Mias, segunda) || v.PorAlumno != nil || v.Histograma != nil {
		t.Errorf("lo que ve Ana: %s", texto)
	}
	if codigo, _ := e.pedir(t, http.MethodPost, pizarra.RutaPrediccionHistograma, e.creds["Ana"], nil); codigo != http.StatusUnauthorized {
		t.Errorf("un alumno pide el histograma: %d", codigo)
	}
	if codigo, cuerpo := e.pedir(t, http.MethodPost, pizarra.RutaPrediccionHistograma, tokenDePrueba, nil); codigo != http.StatusOK {
		t.Fatalf("el histograma: %d %s", codigo, cuerpo)
	}
	v, texto = e.vistaDe(t, pizarra.RutaPrediccionEstado, "")
	sinNombres("el proyector con el histograma", texto)
	if cuantosDe(v, "intentos", "1") != 2 || cuantosDe(v, "intentos", "4") != 1 || cuantosDe(v, "final", "agotados") != 1 ||
		cuantosDe(v, "final", "no-lo-arregla") != 2 || cuantosDe(v, "salida", "1") != 3 || len(v.Histograma) != 3 {
		t.Errorf("el histograma (Ana cuenta una vez, con su última respuesta): %s", texto)
	}
	// The instructor's view names who answered, with what counts.
	v, texto = e.vistaDe(t, pizarra.RutaPrediccionEstado, tokenDePrueba)
	if !v.Instructor || len(v.PorAlumno) != 3 || v.PorAlumno[0].Alumno != "Ana" || !maps.Equal(v.PorAlumno[0].Respuestas, segunda) {
		t.Errorf("la vista del profesor: %s", texto)
	}

	// The reveal: the class lab's run, which a run of our own agrees with.
	codigo, cuerpo = e.pedir(t, http.MethodPost, pizarra.RutaPrediccionRevelar, tokenDePrueba, nil)
	if codigo != http.StatusOK {
		t.Fatalf("revelar: %d %s", codigo, cuerpo)
	}
	ej := predecir.Buscar(ejercicioDePrueba)[0]
	otra, err := predecir.Ejecutar(context.Background(), ej, predecir.Corrida{})
	if err != nil {
		t.Fatal(err)
	}
	v, texto = e.vistaDe(t, pizarra.RutaPrediccionEstado, "")
	sinNombres("el proyector revelado", texto)
	if v.Fase != predecir.FaseRevelada || len(v.Reales) != len(ej.Preguntas) {
		t.Fatalf("revelada: %s", texto)
	}
	dadas := []map[string]string{segunda, primera, segunda} // Ana, Eva, Luis
	for _, q := range ej.Preguntas {
		real := v.Reales[q.ID]
		acertaron := 0
		for _, d := range dadas {
			if q.Acierta(d[q.ID], real.Valor) {
				acertaron++
			}
		}
		if real.Valor != otra[q.ID].Valor || strings.TrimSpace(real.Porque) == "" || real.Acertaron != acertaron {
			t.Errorf("%s: revelado %+v; otra corrida dio %q, acertaron %d", q.ID, real, otra[q.ID].Valor, acertaron)
		}
	}
	// A late answer is refused, and changes nothing; a repeated reveal is the same reveal.
	if codigo, cuerpo := e.responderComo(t, "Óscar", predecir.PedidoRespuestas{Ronda: ronda, Respuestas: segunda}); codigo != http.StatusConflict ||
		!strings.Contains(cuerpo, "ya se reveló") {
		t.Errorf("una respuesta tardía: %d %s", codigo, cuerpo)
	}
	if codigo, _ := e.responderComo(t, "Ana", predecir.PedidoRespuestas{Ronda: ronda, Respuestas: primera}); codigo != http.StatusConflict {
		t.Errorf("Ana cambia su respuesta tras revelar: %d", codigo)
	}
	if codigo, otro := e.pedir(t, http.MethodPost, pizarra.RutaPrediccionRevelar, tokenDePrueba, nil); codigo != http.StatusOK || otro != cuerpo {
		t.Errorf("revelar otra vez: %d %s", codigo, otro)
	}
	if v, _ := e.vistaDe(t, ruta, e.creds["Ana"]); !maps.Equal(v.Mias, segunda) || v.Reales == nil {
		t.Errorf("Ana tras revelar: %+v", v)
	}
	// The store holds every answer that counted, and the run's.
	r, l, err := e.mat.Respuestas(context.Background(), ronda)
	if err != nil {
		t.Fatal(err)
	}
	guardadas := map[string]map[string]string{}
	for _, x := range l {
		if guardadas[x.Alumno] == nil {
			guardadas[x.Alumno] = map[string]string{}
		}
		guardadas[x.Alumno][x.Pregunta] = x.Valor
	}
	quiere := map[string]map[string]string{"Ana": segunda, "Eva": primera, "Luis": segunda}
	quiere["Eva"] = map[string]string{"intentos": "4", "final": "agotados", "salida": "1"} // canonical
	if r.Ejercicio != ejercicioDePrueba || !maps.EqualFunc(guardadas, quiere, maps.Equal) || r.Reales["salida"] != otra["salida"].Valor {
		t.Errorf("la matrícula guardó %+v, %v", r, guardadas)
	}

	// Closed: nothing is open, nothing is taken; opening again is a new round.
	if codigo, _ := e.pedir(t, http.MethodDelete, ruta, e.creds["Ana"], nil); codigo != http.StatusUnauthorized {
		t.Errorf("un alumno cierra: %d", codigo)
	}
	if codigo, _ := e.pedir(t, http.MethodDelete, ruta, tokenDePrueba, nil); codigo != http.StatusNoContent {
		t.Errorf("cerrar: %d", codigo)
	}
	if v, _ := e.vistaDe(t, pizarra.RutaPrediccionEstado, ""); v.Fase != predecir.FaseNinguna {
		t.Errorf("cerrada: %+v", v)
	}
	if codigo, _ := e.responderComo(t, "Óscar", predecir.PedidoRespuestas{Respuestas: segunda}); codigo != http.StatusConflict {
		t.Errorf("responder con la pregunta cerrada: %d", codigo)
	}
	codigo, cuerpo = e.pedir(t, http.MethodPost, ruta, tokenDePrueba, abrir)
	if codigo != http.StatusCreated || strings.Contains(cuerpo, ronda) || strings.Contains(cuerpo, `"respondieron":3`) {
		t.Errorf("abrir otra vez tras cerrar: %d %s", codigo, cuerpo)
	}
}

// The pages: the board's headers (their own scripts only, no frame, no referrer), and nothing of
// the answers in them.
func TestPaginasDePrediccion(t *testing.T) {
	t.Parallel()
	e := arrancar(t, "Ana")
	for ruta, tipo := range map[string]string{
		pizarra.RutaPredecir: "text/html; charset=utf-8", pizarra.RutaProyector: "text/html; charset=utf-8",
		"/clase/prediccion/predecir.js": "text/javascript; charset=utf-8", "/clase/prediccion/proyector.js": "text/javascript; charset=utf-8",
		"/clase/prediccion/prediccion.css": "text/css; charset=utf-8",
	} {
		resp, err := http.Get(e.pizarra + ruta)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		h := resp.Header
		if resp.StatusCode != 200 || h.Get("Content-Type") != tipo || !strings.Contains(h.Get("Content-Security-Policy"), "default-src 'self'") ||
			!strings.Contains(h.Get("Content-Security-Policy"), "frame-ancestors 'none'") || h.Get("X-Frame-Options") != "DENY" ||
			h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("%s: %d %v", ruta, resp.StatusCode, h)
		}
	}
	if codigo, _ := e.pedir(t, http.MethodGet, "/clase/prediccion/otra.js", "", nil); codigo != http.StatusNotFound {
		t.Errorf("un archivo que no es de las páginas: %d", codigo)
	}
}

// «revisor predecir --clase» as two students run it: one waits for the question, answers with
// --respuesta and waits for the reveal; the other types a wrong answer, then a right one, and does
// not wait. The first sees its answers beside the run's, how the class did, and keeps them in its
// history.
func TestPredecirEnClaseDesdeLaTerminal(t *testing.T) {
	t.Parallel()
	e := arrancar(t, "Ana", "Luis")
	historial := t.TempDir() + "/h.jsonl"
	var out, errOut prueba.Buffer
	fin := make(chan int, 1)
	go func() {
		fin <- predecir.PredecirEnClase(context.Background(), predecir.OpcionesClase{URL: e.pizarra, Credencial: e.creds["Ana"],
			Respuestas: []string{"intentos=1", "final=agotados", "salida=1"}, Esperar: true, Historial: historial,
			In: strings.NewReader(""), Out: &out, Err: &errOut, Cada: 20 * time.Millisecond})
	}()
	prueba.Esperar(t, "Ana espera a que se abra la pregunta", func() bool { return strings.Contains(out.String(), "Espero a que el profesor abra una pregunta") })
	if codigo, cuerpo := e.pedir(t, http.MethodPost, pizarra.RutaPrediccion, tokenDePrueba, map[string]string{"ejercicio": ejercicioDePrueba}); codigo != http.StatusCreated {
		t.Fatalf("abrir: %d %s", codigo, cuerpo)
	}
	prueba.Esperar(t, "Ana responde y espera la revelación", func() bool { return strings.Contains(out.String(), "Espero a que el profesor revele") })
	var outL, errL prueba.Buffer
	if c := predecir.PredecirEnClase(context.Background(), predecir.OpcionesClase{URL: e.pizarra, Credencial: e.creds["Luis"],
		In: strings.NewReader("cuatro\n1\nno-lo-arregla\n1\n"), Out: &outL, Err: &errL}); c != 0 {
		t.Fatalf("Luis: código %d\n%s\n%s", c, outL.String(), errL.String())
	}
	if !strings.Contains(outL.String(), "«cuatro» no es un número entero") || !strings.Contains(outL.String(), "como Luis") ||
		!strings.Contains(outL.String(), "Respuesta enviada") {
		t.Errorf("lo que vio Luis:\n%s", outL.String())
	}
	if codigo, cuerpo := e.pedir(t, http.MethodPost, pizarra.RutaPrediccionRevelar, tokenDePrueba, nil); codigo != http.StatusOK {
		t.Fatalf("revelar: %d %s", codigo, cuerpo)
	}
	select {
	case c := <-fin:
		if c != 0 || errOut.String() != "" {
			t.Errorf("Ana: código %d, stderr %q", c, errOut.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("Ana no vio la revelación:\n%s", out.String())
	}
	for _, want := range []string{ejercicioDePrueba + " — ", "como Ana", "Tu predicción y lo que pasó:", "dijiste: agotados · pasó: ",
		"Acertaste ", "En la clase acertaron: 1. "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("falta %q en lo que vio Ana:\n%s", want, out.String())
		}
	}
	t.Logf("Ana vio:\n%s", out.String())
	if es, err := predecir.Leer(historial); err != nil || len(es) != 1 || es[0].Ejercicio != ejercicioDePrueba || es[0].Total != 3 {
		t.Errorf("el historial de Ana: %+v, %v", es, err)
	}
	// An answer after the reveal (issue 40, item 7: it waited forever): the question is closed,
	// said in one line, exit 1, at once.
	var outT, errT prueba.Buffer
	tarde, listo := context.WithTimeout(context.Background(), 20*time.Second)
	defer listo()
	c := predecir.PredecirEnClase(tarde, predecir.OpcionesClase{URL: e.pizarra, Credencial: e.creds["Luis"],
		Respuestas: []string{"intentos=7", "final=hecha", "salida=0"}, Out: &outT, Err: &errT, In: strings.NewReader(""), Cada: 20 * time.Millisecond})
	if quiere := "revisor predecir: la pregunta de " + ejercicioDePrueba + " ya está cerrada (el profesor ya reveló la respuesta): no admite respuestas; " +
		"cuando el profesor abra otra, vuelve a correr esta orden\n"; c != 1 || tarde.Err() != nil || errT.String() != quiere || outT.String() != "" {
		t.Errorf("Luis tras revelar: código %d (%v)\nstdout %q\nstderr %q", c, tarde.Err(), outT.String(), errT.String())
	}
	// With none open, it waits for the next one and answers it.
	siguiente := make(chan int, 1)
	var outS, errS prueba.Buffer
	e.pedir(t, http.MethodDelete, pizarra.RutaPrediccion, tokenDePrueba, nil)
	go func() {
		siguiente <- predecir.PredecirEnClase(context.Background(), predecir.OpcionesClase{URL: e.pizarra, Credencial: e.creds["Luis"],
			Respuestas: []string{"intentos=7", "final=hecha", "salida=0"}, Out: &outS, Err: &errS, In: strings.NewReader(""), Cada: 20 * time.Millisecond})
	}()
	prueba.Esperar(t, "Luis espera la pregunta siguiente", func() bool { return strings.Contains(outS.String(), "Espero a que el profesor abra") })
	e.pedir(t, http.MethodPost, pizarra.RutaPrediccion, tokenDePrueba, map[string]string{"ejercicio": ejercicioDePrueba})
	if c := <-siguiente; c != 0 || !strings.Contains(outS.String(), "Respuesta enviada") {
		t.Errorf("Luis en la pregunta siguiente: código %d\n%s\n%s", c, outS.String(), errS.String())
	}
	if v, _ := e.vistaDe(t, pizarra.RutaPrediccion, e.creds["Luis"]); v.Mias["intentos"] != "7" || v.Respondieron != 1 {
		t.Errorf("la pregunta siguiente: %+v", v)
	}
}

// Thirty students answer while the instructor reveals (ten before, twenty at the same time): an
// answer the lab took (204) is in the store and in the count, one it refused (409) is in neither;
// none is lost, none lands after the answers closed.
func TestResponderMientrasSeRevela(t *testing.T) {
	t.Parallel()
	nombres := treinta()
	e := arrancar(t, nombres...)
	if codigo, cuerpo := e.pedir(t, http.MethodPost, pizarra.RutaPrediccion, tokenDePrueba, map[string]string{"ejercicio": ejercicioDePrueba}); codigo != http.StatusCreated {
		t.Fatalf("abrir: %d %s", codigo, cuerpo)
	}
	respuesta := map[string]string{"intentos": "2", "final": "no-lo-arregla", "salida": "1"}
	var mu sync.Mutex
	tomadas := map[string]bool{}
	responder := func(grupo []string, empezar chan struct{}) *sync.WaitGroup {
		var wg sync.WaitGroup
		for _, n := range grupo {
			wg.Go(func() {
				<-empezar
				switch codigo, cuerpo := e.responderComo(t, n, predecir.PedidoRespuestas{Respuestas: respuesta}); codigo {
				case http.StatusNoContent:
					mu.Lock()
					tomadas[n] = true
					mu.Unlock()
				case http.StatusConflict:
				default:
					t.Errorf("%s: %d %s", n, codigo, cuerpo)
				}
			})
		}
		return &wg
	}
	primeras := make(chan struct{})
	close(primeras)
	responder(nombres[:10], primeras).Wait()
	empezar := make(chan struct{})
	resto := responder(nombres[10:], empezar)
	resto.Go(func() {
		<-empezar
		if codigo, cuerpo := e.pedir(t, http.MethodPost, pizarra.RutaPrediccionRevelar, tokenDePrueba, nil); codigo != http.StatusOK {
			t.Errorf("revelar: %d %s", codigo, cuerpo)
		}
	})
	close(empezar)
	resto.Wait()
	v, _ := e.vistaDe(t, pizarra.RutaPrediccionEstado, tokenDePrueba)
	_, guardadas, err := e.mat.Respuestas(context.Background(), v.Ronda)
	if err != nil {
		t.Fatal(err)
	}
	enLaMatricula := map[string]bool{}
	for _, x := range guardadas {
		enLaMatricula[x.Alumno] = true
	}
	if v.Respondieron != len(tomadas) || len(enLaMatricula) != len(tomadas) || v.Reales["intentos"].Acertaron > len(tomadas) {
		t.Errorf("la clase tomó %d respuestas; el proyector cuenta %d, la matrícula tiene %d", len(tomadas), v.Respondieron, len(enLaMatricula))
	}
	for n := range tomadas {
		if !enLaMatricula[n] {
			t.Errorf("la respuesta de %s se tomó y no está en la matrícula", n)
		}
	}
	t.Logf("%d de %d respuestas llegaron antes de cerrar", len(tomadas), len(nombres))
}
