package servidor

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"cursohttp/internal/prueba"
	"cursohttp/pkg/bitacora"
	"cursohttp/pkg/topes"
)

// Issue 16: connection caps, in all and per client address. At the total cap the quietest
// connection makes room, or new ones wait for a place; a client at its cap gets its quietest
// connection closed or the new one refused; a log line says so; idle keep-alive connections are
// closed sooner near a cap.

// servirConTopes serves h on 127.0.0.1 with the caps of o, as the three servers do; alEstado, if
// given, also hears each connection's change of state, after the caps do.
func servirConTopes(t *testing.T, o Opciones, h http.Handler, alEstado ...func(net.Conn, http.ConnState)) (string, *prueba.Buffer) {
	t.Helper()
	log := &prueba.Buffer{}
	o.Direccion, o.Log = "127.0.0.1", bitacora.NuevoLogger(log, log, false)
	ln, err := Escuchar("prueba", o)
	if err != nil {
		t.Fatal(err)
	}
	srv := Nuevo(h)
	if len(alEstado) > 0 {
		propio := srv.ConnState
		srv.ConnState = func(c net.Conn, s http.ConnState) {
			propio(c, s)
			for _, f := range alEstado {
				f(c, s)
			}
		}
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String(), log
}

// retenidas is a handler that holds each request to /lento until the test sends on soltar, and
// says on dentro when one arrived.
func retenidas(t *testing.T) (h http.Handler, dentro, soltar chan struct{}) {
	soltar, dentro = make(chan struct{}), make(chan struct{}, 100)
	fin := make(chan struct{})
	t.Cleanup(func() { close(fin) })
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/lento" {
			dentro <- struct{}{}
			select {
			case <-soltar:
			case <-fin:
			}
		}
		io.WriteString(w, "ok")
	}), dentro, soltar
}

func conectar(t *testing.T, addr, desde string) net.Conn {
	t.Helper()
	d := net.Dialer{Timeout: 2 * time.Second}
	if desde != "" {
		d.LocalAddr = &net.TCPAddr{IP: net.ParseIP(desde)}
	}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		if desde != "" {
			t.Skipf("no se puede conectar desde %s (solo Linux enruta 127.0.0.0/8 entero): %v", desde, err)
		}
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// pedirEn sends a GET on c and reads the answer; "" when the connection was closed instead.
func pedirEn(c net.Conn, ruta string) string {
	c.SetDeadline(time.Now().Add(3 * time.Second))
	defer c.SetDeadline(time.Time{})
	if _, err := io.WriteString(c, "GET "+ruta+" HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		return ""
	}
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return ""
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	return string(b)
}

// cerrada says whether the server closed c within plazo.
func cerrada(c net.Conn, plazo time.Duration) bool {
	c.SetReadDeadline(time.Now().Add(plazo))
	_, err := c.Read(make([]byte, 1))
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		return false
	}
	return err != nil
}

func TestTopePorCliente(t *testing.T) {
	t.Parallel()
	h, dentro, _ := retenidas(t)
	addr, log := servirConTopes(t, Opciones{TopePorCliente: 3}, h)
	ocupar := func(desde string) {
		c := conectar(t, addr, desde)
		go io.WriteString(c, "GET /lento HTTP/1.1\r\nHost: x\r\n\r\n")
		<-dentro
	}
	for range 3 {
		ocupar("127.0.0.2")
	}
	// A fourth from the same address, with its three busy, is closed at once; the machine's own
	// programs (127.0.0.1 to 127.0.0.1) have no client cap.
	if c := conectar(t, addr, "127.0.0.2"); !cerrada(c, time.Second) {
		t.Error("la cuarta conexión de 127.0.0.2 no se cerró")
	}
	for range 4 {
		ocupar("127.0.0.1")
	}
	if got := pedirEn(conectar(t, addr, "127.0.0.1"), "/"); got != "ok" {
		t.Errorf("127.0.0.1, con 4 ocupadas, no fue atendida: %q", got)
	}
	if quiere := "prueba: tope de 3 conexiones de 127.0.0.2 alcanzado: 1 conexiones nuevas rechazadas y 0 quietas cerradas para hacer lugar (--tope-por-cliente)\n"; log.String() != quiere {
		t.Errorf("bitácora %q, se esperaba %q", log.String(), quiere)
	}
}

