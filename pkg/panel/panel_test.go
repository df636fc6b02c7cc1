package panel

import (
	"bufio"
	"context"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"cursohttp/internal/prueba"
	"cursohttp/internal/prueba/servidortest"
	"cursohttp/pkg/bitacora"
	"cursohttp/pkg/eventos"
	"cursohttp/pkg/pasarela"
	"cursohttp/pkg/token"
	"cursohttp/pkg/traza"
)

// flujo reads a page's stream: one (event, data) pair per server-sent event.
type flujo struct {
	cancelar context.CancelFunc
	c        chan [2]string
}

func abrirFlujo(t *testing.T, base string) *flujo {
	t.Helper()
	ctx, cancelar := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", base+RutaFlujo, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Header.Get("Content-Type") != "text/event-stream; charset=utf-8" {
		t.Fatalf("Content-Type %q", resp.Header.Get("Content-Type"))
	}
	f := &flujo{cancelar: cancelar, c: make(chan [2]string, 100)}
	go func() {
		defer resp.Body.Close()
		defer close(f.c)
		sc := bufio.NewScanner(resp.Body)
		var tipo string
		for sc.Scan() {
			l := sc.Text()
			switch {
			case strings.HasPrefix(l, "event: "):
				tipo = l[len("event: "):]
			case strings.HasPrefix(l, "data: "):
				f.c <- [2]string{tipo, l[len("data: "):]}
			}
		}
	}()
	t.Cleanup(cancelar)
	return f
}

func (f *flujo) siguiente(t *testing.T) [2]string {
	t.Helper()
	select {
	case m, ok := <-f.c:
		if !ok {
			t.Fatal("el flujo se cerró")
		}
		return m
	case <-time.After(5 * time.Second):
		t.Fatal("el flujo no trajo nada en 5 s")
	}
	return [2]string{}
}

// A program's events reach every open page, and a page that opens later gets them first.
func TestEventosALasPaginas(t *testing.T) {
	t.Parallel()
	p := Nuevo(Opciones{Pasarela: "http://127.0.0.1:1", Log: zerolog.Nop(), Token: "profe"})
	srv := servidortest.Nuevo(t, p)
	antes := abrirFlujo(t, srv.URL)
	if m := antes.siguiente(t); m != [2]string{"inicio", `""`} {
		t.Fatalf("primero %v", m)
	}
	if m := antes.siguiente(t); m[0] != "simular" || !strings.Contains(m[1], "la pasarela no responde en http://127.0.0.1:1") {
		t.Fatalf("después %v", m)
	}
	emisor := eventos.NuevoEmisor(srv.URL, "profe", nil)
	tc := traza.Nueva()
	for i := 1; i <= 3; i++ {
		ev := eventos.Evento{Programa: "alta-segura", Tipo: eventos.Intento, Intento: i, Inicio: time.Now()}
		ev.EnTraza(tc.Hijo())
		emisor.Enviar(ev)
	}
	emisor.Cerrar(5 * time.Second)
	for i := 1; i <= 3; i++ {
		if m := antes.siguiente(t); m[0] != "evento" || !strings.Contains(m[1], `"intento":`+string(rune('0'+i))) || !strings.Contains(m[1], tc.Traza.String()) {
			t.Fatalf("evento %d: %v", i, m)
		}
	}
	despues := abrirFlujo(t, srv.URL)
	despues.siguiente(t)
	despues.siguiente(t)
	for i := 1; i <= 3; i++ {
		if m := despues.siguiente(t); m[0] != "evento" || !strings.Contains(m[1], `"intento":`+string(rune('0'+i))) {
			t.Fatalf("historia %d: %v", i, m)
		}
	}
	// Limpiar: the pages forget, and so does the history.
	if resp, err := postear(srv.URL+RutaBorrar, "profe", "", ""); err != nil || resp.StatusCode != 204 {
		t.Fatalf("borrar: %v %v", resp, err)
	}
	if m := despues.siguiente(t); m[0] != "borrar" {
		t.Fatalf("tras borrar %v", m)
	}
	p.mu.Lock()
	quedan := len(p.historia)
	p.mu.Unlock()
	if quedan != 0 {
		t.Fatal("la historia sigue")
	}
}

