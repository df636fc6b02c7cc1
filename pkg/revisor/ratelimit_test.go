package revisor_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"cursohttp/internal/prueba"
	"cursohttp/pkg/almacen"
	"cursohttp/pkg/limitador"
	"cursohttp/pkg/revisor"
	"cursohttp/pkg/variantes"
)

// revisorLimitado is a revisor whose checks never run during the test (no network) and whose
// limited routes use algoritmo on the given clock.
func revisorLimitado(t *testing.T, algoritmo string, reloj *prueba.Reloj, cabeceras bool, o revisor.Opciones) *revisor.Revisor {
	t.Helper()
	var err error
	if o.Limitador, err = limitador.FabricaDe(algoritmo); err != nil {
		t.Fatal(err)
	}
	o.Reloj = reloj.Ahora
	o.CabecerasRateLimit = cabeceras
	o.EsperaEnCola = time.Hour
	rv := revisor.Nuevo(o)
	t.Cleanup(rv.Cerrar)
	return rv
}

// campo reads a field under its exact name: the revisor writes the draft's spelling, which
// http.Header.Get would look for as "Ratelimit".
func campo(h http.Header, nombre string) string {
	if v := h[nombre]; len(v) > 0 {
		return v[0]
	}
	return ""
}

func pedir(rv http.Handler, metodo, ruta, credencial string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(metodo, ruta, nil)
	r.Header.Set("Authorization", "Bearer "+credencial)
	w := httptest.NewRecorder()
	rv.ServeHTTP(w, r)
	return w
}

type paso struct {
	metodo, ruta, credencial string
	luego                    time.Duration // the clock moves this much after the request
}

// Every limited response carries both fields, and their values are what the same algorithm, asked
// at the same instants, says: the revisor announces its limiter, not a guess.
func TestCabecerasRateLimitConCadaAlgoritmo(t *testing.T) {
	t.Parallel()
	s := time.Second
	pasos := []paso{
		{"POST", "/servicios/1/revisiones", "escritura-a", 0},
		{"POST", "/servicios/1/revisiones", "escritura-a", 2 * s},
		{"POST", "/servicios/99/revisiones", "escritura-a", 0}, // a 404 still spends one, and says so
		{"POST", "/servicios/1/revisiones", "escritura-a", 10 * s},
		{"GET", "/servicios/99/salud", "escritura-a", 0}, // its own window
		{"POST", "/servicios/1/revisiones", "escritura-a", 20 * s},
		{"POST", "/servicios/3/revisiones", "escritura-b", 0}, // another credential, another window
		{"POST", "/servicios/1/revisiones", "escritura-a", 29 * s},
		{"POST", "/servicios/1/revisiones", "escritura-a", 0},
		{"POST", "/servicios/1/revisiones", "escritura-a", 31 * s},
		{"POST", "/servicios/1/revisiones", "escritura-a", 0},
		{"GET", "/servicios/99/salud", "escritura-a", 0},
		{"GET", "/servicios/99/salud", "escritura-a", 0},
		{"GET", "/servicios/99/salud", "escritura-a", 0},
	}
	for _, algoritmo := range []string{limitador.AlgoritmoVentana, limitador.AlgoritmoDeslizante, limitador.AlgoritmoCubeta} {
		t.Run(algoritmo, func(t *testing.T) {
			t.Parallel()
			reloj := prueba.NuevoReloj(time.Date(2026, 10, 21, 13, 19, 9, 0, time.UTC))
			rv := revisorLimitado(t, algoritmo, reloj, true, revisor.Opciones{})
			gemelos := map[string]limitador.Limitador{}
			for _, nombre := range []string{"revisiones", "consultas"} {
				gemelos[nombre], _ = limitador.Nuevo(algoritmo, 3, revisor.Ventana)
			}
			rechazos := 0
			for i, p := range pasos {
				w := pedir(rv, p.metodo, p.ruta, p.credencial)
				nombre, prefijo := "revisiones", "revisiones:"
				if strings.HasSuffix(p.ruta, "/salud") {
					nombre, prefijo = "consultas", "salud:"
				}
				g := gemelos[nombre]
				v := g.Permitir(prefijo+p.credencial, reloj.Ahora())
				h := w.Result().Header
				donde := fmt.Sprintf("paso %d (%s %s, %d)", i+1, p.metodo, p.ruta, w.Code)
				if got, want := h["RateLimit-Policy"], limitador.ValorRateLimitPolicy(nombre, g.Politica()); len(got) != 1 || got[0] != want {
					t.Errorf("%s: RateLimit-Policy %q; quiero %q", donde, got, want)
				}
				if got, want := h["RateLimit"], limitador.ValorRateLimit(nombre, v); len(got) != 1 || got[0] != want {
					t.Errorf("%s: RateLimit %q; quiero %q", donde, got, want)
				}
				if (w.Code == http.StatusTooManyRequests) == v.Permitido {
					t.Errorf("%s: el limitador dice permitido=%v", donde, v.Permitido)
				}
				// The draft: a 429's Retry-After never points earlier than t.
				if w.Code == http.StatusTooManyRequests {
					rechazos++
					limites, err := limitador.LeerRateLimit(campo(h, "RateLimit"))
					ra, errRA := strconv.ParseInt(h.Get("Retry-After"), 10, 64)
					if err != nil || errRA != nil || limites[0].Restantes != 0 || time.Duration(ra)*time.Second < limites[0].Reinicio {
						t.Errorf("%s: Retry-After %q con RateLimit %q", donde, h.Get("Retry-After"), campo(h, "RateLimit"))
					}
				}
				reloj.Avanzar(p.luego)
			}
			if rechazos == 0 {
				t.Error("ningún 429: la secuencia no prueba el rechazo")
			}
		})
	}
}

