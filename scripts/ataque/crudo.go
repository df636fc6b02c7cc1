//go:build unix

package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// marcar opens a TCP connection to addr.
func marcar(addr string) (net.Conn, error) {
	return net.DialTimeout("tcp", addr, 3*time.Second)
}

// enParalelo runs f(0..n-1), at most a at once.
func enParalelo(n, a int, f func(i int)) {
	var wg sync.WaitGroup
	turnos := make(chan struct{}, max(a, 1))
	for i := range n {
		wg.Add(1)
		turnos <- struct{}{}
		go func() {
			defer func() { <-turnos; wg.Done() }()
			f(i)
		}()
	}
	wg.Wait()
}

// rutaNormal is an ordinary request each server answers.
func rutaNormal(s *servidor) string {
	if s.nombre == "laboratorio" {
		return "/codigo/200"
	}
	return "/servicios"
}

// normal sends one ordinary request (with lectura-a's credential) on a fresh connection and says
// how long the answer took.
func normal(s *servidor, ruta string) (int, time.Duration, error) {
	return normalDesde(s, ruta, "")
}

// normalDesde is normal from the address desde, "" for the system's choice: on Linux all of
// 127.0.0.0/8 is this machine, so 127.0.0.2 is another machine as the servers' caps see it.
func normalDesde(s *servidor, ruta, desde string) (int, time.Duration, error) {
	tr := &http.Transport{DisableKeepAlives: true}
	if desde != "" {
		tr.DialContext = (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(desde)}}).DialContext
	}
	c := &http.Client{Timeout: 5 * time.Second, Transport: tr}
	req, _ := http.NewRequest("GET", s.url()+ruta, nil)
	req.Header.Set("Authorization", "Bearer lectura-a")
	t0 := time.Now()
	res, err := c.Do(req)
	if err != nil {
		return 0, time.Since(t0), err
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode, time.Since(t0), nil
}

// atendida runs normal and describes it; ok when answered within plazo.
func atendida(s *servidor, plazo time.Duration) (string, bool) {
	c, d, err := normal(s, rutaNormal(s))
	if err != nil {
		return fmt.Sprintf("una petición normal no fue atendida (%v)", err), false
	}
	return fmt.Sprintf("una petición normal: %d en %s", c, d.Round(time.Millisecond)), d <= plazo
}

// crudo sends raw bytes on a new connection and reads the status line, or how the connection ended,
// within plazo.
func crudo(addr, peticion string, plazo time.Duration) (string, time.Duration) {
	c, err := marcar(addr)
	if err != nil {
		return "sin conexión", 0
	}
	defer c.Close()
	t0 := time.Now()
	c.SetDeadline(t0.Add(plazo))
	go io.WriteString(c, peticion) // the server may answer before reading it all
	linea, err := bufio.NewReader(c).ReadString('\n')
	d := time.Since(t0)
	switch {
	case err == nil:
		return strings.TrimSpace(linea), d
	case isTimeout(err):
		return "colgada", d
	}
	return "cerrada", d
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

// cliente HTTP for the API families: keep-alive, enough connections for the workers.
var api = &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 64, MaxIdleConns: 256}}

// pedir sends one request to the API and returns its status and body.
func pedir(metodo, url, credencial, llave, cuerpo string) (int, string, error) {
	var r io.Reader
	if cuerpo != "" {
		r = strings.NewReader(cuerpo)
	}
	req, err := http.NewRequest(metodo, url, r)
	if err != nil {
		return 0, "", err
	}
	if credencial != "" {
		req.Header.Set("Authorization", "Bearer "+credencial)
	}
	if cuerpo != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if llave != "" {
		req.Header.Set("Idempotency-Key", llave)
	}
	res, err := api.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res.StatusCode, string(b), err
}

// conteo counts outcomes by name, safely from many goroutines, and prints them in a stable order.
type conteo struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *conteo) sumar(que string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[string]int{}
	}
	c.n[que]++
}

func (c *conteo) de(que string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[que]
}

func (c *conteo) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var partes []string
	for k, v := range c.n {
		partes = append(partes, fmt.Sprintf("%d %s", v, k))
	}
	slices.Sort(partes)
	return strings.Join(partes, ", ")
}
