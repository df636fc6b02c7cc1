package sonda

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cursohttp/internal/prueba"
	"cursohttp/pkg/almacen"
	"cursohttp/pkg/destinos"
	"cursohttp/pkg/reintento"
	"cursohttp/pkg/traza"
)

// laboratorio is a small stand-in for the course's bench: /codigo/NNN, /lento/MS, /cortar and
// /basura, counting the requests each path gets.
type laboratorio struct {
	*httptest.Server
	mu       sync.Mutex
	llamadas map[string]int
}

func nuevoLaboratorio(t *testing.T) *laboratorio {
	t.Helper()
	lab := &laboratorio{llamadas: map[string]int{}}
	lento := regexp.MustCompile(`^/lento/(\d{1,5})$`)
	codigo := regexp.MustCompile(`^/codigo/(\d{3})$`)
	lab.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		lab.mu.Lock()
		lab.llamadas[r.URL.RequestURI()]++
		lab.mu.Unlock()
		if m := lento.FindStringSubmatch(r.URL.RequestURI()); m != nil {
			ms, _ := strconv.Atoi(m[1])
			// A slow service, as the lab's /lento/MS: the check's time limit is what is under test.
			time.Sleep(time.Duration(ms) * time.Millisecond)
			fmt.Fprintf(w, "200 OK\ntardé %d ms\n", ms)
			return
		}
		switch r.URL.RequestURI() {
		case "/cortar", "/basura":
			c, buf, err := http.NewResponseController(w).Hijack()
			if err != nil {
				t.Error(err)
				return
			}
			if r.URL.Path == "/basura" {
				buf.WriteString("esto no es una respuesta HTTP\r\n\r\n")
				buf.Flush()
			}
			c.Close()
			return
		}
		m := codigo.FindStringSubmatch(r.URL.Path)
		if m == nil {
			http.NotFound(w, r)
			return
		}
		n, _ := strconv.Atoi(m[1])
		switch n {
		case 503:
			w.Header().Set("Retry-After", "120")
		case 429:
			w.Header().Set("Retry-After", "30")
		case 301:
			w.Header().Set("Location", "/codigo/200")
		}
		if r.URL.Query().Has("espera") {
			w.Header().Set("Retry-After", r.URL.Query().Get("espera"))
		}
		w.WriteHeader(n)
	}))
	t.Cleanup(lab.Close)
	return lab
}

func (l *laboratorio) veces(ruta string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.llamadas[ruta]
}

func (l *laboratorio) addr() string { return strings.TrimPrefix(l.URL, "http://") }

// sinEspera records the waits instead of sleeping them.
type sinEspera struct {
	mu      sync.Mutex
	esperas []time.Duration
}

func (s *sinEspera) dormir(_ context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.esperas = append(s.esperas, d)
	return nil
}

func nuevaSonda(permitidos []string, esp *sinEspera) *Sonda {
	o := Opciones{}
	if esp != nil {
		o.Politica = reintento.PoliticaRevision()
		o.Politica.Dormir = esp.dormir
	}
	return Nueva(destinos.Nuevo(permitidos, nil), o)
}

func TestCincoDesenlaces(t *testing.T) {
	t.Parallel()
	lab := nuevoLaboratorio(t)
	// A port that refuses: nobody listens there, nor may until the test ends.
	cerrado := "127.0.0.1:" + strconv.Itoa(prueba.PuertosLibres(t, 1)[0])
	s := nuevaSonda([]string{lab.addr(), cerrado}, nil)
	ctx := context.Background()

	casos := []struct {
		url    string
		limite int
		tipo   Tipo
		codigo int
	}{
		{lab.URL + "/codigo/200", 2000, Respuesta, 200},
		{lab.URL + "/codigo/503", 2000, Respuesta, 503},
		{lab.URL + "/codigo/301", 2000, Respuesta, 301}, // never followed
		{lab.URL + "/codigo/600", 2000, Respuesta, 600},
		{lab.URL + "/lento/300", 100, TiempoAgotado, 0},
		{lab.URL + "/cortar", 2000, RespuestaInvalida, 0},
		{lab.URL + "/basura", 2000, RespuestaInvalida, 0},
		{"http://" + cerrado + "/", 2000, SinConexion, 0},
		{"http://127.0.0.1:9/", 2000, DestinoProhibido, 0},
		{"http://usuario:clave@" + lab.addr() + "/codigo/200", 2000, RespuestaInvalida, 0},
	}
	for _, c := range casos {
		t.Run(c.url, func(t *testing.T) {
			t.Parallel()
			inicio := time.Now()
			got := s.Consultar(ctx, c.url, c.limite)
			if got.Tipo != c.tipo || got.Codigo != c.codigo {
				t.Fatalf("Consultar = %+v, se esperaba %s %d", got, c.tipo, c.codigo)
			}
			if c.tipo == TiempoAgotado {
				if d := time.Since(inicio); d < 90*time.Millisecond || d > time.Second {
					t.Errorf("el tiempo agotado tardó %v, se esperaba el límite (100 ms)", d)
				}
			}
		})
	}
}

