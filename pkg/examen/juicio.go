package examen

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"cursohttp/pkg/tabladecision"
	"cursohttp/pkg/topes"
)

// Comprobacion is one check's verdict: its stable id, whether it passed, its line in the course's
// voice, and which intents broke it (or were left to another check). Estado is the client checks'
// third state: a check whose premise never happened (no Retry-After reached, no 4xx answered) is
// EstadoNoJuzgada, with Paso false and its line saying why; the server checks leave it empty.
type Comprobacion struct {
	ID       string   `json:"id"`
	Paso     bool     `json:"paso"`
	Estado   string   `json:"estado,omitempty"`
	Linea    string   `json:"linea"`
	Detalles []string `json:"detalles,omitempty"`
}

// The three states of a client check, as --json and the class page name them.
const (
	EstadoPaso      = "paso"
	EstadoFallo     = "fallo"
	EstadoNoJuzgada = "no-juzgada"
)

// Juzgada says whether the check judged anything: only a judged check counts in «N de M».
func (c Comprobacion) Juzgada() bool { return c.Estado != EstadoNoJuzgada }

// Check is one client check as the contract states it: its id, the premise it needs to be judged
// (--help lists them from here; docs/comprobar.md's table must agree) and its judge. A new check is
// one entry of Checks.
type Check struct {
	ID      string
	Premisa string
	// juez judges the run for this check; juzgar gives its verdict the entry's ID, so no judge
	// repeats it.
	juez func(*juicio) Comprobacion
}

// Checks are the client checks, in the order they are reported. Their ids are stable: --json, the
// instructor's page and docs/comprobar.md use them.
var Checks = []Check{
	{"una-escritura", "un alta que se podía completar tras una falla, cuya llave no falla ya misma-llave ni llave-por-intencion", juzgarUnaEscritura},
	{"misma-llave", "un intento sin llave, o un alta con más de un intento", juzgarMismaLlave},
	{"llave-por-intencion", "dos altas, cada una con su llave", juzgarLlavePorIntencion},
	{"respeta-retry-after", "un intento que recibió un Retry-After", juzgarRetryAfter},
	{"no-reintenta-4xx", "un intento que recibió un 4xx que no se repite", juzgar4xx},
	{"se-rinde", "un alta en la que nadie respondía y el cliente reintentó, o una que no terminó", juzgarRendirse},
	{"espera-con-jitter", "3 esperas sin Retry-After tras un primer fallo y 2 tras los siguientes, o dos intentos a la vez", juzgarConJitter},
	{"codigo-de-salida", "un alta hecha y una que no, que el cliente corrió hasta el final y cuya llave no falla ya", juzgarCodigoDeSalida},
}

// IDs are the checks' ids, in the order they are reported.
var IDs = func() []string {
	l := make([]string, len(Checks))
	for i, c := range Checks {
		l[i] = c.ID
	}
	return l
}()

// Tolerances of the timing checks, for the scheduling of a loaded machine, never in the client's
// favour by more than this.
const (
	// HolguraRetryAfter: an attempt this much before the time Retry-After asked still counts as on time.
	HolguraRetryAfter = 20 * time.Millisecond
	// DispersionMinima: waits after a first failure spread over less than this are «always the same».
	DispersionMinima = 100 * time.Millisecond
	// HolguraSolape: an attempt that starts this much before the previous one ended (as the gateway
	// saw it: its clock stops after the answer is written) overlaps it; less is the gateway's own
	// scheduling.
	HolguraSolape = 50 * time.Millisecond
	// SinEspera: a wait shorter than this is no wait at all (a loaded machine stretches none to
	// it); three in four of them is a client that never waits, not bad luck of full jitter (one
	// first wait in ten is that short).
	SinEspera = 50 * time.Millisecond
	// HolguraEspera: an attempt the client stopped waiting for this long after the contract's
	// EsperaPorIntento still counts as on time (the gateway sees the connection close late).
	HolguraEspera = time.Second
)

// etiqueta is how the report names an intent: its scenario, and which of the two when two.
func (in *Intencion) etiqueta() string {
	if in.Escenario.veces() > 1 {
		return in.Escenario.ID + " (" + strconv.Itoa(in.Vez) + "ª)"
	}
	return in.Escenario.ID
}

