package panel

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"cursohttp/internal/prueba"
	"cursohttp/internal/prueba/servidortest"
	"cursohttp/pkg/eventos"
	"cursohttp/pkg/fallas"
	"cursohttp/pkg/pasarela"
	"cursohttp/pkg/topes"
)

// eventoGrande is one event line whose every text field is n bytes of x.
func eventoGrande(i, n int) string {
	x := strings.Repeat("x", n)
	return `{"programa":"revisor","tipo":"peticion","inicio":"2026-01-01T00:00:00Z","ms":` + strconv.Itoa(i) +
		`,"ruta":"/` + x + `","llave":"` + x + `","resultado":"` + x + `","detalle":"` + x + `","nombre":"` + x + `"}` + "\n"
}

// Issue 22.5: the history was bounded by count only, and 25 events of 4 MB held 780 MB. An event's
// line is now bounded (413, nothing kept), its texts are cut, and the history keeps what fits in
// topes.HistoriaBytes, the newest.
func TestHistoriaAcotadaEnBytes(t *testing.T) {
	t.Parallel()
	p := Nuevo(Opciones{Log: zerolog.Nop(), Token: "profe"})
	srv := servidortest.Nuevo(t, p)
	resp, err := postear(srv.URL+RutaEventos, "profe", eventos.Tipo, eventoGrande(0, 4<<20))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 413 || string(b) != "un evento pasa de 64 KiB: no tomo el lote\n" {
		t.Fatalf("un evento de 4 MB: %d %q", resp.StatusCode, b)
	}
	// 25 batches of 100 events of about 10 KB each (26 MB sent): the texts are cut to topes.CampoDeEvento.
	for lote := range 25 {
		var cuerpo strings.Builder
		for i := range 100 {
			cuerpo.WriteString(eventoGrande(lote*100+i, 2100))
		}
		resp, err := postear(srv.URL+RutaEventos, "profe", eventos.Tipo, cuerpo.String())
		if err != nil || resp.StatusCode != 204 {
			t.Fatalf("lote %d: %v %v", lote, resp, err)
		}
	}
	p.mu.Lock()
	bytes, guardados, total := p.bytes, len(p.historia)-p.desde, len(p.historia)
	ultimo := string(p.historia[len(p.historia)-1])
	p.mu.Unlock()
	if bytes > topes.HistoriaBytes || guardados >= 2500 || total > 2*guardados+1 {
		t.Errorf("la historia guarda %d eventos (%d en su arreglo) y %d bytes; el tope es %d bytes", guardados, total, bytes, topes.HistoriaBytes)
	}
	if !strings.Contains(ultimo, `"ms":2499`) || !strings.Contains(ultimo, strings.Repeat("x", topes.CampoDeEvento-1)+"…") ||
		strings.Contains(ultimo, strings.Repeat("x", topes.CampoDeEvento+1)) {
		t.Errorf("el último evento no es el más nuevo, recortado: %.200q…", ultimo)
	}
	t.Logf("historia: %d eventos, %d bytes (tope %d)", guardados, bytes, topes.HistoriaBytes)
}

