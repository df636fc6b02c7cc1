//go:build unix

package e2e

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cursohttp/internal/prueba"
	"cursohttp/internal/prueba/pgtest"
	"cursohttp/pkg/altasegura"
)

// Issue 22, items 1 and 2, against the built binaries.

// enCursoTipo is the type of 409 llave-en-curso.
const enCursoTipo = `"type":"https://revisor.example/problemas/llave-en-curso"`

// alta posts a registration of nombre with llave as credencial, and returns the status, Location
// and body; status 0 when no answer came.
func alta(base, credencial, nombre, llave string) (int, string, string) {
	req, _ := http.NewRequest("POST", base+"/servicios", bytes.NewReader(altasegura.Cuerpo(nombre, URLServicio)))
	req.Header.Set("Authorization", "Bearer "+credencial)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", llave)
	res, err := sinReuso.Do(req)
	if err != nil {
		return 0, "", err.Error()
	}
	defer res.Body.Close()
	cuerpo, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header.Get("Location"), string(cuerpo)
}

// pendiente says whether an answer leaves the intent unsettled: no answer, a 5xx, or 409
// llave-en-curso (the first request still runs).
func pendiente(codigo int, cuerpo string) bool {
	return codigo == 0 || codigo >= 500 || (codigo == 409 && strings.Contains(cuerpo, enCursoTipo))
}

// definitiva repeats a registration with its key until the answer settles the intent, and returns
// that answer. prueba.Esperar waits longer than a key may stay in progress: the reservation's Plazo
// (topes.PlazoLlave), or the Vida of a revisor killed while it held it (datos.Vida).
func definitiva(t *testing.T, base, credencial, nombre, llave string) (codigo int, location, cuerpo string) {
	t.Helper()
	prueba.Esperar(t, "la llave "+llave+" dio una respuesta definitiva", func() bool {
		codigo, location, cuerpo = alta(base, credencial, nombre, llave)
		return !pendiente(codigo, cuerpo)
	})
	return codigo, location, cuerpo
}

