package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

type salida struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *salida) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *salida) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// esperarLinea waits for the start-up line and returns the address in it.
func esperarLinea(t *testing.T, out *salida) string {
	t.Helper()
	limite := time.Now().Add(5 * time.Second)
	for time.Now().Before(limite) {
		if linea, _, ok := strings.Cut(out.String(), "\n"); ok {
			if !strings.HasPrefix(linea, "revisor en http://127.0.0.1:") {
				t.Fatalf("línea de arranque %q", linea)
			}
			return strings.TrimPrefix(linea, "revisor en ")
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("no arrancó")
	return ""
}

func TestServirYApagar(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"--puerto", "0"}, {"servir", "--puerto", "0"}} {
		ctx, cancelar := context.WithCancel(context.Background())
		out, errOut := &salida{}, &salida{}
		fin := make(chan int)
		go func() { fin <- run(ctx, args, strings.NewReader(""), out, errOut) }()
		base := esperarLinea(t, out)
		req, _ := http.NewRequest("GET", base+"/servicios/1", nil)
		req.Header.Set("Authorization", "Bearer lectura-a")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("%v: %s", args, resp.Status)
		}
		cancelar()
		if c := <-fin; c != 0 {
			t.Errorf("%v: código de salida %d tras Ctrl+C; stderr %s", args, c, errOut.String())
		}
		if !strings.Contains(out.String(), "\nGET /servicios/1\n") {
			t.Errorf("%v: bitácora %q", args, out.String())
		}
	}
}

func TestPuertoOcupado(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, puerto, _ := net.SplitHostPort(ln.Addr().String())
	out, errOut := &salida{}, &salida{}
	c := run(context.Background(), []string{"--puerto", puerto}, strings.NewReader(""), out, errOut)
	if c != 1 || strings.Count(errOut.String(), "\n") != 1 || !strings.Contains(errOut.String(), "el puerto ya está en uso") {
		t.Errorf("código %d, stderr %q", c, errOut.String())
	}
}

func TestDestinosMalEscritos(t *testing.T) {
	t.Parallel()
	out, errOut := &salida{}, &salida{}
	if c := run(context.Background(), []string{"--puerto", "0", "--destinos", "laboratorio:18081"}, strings.NewReader(""), out, errOut); c != 2 {
		t.Errorf("código %d, stderr %q", c, errOut.String())
	}
}
