package examen

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"cursohttp/pkg/decision"
	"cursohttp/pkg/pasarela"
	"cursohttp/pkg/problema"
)

// Comprobacion is one check's verdict: its stable id, whether it passed, its line in the course's
// voice, and which intents broke it (or were left to another check).
type Comprobacion struct {
	ID       string   `json:"id"`
	Paso     bool     `json:"paso"`
	Linea    string   `json:"linea"`
	Detalles []string `json:"detalles,omitempty"`
}

// IDs are the checks' ids, in the order they are reported. They are stable: --json, the
// instructor's page and docs/comprobar.md use them.
var IDs = []string{"una-escritura", "misma-llave", "llave-por-intencion", "respeta-retry-after", "no-reintenta-4xx", "se-rinde", "espera-con-jitter", "codigo-de-salida"}

// Tolerances of the timing checks, for the scheduling of a loaded machine, never in the client's
// favour by more than this.
const (
	// HolguraRetryAfter: an attempt this much before the time Retry-After asked still counts as on time.
	HolguraRetryAfter = 20 * time.Millisecond
	// DispersionMinima: waits after a first failure spread over less than this are «always the same».
	DispersionMinima = 100 * time.Millisecond
)

// etiqueta is how the report names an intent: its scenario, and which of the two when two.
func (in *Intencion) etiqueta() string {
	if in.Escenario.veces() > 1 {
		return in.Escenario.ID + " (" + strings.TrimPrefix(in.Nombre, in.Escenario.ID+"-")[:1] + "ª)"
	}
	return in.Escenario.ID
}

func problemaTipo(r pasarela.Responder) string { return problema.Buscar(r.Clave).Type }

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

// veredicto builds a check from its failures: none is a pass.
func veredicto(id, bien, mal string, fallas []string, aparte int, porque string) Comprobacion {
	c := Comprobacion{ID: id, Paso: len(fallas) == 0, Linea: bien}
	if !c.Paso {
		c.Linea = mal
		c.Detalles = resumir(fallas)
	}
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
	return decision.Decidir(a.Cliente, nil, &t).Reintenta
}

