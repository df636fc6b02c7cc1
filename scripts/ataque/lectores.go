//go:build unix

package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The families of issue 22, items 4 and 5: clients that never read, or wait on purpose, and what
// the servers hold for them by bytes.

// conServicios registers n services per team with the longest ASCII URL allowed, so that a listing
// is large (more than the kernel's buffers hold for a client that does not read); quitar deletes
// them again, for the families that follow.
func conServicios(s *sesion, n int) (quitar func()) {
	base, lab := s.rev.url(), "http://"+s.lab.addr+"/"
	url := lab + strings.Repeat("u", 2048-len(lab))
	quienes := []string{"escritura-a", "escritura-b", "admin"}
	enParalelo(n*len(quienes), 128, func(i int) {
		pedir("POST", base+"/servicios", quienes[i%len(quienes)], "", fmt.Sprintf(`{"nombre":"grande-%d","url":"%s"}`, i, url))
	})
	return func() {
		_, lista, _ := pedir("GET", base+"/servicios", "admin", "", "")
		var ids []string
		for _, trozo := range strings.Split(lista, `{"id":`)[1:] {
			id, _, _ := strings.Cut(trozo, ",")
			if n, _ := strconv.Atoi(id); n > 6 {
				ids = append(ids, id)
			}
		}
		enParalelo(len(ids), 32, func(i int) { pedir("DELETE", base+"/servicios/"+ids[i], "admin", "", "") })
	}
}

// sinLeer: on each server, more connections than its cap (1,024) each ask for something and never
// read it — the whole listing, an answer the gateway holds 99,999 ms (lento:99999), the bench's
// /lento/99999, the panel's stream. Each once held its server for as long as the client stayed
// (issue 22, item 4: 1,100 of them locked the panel, the gateway for 100 s, the revisor). Now a
// write that nobody reads fails after 10 s, and at the cap a connection stalled that way, or waiting
// on purpose, makes room: an ordinary request must be answered within 2 s, and no server may pass
// 256 MB.
func sinLeer(_ context.Context, s *sesion) []resultado {
	quitar := conServicios(s, s.t.grandes)
	defer quitar()
	_, lista, _ := pedir("GET", s.rev.url()+"/servicios", "admin", "", "")
	panel, err := arrancarOrden(s.binario, "laboratorio", []string{"panel"}, "--pasarela", s.pas.url())
	if err != nil {
		return []resultado{{familia: "sin-leer", servidor: "panel", detalle: err.Error()}}
	}
	defer panel.parar()
	var out []resultado
	for _, c := range []struct {
		srv      *servidor
		peticion string
		que      string
	}{
		{s.rev, "GET /servicios HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer admin\r\n\r\n", fmt.Sprintf("GET /servicios de %d KB", len(lista)>>10)},
		{s.pas, "GET /servicios/1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer lectura-a\r\nX-Simular: lento:99999\r\n\r\n", "X-Simular: lento:99999"},
		{s.lab, "GET /lento/99999 HTTP/1.1\r\nHost: x\r\n\r\n", "GET /lento/99999"},
		{panel, "GET /flujo HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n", "GET /flujo (eventos del panel)"},
	} {
		c.srv.pico()
		var mu sync.Mutex
		var abiertas []net.Conn
		var fallidas int
		enParalelo(s.t.sinLeer, s.t.concurrencia, func(int) {
			conn, err := marcar(c.srv.addr)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				fallidas++
				return
			}
			// A small window, as a client that reads nothing offers.
			conn.(*net.TCPConn).SetReadBuffer(4 << 10)
			io.WriteString(conn, c.peticion)
			abiertas = append(abiertas, conn)
		})
		// The server has taken them in (or queued them at its cap) and they have stalled: then an
		// ordinary request, while they are all still there.
		time.Sleep(1500 * time.Millisecond)
		ruta := rutaNormal(c.srv)
		if c.srv == panel {
			ruta = "/"
		}
		codigo, d, err := normal(c.srv, ruta)
		rss, fds := c.srv.pico()
		detalle := fmt.Sprintf("%d conexiones con %s sin leer (%d sin conexión); una petición normal: %d en %s",
			len(abiertas), c.que, fallidas, codigo, d.Round(time.Millisecond))
		if err != nil {
			detalle = fmt.Sprintf("%d conexiones con %s sin leer; una petición normal no fue atendida (%v)", len(abiertas), c.que, err)
		}
		for _, conn := range abiertas {
			conn.Close()
		}
		nombre := c.srv.nombre
		if c.srv == panel {
			nombre = "panel"
		}
		out = append(out, resultado{familia: "sin-leer", servidor: nombre, enviadas: s.t.sinLeer,
			resistio: err == nil && codigo != 0 && d <= 2*time.Second && rss < 256<<20, rss: rss, fds: fds, detalle: detalle})
	}
	return out
}