// TestColgarConDatos: a client that sends a whole keyed registration and hangs up while it runs,
// against the built revisor on SQLite and on PostgreSQL. Its retry with the same key gets 409
// llave-en-curso while the first runs, then the recorded 201, never a key stuck; and more hang-ups
// than the credential may have in progress at once do not make its next registration a 429.
func TestColgarConDatos(t *testing.T) {
	largo(t)
	t.Parallel()
	for _, caso := range []struct {
		nombre string
		donde  func(t *testing.T) string
	}{
		{"sqlite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "revisor.db") }},
		{"postgres", func(t *testing.T) string { return pgtest.Base(t) }},
	} {
		t.Run(caso.nombre, func(t *testing.T) {
			t.Parallel()
			const tope = 4
			rev := arrancar(t, "revisor", "--datos", caso.donde(t), "--tope-llaves-en-curso", strconv.Itoa(tope))
			colgadas := 0
			for i := range tope + 2 {
				nombre := fmt.Sprintf("colgada-%d", i)
				llave := "alta-" + nombre
				conn, err := net.Dial("tcp", rev.addr)
				if err != nil {
					t.Fatal(err)
				}
				cuerpo := altasegura.Cuerpo(nombre, URLServicio)
				antes := strings.Count(rev.salida.String(), "POST /servicios")
				fmt.Fprintf(conn, "POST /servicios HTTP/1.1\r\nHost: revisor\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\n"+
					"Idempotency-Key: %s\r\nContent-Length: %d\r\n\r\n%s", altasegura.CredencialPorOmision, llave, len(cuerpo), cuerpo)
				// The revisor has it (its request line is logged first), so the repeat comes second;
				// once the repeat says the first is in progress, the first hangs up.
				prueba.Esperar(t, "el revisor anotó el alta de "+llave, func() bool {
					return strings.Count(rev.salida.String(), "POST /servicios") > antes
				})
				var codigo int
				var location, texto string
				prueba.Esperar(t, "la repetición de "+llave+" vio la primera en curso o terminada", func() bool {
					codigo, location, texto = alta(rev.url(), altasegura.CredencialPorOmision, nombre, llave)
					return codigo == 201 || (codigo == 409 && strings.Contains(texto, enCursoTipo))
				})
				conn.SetReadDeadline(time.Now())
				if n, _ := conn.Read(make([]byte, 1)); n == 0 && codigo == 409 {
					colgadas++
				}
				conn.Close()
				if codigo == 409 {
					codigo, location, texto = definitiva(t, rev.url(), altasegura.CredencialPorOmision, nombre, llave)
				}
				if codigo != 201 {
					t.Fatalf("%s, repetida tras colgar: %d %s\n%s", llave, codigo, texto, rev.salida)
				}
				if c, l, b := alta(rev.url(), altasegura.CredencialPorOmision, nombre, llave); c != 201 || l != location || b != texto {
					t.Fatalf("%s otra vez: %d %s %s; se esperaba el 201 grabado %s %s", llave, c, l, b, location, texto)
				}
			}
			if colgadas == 0 {
				t.Fatalf("ningún cliente colgó con su alta en curso: la prueba no probó nada")
			}
			if c, _, b := alta(rev.url(), altasegura.CredencialPorOmision, "tras-colgar", "alta-tras-colgar"); c != 201 {
				t.Fatalf("el alta siguiente a %d cuelgues: %d %s", tope+2, c, b)
			}
			if strings.Contains(rev.salida.String(), "no se pudo soltar") {
				t.Errorf("la bitácora dice que una llave no se soltó:\n%s", rev.salida)
			}
			for nombre, n := range nombresEnElRevisor(t, rev.url()) {
				if n != 1 {
					t.Errorf("%s está %d veces", nombre, n)
				}
			}
			t.Logf("%d altas, %d colgadas con el alta en curso: cada repetición recibió el 201 grabado", tope+2, colgadas)
		})
	}
}

// TestDosRevisoresYPostgresQueSeReinicia: two revisors on one PostgreSQL behind the gateway, under
// load; PostgreSQL is stopped (until both revisors have failed a request for lack of it) and started
// again, then each revisor is killed with kill -9 and started again. Meanwhile pairs of requests
// with one key and two bodies go one to each revisor at once (the second service). For
// every key there is one service, and every retry, on either revisor, is answered with the
// recorded response: the same 201, or 422 for the other body.
func TestDosRevisoresYPostgresQueSeReinicia(t *testing.T) {
	largo(t)
	t.Parallel()
	srv := pgtest.Propio(t)
	donde, err := srv.CrearBase(context.Background(), "revisor")
	if err != nil {
		t.Fatal(err)
	}
	revisores := []*proceso{arrancar(t, "revisor", "--datos", donde), arrancar(t, "revisor", "--datos", donde)}
	puertos := make([]string, 2)
	for i, r := range revisores {
		puertos[i] = r.addr[strings.LastIndexByte(r.addr, ':')+1:]
	}
	url := func(i int) string { return "http://127.0.0.1:" + puertos[i] }
	pas := arrancar(t, "pasarela", "--destino", url(0)+","+url(1))

	// What every 201 of a key said: one recorded response per key.
	var (
		mu        sync.Mutex
		grabadas  = map[string]map[string]bool{} // key → distinct "Location body" of its 201s
		hechas    atomic.Int64
		parar     = make(chan struct{})
		trabajo   sync.WaitGroup
		intentos  atomic.Int64
		problemas []string
	)
	anotar := func(llave string, codigo int, location, cuerpo string) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case codigo == 201:
			if grabadas[llave] == nil {
				grabadas[llave] = map[string]bool{}
			}
			grabadas[llave][location+" "+cuerpo] = true
		case pendiente(codigo, cuerpo), codigo == 422:
		default:
			problemas = append(problemas, fmt.Sprintf("%s: %d %s", llave, codigo, cuerpo))
		}
	}
	// Six clients register through the gateway, one intent after another, each retried with its
	// key until settled.
	type intencion struct{ nombre, llave string }
	var intenciones []intencion
	for c := range 6 {
		trabajo.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-parar:
					return
				default:
				}
				in := intencion{fmt.Sprintf("carga-%d-%d", c, i), fmt.Sprintf("alta-carga-%d-%d", c, i)}
				mu.Lock()
				intenciones = append(intenciones, in)
				mu.Unlock()
				limite := time.Now().Add(prueba.PlazoDeEspera)
				for espera := 20 * time.Millisecond; ; espera = min(2*espera, 500*time.Millisecond) {
					intentos.Add(1)
					codigo, location, cuerpo := alta(pas.url(), "escritura-a", in.nombre, in.llave)
					anotar(in.llave, codigo, location, cuerpo)
					if !pendiente(codigo, cuerpo) || time.Now().After(limite) {
						break
					}
					// A client's pause between retries, not the test's sequencing.
					<-time.After(espera)
				}
				hechas.Add(1)
			}
		})
	}
	// Pairs: one key, two bodies, one to each revisor at the same moment.
	type par struct {
		llave   string
		nombres [2]string
	}
	var pares []par
	trabajo.Go(func() {
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
			// Each side is a client that retries with the key until its answer settles.
			var ambos sync.WaitGroup
			for lado := range 2 {
				ambos.Go(func() {
					limite := time.Now().Add(prueba.PlazoDeEspera)
					for espera := 20 * time.Millisecond; ; espera = min(2*espera, 500*time.Millisecond) {
						codigo, location, cuerpo := alta(url(lado), "escritura-b", p.nombres[lado], p.llave)
						anotar(p.llave, codigo, location, cuerpo)
						// Unsettled when the wait runs out: the checks below say so.
						if !pendiente(codigo, cuerpo) || time.Now().After(limite) {
							return
						}
						<-time.After(espera)
					}
				})
			}
			ambos.Wait()
			hechas.Add(1)
		}
	})
	masHechas := func(n int64, que string) {
		t.Helper()
		hasta := hechas.Load() + n
		prueba.Esperar(t, fmt.Sprintf("se terminaron %d intenciones más %s", n, que), func() bool { return hechas.Load() >= hasta })
	}
	masHechas(12, "antes de parar PostgreSQL")

	// PostgreSQL stops, until each revisor has failed a request for lack of it, and starts again.
	if err := srv.Parar(); err != nil {
		t.Fatal(err)
	}
	for i := range revisores {
		prueba.Esperar(t, fmt.Sprintf("el revisor %d notó que PostgreSQL no está", i), func() bool {
			codigo, _, _ := pedir(t, "GET", url(i)+"/servicios/1", "escritura-a", "", "")
			return codigo == 500
		})
	}
	if err := srv.Reanudar(context.Background()); err != nil {
		t.Fatal(err)
	}
	masHechas(12, "con PostgreSQL de vuelta")

	// Each revisor killed and started again on its port.
	for i := range revisores {
		revisores[i].matar()
		revisores[i] = arrancar(t, "revisor", "--puerto", puertos[i], "--datos", donde)
		masHechas(12, fmt.Sprintf("con el revisor %d de vuelta", i))
	}
	close(parar)
	trabajo.Wait()

	// Every intent: one 201, repeated the same by either revisor.
	nombres := nombresEnElRevisor(t, url(0))
	for _, in := range intenciones {
		if nombres[in.nombre] != 1 {
			t.Errorf("%s está %d veces", in.nombre, nombres[in.nombre])
		}
		for i := range revisores {
			codigo, location, cuerpo := definitiva(t, url(i), "escritura-a", in.nombre, in.llave)
			anotar(in.llave, codigo, location, cuerpo)
		}
	}
	// Every pair: one service for its key, whichever body won; a retry of the winning body gets its
	// 201 and of the other 422, on either revisor.
	ganadores := map[string]int{}
	for _, p := range pares {
		for lado := range 2 {
			for i := range revisores {
				codigo, location, cuerpo := definitiva(t, url(i), "escritura-b", p.nombres[lado], p.llave)
				anotar(p.llave, codigo, location, cuerpo)
				if codigo == 201 {
					ganadores[p.llave]++
				}
			}
		}
	}
	servicios := nombresPorCredencial(t, url(1), "escritura-b")
	for _, p := range pares {
		if n := servicios[p.nombres[0]] + servicios[p.nombres[1]]; n != 1 || ganadores[p.llave] != 2 {
			t.Errorf("la llave %s: %d servicios (%s y %s) y %d respuestas 201 a sus repeticiones; se esperaba uno y 2 (las del cuerpo que ganó, en cada revisor)",
				p.llave, n, p.nombres[0], p.nombres[1], ganadores[p.llave])
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for llave, distintas := range grabadas {
		if len(distintas) > 1 {
			t.Errorf("la llave %s tuvo %d respuestas 201 distintas: %v", llave, len(distintas), distintas)
		}
	}
	if len(problemas) > 0 {
		t.Errorf("%d respuestas inesperadas, la primera: %s", len(problemas), problemas[0])
	}
	t.Logf("%d intenciones (%d peticiones) y %d pares de una llave con dos cuerpos, con PostgreSQL parado y vuelto a arrancar y cada revisor muerto con kill -9",
		len(intenciones), intentos.Load(), len(pares))
}

// nombresPorCredencial counts a credential's services by name.
func nombresPorCredencial(t *testing.T, revisor, credencial string) map[string]int {
	t.Helper()
	req, _ := http.NewRequest("GET", revisor+"/servicios", nil)
	req.Header.Set("Authorization", "Bearer "+credencial)
	res, err := sinReuso.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	cuerpo, _ := io.ReadAll(res.Body)
	cuenta := map[string]int{}
	for _, trozo := range strings.Split(string(cuerpo), `"nombre":"`)[1:] {
		nombre, _, _ := strings.Cut(trozo, `"`)
		cuenta[nombre]++
	}
	return cuenta
}
