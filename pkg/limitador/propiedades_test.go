package limitador

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"
	"time"
)

// config is one limiter to test; nuevo builds identical ones so a run can be replayed.
type config struct {
	nombre  string
	cuota   int
	ventana time.Duration
	nuevo   func() Limitador
}

func configs(r *rand.Rand, garantizan bool) []config {
	ventanas := []time.Duration{time.Minute, time.Second, 7 * time.Millisecond, 1000003, 10, 1}
	var cs []config
	for _, w := range ventanas {
		q := 1 + r.Intn(7)
		cs = append(cs,
			config{fmt.Sprintf("deslizante q=%d w=%s", q, w), q, w, func() Limitador { return NuevaVentanaDeslizante(q, w) }},
			config{fmt.Sprintf("cubeta q=%d w=%s", q, w), q, w, func() Limitador { return NuevaCubeta(q, w) }},
		)
		for b := 1; b <= q; b++ {
			cs = append(cs, config{fmt.Sprintf("cubeta q=%d ráfaga=%d w=%s", q, b, w), q, w,
				func() Limitador { return NuevaCubetaConRafaga(q, b, w) }})
		}
		if !garantizan {
			cs = append(cs, config{fmt.Sprintf("ventana q=%d w=%s", q, w), q, w, func() Limitador { return NuevaVentanaFija(q, w) }})
		}
	}
	return cs
}

// instantes makes a sorted sequence of request times with a mix of shapes that reach the
// boundaries: exact multiples of the window and of window/quota, bursts, and random gaps.
func instantes(r *rand.Rand, n, cuota int, w time.Duration) []time.Time {
	saltos := []time.Duration{0, 1, w - 1, w, w + 1, w / time.Duration(cuota), w/time.Duration(cuota) - 1,
		w / time.Duration(cuota+1), 2 * w / time.Duration(cuota+1), w / 2}
	t := origen
	ts := make([]time.Time, 0, n)
	for len(ts) < n {
		switch r.Intn(4) {
		case 0: // a burst at one instant
			for range 1 + r.Intn(2*cuota) {
				ts = append(ts, t)
			}
		case 1:
			t = t.Add(max(saltos[r.Intn(len(saltos))], 0))
		case 2:
			t = t.Add(time.Duration(r.Int63n(int64(2*w) + 1)))
		case 3:
			t = t.Add(time.Duration(r.Int63n(int64(w)/int64(cuota) + 1)))
		}
		ts = append(ts, t)
	}
	return ts[:n]
}

// excede returns the first window of length w that holds more than cuota of the allowed times.
func excede(permitidas []time.Time, cuota int, w time.Duration) (time.Time, int, bool) {
	j := 0
	for i := range permitidas {
		for j < len(permitidas) && permitidas[j].Sub(permitidas[i]) < w {
			j++
		}
		if j-i > cuota {
			return permitidas[i], j - i, true
		}
	}
	return time.Time{}, 0, false
}

func TestNingunaVentanaExcedeLaCuota(t *testing.T) {
	t.Parallel()
	for semilla := int64(1); semilla <= 40; semilla++ {
		t.Run(fmt.Sprint(semilla), func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewSource(semilla))
			for _, c := range configs(r, true) {
				l := c.nuevo()
				var permitidas []time.Time
				for _, ahora := range instantes(r, 400, c.cuota, c.ventana) {
					if l.Permitir("k", ahora).Permitido {
						permitidas = append(permitidas, ahora)
					}
				}
				if desde, n, mal := excede(permitidas, c.cuota, c.ventana); mal {
					t.Fatalf("semilla %d, %s: %d permitidas en la ventana que empieza en %s", semilla, c.nombre, n, desde.Sub(origen))
				}
			}
		})
	}
}

// Goroutines that read the clock and then wait for the mutex hand in times slightly out of
// order. The limiter counts such a request at the latest instant it has seen, so the guarantee
// holds on that timeline.
func TestFueraDeOrden(t *testing.T) {
	t.Parallel()
	for semilla := int64(1); semilla <= 20; semilla++ {
		t.Run(fmt.Sprint(semilla), func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewSource(semilla))
			for _, c := range configs(r, true) {
				ts := instantes(r, 400, c.cuota, c.ventana)
				for i := 1; i < len(ts); i++ {
					if r.Intn(3) == 0 {
						ts[i-1], ts[i] = ts[i], ts[i-1]
					}
				}
				l := c.nuevo()
				var permitidas []time.Time
				visto := ts[0]
				for _, ahora := range ts {
					visto = posterior(ahora, visto)
					if l.Permitir("k", ahora).Permitido {
						permitidas = append(permitidas, visto)
					}
				}
				if desde, n, mal := excede(permitidas, c.cuota, c.ventana); mal {
					t.Fatalf("%s: %d permitidas en la ventana que empieza en %s", c.nombre, n, desde.Sub(origen))
				}
			}
		})
	}
}

