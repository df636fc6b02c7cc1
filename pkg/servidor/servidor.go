// Package servidor is what the suite's servers share: the --direccion/--puerto/--log-json flags, one
// start-up sequence (Correr: listen, the start-up line, serve, graceful shutdown on Ctrl+C or
// SIGTERM), deliberate timeouts, connection caps, and one clear Spanish sentence when the port is
// taken. The log is pkg/bitacora's and the observation pkg/observacion's: a client imports those
// without this package.
package servidor

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"
	"github.com/spf13/pflag"

	"cursohttp/pkg/anuncio"
	"cursohttp/pkg/cli"
	"cursohttp/pkg/curso"
	"cursohttp/pkg/encabezado"
	"cursohttp/pkg/eventos"
	"cursohttp/pkg/observacion"
	"cursohttp/pkg/token"
	"cursohttp/pkg/topes"
)

// EsperaApagado is for requests in flight on Ctrl+C. The limits set on purpose so a slow or
// hostile client cannot hold a server are pkg/topes' (topes.EsperaCabeceras, topes.EsperaLectura,
// topes.EsperaOciosa, topes.Cabeceras; see Nuevo).
const EsperaApagado = 10 * time.Second

// Opciones are the flags every server takes, and its log.
type Opciones struct {
	Direccion string
	Puerto    int
	LogJSON   bool
	EstadoLab string // the lab controller's state file (anuncio.Anunciar); "" outside the controller
	Detalle   bool   // --log-detalle (BanderasDeTraza)
	Panel     string // --panel: the timeline page's URL (BanderasDeTraza)
	// Token is --token, the lab's token (pkg/token): the panel asks it of the events, and the
	// gateway of a change to its process-wide fault. "" here: CURSOHTTP_TOKEN's (Observar).
	Token string
	// TokenArchivo is --token-archivo, a file holding it, which ps does not show (issue 34.2).
	TokenArchivo string
	// TopeConexiones and TopePorCliente cap the connections open at once, in all and per client
	// address (0: no cap); see conexiones.go.
	TopeConexiones, TopePorCliente int
	// EsperaEscritura bounds each write of an answer; zero is topes.EsperaEscritura (tests shorten it).
	EsperaEscritura time.Duration
	// Log receives the line of a cap hit; the zero Logger writes nothing.
	Log zerolog.Logger
	// Cabeceras is how a response's head leaves (--cabeceras): the course's order and Node's lines,
	// or net/http's head (encabezado.Go).
	Cabeceras encabezado.Modo
	// Envolver, when set, wraps each accepted connection before the caps count it (pkg/montaje reads
	// there the line that binds a class gateway's connection to a grading). The wrapper must name
	// what it wraps with NetConn, as crypto/tls.Conn does.
	Envolver func(net.Conn) net.Conn
}

// Banderas declares --direccion, --puerto and --log-json with the program's default port.
func (o *Opciones) Banderas(fs *pflag.FlagSet, puerto int) {
	fs.StringVar(&o.Direccion, "direccion", curso.Host, "dirección en la que escucha")
	fs.IntVar(&o.Puerto, "puerto", puerto, "puerto en el que escucha (0: uno libre)")
	fs.BoolVar(&o.LogJSON, "log-json", false, "bitácora en JSON, una línea por evento")
	fs.IntVar(&o.TopeConexiones, "tope-conexiones", topes.Conexiones,
		"conexiones abiertas a la vez, como mucho (0: sin tope); al llegar, la más quieta deja su lugar o las nuevas esperan turno")
	fs.IntVar(&o.TopePorCliente, "tope-por-cliente", topes.ConexionesPorCliente,
		"conexiones abiertas a la vez desde otra máquina, como mucho (0: sin tope); al llegar, su más quieta deja su lugar o la nueva se cierra")
	o.Cabeceras = encabezado.Curso
	if m, ok := encabezado.LeerModo(os.Getenv(EntornoCabeceras)); ok {
		o.Cabeceras = m
	}
	// A measuring knob and a way back to net/http's own head, not something a student needs: hidden.
	fs.Var((*modoCabeceras)(&o.Cabeceras), "cabeceras",
		"cómo salen las cabeceras: curso (en el orden del programa del curso, con Connection y Keep-Alive como Node) o go (las de net/http); también "+EntornoCabeceras)
	fs.MarkHidden("cabeceras")
	// Set by «laboratorio lab», not by hand: hidden from the help.
	fs.StringVar(&o.EstadoLab, "estado-lab", "", "archivo de estado para «laboratorio lab»")
	fs.MarkHidden("estado-lab")
}

