package bitacora

import (
	"context"
	"io"
	"net/http"
	"runtime"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/rs/zerolog"
)

// Lotes is a server's log output: its lines reach stdout (errors stderr) in the order they were
// logged, byte for byte as NuevoLogger writes them, but several per system call. One write per line
// was among the largest costs the revisor added to net/http's own per request (docs/rendimiento.md).
//
// No line is ever dropped or reordered, whatever the load: a line is queued, and a writer goroutine
// takes everything queued at once and writes it, one write per stream change. An idle server's line
// goes out at once; under load the writer writes at most once per cadaEscritura (5 ms), so one
// write carries the lines of many requests. The queue never drops (zerolog's diode
// writer does, and writes one line per call besides): past topeCola the goroutine logging writes the
// queue itself, so a slow terminal slows the server as it did before instead of losing lines.
//
// Lines that must be out before anything else happens are written before their Msg returns:
//   - a line for stderr (an error: a request that crashed, a store that failed), together with
//     everything queued before it;
//   - every line once ctx ends (Ctrl+C: the server is shutting down, and a second Ctrl+C exits at
//     once) or once Cerrar was called.
//
// Only an abrupt death of the process (SIGKILL, a runtime fault) can lose what the writer goroutine
// had not yet written, never more than the last cadaEscritura of lines.
type Lotes struct {
	flujos [2]io.Writer    // stdout, stderr
	vida   <-chan struct{} // the server's context's Done: closed, every line is direct

	mu          sync.Mutex
	cola        []byte  // the queued lines, both streams
	tramos      []tramo // cola cut by stream, in order
	libre       []byte  // the buffers of the last write, reused by the next swap
	tramosLibre []tramo
	directa     bool // every line is written before its Msg returns

	escribiendo sync.Mutex    // held while a batch is written: batches leave in queue order
	aviso       chan struct{} // the queue went from empty to not empty
	fin         chan struct{} // Cerrar: the writer goroutine flushes and ends
	hecho       chan struct{}
	cerrar      sync.Once
	soltar      func() bool // stops the context's AfterFunc
}

// tramo is where a run of one stream's lines ends in cola.
type tramo struct {
	flujo int
	fin   int
}

const (
	flujoSalida  = 0
	flujoErrores = 1
	// topeCola is how much may wait: more means the output is not keeping up, and the goroutine
	// that logs writes the queue itself.
	topeCola = 256 << 10
	// topeLibre is the largest buffer kept for reuse after a write.
	topeLibre = 1 << 20
	// cadaEscritura is the least time between two writes of the writer goroutine while lines keep
	// coming (see escritor): a line waits at most that long, far below what a person notices.
	cadaEscritura = 5 * time.Millisecond
)

// EnLotes starts the log output of a server; ctx is the server's life (its end, Ctrl+C,
// makes every later line direct). Cerrar it when the server is done.
func EnLotes(ctx context.Context, out, errOut io.Writer) *Lotes {
	b := &Lotes{
		flujos: [2]io.Writer{out, errOut},
		vida:   ctx.Done(),
		aviso:  make(chan struct{}, 1),
		fin:    make(chan struct{}),
		hecho:  make(chan struct{}),
	}
	go b.escritor()
	// What is queued when ctx ends goes out at once, even if nothing is logged afterwards.
	b.soltar = context.AfterFunc(ctx, b.Directa)
	return b
}

// Logger is the server's log on b, as NuevoLogger builds it (json: one JSON object per line).
func (b *Lotes) Logger(json bool) zerolog.Logger {
	return NuevoLogger(extremo{b, flujoSalida}, extremo{b, flujoErrores}, json)
}

// Registrar logs each request as Registrar does with b's Logger(json). In the terminal's format
// the line, `METHOD URL`, goes straight into the queue: the same bytes the logger would write (an
// invalid UTF-8 byte as U+FFFD, as zerolog encodes it), without an event or an allocation.
func (b *Lotes) Registrar(json bool, h http.Handler) http.Handler {
	if json {
		return Registrar(b.Logger(true), h)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b.peticion(r.Method, r.RequestURI)
		h.ServeHTTP(w, r)
	})
}

// peticion queues the line `metodo url`.
func (b *Lotes) peticion(metodo, url string) {
	b.mu.Lock()
	vacia := b.empezar(flujoSalida)
	b.cola = comoZerolog(b.cola, metodo)
	b.cola = append(b.cola, ' ')
	b.cola = comoZerolog(b.cola, url)
	b.cola = append(b.cola, '\n')
	b.terminar(flujoSalida, vacia)
}

