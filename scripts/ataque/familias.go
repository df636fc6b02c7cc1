//go:build unix

package main

import (
	"context"
	"cursohttp/internal/proc"
	"cursohttp/pkg/documentoapi"
	"cursohttp/pkg/topes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

const cabecerasDeAlta = "POST /servicios HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer escritura-a\r\nContent-Type: application/json\r\n"

// cuerpoCortado: bodies that end early through the gateway (issue 16, attack 1). Each way of ending
// a body is sent 50 times at once; a malformed chunk must be answered within 1 s, and 1 s later the
// gateway must hold no more descriptors than before (it held two per request for 30 s).
func cuerpoCortado(_ context.Context, s *sesion) []resultado {
	cienKB := strings.Repeat("a", 100<<10)
	casos := []struct {
		nombre, peticion string
		final            func(*net.TCPConn)
		responde         bool
	}{
		{"trozo malformado", cabecerasDeAlta + "Transfer-Encoding: chunked\r\n\r\n-1\r\n", nil, true},
		{"trozo malformado tras 100 KB", cabecerasDeAlta + "Transfer-Encoding: chunked\r\n\r\n" + fmt.Sprintf("%x\r\n%s\r\nzz\r\n", len(cienKB), cienKB), nil, true},
		{"cierre a mitad", cabecerasDeAlta + "Content-Length: 100\r\n\r\n{", func(c *net.TCPConn) { c.CloseWrite() }, false},
		{"reset tras 100 KB", cabecerasDeAlta + "Content-Length: 1000000\r\n\r\n" + cienKB, func(c *net.TCPConn) { c.SetLinger(0); c.Close() }, false},
	}
	var out []resultado
	for _, c := range casos {
		atendida(s.pas, 5*time.Second) // a pooled connection to the revisor, as in use
		time.Sleep(100 * time.Millisecond)
		antes := proc.Descriptores(s.pas.cmd.Process.Pid)
		const n = 50
		var peor atomic.Int64
		var respuestas conteo
		enParalelo(n, n, func(int) {
			conn, err := marcar(s.pas.addr)
			if err != nil {
				respuestas.sumar("sin conexión")
				return
			}
			defer conn.Close()
			t0 := time.Now()
			go io.WriteString(conn, c.peticion)
			if c.final != nil {
				time.Sleep(50 * time.Millisecond)
				c.final(conn.(*net.TCPConn))
			}
			if !c.responde {
				return
			}
			conn.SetReadDeadline(t0.Add(5 * time.Second))
			b := make([]byte, 25)
			k, _ := io.ReadFull(conn, b)
			d := time.Since(t0)
			for {
				v := peor.Load()
				if int64(d) <= v || peor.CompareAndSwap(v, int64(d)) {
					break
				}
			}
			respuestas.sumar(strings.TrimSpace(string(b[:k])))
		})
		time.Sleep(time.Second)
		despues := proc.Descriptores(s.pas.cmd.Process.Pid)
		ok := despues <= antes+10
		detalle := fmt.Sprintf("%s: 1 s después la pasarela tiene %d descriptores (antes %d)", c.nombre, despues, antes)
		if c.responde {
			// The parser's 400, or the revisor's 413 when it saw enough of a streamed body first.
			ok = ok && respuestas.de("HTTP/1.1 400 Bad Request")+respuestas.de("HTTP/1.1 413 Content Too") == n && time.Duration(peor.Load()) <= time.Second
			detalle += fmt.Sprintf("; respuestas: %s, la más lenta en %s", &respuestas, time.Duration(peor.Load()).Round(time.Millisecond))
		}
		out = append(out, resultado{familia: "cuerpo-cortado", servidor: "pasarela", enviadas: n, resistio: ok, detalle: detalle})
	}
	return out
}

// subidasAbortadas: uploads that send one byte of the announced hundred and close, without
// credentials, as fast as they go (issue 16, attack 1: 10,500 of them exhausted the gateway's
// descriptors). Afterwards an ordinary request must be answered within 2 s, and the server must
// not have held them (its descriptors stay near its connection cap).
func subidasAbortadas(_ context.Context, s *sesion) []resultado {
	var out []resultado
	for _, srv := range []*servidor{s.pas, s.rev, s.lab} {
		peticion := "POST " + rutaNormal(srv) + " HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"
		var fallidas atomic.Int64
		t0 := time.Now()
		enParalelo(s.t.abortadas, s.t.concurrencia, func(int) {
			c, err := marcar(srv.addr)
			if err != nil {
				fallidas.Add(1)
				return
			}
			io.WriteString(c, peticion)
			c.Close()
		})
		d := time.Since(t0)
		detalle, ok := atendida(srv, 2*time.Second)
		// Answered, and not by luck: a server that kept the aborted uploads open (two descriptors
		// each through the gateway, for 30 s) lives only as long as its descriptor limit lasts. A
		// burst is counted under the connection cap; past it (and its pooled connections) the server
		// held on to them.
		rss, fds := srv.pico()
		ok = ok && fds < int64(min(s.t.abortadas, topes.Conexiones+256))
		out = append(out, resultado{familia: "subidas-abortadas", servidor: srv.nombre, enviadas: s.t.abortadas, resistio: ok, rss: rss, fds: fds,
			detalle: fmt.Sprintf("%d en %s (%d sin conexión); después, %s", s.t.abortadas, d.Round(time.Millisecond), fallidas.Load(), detalle)})
	}
	return out
}

// subidaGrande: a 10 MB registration, which the revisor refuses with 413 before reading it, sent by
// the clients a student has (issue 16, attack 3: Python's urllib got a reset through the gateway,
// 10 of 10). Each must read the 413, through the gateway as from the revisor.
func subidaGrande(_ context.Context, s *sesion) []resultado {
	dir, err := os.MkdirTemp("", "ataque-")
	if err != nil {
		return []resultado{{familia: "subida-grande", servidor: "pasarela", detalle: err.Error()}}
	}
	defer os.RemoveAll(dir)
	archivo := filepath.Join(dir, "cuerpo")
	if err := os.WriteFile(archivo, []byte(strings.Repeat("a", 10_000_000)), 0o600); err != nil {
		return []resultado{{familia: "subida-grande", servidor: "pasarela", detalle: err.Error()}}
	}
	clientes := []struct {
		nombre, programa string
		args             func(url string) []string
	}{
		{"urllib", "python3", func(url string) []string {
			return []string{"-c", `import sys, urllib.request, urllib.error
data = open(sys.argv[2], "rb").read()
req = urllib.request.Request(sys.argv[1], data=data, method="POST", headers={"Authorization": "Bearer escritura-a", "Content-Type": "application/json"})
try:
    print(urllib.request.urlopen(req, timeout=20).status)
except urllib.error.HTTPError as e:
    print(e.code)
except Exception as e:
    print(type(e).__name__)`, url, archivo}
		}},
		{"curl", "curl", func(url string) []string {
			return []string{"-sS", "-o", "/dev/null", "-w", "%{http_code}\n", "-X", "POST", "-H", "Authorization: Bearer escritura-a",
				"-H", "Content-Type: application/json", "--data-binary", "@" + archivo, url}
		}},
		{"fetch de Node", "node", func(url string) []string {
			return []string{"-e", `const fs = require("fs");
fetch(process.argv[1], {method: "POST", headers: {"Authorization": "Bearer escritura-a", "Content-Type": "application/json"}, body: fs.readFileSync(process.argv[2])})
  .then(r => console.log(r.status), e => console.log((e.cause && e.cause.code) || e.message));`, url, archivo}
		}},
	}
	var out []resultado
	for _, srv := range []*servidor{s.pas, s.rev} {
		for _, c := range clientes {
			ruta, err := exec.LookPath(c.programa)
			if err != nil {
				out = append(out, resultado{familia: "subida-grande", servidor: srv.nombre, resistio: !s.exigir,
					detalle: c.nombre + ": omitido, " + c.programa + " no está instalado"})
				anotarSalto("ataque subida-grande con "+c.nombre+" ("+srv.nombre+")", c.programa+" no está instalado")
				continue
			}
			var respuestas conteo
			for range s.t.subidas {
				b, _ := exec.Command(ruta, c.args(srv.url()+"/servicios")...).Output()
				respuestas.sumar(strings.TrimSpace(string(b)))
			}
			out = append(out, resultado{familia: "subida-grande", servidor: srv.nombre, enviadas: s.t.subidas,
				resistio: respuestas.de("413") == s.t.subidas, detalle: c.nombre + ": " + respuestas.String()})
		}
	}
	return out
}

// llavesCruzadas: escritura-a registers under «victima-1»; escritura-b registers many services, each
// under its own key, retiring each so its team never fills; escritura-a's repeat must still get its
// 201 (issue 16, attack 4: once the shared store overflowed it got 409 nombre-repetido).
func llavesCruzadas(_ context.Context, s *sesion) []resultado {
	base := s.rev.url()
	victima := `{"nombre":"victima","url":"http://` + s.lab.addr + `/codigo/200"}`
	c1, primera, err := pedir("POST", base+"/servicios", "escritura-a", "victima-1", victima)
	if err != nil || c1 != 201 {
		return []resultado{{familia: "llaves-cruzadas", servidor: "revisor", detalle: fmt.Sprintf("el alta de escritura-a no se hizo: %d %v", c1, err)}}
	}
	var respuestas conteo
	t0 := time.Now()
	// 32 at once: no more than one credential may have in progress (--tope-llaves-en-curso).
	enParalelo(s.t.llaves, 32, func(i int) {
		n := "b-" + strconv.Itoa(i)
		c, cuerpo, err := pedir("POST", base+"/servicios", "escritura-b", n, `{"nombre":"`+n+`","url":"http://`+s.lab.addr+`/codigo/200"}`)
		if err != nil {
			respuestas.sumar("error")
			return
		}
		respuestas.sumar(strconv.Itoa(c))
		if c == 201 {
			if _, id, ok := strings.Cut(cuerpo, `"id":`); ok {
				id, _, _ = strings.Cut(id, ",")
				pedir("DELETE", base+"/servicios/"+id, "escritura-b", "", "")
			}
		}
	})
	c2, otra, err := pedir("POST", base+"/servicios", "escritura-a", "victima-1", victima)
	ok := err == nil && c2 == 201 && otra == primera
	detalle := fmt.Sprintf("escritura-b: %s en %s; la repetición de escritura-a: %d", &respuestas, time.Since(t0).Round(time.Second), c2)
	if !ok {
		detalle += " " + strings.TrimSpace(otra)
	} else {
		detalle += ", la misma respuesta"
	}
	return []resultado{{familia: "llaves-cruzadas", servidor: "revisor", enviadas: s.t.llaves + 2, resistio: ok, detalle: detalle}}
}

// memoriaListado: services with 16 KB URLs, then with the longest URL allowed up to each team's
// bound, each followed by parallel listings (issue 16, attack 2: 8,000 services with 16 KB URLs and 8
// parallel listings held 2.08 GB). The revisor must stay under 256 MB.
func memoriaListado(_ context.Context, s *sesion) []resultado {
	base := s.rev.url()
	lab := "http://" + s.lab.addr + "/"
	listar := func() {
		for range 3 {
			enParalelo(s.t.listados, s.t.listados, func(int) { pedir("GET", base+"/servicios", "admin", "", "") })
		}
	}
	var out []resultado
	for _, fase := range []struct {
		nombre      string
		largo, cada int
		quien       []string
	}{
		{"URL de 16 KB", 16_000, s.t.servicios16K / 2, []string{"escritura-a", "escritura-b"}},
		{"URL de 2048 caracteres", 2048, s.t.servicios2K, []string{"escritura-a", "escritura-b", "admin"}},
	} {
		s.rev.pico()
		var respuestas conteo
		url := lab + strings.Repeat("u", fase.largo-len(lab))
		enParalelo(fase.cada*len(fase.quien), 128, func(i int) {
			quien := fase.quien[i%len(fase.quien)]
			n := fmt.Sprintf("m%d-%d", fase.largo, i)
			c, _, err := pedir("POST", base+"/servicios", quien, "", `{"nombre":"`+n+`","url":"`+url+`"}`)
			if err != nil {
				respuestas.sumar("error")
				return
			}
			respuestas.sumar(strconv.Itoa(c))
		})
		_, lista, _ := pedir("GET", base+"/servicios", "admin", "", "")
		listar()
		rss, fds := s.rev.pico()
		// Leave the teams as they were, for the families that follow.
		var ids []string
		for _, trozo := range strings.Split(lista, `{"id":`)[1:] {
			id, _, _ := strings.Cut(trozo, ",")
			if n, _ := strconv.Atoi(id); n > 6 {
				ids = append(ids, id)
			}
		}
		enParalelo(len(ids), 32, func(i int) { pedir("DELETE", base+"/servicios/"+ids[i], "admin", "", "") })
		out = append(out, resultado{familia: "memoria-listado", servidor: "revisor", enviadas: fase.cada*len(fase.quien) + 3*s.t.listados,
			resistio: rss < 256<<20, rss: rss, fds: fds,
			detalle: fmt.Sprintf("%s: %s; la lista de admin tiene %d bytes; %d listados en paralelo, 3 veces", fase.nombre, &respuestas, len(lista), s.t.listados)})
	}
	return out
}

// conexionesOciosas: many keep-alive connections, each after one request, left open (the campaign
// held 19,980 on the revisor, about 405 MB). An ordinary request must still be answered within 2 s,
// and the server must not keep them all.
func conexionesOciosas(_ context.Context, s *sesion) []resultado {
	var out []resultado
	for _, srv := range []*servidor{s.rev, s.pas, s.lab} {
		peticion := "GET " + rutaNormal(srv) + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer lectura-a\r\n\r\n"
		var mu sync.Mutex
		var abiertas []net.Conn
		var respuestas conteo
		enParalelo(s.t.ociosas, s.t.concurrencia, func(int) {
			c, err := marcar(srv.addr)
			if err != nil {
				respuestas.sumar("sin conexión")
				return
			}
			c.SetDeadline(time.Now().Add(3 * time.Second))
			io.WriteString(c, peticion)
			b := make([]byte, 12)
			if _, err := io.ReadFull(c, b); err != nil {
				respuestas.sumar("cerrada")
				c.Close()
				return
			}
			respuestas.sumar("atendida")
			c.SetDeadline(time.Time{})
			mu.Lock()
			abiertas = append(abiertas, c)
			mu.Unlock()
		})
		time.Sleep(200 * time.Millisecond)
		enServidor := proc.Descriptores(srv.cmd.Process.Pid)
		detalle, ok := atendida(srv, 2*time.Second)
		ok = ok && enServidor < int64(s.t.ociosas)
		for _, c := range abiertas {
			c.Close()
		}
		out = append(out, resultado{familia: "conexiones-ociosas", servidor: srv.nombre, enviadas: s.t.ociosas, resistio: ok,
			detalle: fmt.Sprintf("%s; el servidor tenía %d descriptores con todas abiertas; %s", &respuestas, enServidor, detalle)})
	}
	return out
}

// goteo: slowloris. Many connections send their headers one byte every 100 ms; meanwhile an
// ordinary request must be answered within 2 s.
func goteo(_ context.Context, s *sesion) []resultado {
	var out []resultado
	for _, srv := range []*servidor{s.rev, s.pas, s.lab} {
		parar := make(chan struct{})
		var wg sync.WaitGroup
		var cortadas atomic.Int64
		for range s.t.lentas {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c, err := marcar(srv.addr)
				if err != nil {
					cortadas.Add(1)
					return
				}
				defer c.Close()
				cabeza := "GET / HTTP/1.1\r\nHost: x\r\nX-Goteo: "
				for i := 0; ; i++ {
					if i < len(cabeza) {
						_, err = c.Write([]byte{cabeza[i]})
					} else {
						_, err = c.Write([]byte{'a'})
					}
					if err != nil {
						cortadas.Add(1)
						return
					}
					select {
					case <-parar:
						return
					case <-time.After(100 * time.Millisecond):
					}
				}
			}()
		}
		time.Sleep(min(time.Second, s.t.goteo/2))
		detalle, ok := atendida(srv, 2*time.Second)
		time.Sleep(s.t.goteo - min(time.Second, s.t.goteo/2))
		close(parar)
		wg.Wait()
		out = append(out, resultado{familia: "goteo", servidor: srv.nombre, enviadas: s.t.lentas, resistio: ok,
			detalle: fmt.Sprintf("%d conexiones goteando cabeceras %s (%d cortadas por el servidor); durante, %s", s.t.lentas, s.t.goteo, cortadas.Load(), detalle)})
	}
	return out
}

