// Package servidor is what the suite's three servers share: the --direccion/--puerto/--log-json flags,
// the start-up line, one log line per request as the lessons print it, deliberate timeouts, graceful
// shutdown on Ctrl+C or SIGTERM, and one clear Spanish sentence when the port is taken.
package servidor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"
	"github.com/spf13/pflag"

	"cursohttp/pkg/curso"
	"cursohttp/pkg/encabezado"
	"cursohttp/pkg/lab"
	"cursohttp/pkg/traza"
)

// Limits set on purpose so a slow or hostile client cannot hold a server (see Nuevo).
const (
	EsperaCabeceras = 10 * time.Second // to send the request line and headers
	EsperaLectura   = 30 * time.Second // to send the whole request, body included
	EsperaOciosa    = 60 * time.Second // an idle kept-alive connection
	TopeCabeceras   = 16 << 10         // the request line and headers together, about what Node allows
	EsperaApagado   = 10 * time.Second // for requests in flight on Ctrl+C
)

// Opciones are the flags every server takes, and its log.
type Opciones struct {
	Direccion string
	Puerto    int
	LogJSON   bool
	EstadoLab string // the lab controller's state file (lab.Anunciar); "" outside the controller
	Detalle   bool   // --log-detalle (BanderasDeTraza)
	Panel     string // --panel: the timeline page's URL (BanderasDeTraza)
	// Token is --token, the lab's token (pkg/token): the panel asks it of the events, and the
	// gateway of a change to its process-wide fault. "" here: CURSOHTTP_TOKEN's (Observar).
	Token string
	// TopeConexiones and TopePorCliente cap the connections open at once, in all and per client
	// address (0: no cap); see topes.go.
	TopeConexiones, TopePorCliente int
	// Log receives the line of a cap hit; the zero Logger writes nothing.
	Log zerolog.Logger
}

// Banderas declares --direccion, --puerto and --log-json with the program's default port.
func (o *Opciones) Banderas(fs *pflag.FlagSet, puerto int) {
	fs.StringVar(&o.Direccion, "direccion", curso.Host, "dirección en la que escucha")
	fs.IntVar(&o.Puerto, "puerto", puerto, "puerto en el que escucha (0: uno libre)")
	fs.BoolVar(&o.LogJSON, "log-json", false, "bitácora en JSON, una línea por evento")
	fs.IntVar(&o.TopeConexiones, "tope-conexiones", TopeConexionesPorOmision,
		"conexiones abiertas a la vez, como mucho (0: sin tope); al llegar, la más quieta deja su lugar o las nuevas esperan turno")
	fs.IntVar(&o.TopePorCliente, "tope-por-cliente", TopePorClientePorOmision,
		"conexiones abiertas a la vez desde otra máquina, como mucho (0: sin tope); al llegar, su más quieta deja su lugar o la nueva se cierra")
	// Set by «laboratorio lab», not by hand: hidden from the help.
	fs.StringVar(&o.EstadoLab, "estado-lab", "", "archivo de estado para «laboratorio lab»")
	fs.MarkHidden("estado-lab")
}

// Addr returns host:port.
func (o Opciones) Addr() string {
	return net.JoinHostPort(o.Direccion, strconv.Itoa(o.Puerto))
}

// NuevoLogger builds the log a server writes: in a terminal, only the message, as the lessons show
// it; with json, one JSON object per line, with the time to the microsecond and, for a line about
// a request (logged with Ctx(r.Context())), the trace and span it belongs to. Errors go to errOut,
// the rest to out, like the course's console.error and console.log.
func NuevoLogger(out, errOut io.Writer, json bool) zerolog.Logger {
	if !json {
		// Only the message is printed: nothing else is worth computing.
		return zerolog.New(porNivel{soloMensaje{out}, soloMensaje{errOut}})
	}
	return zerolog.New(porNivel{out, errOut}).Hook(marcas{})
}