// The course's fixed window, field by field: the numbers a student would read.
func TestCabecerasRateLimitDeLaVentanaDelCurso(t *testing.T) {
	t.Parallel()
	reloj := prueba.NuevoReloj(time.Date(2026, 10, 21, 13, 19, 9, 0, time.UTC))
	rv := revisorLimitado(t, limitador.AlgoritmoVentana, reloj, true, revisor.Opciones{})
	want := []struct {
		codigo                int
		rateLimit, retryAfter string
	}{
		{202, `"revisiones";r=2;t=60`, ""},
		{202, `"revisiones";r=1;t=59`, ""},
		{202, `"revisiones";r=0;t=58`, ""},
		{429, `"revisiones";r=0;t=57`, "57"},
		{429, `"revisiones";r=0;t=56`, "56"},
	}
	for i, q := range want {
		w := pedir(rv, "POST", "/servicios/2/revisiones", "escritura-a")
		h := w.Result().Header
		if w.Code != q.codigo || campo(h, "RateLimit") != q.rateLimit || h.Get("Retry-After") != q.retryAfter ||
			campo(h, "RateLimit-Policy") != `"revisiones";q=3;w=60` {
			t.Errorf("petición %d: %d RateLimit %q Retry-After %q RateLimit-Policy %q", i+1, w.Code, campo(h, "RateLimit"), h.Get("Retry-After"), campo(h, "RateLimit-Policy"))
		}
		// Exact names on the wire, as the draft spells them.
		if _, ok := h["RateLimit"]; !ok {
			t.Errorf("petición %d: el nombre no es RateLimit: %v", i+1, h)
		}
		reloj.Avanzar(time.Second)
	}
}

// A live query answered 200 carries them too.
func TestCabecerasRateLimitEnUnaConsultaEnVivo(t *testing.T) {
	t.Parallel()
	servicio := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {}))
	t.Cleanup(servicio.Close)
	reloj := prueba.NuevoReloj(time.Date(2026, 10, 21, 13, 19, 9, 0, time.UTC))
	rv := revisorLimitado(t, limitador.AlgoritmoCubeta, reloj, true,
		revisor.Opciones{Destinos: []string{servicio.Listener.Addr().String()}})
	s, err := rv.Almacen().Crear(context.Background(), "a", almacen.Datos{Nombre: "local", URL: servicio.URL + "/", LimiteMs: 2000}, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	w := pedir(rv, "GET", "/servicios/"+strconv.Itoa(s.ID)+"/salud", "lectura-a")
	h := w.Result().Header
	if w.Code != 200 || campo(h, "RateLimit-Policy") != `"consultas";q=3;w=60` || campo(h, "RateLimit") != `"consultas";r=1;t=30` {
		t.Errorf("%d RateLimit-Policy %q RateLimit %q\n%s", w.Code, campo(h, "RateLimit-Policy"), campo(h, "RateLimit"), w.Body)
	}
}

// Without the option nothing changes: no limited response, allowed or refused, carries either
// field (nor the old X-RateLimit-* ones), so the lessons' transcripts replay as they are.
func TestSinCabecerasRateLimitPorOmision(t *testing.T) {
	t.Parallel()
	rv := revisor.Nuevo(revisor.Opciones{EsperaEnCola: time.Hour})
	t.Cleanup(rv.Cerrar)
	var codigos []int
	for range 4 {
		for _, p := range []paso{
			{"POST", "/servicios/2/revisiones", "escritura-a", 0},
			{"GET", "/servicios/99/salud", "lectura-a", 0},
		} {
			w := pedir(rv, p.metodo, p.ruta, p.credencial)
			codigos = append(codigos, w.Code)
			for nombre := range w.Result().Header {
				if strings.Contains(strings.ToLower(nombre), "ratelimit") {
					t.Errorf("%s %s (%d) trae %s", p.metodo, p.ruta, w.Code, nombre)
				}
			}
		}
	}
	if fmt.Sprint(codigos) != "[202 404 202 404 202 404 429 429]" {
		t.Errorf("códigos %v", codigos)
	}
}

