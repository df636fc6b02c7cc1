package ritmo

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cursohttp/internal/prueba"
)

// nuevoReloj is a fake clock whose sleeps move time forward and are recorded.
func nuevoReloj() *prueba.Reloj { return prueba.NuevoReloj(comienzo) }

var comienzo = time.Date(2026, 10, 21, 13, 19, 9, 0, time.UTC)

func fijo(x float64) func() float64 { return func() float64 { return x } }

func cabeceras(pares ...string) http.Header {
	h := http.Header{}
	for i := 0; i < len(pares); i += 2 {
		h.Add(pares[i], pares[i+1])
	}
	return h
}

type respuesta struct {
	codigo int
	h      http.Header
}

func TestEsperaTrasRespuestas(t *testing.T) {
	t.Parallel()
	s := time.Second
	ms := time.Millisecond
	casos := []struct {
		nombre     string
		tope       time.Duration
		azar       float64
		respuestas []respuesta
		antes      time.Duration // clock moves this much after the responses
		espera     time.Duration
		insistir   bool
	}{
		{"sin nada anotado no espera", 0, 0, nil, 0, 0, true},
		{"sin RateLimit no espera", 0, 0, []respuesta{{202, cabeceras()}}, 0, 0, true},
		{"queda cuota: no espera", 0, 0, []respuesta{{202, cabeceras("RateLimit", `"revisiones";r=2;t=60`)}}, 0, 0, true},
		{"r=0 espera t, sin jitter", 0, 0.9, []respuesta{{202, cabeceras("RateLimit", `"revisiones";r=0;t=3`)}}, 0, 3 * s, true},
		{"r=0 espera lo que falta de t", 0, 0, []respuesta{{202, cabeceras("RateLimit", `"revisiones";r=0;t=3`)}}, 1200 * ms, 1800 * ms, true},
		{"pasado t ya no espera", 0, 0, []respuesta{{202, cabeceras("RateLimit", `"revisiones";r=0;t=3`)}}, 3 * s, 0, true},
		{"t por encima del tope: no insiste", 0, 0, []respuesta{{202, cabeceras("RateLimit", `"revisiones";r=0;t=58`)}}, 0, 58 * s, false},
		{"el tope es un parámetro", 65 * s, 0, []respuesta{{202, cabeceras("RateLimit", `"revisiones";r=0;t=58`)}}, 0, 58 * s, true},
		{"r=0 sin t usa la w de la política", 0, 0, []respuesta{{202, cabeceras("RateLimit", `"x";r=0`, "RateLimit-Policy", `"x";q=3;w=4`)}}, 0, 4 * s, true},
		{"r=0 sin t ni w: no se sabe, no espera", 0, 0, []respuesta{{202, cabeceras("RateLimit", `"x";r=0`, "RateLimit-Policy", `"otra";q=3;w=4`)}}, 0, 0, true},
		{"mal formada se ignora entera", 0, 0, []respuesta{{202, cabeceras("RateLimit", `"x";r=0;t=3, "y";r=-1`)}}, 0, 0, true},
		{"varias políticas: manda la de menos r", 0, 0, []respuesta{{202, cabeceras("RateLimit", `"rafaga";r=0;t=2, "dia";r=900;t=86400`)}}, 0, 2 * s, true},
		{"varias líneas se juntan", 0, 0, []respuesta{{202, cabeceras("RateLimit", `"dia";r=9;t=86400`, "RateLimit", `"rafaga";r=0;t=2`)}}, 0, 2 * s, true},
		{"una respuesta sin RateLimit no borra lo sabido", 0, 0, []respuesta{{202, cabeceras("RateLimit", `"x";r=0;t=3`)}, {404, cabeceras()}}, 0, 3 * s, true},
		{"el nombre exacto del borrador también vale", 0, 0, []respuesta{{202, http.Header{"RateLimit": {`"x";r=0;t=3`}}}}, 0, 3 * s, true},
		{"una respuesta nueva reemplaza lo sabido", 0, 0, []respuesta{{202, cabeceras("RateLimit", `"x";r=0;t=3`)}, {202, cabeceras("RateLimit", `"x";r=1;t=3`)}}, 0, 0, true},

		// 429: Retry-After plus full jitter, never shorter than Retry-After, never past the cap.
		{"429 con jitter 0", 0, 0, []respuesta{{429, cabeceras("Retry-After", "2")}}, 0, 2 * s, true},
		{"429 con jitter a la mitad", 0, 0.5, []respuesta{{429, cabeceras("Retry-After", "2")}}, 0, 2250 * ms, true},
		{"el jitter se recorta al tope", 2300 * ms, 0.999, []respuesta{{429, cabeceras("Retry-After", "2")}}, 0, 2300 * ms, true},
		{"nunca por debajo de Retry-After", 5 * s, 0.999, []respuesta{{429, cabeceras("Retry-After", "5")}}, 0, 5 * s, true},
		{"Retry-After sobre el tope: no insiste", 0, 0.5, []respuesta{{429, cabeceras("Retry-After", "60")}}, 0, 60 * s, false},
		{"Retry-After manda sobre t", 0, 0, []respuesta{{429, cabeceras("Retry-After", "4", "RateLimit", `"x";r=0;t=2`)}}, 0, 4 * s, true},
		{"429 sin Retry-After usa t", 0, 0, []respuesta{{429, cabeceras("RateLimit", `"x";r=0;t=3`)}}, 0, 3 * s, true},
		{"429 con Retry-After ilegible usa t", 0, 0, []respuesta{{429, cabeceras("Retry-After", "mañana", "RateLimit", `"x";r=0;t=3`)}}, 0, 3 * s, true},
		{"429 sin nada: solo el jitter", 0, 0.5, []respuesta{{429, cabeceras()}}, 0, 250 * ms, true},
		{"Retry-After como fecha", 0, 0, []respuesta{{429, cabeceras("Retry-After", "Wed, 21 Oct 2026 13:19:12 GMT")}}, 0, 3 * s, true},
		{"el techo del jitter crece con 429 seguidos", 0, 0.5, []respuesta{{429, cabeceras("Retry-After", "1")}, {429, cabeceras("Retry-After", "1")}}, 0, 1500 * ms, true},
		{"un éxito reinicia los 429 seguidos", 0, 0.5, []respuesta{{429, cabeceras("Retry-After", "1")}, {202, cabeceras()}, {429, cabeceras("Retry-After", "1")}}, 0, 1250 * ms, true},
	}
	for _, c := range casos {
		t.Run(c.nombre, func(t *testing.T) {
			t.Parallel()
			r := nuevoReloj()
			m := Nuevo(Opciones{Tope: c.tope, Ahora: r.Ahora, Dormir: r.Dormir, Azar: fijo(c.azar)})
			for _, res := range c.respuestas {
				m.Anotar(res.codigo, res.h)
			}
			r.Avanzar(c.antes)
			espera, insistir := espera(m)
			if espera != c.espera || insistir != c.insistir {
				t.Errorf("Espera() = %v, %v; quiero %v, %v", espera, insistir, c.espera, c.insistir)
			}
		})
	}
}