// FormatoHora is the JSON log's time: RFC 3339 with microseconds, so lines from the four programs
// sort into one timeline.
const FormatoHora = "2006-01-02T15:04:05.000000Z07:00"

// marcas adds the time and the request's trace to each JSON line. It formats into a buffer on the
// stack and writes raw JSON, so a line costs no allocation more than before.
type marcas struct{}

func (marcas) Run(e *zerolog.Event, _ zerolog.Level, _ string) {
	var b [48]byte
	hora := append(time.Now().AppendFormat(append(b[:0], '"'), FormatoHora), '"')
	e.RawJSON("time", hora)
	if c := traza.DeContexto(e.GetCtx()); c != nil {
		e.Hex("traza", c.Traza[:]).Hex("tramo", c.Tramo[:])
		if !c.Padre.Vacio() {
			e.Hex("padre", c.Padre[:])
		}
	}
}

// soloMensaje writes the message of each event and nothing else. zerolog always puts the message
// last, so it is found without parsing the whole event.
type soloMensaje struct{ w io.Writer }

func (s soloMensaje) Write(p []byte) (int, error) {
	i := bytes.LastIndex(p, []byte(`"message":`))
	if i < 0 {
		return len(p), nil
	}
	fin := bytes.LastIndexByte(p, '}')
	if fin < i {
		return len(p), nil
	}
	valor := p[i+len(`"message":`) : fin]
	var linea []byte
	if len(valor) >= 2 && valor[0] == '"' && valor[len(valor)-1] == '"' && bytes.IndexByte(valor, '\\') < 0 {
		// No escapes (the usual request line): the JSON string's bytes are the message. This runs
		// once per request, so it skips the decoder, and a Bitacora takes it without a copy.
		if l, ok := s.w.(escritorDeLineas); ok {
			l.escribirLinea(valor[1 : len(valor)-1])
			return len(p), nil
		}
		linea = append(append(make([]byte, 0, len(valor)), valor[1:len(valor)-1]...), '\n')
	} else {
		var msg string
		if json.Unmarshal(valor, &msg) != nil {
			return len(p), nil
		}
		linea = []byte(msg + "\n")
	}
	// One write per line, so lines from concurrent requests never interleave.
	if _, err := s.w.Write(linea); err != nil {
		return 0, err
	}
	return len(p), nil
}

// escritorDeLineas takes a line and its newline apart, so that the message needs no copy of its own.
type escritorDeLineas interface{ escribirLinea(linea []byte) }

// porNivel sends errors to one writer and the rest to another.
type porNivel struct{ normal, errores io.Writer }

func (p porNivel) Write(b []byte) (int, error) { return p.normal.Write(b) }

func (p porNivel) WriteLevel(l zerolog.Level, b []byte) (int, error) {
	if l >= zerolog.ErrorLevel {
		return p.errores.Write(b)
	}
	return p.normal.Write(b)
}

// Registrar logs each request when it arrives, before any decision, as `METHOD URL` (the raw target).
func Registrar(log zerolog.Logger, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.Info().Ctx(r.Context()).Str("metodo", r.Method).Str("url", r.RequestURI).Str("remoto", r.RemoteAddr).
			Msg(r.Method + " " + r.RequestURI)
		h.ServeHTTP(w, r)
	})
}

// Nuevo builds an http.Server with the suite's limits, the course's status lines and Node's list of
// methods (see filtrarMetodos). ReadTimeout
// covers headers and body together; net/http lifts it once the body is read, so a slow handler
// (/lento/MS) is not cut by it.
func Nuevo(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           filtrarMetodos(h),
		ReadHeaderTimeout: EsperaCabeceras,
		ReadTimeout:       EsperaLectura,
		IdleTimeout:       EsperaOciosa,
		MaxHeaderBytes:    TopeCabeceras - holguraNetHTTP,
		ConnContext:       encabezado.ConnContext,
		ConnState:         notarEstado,
		// "OPTIONS *" is a request like any other for the course's servers (405), not Go's automatic 200.
		DisableGeneralOptionsHandler: true,
	}
}