// Every limited route of the table, as the gate orders it: what it refuses before the limit (a
// method the route has not, no credential, a reader's write) never counts, however often; the
// quota is then whole, ids that do not exist included, and the next ones are 429. The routes come
// from the table (revisor.RutasLimitadas), so a new limited route is walked here without a row.
func TestElLimiteEnElOrdenDeLaPuerta(t *testing.T) {
	t.Parallel()
	rutas := revisor.RutasLimitadas(variantes.Eleccion{})
	if len(rutas) == 0 {
		t.Fatal("ninguna ruta de la tabla tiene límite")
	}
	for _, ruta := range rutas {
		otro := "DELETE"
		if slices.Contains(ruta.Otros, otro) {
			otro = "PATCH"
		}
		t.Run(ruta.Metodo+" "+ruta.Camino, func(t *testing.T) {
			t.Parallel()
			reloj := prueba.NuevoReloj(time.Date(2026, 10, 21, 13, 19, 9, 0, time.UTC))
			rv := revisorLimitado(t, limitador.AlgoritmoVentana, reloj, false, revisor.Opciones{})
			en := func(id string) string { return strings.Replace(ruta.Camino, "%s", id, 1) }
			var codigos []string
			anotar := func(w *httptest.ResponseRecorder) { codigos = append(codigos, strconv.Itoa(w.Code)) }
			// Refused before the limit, as many times as the quota and more: 405, 401 and (for a
			// write) 403.
			antes := "405 401 "
			for range ruta.Cuota + 1 {
				anotar(pedir(rv, otro, en("1"), "escritura-a"))
				anotar(pedir(rv, ruta.Metodo, en("1"), "inventada"))
				if ruta.Escribe {
					anotar(pedir(rv, ruta.Metodo, en("1"), "lectura-a"))
				}
			}
			if ruta.Escribe {
				antes = "405 401 403 "
			}
			// The quota is whole: as many as it allows pass the limit (each one a 404, for a
			// service that does not exist), then 429s, for one that exists too.
			for i := range ruta.Cuota + 1 {
				anotar(pedir(rv, ruta.Metodo, en(strconv.Itoa(99-i)), "escritura-a"))
			}
			anotar(pedir(rv, ruta.Metodo, en("1"), "escritura-a"))
			want := strings.Repeat(antes, ruta.Cuota+1) + strings.Repeat("404 ", ruta.Cuota) + "429 429"
			if got := strings.Join(codigos, " "); got != want {
				t.Errorf("códigos %s\nquiero   %s", got, want)
			}
		})
	}
}

// The 429's detail says what the limiter counted: three in the last minute for the window and the
// sliding log; for the bucket, which refuses the third request in a row, its burst and refill, not
// a count of three that never happened.
func TestDetalleDelRechazoDeCadaAlgoritmo(t *testing.T) {
	t.Parallel()
	casos := map[string]struct {
		peticiones int
		detalle    string
	}{
		limitador.AlgoritmoVentana:    {4, "ya pediste 3 revisiones en el último minuto"},
		limitador.AlgoritmoDeslizante: {4, "ya pediste 3 revisiones en el último minuto"},
		limitador.AlgoritmoCubeta:     {3, "ya pediste 2 revisiones seguidas y la cubeta repone una cada 30 s"},
	}
	for algoritmo, c := range casos {
		t.Run(algoritmo, func(t *testing.T) {
			t.Parallel()
			reloj := prueba.NuevoReloj(time.Date(2026, 10, 21, 13, 19, 9, 0, time.UTC))
			rv := revisorLimitado(t, algoritmo, reloj, false, revisor.Opciones{})
			var w *httptest.ResponseRecorder
			for i := 0; i < c.peticiones; i++ {
				w = pedir(rv, "POST", "/servicios/1/revisiones", "escritura-a")
				if i < c.peticiones-1 && w.Code != http.StatusAccepted {
					t.Fatalf("petición %d: %d, antes del límite", i+1, w.Code)
				}
			}
			if w.Code != http.StatusTooManyRequests || !strings.Contains(w.Body.String(), `"detail":"`+c.detalle+`"`) {
				t.Errorf("%d %s; quiero 429 con %q", w.Code, w.Body, c.detalle)
			}
		})
	}
}