// llaveMal says why the intent's attempts do not carry one and the same Idempotency-Key ("" when
// they do).
func llaveMal(in *Intencion) string {
	for i, a := range in.Intentos {
		switch {
		case a.Llaves == 0 || strings.TrimSpace(a.Llave) == "":
			return fmt.Sprintf("el intento %d no llevó Idempotency-Key", i+1)
		case a.Llaves > 1:
			return fmt.Sprintf("el intento %d llevó Idempotency-Key %d veces", i+1, a.Llaves)
		case a.Llave != in.Intentos[0].Llave:
			return fmt.Sprintf("el intento %d llevó otra llave que el 1", i+1)
		}
	}
	return ""
}

// veredicto builds a judged check from its failures: none is a pass. Its ID is juzgar's to set.
func veredicto(bien, mal string, fallas []string, aparte int, porque string) Comprobacion {
	c := Comprobacion{Paso: len(fallas) == 0, Estado: EstadoPaso, Linea: bien}
	if !c.Paso {
		c.Estado = EstadoFallo
		c.Linea = mal
		c.Detalles = resumir(fallas)
	}
	return conAparte(c, aparte, porque)
}

// sinJuicio is a check whose premise never happened: neither passed nor failed, and why.
func sinJuicio(porque string, aparte int, porqueAparte string) Comprobacion {
	return conAparte(Comprobacion{Estado: EstadoNoJuzgada, Linea: "no se juzgó: " + porque}, aparte, porqueAparte)
}

// juzgarSi is veredicto when the check's premise happened (or it found a failure anyway), and
// sinJuicio otherwise.
func juzgarSi(premisa bool, bien, mal string, fallas []string, aparte int, porqueAparte, sinPremisa string) Comprobacion {
	if !premisa && len(fallas) == 0 {
		return sinJuicio(sinPremisa, aparte, porqueAparte)
	}
	return veredicto(bien, mal, fallas, aparte, porqueAparte)
}

func conAparte(c Comprobacion, aparte int, porque string) Comprobacion {
	if aparte > 0 {
		c.Detalles = append(c.Detalles, fmt.Sprintf("%s no se juzga%s aquí: %s", contar(aparte, "intención", "intenciones"), plural(aparte, "", "n"), porque))
	}
	return c
}

// resumir keeps a long list of failures readable on a projector: the first five and how many more.
func resumir(l []string) []string {
	if len(l) <= 5 {
		return l
	}
	return append(l[:5:5], fmt.Sprintf("y %d más", len(l)-5))
}

func contar(n int, uno, varios string) string {
	if n == 1 {
		return "1 " + uno
	}
	return strconv.Itoa(n) + " " + varios
}

func plural(n int, uno, varios string) string {
	if n == 1 {
		return uno
	}
	return varios
}

// reintentable is the Lesson 7 decision table's answer for a 4xx the client got: esperar (408,
// 425, 429, 409 llave-en-curso) may be repeated after the wait; anything else may not.
func reintentable(a Intento) bool {
	t := a.Type
	return tabladecision.Decidir(a.Cliente, nil, &t).Reintenta
}

// juicio is what every judge reads, computed once: the run's intents, the limit each ran under,
// and what the key checks already found.
type juicio struct {
	ins    []*Intencion
	limite time.Duration
	// culpa are the intents whose key is already wrong (missing, changed between attempts, or
	// shared with another intent): they are judged by the key's checks only, so what follows from it
	// (a 409 nombre-repetido, an exit code the client could not get right) is not counted twice.
	culpa map[*Intencion]bool
	// porLlave are the intents with a well-formed key, by key.
	porLlave map[string][]*Intencion
}

// porqueLlave is why an intent of culpa is left to the key's checks.
const porqueLlave = "su llave ya falla misma-llave o llave-por-intencion"

func nuevoJuicio(ins []*Intencion, limite time.Duration) *juicio {
	j := &juicio{ins: ins, limite: limite, culpa: map[*Intencion]bool{}, porLlave: map[string][]*Intencion{}}
	for _, in := range ins {
		if llaveMal(in) != "" {
			j.culpa[in] = true
			continue
		}
		if len(in.Intentos) > 0 {
			j.porLlave[in.Intentos[0].Llave] = append(j.porLlave[in.Intentos[0].Llave], in)
		}
	}
	for _, l := range j.porLlave {
		if len(l) > 1 {
			for _, in := range l {
				j.culpa[in] = true
			}
		}
	}
	return j
}