// The checker itself must catch the fixed window's double at a boundary.
func TestLaVentanaFijaSiExcede(t *testing.T) {
	t.Parallel()
	l := NuevaVentanaFija(3, time.Second)
	var permitidas []time.Time
	for _, ms := range []int{0, 950, 960, 1005, 1010, 1015, 1020} {
		if l.Permitir("demo", en(ms)).Permitido {
			permitidas = append(permitidas, en(ms))
		}
	}
	if _, n, mal := excede(permitidas, 3, time.Second); !mal || n != 5 {
		t.Fatalf("se esperaba una ventana con 5 permitidas, hay %d", n)
	}
}

// The sliding log refuses only what would break the limit: at each refusal the last window
// already holds the whole quota.
func TestDeslizanteNoRechazaDeMas(t *testing.T) {
	t.Parallel()
	for semilla := int64(1); semilla <= 40; semilla++ {
		t.Run(fmt.Sprint(semilla), func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewSource(semilla))
			q, w := 1+r.Intn(6), time.Duration(1+r.Int63n(int64(time.Second)))
			l := NuevaVentanaDeslizante(q, w)
			var permitidas []time.Time
			for _, ahora := range instantes(r, 400, q, w) {
				if l.Permitir("k", ahora).Permitido {
					permitidas = append(permitidas, ahora)
					continue
				}
				recientes := 0
				for _, p := range permitidas {
					if ahora.Sub(p) < w {
						recientes++
					}
				}
				if recientes < q {
					t.Fatalf("semilla %d: rechazada en %s con solo %d de %d en la última ventana", semilla, ahora.Sub(origen), recientes, q)
				}
			}
		})
	}
}

// Replaying the same requests on a new limiter reaches the same state, so each probe below
// starts from a copy of a random point of a run.
func reproducir(c config, ts []time.Time) (Limitador, Veredicto) {
	l := c.nuevo()
	var v Veredicto
	for _, ahora := range ts {
		v = l.Permitir("k", ahora)
	}
	return l, v
}

func rafagaEn(l Limitador, ahora time.Time, n int) []bool {
	res := make([]bool, n)
	for i := range res {
		res[i] = l.Permitir("k", ahora).Permitido
	}
	return res
}

// Retry-After and the draft's r and t say exactly what will happen:
//   - refused: at Reinicio−1ns still refused, at Reinicio allowed, and so at now+RetryAfter;
//   - allowed: at Reinicio−1ns exactly Restantes more fit; at Reinicio at least one more fits.
func TestVeredictosCumplen(t *testing.T) {
	t.Parallel()
	for semilla := int64(1); semilla <= 16; semilla++ {
		t.Run(fmt.Sprint(semilla), func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewSource(semilla))
			for _, c := range configs(r, false) {
				ts := instantes(r, 120, c.cuota, c.ventana)
				for range 15 {
					k := r.Intn(len(ts))
					_, v := reproducir(c, ts[:k+1])
					ahora := ts[k]
					donde := func() string {
						return fmt.Sprintf("semilla %d, %s, petición %d en %s, %+v", semilla, c.nombre, k, ahora.Sub(origen), v)
					}
					if v.Reinicio <= 0 {
						t.Fatalf("%s: Reinicio no positivo", donde())
					}
					if !v.Permitido {
						if v.RetryAfter < 1 || time.Duration(v.RetryAfter)*time.Second < v.Reinicio || v.Restantes != 0 {
							t.Fatalf("%s: RetryAfter o Restantes incoherentes", donde())
						}
						l, _ := reproducir(c, ts[:k+1])
						if l.Permitir("k", ahora.Add(v.Reinicio-1)).Permitido {
							t.Fatalf("%s: permitida antes de Reinicio", donde())
						}
						if !l.Permitir("k", ahora.Add(v.Reinicio)).Permitido {
							t.Fatalf("%s: rechazada en Reinicio", donde())
						}
						l, _ = reproducir(c, ts[:k+1])
						if !l.Permitir("k", ahora.Add(time.Duration(v.RetryAfter)*time.Second)).Permitido {
							t.Fatalf("%s: rechazada al volver tras Retry-After", donde())
						}
						continue
					}
					if v.RetryAfter != 0 || v.Restantes < 0 || v.Restantes >= c.cuota {
						t.Fatalf("%s: RetryAfter o Restantes incoherentes", donde())
					}
					l, _ := reproducir(c, ts[:k+1])
					quiere := append(slices.Repeat([]bool{true}, v.Restantes), false)
					if got := rafagaEn(l, ahora.Add(v.Reinicio-1), v.Restantes+1); !slices.Equal(got, quiere) {
						t.Fatalf("%s: justo antes de t, %v, quiere %v", donde(), got, quiere)
					}
					l, _ = reproducir(c, ts[:k+1])
					if got := rafagaEn(l, ahora.Add(v.Reinicio), v.Restantes+1); slices.Contains(got, false) {
						t.Fatalf("%s: en t, %v: no volvió nada de cuota", donde(), got)
					}
				}
			}
		})
	}
}

