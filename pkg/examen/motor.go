// Package examen grades a student's retrying client, in any language, the way Lesson 6 asks it to
// behave: it runs the client once per intent against a gateway of its own whose faults it scripts
// per attempt, and judges only from what the gateway and the revisor saw (never from what the
// client prints). revisor comprobar cliente is its command.
package examen

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/rs/zerolog"

	"cursohttp/internal/nodejs"
	"cursohttp/pkg/almacen"
	"cursohttp/pkg/curso"
	"cursohttp/pkg/pasarela"
	"cursohttp/pkg/problema"
	"cursohttp/pkg/revisor"
	"cursohttp/pkg/servidor"
	"cursohttp/pkg/topes"
)

// Opciones are one grading run's inputs.
type Opciones struct {
	// Orden is the client's command and its first arguments; each intent appends NOMBRE and URL.
	Orden []string
	// Semilla draws the names' mark and the intermittent failures: the same seed, the same run.
	Semilla uint64
	// Limite bounds each intent; the client is stopped then. Zero: LimitePorOmision.
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

// VariablePasarela is the environment variable that tells the client the gateway's base URL.
const VariablePasarela = "PASARELA_URL"

// TopeSalida is how much of a client's output is kept (for nothing but --json's tail); the rest is
// read and thrown away, so a client that prints megabytes costs nothing.
const TopeSalida = topes.SalidaCliente

// Intento is one attempt as the gateway saw it.
type Intento struct {
	Inicio, Fin time.Time
	Llave       string // the Idempotency-Key, its repeated fields joined
	Llaves      int    // how many Idempotency-Key fields it carried
	Falla       string // what the script did to it ("" forwarded untouched)
	Revisor     int    // the revisor's status; 0 when it never saw it or did not answer
	Cliente     int    // the status the client got; 0 none
	Type        string // the Problem Details type of a 4xx the client got
	RetryAfter  int    // seconds the answer asked for; 0 none
	Abandonado  bool   // the client closed the connection before the answer went out
	Directo     bool   // it reached the revisor without passing through the gateway
}

// Intencion is one run of the client: one registration, one name.
type Intencion struct {
	Escenario *Escenario
	Nombre    string
	URL       string
	Vez       int  // which of its scenario's intents, from 1
	Repite    bool // it registers again what an earlier intent of its scenario did (MismoCuerpo)
	corriendo atomic.Bool

	mu       sync.Mutex
	Intentos []Intento

	Inicio, Fin time.Time
	Salida      int    // the client's exit code, when it exited by itself
	Detenido    bool   // it did not end within the limit and was stopped
	Registrada  bool   // the revisor holds a service with this name
	Arranque    string // why the client could not be started; "" when it ran
	Texto       []byte
}

// Error is a run that could not grade anything: one line, already in Spanish. Uso marks a command
// line that cannot work (no such client command).
type Error struct {
	Texto string
	Uso   bool
}

func (e *Error) Error() string { return e.Texto }

// motor is one grading run's servers and intents.
type motor struct {
	o           Opciones
	porNombre   map[string][]*Intencion // two when a scenario repeats a body
	intenciones []*Intencion
	mu          sync.Mutex
	cerrado     bool           // no request is handled any more: every attempt is written down
	enCurso     sync.WaitGroup // requests the gateway is still handling
	// secreto is the run's own: the gateway stamps what it forwards with it (CabeceraSello), the
	// intents' URLs carry it, and the clients' processes carry it in VariableCorrida.
	secreto string
	ajenas  atomic.Int64 // requests of another run (or nobody's), refused and not judged
}

// CabeceraSello is the header the grader's gateway adds to what it forwards to the grader's
// revisor, with the run's secret: a POST /servicios without it reached the revisor directly.
const CabeceraSello = "X-Comprobar-Sello"

// VariableCorrida marks every process a client run starts (pkg/examen's cleanup finds them by it
// on Linux, however they detached); its value is the run's secret and the intent's name.
const VariableCorrida = "COMPROBAR_CORRIDA"

// entornoCliente is the client's environment: what the grader's own had, without the lab's
// variables (CURSOHTTP_*: its token, the class token) nor a PASARELA_URL of its own, plus the
// contract's PASARELA_URL and the run's mark.
func entornoCliente(base []string, urlPasarela, marca string) []string {
	var e []string
	for _, v := range base {
		nombre, _, _ := strings.Cut(v, "=")
		if strings.HasPrefix(strings.ToUpper(nombre), "CURSOHTTP_") || nombre == VariablePasarela || nombre == VariableCorrida {
			continue
		}
		e = append(e, v)
	}
	return append(e, VariablePasarela+"="+urlPasarela, VariableCorrida+"="+marca)
}

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

// intencion is the run's intent a request's body names, by its name and its URL (which carries the
// run's secret); nil when it is another run's, or nobody's.
func (m *motor) intencion(cuerpo []byte) *Intencion {
	var datos struct {
		Nombre string `json:"nombre"`
		URL    string `json:"url"`
	}
	json.Unmarshal(cuerpo, &datos) //nolint:errcheck // a body without a name is nobody's
	l := m.porNombre[datos.Nombre]
	if len(l) == 0 || datos.URL != l[0].URL {
		return nil
	}
	// Intents with one body run one after another: the request is the running one's.
	for _, in := range l {
		if in.corriendo.Load() {
			return in
		}
	}
	return l[len(l)-1]
}

// detalleAjena is the refusal of a request that is not this run's: one grading never judges another's.
const detalleAjena = "esta petición no es de esta calificación: su nombre o su URL no son los que dio a este cliente"

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
			a.Type = tipoDe(rw.cuerpo)
		}
		a.RetryAfter, _ = strconv.Atoi(rw.Header().Get("Retry-After"))
		in.mu.Lock()
		in.Intentos[n] = a
		in.mu.Unlock()
	})
}

