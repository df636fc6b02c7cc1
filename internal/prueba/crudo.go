package prueba

import (
	"bufio"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// ServidorCrudo listens on a free loopback port and hands each connection to atender, which owns
// it (the connection is closed when atender returns). It is the test server for what net/http will
// not write on purpose: a cut body, a reset, an answer that is not HTTP, silence. It returns the
// address (host:port); everything stops, and every atender has returned, when the test ends.
func ServidorCrudo(t testing.TB, atender func(net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu       sync.Mutex
		abiertas = map[net.Conn]bool{}
		enCurso  sync.WaitGroup
	)
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for c := range abiertas {
			c.Close() // an atender blocked reading returns
		}
		mu.Unlock()
		enCurso.Wait()
	})
	enCurso.Add(1)
	go func() {
		defer enCurso.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			abiertas[c] = true
			mu.Unlock()
			enCurso.Add(1)
			go func() {
				defer enCurso.Done()
				defer func() {
					mu.Lock()
					delete(abiertas, c)
					mu.Unlock()
					c.Close()
				}()
				atender(c)
			}()
		}
	}()
	return ln.Addr().String()
}

// PedirCrudo sends peticion as it is written to addr and returns the response as it came: the
// status line and the headers with their names, order and case, and a body read by its
// Content-Length (or to the end of the connection without one; none for HEAD, 204 and 304, as HTTP
// says). A connection that cannot be made, or a head that never ends, fails the test.
func PedirCrudo(t testing.TB, addr, peticion string) string {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(PlazoDeEspera))
	if _, err := io.WriteString(c, peticion); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(c)
	var cab strings.Builder
	largo := -1
	for {
		linea, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("leyendo la cabecera: %v (%q)", err, cab.String())
		}
		cab.WriteString(linea)
		if linea == "\r\n" {
			break
		}
		if n, v, ok := strings.Cut(linea, ":"); ok && strings.EqualFold(n, "content-length") {
			largo, _ = strconv.Atoi(strings.TrimSpace(v))
		}
	}
	var cuerpo []byte
	linea, _, _ := strings.Cut(cab.String(), "\r\n")
	switch {
	case strings.HasPrefix(peticion, "HEAD "), strings.Contains(linea, " 204 "), strings.Contains(linea, " 304 "):
	case largo >= 0:
		cuerpo = make([]byte, largo)
		_, err = io.ReadFull(r, cuerpo)
	default:
		cuerpo, err = io.ReadAll(r)
	}
	if err != nil {
		t.Fatalf("leyendo el cuerpo: %v", err)
	}
	return cab.String() + string(cuerpo)
}