// juzgar judges the run's intents, each check from what the gateway and the revisor saw, in the
// order of Checks.
func juzgar(ins []*Intencion, limite time.Duration) []Comprobacion {
	j := nuevoJuicio(ins, limite)
	c := make([]Comprobacion, len(Checks))
	for i, ch := range Checks {
		c[i] = ch.juez(j)
		c[i].ID = ch.ID
	}
	return c
}

// juzgarUnaEscritura is judged on the intents that could complete after something failed on the
// way.
func juzgarUnaEscritura(j *juicio) Comprobacion {
	var fallas []string
	juzgadas := 0
	for _, in := range j.ins {
		if j.culpa[in] || in.Arranque != "" || in.Escenario.Espera != Registra || in.Repite {
			continue
		}
		if len(in.Escenario.Guion) > 1 || in.Escenario.Guion[0] != nil {
			juzgadas++
		}
		if !in.Registrada {
			fallas = append(fallas, fmt.Sprintf("%s: el alta no quedó hecha tras %s", in.etiqueta(), loUltimo(in)))
		}
	}
	return juzgarSi(juzgadas > 0,
		"cada alta quedó hecha una sola vez, aunque se perdieran respuestas: reintentar con la llave la completó sin duplicarla",
		"un alta que se podía completar no quedó hecha: un 502, un corte o un tiempo agotado no dicen que no ocurrió; se reintenta con la misma llave (lección 6, §6.5 y §6.6.5)",
		fallas, contarCulpa(j.ins, j.culpa), porqueLlave,
		"ninguna alta que se podía completar tras una falla quedó para juzgar aquí")
}

// juzgarMismaLlave: a missing key fails it at once; the same key needs a retry to be seen.
func juzgarMismaLlave(j *juicio) Comprobacion {
	var fallas []string
	vistos, varios := 0, 0
	for _, in := range j.ins {
		if len(in.Intentos) == 0 {
			continue
		}
		vistos++
		if len(in.Intentos) > 1 {
			varios++
		}
		if m := llaveMal(in); m != "" {
			fallas = append(fallas, in.etiqueta()+": "+m)
		}
	}
	sinPremisa := "ningún alta tuvo más de un intento: no hubo reintentos cuya llave comparar"
	if vistos == 0 {
		sinPremisa = "ningún intento llegó a la pasarela"
	}
	return juzgarSi(varios > 0,
		"todos los intentos de cada alta llevaron la misma Idempotency-Key",
		"un intento sin llave, o con otra, es para el revisor una petición nueva: si la anterior ocurrió, duplica o choca con su nombre (lección 6, §6.6.5)",
		fallas, 0, "", sinPremisa)
}

// juzgarLlavePorIntencion: two intents with a well-formed key are needed to compare keys.
func juzgarLlavePorIntencion(j *juicio) Comprobacion {
	var fallas []string
	conLlave := 0
	for _, in := range j.ins {
		if llaveDe(in) != "\x00" {
			conLlave++
		}
		l := j.porLlave[llaveDe(in)]
		if len(l) > 1 && l[0] == in {
			nombres := make([]string, len(l))
			for i, x := range l {
				nombres[i] = x.etiqueta()
			}
			if len(l) > 4 {
				fallas = append(fallas, fmt.Sprintf("%d altas distintas usaron la misma llave (%s…)", len(l), strings.Join(nombres[:3], ", ")))
			} else {
				fallas = append(fallas, "usaron la misma llave: "+strings.Join(nombres, ", "))
			}
		}
	}
	return juzgarSi(conLlave > 1,
		"cada alta tuvo su propia llave: dos altas distintas nunca comparten una",
		"dos altas distintas con la misma llave: el revisor repite la respuesta de la primera (o da 422 llave-reutilizada) y la segunda nunca ocurre; una llave nueva por intención, no por programa (lección 6, §6.6.4 y §6.7.2)",
		fallas, 0, "", "menos de dos altas llevaron una llave bien puesta: no hubo llaves que comparar")
}