func TestTopeTotal(t *testing.T) {
	t.Parallel()
	t.Run("si todas trabajan, la nueva espera turno", func(t *testing.T) {
		t.Parallel()
		h, dentro, soltar := retenidas(t)
		addr, log := servirConTopes(t, Opciones{TopeConexiones: 3}, h)
		for range 3 {
			c := conectar(t, addr, "")
			go io.WriteString(c, "GET /lento HTTP/1.1\r\nHost: x\r\n\r\n")
			<-dentro
		}
		nueva := conectar(t, addr, "")
		respuesta := make(chan string, 1)
		go func() { respuesta <- pedirEn(nueva, "/") }()
		select {
		case got := <-respuesta:
			t.Fatalf("con las tres ocupadas, la cuarta fue atendida: %q", got)
		case <-time.After(300 * time.Millisecond):
		}
		soltar <- struct{}{}
		select {
		case got := <-respuesta:
			if got != "ok" {
				t.Errorf("al liberarse una, la cuarta: %q", got)
			}
		case <-time.After(2 * time.Second):
			t.Error("al liberarse una, la cuarta seguía esperando")
		}
		if quiere := "prueba: tope de 3 conexiones alcanzado: las nuevas esperan turno (1 veces) y 0 quietas cerradas para hacer lugar (--tope-conexiones)\n"; log.String() != quiere {
			t.Errorf("bitácora %q, se esperaba %q", log.String(), quiere)
		}
	})
	t.Run("cierra la ociosa más vieja para hacer lugar", func(t *testing.T) {
		t.Parallel()
		h, _, _ := retenidas(t)
		// The server's side of each connection says when it became idle: each is idle before the next
		// opens, so the first is the oldest however late the server's goroutines run.
		ociosa := make(chan struct{}, 10)
		addr, log := servirConTopes(t, Opciones{TopeConexiones: 3}, h, func(_ net.Conn, s http.ConnState) {
			if s == http.StateIdle {
				ociosa <- struct{}{}
			}
		})
		var ociosas []net.Conn
		for range 3 {
			c := conectar(t, addr, "")
			if got := pedirEn(c, "/"); got != "ok" {
				t.Fatalf("%q", got)
			}
			<-ociosa
			ociosas = append(ociosas, c)
		}
		if got := pedirEn(conectar(t, addr, ""), "/"); got != "ok" {
			t.Fatalf("con tres ociosas, una nueva no fue atendida: %q", got)
		}
		if !cerrada(ociosas[0], time.Second) {
			t.Error("la ociosa más vieja seguía abierta")
		}
		if cerrada(ociosas[2], 100*time.Millisecond) {
			t.Error("se cerró la ociosa más reciente")
		}
		if !strings.Contains(log.String(), "(0 veces) y 1 quietas cerradas para hacer lugar") {
			t.Errorf("bitácora %q", log.String())
		}
	})
	t.Run("una muda desde hace un rato también hace lugar", func(t *testing.T) {
		t.Parallel()
		h, _, _ := retenidas(t)
		addr, _ := servirConTopes(t, Opciones{TopeConexiones: 3}, h)
		mudas := []net.Conn{conectar(t, addr, ""), conectar(t, addr, ""), conectar(t, addr, "")}
		t0 := time.Now()
		if got := pedirEn(conectar(t, addr, ""), "/"); got != "ok" {
			t.Fatalf("con tres conexiones mudas, una nueva no fue atendida: %q", got)
		}
		if d := time.Since(t0); d < topes.EsperaApurada-100*time.Millisecond || d > topes.EsperaApurada+time.Second {
			t.Errorf("la nueva fue atendida a los %s; se esperaba cuando una muda cumpliera %s", d, topes.EsperaApurada)
		}
		n := 0
		for _, c := range mudas {
			if cerrada(c, 200*time.Millisecond) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("se cerraron %d mudas, se esperaba 1", n)
		}
	})
}

