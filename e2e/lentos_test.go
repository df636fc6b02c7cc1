//go:build unix

package e2e

import (
	"bufio"
	"cursohttp/pkg/topes"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// Slow and oversized clients against the three servers as built, with their real limits
// (topes.EsperaCabeceras, topes.EsperaLectura, topes.Cabeceras): a client that
// trickles cannot hold a connection beyond them, and the server answers others meanwhile.

// lostres starts the laboratory, a revisor and a gateway in front of it; each entry is a server
// under test and a request it answers.
func lostres(t *testing.T) []struct {
	nombre string
	p      *proceso
	ruta   string
} {
	rev := arrancar(t, "revisor")
	return []struct {
		nombre string
		p      *proceso
		ruta   string
	}{
		{"laboratorio", arrancar(t, "laboratorio"), "/codigo/200"},
		{"revisor", rev, "/servicios"},
		{"pasarela", arrancar(t, "pasarela", "--destino", rev.url()), "/servicios"},
	}
}

// goteo opens a connection, writes inicio at once and then one byte of resto at a time every
// cadencia, and returns how long the server kept the connection open and what it wrote back.
func goteo(t *testing.T, addr, inicio, resto string, cadencia, tope time.Duration, empezado chan<- struct{}) (time.Duration, string) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	t0 := time.Now()
	if _, err := io.WriteString(c, inicio); err != nil {
		t.Fatal(err)
	}
	empezado <- struct{}{}
	parar := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-parar:
				return
			case <-time.After(cadencia):
			}
			if _, err := c.Write([]byte{resto[i%len(resto)]}); err != nil {
				return
			}
		}
	}()
	c.SetReadDeadline(t0.Add(tope))
	recibido, err := io.ReadAll(c) // until the server closes
	d := time.Since(t0)
	close(parar)
	wg.Wait()
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Errorf("la conexión seguía abierta tras %s", tope)
	}
	return d, string(recibido)
}

// atiende checks the server still answers a normal request promptly.
func atiende(t *testing.T, url string) {
	t.Helper()
	c := &http.Client{Timeout: 3 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	t0 := time.Now()
	res, err := c.Get(url)
	if err != nil {
		t.Errorf("con clientes lentos colgados, %s no respondió: %v", url, err)
		return
	}
	res.Body.Close()
	t.Logf("con clientes lentos colgados, GET %s: %d en %s", url, res.StatusCode, time.Since(t0).Round(time.Millisecond))
}

// TestCabecerasGoteadas: twenty clients each sending their headers one byte every 200 ms are cut at
// ReadHeaderTimeout, and the server answers others meanwhile.
func TestCabecerasGoteadas(t *testing.T) {
	largo(t)
	t.Parallel()
	for _, s := range lostres(t) {
		t.Run(s.nombre, func(t *testing.T) {
			t.Parallel()
			const clientes = 20
			tiempos := make(chan time.Duration, clientes)
			empezados := make(chan struct{}, clientes)
			for range clientes {
				go func() {
					d, _ := goteo(t, s.p.addr, "GET "+s.ruta+" HTTP/1.1\r\nHost: x\r\nX-Goteo: ", "abcdefgh", 200*time.Millisecond, topes.EsperaCabeceras+5*time.Second, empezados)
					tiempos <- d
				}()
			}
			for range clientes { // all of them are in the middle of their headers
				<-empezados
			}
			atiende(t, s.p.url()+s.ruta)
			var peor time.Duration
			for range clientes {
				peor = max(peor, <-tiempos)
			}
			t.Logf("el cliente más lento se cortó a los %s (ReadHeaderTimeout %s)", peor.Round(10*time.Millisecond), topes.EsperaCabeceras)
			if peor > topes.EsperaCabeceras+2*time.Second || peor < topes.EsperaCabeceras-time.Second {
				t.Errorf("cortado a los %s, se esperaba hacia %s", peor, topes.EsperaCabeceras)
			}
		})
	}
}

// TestCuerpoGoteado: a body announced with Content-Length and sent one byte every 500 ms is cut by
// the read timeout; the server may answer first (the laboratory does not read the body, the revisor
// says it cannot read it, the gateway that the revisor did not answer), but never waits for more.
func TestCuerpoGoteado(t *testing.T) {
	largo(t)
	t.Parallel()
	for _, s := range lostres(t) {
		t.Run(s.nombre, func(t *testing.T) {
			t.Parallel()
			cabeceras := "POST " + s.ruta + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer escritura-a\r\n" +
				"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
			var d time.Duration
			var recibido string
			hecho, empezado := make(chan struct{}), make(chan struct{}, 1)
			go func() {
				defer close(hecho)
				d, recibido = goteo(t, s.p.addr, cabeceras, `{"nombre":"lento",`, 500*time.Millisecond, topes.EsperaLectura+5*time.Second, empezado)
			}()
			<-empezado // its headers are in and its body drips
			atiende(t, s.p.url()+s.ruta)
			<-hecho
			estado, _, _ := strings.Cut(recibido, "\r\n")
			t.Logf("cortado a los %s (ReadTimeout %s); respondió %q", d.Round(10*time.Millisecond), topes.EsperaLectura, estado)
			if d > topes.EsperaLectura+2*time.Second {
				t.Errorf("la conexión duró %s", d)
			}
		})
	}
}

// TestCabecerasDemasiadoGrandes: headers over the limit get 431 and a closed connection; headers
// well under it are served.
func TestCabecerasDemasiadoGrandes(t *testing.T) {
	largo(t)
	t.Parallel()
	for _, s := range lostres(t) {
		t.Run(s.nombre, func(t *testing.T) {
			t.Parallel()
			for _, c := range []struct {
				bytes  int
				grande bool
			}{{topes.Cabeceras * 3 / 4, false}, {topes.Cabeceras * 2, true}} {
				conn, err := net.Dial("tcp", s.p.addr)
				if err != nil {
					t.Fatal(err)
				}
				conn.SetDeadline(time.Now().Add(10 * time.Second))
				peticion := "GET " + s.ruta + " HTTP/1.1\r\nHost: x\r\nX-Relleno: " + strings.Repeat("r", c.bytes) + "\r\n\r\n"
				go io.WriteString(conn, peticion) // the server may answer before reading it all
				res, err := http.ReadResponse(bufio.NewReader(conn), nil)
				if err != nil {
					t.Fatalf("%d bytes de cabecera: %v", c.bytes, err)
				}
				res.Body.Close()
				conn.Close()
				if (res.StatusCode == http.StatusRequestHeaderFieldsTooLarge) != c.grande {
					t.Errorf("%d bytes de cabecera: %s", c.bytes, res.Status)
				}
			}
		})
	}
}