// malformadas are heads no server should choke on: each must be answered or closed within 2 s.
// (A request that announces a body and does not send it is not here: the server rightly waits for
// the rest, up to topes.EsperaLectura.)
var malformadas = []string{
	"GET / HTTP/1.1\r\n\r\n",                                                     // no Host
	"GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n",                               // two Hosts
	"GET / HTTP/9.9\r\nHost: x\r\n\r\n",                                          // unknown version
	"GET /\r\n\r\n",                                                              // HTTP/0.9
	"GET / HTTP/1.1\nHost: x\n\n",                                                // bare line feeds
	"GET / HTTP/1.1\r\nHost: x\r\n folded: y\r\n\r\n",                            // obsolete folding
	"GET / HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n",                         // space in a name
	"GET / HTTP/1.1\r\nHost: x\r\nX: a\x00b\r\n\r\n",                             // NUL in a value
	"\x00\x01\x02\x03\xff\xfe garbage\r\n\r\n",                                   // not HTTP
	"FOO / HTTP/1.1\r\nHost: x\r\n\r\n",                                          // unknown method
	"get / HTTP/1.1\r\nHost: x\r\n\r\n",                                          // lowercase method
	strings.Repeat("A", 20000) + " / HTTP/1.1\r\nHost: x\r\n\r\n",                // huge method
	"GET /" + strings.Repeat("a", 20000) + " HTTP/1.1\r\nHost: x\r\n\r\n",        // huge target
	"GET / HTTP/1.1\r\nHost: x\r\nX: " + strings.Repeat("h", 20000) + "\r\n\r\n", // huge header
	"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
	"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n",
	"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!",
	"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 6\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /x HTTP/1.1\r\nHost: x\r\n\r\n", // CL.TE
	"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n\r\n0\r\n\r\n",
	"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n",
	"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\nhi\r\n0\r\n\r\n",
	"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" + "ffffffffffffffffff\r\n",
	"GET http://evil.example/ HTTP/1.1\r\nHost: x\r\n\r\n",
	"CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n",
	"GET * HTTP/1.1\r\nHost: x\r\n\r\n",
	"OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n",
	"GET /%zz HTTP/1.1\r\nHost: x\r\n\r\n",
	"GET /\xff\xfe HTTP/1.1\r\nHost: x\r\n\r\n",
	"GET /../../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n",
	"\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n",
	"GET / HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n",
	"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
	"GET / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n\r\n",
	"GET / HTTP/1.1\r\nHost: x\r\n" + strings.Repeat("X-A: b\r\n", 3000) + "\r\n",
	"GET / HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + strings.Repeat("x", 10000) + "\r\n\r\n",
	"DELETE /servicios/1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer escritura-b\x00escritura-a\r\n\r\n",
}