// anotar appends an attempt and returns its index.
func (in *Intencion) anotar(a Intento) int {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.Intentos = append(in.Intentos, a)
	return len(in.Intentos) - 1
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
	if len(o.Orden) == 0 {
		return nil, &Error{Texto: "falta la orden del cliente: revisor comprobar cliente -- ORDEN [ARGUMENTOS…]", Uso: true}
	}
	ruta, err := exec.LookPath(o.Orden[0])
	if err != nil {
		return nil, &Error{Texto: fmt.Sprintf("no encuentro la orden «%s»: %s", o.Orden[0], causaDeRuta(err)), Uso: true}
	}
	if o.Limite <= 0 {
		o.Limite = LimitePorOmision
	}
	if o.Entorno == nil {
		o.Entorno = os.Environ()
	}
	secreto := strings.ReplaceAll(uuid.NewString(), "-", "")[:16]
	if o.Paralelo <= 0 {
		o.Paralelo = ParaleloPorOmision
	}
	escenarios := o.Escenarios
	if escenarios == nil {
		escenarios = Escenarios(o.Semilla)
	}
	m := &motor{o: o, porNombre: map[string][]*Intencion{}, secreto: secreto}
	gen := rand.New(rand.NewPCG(o.Semilla, o.Semilla^0x2545f4914f6cdd1d))
	marca := strconv.FormatUint(gen.Uint64()%(1<<24)+(1<<24), 16)[1:]
	for i := range escenarios {
		e := &escenarios[i]
		for v := range e.veces() {
			nombre := e.ID + "-" + marca
			if e.veces() > 1 && !e.MismoCuerpo {
				nombre = e.ID + "-" + strconv.Itoa(v+1) + "-" + marca
			}
			in := &Intencion{Escenario: e, Nombre: nombre, URL: e.url(secreto), Vez: v + 1, Repite: e.MismoCuerpo && v > 0}
			if in.Repite {
				in.URL = m.porNombre[nombre][0].URL
			}
			m.porNombre[nombre] = append(m.porNombre[nombre], in)
			m.intenciones = append(m.intenciones, in)
		}
	}

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
	gw := pasarela.Nueva(pasarela.Opciones{Destinos: []*url.URL{destino}, Log: zerolog.Nop(), Guion: m.guion,
		Transporte: sellar{pasarela.TransportePorOmision(os.LookupEnv), secreto}})
	srvP := servidor.Nuevo(m.atender(gw))
	go srvP.Serve(lnP) //nolint:errcheck // Close below ends it
	urlPasarela := "http://" + lnP.Addr().String()

	inicio := time.Now()
	// Paralelo clients at a time, the longest scenarios first: twenty interpreters starting at once
	// on a small machine would starve each other past their own time limits (a JVM, Node).
	cola := make(chan *Escenario, len(escenarios))
	for _, i := range ordenDeSalida(escenarios) {
		cola <- &escenarios[i]
	}
	close(cola)
	var todos sync.WaitGroup
	for range min(o.Paralelo, len(escenarios)) {
		todos.Add(1)
		go func() {
			defer todos.Done()
			for e := range cola {
				// The intents of one scenario run one after another: the second starts when the first ends.
				for _, in := range m.intenciones {
					if in.Escenario == e && ctx.Err() == nil {
						m.correrCliente(ctx, ruta, urlPasarela, in)
					}
				}
			}
		}()
	}
	todos.Wait()
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
	for _, s := range servicios {
		// A repeated body's service is its first intent's: the second one's right end is a 409.
		if l := m.porNombre[s.Nombre]; len(l) > 0 {
			l[0].Registrada = true
		}
	}
	inf := &Informe{Semilla: o.Semilla, Orden: strings.Join(o.Orden, " "), Pasarela: urlPasarela, Duracion: time.Since(inicio), Limite: o.Limite}
	for _, in := range m.intenciones {
		inf.Intenciones = append(inf.Intenciones, in)
	}
	inf.Comprobaciones = juzgar(inf.Intenciones, o.Limite)
	inf.Ajenas = int(m.ajenas.Load())
	inf.Avisos = avisos(inf.Intenciones, inf.Ajenas)
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
		TopeConexiones: servidor.TopeConexionesPorOmision, TopePorCliente: servidor.TopePorClientePorOmision}
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

