// Package laboratorio holds the course's failing servers: the bench that answers any status code on
// demand (and fails on purpose on /lento, /cortar and /basura), the fake gateway that answers a script,
// and the hostile server that sends any Problem Details type it is asked for.
package laboratorio

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"cursohttp/pkg/respuesta"
	"cursohttp/pkg/servidor"
)

// The bench's texts, as the course writes them.
const (
	TipoTexto       = "text/plain; charset=utf-8"
	Basura          = "esto no es una respuesta HTTP\r\n\r\n"
	SinNombre       = "(sin nombre en este banco)"
	motivoMetodo    = "el banco solo atiende GET y HEAD"
	motivoRuta      = "la única ruta es /codigo/NNN; prueba con /codigo/503"
	motivoMenor100  = "no existe un código de estado menor que 100"
	motivo1xx       = "un 1xx es una respuesta intermedia: no puede ser la última"
	motivoMayor599  = "un código mayor que 599 es inválido; el banco lo produce para que veas qué hace el cliente"
	maxCifrasLento  = 5       // /lento/MS takes 1 to 5 digits, so at most 99 999 ms (topes.Lento)
	topeCuerpoLento = 1 << 20 // body read before waiting, so that a client leaving is noticed
	esperaBasura    = time.Second
)

// nombres is the bench's own table for the first line of its bodies. It is not the status line's
// phrase (encabezado.Frase): a code outside it (418, 300…) says SinNombre in the body.
var nombres = map[int]string{
	200: "OK", 201: "Created", 202: "Accepted", 204: "No Content",
	301: "Moved Permanently", 302: "Found", 304: "Not Modified",
	307: "Temporary Redirect", 308: "Permanent Redirect",
	400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
	405: "Method Not Allowed", 406: "Not Acceptable", 409: "Conflict", 410: "Gone",
	412: "Precondition Failed", 413: "Content Too Large", 415: "Unsupported Media Type",
	422: "Unprocessable Content", 428: "Precondition Required", 429: "Too Many Requests",
	500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway",
	503: "Service Unavailable", 504: "Gateway Timeout",
}

// cabeceras are the example headers each code requires or usually carries.
var cabeceras = map[int]respuesta.Cabecera{
	201: {Nombre: "Location", Valor: "/servicios/demo"},
	301: {Nombre: "Location", Valor: "/codigo/200"},
	302: {Nombre: "Location", Valor: "/codigo/200"},
	307: {Nombre: "Location", Valor: "/codigo/200"},
	308: {Nombre: "Location", Valor: "/codigo/200"},
	304: {Nombre: "ETag", Valor: `"v1"`},
	401: {Nombre: "WWW-Authenticate", Valor: `Bearer realm="revisor"`},
	405: {Nombre: "Allow", Valor: "GET, HEAD"},
	429: {Nombre: "Retry-After", Valor: "30"},
	503: {Nombre: "Retry-After", Valor: "120"},
}

// Banco is the bench on port 18081.
type Banco struct {
	log zerolog.Logger
}

// Nuevo builds the bench. The per-request log line is the caller's (servidor.Registrar); log only
// receives what goes wrong inside the bench.
func Nuevo(log zerolog.Logger) *Banco {
	return &Banco{log: log}
}

// ServeHTTP checks in the course's order: the failure routes first, on the raw target and for any
// method; then the method; then /codigo/NNN on the parsed path.
func (b *Banco) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	crudo := objetivo(r)
	if ms, ok := cifrasLento(crudo); ok {
		b.lento(w, r, ms)
		return
	}
	switch crudo {
	case "/cortar":
		b.cortar(w)
		return
	case "/basura":
		b.basura(w)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		Enviar(w, r, http.StatusMethodNotAllowed, motivoMetodo)
		return
	}
	ruta := Ruta(crudo)
	codigo, ok := codigoPedido(ruta)
	switch {
	case !ok:
		Enviar(w, r, http.StatusNotFound, motivoRuta)
	case codigo < 100:
		Enviar(w, r, http.StatusBadRequest, motivoMenor100)
	case codigo < 200:
		Enviar(w, r, http.StatusBadRequest, motivo1xx)
	case codigo > 599:
		Enviar(w, r, codigo, motivoMayor599)
	default:
		Enviar(w, r, codigo, "lo pediste en "+ruta)
	}
}