// Near a cap, an idle keep-alive connection is closed after topes.EsperaApurada instead of topes.EsperaOciosa.
func TestCercaDelTopeLasOciosasDuranPoco(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		tope   int
		cierra bool
	}{{4, true}, {100, false}} {
		h, _, _ := retenidas(t)
		addr, _ := servirConTopes(t, Opciones{TopeConexiones: c.tope}, h)
		var conns []net.Conn
		for range 3 {
			conn := conectar(t, addr, "")
			if got := pedirEn(conn, "/"); got != "ok" {
				t.Fatalf("%q", got)
			}
			conns = append(conns, conn)
		}
		t0 := time.Now()
		if got := cerrada(conns[2], topes.EsperaApurada+time.Second); got != c.cierra {
			t.Errorf("3 ociosas con tope %d: cerrada = %v tras %s, se esperaba %v", c.tope, got, time.Since(t0).Round(time.Millisecond), c.cierra)
		}
	}
}

// BenchmarkTopes: a keep-alive GET through Escuchar and Nuevo, with the default caps and without.
func BenchmarkTopes(b *testing.B) {
	for _, c := range []struct {
		nombre string
		o      Opciones
	}{{"sin-topes", Opciones{}}, {"con-topes", Opciones{TopeConexiones: topes.Conexiones, TopePorCliente: topes.ConexionesPorCliente}}} {
		b.Run(c.nombre, func(b *testing.B) {
			c.o.Direccion = "127.0.0.1"
			ln, err := Escuchar("prueba", c.o)
			if err != nil {
				b.Fatal(err)
			}
			srv := Nuevo(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
			go srv.Serve(ln)
			defer srv.Close()
			cliente := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
			defer cliente.CloseIdleConnections()
			url := "http://" + ln.Addr().String() + "/"
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					res, err := cliente.Get(url)
					if err != nil {
						b.Fatal(err)
					}
					io.Copy(io.Discard, res.Body)
					res.Body.Close()
				}
			})
		})
	}
}

// Issue 22: a client that stops reading frees its connection. Every write of an answer has a
// deadline of its own, so the handler's own time (here 300 ms before it writes) does not count,
// unlike http.Server.WriteTimeout; an answer the client never reads ends the connection once a
// write stalls for topes.EsperaEscritura.
func TestEscrituraSinLectorSeCorta(t *testing.T) {
	t.Parallel()
	const espera = 300 * time.Millisecond
	escritas := make(chan error, 1)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Time is under test: a slow handler, as /lento/MS, longer than one write's deadline, is not cut.
		time.Sleep(2 * espera)
		trozo := make([]byte, 64<<10)
		var err error
		for err == nil {
			_, err = w.Write(trozo)
		}
		escritas <- err
	})
	addr, _ := servirConTopes(t, Opciones{EsperaEscritura: espera}, h)
	c := conectar(t, addr, "")
	c.(*net.TCPConn).SetReadBuffer(4 << 10)
	io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	// The first bytes arrive, after the handler's own wait: it was not cut for taking its time.
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := c.Read(make([]byte, 1)); err != nil {
		t.Fatalf("la respuesta no empezó: %v", err)
	}
	select {
	case err := <-escritas:
		var ne net.Error
		if !errors.As(err, &ne) || !ne.Timeout() {
			t.Errorf("la escritura terminó con %v, no por su plazo", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("con el cliente sin leer, la escritura seguía bloqueada")
	}
}

// A client reading slowly but steadily is not cut: the deadline is per piece of 64 KiB, not for
// the whole answer.
func TestEscrituraLentaPeroConstanteSigue(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("lee 256 KiB despacio, a lo largo de muchas esperas de escritura (unos 8 s)")
	}
	const espera = 300 * time.Millisecond
	cuerpo := strings.Repeat("x", 256<<10)
	addr, _ := servirConTopes(t, Opciones{EsperaEscritura: espera}, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, cuerpo)
	}))
	c := conectar(t, addr, "")
	c.(*net.TCPConn).SetReadBuffer(4 << 10)
	io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	r := bufio.NewReader(c)
	res, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	// 256 KiB at about 64 KiB every 150 ms: the whole answer takes longer than one deadline.
	leido, trozo := 0, make([]byte, 8<<10)
	inicio := time.Now()
	for {
		n, err := res.Body.Read(trozo)
		leido += n
		if err != nil {
			break
		}
		// Time is under test: a slow reader whose whole read outlasts one deadline is not cut.
		time.Sleep(20 * time.Millisecond)
	}
	if leido != len(cuerpo) || time.Since(inicio) < espera {
		t.Errorf("leídos %d de %d bytes en %s", leido, len(cuerpo), time.Since(inicio))
	}
}