func TestEsperarGastaLaCuotaAnunciada(t *testing.T) {
	t.Parallel()
	r := nuevoReloj()
	m := Nuevo(Opciones{Tope: time.Minute, Ahora: r.Ahora, Dormir: r.Dormir, Azar: fijo(0)})
	ctx := context.Background()
	m.Anotar(202, cabeceras("RateLimit", `"revisiones";r=2;t=50`))
	// Two more fit before t; the third waits for t, measured from when the response was read.
	r.Avanzar(10 * time.Second)
	for i, want := range []time.Duration{0, 0, 40 * time.Second} {
		d, err := m.Esperar(ctx)
		if err != nil || d != want {
			t.Fatalf("turno %d: Esperar() = %v, %v; quiero %v", i+1, d, err, want)
		}
	}
	if d := r.Dormidas(); len(d) != 3 || d[2] != 40*time.Second {
		t.Errorf("dormidas %v", d)
	}
	// After t nothing is known, so the client goes until a response says otherwise.
	if d, err := m.Esperar(ctx); d != 0 || err != nil {
		t.Errorf("tras t: %v, %v", d, err)
	}
}

func TestEsperarNoDuermePorEncimaDelTope(t *testing.T) {
	t.Parallel()
	r := nuevoReloj()
	m := Nuevo(Opciones{Ahora: r.Ahora, Dormir: r.Dormir})
	m.Anotar(429, cabeceras("Retry-After", "60"))
	d, err := m.Esperar(context.Background())
	var excesiva *EsperaExcesiva
	if !errors.As(err, &excesiva) || excesiva.Pide != time.Minute || excesiva.Tope != 5*time.Second || d != 0 {
		t.Fatalf("Esperar() = %v, %v", d, err)
	}
	if err.Error() != "el servidor pide esperar 60 s y el tope es 5 s" {
		t.Errorf("mensaje %q", err.Error())
	}
	if d := r.Dormidas(); len(d) != 0 {
		t.Errorf("durmió %v", d)
	}
}

