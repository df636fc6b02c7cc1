package pasarela

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"testing"
	"time"

	"cursohttp/internal/prueba"
	"cursohttp/internal/prueba/servidortest"
	"cursohttp/pkg/bitacora"
	"cursohttp/pkg/servidor"
	"cursohttp/pkg/topes"
)

const creado = `{"id":7,"nombre":"por-pasarela","url":"http://127.0.0.1:18081/codigo/200","limite_ms":2000}` + "\n"

// Each mode as --help describes it: what the client gets, whether the revisor did the work, and
// what the gateway's terminal says.
func TestModos(t *testing.T) {
	t.Parallel()
	const (
		perdida502 = "HTTP/1.1 502 Bad Gateway\r\nContent-Type: application/problem+json\r\nContent-Length: 128\r\nConnection: close\r\n\r\n" + perdida
		sinRev502  = "HTTP/1.1 502 Bad Gateway\r\nContent-Type: application/problem+json\r\nContent-Length: 115\r\nConnection: close\r\n\r\n" + sinRevisor
		pasa201    = "HTTP/1.1 201 Created\r\ncontent-type: application/json\r\ncontent-length: 92\r\nlocation: /servicios/7\r\netag: \"7-1-7b8bb8f3\"\r\nConnection: close\r\n\r\n" + creado
		sePierde   = "pasarela: el revisor respondió 201, pero la respuesta se pierde\n"
	)
	casos := []struct {
		modo     string
		clientes []string // what each of three identical requests gets
		revisor  int      // how many the revisor saw
		bitacora string
	}{
		{"perder-siempre", []string{perdida502, perdida502, perdida502}, 3, sePierde + sePierde + sePierde},
		{"perder:2", []string{perdida502, perdida502, pasa201}, 3, sePierde + sePierde},
		{"perder:1", []string{perdida502, pasa201, pasa201}, 3, sePierde},
		{"rechazar", []string{sinRev502, sinRev502, sinRev502}, 0,
			strings.Repeat("pasarela: rechazo la petición sin reenviarla; el revisor no la ve\n", 3)},
		{"codigo:503", []string{
			"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/problem+json\r\nContent-Length: 141\r\nConnection: close\r\n\r\n" +
				`{"type":"about:blank","title":"Service Unavailable","status":503,"detail":"la pasarela respondió 503 sin reenviar la petición al revisor"}` + "\n",
		}, 0, "pasarela: respondo 503 sin reenviar la petición; el revisor no la ve\n"},
		{"codigo:201", []string{"HTTP/1.1 201 Created\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"}, 0,
			"pasarela: respondo 201 sin reenviar la petición; el revisor no la ve\n"},
		{"codigo:418", []string{
			"HTTP/1.1 418 I'm a Teapot\r\nContent-Type: application/problem+json\r\nContent-Length: 134\r\nConnection: close\r\n\r\n" +
				`{"type":"about:blank","title":"I'm a Teapot","status":418,"detail":"la pasarela respondió 418 sin reenviar la petición al revisor"}` + "\n",
		}, 0, "pasarela: respondo 418 sin reenviar la petición; el revisor no la ve\n"},
		{"lento:150", []string{pasa201}, 1, "pasarela: el revisor respondió 201; la respuesta sale 150 ms después\n"},
		// Anything else is ignored, as the course's gateway ignores it: «perder», an abbreviation
		// of the course's mode, too (it is perder-siempre only in --simular).
		{"perder-segunda", []string{pasa201, pasa201}, 2, ""},
		{"PERDER-PRIMERA", []string{pasa201}, 1, ""},
		{"perder", []string{pasa201, pasa201}, 2, ""},
		{"perder:02", []string{pasa201}, 1, ""},
	}
	for _, c := range casos {
		t.Run(c.modo, func(t *testing.T) {
			t.Parallel()
			destino, vistas := revisorFalso(t)
			addr, log := levantar(t, destino)
			for i, want := range c.clientes {
				inicio := time.Now()
				got := sinFecha(prueba.PedirCrudo(t, addr, post("Idempotency-Key: k\r\nX-Simular: "+c.modo+"\r\n", cuerpoPorPasarela)))
				if got != want {
					t.Errorf("petición %d:\n%q\nse esperaba\n%q", i+1, got, want)
				}
				if strings.HasPrefix(c.modo, "lento:") && time.Since(inicio) < 150*time.Millisecond {
					t.Errorf("la respuesta llegó en %s", time.Since(inicio))
				}
			}
			if n := len(vistas()); n != c.revisor {
				t.Errorf("el revisor vio %d peticiones, se esperaban %d", n, c.revisor)
			}
			if log.String() != c.bitacora {
				t.Errorf("bitácora %q, se esperaba %q", log.String(), c.bitacora)
			}
		})
	}
}