// At the total cap, a connection whose answer nobody reads (its write stalled for topes.EsperaApurada) or
// whose handler waits on purpose (EnEspera) makes room for a new one, and that request's context
// ends.
func TestTopeTotalLasAtascadasHacenLugar(t *testing.T) {
	t.Parallel()
	for _, caso := range []string{"escritura sin lector", "espera a propósito"} {
		t.Run(caso, func(t *testing.T) {
			t.Parallel()
			dentro, terminadas := make(chan struct{}, 10), make(chan struct{}, 10)
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				defer func() { terminadas <- struct{}{} }()
				if r.URL.Path == "/" {
					io.WriteString(w, "ok")
					return
				}
				dentro <- struct{}{}
				if caso == "espera a propósito" {
					listo := EnEspera(r.Context())
					defer listo()
					<-r.Context().Done()
					return
				}
				trozo := make([]byte, 64<<10)
				for {
					if _, err := w.Write(trozo); err != nil {
						return
					}
				}
			})
			addr, _ := servirConTopes(t, Opciones{TopeConexiones: 2}, h)
			for range 2 {
				c := conectar(t, addr, "")
				c.(*net.TCPConn).SetReadBuffer(4 << 10)
				io.WriteString(c, "GET /atascada HTTP/1.1\r\nHost: x\r\n\r\n")
				<-dentro
			}
			t0 := time.Now()
			if got := pedirEn(conectar(t, addr, ""), "/"); got != "ok" {
				t.Fatalf("con dos atascadas, la nueva no fue atendida: %q", got)
			}
			if d := time.Since(t0); d > topes.EsperaApurada+time.Second {
				t.Errorf("la nueva fue atendida a los %s", d)
			}
			<-terminadas // the one that made room ended
		})
	}
}

// Pins what the caps rely on and net/http does not document: Server.ConnState and
// Server.ConnContext are given the connection the listener's Accept returned (here under
// encabezado's wrapper), so a Go upgrade that changes it fails here, not in a classroom.
func TestConnStateYConnContextRecibenLaConexionDelListener(t *testing.T) {
	t.Parallel()
	vista := make(chan *conexion, 1)
	addr, _ := servirConTopes(t, Opciones{}, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ct, _ := r.Context().Value(claveConexion{}).(*conexion)
		vista <- ct
		io.WriteString(w, "ok")
	}))
	c := conectar(t, addr, "")
	if got := pedirEn(c, "/"); got != "ok" {
		t.Fatalf("%q", got)
	}
	ct := <-vista
	if ct == nil {
		t.Fatal("ConnContext no recibió la conexión del listener")
	}
	prueba.Esperar(t, "la conexión ociosa según ConnState", func() bool {
		return http.ConnState(ct.estado.Load()) == http.StateIdle
	})
}

// Issue 34.6: at a cap, a connection whose request body arrives slower than topes.RitmoCuerpo makes room
// as a stalled write does, so an ordinary request is answered within 2 s while a client trickles
// bodies on every connection a cap lets it hold (before: 27 s, until topes.EsperaLectura cut them on one
// machine; refused at once behind the same address). An honest slow upload, at 8 KiB/s, is not the
// one that goes; and below the caps a trickled body is still read to its end.

