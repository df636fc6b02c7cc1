//go:build unix

package control

import (
	"context"
	"cursohttp/internal/prueba"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

// Windows has no signal to pass on: the console gives Ctrl+C to every server itself.

// make lab: the servers' lines come out behind their names, and one signal stops them all, after
// the request in flight has its answer.
func TestPrimerPlanoYUnaSenal(t *testing.T) {
	t.Parallel()
	c, out := nuevoControl(t)
	senales := make(chan os.Signal, 1)
	fin := make(chan error, 1)
	go func() { fin <- c.PrimerPlano(senales) }()
	esperarAnunciados(t, c)
	if err := c.Estado(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), " en marcha  pid "); n != 3 {
		t.Errorf("Estado ve %d en marcha, se esperaban 3:\n%s", n, out)
	}
	lento := make(chan int, 1)
	go func() {
		resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/lento/700", c.Servidores[0].Puerto))
		if err != nil {
			lento <- 0
			return
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		lento <- resp.StatusCode
	}()
	prueba.Esperar(t, "la petición lenta llega", func() bool { return strings.Contains(out.String(), "GET /lento/700") })
	senales <- os.Interrupt
	select {
	case err := <-fin:
		if err != nil {
			t.Fatalf("PrimerPlano: %v\n%s", err, out)
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("PrimerPlano no terminó 15 s después de la señal:\n%s", out)
	}
	if cod := <-lento; cod != 200 {
		t.Errorf("la petición en curso recibió %d, no su 200: la señal no dejó terminarla", cod)
	}
	for _, s := range c.Servidores {
		if escucha(s) {
			t.Errorf("%s sigue escuchando", s.Programa)
		}
	}
	for _, l := range []string{"laboratorio | laboratorio en http://", "revisor     | revisor en http://", "pasarela    | pasarela en http://", "laboratorio | GET /lento/700"} {
		if !strings.Contains(out.String(), l) {
			t.Errorf("falta la línea %q:\n%s", l, out)
		}
	}
}

// make lab with a slow request in flight: the first signal waits for it, the second stops the
// servers at once.
func TestPrimerPlanoDosSenales(t *testing.T) {
	t.Parallel()
	c, out := nuevoControl(t)
	senales := make(chan os.Signal, 2)
	fin := make(chan error, 1)
	go func() { fin <- c.PrimerPlano(senales) }()
	esperarAnunciados(t, c)
	go func() {
		if resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/lento/9000", c.Servidores[0].Puerto)); err == nil {
			resp.Body.Close()
		}
	}()
	prueba.Esperar(t, "la petición lenta llega", func() bool { return strings.Contains(out.String(), "GET /lento/9000") })
	senales <- os.Interrupt
	prueba.Esperar(t, "el laboratorio dice que espera", func() bool {
		return strings.Contains(out.String(), "laboratorio | esperando a que termine 1 petición en curso")
	})
	t0 := time.Now()
	senales <- os.Interrupt
	select {
	case err := <-fin:
		if err != nil {
			t.Fatalf("PrimerPlano: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("el segundo Ctrl+C no los detuvo:\n%s", out)
	}
	if d := time.Since(t0); d > 3*time.Second {
		t.Errorf("tras el segundo Ctrl+C tardaron %s", d)
	}
	for _, s := range c.Servidores {
		if escucha(s) {
			t.Errorf("%s sigue escuchando", s.Programa)
		}
	}
}