// respuestasLentas: clients of the gateway that ask for a large listing and read it slowly, all at
// once (issue 22, item 5: the gateway held each answer whole, up to 8 MiB per request with no total:
// 100 of them once took 1.1 GB). The gateway must stay under 256 MB, and every reader must get its
// listing whole.
func respuestasLentas(_ context.Context, s *sesion) []resultado {
	quitar := conServicios(s, s.t.listadoLento)
	defer quitar()
	_, lista, _ := pedir("GET", s.rev.url()+"/servicios", "admin", "", "")
	s.pas.pico()
	var completas, cortas conteo
	var wg sync.WaitGroup
	for range s.t.lectores {
		wg.Add(1)
		go func() {
			defer wg.Done()
			conn, err := marcar(s.pas.addr)
			if err != nil {
				cortas.sumar("sin conexión")
				return
			}
			defer conn.Close()
			io.WriteString(conn, "GET /servicios HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer admin\r\nConnection: close\r\n\r\n")
			time.Sleep(3 * time.Second) // the gateway has the answer; the client has not read a byte
			conn.SetDeadline(time.Now().Add(20 * time.Second))
			n, _ := io.Copy(io.Discard, conn)
			if n > int64(len(lista)) {
				completas.sumar("enteras")
			} else {
				cortas.sumar("cortas")
			}
		}()
	}
	wg.Wait()
	rss, fds := s.pas.pico()
	return []resultado{{familia: "respuestas-lentas", servidor: "pasarela", enviadas: s.t.lectores,
		resistio: rss < 256<<20 && cortas.de("cortas") == 0 && cortas.de("sin conexión") == 0, rss: rss, fds: fds,
		detalle: fmt.Sprintf("%d lectores lentos de un listado de %d KB a través de la pasarela: %s %s", s.t.lectores, len(lista)>>10, &completas, &cortas)}}
}

// libroGrande: requests with 6 KB of «<» in path and key through the gateway, then 16 reads of its
// ledger at once (issue 22, item 5: that took 1.86 GB, each «<» six bytes in the JSON). The
// gateway must stay under 256 MB.
func libroGrande(_ context.Context, s *sesion) []resultado {
	s.pas.pico()
	menores := strings.Repeat("<", 6000)
	peticion := "GET /" + menores + " HTTP/1.1\r\nHost: x\r\nIdempotency-Key: " + menores + "\r\nConnection: close\r\n\r\n"
	var respuestas conteo
	enParalelo(1000, s.t.concurrencia, func(int) {
		linea, _ := crudo(s.pas.addr, peticion, 5*time.Second)
		respuestas.sumar(linea)
	})
	var largo int
	var mu sync.Mutex
	enParalelo(16, 16, func(int) {
		_, cuerpo, _ := pedir("GET", s.pas.url()+"/_pasarela/libro", "", "", "")
		mu.Lock()
		largo = max(largo, len(cuerpo))
		mu.Unlock()
	})
	rss, fds := s.pas.pico()
	return []resultado{{familia: "libro-grande", servidor: "pasarela", enviadas: 1016, resistio: rss < 256<<20 && largo > 0, rss: rss, fds: fds,
		detalle: fmt.Sprintf("1000 peticiones con 6 KB de «<» en ruta y llave (%s), luego 16 lecturas del libro a la vez: %d KB cada una", &respuestas, largo>>10)}}
}

// serviciosNoASCII: each team fills its bound with services whose URL is the longest accepted, in
// characters outside ASCII (issue 22, item 5: 2,048 characters of three bytes each cost about 15 KB
// a service, ~460 MB with every bound full). Now a URL is bounded in bytes too: 2,048 «€» are
// refused, and the revisor holds what docs/seguridad.md says.
func serviciosNoASCII(_ context.Context, s *sesion) []resultado {
	base, lab := s.rev.url(), "http://"+s.lab.addr+"/"
	antes, _ := s.rev.pico()
	larga := lab + strings.Repeat("€", 2048-len(lab))
	codigo, _, _ := pedir("POST", base+"/servicios", "escritura-a", "", `{"nombre":"larga","url":"`+larga+`"}`)
	cabe := lab + strings.Repeat("€", (2048-len(lab))/3)
	if codigo == 201 {
		cabe = larga // a revisor that takes it: the attack uses it
	}
	quienes := []string{"escritura-a", "escritura-b", "admin"}
	var respuestas conteo
	enParalelo(s.t.noASCII*len(quienes), 128, func(i int) {
		c, _, err := pedir("POST", base+"/servicios", quienes[i%len(quienes)], "", fmt.Sprintf(`{"nombre":"ñ-%d","url":"%s"}`, i, cabe))
		if err != nil {
			respuestas.sumar("error")
			return
		}
		respuestas.sumar(strconv.Itoa(c))
	})
	pedir("GET", base+"/servicios", "admin", "", "")
	rss, fds := s.rev.pico()
	detalle := fmt.Sprintf("2048 «€»: %d; URLs de %d bytes: %s", codigo, len(cabe), &respuestas)
	// What a service costs, once there are enough of them to weigh more than the heap's noise.
	if altas := respuestas.de("201"); altas >= 1000 {
		detalle += fmt.Sprintf(", unos %.1f KB por servicio", float64(rss-antes)/float64(altas)/1024)
	}
	conServicios(s, 0)() // leave the teams as they were
	return []resultado{{familia: "servicios-no-ascii", servidor: "revisor", enviadas: s.t.noASCII*len(quienes) + 1,
		resistio: rss < 256<<20, rss: rss, fds: fds, detalle: detalle}}
}