// perder:N counts on its own: perder-primera's first loss does not count for perder:2.
func TestPerderNCuentaAparte(t *testing.T) {
	t.Parallel()
	destino, _ := revisorFalso(t)
	addr, _ := levantar(t, destino)
	var codigos []string
	for _, modo := range []string{"perder-primera", "perder:2", "perder:2", "perder:2", "perder-primera"} {
		codigos = append(codigos, prueba.PedirCrudo(t, addr, post("Idempotency-Key: k\r\nX-Simular: "+modo+"\r\n", cuerpoPorPasarela))[9:12])
	}
	if strings.Join(codigos, " ") != "502 502 502 201 201" {
		t.Fatalf("códigos %v", codigos)
	}
}

// cortar: the head with the whole body's length, half the body, then the connection closes.
func TestCortar(t *testing.T) {
	t.Parallel()
	destino, vistas := revisorFalso(t)
	addr, log := levantar(t, destino)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, post("X-Simular: cortar\r\n", cuerpoPorPasarela))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	if resp.StatusCode != 201 || resp.ContentLength != int64(len(creado)) || string(b) != creado[:len(creado)/2] || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("%d, Content-Length %d, cuerpo %q, error %v", resp.StatusCode, resp.ContentLength, b, err)
	}
	if len(vistas()) != 1 || log.String() != "pasarela: el revisor respondió 201, pero la respuesta se corta a mitad del cuerpo\n" {
		t.Fatalf("el revisor vio %d; bitácora %q", len(vistas()), log.String())
	}
}

// cortar without a body to cut: the connection closes before anything is answered.
func TestCortarSinCuerpo(t *testing.T) {
	t.Parallel()
	ts := servidortest.Nuevo(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) }))
	addr, log := levantar(t, ts.URL)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "DELETE /servicios/7 HTTP/1.1\r\nHost: p\r\nX-Simular: cortar\r\n\r\n")
	if b, err := io.ReadAll(c); len(b) != 0 || err != nil {
		t.Fatalf("recibió %q (%v), se esperaba nada", b, err)
	}
	if log.String() != "pasarela: el revisor respondió 204, pero la conexión se corta antes de responder\n" {
		t.Fatalf("bitácora %q", log.String())
	}
}

// reiniciar: no answer at all, a reset, after the revisor did the work; also through the
// listener the programs use (servidor.Escuchar with its connection caps), whose wrappers the reset
// must see through.
func TestReiniciar(t *testing.T) {
	t.Parallel()
	for _, conEscuchar := range []bool{false, true} {
		destino, vistas := revisorFalso(t)
		addr, log := levantar(t, destino)
		if conEscuchar {
			u, _ := url.Parse(destino)
			log = &prueba.Buffer{}
			ln, err := servidor.Escuchar("pasarela", servidor.Opciones{Direccion: "127.0.0.1", Puerto: 0,
				TopeConexiones: topes.Conexiones, TopePorCliente: topes.ConexionesPorCliente})
			if err != nil {
				t.Fatal(err)
			}
			srv := servidor.Nuevo(Nueva(Opciones{Destinos: []*url.URL{u}, Log: bitacora.NuevoLogger(log, log, false)}))
			go srv.Serve(ln)
			t.Cleanup(func() { srv.Close() })
			addr = ln.Addr().String()
		}
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		io.WriteString(c, post("X-Simular: reiniciar\r\n", cuerpoPorPasarela))
		b, err := io.ReadAll(c)
		if len(b) != 0 || !errors.Is(err, syscall.ECONNRESET) {
			t.Fatalf("con Escuchar %v: recibió %q (%v), se esperaba un reset", conEscuchar, b, err)
		}
		if len(vistas()) != 1 || log.String() != "pasarela: el revisor respondió 201, pero la conexión con el cliente se reinicia\n" {
			t.Fatalf("el revisor vio %d; bitácora %q", len(vistas()), log.String())
		}
	}
}

