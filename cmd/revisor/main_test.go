package main

import (
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"cursohttp/internal/prueba"
)

func TestServirYApagar(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"--puerto", "0"}, {"servir", "--puerto", "0"}} {
		s := prueba.Arrancar(t, run, regexp.MustCompile(`^revisor en http://(127\.0\.0\.1:\d+)$`), args...)
		req, _ := http.NewRequest("GET", "http://"+s.Addr+"/servicios/1", nil)
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
		if c := s.Parar(); c != 0 {
			t.Errorf("%v: código de salida %d tras Ctrl+C; stderr %s", args, c, s.Err.String())
		}
		if !strings.Contains(s.Out.String(), "\nGET /servicios/1\n") {
			t.Errorf("%v: bitácora %q", args, s.Out.String())
		}
	}
}