func TestEsperarRespetaElContexto(t *testing.T) {
	t.Parallel()
	m := Nuevo(Opciones{})
	m.Anotar(429, cabeceras("Retry-After", "3"))
	ctx, cancelar := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancelar()
	inicio := time.Now()
	if _, err := m.Esperar(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
	if time.Since(inicio) > 2*time.Second {
		t.Error("no se detuvo al vencer el contexto")
	}
}

func TestConcurrente(t *testing.T) {
	t.Parallel()
	r := nuevoReloj()
	m := Nuevo(Opciones{Tope: time.Hour, Ahora: r.Ahora, Dormir: r.Dormir})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 50 {
				m.Anotar(202, cabeceras("RateLimit", `"x";r=`+strconv.Itoa((i+j)%3)+`;t=1`))
				_, _ = m.Esperar(context.Background())
				espera(m)
			}
		}()
	}
	wg.Wait()
}

// A fixed window of 3 per 2 s that announces itself: a client paced by m is never refused.
func TestTransporteNoRecibe429(t *testing.T) {
	t.Parallel()
	r := nuevoReloj()
	var (
		mu     sync.Mutex
		inicio time.Time
		usos   int
	)
	var rechazos atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		ahora := r.Ahora()
		if usos == 0 || ahora.Sub(inicio) >= 2*time.Second {
			inicio, usos = ahora, 0
		}
		falta := inicio.Add(2 * time.Second).Sub(ahora)
		seg := strconv.Itoa(int((falta + time.Second - 1) / time.Second))
		w.Header().Set("RateLimit-Policy", `"demo";q=3;w=2`)
		if usos == 3 {
			rechazos.Add(1)
			w.Header().Set("RateLimit", `"demo";r=0;t=`+seg)
			w.Header().Set("Retry-After", seg)
			w.WriteHeader(429)
			return
		}
		usos++
		w.Header().Set("RateLimit", `"demo";r=`+strconv.Itoa(3-usos)+`;t=`+seg)
		w.WriteHeader(202)
	}))
	defer srv.Close()
	m := Nuevo(Opciones{Ahora: r.Ahora, Dormir: r.Dormir})
	cliente := &http.Client{Transport: transporte{m, srv.Client().Transport}}
	for i := range 10 {
		res, err := cliente.Post(srv.URL, "text/plain", nil)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != 202 {
			t.Errorf("petición %d: %d", i+1, res.StatusCode)
		}
	}
	if n := rechazos.Load(); n != 0 {
		t.Errorf("%d rechazos", n)
	}
	// 10 requests at 3 per 2 s: three waits of one window each.
	if got := r.Ahora().Sub(comienzo); got != 6*time.Second {
		t.Errorf("tardó %v", got)
	}
}

func TestTransporteNoEnviaSiLaEsperaEsExcesiva(t *testing.T) {
	t.Parallel()
	var llegadas atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		llegadas.Add(1)
		w.Header().Set("Retry-After", "60")
		w.WriteHeader(429)
	}))
	defer srv.Close()
	cliente := &http.Client{Transport: transporte{Nuevo(Opciones{}), srv.Client().Transport}}
	res, err := cliente.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	_, err = cliente.Get(srv.URL)
	var excesiva *EsperaExcesiva
	if !errors.As(err, &excesiva) {
		t.Fatalf("err = %v", err)
	}
	if n := llegadas.Load(); n != 1 {
		t.Errorf("llegaron %d peticiones", n)
	}
}

// espera says how long the next request would wait, without taking a turn.
func espera(m *Marcapasos) (time.Duration, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.espera(m.o.Ahora())
}

// transporte is a client paced by m, as rafaga paces its requests: every request waits its turn
// and every response is noted; a request m will not wait for fails with *EsperaExcesiva unsent.
type transporte struct {
	m    *Marcapasos
	base http.RoundTripper
}

func (t transporte) RoundTrip(req *http.Request) (*http.Response, error) {
	if _, err := t.m.Esperar(req.Context()); err != nil {
		if req.Body != nil {
			req.Body.Close() // a RoundTripper must close the body even when it fails
		}
		return nil, err
	}
	res, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	t.m.Anotar(res.StatusCode, res.Header)
	return res, nil
}
