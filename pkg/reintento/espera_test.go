package reintento

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"cursohttp/pkg/curso"
	"cursohttp/pkg/problema"
	"cursohttp/pkg/tabladecision"
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
		// Lesson 6, §2.3: no retry ever has a 250 ms ceiling.
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
		{1, 0.001, 1 * ms},      // 0.5 ms rounds up, as Math.round does
		{1, 0.0009, 0},          // 0.45 ms
		{1, 0.999999, 500 * ms}, // the ceiling is reached by rounding
		{2, 0.25, 250 * ms},
		{3, 0.1234, 247 * ms}, // 246.8 ms
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

// The default draw is shared between goroutines: -race watches it.
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
	// No wait after the last attempt: 3 attempts are 2 waits; 4, 3.
	for _, c := range []struct {
		p      Politica
		quedan []bool
		techos []time.Duration
	}{
		{rev, []bool{true, true, false, false}, []time.Duration{500 * time.Millisecond, time.Second}},
		{alta, []bool{true, true, true, false}, []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second}},
	} {
		for i, want := range c.quedan {
			if got := c.p.QuedanIntentos(i + 1); got != want {
				t.Errorf("Intentos=%d: QuedanIntentos(%d) = %v", c.p.Intentos, i+1, got)
			}
		}
		if got := c.p.Techos(); !slices.Equal(got, c.techos) {
			t.Errorf("Intentos=%d: Techos() = %v; quiero %v", c.p.Intentos, got, c.techos)
		}
	}
}

func TestPoliticaEspera(t *testing.T) {
	t.Parallel()
	p := PoliticaRevision()
	p.Azar = fijo(0.5)
	ms := time.Millisecond
	ra := func(s int64) Resultado {
		return Resultado{Respondio: true, Codigo: 503, RetryAfter: s, HayRetryAfter: true}
	}
	casos := []struct {
		nombre   string
		intento  int
		r        Resultado
		espera   Espera
		insistir bool
	}{
		{"sin Retry-After: jitter, techo 500 ms", 1, Resultado{}, Espera{Duracion: 250 * ms, Techo: 500 * ms}, true},
		{"sin Retry-After: jitter, techo 1000 ms", 2, Resultado{Respondio: true, Codigo: 502}, Espera{Duracion: 500 * ms, Techo: 1000 * ms}, true},
		{"Retry-After 0: ya", 1, ra(0), Espera{PorRetryAfter: true}, true},
		{"Retry-After 1: exactamente 1 s, sin jitter", 2, ra(1), Espera{Duracion: time.Second, PorRetryAfter: true}, true},
		{"Retry-After 5: el tope se obedece", 1, ra(5), Espera{Duracion: 5 * time.Second, PorRetryAfter: true}, true},
		{"Retry-After negativo: ya", 1, ra(-3), Espera{PorRetryAfter: true}, true},
		{"Retry-After 6: no se insiste", 1, ra(6), Espera{}, false},
		{"Retry-After 120: no se insiste", 1, ra(120), Espera{}, false},
		{"Retry-After saturado", 1, ra(math.MaxInt64), Espera{}, false},
	}
	for _, c := range casos {
		espera, insistir := p.Espera(c.intento, c.r)
		if espera != c.espera || insistir != c.insistir {
			t.Errorf("%s: Espera = %+v, %v; quiero %+v, %v", c.nombre, espera, insistir, c.espera, c.insistir)
		}
	}
}