// guion is the gateway's script: every POST /servicios goes through medida, which finds whose
// intent it is by the name in its body; anything else passes untouched (and X-Simular is ignored).
func (m *motor) guion(r *http.Request) pasarela.Falla {
	if r.Method != http.MethodPost || r.URL.Path != "/servicios" {
		return nil
	}
	return &medida{m: m, r: r}
}

// medida applies the script's fault to one attempt and writes down what happened, with times.
type medida struct {
	m     *motor
	r     *http.Request
	falla pasarela.Falla
}

func (d *medida) String() string {
	if d.falla == nil {
		return "ninguna"
	}
	return d.falla.String()
}

func (d *medida) Aplicar(q *pasarela.Peticion) {
	cuerpo, _ := q.Cuerpo()
	in := d.m.intencion(cuerpo)
	if in == nil {
		// Not one of this run's intents (another grading's client, another body): refused and
		// counted, never judged.
		d.m.ajenas.Add(1)
		pasarela.Responder{Clave: problema.PermisoInsuficiente, Detail: detalleAjena}.Aplicar(q)
		return
	}
	a := Intento{Inicio: time.Now(), Llaves: len(d.r.Header.Values("Idempotency-Key"))}
	a.Llave = strings.Join(d.r.Header.Values("Idempotency-Key"), ", ")
	n := in.anotar(a)
	d.falla = in.Escenario.falla(n)
	a.RetryAfter = retryAfter(d.falla)
	if d.falla != nil {
		a.Falla = d.falla.String()
	}
	defer func() {
		a.Fin, a.Revisor, a.Cliente = time.Now(), q.Codigo(), q.Cliente()
		if d.r.Context().Err() != nil {
			// The client left (its own time limit) before the answer went out: net/http sends it
			// when the handler returns, so a connection already closed now never carried it.
			a.Cliente, a.RetryAfter, a.Abandonado = 0, 0, true
		}
		if a.Cliente >= 400 && a.Cliente < 500 {
			if r, ok := d.falla.(pasarela.Responder); ok {
				a.Type = problemaTipo(r)
			} else {
				a.Type = tipoDe(q.Respuesta())
			}
		}
		in.mu.Lock()
		in.Intentos[n] = a
		in.mu.Unlock()
	}()
	if d.falla == nil {
		if q.Reenviar() {
			q.Devolver()
		}
		return
	}
	d.falla.Aplicar(q)
}

func tipoDe(cuerpo []byte) string {
	v, err := nodejs.DecodificarJSON(cuerpo)
	if err != nil {
		return ""
	}
	o, _ := v.(nodejs.Objeto)
	t, _ := o.Texto("type")
	return t
}

// acotada keeps the first TopeSalida bytes written to it and counts the rest.
type acotada struct {
	mu    sync.Mutex
	b     []byte
	total int64
}

func (a *acotada) Write(p []byte) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.total += int64(len(p))
	if falta := TopeSalida - len(a.b); falta > 0 {
		a.b = append(a.b, p[:min(falta, len(p))]...)
	}
	return len(p), nil
}

// correrCliente runs the client for one intent, stopping it (and what it started) at the limit.
func (m *motor) correrCliente(ctx context.Context, ruta, urlPasarela string, in *Intencion) {
	ctx, cancelar := context.WithTimeout(ctx, m.o.Limite)
	defer cancelar()
	args := append(append([]string{}, m.o.Orden[1:]...), in.Nombre, in.URL)
	cmd := exec.CommandContext(ctx, ruta, args...)
	cmd.Args[0] = m.o.Orden[0]
	marca := m.secreto + "-" + in.Nombre
	cmd.Env = entornoCliente(m.o.Entorno, urlPasarela, marca)
	salida := &acotada{}
	cmd.Stdout, cmd.Stderr = salida, salida
	var detenido bool
	agrupar(cmd)
	cmd.Cancel = func() error {
		detenido = true
		return matarGrupo(cmd)
	}
	// A grandchild that keeps the output open does not keep the grader waiting.
	cmd.WaitDelay = time.Second
	in.Inicio = time.Now()
	in.corriendo.Store(true)
	defer in.corriendo.Store(false)
	err := cmd.Run()
	in.Fin = time.Now()
	// What the client left behind (a background child, one that detached with setsid) goes with it.
	if cmd.Process != nil {
		matarGrupo(cmd) //nolint:errcheck // a group already gone is the usual case
	}
	barrer(marca)
	in.Texto = salida.b
	if cmd.ProcessState == nil {
		// It did not start (the program vanished, or is not an executable): the same as no attempt.
		in.Arranque = err.Error()
		return
	}
	in.Detenido = detenido
	in.Salida = cmd.ProcessState.ExitCode()
}