func TestUnaSolaConexionPorConsulta(t *testing.T) {
	t.Parallel()
	lab := nuevoLaboratorio(t)
	s := nuevaSonda([]string{lab.addr()}, nil)
	// A cut connection is not resent behind our back: the bench sees exactly one call.
	for range 3 {
		s.Consultar(context.Background(), lab.URL+"/cortar", 2000)
	}
	if n := lab.veces("/cortar"); n != 3 {
		t.Errorf("/cortar recibió %d llamadas por 3 consultas", n)
	}
}

func TestDestinoProhibidoConMotivo(t *testing.T) {
	t.Parallel()
	s := nuevaSonda(nil, nil)
	got := s.Consultar(context.Background(), "http://169.254.169.254/latest/meta-data/", 2000)
	if got.Tipo != DestinoProhibido || got.Motivo != "169.254.169.254:80: dirección privada o reservada" {
		t.Fatalf("Consultar = %+v", got)
	}
	res := Clasificar(got, 2000)
	if res.Detalle != "destino prohibido: 169.254.169.254:80: dirección privada o reservada" || res.Codigo != nil {
		t.Errorf("Clasificar = %+v", res)
	}
}

func entero(n int) *int { return &n }

func TestClasificar(t *testing.T) {
	t.Parallel()
	casos := []struct {
		c      Consulta
		limite int
		want   almacen.Resultado
	}{
		{Consulta{Tipo: TiempoAgotado}, 1000, almacen.Resultado{Estado: "CAIDO", Detalle: "tiempo agotado"}},
		{Consulta{Tipo: SinConexion}, 1000, almacen.Resultado{Estado: "CAIDO", Detalle: "sin conexión"}},
		{Consulta{Tipo: RespuestaInvalida, Motivo: "EOF"}, 1000, almacen.Resultado{Estado: "CAIDO", Detalle: "respuesta inválida"}},
		{Consulta{Tipo: DestinoProhibido, Motivo: "x"}, 1000, almacen.Resultado{Estado: "CAIDO", Detalle: "destino prohibido: x"}},
		{Consulta{Tipo: Respuesta, Codigo: 503, Ms: 1, ReintentarEn: 120, HayReintentarEn: true}, 2000,
			almacen.Resultado{Estado: "CAIDO", Codigo: entero(503), Ms: entero(1), Detalle: "503 (reintentar en 120 s)"}},
		{Consulta{Tipo: Respuesta, Codigo: 404, Ms: 2}, 2000, almacen.Resultado{Estado: "CAIDO", Codigo: entero(404), Ms: entero(2), Detalle: "404"}},
		{Consulta{Tipo: Respuesta, Codigo: 200, Ms: 999}, 2000, almacen.Resultado{Estado: "ARRIBA", Codigo: entero(200), Ms: entero(999), Detalle: "200"}},
		{Consulta{Tipo: Respuesta, Codigo: 200, Ms: 1000}, 2000, almacen.Resultado{Estado: "LENTO", Codigo: entero(200), Ms: entero(1000), Detalle: "200"}},
		{Consulta{Tipo: Respuesta, Codigo: 301, Ms: 75}, 150, almacen.Resultado{Estado: "LENTO", Codigo: entero(301), Ms: entero(75), Detalle: "301"}},
		{Consulta{Tipo: Respuesta, Codigo: 200, Ms: 50}, 101, almacen.Resultado{Estado: "ARRIBA", Codigo: entero(200), Ms: entero(50), Detalle: "200"}},
	}
	for _, c := range casos {
		got := Clasificar(c.c, c.limite)
		if fmt.Sprint(describir(got)) != fmt.Sprint(describir(c.want)) {
			t.Errorf("Clasificar(%+v, %d) = %s, se esperaba %s", c.c, c.limite, describir(got), describir(c.want))
		}
	}
}

