// Package entorno is what the revisor's client programs share (pkg/ordenes/<programa>, one
// package per order, each a function printing exactly what the course's TypeScript program prints
// plus the cobra command that runs it): the Entorno a program runs in, the Fabrica its command is
// built from, the HTTP client that never follows redirects, one request read whole, the one way a
// failure is said, and the decision table applied to an answer.
package entorno

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"cursohttp/internal/nodejs"
	"cursohttp/pkg/curso"
	"cursohttp/pkg/reintento"
)

// Entorno is what a program needs from outside. Everything that varies between runs (clock, random
// draws, sleeps, keys) comes from here so tests can pin it; nil fields take the real thing.
type Entorno struct {
	Revisor     string       // revisor's base URL, without a trailing slash
	Laboratorio string       // the laboratory's base URL
	Cliente     *http.Client // must not follow redirects; nil uses NuevoCliente()
	Out, Err    io.Writer

	Ahora      func() time.Time                           // nil: time.Now
	Azar       func() float64                             // values in [0, 1); nil: math/rand/v2
	Dormir     func(context.Context, time.Duration) error // nil: a timer that ctx can cancel
	NuevaLlave func() string                              // Idempotency-Key per alta; nil: a random UUID
}

// NuevoCliente is the HTTP client every program uses. It never follows a redirect: the course's
// programs fetch with redirect "manual", and a 301 or 308 is something to report, not to follow (a
// silent follow would print 200 for them and could take a client past the SSRF defence). Like
// Node's fetch, it ignores proxy variables.
func NuevoCliente() *http.Client {
	t := &http.Transport{
		Proxy:                 nil,
		DialContext:           (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:          16,
		IdleConnTimeout:       5 * time.Second,
		ResponseHeaderTimeout: 0, // /lento/MS may take as long as the lab is told
	}
	return &http.Client{
		Transport: t,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}

// HTTP is the client a program's requests go through: e.Cliente, or one for a single request.
func (e Entorno) HTTP() *http.Client {
	if e.Cliente != nil {
		return e.Cliente
	}
	// A client for one request: it must not keep idle connections nobody will close.
	c := NuevoCliente()
	c.Transport.(*http.Transport).DisableKeepAlives = true
	return c
}

// Hora is the time now, by e.Ahora when set.
func (e Entorno) Hora() time.Time {
	if e.Ahora != nil {
		return e.Ahora()
	}
	return time.Now()
}

// Pausar waits d, or less if ctx ends first, by e.Dormir when set.
func (e Entorno) Pausar(ctx context.Context, d time.Duration) error {
	if e.Dormir != nil {
		return e.Dormir(ctx, d)
	}
	return reintento.Dormir(ctx, d)
}

// Llave is a fresh Idempotency-Key, by e.NuevaLlave when set.
func (e Entorno) Llave() string {
	if e.NuevaLlave != nil {
		return e.NuevaLlave()
	}
	return uuid.NewString()
}

// Errores is where a program says why it failed: e.Err, or nowhere.
func (e Entorno) Errores() io.Writer {
	if e.Err != nil {
		return e.Err
	}
	return io.Discard
}

// Respuesta is what the programs keep of an HTTP answer: the body read whole, as fetch's text().
type Respuesta struct {
	Codigo    int
	Cabeceras http.Header
	Cuerpo    []byte
}

// Cabecera returns the field as Headers.get does: every line joined with ", ", ok=false if absent.
func (r Respuesta) Cabecera(nombre string) (string, bool) {
	v := r.Cabeceras.Values(nombre)
	if len(v) == 0 {
		return "", false
	}
	return strings.Join(v, ", "), true
}

// OK is fetch's Response.ok.
func (r Respuesta) OK() bool { return r.Codigo >= 200 && r.Codigo <= 299 }

// RetryAfter reads Retry-After strictly; nil when absent or not understood.
func (r Respuesta) RetryAfter(ahora time.Time) *int64 {
	v, hay := r.Cabecera("Retry-After")
	if !hay {
		return nil
	}
	s, ok := reintento.SegundosDeEspera(v, ahora)
	if !ok {
		return nil
	}
	return &s
}

// Pedir makes one request and reads the whole body.
func (e Entorno) Pedir(ctx context.Context, metodo, destino string, cabeceras map[string]string, cuerpo []byte) (Respuesta, error) {
	var lector io.Reader
	if cuerpo != nil {
		lector = bytes.NewReader(cuerpo)
	}
	req, err := http.NewRequestWithContext(ctx, metodo, destino, lector)
	if err != nil {
		return Respuesta{}, err
	}
	for k, v := range cabeceras {
		req.Header.Set(k, v)
	}
	res, err := e.HTTP().Do(req)
	if err != nil {
		return Respuesta{}, err
	}
	defer res.Body.Close()
	datos, err := io.ReadAll(res.Body)
	if err != nil {
		// Cut mid-body: the same failure as no answer, named with its URL.
		return Respuesta{}, &url.Error{Op: metodo, URL: destino, Err: err}
	}
	return Respuesta{Codigo: res.StatusCode, Cabeceras: res.Header, Cuerpo: datos}, nil
}

// Fallo prints why a program could not go on and returns its exit code. The course's programs
// crash with a stack trace here (an unhandled rejection, exit code 1); one sentence says the same.
// Interrupted with Ctrl+C it says nothing and ends with 130, as a shell expects.
func (e Entorno) Fallo(programa string, err error) int {
	if errors.Is(err, context.Canceled) {
		return curso.Interrumpido
	}
	fmt.Fprintf(e.Errores(), "%s: %s\n", programa, Describir(err))
	return 1
}

// Describir says in Spanish what went wrong with a request; the usual cause is a server that is
// not running. Any other failure is named by Node's code for it, as the checkers' FALLA lines do,
// never by Go's English error text.
func Describir(err error) string {
	var ue *url.Error
	if !errors.As(err, &ue) {
		return err.Error()
	}
	switch {
	case nodejs.Rechazada(err):
		return fmt.Sprintf("nadie escucha en %s (conexión rechazada): ¿está corriendo%s?", ue.URL, quienEscucharia(ue.URL))
	case ue.Timeout():
		return fmt.Sprintf("%s no respondió a tiempo", ue.URL)
	}
	return fmt.Sprintf("sin respuesta de %s (%s)", ue.URL, nodejs.CodigoDeError(ue.Err))
}

// quienEscucharia names the course's program that listens where a refused request went (« el
// laboratorio (bin/laboratorio)»), or nothing for an address the course does not use.
func quienEscucharia(destino string) string {
	u, err := url.Parse(destino)
	if err != nil || u.Hostname() != curso.Host {
		return ""
	}
	switch u.Port() {
	case strconv.Itoa(curso.PuertoRevisor):
		return " el revisor (bin/revisor)"
	case strconv.Itoa(curso.PuertoLaboratorio):
		return " el laboratorio (bin/laboratorio)"
	case strconv.Itoa(curso.PuertoPasarela):
		return " la pasarela (bin/pasarela) o laboratorio mentira"
	case strconv.Itoa(curso.PuertoHostil):
		return " el servicio hostil (bin/laboratorio hostil)"
	}
	return ""
}

// PadEnd is String.prototype.padEnd(n) with spaces.
func PadEnd(s string, n int) string {
	if l := nodejs.Largo(s); l < n {
		return s + strings.Repeat(" ", n-l)
	}
	return s
}

// PadStart is String.prototype.padStart(n) with spaces.
func PadStart(s string, n int) string {
	if l := nodejs.Largo(s); l < n {
		return strings.Repeat(" ", n-l) + s
	}
	return s
}

// TextoJS is JavaScript's template-literal rendering of a string that may be null.
func TextoJS(s string, ok bool) string {
	if !ok {
		return "null"
	}
	return s
}
