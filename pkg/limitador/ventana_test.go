package limitador

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

var origen = time.Date(2026, 10, 21, 13, 19, 0, 0, time.UTC)

func en(ms int) time.Time { return origen.Add(time.Duration(ms) * time.Millisecond) }

// fig04_02 prints one line per request and a summary; the lesson (series G) shows two runs, and
// the plan itself is a third. All must give 5 allowed after 900 ms and a final Retry-After 1.
func TestVentanaFijaComoFig0402(t *testing.T) {
	t.Parallel()
	const esperado = `permitida
permitida
permitida
permitida
permitida
permitida
rechazada: Retry-After 1`
	casos := []struct {
		nombre  string
		tiempos []int
		resumen string
	}{
		{"el plan", []int{0, 950, 960, 1005, 1010, 1015, 1020}, "permitidas entre 950 y 1015 ms: 5"},
		{"la salida de la lección", []int{2, 950, 961, 1005, 1011, 1016, 1021}, "permitidas entre 950 y 1016 ms: 5"},
		{"la otra corrida de la lección", []int{2, 950, 959, 1005, 1009, 1015, 1020}, "permitidas entre 950 y 1015 ms: 5"},
	}
	for _, c := range casos {
		t.Run(c.nombre, func(t *testing.T) {
			t.Parallel()
			l := NuevaVentanaFija(3, 1000*time.Millisecond)
			var textos []string
			var rafaga []int
			for _, ms := range c.tiempos {
				v := l.Permitir("demo", en(ms))
				if v.Permitido {
					textos = append(textos, "permitida")
					if ms >= 900 {
						rafaga = append(rafaga, ms)
					}
				} else {
					textos = append(textos, fmt.Sprintf("rechazada: Retry-After %d", v.RetryAfter))
				}
			}
			if got := strings.Join(textos, "\n"); got != esperado {
				t.Errorf("decisiones:\n%s\nquiere:\n%s", got, esperado)
			}
			resumen := fmt.Sprintf("permitidas entre %d y %d ms: %d", rafaga[0], rafaga[len(rafaga)-1], len(rafaga))
			if resumen != c.resumen {
				t.Errorf("resumen %q, quiere %q", resumen, c.resumen)
			}
		})
	}
}

// The revisor's limit (series F and rule R21): 3 per 60 s, a computed Retry-After that shrinks,
// and never 0.
func TestVentanaFijaComoElRevisor(t *testing.T) {
	t.Parallel()
	const minuto = 60 * time.Second
	casos := []struct {
		nombre string
		pasos  []int // ms since the first request; the first three open and fill the window
		quiere []string
	}{
		{"F1-F4: la cuarta espera 60", []int{0, 100, 200, 300}, []string{"ok r=2", "ok r=1", "ok r=0", "429 60"}},
		{"F8: 20 s después espera 40", []int{0, 100, 200, 300, 20300}, []string{"ok r=2", "ok r=1", "ok r=0", "429 60", "429 40"}},
		{"F6: la ventana empezó 3 s antes", []int{0, 10, 20, 2700}, []string{"ok r=2", "ok r=1", "ok r=0", "429 58"}},
		{"quedan 0,3 s: dice 1", []int{0, 1, 2, 59700}, []string{"ok r=2", "ok r=1", "ok r=0", "429 1"}},
		{"a los 60 s justos se abre otra", []int{0, 1, 2, 60000, 60001}, []string{"ok r=2", "ok r=1", "ok r=0", "ok r=2", "ok r=1"}},
		{"el enumerador: 3 y luego 7 rechazos", []int{0, 5, 10, 15, 20, 25, 30, 35, 40, 45},
			[]string{"ok r=2", "ok r=1", "ok r=0", "429 60", "429 60", "429 60", "429 60", "429 60", "429 60", "429 60"}},
	}
	for _, c := range casos {
		t.Run(c.nombre, func(t *testing.T) {
			t.Parallel()
			l := NuevaVentanaFija(3, minuto)
			for i, ms := range c.pasos {
				v := l.Permitir("revisiones:escritura-a", en(ms))
				got := fmt.Sprintf("429 %d", v.RetryAfter)
				if v.Permitido {
					got = fmt.Sprintf("ok r=%d", v.Restantes)
				}
				if got != c.quiere[i] {
					t.Errorf("petición %d (%d ms): %s, quiere %s", i+1, ms, got, c.quiere[i])
				}
			}
		})
	}
}

// Separate keys are separate windows: revisiones and salud, or two credentials.
func TestClavesSeparadas(t *testing.T) {
	t.Parallel()
	for _, nombre := range []string{AlgoritmoVentana, AlgoritmoDeslizante, AlgoritmoCubeta} {
		l, err := Nuevo(nombre, 3, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		for l.Permitir("revisiones:escritura-a", origen).Permitido {
		}
		for _, otra := range []string{"salud:escritura-a", "revisiones:admin"} {
			if !l.Permitir(otra, origen).Permitido {
				t.Errorf("%s: %s se quedó sin cuota por culpa de otra clave", nombre, otra)
			}
		}
	}
}

func TestNuevo(t *testing.T) {
	t.Parallel()
	casos := []struct {
		algoritmo string
		cuota     int
		ventana   time.Duration
		err       string
	}{
		{"ventana", 3, time.Minute, ""},
		{"deslizante", 1, time.Second, ""},
		{"cubeta", 10, time.Hour, ""},
		{"leaky", 3, time.Minute, `algoritmo desconocido «leaky»: usa ventana, deslizante o cubeta`},
		{"Ventana", 3, time.Minute, `algoritmo desconocido «Ventana»: usa ventana, deslizante o cubeta`},
		{"ventana", 0, time.Minute, "la cuota debe ser 1 o más, no 0"},
		{"cubeta", 3, 0, "la ventana debe durar más que 0, no 0s"},
	}
	for _, c := range casos {
		l, err := Nuevo(c.algoritmo, c.cuota, c.ventana)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("Nuevo(%q, %d, %s): error %v, quiere %q", c.algoritmo, c.cuota, c.ventana, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("Nuevo(%q): %v", c.algoritmo, err)
		}
		quiero := Politica{Nombre: c.algoritmo, Cuota: c.cuota, Ventana: c.ventana}
		if c.algoritmo == AlgoritmoCubeta {
			// 10 an hour: 5 at once, then one every 10 minutes (6 a window: never 11 in an hour).
			quiero.Rafaga, quiero.Reposicion = 5, 10*time.Minute
		}
		if p := l.Politica(); p != quiero {
			t.Errorf("Nuevo(%q).Politica() = %+v", c.algoritmo, p)
		}
	}
}

func TestConstructoresRechazanAbsurdos(t *testing.T) {
	t.Parallel()
	casos := map[string]func(){
		"cuota 0":        func() { NuevaVentanaFija(0, time.Second) },
		"ventana 0":      func() { NuevaVentanaDeslizante(1, 0) },
		"ráfaga 0":       func() { NuevaCubetaConRafaga(3, 0, time.Second) },
		"ráfaga > cuota": func() { NuevaCubetaConRafaga(3, 4, time.Second) },
	}
	for nombre, f := range casos {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no entró en pánico", nombre)
				}
			}()
			f()
		}()
	}
}
