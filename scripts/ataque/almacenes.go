//go:build unix

package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"cursohttp/pkg/datos"
	"cursohttp/pkg/pgefimero"
)

// Issue 22, items 1 and 2: what a durable or shared store must survive. The family starts revisors
// of its own, on a SQLite file and on a throwaway PostgreSQL (pkg/pgefimero):
//
//   - colgadas: 40 keyed registrations whose clients hang up while they run (in waves of 8, each
//     once its key is seen in progress), then each retried with its key: every retry must get the
//     recorded 201 (never a key stuck in 409 llave-en-curso), and the credential's next keyed
//     registration a 201 (never a 429 from hang-ups alone; 32 used to make it one). On PostgreSQL
//     the requests go to one revisor and the check of "in progress" to the other.
//   - postgres-reiniciado: two revisors on one PostgreSQL; pairs of clients with one key and two
//     bodies, one to each revisor at once, each retrying until its answer settles, while PostgreSQL
//     is stopped for 5 s (once both revisors fail a request for lack of it) and started again, and
//     then each revisor is killed with kill -9 and started again. Every key must end with one
//     service, and every retry of each body on each revisor with the key's recorded answer (the
//     winner's 201, the other's 422).
func almacenesQueSobreviven(_ context.Context, s *sesion) []resultado {
	dir, err := os.MkdirTemp("", "ataque-almacenes-")
	if err != nil {
		return []resultado{{familia: "colgadas", servidor: "revisor --datos", detalle: err.Error()}}
	}
	defer os.RemoveAll(dir)
	var out []resultado

	// SQLite: one revisor.
	destinos := []string{"--destinos", s.lab.addr}
	if rev, err := arrancar(s.binario, "revisor", append(destinos, "--datos", filepath.Join(dir, "revisor.db"))...); err != nil {
		out = append(out, resultado{familia: "colgadas", servidor: "revisor (SQLite)", detalle: err.Error()})
	} else {
		out = append(out, colgadas(s, "revisor (SQLite)", rev, rev))
		rev.parar()
	}

	// PostgreSQL: two revisors on one database.
	pg, err := pgefimero.Arrancar(context.Background(), "")
	if err != nil {
		// CI installs PostgreSQL (.ci/run): there a missing one is a failure.
		anotarSalto("ataque colgadas y postgres-reiniciado con PostgreSQL", "sin PostgreSQL: "+err.Error())
		return append(out, resultado{familia: "colgadas", servidor: "revisor (PostgreSQL)", resistio: !s.exigir, detalle: "omitido, sin PostgreSQL: " + err.Error()})
	}
	defer pg.Detener()
	donde, err := pg.CrearBase(context.Background(), "revisor")
	if err != nil {
		return append(out, resultado{familia: "colgadas", servidor: "revisor (PostgreSQL)", detalle: err.Error()})
	}
	args := append(destinos, "--datos", donde)
	var revs [2]*servidor
	for i := range revs {
		if revs[i], err = arrancar(s.binario, "revisor", args...); err != nil {
			return append(out, resultado{familia: "colgadas", servidor: "revisor (PostgreSQL)", detalle: err.Error()})
		}
	}
	defer func() {
		for _, r := range revs {
			r.parar()
		}
	}()
	out = append(out, colgadas(s, "2 revisores (PostgreSQL)", revs[0], revs[1]))
	return append(out, postgresReiniciado(s, pg, &revs, args))
}

// llaveEnCurso is the type of 409 llave-en-curso.
const llaveEnCurso = `"type":"https://revisor.example/problemas/llave-en-curso"`

// sinResolver says whether an answer leaves an intent unsettled: no answer, a 5xx, or 409
// llave-en-curso.
func sinResolver(codigo int, cuerpo string, err error) bool {
	return err != nil || codigo >= 500 || (codigo == 409 && strings.Contains(cuerpo, llaveEnCurso))
}

// resolver repeats a registration with its key until its answer settles the intent, for longer
// than a key may stay in progress (a reservation's Plazo, 10 s; a killed revisor's life, 5 s).
func resolver(url, credencial, llave, cuerpo string) (int, string) {
	limite := time.Now().Add(30 * time.Second)
	for {
		codigo, texto, err := pedir("POST", url+"/servicios", credencial, llave, cuerpo)
		if !sinResolver(codigo, texto, err) || time.Now().After(limite) {
			return codigo, texto
		}
		// A client's pause before it asks again.
		<-time.After(100 * time.Millisecond)
	}
}