// juzgarRetryAfter is judged on every attempt that got a Retry-After: the next one came no
// earlier, or the client gave up rather than wait to be stopped.
func juzgarRetryAfter(j *juicio) Comprobacion {
	var fallas []string
	pedidos := 0
	for _, in := range j.ins {
		for i, a := range in.Intentos {
			if a.RetryAfter <= 0 {
				continue
			}
			pedidos++
			switch {
			case i+1 < len(in.Intentos):
				espera := in.Intentos[i+1].Inicio.Sub(a.Fin)
				if espera < time.Duration(a.RetryAfter)*time.Second-HolguraRetryAfter {
					fallas = append(fallas, fmt.Sprintf("%s: pidió esperar %s y el intento %d llegó antes", in.etiqueta(), segundos(a.RetryAfter), i+2))
				}
			case in.Detenido:
				fallas = append(fallas, fmt.Sprintf("%s: pidió esperar %s y el cliente siguió esperando hasta que lo detuve, en vez de rendirse", in.etiqueta(), segundos(a.RetryAfter)))
			}
		}
	}
	return juzgarSi(pedidos > 0,
		"esperó lo que pidió cada Retry-After, y se rindió cuando pedía más de lo que está dispuesto a esperar",
		"Retry-After manda: ni un intento antes de lo pedido, y si pide más de lo que el programa espera, se rinde y lo dice (lección 6, §6.4.3)",
		fallas, 0, "", "ningún intento llegó a recibir un Retry-After")
}

// juzgar4xx is judged on every 4xx that Lesson 7's table does not send to wait: no attempt after
// it.
func juzgar4xx(j *juicio) Comprobacion {
	var fallas []string
	cuatros := 0
	for _, in := range j.ins {
		for i, a := range in.Intentos {
			if a.Cliente >= 400 && a.Cliente < 500 && !reintentable(a) {
				cuatros++
				if i+1 < len(in.Intentos) {
					fallas = append(fallas, fmt.Sprintf("%s: respondió %d%s y el cliente lo repitió", in.etiqueta(), a.Cliente, TipoCorto(a.Type)))
					break
				}
			}
		}
	}
	return juzgarSi(cuatros > 0,
		"no repitió ningún 4xx que repetir no arregla (solo 408, 429 y 409 llave-en-curso se repiten, tras la espera)",
		"un 4xx dice que la petición está mal: repetirla igual da lo mismo; solo 408, 429 y 409 llave-en-curso se repiten, tras la espera (lección 6, §6.3.1; la tabla de la lección 7)",
		fallas, 0, "", "ningún intento recibió un 4xx que no se repite")
}

// juzgarRendirse is judged where nobody ever answered and the client retried, where it did not
// end, and on every attempt it stopped waiting for.
func juzgarRendirse(j *juicio) Comprobacion {
	var fallas []string
	rendirse := 0
	for _, in := range j.ins {
		ultimoRA := len(in.Intentos) > 0 && in.Intentos[len(in.Intentos)-1].RetryAfter > 0
		if in.Detenido || (in.Escenario.sinFin() && len(in.Intentos) > 1) || len(in.Intentos) > topes.IntentosMaximo {
			rendirse++
		}
		switch {
		case in.Detenido && !ultimoRA:
			fallas = append(fallas, fmt.Sprintf("%s: no terminó en %s y lo detuve", in.etiqueta(), duracion(j.limite)))
		case len(in.Intentos) > topes.IntentosMaximo:
			fallas = append(fallas, fmt.Sprintf("%s: %d intentos, más de %d", in.etiqueta(), len(in.Intentos), topes.IntentosMaximo))
		case in.Detenido:
		default:
			for i, a := range in.Intentos {
				if a.Abandonado && a.Fin.Sub(a.Inicio) > EsperaPorIntento*time.Second+HolguraEspera {
					fallas = append(fallas, fmt.Sprintf("%s: esperó la respuesta del intento %d más de %d s (el contrato: %d s como mucho)", in.etiqueta(), i+1, EsperaPorIntento, EsperaPorIntento))
					break
				}
			}
		}
	}
	return juzgarSi(rendirse > 0,
		fmt.Sprintf("cuando nadie respondía se rindió a tiempo: pocos intentos (%d como mucho) y cada alta terminó sola", topes.IntentosMaximo),
		"reintentar sin tope es un ataque a quien ya está caído y un programa que no termina: un número acotado de intentos, un límite por intento, y se rinde diciendo qué no se sabe (lección 6, §6.3.3 y §6.5.3)",
		fallas, 0, "", "en ningún alta en la que nadie respondía reintentó el cliente: no hubo un rendirse que juzgar")
}

// juzgarConJitter is juzgarEsperas, which needs the intents only (so its tests give it nothing
// else).
func juzgarConJitter(j *juicio) Comprobacion { return juzgarEsperas(j.ins) }