// holguraNetHTTP is what net/http reads beyond MaxHeaderBytes before it answers 431 (its bufio
// slack). Without taking it off, a head of up to 20 KiB passed where Node answers 431 past 16 KiB.
const holguraNetHTTP = 4096

// PuertoOcupado is the error for an address already in use.
type PuertoOcupado struct {
	Programa string
	Addr     string
}

func (e *PuertoOcupado) Error() string {
	quien := "otra copia de " + e.Programa
	if _, puerto, err := net.SplitHostPort(e.Addr); err == nil {
		if duenio, ok := duenios[puerto]; ok && duenio != e.Programa {
			quien += " o " + duenio
		}
	}
	return fmt.Sprintf("%s no puede escuchar en %s: el puerto ya está en uso; quizá %s sigue corriendo (detenlo con Ctrl+C o make lab-down) o usa --puerto",
		e.Programa, e.Addr, quien)
}

// duenios names the program the course runs on each of its ports, the likely other occupant.
var duenios = map[string]string{
	strconv.Itoa(curso.PuertoRevisor): "el revisor", strconv.Itoa(curso.PuertoLaboratorio): "el laboratorio",
	strconv.Itoa(curso.PuertoPasarela): "la pasarela", strconv.Itoa(curso.PuertoHostil): "el servicio hostil",
}

// Escuchar opens the listening socket, with the connection caps of o, wrapped for the course's
// status lines.
func Escuchar(programa string, o Opciones) (net.Listener, error) {
	if o.TopeConexiones < 0 || o.TopePorCliente < 0 {
		return nil, fmt.Errorf("%s: --tope-conexiones y --tope-por-cliente deben ser 0 (sin tope) o más", programa)
	}
	ln, err := net.Listen("tcp", o.Addr())
	if err != nil {
		if errors.Is(err, enUso) {
			return nil, &PuertoOcupado{Programa: programa, Addr: o.Addr()}
		}
		return nil, fmt.Errorf("%s no puede escuchar en %s: %w", programa, o.Addr(), err)
	}
	if o.EstadoLab != "" {
		anunciado, err := lab.Anunciar(ln, o.EstadoLab, programa)
		if err != nil {
			ln.Close()
			return nil, err
		}
		ln = anunciado
	}
	return encabezado.Envolver(conTopes(ln, programa, o)), nil
}

// Servir serves on ln until ctx ends, then lets requests in flight finish (up to EsperaApagado).
// If some are still running a moment later, it says in log how many and that a second Ctrl+C
// stops at once (cli.Main does that). A nil return is a clean shutdown.
func Servir(ctx context.Context, ln net.Listener, srv *http.Server, log zerolog.Logger) error {
	var enCurso atomic.Int64
	if h := srv.Handler; h != nil {
		srv.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			enCurso.Add(1)
			defer enCurso.Add(-1)
			h.ServeHTTP(w, r)
		})
	}
	soltarArranque()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	apagar, cancelar := context.WithTimeout(context.Background(), EsperaApagado)
	defer cancelar()
	apagado := make(chan error, 1)
	go func() { apagado <- srv.Shutdown(apagar) }()
	var err error
	select {
	case err = <-apagado:
	case <-time.After(avisoApagado):
		if n := enCurso.Load(); n > 0 {
			log.Warn().Int64("en_curso", n).Msg(esperando(n))
		}
		err = <-apagado
	}
	if err != nil {
		srv.Close()
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// avisoApagado is how long a stopping server waits in silence: requests that end by then (almost
// all) are not worth a line.
const avisoApagado = 300 * time.Millisecond

func esperando(n int64) string {
	peticiones := fmt.Sprintf("terminen %d peticiones en curso", n)
	if n == 1 {
		peticiones = "termine 1 petición en curso"
	}
	return fmt.Sprintf("esperando a que %s (hasta %d s); otro Ctrl+C detiene el servidor ya", peticiones, int(EsperaApagado/time.Second))
}