// hasta waits until cond holds, asking every 10 ms, for at most plazo; it says whether it did.
func hasta(plazo time.Duration, cond func() bool) bool {
	limite := time.Now().Add(plazo)
	for !cond() {
		if time.Now().After(limite) {
			return false
		}
		<-time.After(10 * time.Millisecond)
	}
	return true
}

// colgadas sends the hang-ups to rev and asks whether they are in progress through sonda (the same
// revisor, or another on the same store).
func colgadas(s *sesion, nombre string, rev, sonda *servidor) resultado {
	const olas, porOla = 5, 8
	r := resultado{familia: "colgadas", servidor: nombre, enviadas: olas * porOla}
	cuerpo := func(n string) string { return `{"nombre":"` + n + `","url":"http://` + s.lab.addr + `/codigo/200"}` }
	var nombres []string
	colgadas := 0
	for ola := range olas {
		antes := len(rev.log.lineas("POST /servicios"))
		var conns []net.Conn
		for i := range porOla {
			n := fmt.Sprintf("colgada-%d-%d", ola, i)
			nombres = append(nombres, n)
			c, err := marcar(rev.addr)
			if err != nil {
				r.detalle = err.Error()
				return r
			}
			defer c.Close()
			b := cuerpo(n)
			fmt.Fprintf(c, "POST /servicios HTTP/1.1\r\nHost: revisor\r\nAuthorization: Bearer escritura-a\r\nContent-Type: application/json\r\n"+
				"Idempotency-Key: alta-%s\r\nContent-Length: %d\r\n\r\n%s", n, len(b), b)
			conns = append(conns, c)
		}
		// The revisor has them all (each request line is logged as it arrives); a repeat of each
		// then says it is in progress, and its client hangs up.
		if !hasta(10*time.Second, func() bool { return len(rev.log.lineas("POST /servicios")) >= antes+porOla }) {
			r.detalle = "el revisor no recibió las altas"
			return r
		}
		for i, c := range conns {
			n := nombres[len(nombres)-porOla+i]
			codigo, texto, err := pedir("POST", sonda.url()+"/servicios", "escritura-a", "alta-"+n, cuerpo(n))
			c.SetReadDeadline(time.Now())
			leidos, _ := c.Read(make([]byte, 1))
			c.Close()
			if err == nil && codigo == 409 && strings.Contains(texto, llaveEnCurso) && leidos == 0 {
				colgadas++
			}
		}
	}
	var respuestas conteo
	enParalelo(len(nombres), 16, func(i int) {
		n := nombres[i]
		codigo, texto := resolver(sonda.url(), "escritura-a", "alta-"+n, cuerpo(n))
		if sinResolver(codigo, texto, nil) {
			respuestas.sumar("atascada")
			return
		}
		respuestas.sumar(strconv.Itoa(codigo))
		// Once more, on the other revisor: the same recorded answer.
		if otra, texto2, _ := pedir("POST", rev.url()+"/servicios", "escritura-a", "alta-"+n, cuerpo(n)); otra != codigo || texto2 != texto {
			respuestas.sumar("otra respuesta al repetir")
		}
	})
	atascadas := respuestas.de("atascada")
	siguiente, _, err := pedir("POST", rev.url()+"/servicios", "escritura-a", "alta-tras-colgar", cuerpo("tras-colgar"))
	if err != nil {
		siguiente = 0
	}
	r.rss, r.fds = rev.pico()
	r.resistio = colgadas > 0 && atascadas == 0 && respuestas.de("201") == len(nombres) && siguiente == 201
	r.detalle = fmt.Sprintf("%d colgaron con su alta en curso; sus repeticiones: %s; %d llaves atascadas; el alta siguiente: %d",
		colgadas, &respuestas, atascadas, siguiente)
	return r
}

