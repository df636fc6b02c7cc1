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

// A lesson's program and its broken versions start from the command line; a broken one says so on
// its first line, every time, on stderr.
func TestVersionesDelCurso(t *testing.T) {
	t.Parallel()
	inicio := regexp.MustCompile(`^revisor en http://(127\.0\.0\.1:\d+)$`)
	for _, c := range []struct {
		args  []string
		tipo  string // Content-Type of GET /no-existe
		aviso string // beginning of stderr's first line
	}{
		{[]string{"--puerto", "0"}, "application/problem+json", ""},
		{[]string{"--puerto", "0", "--leccion", "6"}, "application/problem+json", ""},
		{[]string{"--puerto", "0", "--leccion", "4"}, "text/plain; charset=utf-8", ""},
		{[]string{"servir", "--puerto", "0", "--defecto", "pila"}, "text/plain; charset=utf-8", "AVISO: «revisor --defecto pila» es una versión rota a propósito"},
		{[]string{"--puerto", "0", "--defecto", "sin-pasarela"}, "text/plain; charset=utf-8", "AVISO: «revisor --defecto sin-pasarela» es una versión rota a propósito"},
		{[]string{"--puerto", "0", "--leccion", "4", "--ejercicio", "3"}, "text/plain; charset=utf-8", "AVISO: «revisor --leccion 4 --ejercicio 3» es una variante rota a propósito, la de la lección 4 (ejercicio 3, serie M)"},
		{[]string{"--puerto", "0", "--defecto", "sin-huella"}, "application/problem+json", "AVISO: «revisor --defecto sin-huella» es una versión rota a propósito, la de la lección 6"},
		// Lesson 7's exercise 3 is a solution, not a broken version: it starts as the course's does.
		{[]string{"--puerto", "0", "--leccion", "7", "--ejercicio", "3"}, "application/problem+json", ""},
	} {
		s := prueba.Arrancar(t, run, inicio, c.args...)
		resp, err := http.Get("http://" + s.Addr + "/no-existe")
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if got := resp.Header.Get("Content-Type"); got != c.tipo {
			t.Errorf("%v: Content-Type %q, se esperaba %q", c.args, got, c.tipo)
		}
		s.Parar()
		primera, _, _ := strings.Cut(s.Err.String(), "\n")
		if (c.aviso == "") != (s.Err.String() == "") || !strings.HasPrefix(primera, c.aviso) {
			t.Errorf("%v: stderr %q, se esperaba que empezara con %q", c.args, s.Err.String(), c.aviso)
		}
	}
}
