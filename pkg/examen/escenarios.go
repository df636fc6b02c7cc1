package examen

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"

	"cursohttp/pkg/curso"
	"cursohttp/pkg/pasarela"
	"cursohttp/pkg/problema"
	"cursohttp/pkg/respuesta"
)

// Espera is what a correct client ends a scenario's intent with.
type Espera int

const (
	// Registra: the registration can be made and a correct client makes it (exactly one service).
	Registra Espera = iota + 1
	// Puede: a correct client may make it or give up honestly (a 429 it chooses not to wait for).
	Puede
	// NoRegistra: nothing a client does makes it; a correct client gives up and says so.
	NoRegistra
)

// Escenario is one situation the client is put in: what the gateway does to each attempt of an
// intent (Guion[n], the last one repeating: nil forwards the request untouched), the URL the
// intent registers, and how many intents of it run one after another (two names: two intents).
type Escenario struct {
	ID     string
	Titulo string // what happens, in the course's words
	Guion  []pasarela.Falla
	URL    string
	Espera Espera
	Veces  int // intents run one after another; 0 is 1
	// MismoCuerpo: the intents register the same name and URL, on purpose, one after another (the
	// lesson's «register it again later»): the second must get its own key and the revisor's 409
	// nombre-repetido, not the first one's 201 replayed.
	MismoCuerpo bool
}

// The numbers of the contract (docs/comprobar.md, revisor comprobar cliente --help).
const (
	// RetryAfterCorto is what the 503 and the 429 ask for: the course's 2 s.
	RetryAfterCorto = 2
	// RetryAfterLargo is longer than any intent may last: the only right answer is to give up.
	RetryAfterLargo = 3600
	// IntentosMinimos: a correct client survives three failures in a row (alta-segura makes 4).
	IntentosMinimos = 4
	// EsperaPorIntento: an attempt must stop waiting for an answer after this long at most.
	EsperaPorIntento = 10
	// Intermitentes is how many intents fail three times before passing: the waits that show
	// whether the client's backoff grows and is random need several of them.
	Intermitentes = 4
)

// URLServicio is the service each intent registers: the laboratory's 200 (nothing is probed at
// registration); URLInvalida makes the revisor's own 422.
const (
	URLServicio = curso.URLLaboratorio + "/codigo/200"
	URLInvalida = "ftp://archivos"
)

func falla(modo string) pasarela.Falla {
	f, err := pasarela.LeerFalla(modo)
	if err != nil {
		panic(err) // the modes below are constants
	}
	return f
}

func conRetryAfter(clave problema.Clave, detail string, segundos int) pasarela.Falla {
	return pasarela.Responder{Clave: clave, Detail: detail,
		Cabeceras: []respuesta.Cabecera{{Nombre: "Retry-After", Valor: strconv.Itoa(segundos)}}}
}

// fallasIntermitentes are what an intermittent intent's three failures are drawn from: none reaches
// the revisor, so even a client without a key meets all three and shows its waits.
var fallasIntermitentes = []string{"rechazar", "codigo:502", "codigo:503", "codigo:504", "colgar"}