// juzgarCodigoDeSalida: both answers must have been possible (an alta made and one not).
func juzgarCodigoDeSalida(j *juicio) Comprobacion {
	var fallas []string
	aparte, hechas, noHechas := 0, 0, 0
	for _, in := range j.ins {
		switch {
		case in.Arranque != "", in.Detenido, in.Repite:
			// A repeated body may end either way: the service it asks for exists, made by the first.
			continue
		case j.culpa[in]:
			aparte++
			continue
		case in.Registrada:
			hechas++
		default:
			noHechas++
		}
		switch {
		case in.Salida == 0 && !in.Registrada:
			fallas = append(fallas, in.etiqueta()+": salió con 0 y el alta no existe")
		case in.Salida != 0 && in.Registrada:
			fallas = append(fallas, fmt.Sprintf("%s: el alta existe y salió con %d", in.etiqueta(), in.Salida))
		}
	}
	return juzgarSi(hechas > 0 && noHechas > 0,
		"salió con 0 exactamente cuando el alta quedó hecha",
		"el código de salida es lo que lee un script: 0 solo si el alta existe, distinto de 0 si no o si no se sabe (lección 6, §6.5.4)",
		fallas, aparte, porqueLlave, "no quedó para juzgar aquí un alta hecha y una que no")
}

// loUltimo says how an intent that did not complete ended: its attempts and what the last got.
func loUltimo(in *Intencion) string {
	if len(in.Intentos) == 0 {
		return "0 intentos: ninguno llegó a la pasarela"
	}
	return fmt.Sprintf("%s; el último recibió %s", contar(len(in.Intentos), "intento", "intentos"), visto(in.Intentos[len(in.Intentos)-1]))
}

func llaveDe(in *Intencion) string {
	if len(in.Intentos) == 0 || llaveMal(in) != "" {
		return "\x00"
	}
	return in.Intentos[0].Llave
}

func contarCulpa(ins []*Intencion, culpa map[*Intencion]bool) int {
	n := 0
	for _, in := range ins {
		if culpa[in] {
			n++
		}
	}
	return n
}

// TipoCorto is a problem type as a verdict line names it: « nombre» after the status, nothing for
// about:blank.
func TipoCorto(t string) string {
	if i := strings.LastIndexByte(t, '/'); i >= 0 && t != "about:blank" {
		return " " + t[i+1:]
	}
	return ""
}

func segundos(s int) string {
	if s == RetryAfterLargo {
		return "una hora"
	}
	return strconv.Itoa(s) + " s"
}

// duracion is the limit as the report says it: whole seconds, so the report does not depend on
// when exactly the client was stopped.
func duracion(d time.Duration) string {
	return strconv.Itoa(int(d.Truncate(time.Second)/time.Second)) + " s"
}