// subidas answers a POST with the length of its body, and says on dentro (with the connection)
// when a handler starts on one and on cortadas when a body's read failed.
func subidas() (h http.Handler, dentro chan *conexion, cortadas chan struct{}) {
	dentro, cortadas = make(chan *conexion, 10), make(chan struct{}, 10)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			io.WriteString(w, "ok")
			return
		}
		ct, _ := r.Context().Value(claveConexion{}).(*conexion)
		dentro <- ct
		b, err := io.ReadAll(r.Body)
		if err != nil {
			cortadas <- struct{}{}
			return
		}
		io.WriteString(w, strconv.Itoa(len(b)))
	}), dentro, cortadas
}

// gotear sends on c a POST announcing n bytes, then its body trozo bytes every cada until it is
// all sent, the connection fails or the test ends.
func gotear(t *testing.T, c net.Conn, n, trozo int, cada time.Duration) {
	go func() {
		if _, err := io.WriteString(c, "POST /subida HTTP/1.1\r\nHost: x\r\nContent-Length: "+strconv.Itoa(n)+"\r\n\r\n"); err != nil {
			return
		}
		tic := time.NewTicker(cada)
		defer tic.Stop()
		for enviados := 0; enviados < n; enviados += trozo {
			if _, err := c.Write([]byte(strings.Repeat("a", min(trozo, n-enviados)))); err != nil {
				return
			}
			select {
			case <-tic.C:
			case <-t.Context().Done():
				return
			}
		}
	}()
}

// normalEn2s sends an ordinary GET on a new connection from desde and fails unless it is answered
// within 2 s; it returns how long it took.
func normalEn2s(t *testing.T, addr, desde string) time.Duration {
	t.Helper()
	c := conectar(t, addr, desde)
	t0 := time.Now()
	c.SetDeadline(t0.Add(2 * time.Second))
	io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	quien := desde
	if quien == "" {
		quien = "esta máquina"
	}
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("una petición normal desde %s no fue atendida en 2 s: %v tras %s", quien, err, time.Since(t0).Round(time.Millisecond))
	}
	b, _ := io.ReadAll(res.Body)
	if string(b) != "ok" {
		t.Fatalf("una petición normal desde %s: %q", quien, b)
	}
	return time.Since(t0)
}

