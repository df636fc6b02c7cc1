// Package pasarela is the lesson-6 gateway in front of the revisor: it forwards requests and, when a
// request asks for it with «X-Simular: perder-primera», lets the revisor do the work and then loses
// the answer, so a client sees a 502 although the write happened. Beyond the course it breaks the
// network in the other ways a network breaks (Falla, per request or process-wide with a seed), and
// keeps a ledger of what the revisor did against what the clients saw (/_pasarela/).
package pasarela

import (
	"bytes"
	"container/list"
	"context"
	"crypto/sha256"
	"hash"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"cursohttp/pkg/curso"
	"cursohttp/pkg/encabezado"
	"cursohttp/pkg/observacion"
	"cursohttp/pkg/problema"
	"cursohttp/pkg/servidor"
	"cursohttp/pkg/token"
	"cursohttp/pkg/topes"
	"cursohttp/pkg/traza"
)

// pasan are the request headers the course's gateway forwards; every other one stays behind
// (X-Simular included: it is an order for the gateway, not for the revisor). The trace context
// (traceparent, tracestate) is the suite's addition: passed through as it came, or, when the
// gateway observes its requests, continued with the gateway's own span.
var pasan = []string{"Authorization", "Content-Type", "Idempotency-Key", "If-Match", "If-None-Match", traza.Cabecera, traza.CabeceraEstado}

// pasanCanonicos and vuelvenCanonicos are those names as net/http keys a parsed message's headers,
// to look them up without canonicalising them on every request.
var (
	pasanCanonicos   = canonicos(pasan)
	vuelvenCanonicos = canonicos(vuelven)
)

func canonicos(nombres []string) []string {
	c := make([]string, len(nombres))
	for i, n := range nombres {
		c[i] = http.CanonicalHeaderKey(n)
	}
	return c
}

// vuelven are the response headers it passes back, in the course's order.
var vuelven = []string{"Content-Type", "Content-Length", "Content-Language", "Location", "ETag", "Retry-After", "Allow", "WWW-Authenticate"}

// vuelvenEnMinusculas are vuelven as they leave: in lower case, as Node's gateway writes them
// (S-I39). net/http keys them canonically, since it reads Content-Length and Content-Type spelled
// so for framing; the head's rewrite (encabezado.EscribirConFrase's order) writes them so.
var vuelvenEnMinusculas = func() []string {
	m := make([]string, len(vuelven))
	for i, n := range vuelven {
		m[i] = strings.ToLower(n)
	}
	return m
}()

// The two details of the gateway's 502.
const (
	DetallePerdida    = "la pasarela no recibió una respuesta completa del revisor"
	DetalleSinRevisor = "la pasarela no recibió respuesta del revisor"
)

// The gateway's limits are pkg/topes' (the one place a limit is changed); why each is what it is:
//   - topes.Respuesta: how much of a response is held before answering; a larger one is streamed.
//   - topes.EsperaRevisor bounds the wait for the revisor's headers: Node's fetch (undici) gives up
//     after 300 s too; the course's gateway sets no limit of its own.
//   - topes.Retenido: how much of a request's body the gateway reads before it goes to the
//     revisor, as the course's gateway reads the whole body first. A body that fits (any the
//     course sends) reaches the revisor whole, with its Content-Length; one that ends early, is cut
//     or is malformed is answered here and never occupies a connection to the revisor. A larger
//     body is streamed, so the revisor can answer its 413 before the upload ends.
//   - topes.Vistas: the identities X-Simular remembers when Opciones.TopeVistas is 0.

// OciosaMaxima keeps a pooled connection below the revisor's idle timeout (Node's is 5 s), so the
// gateway does not write into a connection the revisor is closing.
const OciosaMaxima = 4 * time.Second

// Opciones configure a Pasarela.
type Opciones struct {
	// Destinos are the revisors, taken in turn (round robin); one that refuses connections is
	// skipped for the next. Empty is curso.URLRevisor.
	Destinos   []*url.URL
	Log        zerolog.Logger    // where the gateway's lines go
	TopeVistas int               // how many identities X-Simular remembers; topes.Vistas when 0
	Transporte http.RoundTripper // TransportePorOmision() when nil
	// TopeRespuestas bounds the bytes of answers held at once, every request together; beyond it
	// answers are streamed as a larger-than-topes.Respuesta one is. topes.Respuestas when 0.
	TopeRespuestas int64
	// Token is the lab's token, which changing the process-wide fault (PUT /_pasarela/simular)
	// asks for; when empty, one nobody knows: the fault then changes only with --simular.
	Token string
	// Guion, when set, picks every request's fault instead of X-Simular and --simular (guion.go).
	Guion Guion
}