// juzgar judges the run's intents, each check from what the gateway and the revisor saw.
func juzgar(ins []*Intencion, limite time.Duration) []Comprobacion {
	// An intent whose key is already wrong is judged by the key's checks only: what follows from it
	// (a 409 nombre-repetido, an exit code the client could not get right) is not counted twice.
	culpa := map[*Intencion]bool{}
	porLlave := map[string][]*Intencion{}
	for _, in := range ins {
		if llaveMal(in) != "" {
			culpa[in] = true
			continue
		}
		if len(in.Intentos) > 0 {
			porLlave[in.Intentos[0].Llave] = append(porLlave[in.Intentos[0].Llave], in)
		}
	}
	compartidas := 0
	for _, l := range porLlave {
		if len(l) > 1 {
			for _, in := range l {
				culpa[in] = true
			}
			compartidas++
		}
	}
	porqueLlave := "su llave ya falla misma-llave o llave-por-intencion"
	var c []Comprobacion

	// una-escritura
	var fallas []string
	for _, in := range ins {
		if culpa[in] {
			continue
		}
		if in.Escenario.Espera == Registra && !in.Registrada {
			fallas = append(fallas, fmt.Sprintf("%s: el alta no quedó hecha tras %s", in.etiqueta(), contar(len(in.Intentos), "intento", "intentos")))
		}
	}
	c = append(c, veredicto("una-escritura",
		"cada alta quedó hecha una sola vez, aunque se perdieran respuestas: reintentar con la llave la completó sin duplicarla",
		"un alta que se podía completar no quedó hecha: un 502, un corte o un tiempo agotado no dicen que no ocurrió; se reintenta con la misma llave (lección 6, §6.5 y §6.6.5)",
		fallas, contarCulpa(ins, culpa), porqueLlave))

	// misma-llave
	fallas = nil
	vistos := 0
	for _, in := range ins {
		if len(in.Intentos) == 0 {
			continue
		}
		vistos++
		if m := llaveMal(in); m != "" {
			fallas = append(fallas, in.etiqueta()+": "+m)
		}
	}
	if vistos == 0 {
		fallas = append(fallas, "ningún intento llegó a la pasarela")
	}
	c = append(c, veredicto("misma-llave",
		"todos los intentos de cada alta llevaron la misma Idempotency-Key",
		"un intento sin llave, o con otra, es para el revisor una petición nueva: si la anterior ocurrió, duplica o choca con su nombre (lección 6, §6.6.5)",
		fallas, 0, ""))

	// llave-por-intencion
	fallas = nil
	for _, in := range ins {
		l := porLlave[llaveDe(in)]
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
	c = append(c, veredicto("llave-por-intencion",
		"cada alta tuvo su propia llave: dos altas distintas nunca comparten una",
		"dos altas distintas con la misma llave: el revisor repite la respuesta de la primera (o da 422 llave-reutilizada) y la segunda nunca ocurre; una llave nueva por intención, no por programa (lección 6, §6.6.4 y §6.7.2)",
		fallas, 0, ""))

	// respeta-retry-after
	fallas = nil
	pedidos := 0
	for _, in := range ins {
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
	if pedidos == 0 {
		fallas = append(fallas, "ningún intento llegó a recibir un Retry-After")
	}
	c = append(c, veredicto("respeta-retry-after",
		"esperó lo que pidió cada Retry-After, y se rindió cuando pedía más de lo que está dispuesto a esperar",
		"Retry-After manda: ni un intento antes de lo pedido, y si pide más de lo que el programa espera, se rinde y lo dice (lección 6, §6.4.3)",
		fallas, 0, ""))

	// no-reintenta-4xx
	fallas = nil
	for _, in := range ins {
		for i, a := range in.Intentos {
			if a.Cliente >= 400 && a.Cliente < 500 && !reintentable(a) && i+1 < len(in.Intentos) {
				fallas = append(fallas, fmt.Sprintf("%s: respondió %d%s y el cliente lo repitió", in.etiqueta(), a.Cliente, tipoCorto(a.Type)))
				break
			}
		}
	}
	c = append(c, veredicto("no-reintenta-4xx",
		"no repitió ningún 4xx que repetir no arregla (solo 408, 429 y 409 llave-en-curso se repiten, tras la espera)",
		"un 4xx dice que la petición está mal: repetirla igual da lo mismo; solo 408, 429 y 409 llave-en-curso se repiten, tras la espera (lección 6, §6.3.1; la tabla de la lección 7)",
		fallas, 0, ""))

	// se-rinde
	fallas = nil
	for _, in := range ins {
		ultimoRA := len(in.Intentos) > 0 && in.Intentos[len(in.Intentos)-1].RetryAfter > 0
		switch {
		case in.Detenido && !ultimoRA:
			fallas = append(fallas, fmt.Sprintf("%s: no terminó en %s y lo detuve", in.etiqueta(), duracion(limite)))
		case len(in.Intentos) > IntentosMaximos:
			fallas = append(fallas, fmt.Sprintf("%s: %d intentos, más de %d", in.etiqueta(), len(in.Intentos), IntentosMaximos))
		}
	}
	c = append(c, veredicto("se-rinde",
		fmt.Sprintf("cuando nadie respondía se rindió a tiempo: pocos intentos (%d como mucho) y cada alta terminó sola", IntentosMaximos),
		"reintentar sin tope es un ataque a quien ya está caído y un programa que no termina: un número acotado de intentos, un límite por intento, y se rinde diciendo qué no se sabe (lección 6, §6.3.3 y §6.5.3)",
		fallas, 0, ""))

	// espera-con-jitter
	c = append(c, juzgarEsperas(ins))

	// codigo-de-salida
	fallas = nil
	aparte := 0
	for _, in := range ins {
		switch {
		case in.Arranque != "":
			fallas = append(fallas, in.etiqueta()+": el cliente no arrancó: "+in.Arranque)
		case in.Detenido:
		case culpa[in]:
			aparte++
		case in.Salida == 0 && !in.Registrada:
			fallas = append(fallas, in.etiqueta()+": salió con 0 y el alta no existe")
		case in.Salida != 0 && in.Registrada:
			fallas = append(fallas, fmt.Sprintf("%s: el alta existe y salió con %d", in.etiqueta(), in.Salida))
		}
	}
	c = append(c, veredicto("codigo-de-salida",
		"salió con 0 exactamente cuando el alta quedó hecha",
		"el código de salida es lo que lee un script: 0 solo si el alta existe, distinto de 0 si no o si no se sabe (lección 6, §6.5.4)",
		fallas, aparte, porqueLlave))
	return c
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

func tipoCorto(t string) string {
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
// doubles: the first ones spread, and the later ones reach further than any first one.
func juzgarEsperas(ins []*Intencion) Comprobacion {
	var primeras, despues []time.Duration
	for _, in := range ins {
		for i := 0; i+1 < len(in.Intentos); i++ {
			a := in.Intentos[i]
			if a.RetryAfter > 0 {
				continue
			}
			w := in.Intentos[i+1].Inicio.Sub(a.Fin)
			if i == 0 {
				primeras = append(primeras, w)
			} else {
				despues = append(despues, w)
			}
		}
	}
	var fallas []string
	switch {
	case len(primeras) < 3 || len(despues) < 2:
		fallas = append(fallas, "casi no reintentó: no hubo esperas que medir (sobrevivir a tres fallos seguidos pide al menos 4 intentos)")
	default:
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
		// Spread: apart by more than scheduling noise, and not all near the longest one (a fixed wait
		// on a loaded machine comes back later by a little, never earlier).
		if maxP-minP < DispersionMinima || float64(minP) > 0.7*float64(maxP) {
			fallas = append(fallas, fmt.Sprintf("tras un primer fallo esperó siempre lo mismo (%d esperas casi iguales): sin azar, los clientes que fallan juntos vuelven juntos", len(primeras)))
		}
		if !crecen {
			fallas = append(fallas, "las esperas no crecen: tras el segundo y el tercer fallo no espera más que tras el primero")
		}
	}
	return veredicto("espera-con-jitter",
		"entre intentos esperó cada vez más y al azar (retroceso exponencial con jitter)",
		"las esperas deben crecer con cada fallo y repartirse al azar, no ser fijas: así mil clientes que fallan a la vez no vuelven a la vez (lección 6, §6.4.1 y §6.4.2)",
		fallas, 0, "")
}

func media(l []time.Duration) time.Duration {
	var s time.Duration
	for _, w := range l {
		s += w
	}
	return s / time.Duration(len(l))
}