func TestCuerposLentosHacenLugar(t *testing.T) {
	t.Parallel()
	t.Run("tope total", func(t *testing.T) {
		t.Parallel()
		h, dentro, cortadas := subidas()
		addr, _ := servirConTopes(t, Opciones{TopeConexiones: 3}, h)
		// An honest upload: 32 KiB at 8 KiB/s, 4 s, longer than the wait below.
		honrada := conectar(t, addr, "")
		gotear(t, honrada, 32<<10, 1<<10, 125*time.Millisecond)
		<-dentro
		// Two bodies trickled, a byte every 250 ms.
		for range 2 {
			gotear(t, conectar(t, addr, ""), 100, 1, 250*time.Millisecond)
			<-dentro
		}
		// At once: the worst moment, while the trickled bodies are in their first second.
		d := normalEn2s(t, addr, "")
		t.Logf("con el tope lleno (una subida honrada y dos goteos), la petición normal: %s", d.Round(time.Microsecond))
		select {
		case <-cortadas:
		case <-time.After(5 * time.Second):
			t.Fatal("ningún cuerpo goteado fue cortado")
		}
		// The honest upload goes on to its answer: it was not the one that made room.
		if got := pedirEnCurso(honrada); got != strconv.Itoa(32<<10) {
			t.Errorf("la subida honrada a 8 KiB/s: %q, se esperaba su largo", got)
		}
	})
	t.Run("tope por cliente", func(t *testing.T) {
		t.Parallel()
		h, dentro, cortadas := subidas()
		addr, log := servirConTopes(t, Opciones{TopePorCliente: 3}, h)
		var goteadas []*conexion
		for range 3 {
			gotear(t, conectar(t, addr, "127.0.0.2"), 100, 1, 250*time.Millisecond)
			goteadas = append(goteadas, <-dentro)
		}
		// A client's cap makes room or refuses at once, without waiting: the new connection comes
		// once the trickled bodies are past their first second, as in a classroom where one machine
		// (or one NAT address) has been trickling for a while.
		prueba.Esperar(t, "los tres cuerpos goteados, atrasados", func() bool {
			for _, ct := range goteadas {
				if _, ok := ct.quieta(time.Now().UnixNano()); !ok {
					return false
				}
			}
			return true
		})
		// The same address, another student behind the same NAT: before, closed at once.
		d := normalEn2s(t, addr, "127.0.0.2")
		t.Logf("con 127.0.0.2 en su tope de cuerpos goteados, una petición normal desde 127.0.0.2: %s", d.Round(time.Microsecond))
		<-cortadas
		if quiere := "prueba: tope de 3 conexiones de 127.0.0.2 alcanzado: 0 conexiones nuevas rechazadas y 1 quietas cerradas para hacer lugar (--tope-por-cliente)\n"; log.String() != quiere {
			t.Errorf("bitácora %q, se esperaba %q", log.String(), quiere)
		}
	})
	t.Run("cuerpo que el manejador no lee", func(t *testing.T) {
		t.Parallel()
		// As the panel's stream: the handler answers at once and flushes without reading the body,
		// so net/http reads it first, to throw it away, while the handler waits in its Flush.
		dentro := make(chan struct{}, 1)
		addr, _ := servirConTopes(t, Opciones{TopeConexiones: 1}, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost {
				dentro <- struct{}{}
				http.NewResponseController(w).Flush()
			}
			io.WriteString(w, "ok")
		}))
		gotear(t, conectar(t, addr, ""), 100, 1, 250*time.Millisecond)
		<-dentro
		d := normalEn2s(t, addr, "")
		t.Logf("con la única conexión goteando un cuerpo que nadie lee, la petición normal: %s", d.Round(time.Microsecond))
	})
	t.Run("lejos del tope, un cuerpo goteado llega a su fin", func(t *testing.T) {
		t.Parallel()
		h, dentro, _ := subidas()
		addr, _ := servirConTopes(t, Opciones{TopeConexiones: 100}, h)
		c := conectar(t, addr, "")
		// 10 bytes, one every 200 ms: 2 s at 5 bytes a second, as before issue 34.6.
		gotear(t, c, 10, 1, 200*time.Millisecond)
		<-dentro
		if got := pedirEnCurso(c); got != "10" {
			t.Errorf("un cuerpo goteado lejos del tope: %q, se esperaba 10", got)
		}
	})
}

// pedirEnCurso reads the answer to the request already sent on c; "" when the connection was
// closed instead.
func pedirEnCurso(c net.Conn) string {
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return ""
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	return string(b)
}

// The caps find their counted connection under the head's wrapper only through NetConn (the
// convention crypto/tls.Conn follows): if encabezado's wrapper stopped offering it, idle
// connections near a cap would no longer be told apart, and EnEspera would do nothing.
func TestLosTopesVenSuConexionBajoLaCabeza(t *testing.T) {
	t.Parallel()
	ln, err := Escuchar("prueba", Opciones{Direccion: "127.0.0.1", TopeConexiones: 4, TopePorCliente: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		if c, err := net.Dial("tcp", ln.Addr().String()); err == nil {
			defer c.Close()
			c.Read(make([]byte, 1))
		}
	}()
	c, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, envuelta := c.(interface{ NetConn() net.Conn }); !envuelta {
		t.Fatalf("la conexión de Escuchar es %T, sin NetConn", c)
	}
	if deConexion(c) == nil {
		t.Errorf("deConexion(%T) no halló la conexión contada debajo", c)
	}
}