// comoZerolog appends s as the terminal shows it after zerolog: each invalid UTF-8 byte as U+FFFD.
func comoZerolog(b []byte, s string) []byte {
	if utf8.ValidString(s) {
		return append(b, s...)
	}
	for _, r := range s { // an invalid byte ranges as utf8.RuneError
		b = utf8.AppendRune(b, r)
	}
	return b
}

// Salida and Errores are b's two streams as writers, for what a server prints without its log:
// written in order with the log's lines.
func (b *Lotes) Salida() io.Writer  { return extremo{b, flujoSalida} }
func (b *Lotes) Errores() io.Writer { return extremo{b, flujoErrores} }

// Directa writes what is queued and makes every later line direct.
func (b *Lotes) Directa() {
	b.mu.Lock()
	b.directa = true
	b.mu.Unlock()
	b.vaciar()
}

// Cerrar writes everything queued, stops the writer goroutine and leaves b direct: a line logged
// afterwards (a deferred one) is still written. It may be called more than once.
func (b *Lotes) Cerrar() {
	b.cerrar.Do(func() {
		b.soltar()
		b.Directa()
		close(b.fin)
		<-b.hecho
	})
}

// escritor is the goroutine that writes the queue. A line that finds the writer idle for a while
// goes out at once; one that comes soon after the last write waits until cadaEscritura has passed
// since it, with the lines of every request served meanwhile: under load, one write and one wake-up
// of this goroutine per cadaEscritura instead of per line.
func (b *Lotes) escritor() {
	defer close(b.hecho)
	var ultima time.Time
	for {
		select {
		case <-b.aviso:
		case <-b.fin:
			b.vaciar()
			return
		}
		if falta := cadaEscritura - time.Since(ultima); falta > 0 {
			t := time.NewTimer(falta)
			select {
			case <-t.C:
			case <-b.fin:
				t.Stop()
			}
		} else {
			// The requests already runnable log their lines first: they join this write.
			runtime.Gosched()
		}
		b.vaciar()
		ultima = time.Now()
	}
}

// agregar queues p for flujo, and a newline after it with nl, then writes the queue itself when the
// line must be out before returning.
func (b *Lotes) agregar(flujo int, p []byte, nl bool) {
	b.mu.Lock()
	vacia := b.empezar(flujo)
	b.cola = append(b.cola, p...)
	if nl {
		b.cola = append(b.cola, '\n')
	}
	b.terminar(flujo, vacia)
}

// empezar opens a line for flujo in the queue, with mu held, and says whether the queue was empty.
func (b *Lotes) empezar(flujo int) bool {
	if n := len(b.tramos); n == 0 || b.tramos[n-1].flujo != flujo {
		b.tramos = append(b.tramos, tramo{flujo: flujo})
	}
	return len(b.cola) == 0
}

// terminar closes the line empezar opened, releases mu, and then writes the queue itself when the
// line must be out before returning, or wakes the writer.
func (b *Lotes) terminar(flujo int, vacia bool) {
	b.tramos[len(b.tramos)-1].fin = len(b.cola)
	ya := b.directa || flujo == flujoErrores || len(b.cola) >= topeCola || b.termino()
	b.mu.Unlock()
	if ya {
		b.vaciar()
		return
	}
	if vacia {
		select {
		case b.aviso <- struct{}{}:
		default:
		}
	}
}

// termino says whether the server's context has ended. AfterFunc's Directa runs in a goroutine of
// its own, maybe later: a line logged after Ctrl+C must not wait for it.
func (b *Lotes) termino() bool {
	select {
	case <-b.vida:
		return true
	default:
		return false
	}
}

// vaciar writes everything queued so far, one write per run of one stream.
func (b *Lotes) vaciar() {
	b.escribiendo.Lock()
	defer b.escribiendo.Unlock()
	b.mu.Lock()
	cola, tramos := b.cola, b.tramos
	b.cola, b.tramos = b.libre[:0], b.tramosLibre[:0]
	b.libre, b.tramosLibre = nil, nil
	b.mu.Unlock()
	desde := 0
	for _, t := range tramos {
		// An error writing (a closed terminal) loses what it loses, as a direct write would; the
		// server goes on.
		b.flujos[t.flujo].Write(cola[desde:t.fin])
		desde = t.fin
	}
	b.mu.Lock()
	if cap(cola) <= topeLibre {
		b.libre = cola[:0]
	}
	b.tramosLibre = tramos[:0]
	b.mu.Unlock()
}

// extremo is one of a Lotes's streams.
type extremo struct {
	b     *Lotes
	flujo int
}

func (e extremo) Write(p []byte) (int, error) {
	e.b.agregar(e.flujo, p, false)
	return len(p), nil
}

// escribirLinea queues linea and a newline without joining them first (soloMensaje).
func (e extremo) escribirLinea(linea []byte) {
	e.b.agregar(e.flujo, linea, true)
}