// BanderasDeTraza declares --log-detalle and --panel, which the three servers of the lab take.
func (o *Opciones) BanderasDeTraza(fs *pflag.FlagSet) {
	fs.BoolVar(&o.Detalle, "log-detalle", false, "una línea más por petición al terminar: código, duración, Idempotency-Key y traza")
	// Checked as it is read: empty (no panel) or an http address.
	fs.Var(cli.URL{Destino: &o.Panel, Vacia: true}, "panel", "manda un evento por petición a la página de laboratorio panel en esta URL (http://127.0.0.1:18084)")
	fs.StringVar(&o.Token, "token", "", "el token del laboratorio, que el panel pide a los eventos (si no se dice: el de CURSOHTTP_TOKEN)")
	fs.StringVar(&o.TokenArchivo, "token-archivo", "", token.AyudaArchivo)
}

// Observar builds the observation the options ask for. Call the returned function after the
// server stops: it sends the events still queued.
func (o Opciones) Observar(programa string, log zerolog.Logger) (observacion.Observador, func()) {
	obs := observacion.Observador{Programa: programa, Log: log, JSON: o.LogJSON, Detalle: o.Detalle}
	if o.Panel == "" {
		return obs, func() {}
	}
	tok, err := token.Buscar(o.Token, o.TokenArchivo, os.LookupEnv)
	if err != nil {
		// The events still go, without a token: the panel refuses them and the line says why.
		log.Warn().Msg("panel: " + err.Error())
	}
	obs.Panel = eventos.NuevoEmisor(o.Panel, tok, func(s string) { log.Warn().Msg(s) })
	return obs, func() {
		obs.Panel.Cerrar(2 * time.Second)
		if n := obs.Panel.Perdidos(); n > 0 {
			log.Warn().Int64("perdidos", n).Msg("panel: " + strconv.FormatInt(n, 10) + " eventos no llegaron a " + o.Panel)
		}
	}
}

// EntornoCabeceras sets --cabeceras's default.
const EntornoCabeceras = "CURSOHTTP_CABECERAS"

// modoCabeceras is --cabeceras's value.
type modoCabeceras encabezado.Modo

func (m *modoCabeceras) String() string { return encabezado.Modo(*m).String() }
func (m *modoCabeceras) Type() string   { return "curso|go" }
func (m *modoCabeceras) Set(s string) error {
	v, ok := encabezado.LeerModo(s)
	if !ok {
		return fmt.Errorf("«%s» no es un modo de cabeceras: curso o go", s)
	}
	*m = modoCabeceras(v)
	return nil
}

// Addr returns host:port.
func (o Opciones) Addr() string {
	return net.JoinHostPort(o.Direccion, strconv.Itoa(o.Puerto))
}

// Nuevo builds an http.Server with the suite's limits, the course's status lines and Node's list of
// methods (see filtrarMetodos), its bodies' pace watched for the caps (vigilarCuerpos). ReadTimeout
// covers headers and body together; net/http lifts it once the body is read, so a slow handler
// (/lento/MS) is not cut by it.
func Nuevo(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           filtrarMetodos(vigilarCuerpos(h)),
		ReadHeaderTimeout: topes.EsperaCabeceras,
		ReadTimeout:       topes.EsperaLectura,
		IdleTimeout:       topes.EsperaOciosa,
		MaxHeaderBytes:    topes.Cabeceras - holguraNetHTTP,
		// The head's wrapper (pkg/encabezado) and the caps (conexiones.go) each follow the connection;
		// neither knows the other.
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			return conContexto(encabezado.ConnContext(ctx, c), c)
		},
		ConnState: func(c net.Conn, s http.ConnState) {
			encabezado.Notar(c, s)
			notarEstado(c, s)
		},
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
	return fmt.Sprintf("%s no puede escuchar en %s: el puerto ya está en uso; quizá %s sigue corriendo (detenlo con Ctrl+C o con laboratorio lab detener) o usa --puerto",
		e.Programa, e.Addr, quien)
}