func describir(r almacen.Resultado) string {
	v := func(p *int) string {
		if p == nil {
			return "null"
		}
		return strconv.Itoa(*p)
	}
	return r.Estado + " " + v(r.Codigo) + " " + v(r.Ms) + " " + r.Detalle
}

func TestReintentosComoElCurso(t *testing.T) {
	t.Parallel()
	lab := nuevoLaboratorio(t)
	casos := []struct {
		ruta     string
		limite   int
		llamadas int
		esperas  int
		detalle  string
	}{
		{"/codigo/502", 2000, 3, 2, "502"},
		{"/codigo/504", 2000, 3, 2, "504"},
		{"/cortar", 2000, 3, 2, "respuesta inválida"},
		{"/lento/300", 100, 3, 2, "tiempo agotado"},
		{"/codigo/503", 2000, 1, 0, "503 (reintentar en 120 s)"}, // asks 120 s > 5 s: not insisted on
		{"/codigo/429", 2000, 1, 0, "429 (reintentar en 30 s)"},
		{"/codigo/404", 2000, 1, 0, "404"},
		{"/codigo/500", 2000, 1, 0, "500"},
		{"/codigo/200", 2000, 1, 0, "200"},
	}
	for _, c := range casos {
		t.Run(c.ruta, func(t *testing.T) {
			t.Parallel()
			esp := &sinEspera{}
			s := nuevaSonda([]string{lab.addr()}, esp)
			res, ok := s.RevisarConReintentos(context.Background(), lab.URL+c.ruta, c.limite)
			if !ok || res.Detalle != c.detalle {
				t.Errorf("resultado %s, se esperaba %q", describir(res), c.detalle)
			}
			if n := lab.veces(c.ruta); n != c.llamadas {
				t.Errorf("%d llamadas, se esperaban %d", n, c.llamadas)
			}
			if len(esp.esperas) != c.esperas {
				t.Fatalf("%d esperas, se esperaban %d", len(esp.esperas), c.esperas)
			}
			for i, e := range esp.esperas {
				techo := reintento.PoliticaRevision().Techo(i + 1)
				if e < 0 || e > techo {
					t.Errorf("espera %d = %v fuera de [0, %v]", i+1, e, techo)
				}
			}
		})
	}
}

func TestRetryAfterCortoSeObedece(t *testing.T) {
	t.Parallel()
	lab := nuevoLaboratorio(t)
	esp := &sinEspera{}
	s := nuevaSonda([]string{lab.addr()}, esp)
	res, _ := s.RevisarConReintentos(context.Background(), lab.URL+"/codigo/503?espera=2", 2000)
	if len(esp.esperas) != 2 || esp.esperas[0] != 2*time.Second || esp.esperas[1] != 2*time.Second {
		t.Errorf("esperas %v, se esperaban dos de 2 s exactos", esp.esperas)
	}
	if res.Detalle != "503 (reintentar en 2 s)" {
		t.Errorf("detalle %q", res.Detalle)
	}
	esp = &sinEspera{}
	s = nuevaSonda([]string{lab.addr()}, esp)
	s.RevisarConReintentos(context.Background(), lab.URL+"/codigo/429?espera=5", 2000)
	if len(esp.esperas) != 2 || esp.esperas[0] != 5*time.Second {
		t.Errorf("Retry-After: 5 (el tope) se obedece: esperas %v", esp.esperas)
	}
	esp = &sinEspera{}
	s = nuevaSonda([]string{lab.addr()}, esp)
	s.RevisarConReintentos(context.Background(), lab.URL+"/codigo/429?espera=6", 2000)
	if len(esp.esperas) != 0 {
		t.Errorf("Retry-After: 6 no se insiste: esperas %v", esp.esperas)
	}
}

func TestCancelarNoGuarda(t *testing.T) {
	t.Parallel()
	lab := nuevoLaboratorio(t)
	ctx, cancelar := context.WithCancel(context.Background())
	o := Opciones{Politica: reintento.PoliticaRevision()}
	// The revisor shuts down while the check waits to try again.
	o.Politica.Dormir = func(ctx context.Context, _ time.Duration) error {
		cancelar()
		<-ctx.Done()
		return ctx.Err()
	}
	s := Nueva(destinos.Nuevo([]string{lab.addr()}, nil), o)
	if _, ok := s.RevisarConReintentos(ctx, lab.URL+"/codigo/502", 2000); ok {
		t.Error("un chequeo cortado por el apagado no debe dar resultado")
	}
}

