// Package revisor is the course's central API server: the services a team watches, their checks and
// live health queries, behind one gate that asks the course's questions in the course's order.
package revisor

import (
	"context"
	"fmt"
	"net/http"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/rs/zerolog"

	"cursohttp/pkg/almacen"
	"cursohttp/pkg/destinos"
	"cursohttp/pkg/idempotencia"
	"cursohttp/pkg/limitador"
	"cursohttp/pkg/observacion"
	"cursohttp/pkg/problema"
	"cursohttp/pkg/sonda"
	"cursohttp/pkg/topes"
	"cursohttp/pkg/variantes"
)

// The course's numbers (lesson 4 §0.4, lesson 6 §6.8.1), beside the code that uses them. The
// bounds on what a client can make the revisor hold or do are pkg/topes', by their own names:
// topes.Cuerpo (a service is a name of up to 40 characters, a URL and a number: 16 KiB is plenty),
// topes.Revisiones (checks, and live queries, per credential and Ventana), topes.EsperaLlave (each
// step on a registration's key, apart from the registration's own Plazo, so that a key is given
// back even when what ran out was the registration's time), topes.ServiciosPorEquipo and topes.URL
// (together they bound what a writer can make the revisor hold: 3 teams × 10,000 × about 2.3 KB ≈
// 70 MB at most, while a load test through the gateway runs for minutes before meeting it).
const (
	// EsperaEnCola: a check runs this long after its 202.
	EsperaEnCola = time.Second
	// Guardar: a registration "takes" this long, so a retry can arrive while the original runs.
	Guardar = 500 * time.Millisecond
	// Ventana is the window of the limited routes in rutas: going out to the network is limited, or
	// the revisor would hammer someone else's service for whoever asks.
	Ventana = 60 * time.Second
	// VuelveEn is the maintenance 503's Retry-After, in seconds.
	VuelveEn = "120"
)

// Opciones build a Revisor; every zero field takes the course's value.
type Opciones struct {
	// Log receives the operator's lines: "operación: …", "idempotencia: …" and, at error level,
	// "error <ref> en …" with the trimmed stack. The request line is servidor.Registrar's.
	Log zerolog.Logger
	// Almacen: nil is almacen.Nuevo() (in memory: the six start-up services, a fresh boot id).
	Almacen almacen.Almacen
	// Destinos: private destinations allowed (ip:port); nil is destinos.PermitidoPorOmision.
	Destinos []string
	// Verificador replaces the one built from Destinos (tests pass a fake resolver).
	Verificador *destinos.Verificador
	// Sonda replaces the probe built on Verificador.
	Sonda *sonda.Sonda
	// Limitador builds the limiter of each limited route (checks and live queries, see rutas)
	// from its quota and window; nil is the course's fixed window, limitador.NuevaVentanaFija.
	// Almacen keeps its windows (Almacen.Contador).
	Limitador limitador.Fabrica
	// CabecerasRateLimit: the limited routes also announce RateLimit-Policy and RateLimit
	// (draft-ietf-httpapi-ratelimit-headers-11). Off, as in the course, which sends only Retry-After.
	CabecerasRateLimit bool
	// Llaves: nil keeps the Idempotency-Key records in Almacen, and a registration writes its
	// service and its key's response in one step. Other key records are written after the service,
	// in a second step (the broken version llaves-en-memoria).
	Llaves almacen.Llaves
	// Reloj: nil is time.Now.
	Reloj func() time.Time
	// Programa is which of the course's revisors this is: a lesson's program (Lesson 4's, or the
	// final one that Lessons 6 and 7 share, the zero value) and at most one of its broken versions
	// or exercise solutions, from pkg/variantes. What differs is chosen here, once: the error
	// writer, Lesson 6's additions, and the handlers and limits of the route table (rutas).
	Programa variantes.Eleccion
	// EsperaEnCola, Guardar and EsperaCierre: zero is the course's value; tests shorten them.
	EsperaEnCola, Guardar, EsperaCierre time.Duration
	// Observacion is what the server observes of its requests (servidor.Opciones.Observar): with
	// --log-detalle or --panel every probe is a span of its own, logged and sent too.
	Observacion observacion.Observador
	// Credenciales, when not nil, is the table of Bearer tokens instead of the course's (EnClase: a
	// class lab's students, where the course's printed credentials open nothing).
	Credenciales func(string) (Credencial, bool)
	// TopeServicios: live services per team; zero is topes.ServiciosPorEquipo.
	TopeServicios int
	// Rescate: how often the revisor looks in Almacen for pending checks of revisors that are gone
	// (Almacen.Huerfanas), besides once at start-up; zero looks only at start-up. Worth setting
	// only when several revisors share the store.
	Rescate time.Duration
}

