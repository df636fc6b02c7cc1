package reintento

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"cursohttp/pkg/curso"
)

// The course's numbers. Both clients share the base, the ceiling and the Retry-After cap; they
// differ in how many times they insist and in what they think may fix itself.
const (
	// The revisor's checks (lesson 6, §6.4.4): up to 3 attempts per check.
	IntentosRevision = 3
	// alta-segura (lesson 6, §6.5.2): up to 4 attempts, all with the same key.
	IntentosAlta = 4
	// alta-segura's limit per attempt when ALTA_LIMITE_MS gives no other (§6.5.2).
	LimiteIntentoAlta = 2000 * time.Millisecond

	// Exponential backoff with full jitter (§6.4.1-6.4.2): base × 2^attempt, up to the ceiling.
	BaseRetroceso = 250 * time.Millisecond
	TopeRetroceso = 2 * time.Second

	// A Retry-After asking for more than this is not insisted on: the client reports what it
	// said (§6.4.3).
	TopeRetryAfter = 5 * time.Second
)

// Techo is the longest wait before the retry that follows attempt number intento:
// min(tope, base·2^intento). With the course's numbers: 500 ms, 1000 ms, then 2000 ms. A huge
// attempt number does not overflow: it reaches the ceiling and stops there.
func Techo(intento int, base, tope time.Duration) time.Duration {
	if base <= 0 || tope <= 0 {
		return 0
	}
	t := base
	for i := 0; i < intento && t < tope; i++ {
		if t > tope/2 {
			return tope
		}
		t *= 2
	}
	return min(t, tope)
}

// EsperaConJitter draws a wait in [0, Techo] with full jitter, in whole milliseconds as the course
// does: when a thousand clients fail together, they do not come back together. azar must return
// values in [0, 1); nil uses math/rand/v2, which is safe across goroutines. Tests inject it to pin
// the result.
func EsperaConJitter(intento int, base, tope time.Duration, azar func() float64) time.Duration {
	return sortear(Techo(intento, base, tope), azar)
}

// sortear draws a whole number of milliseconds in [0, techo].
func sortear(techo time.Duration, azar func() float64) time.Duration {
	if azar == nil {
		azar = rand.Float64
	}
	x := azar()
	switch {
	case !(x >= 0): // NaN too
		x = 0
	case x > 1:
		x = 1
	}
	ms := math.Round(x * float64(techo) / float64(time.Millisecond))
	if ms >= float64(math.MaxInt64/int64(time.Millisecond)) {
		return techo
	}
	return time.Duration(ms) * time.Millisecond
}

// Resultado is what the retry engine sees of one attempt: whether an HTTP answer came, its status,
// its Problem Details type when the caller reads one, and its Retry-After.
type Resultado struct {
	Respondio     bool
	Codigo        int
	Type          string // "" when the caller does not read bodies (the revisor's probe)
	RetryAfter    int64  // seconds, when HayRetryAfter
	HayRetryAfter bool
	// Definitivo marks a missing answer that waiting cannot bring: a destination the SSRF rules
	// refuse stays refused.
	Definitivo bool
}

// Regla is the one answer to the first question of lesson 6, §6.3 — can this fix itself by
// waiting? — kept as data so a program can also say it in words (alta-segura's help). No answer
// may, unless Definitivo; an answer may when its status is in Codigos, or its status and type are
// one of Types. Everything else (a success included) is final.
//
// The lesson-7 decision table (pkg/tabladecision) answers the same question for its six actions; the
// tests of this package show where the two lessons' clients agree with it and where they chose
// otherwise.
type Regla struct {
	Codigos []int
	Types   []ConType
}

// ConType is a status worth waiting for only with this Problem Details type: the same 409 means
// "the original request is still running" (wait) or "that name exists" (final) by its type.
type ConType struct {
	Codigo int
	Type   string
}

// Reintentable reports whether r may fix itself by waiting.
func (g Regla) Reintentable(r Resultado) bool {
	if !r.Respondio {
		return !r.Definitivo
	}
	if slices.Contains(g.Codigos, r.Codigo) {
		return true
	}
	return slices.Contains(g.Types, ConType{r.Codigo, r.Type})
}