// rebote answers a public address the first time a name is asked, and the laboratory's loopback
// address afterwards: the DNS rebinding the course's reference leaves open.
type rebote struct {
	preguntas atomic.Int32
	lab       netip.Addr
}

func (r *rebote) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if r.preguntas.Add(1) == 1 {
		return []netip.Addr{netip.MustParseAddr("93.184.215.14")}, nil
	}
	return []netip.Addr{r.lab}, nil
}

func TestRebindingDNSNoLlegaAlaRedInterna(t *testing.T) {
	t.Parallel()
	var conexiones atomic.Int32
	interno := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, "secreto")
	}))
	interno.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			conexiones.Add(1)
		}
	}
	interno.Start()
	t.Cleanup(interno.Close)
	_, puerto, _ := net.SplitHostPort(strings.TrimPrefix(interno.URL, "http://"))

	dns := &rebote{lab: netip.MustParseAddr("127.0.0.1")}
	s := Nueva(destinos.Nuevo([]string{}, dns), Opciones{})
	got := s.Consultar(context.Background(), "http://servicio.example:"+puerto+"/", 2000)
	if got.Tipo != DestinoProhibido || got.Motivo != "servicio.example resuelve a una dirección privada o reservada" {
		t.Errorf("Consultar = %+v, se esperaba destino-prohibido al conectar", got)
	}
	if n := dns.preguntas.Load(); n != 2 {
		t.Errorf("el nombre se resolvió %d veces, se esperaban 2 (revisión y conexión)", n)
	}
	if n := conexiones.Load(); n != 0 {
		t.Errorf("la sonda abrió %d conexiones con la dirección interna", n)
	}
}

// A probe carries the trace its context carries; an observer gives each probe a span of its own
// and hears how it ended, once per attempt of a check.
func TestLaSondaLlevaLaTraza(t *testing.T) {
	t.Parallel()
	recibidas := make(chan string, 10)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		recibidas <- r.Header.Get("traceparent")
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	addr := strings.TrimPrefix(srv.URL, "http://")
	padre := traza.Nueva()
	ctx := traza.EnContexto(context.Background(), &padre)

	if c := nuevaSonda([]string{addr}, nil).Consultar(ctx, srv.URL+"/x", 1000); c.Codigo != 503 {
		t.Fatalf("%+v", c)
	}
	if got := <-recibidas; got != padre.Valor() {
		t.Fatalf("traceparent %q, se esperaba %q", got, padre.Valor())
	}
	if c := nuevaSonda([]string{addr}, nil).Consultar(context.Background(), srv.URL+"/x", 1000); c.Codigo != 503 {
		t.Fatalf("%+v", c)
	}
	if got := <-recibidas; got != "" {
		t.Fatalf("sin traza la sonda mandó traceparent %q", got)
	}

	var mu sync.Mutex
	var vistas []Consulta
	var tramos []traza.Tramo
	esp := &sinEspera{}
	o := Opciones{Politica: reintento.PoliticaRevision(), Observar: func(ctx context.Context, url string) (context.Context, func(Consulta)) {
		h := traza.DeContexto(ctx).Hijo()
		mu.Lock()
		tramos = append(tramos, h.Tramo)
		mu.Unlock()
		return traza.EnContexto(ctx, &h), func(c Consulta) { mu.Lock(); vistas = append(vistas, c); mu.Unlock() }
	}}
	o.Politica.Dormir = esp.dormir
	if _, ok := Nueva(destinos.Nuevo([]string{addr}, nil), o).RevisarConReintentos(ctx, srv.URL+"/x", 1000); !ok {
		t.Fatal("la revisión no terminó")
	}
	if len(vistas) != 3 || len(tramos) != 3 {
		t.Fatalf("el observador vio %d sondas", len(vistas))
	}
	for i := range 3 {
		got, _ := traza.Leer(<-recibidas)
		if got.Traza != padre.Traza || got.Padre != tramos[i] || vistas[i].Codigo != 503 {
			t.Errorf("intento %d: traceparent %+v, tramo %s, consulta %+v", i+1, got, tramos[i], vistas[i])
		}
	}
}