// What is not an event is refused whole, with one sentence.
func TestEventosInvalidos(t *testing.T) {
	t.Parallel()
	srv := servidortest.Nuevo(t, Nuevo(Opciones{Log: zerolog.Nop(), Token: "profe"}))
	for _, cuerpo := range []string{"no es json\n", `{"programa":"revisor"}` + "\n", `{"tipo":"peticion"}`} {
		resp, err := postear(srv.URL+RutaEventos, "profe", eventos.Tipo, cuerpo)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 400 || string(b) != "cada línea debe ser un evento en JSON con programa y tipo\n" {
			t.Errorf("%q: %d %q", cuerpo, resp.StatusCode, b)
		}
	}
}

// The control: the page's form sets the real gateway's process-wide fault and every page hears
// the line that says which is in force; the gateway's refusal comes back as its sentence.
func TestControlDeLaFalla(t *testing.T) {
	t.Parallel()
	u, _ := url.Parse("http://127.0.0.1:1")
	var logPasarela prueba.Buffer
	pas := pasarela.Nueva(pasarela.Opciones{Destinos: []*url.URL{u}, Log: bitacora.NuevoLogger(&logPasarela, &logPasarela, false), Token: "profe"})
	ps := servidortest.Nuevo(t, pas)
	p := Nuevo(Opciones{Pasarela: ps.URL, Log: zerolog.Nop(), Token: "profe"})
	srv := servidortest.Nuevo(t, p)
	f := abrirFlujo(t, srv.URL)
	f.siguiente(t)
	if m := f.siguiente(t); m[1] != `"pasarela: sin --simular: solo fallan las peticiones con X-Simular"` {
		t.Fatalf("al abrir: %v", m)
	}
	enviar := func(campos url.Values) (int, string) {
		resp, err := postear(srv.URL+RutaSimular, "profe", "application/x-www-form-urlencoded", campos.Encode())
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	const linea = "pasarela: --simular perder-siempre@0.3 --semilla 7 (las peticiones sin X-Simular)"
	if c, b := enviar(url.Values{"modo": {"perder"}, "prob": {"0.3"}, "semilla": {"7"}}); c != 200 || b != linea+"\n" {
		t.Fatalf("%d %q", c, b)
	}
	if m := f.siguiente(t); m != [2]string{"simular", `"` + linea + `"`} {
		t.Fatalf("la página oyó %v", m)
	}
	if s := pas.Simulando(); s == nil || s.String() != "perder-siempre@0.3" || s.Semilla != 7 {
		t.Fatalf("la pasarela simula %v", s)
	}
	if c, b := enviar(url.Values{"modo": {"lento"}}); c != 400 || b != "«lento»: lento lleva un número de 1 a 99999 (lento:N)\n" {
		t.Fatalf("%d %q", c, b)
	}
	if c, _ := enviar(url.Values{"modo": {"ninguna"}, "prob": {"0.5"}}); c != 200 || pas.Simulando() != nil {
		t.Fatalf("ninguna: %d %v", c, pas.Simulando())
	}
	// A gateway that is not there is said so.
	sola := servidortest.Nuevo(t, Nuevo(Opciones{Pasarela: "http://127.0.0.1:1", Log: zerolog.Nop(), Token: "profe"}))
	resp, _ := postear(sola.URL+RutaSimular, "profe", "application/x-www-form-urlencoded", "modo=perder")
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 502 || string(b) != "la pasarela no responde en http://127.0.0.1:1\n" {
		t.Fatalf("%d %q", resp.StatusCode, b)
	}
	// A gateway of another lab (another token) is said so too, and nothing changes.
	otro := servidortest.Nuevo(t, Nuevo(Opciones{Pasarela: ps.URL, Log: zerolog.Nop(), Token: "otro"}))
	resp, _ = postear(otro.URL+RutaSimular, "otro", "application/x-www-form-urlencoded", "modo=perder")
	b, _ = io.ReadAll(resp.Body)
	if resp.StatusCode != 502 || !strings.HasPrefix(string(b), "la pasarela de "+ps.URL+" no acepta el token de este panel") || pas.Simulando() != nil {
		t.Fatalf("%d %q", resp.StatusCode, b)
	}
}

// postear is a POST with the lab's token (none when token is empty) and extra headers.
func postear(ruta, token, tipo, cuerpo string, cabeceras ...string) (*http.Response, error) {
	req, _ := http.NewRequest("POST", ruta, strings.NewReader(cuerpo))
	if tipo != "" {
		req.Header.Set("Content-Type", tipo)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for _, c := range cabeceras {
		n, v, _ := strings.Cut(c, ": ")
		req.Header.Set(n, v)
	}
	return http.DefaultClient.Do(req)
}

// Only the instructor changes the page for everybody: without the lab's token, with another one,
// or from a page of another site even with the right one, no event is taken, the history is not
// cleared and the gateway's fault does not move; each refusal is a line in the panel's log.
func TestSinTokenNadaCambia(t *testing.T) {
	t.Parallel()
	u, _ := url.Parse("http://127.0.0.1:1")
	pas := pasarela.Nueva(pasarela.Opciones{Destinos: []*url.URL{u}, Log: zerolog.Nop(), Token: "profe"})
	ps := servidortest.Nuevo(t, pas)
	var log prueba.Buffer
	p := Nuevo(Opciones{Pasarela: ps.URL, Log: bitacora.NuevoLogger(&log, &log, false), Token: "profe",
		IntervaloRechazos: 50 * time.Millisecond})
	srv := servidortest.Nuevo(t, p)
	evento := `{"programa":"pasarela","tipo":"peticion","escritura":true,"inicio":"2026-01-01T00:00:00Z","ms":1}` + "\n"
	if resp, err := postear(srv.URL+RutaEventos, "profe", eventos.Tipo, evento); err != nil || resp.StatusCode != 204 {
		t.Fatalf("el evento del laboratorio: %v %v", resp, err)
	}
	const (
		falta = "cambiar el laboratorio para todos pide el token del laboratorio (Authorization: Bearer …): el panel lo toma de --token o de CURSOHTTP_TOKEN (el laboratorio se lo da: «laboratorio lab token» lo muestra); en la página, ábrela con el enlace de una vez («laboratorio lab enlace»)\n"
		malo  = "ese no es el token del laboratorio: el panel lo toma de --token o de CURSOHTTP_TOKEN (el laboratorio se lo da: «laboratorio lab token» lo muestra); en la página, ábrela con el enlace de una vez («laboratorio lab enlace»)\n"
		sitio = "una página de otro sitio no puede cambiar el laboratorio\n"
	)
	rutas := []struct{ ruta, tipo, cuerpo string }{
		{RutaEventos, eventos.Tipo, evento},
		{RutaEventos, "text/plain", evento}, // what a form of another site can send without preflight
		{RutaSimular, "application/x-www-form-urlencoded", "modo=codigo%3A201"},
		{RutaBorrar, "", ""},
	}
	casos := []struct {
		nombre, token string
		cabeceras     []string
		codigo        int
		dice          string
	}{
		{"sin token", "", nil, 401, falta},
		{"otro token", "profe2", nil, 401, malo},
		{"una credencial del revisor", "escritura-a", nil, 401, malo},
		{"de otro sitio, con el token", "profe", []string{"Sec-Fetch-Site: cross-site", "Origin: http://ataque.example"}, 403, sitio},
		{"de otro puerto, con el token", "profe", []string{"Sec-Fetch-Site: same-site", "Origin: http://127.0.0.1:1"}, 403, sitio},
		{"un formulario de otro sitio", "", []string{"Sec-Fetch-Site: cross-site", "Origin: null"}, 403, sitio},
	}
	rechazos := 0
	for _, c := range casos {
		for _, r := range rutas {
			resp, err := postear(srv.URL+r.ruta, c.token, r.tipo, r.cuerpo, c.cabeceras...)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			rechazos++
			if resp.StatusCode != c.codigo || string(b) != c.dice {
				t.Errorf("%s, %s: %d %q", c.nombre, r.ruta, resp.StatusCode, b)
			}
			if c.codigo == 401 && resp.Header.Get("WWW-Authenticate") != `Bearer realm="laboratorio"` {
				t.Errorf("%s, %s: WWW-Authenticate %q", c.nombre, r.ruta, resp.Header.Get("WWW-Authenticate"))
			}
		}
	}
	p.mu.Lock()
	quedan := len(p.historia)
	p.mu.Unlock()
	if quedan != 1 || pas.Simulando() != nil {
		t.Errorf("quedan %d eventos (se esperaba el del laboratorio); la pasarela simula %v", quedan, pas.Simulando())
	}
	// Each refusal is in the log: the first few of each interval in full, the rest summed up
	// (issue 34, item 3).
	suma := regexp.MustCompile(`panel: (\d+) rechazos más de 127\.0\.0\.1 en 0\.05 s`)
	contados := func() (enteras, sumadas int) {
		texto := log.String()
		for _, m := range suma.FindAllStringSubmatch(texto, -1) {
			n, _ := strconv.Atoi(m[1])
			sumadas += n
		}
		return strings.Count(texto, "panel: rechazo POST /"), sumadas
	}
	prueba.Esperar(t, "los rechazos en la bitácora", func() bool { e, s := contados(); return e+s == rechazos })
	if e, _ := contados(); e > token.TopeEnteras*4 || e == 0 {
		t.Errorf("%d rechazos enteros en la bitácora:\n%s", e, log.String())
	}
	// A program's request with the token, as the browser would send it from the panel's own page.
	if resp, err := postear(srv.URL+RutaBorrar, "profe", "", "", "Sec-Fetch-Site: same-origin", "Origin: "+srv.URL); err != nil || resp.StatusCode != 204 {
		t.Fatalf("la propia página: %v %v", resp, err)
	}
}

// Issue 34, item 1: the page carries no token, whoever asks for it and by whatever name; without
// the instructor's session it says at its top that it only reads. Never cached, never framed.
func TestLaPaginaNoLlevaElToken(t *testing.T) {
	t.Parallel()
	srv := servidortest.Nuevo(t, Nuevo(Opciones{Log: zerolog.Nop(), Token: "profe-1234567890"}))
	for _, host := range []string{"", "localhost:18084", "[::1]:18084", "192.168.1.10:18084", "ataque.example:18084"} {
		req, _ := http.NewRequest("GET", srv.URL+"/", nil)
		if host != "" {
			req.Host = host
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || strings.Contains(string(b), "profe-1234567890") ||
			strings.Contains(string(b), `name="token"`) {
			t.Errorf("Host %q: %d, la página lleva un token:\n%s", host, resp.StatusCode, b)
		}
		if !strings.Contains(string(b), `<meta name="acceso" content="lectura">`) || !strings.Contains(string(b), AvisoLectura) {
			t.Errorf("Host %q: la página no dice que solo muestra", host)
		}
		if resp.Header.Get("Cache-Control") != "no-store" || resp.Header.Get("X-Frame-Options") != "DENY" ||
			!strings.Contains(resp.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'") ||
			resp.Header.Get("Content-Type") != "text/html; charset=utf-8" || resp.Header.Get("Set-Cookie") != "" {
			t.Errorf("Host %q: cabeceras %v", host, resp.Header)
		}
	}
	// Without a token of its own the panel makes one: nothing is open to an empty one.
	p := Nuevo(Opciones{Log: zerolog.Nop()})
	if len(p.puerta.Instructor) != 22 {
		t.Fatalf("token %q", p.puerta.Instructor)
	}
	w := httptest.NewRecorder()
	r := httptest.NewRequest("POST", RutaBorrar, nil)
	r.Header.Set("Authorization", "Bearer ")
	p.ServeHTTP(w, r)
	if w.Code != 401 {
		t.Errorf("token vacío: %d", w.Code)
	}
}

// The instructor's way in: a one-time link made with the lab's token gives a session cookie
// (HttpOnly, SameSite=Strict, Path=/, a random value that is not the token); the link works once
// and only within its time; with the cookie the page is the instructor's and its requests act;
// without it, or from another site with it, they are refused.
func TestEnlaceDeUnaVez(t *testing.T) {
	t.Parallel()
	reloj := prueba.NuevoReloj(time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC))
	var log prueba.Buffer
	p := Nuevo(Opciones{Pasarela: "http://127.0.0.1:1", Log: bitacora.NuevoLogger(&log, &log, false), Token: "secreto-del-lab", Ahora: reloj.Ahora})
	srv := servidortest.Nuevo(t, p)
	sinSeguir := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	abrir := func(enlace string) *http.Response {
		t.Helper()
		resp, err := sinSeguir.Get(enlace)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	enlace := token.Enlace(srv.URL, "secreto-del-lab", reloj.Ahora())
	if strings.Contains(enlace, "secreto-del-lab") {
		t.Fatalf("el enlace lleva el token: %s", enlace)
	}
	resp := abrir(enlace)
	galletas := resp.Cookies()
	if resp.StatusCode != 303 || resp.Header.Get("Location") != "/" || len(galletas) != 1 {
		t.Fatalf("el enlace: %d %v", resp.StatusCode, resp.Header)
	}
	g := galletas[0]
	if g.Name != token.Galleta || !g.HttpOnly || g.SameSite != http.SameSiteStrictMode || g.Path != "/" ||
		len(g.Value) < 40 || strings.Contains(g.Value, "secreto-del-lab") {
		t.Errorf("la galleta: %+v", g)
	}
	// Once only.
	if resp := abrir(enlace); resp.StatusCode != 403 || len(resp.Cookies()) != 0 {
		t.Errorf("el mismo enlace otra vez: %d %v", resp.StatusCode, resp.Header)
	}
	// Made with another token, forged, too late.
	for _, otro := range []string{token.Enlace(srv.URL, "otro", reloj.Ahora()), srv.URL + RutaEnlace + "?codigo=a.1.b", srv.URL + RutaEnlace} {
		if resp := abrir(otro); resp.StatusCode != 403 || len(resp.Cookies()) != 0 {
			t.Errorf("%s: %d", otro, resp.StatusCode)
		}
	}
	tarde := token.Enlace(srv.URL, "secreto-del-lab", reloj.Ahora())
	reloj.Avanzar(token.VigenciaEnlace + time.Second)
	if resp := abrir(tarde); resp.StatusCode != 403 {
		t.Errorf("un enlace vencido: %d", resp.StatusCode)
	}
	// With the cookie the page is the instructor's, and its requests act.
	pedir := func(metodo, ruta string, cabeceras ...string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(metodo, srv.URL+ruta, nil)
		for _, c := range cabeceras {
			n, v, _ := strings.Cut(c, ": ")
			req.Header.Set(n, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	conGalleta := "Cookie: " + token.Galleta + "=" + g.Value
	if _, pagina := pedir("GET", "/", conGalleta); !strings.Contains(pagina, `<meta name="acceso" content="profesor">`) ||
		strings.Contains(pagina, AvisoLectura) || strings.Contains(pagina, "secreto-del-lab") {
		t.Errorf("con la galleta, la página no es la del profesor:\n%s", pagina)
	}
	if codigo, _ := pedir("POST", RutaBorrar, conGalleta, "Sec-Fetch-Site: same-origin", "Origin: "+srv.URL); codigo != 204 {
		t.Errorf("«Limpiar» con la galleta: %d", codigo)
	}
	for _, c := range []struct {
		nombre    string
		cabeceras []string
		codigo    int
	}{
		{"sin galleta", []string{"Sec-Fetch-Site: same-origin", "Origin: " + srv.URL}, 401},
		{"otra galleta", []string{"Cookie: " + token.Galleta + "=" + strings.Repeat("x", 44), "Sec-Fetch-Site: same-origin"}, 401},
		{"de otro sitio, con la galleta", []string{conGalleta, "Sec-Fetch-Site: cross-site", "Origin: http://ataque.example"}, 403},
		{"de otro puerto, con la galleta", []string{conGalleta, "Sec-Fetch-Site: same-site", "Origin: http://127.0.0.1:1"}, 403},
	} {
		for _, ruta := range []string{RutaBorrar, RutaSimular, RutaEventos} {
			if codigo, _ := pedir("POST", ruta, c.cabeceras...); codigo != c.codigo {
				t.Errorf("%s, %s: %d, se esperaba %d", c.nombre, ruta, codigo, c.codigo)
			}
		}
	}
	if strings.Contains(log.String(), "secreto-del-lab") || strings.Contains(log.String(), g.Value) {
		t.Errorf("la bitácora dice un secreto:\n%s", log.String())
	}
}

// Cerrar ends the open streams: a stopping server does not wait for the pages.
func TestCerrarTerminaLosFlujos(t *testing.T) {
	t.Parallel()
	p := Nuevo(Opciones{Pasarela: "http://127.0.0.1:1", Log: zerolog.Nop()})
	f := abrirFlujo(t, servidortest.Nuevo(t, p).URL)
	f.siguiente(t)
	f.siguiente(t)
	p.Cerrar()
	select {
	case _, ok := <-f.c:
		if ok {
			t.Fatal("el flujo siguió")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("el flujo no terminó")
	}
}

// Everything the page needs is in the binary and comes from the panel itself: no other host is
// named in the page, its script or its styles (no CDN, no fonts from elsewhere).
func TestTodoDesdeElBinario(t *testing.T) {
	t.Parallel()
	srv := servidortest.Nuevo(t, Nuevo(Opciones{Log: zerolog.Nop()}))
	externo := regexp.MustCompile(`(?i)(src|href)\s*=\s*["']?(https?:)?//|url\(\s*["']?(https?:)?//|@import|fetch\(\s*["']https?:|EventSource\(\s*["']https?:`)
	for _, ruta := range []string{"/", "/panel.js", "/panel.css"} {
		resp, err := http.Get(srv.URL + ruta)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || len(b) == 0 {
			t.Fatalf("%s: %d", ruta, resp.StatusCode)
		}
		if m := externo.Find(b); m != nil {
			t.Errorf("%s carga algo de otro sitio: %q", ruta, m)
		}
	}
	fs.WalkDir(web, "web", func(ruta string, d fs.DirEntry, err error) error {
		if !d.IsDir() && !strings.HasSuffix(ruta, ".html") && !strings.HasSuffix(ruta, ".js") && !strings.HasSuffix(ruta, ".css") {
			t.Errorf("%s: el panel sirve solo su página, su guion y su estilo", ruta)
		}
		return nil
	})
	for ruta, codigo := range map[string]int{"/otra": 404, "/web/index.html": 404} {
		resp, _ := http.Get(srv.URL + ruta)
		resp.Body.Close()
		if resp.StatusCode != codigo {
			t.Errorf("%s: %d", ruta, resp.StatusCode)
		}
	}
	req := httptest.NewRequest("DELETE", "/", nil)
	w := httptest.NewRecorder()
	Nuevo(Opciones{}).ServeHTTP(w, req)
	if w.Code != 405 {
		t.Errorf("DELETE /: %d", w.Code)
	}
}

// Issue 40, item 9: the panel's class page of local mode is gone. What it served, and what an old
// grader sends there (its question before grading, its post with a token and a body), is 410 with
// one line that says where the class board is now; nothing is taken, and the panel's own page
// is still there.
func TestLaClaseSeFue(t *testing.T) {
	t.Parallel()
	srv := servidortest.Nuevo(t, Nuevo(Opciones{Log: zerolog.Nop(), Token: "profe"}))
	cuerpo := `{"alumno":"Ana","comprobaciones":[{"id":"una-escritura","paso":true}]}`
	for _, c := range []struct{ metodo, ruta, token, cuerpo string }{
		{"GET", RutaClase, "", ""},
		{"GET", RutaClase + "/", "", ""},
		{"GET", RutaClase + "/estado", "", ""},
		{"GET", RutaClase + "/resultados", "clase", ""},
		{"POST", RutaClase + "/resultados", "clase", cuerpo},
		{"POST", RutaClase + "/resultados", "profe", cuerpo},
		{"DELETE", RutaClase + "/alumnos/Ana", "profe", ""},
	} {
		req, _ := http.NewRequest(c.metodo, srv.URL+c.ruta, strings.NewReader(c.cuerpo))
		if c.token != "" {
			req.Header.Set("Authorization", "Bearer "+c.token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusGone || string(b) != ClaseQueSeFue+"\n" || strings.Count(string(b), "\n") != 1 ||
			resp.Header.Get("Content-Type") != "text/plain; charset=utf-8" {
			t.Errorf("%s %s: %d %q", c.metodo, c.ruta, resp.StatusCode, b)
		}
	}
	for _, s := range []string{"laboratorio clase iniciar", "revisor comprobar cliente --clase URL --credencial C", "revisor comprobar historial"} {
		if !strings.Contains(ClaseQueSeFue, s) {
			t.Errorf("la respuesta no nombra %q: %s", s, ClaseQueSeFue)
		}
	}
	if resp, err := http.Get(srv.URL + "/"); err != nil || resp.StatusCode != 200 {
		t.Fatalf("la página del panel: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
}