// Pasarela is the gateway's http.Handler.
type Pasarela struct {
	rechazos   *token.Rechazos // which refusals of the fault's control the log says in full
	destinos   []*url.URL
	turno      atomic.Uint64 // the next request's first destination, modulo len(destinos)
	log        zerolog.Logger
	transporte http.RoundTripper
	vistas     *vistas
	global     globalActual // the process-wide fault (--simular), changed live by the panel
	libro      *libro
	puerta     token.Puerta // who may change the process-wide fault
	guion      Guion
	retenidas  presupuesto    // bytes of answers held at once (topes.Respuestas)
	propias    *http.ServeMux // the gateway's own routes, under RutaPropia
}

// NuevoTransporte is the gateway's pooled transport: keep-alive connections to the revisor, no
// compression (it passes bytes through), no proxy from the environment.
func NuevoTransporte() *http.Transport {
	return &http.Transport{
		DialContext:           (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:          256,
		MaxIdleConnsPerHost:   256,
		IdleConnTimeout:       OciosaMaxima,
		ResponseHeaderTimeout: topes.EsperaRevisor,
		DisableCompression:    true,
		ForceAttemptHTTP2:     false,
	}
}

// VariableRapido, set to 1, has the gateway forward on its own transport (Directo) instead of
// net/http's: the one hand-written replacement of a standard mechanism left in the suite, kept
// because it costs about a fifth less of the gateway's CPU per request (docs/rendimiento.md). CI
// runs the scenes and the gateway's tests both ways.
const VariableRapido = "CURSOHTTP_RAPIDO"

// TransportePorOmision is net/http's Transport (NuevoTransporte), or Directo when VariableRapido
// is 1 in entorno (os.LookupEnv).
func TransportePorOmision(entorno func(string) (string, bool)) http.RoundTripper {
	if v, _ := entorno(VariableRapido); v == "1" {
		return NuevoDirecto()
	}
	return NuevoTransporte()
}

// Nueva builds the gateway.
func Nueva(o Opciones) *Pasarela {
	if len(o.Destinos) == 0 {
		u, _ := url.Parse(curso.URLRevisor)
		o.Destinos = []*url.URL{u}
	}
	if o.TopeVistas <= 0 {
		o.TopeVistas = topes.Vistas
	}
	if o.Transporte == nil {
		o.Transporte = TransportePorOmision(os.LookupEnv)
	}
	if o.Token == "" {
		o.Token = token.Nuevo()
	}
	if o.TopeRespuestas <= 0 {
		o.TopeRespuestas = topes.Respuestas
	}
	log := o.Log
	p := &Pasarela{destinos: o.Destinos, log: o.Log, transporte: o.Transporte, vistas: nuevasVistas(o.TopeVistas), libro: nuevoLibro(),
		puerta: token.Puerta{Instructor: o.Token}, guion: o.Guion,
		// Refusals of the fault's control are summed up per source (issue 34, item 3).
		rechazos: token.NuevosRechazos(0, func(s token.Suma) {
			log.Warn().Int("rechazos", s.N).Str("fuente", s.Fuente).Msg(s.Texto("pasarela", 0))
		}),
		retenidas: presupuesto{tope: o.TopeRespuestas}}
	p.propias = p.rutasPropias()
	return p
}

// LineaDeInicio is the start-up line: `pasarela en http://ADDR → DESTINO`, the destinations
// separated by commas when there are several.
func LineaDeInicio(addr string, destinos []*url.URL) string {
	nombres := make([]string, len(destinos))
	for i, d := range destinos {
		nombres[i] = strings.TrimSuffix(d.String(), "/")
	}
	return "pasarela en http://" + addr + " → " + strings.Join(nombres, ", ")
}

// primero is the destination a new request tries first: each in turn.
func (p *Pasarela) primero() int {
	if len(p.destinos) == 1 {
		return 0
	}
	return int((p.turno.Add(1) - 1) % uint64(len(p.destinos)))
}

// MalaPuerta answers the gateway's own 502: about:blank, no Content-Language, no instance.
func MalaPuerta(w http.ResponseWriter, r *http.Request, detail string) {
	problemaPropio(w, r, http.StatusBadGateway, detail)
}

// problemaPropio is an answer of the gateway's own in its Problem Details: about:blank, the code's
// reason phrase as title, the status, the detail.
func problemaPropio(w http.ResponseWriter, r *http.Request, codigo int, detail string) {
	problema.AboutBlank(codigo).ConDetail(detail).Escribir(w, r)
}

func (p *Pasarela) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, RutaPropia) {
		if reg := observacion.RegistroDe(r.Context()); reg != nil {
			reg.Propia = true
		}
		p.propias.ServeHTTP(w, r)
		return
	}
	inicio := time.Now()
	retenido, completo, err := retener(r)
	if err != nil {
		// The client's body ended early, was cut or is malformed: the course's gateway, which reads
		// the body first, gets its parser's bare 400. Nothing reached the revisor.
		servidor.PeticionIlegible(w)
		return
	}
	paso := p.elegir(r, retenido)
	if paso.Falla != nil || paso.Anotar != nil {
		q := &Peticion{w: w, r: r, p: p, retenido: retenido, completo: completo, falla: paso.Falla, inicio: inicio, anotar: paso.Anotar}
		var d Desenlace
		defer func() { q.terminar(d) }()
		if paso.Falla != nil {
			d = paso.Falla.Aplicar(q)
		} else if d, _ = q.Reenviar(); q.resp != nil {
			d = q.Devolver()
		}
		if d.Abortar {
			// net/http closes the connection of a handler that aborts, without finishing the answer;
			// the record is written first (terminar, deferred).
			panic(http.ErrAbortHandler)
		}
		return
	}
	// Without a fault the request stays on this goroutine's stack: the common path allocates
	// nothing for it.
	q := Peticion{w: w, r: r, p: p, retenido: retenido, completo: completo, inicio: inicio}
	var d Desenlace
	defer func() { q.terminar(d) }()
	var ok bool
	if d, ok = q.Reenviar(); ok {
		d = q.Devolver()
	}
	if d.Abortar {
		panic(http.ErrAbortHandler)
	}
}