// Issue 22.4: pages that open the stream and never read used to hold the panel's connections for
// good. Each write to a stream has a deadline: stalled streams are dropped, an ordinary request is
// answered meanwhile, and past topes.Flujos a new page gets 503.
func TestFlujosQueNoLeen(t *testing.T) {
	t.Parallel()
	p := Nuevo(Opciones{Log: zerolog.Nop(), Token: "profe", EsperaEscritura: 3 * time.Second})
	srv := servidortest.Nuevo(t, p)
	// About 8 MB of history, which a page that reads nothing cannot take.
	for lote := range 4 {
		var cuerpo strings.Builder
		for i := range 200 {
			cuerpo.WriteString(eventoGrande(lote*200+i, 2000))
		}
		if resp, err := postear(srv.URL+RutaEventos, "profe", eventos.Tipo, cuerpo.String()); err != nil || resp.StatusCode != 204 {
			t.Fatalf("lote %d: %v %v", lote, resp, err)
		}
	}
	addr := srv.Listener.Addr().String()
	var conns []net.Conn
	t.Cleanup(func() {
		for _, c := range conns {
			c.Close()
		}
	})
	abrir := func(n int) {
		for range n {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			c.(*net.TCPConn).SetReadBuffer(4096)
			if _, err := io.WriteString(c, "GET /flujo HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
				t.Fatal(err)
			}
			conns = append(conns, c)
		}
	}
	abrir(30)
	prueba.Esperar(t, "las 30 páginas abiertas", func() bool { return p.Paginas() == 30 })
	inicio := time.Now()
	resp, err := http.Get(srv.URL + "/panel.css")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("una petición normal con 30 páginas que no leen: %v %v", resp, err)
	}
	resp.Body.Close()
	t.Logf("una petición normal respondida en %s", time.Since(inicio).Round(time.Millisecond))
	prueba.Esperar(t, "que el panel suelte las páginas que no leen", func() bool { return p.Paginas() == 0 })

	// The cap: topes.Flujos streams (a small history now, so they stay open), then one more.
	if resp, err := postear(srv.URL+RutaBorrar, "profe", "", ""); err != nil || resp.StatusCode != 204 {
		t.Fatalf("borrar: %v %v", resp, err)
	}
	abrir(topes.Flujos)
	prueba.Esperar(t, "topes.Flujos páginas abiertas", func() bool { return p.Paginas() == topes.Flujos })
	resp, err = http.Get(srv.URL + RutaFlujo)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") != "5" || !strings.HasPrefix(string(b), "hay 256 páginas abiertas, el tope") {
		t.Errorf("una página más: %d %q %q", resp.StatusCode, resp.Header.Get("Retry-After"), b)
	}
}

// The control's list of modes is the gateway's own (pkg/fallas, which the gateway's tests check
// against its parser), each one a mode the gateway takes; and the page's marks know exactly the
// gateway's outcomes (eventos.Desenlaces), not its sentences.
func TestModosYDesenlacesDeLaPasarela(t *testing.T) {
	t.Parallel()
	srv := servidortest.Nuevo(t, Nuevo(Opciones{Log: zerolog.Nop()}))
	resp, err := http.Get(srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var valores []string
	for _, m := range regexp.MustCompile(`<option value="([^"]*)"`).FindAllSubmatch(b, -1) {
		valores = append(valores, string(m[1]))
	}
	want := []string{"ninguna"}
	for _, m := range fallas.Modos {
		want = append(want, m.Valor)
	}
	if strings.Join(valores, " ") != strings.Join(want, " ") {
		t.Errorf("la página ofrece %q; la pasarela tiene %q", valores, want)
	}
	for _, v := range valores[1:] {
		if _, err := pasarela.LeerSimulacion(v, 1); err != nil {
			t.Errorf("la página ofrece «%s», que la pasarela no toma: %v", v, err)
		}
	}
	// The outcomes come in the page, from the gateway's table, and panel.js keeps no list of its own.
	m := regexp.MustCompile(`<script type="application/json" id="desenlaces">(.*?)</script>`).FindSubmatch(b)
	if m == nil {
		t.Fatal("la página no lleva los desenlaces de la pasarela")
	}
	var enLaPagina []eventos.Desenlace
	if err := json.Unmarshal(m[1], &enLaPagina); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(enLaPagina, eventos.Desenlaces) {
		t.Errorf("la página lleva %v; la pasarela dice %v", enLaPagina, eventos.Desenlaces)
	}
	js, err := os.ReadFile("web/panel.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range eventos.Desenlaces {
		if strings.Contains(string(js), d.Marca) {
			t.Errorf("panel.js repite la marca «%s»: viene de la página", d.Marca)
		}
	}
	for _, frase := range []string{`=== "nunca llegó al revisor"`, `=== "respuesta perdida"`, `includes(ev.resultado)`} {
		if strings.Contains(string(js), frase) {
			t.Errorf("panel.js decide por el texto de resultado: %s", frase)
		}
	}
}