// lento: a client that gives up first leaves nothing to write; the revisor did the work anyway.
func TestLentoClienteQueSeVa(t *testing.T) {
	t.Parallel()
	destino, vistas := revisorFalso(t)
	addr, log := levantar(t, destino)
	// The client gives up once the gateway holds the revisor's answer (its log says so), not after a
	// time a loaded machine could outlast before the revisor even saw the request.
	ctx, irse := context.WithCancel(context.Background())
	defer irse()
	go func() {
		defer irse()
		for !strings.Contains(log.String(), "la respuesta sale 5000 ms después") {
			select {
			case <-ctx.Done():
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	req, _ := http.NewRequestWithContext(ctx, "POST", "http://"+addr+"/servicios", strings.NewReader(cuerpoPorPasarela))
	req.Header.Set("X-Simular", "lento:5000")
	if _, err := http.DefaultClient.Do(req); err == nil {
		t.Fatal("el cliente recibió respuesta antes de irse")
	}
	if len(vistas()) != 1 {
		t.Fatalf("el revisor vio %d", len(vistas()))
	}
}

// The modes' names, and one helpful line for each way of writing them wrong.
func TestLeerFalla(t *testing.T) {
	t.Parallel()
	for texto, want := range map[string]string{
		"perder-primera": "perder-primera", "perder-siempre": "perder-siempre", "perder": "perder-siempre",
		"perder:3": "perder:3", "rechazar": "rechazar", "cortar": "cortar", "reiniciar": "reiniciar",
		"lento:1500": "lento:1500", "lento:99999": "lento:99999", "codigo:200": "codigo:200", "codigo:599": "codigo:599",
	} {
		f, err := LeerFalla(texto)
		if err != nil || f.String() != want {
			t.Errorf("LeerFalla(%q) = %v, %v", texto, f, err)
		}
	}
	for texto, want := range map[string]string{
		"":             "«»: modo de falla desconocido (pasarela --help los lista)",
		"perder-mas":   "«perder-mas»: modo de falla desconocido (pasarela --help los lista)",
		"lento":        "«lento»: lento lleva un número de 1 a 99999 (lento:N)",
		"lento:0":      "«lento:0»: lento lleva un número de 1 a 99999 (lento:N)",
		"lento:100000": "«lento:100000»: lento lleva un número de 1 a 99999 (lento:N)",
		"lento:+5":     "«lento:+5»: lento lleva un número de 1 a 99999 (lento:N)",
		"lento:05":     "«lento:05»: lento lleva un número de 1 a 99999 (lento:N)",
		"codigo:199":   "«codigo:199»: codigo lleva un número de 200 a 599 (codigo:N)",
		"codigo:abc":   "«codigo:abc»: codigo lleva un número de 200 a 599 (codigo:N)",
		"perder:0":     "«perder:0»: perder lleva un número de 1 a 1000000 (perder:N)",
		"rechazar:1":   "«rechazar:1»: rechazar no lleva «:»",
		"otro:1":       "«otro:1»: modo de falla desconocido (pasarela --help los lista)",
	} {
		if _, err := LeerFalla(texto); err == nil || err.Error() != want {
			t.Errorf("LeerFalla(%q): %v, se esperaba %q", texto, err, want)
		}
	}
}

func TestLeerSimulacion(t *testing.T) {
	t.Parallel()
	for texto, want := range map[string]string{"perder@0.3": "perder-siempre@0.3", "lento:800@1": "lento:800", "rechazar": "rechazar", "cortar@0.05": "cortar@0.05"} {
		s, err := LeerSimulacion(texto, 7)
		if err != nil || s.String() != want {
			t.Errorf("LeerSimulacion(%q) = %v, %v", texto, s, err)
		}
	}
	for _, texto := range []string{"perder@0", "perder@1.5", "perder@-1", "perder@x", "perder@", "nada@0.5", "perder@NaN"} {
		if _, err := LeerSimulacion(texto, 7); err == nil {
			t.Errorf("LeerSimulacion(%q) no dio error", texto)
		}
	}
}

// --simular perder@0.3 --semilla 7 loses the same requests on every run: two gateways with the
// same seed lose the same ones out of 40, a third with another seed others; X-Simular wins over it.
func TestSimulacionReproducible(t *testing.T) {
	t.Parallel()
	patron := func(semilla uint64) string {
		destino, vistas := revisorFalso(t)
		u, _ := url.Parse(destino)
		var log prueba.Buffer
		p := Nueva(Opciones{Destinos: []*url.URL{u}, Log: bitacora.NuevoLogger(&log, &log, false)})
		s, err := LeerSimulacion("perder@0.3", semilla)
		if err != nil {
			t.Fatal(err)
		}
		p.Simular(s)
		addr := servidortest.Nuevo(t, p).Listener.Addr().String()
		var b strings.Builder
		for range 40 {
			if strings.HasPrefix(prueba.PedirCrudo(t, addr, post("", cuerpoPorPasarela)), "HTTP/1.1 502") {
				b.WriteByte('x')
			} else {
				b.WriteByte('.')
			}
		}
		if len(vistas()) != 40 {
			t.Errorf("el revisor vio %d de 40: perder hace el trabajo", len(vistas()))
		}
		// X-Simular wins over the draw.
		if got := prueba.PedirCrudo(t, addr, post("X-Simular: codigo:409\r\n", cuerpoPorPasarela)); !strings.HasPrefix(got, "HTTP/1.1 409") {
			t.Errorf("X-Simular no mandó sobre --simular:\n%s", got)
		}
		return b.String()
	}
	a, b, otra := patron(7), patron(7), patron(8)
	if a != b {
		t.Fatalf("misma semilla, otras pérdidas:\n%s\n%s", a, b)
	}
	if a == otra {
		t.Errorf("otra semilla, las mismas pérdidas: %s", a)
	}
	if n := strings.Count(a, "x"); n < 4 || n > 20 {
		t.Errorf("perdió %d de 40 con probabilidad 0.3: %s", n, a)
	}
	t.Logf("semilla 7: %s", a)
}

// BenchmarkReenviarConFalla is a request with «X-Simular: perder:1000000»: the cost of a fault on
// top of forwarding (compare BenchmarkReenviarPOST).
func BenchmarkReenviarConFalla(b *testing.B) {
	destino, _ := revisorFalso(b)
	addr, _ := levantar(b, destino)
	cliente := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	defer cliente.CloseIdleConnections()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req, _ := http.NewRequest("POST", "http://"+addr+"/servicios", strings.NewReader(cuerpoPorPasarela))
			req.Header.Set("X-Simular", "perder:1000000")
			resp, err := cliente.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	})
}

// --help says of every mode what the client sees and whether the revisor did the work, in its
// columns; a mode with a number says «igual» of the one above it.
func TestAyudaNombraCadaModo(t *testing.T) {
	t.Parallel()
	ayuda := AyudaModos()
	for _, m := range Modos() {
		if !strings.Contains(ayuda, "\n  "+m.Forma+strings.Repeat(" ", 16-len(m.Forma))+m.Ayuda[0]+"\n") {
			t.Errorf("la ayuda no nombra %s en su columna", m.Forma)
		}
		if dice := m.Ayuda[0]; !strings.HasPrefix(dice, "el revisor lo hace") && !strings.HasPrefix(dice, "el revisor no la ve") && !strings.HasPrefix(dice, "igual") {
			t.Errorf("la ayuda de %s no dice si el revisor hizo el trabajo: %q", m.Forma, dice)
		}
	}
	for _, linea := range strings.Split(ayuda, "\n") {
		if len([]rune(linea)) > 95 {
			t.Errorf("línea de la ayuda demasiado larga para un terminal: %q", linea)
		}
	}
}