// cabecerasMalformadas: every head of malformadas, to each server.
func cabecerasMalformadas(_ context.Context, s *sesion) []resultado {
	var out []resultado
	for _, srv := range []*servidor{s.rev, s.pas, s.lab} {
		var respuestas conteo
		var colgadas atomic.Int64
		enParalelo(len(malformadas), 16, func(i int) {
			linea, _ := crudo(srv.addr, malformadas[i], 2*time.Second)
			if linea == "colgada" {
				colgadas.Add(1)
			}
			if campos := strings.Fields(linea); len(campos) >= 2 && strings.HasPrefix(campos[0], "HTTP/") {
				linea = campos[1]
			}
			respuestas.sumar(linea)
		})
		detalle, ok := atendida(srv, 2*time.Second)
		out = append(out, resultado{familia: "cabeceras-malformadas", servidor: srv.nombre, enviadas: len(malformadas),
			resistio: ok && colgadas.Load() == 0, detalle: respuestas.String() + "; después, " + detalle})
	}
	return out
}

// prohibidas are ways of writing a destination the revisor must never connect to.
var prohibidas = []string{
	"http://127.0.0.1/", "http://127.1/", "http://127.0.1/", "http://0x7f000001/", "http://2130706433/",
	"http://017700000001/", "http://0177.0.0.1/", "http://0x7f.0x0.0x0.0x1/", "http://127.000.000.001/",
	"http://127.0.0.2/", "http://127.255.255.254/", "http://[::1]/", "http://[0:0:0:0:0:0:0:1]/",
	"http://[::ffff:127.0.0.1]/", "http://[::ffff:7f00:1]/", "http://[0:0:0:0:0:ffff:7f00:1]/", "http://[::127.0.0.1]/",
	"http://localhost/", "http://LOCALHOST/", "http://localhost./", "http://0.0.0.0/", "http://0/", "http://[::]/",
	"http://10.0.0.1/", "http://10.255.255.255/", "http://172.16.0.1/", "http://172.31.255.255/", "http://192.168.0.1/",
	"http://192.168.1.1:8080/", "http://100.64.0.1/", "http://198.18.0.1/", "http://224.0.0.1/", "http://255.255.255.255/",
	"http://169.254.169.254/latest/meta-data/", "http://169.254.169.254/computeMetadata/v1/", "http://2852039166/",
	"http://0xa9fea9fe/", "http://0251.0376.0251.0376/", "http://[::ffff:a9fe:a9fe]/", "http://[fe80::1]/",
	"http://[fc00::1]/", "http://[fd00::1]/", "http://[ff02::1]/", "http://metadata.google.internal/",
	"http://127.0.0.1:18080/", "http://127.0.0.1:22/", "http://127.0.0.1:6379/", "https://127.0.0.1/", "https://[::1]:443/",
	"http://user:pass@127.0.0.1/", "http://example.com@127.0.0.1/", "http://127.0.0.1#@example.com/",
	"http://127.0.0.1%2f@example.com/", "http://%31%32%37.0.0.1/", "http://127。0。0。1/", "http://①②⑦.0.0.1/",
	"http://127.0.0.1:65536/", "http://[::1%25lo]/", "http://0x7f.1/", "http://127.0.0.1.nip.io/",
	"gopher://127.0.0.1:70/", "file:///etc/passwd", "ftp://127.0.0.1/", "javascript:alert(1)", "http://\\\\127.0.0.1/",
	"HTTP://127.0.0.1/", "http:/127.0.0.1/", "http:127.0.0.1/", "http://127.0.0.1\t/", " http://127.0.0.1/",
}