// Revisor is the API as an http.Handler. Build it with Nuevo and stop it with Cerrar.
type Revisor struct {
	log           zerolog.Logger
	almacen       almacen.Almacen
	arranque      string // the store's ETag suffix
	vistas        *vistas
	listados      *listados
	verificador   *destinos.Verificador
	sonda         *sonda.Sonda
	rutas         []ruta
	anunciar      bool
	llaves        almacen.Llaves
	llavesPropias bool // llaves are the store's: a registration records its key in the same step
	credenciales  func(string) (Credencial, bool)
	reloj         func() time.Time
	enCola        time.Duration
	guardar       time.Duration
	esperaCierre  time.Duration
	topeServicios int

	// What the lesson's program decides (see Opciones.Programa).
	programa variantes.Eleccion
	// fallar writes every error: Problem Details, or Lesson 4's line of text.
	fallar problema.Escritor
	// leccion6: Idempotency-Key on POST /servicios, the save pause and checks with retries, which
	// Lesson 6 added; Lesson 4's program has none of them.
	leccion6 bool
	// huella is what a key keeps of the body it was first used with (idempotencia.Huella).
	huella func(cuerpo any) string

	// vida ends when Cerrar is called; checks scheduled in the background stop with it.
	vida   context.Context
	cerrar context.CancelFunc
	tareas sync.WaitGroup
}

// Nuevo builds a revisor.
func Nuevo(o Opciones) *Revisor {
	if o.Almacen == nil {
		o.Almacen = almacen.Nuevo()
	}
	if o.Verificador == nil {
		o.Verificador = destinos.Nuevo(o.Destinos, nil)
	}
	if o.Sonda == nil {
		var so sonda.Opciones
		if o.Observacion.Detalle || o.Observacion.Panel != nil {
			so.Observar = observarSondas(o.Observacion)
		}
		o.Sonda = sonda.Nueva(o.Verificador, so)
	}
	if o.Limitador == nil {
		o.Limitador = func(c int, v time.Duration) limitador.Limitador { return limitador.NuevaVentanaFija(c, v) }
	}
	tabla, limites := rutas(o.Programa)
	for _, l := range limites {
		l.lim = o.Almacen.Contador(l.politica, o.Limitador, l.cuota, l.ventana)
	}
	llavesPropias := o.Llaves == nil
	if llavesPropias {
		o.Llaves = o.Almacen
	}
	if o.Reloj == nil {
		o.Reloj = time.Now
	}
	if o.EsperaEnCola == 0 {
		o.EsperaEnCola = EsperaEnCola
	}
	if o.Guardar == 0 {
		o.Guardar = Guardar
	}
	if o.EsperaCierre == 0 {
		// After a 413, the rest of an upload is read and thrown away before closing, so the client
		// reads the 413 instead of a reset (RFC 9112 §9.6; 2 s is the course's).
		o.EsperaCierre = topes.EsperaCierre
	}
	if o.TopeServicios <= 0 {
		o.TopeServicios = topes.ServiciosPorEquipo
	}
	fallar, leccion6 := problema.Escritor(problema.Escribir), true
	if o.Programa.EnLeccion4() {
		fallar, leccion6 = problema.EscribirTexto, false
	}
	huella := idempotencia.Huella
	if o.Programa.EsDefecto(variantes.SinHuella) {
		huella = sinHuella
	}
	vida, cerrar := context.WithCancel(context.Background())
	rv := &Revisor{
		log:           o.Log,
		almacen:       o.Almacen,
		arranque:      o.Almacen.Arranque(),
		vistas:        &vistas{arranque: o.Almacen.Arranque()},
		listados:      nuevosListados(topes.Listados),
		verificador:   o.Verificador,
		sonda:         o.Sonda,
		rutas:         tabla,
		anunciar:      o.CabecerasRateLimit,
		llaves:        o.Llaves,
		llavesPropias: llavesPropias,
		credenciales:  o.Credenciales,
		reloj:         o.Reloj,
		enCola:        o.EsperaEnCola,
		guardar:       o.Guardar,
		esperaCierre:  o.EsperaCierre,
		topeServicios: o.TopeServicios,
		programa:      o.Programa,
		fallar:        fallar,
		leccion6:      leccion6,
		huella:        huella,
		vida:          vida,
		cerrar:        cerrar,
	}
	rv.rescatar(o.Rescate)
	return rv
}

// sinHuella is Lesson 6's broken store (--defecto sin-huella, Series L), wrong on purpose: the key
// is kept without the body's fingerprint, so every body sent with a used key is "the same request"
// and gets the first one's recorded answer (or its 409 while it runs) instead of 422
// llave-reutilizada.
func sinHuella(any) string { return "" }

// Almacen is the store the revisor serves.
func (rv *Revisor) Almacen() almacen.Almacen { return rv.almacen }

// Cerrar stops the checks waiting or running in the background and waits for them. A check cut
// short stays pending. Call it after the HTTP server has shut down.
func (rv *Revisor) Cerrar() {
	rv.cerrar()
	rv.tareas.Wait()
}

// ServeHTTP answers one request. Whatever a handler did not expect — a panic — is caught here:
// the operator's log gets a fresh reference with the message and the project's own frames, and the
// client only the reference. Never the stack, a path or the panic's text.
func (rv *Revisor) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rv.conRed(w, r, rv.atender)
}

