//go:build unix

package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"cursohttp/pkg/topes"
)

// cuerposLentos: issue 34, item 6. A client sends request bodies a byte every 500 ms on every
// connection a cap lets it hold, and opens a new one whenever the server cuts one. On one machine
// only the total cap applies, so it holds all 1,024 (1,100 connections, the rest queued); in a
// classroom, a machine holds its 256 and another student behind the same address shares them.
// Each connection once stayed until espera-lectura (30 s) cut it, and an ordinary request waited
// 27 s, or was refused at once behind the same address. Now a body behind ritmo-cuerpo makes room
// at a cap: every ordinary request, sent every 1.5 s while the bodies trickle, must be answered
// within 2 s. The panel's bodies go to its page, which answers 405 without reading them: net/http
// reads them then, to throw them away.
func cuerposLentos(_ context.Context, s *sesion) []resultado {
	var out []resultado
	alta := cabecerasDeAlta + "Content-Length: 10000\r\n\r\n"
	for _, o := range []objetivo{
		{s.rev, "revisor", alta, "/servicios"},
		{s.pas, "pasarela", alta, "/servicios"},
		{s.lab, "laboratorio", "POST /codigo/200 HTTP/1.1\r\nHost: x\r\nContent-Length: 10000\r\n\r\n", "/codigo/200"},
	} {
		out = append(out, goteoDeCuerpos(s, o, "", s.t.cuerpos, []string{""}))
	}
	if panel, err := arrancarOrden(s.binario, "laboratorio", []string{"panel"}, "--pasarela", s.pas.url()); err != nil {
		out = append(out, resultado{familia: "cuerpos-lentos", servidor: "panel", detalle: err.Error()})
	} else {
		out = append(out, goteoDeCuerpos(s, objetivo{panel, "panel", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10000\r\n\r\n", "/"}, "", s.t.cuerpos, []string{""}))
		panel.parar()
	}
	// A classroom's machine at its own cap, on the revisor: another student behind the same
	// address (127.0.0.2 too), and one on another machine (127.0.0.3).
	if c, err := (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.2")}}).Dial("tcp", s.rev.addr); err != nil {
		anotarSalto("ataque cuerpos-lentos por cliente", "no se puede conectar desde 127.0.0.2 (solo Linux enruta 127.0.0.0/8 entero)")
		out = append(out, resultado{familia: "cuerpos-lentos", servidor: "revisor", resistio: !s.exigir,
			detalle: "por cliente: omitido, no se puede conectar desde 127.0.0.2: " + err.Error()})
	} else {
		c.Close()
		out = append(out, goteoDeCuerpos(s, objetivo{s.rev, "revisor", alta, "/servicios"}, "127.0.0.2", topes.ConexionesPorCliente+44, []string{"127.0.0.2", "127.0.0.3"}))
	}
	return out
}

// objetivo is a server under cuerposLentos: the request whose body is trickled, and the route of an
// ordinary request.
type objetivo struct {
	srv              *servidor
	nombre           string
	peticion, normal string
}

// goteoDeCuerpos trickles o's bodies on n connections from desde ("": this machine's own address)
// for s.t.goteoCuerpos, and meanwhile sends an ordinary request from each of normales every 1.5 s.
func goteoDeCuerpos(s *sesion, o objetivo, desde string, n int, normales []string) resultado {
	srv := o.srv
	marcador := net.Dialer{Timeout: 3 * time.Second}
	if desde != "" {
		marcador.LocalAddr = &net.TCPAddr{IP: net.ParseIP(desde)}
	}
	srv.pico()
	parar := make(chan struct{})
	var wg sync.WaitGroup
	var abiertas, cortadas atomic.Int64
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-parar:
					return
				default:
				}
				c, err := marcador.Dial("tcp", srv.addr)
				if err != nil {
					select {
					case <-parar:
						return
					case <-time.After(100 * time.Millisecond):
					}
					continue
				}
				abiertas.Add(1)
				_, err = io.WriteString(c, o.peticion)
				// A byte every 500 ms, for longer than the family lasts: the body never ends. A
				// connection the server closed fails its next write (the first only draws the reset).
				for err == nil {
					select {
					case <-parar:
						c.Close()
						return
					case <-time.After(500 * time.Millisecond):
					}
					_, err = c.Write([]byte{' '})
				}
				c.Close()
				cortadas.Add(1)
			}
		}()
	}
	var respuestas conteo
	var peor time.Duration
	ok := true
	for t0 := time.Now(); time.Since(t0) < s.t.goteoCuerpos; {
		// Past the first second of the bodies (their own), and again while they go on.
		time.Sleep(1500 * time.Millisecond)
		for _, quien := range normales {
			codigo, d, err := normalDesde(srv, o.normal, quien)
			if err != nil || d > 2*time.Second {
				ok = false
			}
			if err != nil {
				respuestas.sumar("sin respuesta")
				continue
			}
			respuestas.sumar(strconv.Itoa(codigo))
			peor = max(peor, d)
		}
	}
	close(parar)
	wg.Wait()
	rss, fds := srv.pico()
	donde := "desde esta máquina (solo el tope total)"
	if desde != "" {
		donde = "desde " + desde + " (su tope por cliente)"
	}
	quienes := "desde esta máquina"
	if normales[0] != "" {
		quienes = "desde la misma dirección y desde " + normales[len(normales)-1]
	}
	detalle := fmt.Sprintf("%d conexiones %s con cuerpos de un byte cada 500 ms durante %s, %d cortadas por el servidor (cada una abierta de nuevo); peticiones normales %s, cada 1,5 s: %s",
		n, donde, s.t.goteoCuerpos, cortadas.Load(), quienes, &respuestas)
	if peor > 0 {
		detalle += ", la más lenta atendida en " + peor.Round(time.Millisecond).String()
	}
	return resultado{familia: "cuerpos-lentos", servidor: o.nombre, enviadas: int(abiertas.Load()), resistio: ok, rss: rss, fds: fds, detalle: detalle}
}