// Escenarios are every scenario of a run; the seed draws the failures of the intermittent ones.
func Escenarios(semilla uint64) []Escenario {
	gen := rand.New(rand.NewPCG(semilla, semilla^0x5deece66d))
	pasar := pasarela.Falla(nil)
	e := []Escenario{
		{ID: "sin-falla", Titulo: "nada falla", Guion: []pasarela.Falla{pasar}, Espera: Registra},
		{ID: "perdida", Titulo: "el revisor da de alta y la pasarela pierde su 201 (502)", Guion: []pasarela.Falla{falla("perder"), pasar}, Espera: Registra},
		{ID: "perdida-doble", Titulo: "la pasarela pierde la respuesta dos veces", Guion: []pasarela.Falla{falla("perder"), falla("perder"), pasar}, Espera: Registra},
		{ID: "rechazada", Titulo: "la pasarela responde 502 sin reenviar", Guion: []pasarela.Falla{falla("rechazar"), pasar}, Espera: Registra},
		{ID: "cortada", Titulo: "la respuesta se corta a mitad del cuerpo", Guion: []pasarela.Falla{falla("cortar"), pasar}, Espera: Registra},
		{ID: "reiniciada", Titulo: "la conexión se reinicia (ECONNRESET) tras el alta", Guion: []pasarela.Falla{falla("reiniciar"), pasar}, Espera: Registra},
		{ID: "estancada", Titulo: "la respuesta no llega nunca: hay que dejar de esperarla", Guion: []pasarela.Falla{falla("lento:99999"), pasar}, Espera: Registra},
		{ID: "503-retry-after", Titulo: fmt.Sprintf("503 con Retry-After: %d", RetryAfterCorto),
			Guion: []pasarela.Falla{conRetryAfter(problema.EnMantenimiento, "el revisor está en mantenimiento; vuelve en "+strconv.Itoa(RetryAfterCorto)+" s", RetryAfterCorto), pasar}, Espera: Registra},
		{ID: "429-retry-after", Titulo: fmt.Sprintf("429 con Retry-After: %d", RetryAfterCorto),
			Guion: []pasarela.Falla{conRetryAfter(problema.AltasEnCurso, "tu credencial tiene demasiadas altas en curso; espera y repite", RetryAfterCorto), pasar}, Espera: Puede},
		{ID: "retry-after-largo", Titulo: fmt.Sprintf("503 con Retry-After: %d, siempre", RetryAfterLargo),
			Guion: []pasarela.Falla{conRetryAfter(problema.EnMantenimiento, "el revisor está en mantenimiento; vuelve en una hora", RetryAfterLargo)}, Espera: NoRegistra},
		{ID: "llave-en-curso", Titulo: "409 llave-en-curso, y luego el 201",
			Guion: []pasarela.Falla{pasarela.Responder{Clave: problema.LlaveEnCurso, Detail: "la petición original con esa llave todavía no termina"}, pasar}, Espera: Registra},
		{ID: "422", Titulo: "422: la URL no es http ni https", Guion: []pasarela.Falla{pasar}, URL: URLInvalida, Espera: NoRegistra},
		{ID: "400", Titulo: "400 cuerpo-ilegible, siempre",
			Guion: []pasarela.Falla{pasarela.Responder{Clave: problema.CuerpoIlegible, Detail: "el cuerpo no es JSON válido"}}, Espera: NoRegistra},
		{ID: "caida", Titulo: "nadie responde nunca: cada conexión se corta sin respuesta", Guion: []pasarela.Falla{pasarela.Colgar{}}, Espera: NoRegistra},
		{ID: "dos-intenciones", Titulo: "dos altas seguidas, dos nombres, cada una pierde su primera respuesta",
			Guion: []pasarela.Falla{falla("perder"), pasar}, Espera: Registra, Veces: 2},
		{ID: "mismo-cuerpo", Titulo: "el mismo alta dos veces, a propósito, una tras otra: la segunda es otra intención (409 nombre-repetido)",
			Guion: []pasarela.Falla{pasar}, Espera: Registra, Veces: 2, MismoCuerpo: true},
		{ID: "409-nombre-repetido", Titulo: "409 nombre-repetido: esperar no lo arregla",
			Guion: []pasarela.Falla{pasarela.Responder{Clave: problema.NombreRepetido, Detail: "ya hay un servicio con ese nombre"}}, Espera: NoRegistra},
		{ID: "403", Titulo: "403 permiso-insuficiente, siempre",
			Guion: []pasarela.Falla{pasarela.Responder{Clave: problema.PermisoInsuficiente, Detail: "esa credencial no puede dar de alta servicios"}}, Espera: NoRegistra},
		{ID: "401", Titulo: "401 credencial-invalida, siempre",
			Guion: []pasarela.Falla{pasarela.Responder{Clave: problema.CredencialInvalida, Detail: "la credencial venció"}}, Espera: NoRegistra},
	}
	for i := range Intermitentes {
		g := make([]pasarela.Falla, 0, IntentosMinimos)
		var titulo string
		for range IntentosMinimos - 1 {
			modo := fallasIntermitentes[gen.IntN(len(fallasIntermitentes))]
			if modo == "colgar" {
				g = append(g, pasarela.Colgar{})
			} else {
				g = append(g, falla(modo))
			}
			titulo += modo + ", "
		}
		e = append(e, Escenario{ID: "intermitente-" + strconv.Itoa(i+1), Titulo: titulo + "y luego pasa",
			Guion: append(g, pasar), Espera: Registra})
	}
	return e
}

// guion is the fault of attempt n (from 0) of an intent of e.
func (e *Escenario) falla(n int) pasarela.Falla {
	return e.Guion[min(n, len(e.Guion)-1)]
}

// url is the URL an intent of e registers, with the run's secret in its query: a request of
// another run (the same seed, another grading whose client ignored PASARELA_URL) is told apart.
func (e *Escenario) url(secreto string) string {
	u := e.URL
	if u == "" {
		u = URLServicio
	}
	return u + "?calificacion=" + secreto
}

func (e *Escenario) veces() int { return max(e.Veces, 1) }

// sinFin says that nobody ever answers the scenario's attempts (caida): the only way out is to give
// up, which se-rinde judges.
func (e *Escenario) sinFin() bool {
	f := e.Guion[len(e.Guion)-1]
	_, responde := f.(pasarela.Responder)
	return e.Espera == NoRegistra && f != nil && !responde
}

// retiene is how long a fault holds an answer on purpose (lento:MS), by what it says of itself.
func retiene(f pasarela.Falla) time.Duration {
	if r, ok := f.(interface{ Retiene() time.Duration }); ok {
		return r.Retiene()
	}
	return 0
}

// retryAfter is the Retry-After a scripted answer carries, in seconds; 0 when none.
func retryAfter(f pasarela.Falla) int {
	r, ok := f.(pasarela.Responder)
	if !ok {
		return 0
	}
	for _, c := range r.Cabeceras {
		if http.CanonicalHeaderKey(c.Nombre) == "Retry-After" {
			n, _ := strconv.Atoi(c.Valor)
			return n
		}
	}
	return 0
}