func TestReglas(t *testing.T) {
	t.Parallel()
	enCurso := curso.Problemas + string(problema.LlaveEnCurso)
	repetido := curso.Problemas + string(problema.NombreRepetido)
	for codigo := 0; codigo < 1000; codigo++ {
		r := Resultado{Respondio: true, Codigo: codigo}
		if got, want := ReglaRevision().Reintentable(r), codigo == 429 || codigo == 502 || codigo == 503 || codigo == 504; got != want {
			t.Errorf("revisión, %d: %v", codigo, got)
		}
		if got, want := ReglaAlta().Reintentable(r), codigo == 502 || codigo == 503 || codigo == 504; got != want {
			t.Errorf("alta, %d: %v", codigo, got)
		}
	}
	casos := []struct {
		nombre         string
		r              Resultado
		revision, alta bool
	}{
		{"sin respuesta", Resultado{}, true, true},
		{"sin respuesta y definitivo (destino prohibido)", Resultado{Definitivo: true}, false, false},
		{"409 llave-en-curso", Resultado{Respondio: true, Codigo: 409, Type: enCurso}, false, true},
		{"409 nombre-repetido", Resultado{Respondio: true, Codigo: 409, Type: repetido}, false, false},
		{"409 sin type", Resultado{Respondio: true, Codigo: 409}, false, false},
		{"422 con el type de llave-en-curso", Resultado{Respondio: true, Codigo: 422, Type: enCurso}, false, false},
		{"409 con el type en mayúsculas", Resultado{Respondio: true, Codigo: 409, Type: strings.ToUpper(enCurso)}, false, false},
		{"503 con Retry-After largo: la regla no mira la espera", Resultado{Respondio: true, Codigo: 503, RetryAfter: 120, HayRetryAfter: true}, true, true},
	}
	for _, c := range casos {
		if got := ReglaRevision().Reintentable(c.r); got != c.revision {
			t.Errorf("revisión, %s: %v", c.nombre, got)
		}
		if got := ReglaAlta().Reintentable(c.r); got != c.alta {
			t.Errorf("alta, %s: %v", c.nombre, got)
		}
	}
}

// The lesson-6 rules and the lesson-7 decision table answer the same question. They agree on
// every status, and on every type a rule or the table names (sent with the status the revisor sends
// it with), except where a lesson chose otherwise; this test is where those choices are written down.
func TestReglasYTablaDeDecision(t *testing.T) {
	t.Parallel()
	tipo := func(c problema.Clave) string { return curso.Problemas + string(c) }
	distintos := map[string]map[string]string{
		"revisión": {
			"408":                                "lesson 7 added the row (RFC 9110, 15.5.9); the checks predate it",
			"425":                                "lesson 7 added the row (RFC 8470, 5.2); the checks predate it",
			"409 " + tipo(problema.LlaveEnCurso): "the checks never read a body: the services they watch need not speak Problem Details",
		},
		"alta": {
			"408": "lesson 7 added the row; alta-segura predates it",
			"425": "lesson 7 added the row; alta-segura predates it",
			"429": "the course's reintentable does not list it",
			"429 " + tipo(problema.DemasiadasRevisiones): "the course's reintentable does not list 429",
			"429 " + tipo(problema.DemasiadasConsultas):  "the course's reintentable does not list 429",
		},
	}
	reglas := map[string]Regla{"revisión": ReglaRevision(), "alta": ReglaAlta()}
	comparar := func(clave string, r Resultado, tabla bool) {
		for nombre, regla := range reglas {
			_, esperado := distintos[nombre][clave]
			if got := regla.Reintentable(r); (got != tabla) != esperado {
				t.Errorf("%s, %s: la regla dice %v y la tabla %v", nombre, clave, got, tabla)
			}
		}
	}
	for codigo := 100; codigo <= 599; codigo++ {
		comparar(strconv.Itoa(codigo), Resultado{Respondio: true, Codigo: codigo}, tabladecision.Decidir(codigo, nil, nil).Reintenta)
	}
	for _, c := range []struct {
		codigo int
		clave  problema.Clave
	}{
		{409, problema.LlaveEnCurso}, {409, problema.NombreRepetido}, {422, problema.LlaveReutilizada},
		{422, problema.DestinoProhibido}, {410, problema.ServicioRetirado}, {503, problema.EnMantenimiento},
		{429, problema.DemasiadasRevisiones}, {429, problema.DemasiadasConsultas},
	} {
		ty := tipo(c.clave)
		r := Resultado{Respondio: true, Codigo: c.codigo, Type: ty}
		comparar(fmt.Sprintf("%d %s", c.codigo, ty), r, tabladecision.Decidir(c.codigo, nil, &ty).Reintenta)
	}
	for _, sin := range []string{tabladecision.TiempoAgotado, tabladecision.SinConexion, tabladecision.RespuestaInvalida, tabladecision.DestinoProhibido} {
		r := Resultado{Definitivo: sin == tabladecision.DestinoProhibido}
		comparar(sin, r, tabladecision.DecidirSinRespuesta(sin).Reintenta)
	}
}