// The bucket's trade-off, spelled out for the revisor's numbers.
func TestCubetaTresPorMinuto(t *testing.T) {
	t.Parallel()
	casos := []struct {
		rafaga int
		pasos  []int // seconds
		quiere []string
	}{
		// ⌈3/2⌉ = 2 at once, then one every 30 s.
		{2, []int{0, 0, 0, 29, 30, 30, 60, 120}, []string{"ok r=1 t=30", "ok r=0 t=30", "429 30", "429 1", "ok r=0 t=30", "429 30", "ok r=0 t=30", "ok r=1 t=30"}},
		// No burst: one every 20 s, three per minute evenly.
		{1, []int{0, 0, 20, 40, 59, 60}, []string{"ok r=0 t=20", "429 20", "ok r=0 t=20", "ok r=0 t=20", "429 1", "ok r=0 t=20"}},
		// All three at once, then only one per minute.
		{3, []int{0, 0, 0, 0, 60, 61, 120}, []string{"ok r=2 t=60", "ok r=1 t=60", "ok r=0 t=60", "429 60", "ok r=0 t=60", "429 59", "ok r=0 t=60"}},
	}
	for _, c := range casos {
		l := NuevaCubetaConRafaga(3, c.rafaga, time.Minute)
		for i, s := range c.pasos {
			v := l.Permitir("revisiones:escritura-a", origen.Add(time.Duration(s)*time.Second))
			got := fmt.Sprintf("429 %d", v.RetryAfter)
			if v.Permitido {
				got = fmt.Sprintf("ok r=%d t=%d", v.Restantes, segundosArriba(v.Reinicio))
			}
			if got != c.quiere[i] {
				t.Errorf("ráfaga %d, petición %d (%d s): %s, quiere %s", c.rafaga, i+1, s, got, c.quiere[i])
			}
		}
	}
	if b := NuevaCubeta(3, time.Minute).Rafaga(); b != 2 {
		t.Errorf("NuevaCubeta(3).Rafaga() = %d, quiere 2", b)
	}
}

// A state kept outside the process decides as the limiter in memory does: the same verdict for
// every request, whatever the algorithm, window or timing, as long as the state is dropped only
// once it has expired (as a shared store does).
func TestDecidirComoPermitir(t *testing.T) {
	t.Parallel()
	for semilla := int64(1); semilla <= 20; semilla++ {
		t.Run(fmt.Sprint(semilla), func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewSource(semilla))
			for _, c := range configs(r, false) {
				enMemoria, fuera := c.nuevo(), c.nuevo().(Compartible)
				var estado []int64
				var vence time.Time
				for i, ahora := range instantes(r, 400, c.cuota, c.ventana) {
					if estado != nil && !ahora.Before(vence) && r.Intn(2) == 0 {
						estado = nil // an expired row the store swept
					}
					quiere := enMemoria.Permitir("k", ahora)
					var got Veredicto
					got, estado, vence = fuera.Decidir(estado, ahora)
					if got != quiere {
						t.Fatalf("%s, petición %d a los %s: Decidir = %+v, Permitir = %+v", c.nombre, i, ahora.Sub(origen), got, quiere)
					}
				}
			}
		})
	}
}