// ssrf: registrations of forbidden destinations; none may be created, and the laboratory's allowed
// address (the control) must be.
func ssrf(_ context.Context, s *sesion) []resultado {
	base := s.rev.url()
	var respuestas, creadas conteo
	enParalelo(len(prohibidas), 16, func(i int) {
		cuerpo := fmt.Sprintf(`{"nombre":"ssrf-%d","url":%q}`, i, prohibidas[i])
		c, texto, err := pedir("POST", base+"/servicios", "escritura-a", "", cuerpo)
		switch {
		case err != nil:
			respuestas.sumar("error")
		case c == 201:
			creadas.sumar(prohibidas[i])
			respuestas.sumar("201")
		case strings.Contains(texto, "destino-prohibido"):
			respuestas.sumar("422 destino-prohibido")
		case strings.Contains(texto, "datos-invalidos"):
			respuestas.sumar("422 datos-invalidos")
		default:
			respuestas.sumar(strconv.Itoa(c))
		}
	})
	control, _, _ := pedir("POST", base+"/servicios", "escritura-a", "", `{"nombre":"ssrf-control","url":"http://`+s.lab.addr+`/codigo/200"}`)
	detalle := fmt.Sprintf("%s; el laboratorio permitido: %d", &respuestas, control)
	if c := creadas.String(); c != "" {
		detalle += "; CREADAS: " + c
	}
	return []resultado{{familia: "ssrf", servidor: "revisor", enviadas: len(prohibidas) + 1,
		resistio: creadas.String() == "" && respuestas.de("error") == 0 && control == 201, detalle: detalle}}
}

