// Package examen grades a student's retrying client, in any language, the way Lesson 6 asks it to
// behave: it runs the client once per intent against a gateway of its own whose faults it scripts
// per attempt, and judges only from what the gateway and the revisor saw (never from what the
// client prints). revisor comprobar cliente is its command.
package examen

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"cursohttp/pkg/almacen"
	"cursohttp/pkg/curso"
	"cursohttp/pkg/pasarela"
	"cursohttp/pkg/problema"
	"cursohttp/pkg/revisor"
	"cursohttp/pkg/servidor"
	"cursohttp/pkg/tabladecision"
	"cursohttp/pkg/topes"
)

// Opciones are one grading run's inputs.
type Opciones struct {
	// Orden is the client's command and its first arguments; each intent appends NOMBRE and URL.
	Orden []string
	// Semilla draws the names' mark and the intermittent failures: the same seed, the same run.
	Semilla uint64
	// Limite bounds each intent; the client is stopped then. Zero: topes.LimiteCliente.
	Limite time.Duration
	// PuertoPasarela and PuertoRevisor: where the grader's own servers listen on 127.0.0.1; the
	// course's (18082, 18080) unless PuertosLibres, which takes free ones.
	PuertosLibres bool
	// Entorno is the client's environment before PASARELA_URL is added; nil is this process's.
	Entorno []string
	// Paralelo is how many clients run at once; zero is ParaleloPorOmision.
	Paralelo int
	// Escenarios, when not nil, replaces Escenarios(Semilla) (tests run a few).
	Escenarios []Escenario
	// Lanzador, when not nil, runs the client instead of Orden's program (a load generator's
	// clients run in-process).
	Lanzador Lanzador

	// puertos, when set, replaces the course's ports (tests of a port taken).
	puertos *[2]int
}

// ParaleloPorOmision: four clients at a time grade a correct client in about 10 s and leave a
// machine of two cores enough room that no client misses its own time limits.
const ParaleloPorOmision = 4

// ordenDeSalida is the order scenarios start in: the ones whose intents take longest first (more
// attempts, a Retry-After or a stalled answer to wait out, two intents), so the run ends soon after
// the longest one.
func ordenDeSalida(es []Escenario) []int {
	peso := func(e *Escenario) int {
		p := len(e.Guion)
		for _, f := range e.Guion {
			if retryAfter(f) > 0 || (f != nil && strings.HasPrefix(f.String(), "lento")) {
				p += 3
			}
		}
		return p * e.veces()
	}
	orden := make([]int, len(es))
	for i := range orden {
		orden[i] = i
	}
	slices.SortStableFunc(orden, func(a, b int) int { return peso(&es[b]) - peso(&es[a]) })
	return orden
}

// Error is a run that could not grade anything: one line, already in Spanish. Uso marks a command
// line that cannot work (no such client command).
type Error struct {
	Texto string
	Uso   bool
}

func (e *Error) Error() string { return e.Texto }

// motor is one local grading run: its run and the servers that watch it.
type motor struct {
	o Opciones
	*Corrida
	mu      sync.Mutex
	cerrado bool           // no request is handled any more: every attempt is written down
	enCurso sync.WaitGroup // requests the gateway or the revisor is still handling
}

// CabeceraSello is the header the grader's gateway adds to what it forwards to the grader's
// revisor, with the run's secret: a POST /servicios without it reached the revisor directly.
const CabeceraSello = "X-Comprobar-Sello"

// sellar stamps every request the gateway forwards with the run's secret.
type sellar struct {
	rt      http.RoundTripper
	secreto string
}

func (s sellar) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(CabeceraSello, s.secreto)
	return s.rt.RoundTrip(r)
}

// vigilar wraps the grader's revisor: what the gateway forwards passes as it came; a POST
// /servicios without the gateway's stamp reached it directly and is written down as an attempt of
// its intent, marked Directo, and judged as the others; one that is not this run's is refused.
func (m *motor) vigilar(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sellada := r.Header.Get(CabeceraSello) == m.secreto
		r.Header.Del(CabeceraSello)
		if sellada || r.Method != http.MethodPost || r.URL.Path != "/servicios" {
			h.ServeHTTP(w, r)
			return
		}
		cuerpo, _ := io.ReadAll(io.LimitReader(r.Body, topes.Cuerpo+1))
		in := m.intencion(cuerpo)
		if in == nil {
			m.ajenas.Add(1)
			problema.Escribir(w, r, problema.PermisoInsuficiente, detalleAjena)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(cuerpo))
		a := Intento{Inicio: time.Now(), Llaves: len(r.Header.Values("Idempotency-Key")), Directo: true}
		a.Llave = strings.Join(r.Header.Values("Idempotency-Key"), ", ")
		n := in.anotar(a)
		rw := &registro{ResponseWriter: w}
		h.ServeHTTP(rw, r)
		a.Fin, a.Revisor, a.Cliente = time.Now(), rw.codigo, rw.codigo
		if a.Cliente >= 400 && a.Cliente < 500 {
			a.Type = tabladecision.TypeDelCuerpo(rw.cuerpo)
		}
		a.RetryAfter, _ = strconv.Atoi(rw.Header().Get("Retry-After"))
		in.mu.Lock()
		in.Intentos[n] = a
		in.mu.Unlock()
	})
}

// registro keeps the status and the first bytes of an answer the revisor gives directly.
type registro struct {
	http.ResponseWriter
	codigo int
	cuerpo []byte
}

func (r *registro) WriteHeader(c int) {
	if r.codigo == 0 {
		r.codigo = c
	}
	r.ResponseWriter.WriteHeader(c)
}