// postgresReiniciado is the family's second part; revs are restarted in place.
func postgresReiniciado(s *sesion, pg *pgefimero.Servidor, revs *[2]*servidor, args []string) resultado {
	r := resultado{familia: "postgres-reiniciado", servidor: "2 revisores (PostgreSQL)"}
	puertos := [2]string{}
	for i, rev := range revs {
		puertos[i] = rev.addr[strings.LastIndexByte(rev.addr, ':')+1:]
	}
	url := func(i int) string { return "http://127.0.0.1:" + puertos[i] }
	cuerpo := func(n string) string { return `{"nombre":"` + n + `","url":"http://` + s.lab.addr + `/codigo/200"}` }
	type par struct {
		llave   string
		nombres [2]string
	}
	var (
		enCarga conteo // how the pairs' clients settled while it all happened
		mu      sync.Mutex
		pares   []par
		hechos  atomic.Int64
		parar   = make(chan struct{})
		termino = make(chan struct{})
	)
	go func() {
		defer close(termino)
		for i := 0; ; i++ {
			select {
			case <-parar:
				return
			default:
			}
			p := par{llave: fmt.Sprintf("alta-cruce-%d", i), nombres: [2]string{fmt.Sprintf("cruce-%d-uno", i), fmt.Sprintf("cruce-%d-otro", i)}}
			mu.Lock()
			pares = append(pares, p)
			mu.Unlock()
			var ambos sync.WaitGroup
			for lado := range 2 {
				ambos.Go(func() {
					// Each side is a client that retries with its key until its answer settles.
					codigo, _ := resolver(url(lado), "escritura-b", p.llave, cuerpo(p.nombres[lado]))
					enCarga.sumar(strconv.Itoa(codigo))
				})
			}
			ambos.Wait()
			hechos.Add(1)
		}
	}()
	fase := func(que string) bool {
		meta := hechos.Load() + 6
		if !hasta(60*time.Second, func() bool { return hechos.Load() >= meta }) {
			r.detalle = "no se completaron los pares " + que
			return false
		}
		return true
	}
	fallo := func() resultado {
		close(parar)
		<-termino
		return r
	}
	if !fase("antes de parar PostgreSQL") {
		return fallo()
	}
	t0 := time.Now()
	if err := pg.Parar(); err != nil {
		r.detalle = err.Error()
		return fallo()
	}
	for i := range revs {
		if !hasta(30*time.Second, func() bool {
			codigo, _, _ := pedir("GET", url(i)+"/servicios/1", "escritura-a", "", "")
			return codigo == 500
		}) {
			r.detalle = "un revisor no notó que PostgreSQL no está"
			return fallo()
		}
	}
	// Down as long as the attack kept it: a revisor's whole life (datos.Vida), so every
	// revisor's row has lapsed when it comes back.
	<-time.After(datos.Vida)
	if err := pg.Reanudar(context.Background()); err != nil {
		r.detalle = err.Error()
		return fallo()
	}
	parado := time.Since(t0)
	if !fase("con PostgreSQL de vuelta") {
		return fallo()
	}
	for i, rev := range revs {
		rev.cmd.Process.Signal(syscall.SIGKILL)
		<-rev.hecho
		var err error
		if revs[i], err = arrancar(s.binario, "revisor", append(args, "--puerto", puertos[i])...); err != nil {
			r.detalle = err.Error()
			return fallo()
		}
		if !fase("con el revisor reiniciado") {
			return fallo()
		}
	}
	close(parar)
	<-termino

	// Every retry of each body, on each revisor, settled; then the services each key made.
	var respuestas conteo
	grabadas := map[string]map[string]bool{}
	enParalelo(len(pares), 16, func(j int) {
		p := pares[j]
		for lado := range 2 {
			for i := range revs {
				codigo, texto := resolver(url(i), "escritura-b", p.llave, cuerpo(p.nombres[lado]))
				respuestas.sumar(strconv.Itoa(codigo))
				if codigo == 201 {
					mu.Lock()
					if grabadas[p.llave] == nil {
						grabadas[p.llave] = map[string]bool{}
					}
					grabadas[p.llave][texto] = true
					mu.Unlock()
				}
			}
		}
	})
	_, lista, err := pedir("GET", url(0)+"/servicios", "escritura-b", "", "")
	if err != nil {
		r.detalle = err.Error()
		return r
	}
	dobles, sinServicio, distintas := 0, 0, 0
	for _, p := range pares {
		n := 0
		for _, nombre := range p.nombres {
			n += strings.Count(lista, `"nombre":"`+nombre+`"`)
		}
		switch {
		case n > 1:
			dobles++
		case n == 0:
			sinServicio++
		}
		if len(grabadas[p.llave]) > 1 {
			distintas++
		}
	}
	r.enviadas = len(pares)
	r.rss, r.fds = revs[0].pico()
	r.resistio = dobles == 0 && sinServicio == 0 && distintas == 0 && respuestas.de("201") == 2*len(pares) && respuestas.de("422") == 2*len(pares)
	r.detalle = fmt.Sprintf("%d pares de una llave y dos cuerpos, uno a cada revisor; PostgreSQL parado %s, luego cada revisor con kill -9; sus clientes terminaron con %s; %d llaves con dos servicios, %d sin ninguno, %d con dos 201 distintos; las repeticiones: %s",
		len(pares), parado.Round(100*time.Millisecond), &enCarga, dobles, sinServicio, distintas, &respuestas)
	return r
}
