package reintento

import (
	"math"
	"math/rand/v2"
	"time"
)

// Números del curso. Los dos clientes comparten base, techo y tope de
// Retry-After; cambia cuántas veces insisten.
const (
	// Chequeos del revisor (lección 6, §6.4.4): hasta 3 intentos por chequeo.
	IntentosRevision = 3
	// alta-segura (lección 6, §6.5.2): hasta 4 intentos, con la misma llave.
	IntentosAlta = 4
	// Límite de cada intento de alta-segura si ALTA_LIMITE_MS no da otro (§6.5.2).
	LimiteIntentoAlta = 2000 * time.Millisecond

	// Retroceso exponencial con jitter completo (§6.4.1-6.4.2): base × 2^intento, hasta el techo.
	BaseRetroceso = 250 * time.Millisecond
	TopeRetroceso = 2 * time.Second

	// Si Retry-After pide más que esto no se insiste: se informa lo que dijo (§6.4.3).
	TopeRetryAfter = 5 * time.Second
)

// Techo es la espera máxima antes del reintento que sigue al intento número
// intento: min(tope, base·2^intento). Con el curso da 500 ms, 1000 ms y luego
// 2000 ms. Un intento enorme no desborda: se llega al tope y se para.
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

// EsperaConJitter sortea una espera en [0, Techo] con jitter completo, en
// milésimas enteras como el curso: si mil clientes fallan juntos, no vuelven
// juntos. azar debe dar valores en [0, 1); nil usa math/rand/v2, que es seguro
// entre goroutines. Las pruebas lo inyectan para fijar el resultado.
func EsperaConJitter(intento int, base, tope time.Duration, azar func() float64) time.Duration {
	if azar == nil {
		azar = rand.Float64
	}
	x := azar()
	switch {
	case !(x >= 0): // también NaN
		x = 0
	case x > 1:
		x = 1
	}
	techo := Techo(intento, base, tope)
	ms := math.Round(x * float64(techo) / float64(time.Millisecond))
	if ms >= float64(math.MaxInt64/int64(time.Millisecond)) {
		return techo
	}
	return time.Duration(ms) * time.Millisecond
}

// ReintentableCodigo dice si una respuesta puede arreglarse sola según la
// regla de los chequeos del revisor (§6.3.2): 429, 502, 503 y 504. El 500 no:
// un defecto del servidor suele repetirse igual.
func ReintentableCodigo(codigo int) bool {
	switch codigo {
	case 429, 502, 503, 504:
		return true
	}
	return false
}

// Politica junta cuántas veces insistir y cuánto esperar entre intentos.
// Responde solo a «¿cuándo?»; «¿vale la pena?» (el código, el type) y «¿es
// seguro repetir?» (el método, la llave) los decide quien llama.
type Politica struct {
	Intentos       int           // intentos en total, contando el primero
	Base, Tope     time.Duration // del retroceso con jitter
	TopeRetryAfter time.Duration // Retry-After por encima de esto: no se insiste
	Azar           func() float64
}

// PoliticaRevision es la de los chequeos del revisor (§6.4.4).
func PoliticaRevision() Politica {
	return Politica{Intentos: IntentosRevision, Base: BaseRetroceso, Tope: TopeRetroceso, TopeRetryAfter: TopeRetryAfter}
}

// PoliticaAlta es la de alta-segura (§6.5.2).
func PoliticaAlta() Politica {
	return Politica{Intentos: IntentosAlta, Base: BaseRetroceso, Tope: TopeRetroceso, TopeRetryAfter: TopeRetryAfter}
}

// QuedanIntentos dice si tras fallar el intento número intento (desde 1)
// queda otro. Se pregunta antes de esperar: dormir para descubrir que no
// queda nada es tiempo perdido.
func (p Politica) QuedanIntentos(intento int) bool {
	return intento < p.Intentos
}

// Espera dice cuánto esperar tras fallar el intento número intento (desde 1).
// Con Retry-After (hay=true) obedece exactamente si no pasa del tope, y si
// pasa devuelve insistir=false: volver antes de lo pedido sería desobedecer,
// y lo honesto es no insistir y decir por qué. Sin Retry-After, jitter completo.
func (p Politica) Espera(intento int, retryAfterS int64, hay bool) (espera time.Duration, insistir bool) {
	if hay {
		s := max(retryAfterS, 0)
		if s > int64(p.TopeRetryAfter/time.Second) {
			return 0, false
		}
		return time.Duration(s) * time.Second, true
	}
	return EsperaConJitter(intento, p.Base, p.Tope, p.Azar), true
}