// juzgarEsperas judges the waits that no Retry-After set: after the first failure of an intent and
// after later ones. Full jitter (lesson 6, §6.4.2) draws each in [0, techo] with a ceiling that
// doubles: the first ones spread, and the later ones reach further than any first one. A wait is
// measured from the end of the previous attempt: one that starts before it ended is no wait but
// two attempts at once, a finding of its own.
func juzgarEsperas(ins []*Intencion) Comprobacion {
	var primeras, despues []time.Duration
	var fallas []string
	for _, in := range ins {
		solapado := false
		for i := 0; i+1 < len(in.Intentos); i++ {
			a := in.Intentos[i]
			w := in.Intentos[i+1].Inicio.Sub(a.Fin)
			if w < 0 && a.Abandonado {
				// The client left this attempt at a time the gateway does not know (its handler
				// ends when the revisor answers): no overlap, and no wait to measure.
				continue
			}
			if w < -HolguraSolape {
				if !solapado {
					fallas = append(fallas, fmt.Sprintf("%s: el intento %d empezó antes de que terminara el %d", in.etiqueta(), i+2, i+1))
				}
				solapado = true
				continue
			}
			if a.RetryAfter > 0 {
				continue
			}
			w = max(w, 0)
			if i == 0 {
				primeras = append(primeras, w)
			} else {
				despues = append(despues, w)
			}
		}
	}
	medibles := len(primeras) >= 3 && len(despues) >= 2
	if medibles {
		minP, maxP := primeras[0], primeras[0]
		for _, w := range primeras {
			minP, maxP = min(minP, w), max(maxP, w)
		}
		maxD := despues[0]
		for _, w := range despues {
			maxD = max(maxD, w)
		}
		// Grow: the later waits reach further than the first ones, or are longer on average (one
		// first wait stretched by a loaded machine must not hide a ceiling that doubles).
		crecen := maxD > maxP || media(despues) > media(primeras)
		nulas := 0
		for _, w := range append(append([]time.Duration{}, primeras...), despues...) {
			if w < SinEspera {
				nulas++
			}
		}
		switch todas := len(primeras) + len(despues); {
		case 4*nulas >= 3*todas:
			// Said first and alone: «always the same» would tell a client that never waits it waited.
			fallas = append(fallas, fmt.Sprintf("no esperó nunca: %d de %d reintentos salieron enseguida del fallo anterior", nulas, todas))
		default:
			// Spread: apart by more than scheduling noise, and not all near the longest one (a fixed
			// wait on a loaded machine comes back later by a little, never earlier).
			if maxP-minP < DispersionMinima || float64(minP) > 0.7*float64(maxP) {
				fallas = append(fallas, fmt.Sprintf("tras un primer fallo esperó siempre lo mismo (%d esperas casi iguales): sin azar, los clientes que fallan juntos vuelven juntos", len(primeras)))
			}
			if !crecen {
				fallas = append(fallas, "las esperas no crecen: tras el segundo y el tercer fallo no espera más que tras el primero")
			}
		}
	}
	return juzgarSi(medibles,
		"entre intentos esperó cada vez más y al azar (retroceso exponencial con jitter)",
		"las esperas deben crecer con cada fallo y repartirse al azar, no ser fijas ni solaparse: así mil clientes que fallan a la vez no vuelven a la vez (lección 6, §6.4.1 y §6.4.2)",
		fallas, 0, "",
		fmt.Sprintf("casi no reintentó: hubo %d esperas sin Retry-After tras un primer fallo y %d tras los siguientes, y hacen falta 3 y 2 (sobrevivir a tres fallos seguidos pide al menos 4 intentos)", len(primeras), len(despues)))
}

func media(l []time.Duration) time.Duration {
	var s time.Duration
	for _, w := range l {
		s += w
	}
	return s / time.Duration(len(l))
}

// avisos are what happened before the checks, said first: a client that did not start, one whose
// attempts never reached the gateway, a credential the revisor refused, attempts that went to the
// revisor directly, requests of another grading.
func avisos(ins []*Intencion, ajenas int) []string {
	var l []string
	arranque, primera, vistos, directos := 0, "", 0, 0
	credencial := map[int]int{}
	for _, in := range ins {
		if in.Arranque != "" {
			if arranque++; primera == "" {
				primera = in.Arranque
			}
			continue
		}
		vistos += len(in.Intentos)
		for _, a := range in.Intentos {
			if a.Revisor == http.StatusUnauthorized || a.Revisor == http.StatusForbidden {
				credencial[a.Revisor]++
			}
			if a.Directo {
				directos++
			}
		}
	}
	if arranque > 0 {
		l = append(l, fmt.Sprintf("el cliente no arrancó en %d de %d altas: %s", arranque, len(ins), primera))
	}
	if vistos == 0 && arranque < len(ins) {
		l = append(l, "ningún intento llegó a la pasarela: el cliente manda POST /servicios a la URL de PASARELA_URL (o a http://127.0.0.1:18082)")
	}
	for _, c := range []int{http.StatusUnauthorized, http.StatusForbidden} {
		if n := credencial[c]; n > 0 {
			l = append(l, fmt.Sprintf("el revisor respondió %d a %s: la credencial no es la del contrato («Authorization: Bearer escritura-a»)", c, contar(n, "intento", "intentos")))
		}
	}
	if directos > 0 {
		l = append(l, fmt.Sprintf("%s fue%s directo al revisor sin pasar por la pasarela: se juzga%s como los demás, pero el contrato pide la pasarela (PASARELA_URL)", contar(directos, "intento", "intentos"), plural(directos, "", "ron"), plural(directos, "", "n")))
	}
	if ajenas > 0 {
		l = append(l, fmt.Sprintf("%s no era%s de esta calificación (otro nombre u otra URL): %s, sin juzgar", contar(ajenas, "petición", "peticiones"), plural(ajenas, "", "n"), plural(ajenas, "la rechacé", "las rechacé")))
	}
	return l
}