// retener reads the body up to topes.Retenido before anything goes to the revisor (see topes.Retenido).
// completo says the whole body is in retenido; otherwise the rest is still to be read from r.Body.
// A body announced larger than topes.Retenido is not read here at all.
func retener(r *http.Request) (retenido []byte, completo bool, err error) {
	switch {
	case r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0:
		return nil, true, nil
	case r.ContentLength > topes.Retenido:
		return nil, false, nil
	case r.ContentLength > 0:
		retenido = make([]byte, r.ContentLength)
		if _, err := io.ReadFull(r.Body, retenido); err != nil {
			return nil, false, err
		}
		return retenido, true, nil
	}
	// Chunked: as much as arrives, up to one byte past the limit.
	retenido, err = io.ReadAll(io.LimitReader(r.Body, topes.Retenido+1))
	if err != nil {
		return nil, false, err
	}
	return retenido, len(retenido) <= topes.Retenido, nil
}

// responder writes an answer with escribir. When the client's body was not read to its end (the
// revisor answered an upload before it ended, or could not be reached), the answer carries
// "Connection: close" and the connection is closed in stages, as the revisor does after its 413,
// so that the client reads the answer instead of a reset.
func responder(w http.ResponseWriter, cuerpo *cuerpoVisto, escribir func()) {
	if cuerpo == nil || cuerpo.terminado() {
		escribir()
		return
	}
	w.Header()["Connection"] = []string{"close"}
	escribir()
	rc := http.NewResponseController(w)
	if rc.Flush() != nil {
		return
	}
	hasta := time.Now().Add(topes.EsperaCierre)
	// The transport may still be reading the client's body to send it on: the deadline also ends a
	// read that waits for a client that sends nothing more, so the wait below is bounded.
	rc.SetReadDeadline(hasta)
	t := time.NewTimer(time.Until(hasta) + 100*time.Millisecond)
	defer t.Stop()
	select {
	case <-cuerpo.hecho:
		servidor.CerrarEnEtapas(w, hasta)
	case <-t.C:
		// Never expected (the deadline ends any read): net/http closes the connection instead.
	}
}