// credencialesCruzadas: team b (and a reader, and nobody) on team a's services. Nothing may
// succeed: 401, 403, 404 or 429 only.
func credencialesCruzadas(_ context.Context, s *sesion) []resultado {
	base := s.rev.url()
	c, cuerpo, _ := pedir("POST", base+"/servicios", "escritura-a", "", `{"nombre":"de-a","url":"http://`+s.lab.addr+`/codigo/200"}`)
	id := "1"
	if _, resto, ok := strings.Cut(cuerpo, `"id":`); ok && c == 201 {
		id, _, _ = strings.Cut(resto, ",")
	}
	deA := []string{"1", "2", "4", "5", "6", id}
	type sonda struct{ metodo, ruta, credencial, cuerpo string }
	var sondas []sonda
	// Every operation on one service, from the revisor's document: a new route is probed too.
	var deUnServicio []documentoapi.Operacion
	for _, o := range documentoapi.Operaciones() {
		if strings.HasPrefix(o.Ruta, "/servicios/{id}") {
			deUnServicio = append(deUnServicio, o)
		}
	}
	for _, n := range deA {
		for _, cred := range []string{"escritura-b", "lectura-a", "", "Escritura-a", "escritura-a\tx", "admin2"} {
			for _, o := range deUnServicio {
				cuerpo := ""
				if o.Metodo == "PUT" {
					cuerpo = `{"nombre":"robado","url":"http://` + s.lab.addr + `/codigo/200"}`
				}
				sondas = append(sondas, sonda{o.Metodo, strings.Replace(o.Ruta, "{id}", n, 1), cred, cuerpo})
			}
		}
	}
	sondas = append(sondas, sonda{"PUT", "/mantenimiento", "escritura-a", `{"activo":true}`}, sonda{"PUT", "/mantenimiento", "escritura-b", `{"activo":true}`})
	var respuestas, exitos conteo
	enviadas := 0
	for _, p := range sondas {
		cred := p.credencial
		if p.metodo == "GET" && cred == "lectura-a" {
			continue // a reader of team a may read team a: not a probe
		}
		enviadas++
		codigo, _, err := pedirConIfMatch(p.metodo, base+p.ruta, cred, p.cuerpo)
		if err != nil {
			respuestas.sumar("error")
			continue
		}
		respuestas.sumar(strconv.Itoa(codigo))
		if codigo < 400 {
			exitos.sumar(p.metodo + " " + p.ruta + " con «" + cred + "»")
		}
	}
	detalle := respuestas.String()
	if e := exitos.String(); e != "" {
		detalle += "; PASARON: " + e
	}
	return []resultado{{familia: "credenciales-cruzadas", servidor: "revisor", enviadas: enviadas, resistio: exitos.String() == "" && respuestas.de("error") == 0, detalle: detalle}}
}

// pedirConIfMatch is pedir with «If-Match: *», so a PUT is refused for who asks, not for a missing
// condition.
func pedirConIfMatch(metodo, url, credencial, cuerpo string) (int, string, error) {
	var r io.Reader
	if cuerpo != "" {
		r = strings.NewReader(cuerpo)
	}
	req, err := http.NewRequest(metodo, url, r)
	if err != nil {
		return 0, "", err
	}
	if credencial != "" {
		req.Header["Authorization"] = []string{"Bearer " + credencial}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("If-Match", "*")
	res, err := api.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res.StatusCode, string(b), err
}
