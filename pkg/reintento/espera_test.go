package reintento

import (
	"math"
	"sync"
	"testing"
	"time"
)

func fijo(x float64) func() float64 { return func() float64 { return x } }

func TestTecho(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	casos := []struct {
		intento    int
		base, tope time.Duration
		want       time.Duration
	}{
		// Lección 6, §2.3: nunca hay un techo de 250 ms en los reintentos.
		{1, BaseRetroceso, TopeRetroceso, 500 * ms},
		{2, BaseRetroceso, TopeRetroceso, 1000 * ms},
		{3, BaseRetroceso, TopeRetroceso, 2000 * ms},
		{4, BaseRetroceso, TopeRetroceso, 2000 * ms},
		{0, BaseRetroceso, TopeRetroceso, 250 * ms},
		{-3, BaseRetroceso, TopeRetroceso, 250 * ms},
		{64, BaseRetroceso, TopeRetroceso, 2000 * ms},
		{math.MaxInt, BaseRetroceso, TopeRetroceso, 2000 * ms},
		{math.MaxInt, time.Duration(math.MaxInt64 / 3), time.Duration(math.MaxInt64), time.Duration(math.MaxInt64)},
		{1, 3 * time.Second, TopeRetroceso, 2000 * ms},
		{5, 0, TopeRetroceso, 0},
		{5, BaseRetroceso, 0, 0},
	}
	for _, c := range casos {
		if got := Techo(c.intento, c.base, c.tope); got != c.want {
			t.Errorf("Techo(%d, %v, %v) = %v; quiero %v", c.intento, c.base, c.tope, got, c.want)
		}
	}
}

func TestEsperaConJitter(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	casos := []struct {
		intento int
		azar    float64
		want    time.Duration
	}{
		{1, 0, 0},
		{1, 0.5, 250 * ms},
		{1, 0.001, 1 * ms},      // 0,5 ms se redondea hacia arriba, como Math.round
		{1, 0.0009, 0},          // 0,45 ms
		{1, 0.999999, 500 * ms}, // el techo se alcanza redondeando
		{2, 0.25, 250 * ms},
		{3, 0.1234, 247 * ms}, // 246,8 ms
		{9, 0.5, 1000 * ms},
		{1, math.NaN(), 0},
		{1, -1, 0},
		{1, 7, 500 * ms},
	}
	for _, c := range casos {
		got := EsperaConJitter(c.intento, BaseRetroceso, TopeRetroceso, fijo(c.azar))
		if got != c.want {
			t.Errorf("EsperaConJitter(%d, azar=%v) = %v; quiero %v", c.intento, c.azar, got, c.want)
		}
	}
	enorme := time.Duration(math.MaxInt64)
	if got := EsperaConJitter(1, enorme, enorme, fijo(1)); got != enorme {
		t.Errorf("sin desborde: %v", got)
	}
}

// El azar por omisión se comparte entre goroutines: -race lo vigila.
func TestEsperaConJitterPorOmision(t *testing.T) {
	t.Parallel()
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for intento := 1; intento <= 200; intento++ {
				techo := Techo(intento, BaseRetroceso, TopeRetroceso)
				got := EsperaConJitter(intento, BaseRetroceso, TopeRetroceso, nil)
				if got < 0 || got > techo || got%time.Millisecond != 0 {
					t.Errorf("intento %d: %v fuera de [0, %v] o no en milisegundos", intento, got, techo)
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestReintentableCodigo(t *testing.T) {
	t.Parallel()
	for codigo := 0; codigo < 1000; codigo++ {
		want := codigo == 429 || codigo == 502 || codigo == 503 || codigo == 504
		if got := ReintentableCodigo(codigo); got != want {
			t.Errorf("ReintentableCodigo(%d) = %v", codigo, got)
		}
	}
}

func TestPoliticas(t *testing.T) {
	t.Parallel()
	rev, alta := PoliticaRevision(), PoliticaAlta()
	if rev.Intentos != 3 || rev.Base != 250*time.Millisecond || rev.Tope != 2*time.Second || rev.TopeRetryAfter != 5*time.Second {
		t.Errorf("revisión: %+v", rev)
	}
	if alta.Intentos != 4 || alta.Base != 250*time.Millisecond || alta.Tope != 2*time.Second || alta.TopeRetryAfter != 5*time.Second {
		t.Errorf("alta: %+v", alta)
	}
	if LimiteIntentoAlta != 2000*time.Millisecond {
		t.Errorf("límite de alta: %v", LimiteIntentoAlta)
	}
	// Sin espera después del último intento: 3 intentos son 2 esperas; 4, 3.
	for _, c := range []struct {
		p      Politica
		quedan []bool
	}{{rev, []bool{true, true, false, false}}, {alta, []bool{true, true, true, false}}} {
		for i, want := range c.quedan {
			if got := c.p.QuedanIntentos(i + 1); got != want {
				t.Errorf("Intentos=%d: QuedanIntentos(%d) = %v", c.p.Intentos, i+1, got)
			}
		}
	}
}

func TestPoliticaEspera(t *testing.T) {
	t.Parallel()
	p := PoliticaRevision()
	p.Azar = fijo(0.5)
	casos := []struct {
		nombre   string
		intento  int
		ra       int64
		hay      bool
		espera   time.Duration
		insistir bool
	}{
		{"sin Retry-After: jitter, techo 500 ms", 1, 0, false, 250 * time.Millisecond, true},
		{"sin Retry-After: jitter, techo 1000 ms", 2, 0, false, 500 * time.Millisecond, true},
		{"Retry-After 0: ya", 1, 0, true, 0, true},
		{"Retry-After 1: exactamente 1 s, sin jitter", 2, 1, true, time.Second, true},
		{"Retry-After 5: el tope se obedece", 1, 5, true, 5 * time.Second, true},
		{"Retry-After 6: no se insiste", 1, 6, true, 0, false},
		{"Retry-After 120: no se insiste", 1, 120, true, 0, false},
		{"Retry-After saturado", 1, math.MaxInt64, true, 0, false},
	}
	for _, c := range casos {
		espera, insistir := p.Espera(c.intento, c.ra, c.hay)
		if espera != c.espera || insistir != c.insistir {
			t.Errorf("%s: Espera = %v, %v; quiero %v, %v", c.nombre, espera, insistir, c.espera, c.insistir)
		}
	}
}