// peticion builds the request to the revisor at base: same method, the target as the course's
// gateway sends it (comoFetch; false when it would send none), the allowed headers, the body
// (retenido, and the rest of r.Body unless completo).
func (p *Pasarela) peticion(base *url.URL, r *http.Request, retenido []byte, completo bool) (*http.Request, *cuerpoVisto, bool) {
	objetivo := r.RequestURI
	if objetivo == "" {
		objetivo = r.URL.RequestURI()
	}
	camino, consulta, ok := comoFetch(strings.TrimSuffix(base.EscapedPath(), "/"), objetivo)
	if !ok {
		return nil, nil, false
	}
	destino := urlHacia(base, camino, consulta)
	// The forwarded write is not tied to the client: if the client gives up (its own time limit),
	// the revisor still finishes what it started, as behind the course's gateway.
	ctx := context.WithoutCancel(r.Context())
	salida := (&http.Request{
		Method:     r.Method,
		URL:        destino,
		Proto:      "HTTP/1.1",
		ProtoMajor: 1,
		ProtoMinor: 1,
		Header:     make(http.Header, len(pasan)+1),
		Host:       destino.Host,
	}).WithContext(ctx)
	for i, nombre := range pasan {
		if v := r.Header[pasanCanonicos[i]]; len(v) > 0 {
			salida.Header[nombre] = []string{unaCabecera(nombre, v)}
		}
	}
	if tc := traza.DeContexto(r.Context()); tc != nil {
		salida.Header[traza.Cabecera] = []string{tc.Valor()}
	}
	// No User-Agent of our own: the revisor sees only what the client sent through the allow-list.
	salida.Header["User-Agent"] = []string{""}

	cuerpo := &cuerpoVisto{hecho: make(chan struct{}), completo: completo}
	var resto io.Reader = bytes.NewReader(retenido)
	if !completo {
		resto = io.MultiReader(resto, &finDelCliente{r.Body, cuerpo})
	}
	cuerpo.r = resto
	// The body is never rewindable (no GetBody): Go's Transport then never re-sends the request by
	// itself on a dead pooled connection, which it would otherwise do for any request carrying
	// Idempotency-Key. The gateway retries nothing; only safe methods without a body may be re-sent
	// by the Transport when a pooled connection turns out to be closed.
	switch {
	case completo && len(retenido) == 0 && esSeguro(r.Method):
		salida.Body = nil
		cuerpo.Close()
	case completo:
		salida.Body = cuerpo
		salida.ContentLength = int64(len(retenido))
	default:
		salida.Body = cuerpo
		salida.ContentLength = r.ContentLength
	}
	return salida, cuerpo, true
}

// unaCabecera is a repeated request field as the course's gateway reads it: Node keeps the first
// Authorization and Content-Type (fields that cannot be lists) and joins the others with ", ".
func unaCabecera(nombre string, valores []string) string {
	if nombre == "Authorization" || nombre == "Content-Type" {
		return valores[0]
	}
	return strings.Join(valores, ", ")
}

func esSeguro(metodo string) bool {
	switch metodo {
	case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace:
		return true
	}
	return false
}

// devolver passes the revisor's answer on: its status and reason phrase, the allowed headers in
// lower case, the body (leido, then resto when the answer was too large to hold).
// It returns false when the streamed rest failed halfway: the connection must then be cut.
func (p *Pasarela) devolver(w http.ResponseWriter, r *http.Request, resp *http.Response, leido []byte, resto io.Reader) bool {
	p.encabezar(w, r, resp, int64(len(leido)), resto != nil)
	w.Write(leido)
	if resto != nil {
		if _, err := io.Copy(w, resto); err != nil {
			p.log.Info().Ctx(r.Context()).Msg("pasarela: el revisor no respondió")
			return false
		}
	}
	return true
}

// encabezar writes the revisor's status line and allowed headers. largo is how much of the body is
// held; sigue says more follows (streamed), so Content-Length stays the revisor's.
func (p *Pasarela) encabezar(w http.ResponseWriter, r *http.Request, resp *http.Response, largo int64, sigue bool) {
	h := w.Header()
	var valores []string // one allocation for all of them
	for _, nombre := range vuelvenCanonicos {
		if v := resp.Header[nombre]; len(v) > 0 {
			if valores == nil {
				valores = make([]string, 0, len(vuelvenCanonicos))
			}
			valores = append(valores, strings.Join(v, ", "))
			h[nombre] = valores[len(valores)-1 : len(valores) : len(valores)]
		}
	}
	if _, ok := h["Content-Type"]; !ok {
		h["Content-Type"] = nil // never let net/http guess one the revisor did not send
	}
	// A HEAD answer has no body but keeps the Content-Length a GET would get (RFC 9110 §9.3.2).
	if resp.ContentLength >= 0 && !sigue && largo != resp.ContentLength && r.Method != http.MethodHead {
		h["Content-Length"] = []string{strconv.FormatInt(largo, 10)}
	}
	encabezado.EscribirConFrase(w, r, resp.StatusCode, fraseDe(resp), vuelvenEnMinusculas...)
}

