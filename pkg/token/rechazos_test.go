package token

import (
	"strconv"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// lineaDeRechazo is about what a server writes for one refusal in full (125 bytes, issue 34.3).
const lineaDeRechazo = 125

// Issue 34, item 3: one client refusing 2,500 times a second, and then one that changes its
// address on every refusal, each grow the log by far less than 10 MB an hour. Ten minutes run in a
// bubble (its clock only moves when every goroutine waits), times six: the sums repeat every
// interval, so an hour is six times ten minutes.
func TestRechazosDeUnaHora(t *testing.T) {
	t.Parallel()
	for _, caso := range []struct {
		nombre string
		fuente func(seg, i int) string
	}{
		{"una fuente", func(int, int) string { return "127.0.0.1" }},
		{"una fuente por rechazo", func(seg, i int) string { return "127.0." + strconv.Itoa(seg%256) + "." + strconv.Itoa(i%256) }},
	} {
		t.Run(caso.nombre, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				var mu sync.Mutex
				bytes, enteras, sumadas := 0, 0, 0
				r := NuevosRechazos(0, func(s Suma) {
					mu.Lock()
					defer mu.Unlock()
					bytes += len(s.Texto("panel", 0)) + 60 // the log's own fields
					sumadas += s.N
				})
				const porSegundo, segundos, porHora = 2500, 600, 6
				for seg := range segundos {
					for i := range porSegundo {
						if r.Anotar(caso.fuente(seg, i), MotivoFalta) {
							mu.Lock()
							bytes += lineaDeRechazo
							enteras++
							mu.Unlock()
						}
					}
					// The client's next second: timers due meanwhile fire (the bubble's clock).
					<-time.After(time.Second)
				}
				<-time.After(2 * IntervaloRechazos)
				r.Parar()
				mu.Lock()
				defer mu.Unlock()
				if enteras+sumadas != porSegundo*segundos {
					t.Errorf("%d enteras y %d sumadas de %d", enteras, sumadas, porSegundo*segundos)
				}
				if bytes*porHora >= 10<<20 {
					t.Errorf("diez minutos de rechazos escribieron %d bytes: %d en una hora", bytes, bytes*porHora)
				}
				t.Logf("%d rechazos en diez minutos: %d bytes de bitácora (%d enteras), %d en una hora; antes, %d en una hora",
					porSegundo*segundos, bytes, enteras, bytes*porHora, porSegundo*segundos*porHora*lineaDeRechazo)
			})
		})
	}
}

// The first TopeEnteras refusals of a source in an interval are written in full, the rest summed
// up in one line that says how many and why the last was refused; sources past TopeFuentes are
// summed up together.
func TestRechazosPorFuente(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		sumas := make(chan Suma, 64)
		r := NuevosRechazos(0, func(s Suma) { sumas <- s })
		defer r.Parar()
		for i := range TopeEnteras {
			if !r.Anotar("a", "uno") {
				t.Fatalf("el rechazo %d de a no fue entero", i+1)
			}
		}
		if r.Anotar("a", "dos") || r.Anotar("a", "tres") || !r.Anotar("b", "x") {
			t.Fatal("pasadas las primeras de a, se suman; b va entera")
		}
		synctest.Wait()
		if len(sumas) != 0 {
			t.Fatal("una suma antes del intervalo")
		}
		<-time.After(IntervaloRechazos)
		synctest.Wait()
		if s := <-sumas; s.Fuente != "a" || s.N != 2 || s.Ultimo != "tres" ||
			s.Texto("panel", 0) != "panel: 2 rechazos más de a en 10 s (el último: tres)" || len(sumas) != 0 {
			t.Errorf("la suma: %+v (%d más)", s, len(sumas))
		}
		// A new interval: a's first ones go in full again.
		if !r.Anotar("a", "cuatro") {
			t.Error("en el intervalo siguiente, a vuelve a ir entera")
		}
		for i := range 2 * TopeFuentes {
			r.Anotar("otra"+strconv.Itoa(i), "z")
		}
		<-time.After(IntervaloRechazos)
		synctest.Wait()
		vistas := map[string]int{}
		for len(sumas) > 0 {
			s := <-sumas
			vistas[s.Fuente] = s.N
		}
		// The places are full (a, b and 30 others): the rest are summed up together, each written
		// once in full only while there was a place.
		if vistas[""] < TopeFuentes || len(vistas) != 1 {
			t.Errorf("sumas %v", vistas)
		}
	})
}