func (r *registro) Write(b []byte) (int, error) {
	if r.codigo == 0 {
		r.codigo = http.StatusOK
	}
	if falta := 4096 - len(r.cuerpo); falta > 0 {
		r.cuerpo = append(r.cuerpo, b[:min(falta, len(b))]...)
	}
	return r.ResponseWriter.Write(b)
}

func (r *registro) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// atender wraps the gateway and the revisor: the run ends by waiting for the requests in flight,
// and one that arrives after that is not handled.
func (m *motor) atender(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m.mu.Lock()
		if m.cerrado {
			m.mu.Unlock()
			panic(http.ErrAbortHandler)
		}
		m.enCurso.Add(1)
		m.mu.Unlock()
		defer m.enCurso.Done()
		h.ServeHTTP(w, r)
	})
}

// cerrar stops the gateway and waits until every request it or the revisor was handling is written
// down.
func (m *motor) cerrar(srv *http.Server) {
	m.mu.Lock()
	m.cerrado = true
	m.mu.Unlock()
	srv.Close()
	m.enCurso.Wait()
}

// Correr grades o.Orden and returns what it saw and judged. An error means nothing could be
// graded (a command that does not exist, a port taken); ctx's end stops every client.
func Correr(ctx context.Context, o Opciones) (*Informe, error) {
	lanzar, err := lanzadorDe(o.Lanzador, o.Orden, o.Entorno, "falta la orden del cliente: revisor comprobar cliente -- ORDEN [ARGUMENTOS…]")
	if err != nil {
		return nil, err
	}
	m := &motor{o: o, Corrida: NuevaCorrida(o.Semilla, o.Escenarios, o.Limite)}

	// The revisor: the course's final program, in memory, its log thrown away.
	alm := almacen.Nuevo()
	rv := revisor.Nuevo(revisor.Opciones{Log: zerolog.Nop(), Almacen: alm})
	defer rv.Cerrar()
	puertos := [2]int{curso.PuertoRevisor, curso.PuertoPasarela}
	if o.puertos != nil {
		puertos = *o.puertos
	}
	lnR, err := m.escuchar("revisor", puertos[0], "--puertos-libres")
	if err != nil {
		return nil, err
	}
	// The revisor's requests are waited for as the gateway's: one that came directly is an attempt
	// to write down before judging.
	srvR := servidor.Nuevo(m.atender(m.vigilar(rv)))
	go srvR.Serve(lnR) //nolint:errcheck // Close below ends it
	defer srvR.Close()
	lnP, err := m.escuchar("pasarela", puertos[1], "--puertos-libres")
	if err != nil {
		return nil, err
	}
	destino, _ := url.Parse("http://" + lnR.Addr().String())
	gw := pasarela.Nueva(pasarela.Opciones{Destinos: []*url.URL{destino}, Log: zerolog.Nop(), Guion: m.Corrida.Guion,
		Transporte: sellar{pasarela.TransportePorOmision(os.LookupEnv), m.secreto}})
	srvP := servidor.Nuevo(m.atender(gw))
	go srvP.Serve(lnP) //nolint:errcheck // Close below ends it
	urlPasarela := "http://" + lnP.Addr().String()

	inicio := time.Now()
	grupos := m.Grupos()
	Ejecutar(ctx, m.Encargos(), o.Paralelo, m.Limite, urlPasarela, lanzar, Avisos{
		Empieza: func(g, v int) error { grupos[g][v].Empezar(); return nil },
		Termina: func(g, v int, r Resultado) { grupos[g][v].Terminar(r) },
	})
	// Whatever the gateway still holds (a stalled answer for a stopped client) ends with its
	// connections; then every attempt is written down.
	m.cerrar(srvP)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	servicios, err := alm.Listar(context.Background(), "*")
	if err != nil {
		return nil, &Error{Texto: "no pude leer los servicios del revisor: " + err.Error()}
	}
	hechos := map[string]bool{}
	for _, s := range servicios {
		hechos[s.Nombre] = true
	}
	inf := m.Juzgar(func(nombre string) bool { return hechos[nombre] })
	inf.Orden, inf.Pasarela, inf.Duracion = strings.Join(o.Orden, " "), urlPasarela, time.Since(inicio)
	return inf, nil
}

func causaDeRuta(err error) string {
	switch {
	case errors.Is(err, exec.ErrNotFound):
		return "no está en el PATH ni es una ruta a un programa"
	case errors.Is(err, os.ErrPermission):
		return "no tiene permiso de ejecución"
	}
	var e *exec.Error
	if errors.As(err, &e) {
		return e.Err.Error()
	}
	return err.Error()
}

// escuchar opens programa's port on 127.0.0.1: the course's, or a free one.
func (m *motor) escuchar(programa string, puerto int, bandera string) (net.Listener, error) {
	// The lab's connection caps: a client that opens thousands of connections costs the grader what
	// it costs the lab.
	o := servidor.Opciones{Direccion: curso.Host, Puerto: puerto,
		TopeConexiones: topes.Conexiones, TopePorCliente: topes.ConexionesPorCliente}
	if m.o.PuertosLibres {
		o.Puerto = 0
	}
	ln, err := servidor.Escuchar(programa, o)
	if err != nil {
		var ocupado *servidor.PuertoOcupado
		if errors.As(err, &ocupado) {
			quien := map[string]string{"revisor": "el revisor", "pasarela": "la pasarela"}[programa]
			return nil, &Error{Texto: fmt.Sprintf("no puedo abrir %s en %s: el puerto ya está en uso (¿el laboratorio sigue arrancado? laboratorio lab detener lo detiene); o elige puertos libres con %s", quien, o.Addr(), bandera)}
		}
		return nil, &Error{Texto: err.Error()}
	}
	return ln, nil
}