// fraseDe is the revisor's reason phrase, what follows "NNN " in its status line; the suite's own
// when it sent none.
func fraseDe(resp *http.Response) string {
	s, c := resp.Status, resp.StatusCode
	if len(s) > 4 && s[3] == ' ' && 100 <= c && c <= 999 &&
		s[0] == byte('0'+c/100) && s[1] == byte('0'+c/10%10) && s[2] == byte('0'+c%10) {
		return s[4:]
	}
	return encabezado.Frase(c)
}

// cuerpoVisto forwards the client's body and hashes it on the way; hecho closes when the Transport
// is done with it (it always closes a request body), so the hash, fin and falla can be read
// without a race.
type cuerpoVisto struct {
	r        io.Reader
	h        hash.Hash // the body's hash so far; nil until a byte passed
	hecho    chan struct{}
	once     sync.Once
	completo bool  // the client's whole body was read before forwarding
	fin      bool  // the rest of the client's body was read to its end
	falla    error // reading the rest of the client's body failed (cut, reset, malformed chunk)
}

func (c *cuerpoVisto) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	if n > 0 {
		if c.h == nil {
			c.h = sha256.New() // only a body that has bytes is hashed
		}
		c.h.Write(b[:n])
	}
	return n, err
}

func (c *cuerpoVisto) Close() error {
	c.once.Do(func() { close(c.hecho) })
	return nil
}

// huella is the SHA-256 of the body bytes forwarded; call it once the transport is done with them.
func (c *cuerpoVisto) huella() (id [32]byte) {
	if c.h == nil {
		return sha256.Sum256(nil)
	}
	c.h.Sum(id[:0])
	return id
}

// estado says, once the transport is done with the body, whether the client's body was read to its
// end and why not; before that, it reports neither.
func (c *cuerpoVisto) estado() (terminado bool, falla error) {
	if c.completo {
		return true, nil
	}
	select {
	case <-c.hecho:
		return c.fin, c.falla
	default:
		return false, nil
	}
}

func (c *cuerpoVisto) terminado() bool {
	t, _ := c.estado()
	return t
}

// finDelCliente notes in cuerpoVisto how the streamed rest of the client's body ended.
type finDelCliente struct {
	r io.Reader
	c *cuerpoVisto
}

func (f *finDelCliente) Read(b []byte) (int, error) {
	n, err := f.r.Read(b)
	switch {
	case err == io.EOF:
		f.c.fin = true
	case err != nil:
		f.c.falla = err
	}
	return n, err
}

// vistas counts how many times each identity was seen, for the modes that lose the first N answers.
// At the bound the oldest is forgotten: a request that old would start counting again, which only
// a lab switch can make happen.
type vistas struct {
	mu    sync.Mutex
	tope  int
	cual  map[[32]byte]*list.Element
	orden *list.List
}

type cuenta struct {
	id    [32]byte
	veces int
}

func nuevasVistas(tope int) *vistas {
	return &vistas{tope: tope, cual: make(map[[32]byte]*list.Element), orden: list.New()}
}

// sumar counts one more sighting of id and returns how many there were, this one included.
func (v *vistas) sumar(id [32]byte) int {
	v.mu.Lock()
	defer v.mu.Unlock()
	if e, ok := v.cual[id]; ok {
		vv := e.Value.(*cuenta)
		vv.veces++
		return vv.veces
	}
	if len(v.cual) >= v.tope {
		viejo := v.orden.Front()
		v.orden.Remove(viejo)
		delete(v.cual, viejo.Value.(*cuenta).id)
	}
	v.cual[id] = v.orden.PushBack(&cuenta{id: id, veces: 1})
	return 1
}

// presupuesto is a budget of bytes shared by concurrent requests.
type presupuesto struct {
	tope  int64
	usado atomic.Int64
}

// tomar takes n bytes if they fit.
func (b *presupuesto) tomar(n int64) bool {
	if b.usado.Add(n) > b.tope {
		b.usado.Add(-n)
		return false
	}
	return true
}

func (b *presupuesto) soltar(n int64) {
	if n != 0 {
		b.usado.Add(-n)
	}
}