// duenios names the program the course runs on each of its ports, the likely other occupant.
var duenios = map[string]string{
	strconv.Itoa(curso.PuertoRevisor): "el revisor", strconv.Itoa(curso.PuertoLaboratorio): "el laboratorio",
	strconv.Itoa(curso.PuertoPasarela): "la pasarela", strconv.Itoa(curso.PuertoHostil): "el servicio hostil",
}

// Abrir opens a bare listening socket on addr, with one clear line when the port is busy
// (*PuertoOcupado): what a server that is no HTTP server (pkg/montaje's door to a class gateway)
// listens on. Every HTTP server listens with Escuchar.
func Abrir(programa, addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		if errors.Is(err, enUso) {
			return nil, &PuertoOcupado{Programa: programa, Addr: addr}
		}
		return nil, fmt.Errorf("%s no puede escuchar en %s: %w", programa, addr, err)
	}
	return ln, nil
}

// Escuchar opens the listening socket, with the connection caps of o, wrapped for the course's
// heads (o.Cabeceras); the server must be Nuevo's, which reports its connections' states to the
// wrapper.
func Escuchar(programa string, o Opciones) (net.Listener, error) {
	if o.TopeConexiones < 0 || o.TopePorCliente < 0 {
		return nil, fmt.Errorf("%s: --tope-conexiones y --tope-por-cliente deben ser 0 (sin tope) o más", programa)
	}
	ln, err := Abrir(programa, o.Addr())
	if err != nil {
		return nil, err
	}
	if o.EstadoLab != "" {
		anunciado, err := anuncio.Anunciar(ln, o.EstadoLab, programa)
		if err != nil {
			ln.Close()
			return nil, err
		}
		ln = anunciado
	}
	if o.Envolver != nil {
		ln = envuelto{ln, o.Envolver}
	}
	return encabezado.Envolver(limitar(ln, programa, o), encabezado.Opciones{Modo: o.Cabeceras, Ociosa: topes.EsperaOciosa}), nil
}

// envuelto passes each accepted connection through a wrapper (Opciones.Envolver).
type envuelto struct {
	net.Listener
	envolver func(net.Conn) net.Conn
}

func (l envuelto) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return l.envolver(c), nil
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

// DondeAbrir is where a browser on this machine opens a server listening on addr: 127.0.0.1 for
// an unspecified address (0.0.0.0, [::]).
func DondeAbrir(addr string) string {
	host, puerto, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = curso.Host
	}
	return net.JoinHostPort(host, puerto)
}

// Alcanzables are the addresses (host:port) another machine reaches a server listening on addr
// at: addr itself, or, for an unspecified address (0.0.0.0, [::]), each of this machine's own
// addresses that is up and not loopback or link-local (IPv4 first); 127.0.0.1 when it has none.
// What a class lab tells its students to type.
func Alcanzables(addr string) []string {
	host, puerto, err := net.SplitHostPort(addr)
	if err != nil {
		return []string{addr}
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsUnspecified() {
		return []string{addr}
	}
	var v4, v6 []string
	interfaces, _ := net.Interfaces()
	for _, i := range interfaces {
		if i.Flags&net.FlagUp == 0 || i.Flags&net.FlagLoopback != 0 {
			continue
		}
		dirs, _ := i.Addrs()
		for _, d := range dirs {
			n, ok := d.(*net.IPNet)
			if !ok || n.IP.IsLoopback() || n.IP.IsLinkLocalUnicast() || n.IP.IsLinkLocalMulticast() {
				continue
			}
			if n.IP.To4() != nil {
				v4 = append(v4, net.JoinHostPort(n.IP.String(), puerto))
			} else if ip.To4() == nil { // [::] also takes IPv6 clients; 0.0.0.0 does not
				v6 = append(v6, net.JoinHostPort(n.IP.String(), puerto))
			}
		}
	}
	if l := append(v4, v6...); len(l) > 0 {
		return l
	}
	return []string{net.JoinHostPort(curso.Host, puerto)}
}
