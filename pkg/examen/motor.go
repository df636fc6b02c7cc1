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
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"cursohttp/pkg/montaje"
	"cursohttp/pkg/pasarela"
	"cursohttp/pkg/problema"
	"cursohttp/pkg/servidor"
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
			if retryAfter(f) > 0 || retiene(f) > 0 {
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

// motor is one local grading run: its run, and the assembly whose servers watch it.
type motor struct {
	o Opciones
	*Corrida
}

// directo handles a request that reached the grader's revisor without the gateway's stamp: a POST
// /servicios of one of the run's intents is an attempt of its intent, marked Directo (its record is
// written as the gateway writes its own, pasarela.RegistrarDirecto), and judged as the others; one
// that is not this run's is refused. Anything else is the revisor's.
func (m *motor) directo(w http.ResponseWriter, r *http.Request, rv http.Handler) {
	if r.Method != http.MethodPost || r.URL.Path != "/servicios" {
		rv.ServeHTTP(w, r)
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
	n := in.tomar(0)
	pasarela.RegistrarDirecto(w, r, rv, func(a pasarela.Asiento) { in.guardar(n, a) })
}

// Correr grades o.Orden and returns what it saw and judged. An error means nothing could be
// graded (a command that does not exist, a port taken); ctx's end stops every client.
func Correr(ctx context.Context, o Opciones) (*Informe, error) {
	lanzar, err := lanzadorDe(o.Lanzador, o.Orden, o.Entorno, "falta la orden del cliente: revisor comprobar cliente -- ORDEN [ARGUMENTOS…]")
	if err != nil {
		return nil, err
	}
	m := &motor{o: o, Corrida: NuevaCorrida(o.Semilla, o.Escenarios, o.Limite)}
	puertos := montaje.PuertosDelCurso()
	switch {
	case o.puertos != nil:
		puertos.Revisor, puertos.Pasarela = o.puertos[0], o.puertos[1]
	case o.PuertosLibres:
		puertos = montaje.Puertos{}
	}
	// The course's final program in memory, its log thrown away, behind the run's gateway; what
	// reaches it directly is an attempt too (directo).
	mj, err := montaje.Nuevo(montaje.Opciones{Revisores: 1, Pasarela: &montaje.Pasarela{Guion: m.Corrida.Guion},
		Sellar: true, Directo: m.directo, Puertos: montaje.Puertos{Revisor: puertos.Revisor, Pasarela: puertos.Pasarela}})
	if err != nil {
		return nil, errorDeMontaje(err)
	}
	defer mj.Cerrar()

	inicio := time.Now()
	grupos := m.Grupos()
	Ejecutar(ctx, m.Encargos(), o.Paralelo, m.Limite, mj.Pasarela, lanzar, Avisos{
		Empieza: func(g, v int) error { grupos[g][v].Empezar(); return nil },
		Termina: func(g, v int, r Resultado) { grupos[g][v].Terminar(r) },
	})
	// Whatever the gateway still holds (a stalled answer for a stopped client) ends with its
	// connections; then every attempt is written down.
	mj.Cerrar()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	servicios, err := mj.Almacen.Listar(context.Background(), "*")
	if err != nil {
		return nil, &Error{Texto: "no pude leer los servicios del revisor: " + err.Error()}
	}
	hechos := map[string]bool{}
	for _, s := range servicios {
		hechos[s.Nombre] = true
	}
	inf := m.Juzgar(func(nombre string) bool { return hechos[nombre] })
	inf.Orden, inf.Pasarela, inf.Duracion = strings.Join(o.Orden, " "), mj.Pasarela, time.Since(inicio)
	return inf, nil
}

// errorDeMontaje says in the grader's words why its servers could not stand up: a busy port names
// what likely holds it and the flag that avoids it.
func errorDeMontaje(err error) error {
	var ocupado *servidor.PuertoOcupado
	if errors.As(err, &ocupado) {
		quien := map[string]string{"revisor": "el revisor", "pasarela": "la pasarela"}[ocupado.Programa]
		return &Error{Texto: fmt.Sprintf("no puedo abrir %s en %s: el puerto ya está en uso (¿el laboratorio sigue arrancado? laboratorio lab detener lo detiene); o elige puertos libres con --puertos-libres", quien, ocupado.Addr)}
	}
	return &Error{Texto: err.Error()}
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
