// Package pasarela is the lesson-6 gateway in front of the revisor: it forwards requests and, when a
// request asks for it with «X-Simular: perder-primera», lets the revisor do the work and then loses
// the answer, so a client sees a 502 although the write happened.
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
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"cursohttp/pkg/curso"
	"cursohttp/pkg/estado"
	"cursohttp/pkg/jsonjs"
	"cursohttp/pkg/respuesta"
)

// pasan are the request headers the course's gateway forwards; every other one stays behind
// (X-Simular included: it is an order for the gateway, not for the revisor).
var pasan = []string{"Authorization", "Content-Type", "Idempotency-Key", "If-Match", "If-None-Match"}

// vuelven are the response headers it passes back, in the course's order. It writes their names in
// lower case, as Node's gateway does (S-I39).
var vuelven = []string{"Content-Type", "Content-Length", "Content-Language", "Location", "ETag", "Retry-After", "Allow", "WWW-Authenticate"}

// The two details of the gateway's 502.
const (
	DetallePerdida    = "la pasarela no recibió una respuesta completa del revisor"
	DetalleSinRevisor = "la pasarela no recibió respuesta del revisor"
)

// Defaults for Opciones.
const (
	TopeVistasPorOmision = 100_000
	// TopeRespuesta is how much of a response is held before answering; a larger one is streamed.
	TopeRespuesta = 8 << 20
	// EsperaRespuesta bounds the wait for the revisor's headers: Node's fetch (undici) gives up
	// after 300 s too; the course's gateway sets no limit of its own.
	EsperaRespuesta = 300 * time.Second
	// OciosaMaxima keeps a pooled connection below the revisor's idle timeout (Node's is 5 s), so the
	// gateway does not write into a connection the revisor is closing.
	OciosaMaxima = 4 * time.Second
)

// Opciones configure a Pasarela.
type Opciones struct {
	Destino    *url.URL          // the revisor; curso.URLRevisor when nil
	Log        zerolog.Logger    // where the gateway's lines go
	TopeVistas int               // how many identities X-Simular remembers; TopeVistasPorOmision when 0
	Transporte http.RoundTripper // NuevoDirecto() when nil
}

// Pasarela is the gateway's http.Handler.
type Pasarela struct {
	destino    *url.URL
	log        zerolog.Logger
	transporte http.RoundTripper
	vistas     *vistas
}

// NuevoTransporte is the gateway's pooled transport: keep-alive connections to the revisor, no
// compression (it passes bytes through), no proxy from the environment.
func NuevoTransporte() *http.Transport {
	return &http.Transport{
		DialContext:           (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:          256,
		MaxIdleConnsPerHost:   256,
		IdleConnTimeout:       OciosaMaxima,
		ResponseHeaderTimeout: EsperaRespuesta,
		DisableCompression:    true,
		ForceAttemptHTTP2:     false,
	}
}

// Nueva builds the gateway.
func Nueva(o Opciones) *Pasarela {
	if o.Destino == nil {
		o.Destino, _ = url.Parse(curso.URLRevisor)
	}
	if o.TopeVistas <= 0 {
		o.TopeVistas = TopeVistasPorOmision
	}
	if o.Transporte == nil {
		o.Transporte = NuevoDirecto()
	}
	return &Pasarela{destino: o.Destino, log: o.Log, transporte: o.Transporte, vistas: nuevasVistas(o.TopeVistas)}
}

// LineaDeInicio is the start-up line: `pasarela en http://ADDR → DESTINO`.
func LineaDeInicio(addr string, destino *url.URL) string {
	return "pasarela en http://" + addr + " → " + strings.TrimSuffix(destino.String(), "/")
}

// MalaPuerta answers the gateway's own 502: about:blank, no Content-Language, no instance.
func MalaPuerta(w http.ResponseWriter, r *http.Request, detail string) {
	cuerpo := append(jsonjs.Codificar(jsonjs.Objeto{
		{Nombre: "type", Valor: "about:blank"},
		{Nombre: "title", Valor: "Bad Gateway"},
		{Nombre: "status", Valor: http.StatusBadGateway},
		{Nombre: "detail", Valor: detail},
	}), '\n')
	respuesta.Bytes(w, r, http.StatusBadGateway, "application/problem+json", cuerpo)
}

func (p *Pasarela) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	salida, cuerpo, ok := p.peticion(r)
	if !ok {
		p.sinRespuesta(w, r)
		return
	}
	resp, err := p.transporte.RoundTrip(salida)
	if err != nil {
		p.sinRespuesta(w, r)
		return
	}
	defer resp.Body.Close()

	// Hold the answer whole before deciding, as the course's gateway does: a revisor that dies
	// mid-body still gets a clean 502, and a lost answer is lost only once the revisor finished it.
	// Only an unusually large answer is streamed.
	leido, err := io.ReadAll(io.LimitReader(resp.Body, TopeRespuesta+1))
	if err != nil {
		p.sinRespuesta(w, r)
		return
	}
	var resto io.Reader
	if len(leido) > TopeRespuesta {
		resto = resp.Body
	}
	// Repeated X-Simular fields read as one list, which is not the order "perder-primera".
	if strings.Join(r.Header.Values("X-Simular"), ", ") == "perder-primera" && p.vistas.primeraVez(p.identidad(r, cuerpo)) {
		if resto != nil {
			if _, err := io.Copy(io.Discard, resto); err != nil {
				p.sinRespuesta(w, r)
				return
			}
		}
		p.log.Info().Int("codigo", resp.StatusCode).
			Msg("pasarela: el revisor respondió " + strconv.Itoa(resp.StatusCode) + ", pero la respuesta se pierde")
		MalaPuerta(w, r, DetallePerdida)
		return
	}
	p.devolver(w, r, resp, leido, resto)
}

