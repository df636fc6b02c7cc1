package main

import (
	"bytes"
	"context"
	"io"
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