// conRed runs atender inside the safety net described at ServeHTTP.
func (rv *Revisor) conRed(w http.ResponseWriter, r *http.Request, atender func(http.ResponseWriter, *http.Request)) {
	ew := &escritor{ResponseWriter: w}
	defer func() {
		v := recover()
		if v == nil {
			return
		}
		if v == http.ErrAbortHandler {
			panic(v)
		}
		if rv.programa.EsDefecto(variantes.Pila) {
			rv.caerConLaPila(ew, r, v)
			return
		}
		referencia := uuid.New().String()
		rv.log.Error().Ctx(r.Context()).Str("referencia", referencia).Str("metodo", r.Method).Str("url", r.RequestURI).
			Msg(fmt.Sprintf("error %s en %s %s: %s", referencia, r.Method, r.RequestURI, pilaPropia(v)))
		if ew.escrito {
			// A response already on its way cannot turn into a 500: cut the connection, so the
			// client sees an incomplete body rather than one that looks whole.
			panic(http.ErrAbortHandler)
		}
		rv.errorInterno(ew, r, referencia)
	}()
	atender(ew, r)
}

// averia answers a request the store failed (a database gone away, a disk full): as any error
// the revisor did not expect, 500 with a fresh reference, and the operator's line with the store's
// error.
func (rv *Revisor) averia(w http.ResponseWriter, r *http.Request, err error) {
	referencia := uuid.New().String()
	rv.log.Error().Ctx(r.Context()).Str("referencia", referencia).Str("metodo", r.Method).Str("url", r.RequestURI).
		Msg(fmt.Sprintf("error %s en %s %s: %v", referencia, r.Method, r.RequestURI, err))
	rv.errorInterno(w, r, referencia)
}

// errorInterno answers the 500 that carries only the reference: in Lesson 4's words, or as the
// problem error-interno whose instance is the reference.
func (rv *Revisor) errorInterno(w http.ResponseWriter, r *http.Request, referencia string) {
	if rv.programa.EnLeccion4() {
		rv.fallar(w, r, problema.ErrorInterno, "error interno; referencia "+referencia)
		return
	}
	rv.fallar(w, r, problema.ErrorInterno, "ocurrió un error inesperado; si se repite, reporta la referencia",
		problema.ConInstance("urn:uuid:"+referencia))
}

// caerConLaPila is Lesson 4's broken net (--defecto pila, Series I), wrong on purpose: the whole
// trace, Go's runtime frames and the machine's paths included, goes to the client, and the operator
// gets one line with no reference and no trace. The information ends up on the wrong side.
func (rv *Revisor) caerConLaPila(w *escritor, r *http.Request, v any) {
	pila := strings.TrimRight(fmt.Sprint(v)+"\n"+string(debug.Stack()), "\n")
	rv.log.Error().Ctx(r.Context()).Str("metodo", r.Method).Str("url", r.RequestURI).Msg("error en " + r.Method + " " + r.RequestURI)
	if w.escrito {
		panic(http.ErrAbortHandler)
	}
	rv.fallar(w, r, problema.ErrorInterno, pila)
}

// escritor remembers whether the response has started, which decides what a panic can still do.
// It also holds the handler's contexto, which the gate fills in: one allocation per request for both.
type escritor struct {
	http.ResponseWriter
	escrito bool
	c       contexto
}

func (e *escritor) WriteHeader(codigo int) {
	if codigo >= 200 {
		e.escrito = true
	}
	e.ResponseWriter.WriteHeader(codigo)
}

func (e *escritor) Write(p []byte) (int, error) {
	e.escrito = true
	return e.ResponseWriter.Write(p)
}

// Unwrap lets http.ResponseController reach Flush and Hijack.
func (e *escritor) Unwrap() http.ResponseWriter { return e.ResponseWriter }

// modulo is the prefix of the project's own functions; the rest of a stack (runtime, net/http) says
// nothing the operator can fix.
const modulo = "cursohttp/"

// fallaDelCliente is an error the HTTP client raised, as fetch rejects in the course: its trace lies
// wholly inside the client (Node's own frames, which the course's filter drops), so the operator's
// line carries its text and no frame (Lesson 4 Series J).
type fallaDelCliente string

func (f fallaDelCliente) Error() string { return string(f) }

// pilaPropia is the panic's message and, below it, the project's frames from where it happened
// outwards, one per line in the lesson's "    at" layout.
func pilaPropia(v any) string {
	if f, ok := v.(fallaDelCliente); ok {
		return f.Error()
	}
	var b strings.Builder
	fmt.Fprint(&b, v)
	pcs := make([]uintptr, 64)
	n := runtime.Callers(1, pcs)
	marcos := runtime.CallersFrames(pcs[:n])
	enPanico := false
	for {
		m, mas := marcos.Next()
		// A closure inlined into the command is named after package main.
		if enPanico && (strings.HasPrefix(m.Function, modulo) || strings.HasPrefix(m.Function, "main.")) {
			fmt.Fprintf(&b, "\n    at %s (%s:%d)", m.Function, m.File, m.Line)
		}
		if m.Function == "runtime.gopanic" {
			enPanico = true
		}
		if !mas {
			break
		}
	}
	return b.String()
}