// peticion builds the request to the revisor: same method, the target as the course's gateway
// sends it (comoFetch; false when it would send none), the allowed headers, the body as it arrives.
func (p *Pasarela) peticion(r *http.Request) (*http.Request, *cuerpoVisto, bool) {
	objetivo := r.RequestURI
	if objetivo == "" {
		objetivo = r.URL.RequestURI()
	}
	camino, consulta, ok := comoFetch(strings.TrimSuffix(p.destino.EscapedPath(), "/"), objetivo)
	if !ok {
		return nil, nil, false
	}
	destino := urlHacia(p.destino, camino, consulta)
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
	for _, nombre := range pasan {
		if v := r.Header.Values(nombre); len(v) > 0 {
			salida.Header[nombre] = []string{unaCabecera(nombre, v)}
		}
	}
	// No User-Agent of our own: the revisor sees only what the client sent through the allow-list.
	salida.Header["User-Agent"] = []string{""}

	cuerpo := &cuerpoVisto{r: r.Body, h: sha256.New(), hecho: make(chan struct{})}
	if r.Body == nil || r.Body == http.NoBody {
		cuerpo.r = bytes.NewReader(nil)
	}
	// The body is never rewindable (no GetBody): Go's Transport then never re-sends the request by
	// itself on a dead pooled connection, which it would otherwise do for any request carrying
	// Idempotency-Key. The gateway retries nothing; only safe methods without a body may be re-sent
	// by the Transport when a pooled connection turns out to be closed.
	if r.ContentLength == 0 && esSeguro(r.Method) {
		salida.Body = nil
		cuerpo.Close()
	} else {
		salida.Body = cuerpo
		salida.ContentLength = r.ContentLength
		if r.ContentLength == 0 {
			salida.ContentLength = 0
		}
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

// identidad is how the gateway recognises "the same request": its Idempotency-Key, otherwise the
// SHA-256 of the body bytes (not of the parsed JSON).
func (p *Pasarela) identidad(r *http.Request, cuerpo *cuerpoVisto) [32]byte {
	if v := r.Header.Values("Idempotency-Key"); len(v) > 0 {
		return sha256.Sum256([]byte("llave\x00" + strings.Join(v, ", ")))
	}
	var id [32]byte
	select {
	case <-cuerpo.hecho:
		copy(id[:], cuerpo.h.Sum(nil))
	case <-time.After(time.Second):
		// The Transport always closes the body; this only guards against a bug turning into a hang.
	}
	return sha256.Sum256(append([]byte("cuerpo\x00"), id[:]...))
}

// devolver passes the revisor's answer on: its status and reason phrase, the allowed headers in
// lower case, the body (leido, then resto when the answer was too large to hold).
func (p *Pasarela) devolver(w http.ResponseWriter, r *http.Request, resp *http.Response, leido []byte, resto io.Reader) {
	h := w.Header()
	for _, nombre := range vuelven {
		if v := resp.Header.Values(nombre); len(v) > 0 {
			h[http.CanonicalHeaderKey(nombre)] = []string{strings.Join(v, ", ")}
		}
	}
	if _, ok := h["Content-Type"]; !ok {
		h["Content-Type"] = nil // never let net/http guess one the revisor did not send
	}
	// A HEAD answer has no body but keeps the Content-Length a GET would get (RFC 9110 §9.3.2).
	if resp.ContentLength >= 0 && resto == nil && int64(len(leido)) != resp.ContentLength && r.Method != http.MethodHead {
		h["Content-Length"] = []string{strconv.Itoa(len(leido))}
	}
	frase, _ := strings.CutPrefix(resp.Status, strconv.Itoa(resp.StatusCode)+" ")
	if frase == "" || frase == resp.Status {
		frase = estado.Frase(resp.StatusCode)
	}
	estado.Reescribir(r, cabeza(resp.StatusCode, frase))
	w.WriteHeader(resp.StatusCode)
	w.Write(leido)
	if resto != nil {
		if _, err := io.Copy(w, resto); err != nil {
			// Headers are gone already: the only honest signal left is to cut the connection.
			p.log.Info().Msg("pasarela: el revisor no respondió")
			panic(http.ErrAbortHandler)
		}
	}
}

func (p *Pasarela) sinRespuesta(w http.ResponseWriter, r *http.Request) {
	p.log.Info().Msg("pasarela: el revisor no respondió")
	MalaPuerta(w, r, DetalleSinRevisor)
}

// cuerpoVisto forwards the client's body and hashes it on the way; hecho closes when the Transport
// is done with it (it always closes a request body), so the hash can be read without a race.
type cuerpoVisto struct {
	r     io.Reader
	h     hash.Hash
	hecho chan struct{}
	once  sync.Once
}

func (c *cuerpoVisto) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.h.Write(b[:n])
	return n, err
}

func (c *cuerpoVisto) Close() error {
	c.once.Do(func() { close(c.hecho) })
	return nil
}

// vistas is the bounded set of identities already lost once. At the bound the oldest is forgotten:
// a request that old would be lost a second time, which only a lab switch can make happen.
type vistas struct {
	mu    sync.Mutex
	tope  int
	cual  map[[32]byte]*list.Element
	orden *list.List
}

func nuevasVistas(tope int) *vistas {
	return &vistas{tope: tope, cual: make(map[[32]byte]*list.Element), orden: list.New()}
}

// primeraVez records id and reports whether it was new.
func (v *vistas) primeraVez(id [32]byte) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	if _, ok := v.cual[id]; ok {
		return false
	}
	if len(v.cual) >= v.tope {
		viejo := v.orden.Front()
		v.orden.Remove(viejo)
		delete(v.cual, viejo.Value.([32]byte))
	}
	v.cual[id] = v.orden.PushBack(id)
	return true
}