// ReglaRevision is the revisor's checks' rule (§6.3.2): no answer, 429, 502, 503 and 504. A 500
// is not: a server's defect usually repeats itself.
func ReglaRevision() Regla {
	return Regla{Codigos: []int{429, 502, 503, 504}}
}

// ReglaAlta is alta-segura's rule (§6.5.2): no answer, 502, 503, 504, and a 409 whose type says
// the original request is still in progress, recognised by its type alone. Unlike the checks'
// rule it does not list 429: the course's reintentable does not.
func ReglaAlta() Regla {
	return Regla{
		Codigos: []int{502, 503, 504},
		Types:   []ConType{{409, curso.Problemas + "llave-en-curso"}},
	}
}

// Politica is one client's whole retry policy, as go-retryablehttp's Client{RetryMax, CheckRetry,
// Backoff} is: how many attempts, what is worth retrying, how long to wait, and how it waits. It
// does not decide whether repeating is safe (the method, the key): that is the caller's.
type Politica struct {
	Intentos       int           // attempts in all, the first included
	Regla          Regla         // what may fix itself by waiting
	Base, Tope     time.Duration // of the full-jitter backoff
	TopeRetryAfter time.Duration // a Retry-After above this is not insisted on

	Azar   func() float64                             // the jitter draw; nil: math/rand/v2
	Dormir func(context.Context, time.Duration) error // nil: Dormir, a timer ctx cuts short
}

// PoliticaRevision is the revisor's checks' policy (§6.4.4).
func PoliticaRevision() Politica {
	return Politica{Intentos: IntentosRevision, Regla: ReglaRevision(), Base: BaseRetroceso, Tope: TopeRetroceso, TopeRetryAfter: TopeRetryAfter}
}

// PoliticaAlta is alta-segura's policy (§6.5.2).
func PoliticaAlta() Politica {
	return Politica{Intentos: IntentosAlta, Regla: ReglaAlta(), Base: BaseRetroceso, Tope: TopeRetroceso, TopeRetryAfter: TopeRetryAfter}
}

// Reintentable reports whether r may fix itself by waiting, by the policy's rule.
func (p Politica) Reintentable(r Resultado) bool { return p.Regla.Reintentable(r) }

// QuedanIntentos reports whether another attempt is left after attempt number intento (from 1).
// It is asked before waiting: sleeping to find out that nothing is left is time lost.
func (p Politica) QuedanIntentos(intento int) bool {
	return intento < p.Intentos
}

// Techo is the ceiling of the jittered wait after attempt number intento (from 1).
func (p Politica) Techo(intento int) time.Duration {
	return Techo(intento, p.Base, p.Tope)
}

// Techos are the ceilings of the waits between the policy's attempts, in order: with the course's
// numbers and four attempts, 500, 1000 and 2000 ms.
func (p Politica) Techos() []time.Duration {
	var techos []time.Duration
	for n := 1; p.QuedanIntentos(n); n++ {
		techos = append(techos, p.Techo(n))
	}
	return techos
}

// Espera is one wait between attempts, with what a client may want to say about it.
type Espera struct {
	Duracion      time.Duration
	PorRetryAfter bool          // Retry-After set it, exactly
	Techo         time.Duration // the ceiling it was drawn under; 0 when Retry-After set it
}

// Espera says how long to wait after attempt number intento (from 1) ended in r. With a
// Retry-After it obeys exactly when it is within TopeRetryAfter, and otherwise returns
// insistir=false: coming back earlier than asked would be disobeying, and the honest thing is not
// to insist and say why. Without one, full jitter under Techo(intento).
func (p Politica) Espera(intento int, r Resultado) (e Espera, insistir bool) {
	if r.HayRetryAfter {
		s := max(r.RetryAfter, 0)
		if s > int64(p.TopeRetryAfter/time.Second) {
			return Espera{}, false
		}
		return Espera{Duracion: time.Duration(s) * time.Second, PorRetryAfter: true}, true
	}
	techo := p.Techo(intento)
	return Espera{Duracion: sortear(techo, p.Azar), Techo: techo}, true
}
