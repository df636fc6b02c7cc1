package eventos

import (
	"bufio"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"cursohttp/internal/prueba"
	"cursohttp/pkg/traza"
)

// panelDePrueba records what arrives at /eventos.
type panelDePrueba struct {
	mu      sync.Mutex
	eventos []Evento
	lotes   int
	token   string // what every batch must carry in Authorization: Bearer
}

func (p *panelDePrueba) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	sc := bufio.NewScanner(r.Body)
	p.mu.Lock()
	defer p.mu.Unlock()
	if r.Header.Get("Authorization") != "Bearer "+p.token {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	p.lotes++
	for sc.Scan() {
		var ev Evento
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		p.eventos = append(p.eventos, ev)
	}
	w.WriteHeader(http.StatusNoContent)
}

func (p *panelDePrueba) recibidos() []Evento {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Evento(nil), p.eventos...)
}

// Every event sent before Cerrar arrives, in order, in as few requests as the queue allows.
func TestEmisorMandaTodoAlCerrar(t *testing.T) {
	t.Parallel()
	p := &panelDePrueba{token: "del-laboratorio"}
	srv := httptest.NewServer(p)
	defer srv.Close()
	e := NuevoEmisor(srv.URL+"/", "del-laboratorio", nil)
	tc := traza.Nueva()
	for i := 1; i <= 500; i++ {
		ev := Evento{Programa: "revisor", Tipo: Peticion, Intento: i, Inicio: time.Now()}
		ev.EnTraza(tc)
		e.Enviar(ev)
	}
	e.Cerrar(5 * time.Second)
	got := p.recibidos()
	if len(got) != 500 || e.Perdidos() != 0 {
		t.Fatalf("llegaron %d de 500; perdidos %d", len(got), e.Perdidos())
	}
	for i, ev := range got {
		if ev.Intento != i+1 || ev.Traza != tc.Traza.String() || ev.Tramo != tc.Tramo.String() || ev.Padre != "" {
			t.Fatalf("evento %d: %+v", i, ev)
		}
	}
	if p.lotes >= 500 {
		t.Errorf("%d peticiones para 500 eventos: no se juntaron", p.lotes)
	}
}

// A panel that is not there never holds the program: Enviar returns at once, the events are
// counted as lost, and the program is told once, not once per event.
func TestEmisorSinPanel(t *testing.T) {
	t.Parallel()
	addr := "127.0.0.1:" + strconv.Itoa(prueba.PuertosLibres(t, 1)[0]) // nobody listens there
	var mu sync.Mutex
	var avisos []string
	e := NuevoEmisor("http://"+addr, "", func(s string) { mu.Lock(); avisos = append(avisos, s); mu.Unlock() })
	inicio := time.Now()
	for range TopeCola * 2 {
		e.Enviar(Evento{Programa: "pasarela", Tipo: Peticion})
	}
	if d := time.Since(inicio); d > time.Second {
		t.Errorf("Enviar tardó %s sin panel", d)
	}
	e.Cerrar(5 * time.Second)
	if e.Perdidos() != TopeCola*2 {
		t.Errorf("perdidos %d, se esperaban %d", e.Perdidos(), TopeCola*2)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(avisos) != 1 || !strings.HasPrefix(avisos[0], "panel: no pude mandar eventos a http://"+addr+"/eventos (") {
		t.Errorf("avisos %q", avisos)
	}
}

// A panel that refuses the events (no token, or another lab's) is said once, with what to do.
func TestEmisorSinToken(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(&panelDePrueba{token: "del-laboratorio"})
	defer srv.Close()
	for token, aviso := range map[string]string{
		"":      "respondió 401 Unauthorized: falta el token del laboratorio, --token o CURSOHTTP_TOKEN); sigo sin él",
		"viejo": "respondió 401 Unauthorized: no es el token del laboratorio); sigo sin él",
	} {
		var mu sync.Mutex
		var avisos []string
		e := NuevoEmisor(srv.URL, token, func(s string) { mu.Lock(); avisos = append(avisos, s); mu.Unlock() })
		e.Enviar(Evento{Programa: "revisor", Tipo: Peticion})
		e.Cerrar(5 * time.Second)
		mu.Lock()
		if len(avisos) != 1 || avisos[0] != "panel: no pude mandar eventos a "+srv.URL+"/eventos ("+aviso || e.Perdidos() != 1 {
			t.Errorf("token %q: avisos %q, perdidos %d", token, avisos, e.Perdidos())
		}
		mu.Unlock()
	}
}

func TestNilNoHaceNada(t *testing.T) {
	t.Parallel()
	var e *Emisor
	e.Enviar(Evento{})
	e.Cerrar(time.Millisecond)
}