// Cuerpo is the bench's text body for codigo: "NNN Name\nexplanation\n".
func Cuerpo(codigo int, explicacion string) string {
	nombre, ok := nombres[codigo]
	if !ok {
		nombre = SinNombre
	}
	return strconv.Itoa(codigo) + " " + nombre + "\n" + explicacion + "\n"
}

// Enviar answers codigo with its example header and the text body, except for the codes that cannot
// carry content: 204 and 304 (RFC 9112 §6.3) and 205 (RFC 9110 §15.3.6), which gets
// "Content-Length: 0" so its end is known without closing the connection.
func Enviar(w http.ResponseWriter, r *http.Request, codigo int, explicacion string) {
	var extra []respuesta.Cabecera
	if c, ok := cabeceras[codigo]; ok {
		extra = append(extra, c)
	}
	switch codigo {
	case http.StatusNoContent, http.StatusResetContent, http.StatusNotModified:
		respuesta.Vacio(w, r, codigo, extra...)
	default:
		respuesta.Bytes(w, r, codigo, TipoTexto, []byte(Cuerpo(codigo, explicacion)), extra...)
	}
}

// lento answers 200 after the milliseconds asked, unless the client leaves first. Between the
// request and the answer the bench holds nothing but a timer.
func (b *Banco) lento(w http.ResponseWriter, r *http.Request, cifras string) {
	ms, _ := strconv.Atoi(cifras)
	// net/http only notices a client that leaves once the body is read.
	io.Copy(io.Discard, io.LimitReader(r.Body, topeCuerpoLento))
	// A wait on purpose: at the connection cap it gives way to a new client (servidor.EnEspera).
	listo := servidor.EnEspera(r.Context())
	defer listo()
	t := time.NewTimer(time.Duration(ms) * time.Millisecond)
	defer t.Stop()
	select {
	case <-t.C:
		Enviar(w, r, http.StatusOK, "tardé "+cifras+" ms")
	case <-r.Context().Done():
		// Nobody is waiting: write nothing.
		panic(http.ErrAbortHandler)
	}
}

// cortar closes the connection without writing a byte: the client sees an empty reply.
func (b *Banco) cortar(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		// Not an HTTP/1 connection of ours: net/http aborts the stream without a response.
		panic(http.ErrAbortHandler)
	}
	conn.Close()
}

// basura writes something that is not an HTTP response and closes the connection.
func (b *Banco) basura(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		b.log.Error().Err(err).Msg("laboratorio: /basura no pudo tomar la conexión")
		panic(http.ErrAbortHandler)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(esperaBasura))
	if _, err := io.WriteString(conn, Basura); err != nil {
		return
	}
	// Half-close, then read what the client still sends: closing with unread bytes would send a
	// reset, and the client could lose the text before reading it.
	if cw, ok := conn.(interface{ CloseWrite() error }); ok {
		cw.CloseWrite()
		io.Copy(io.Discard, conn)
	}
}

// objetivo is the request target exactly as it came on the request line.
func objetivo(r *http.Request) string {
	if r.RequestURI != "" {
		return r.RequestURI
	}
	return r.URL.RequestURI()
}

// cifrasLento returns MS for a raw target "/lento/MS" with 1 to 5 ASCII digits and nothing after
// (a query makes it another route).
func cifrasLento(crudo string) (string, bool) {
	cifras, ok := strings.CutPrefix(crudo, "/lento/")
	if !ok || len(cifras) == 0 || len(cifras) > maxCifrasLento || !soloCifras(cifras) {
		return "", false
	}
	return cifras, true
}

// codigoPedido returns NNN for the path "/codigo/NNN" with exactly three ASCII digits.
func codigoPedido(ruta string) (int, bool) {
	cifras, ok := strings.CutPrefix(ruta, "/codigo/")
	if !ok || len(cifras) != 3 || !soloCifras(cifras) {
		return 0, false
	}
	n, _ := strconv.Atoi(cifras)
	return n, true
}

func soloCifras(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Ruta is the path a browser's URL parser gives for the target against http://banco: on top of
// respuesta.Ruta, a target that starts with two slashes (or a slash and a backslash) names a host,
// and the path starts after it ("//otro/codigo/200" is "/codigo/200", "//codigo/200" is "/200").
func Ruta(crudo string) string { return respuesta.RutaDe(crudo) }
