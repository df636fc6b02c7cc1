// Package encabezado puts a response's head on the wire as the course's programs write it. Go's
// net/http writes its own reason phrases (413 "Request Entity Too Large", 422 "Unprocessable
// Entity"), sorts the header fields by name, and leaves out what Node adds to every response
// (`Connection: keep-alive`, `Keep-Alive: timeout=5`); it cannot be told otherwise. So a listener
// wraps each connection and rewrites each response's head as it leaves: the course's phrase, the
// fields in the order the handler set them (Escribir's orden), spelled as the handler spelled them,
// and Node's lines where Node writes them. The framing stays net/http's: the same fields with the
// same values, only their order and the case of their names change, and Node's lines are added.
//
// In Go mode (Opciones.Modo) only the reason phrase changes: the head is net/http's.
package encabezado

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// frases holds the IANA HTTP Status Code Registry's names, which are also the course's (the course
// names 413 "Content Too Large" and 422 "Unprocessable Content", as the registry does since RFC 9110).
// 418 keeps the name every deployed stack gives it: the registry reserves the code for that reason.
var frases = map[int]string{
	100: "Continue", 101: "Switching Protocols", 102: "Processing", 103: "Early Hints",
	200: "OK", 201: "Created", 202: "Accepted", 203: "Non-Authoritative Information", 204: "No Content",
	205: "Reset Content", 206: "Partial Content", 207: "Multi-Status", 208: "Already Reported", 226: "IM Used",
	300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
	305: "Use Proxy", 307: "Temporary Redirect", 308: "Permanent Redirect",
	400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden", 404: "Not Found",
	405: "Method Not Allowed", 406: "Not Acceptable", 407: "Proxy Authentication Required",
	408: "Request Timeout", 409: "Conflict", 410: "Gone", 411: "Length Required", 412: "Precondition Failed",
	413: "Content Too Large", 414: "URI Too Long", 415: "Unsupported Media Type", 416: "Range Not Satisfiable",
	417: "Expectation Failed", 418: "I'm a Teapot", 421: "Misdirected Request", 422: "Unprocessable Content",
	423: "Locked", 424: "Failed Dependency", 425: "Too Early", 426: "Upgrade Required",
	428: "Precondition Required", 429: "Too Many Requests", 431: "Request Header Fields Too Large",
	451: "Unavailable For Legal Reasons",
	500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
	504: "Gateway Timeout", 505: "HTTP Version Not Supported", 506: "Variant Also Negotiates",
	507: "Insufficient Storage", 508: "Loop Detected", 510: "Not Extended", 511: "Network Authentication Required",
}

// SinNombre is the neutral phrase for a code the registry does not name (299, 600…): the same word
// Node writes, so the line reads as the course's does.
const SinNombre = "unknown"

// Frase returns the reason phrase the suite writes for codigo.
func Frase(codigo int) string {
	if f, ok := frases[codigo]; ok {
		return f
	}
	return SinNombre
}

// FraseDeGo is the phrase net/http writes by itself for codigo.
func FraseDeGo(codigo int) string {
	if t := http.StatusText(codigo); t != "" {
		return t
	}
	return "status code " + strconv.Itoa(codigo)
}

// Modo says how much of a head the wrapper rewrites.
type Modo uint8

const (
	// Curso writes the head as the course's Node programs do (the default).
	Curso Modo = iota
	// Go leaves net/http's head as it is but for the reason phrase: the standard path, kept beside
	// the rewrite (--cabeceras go) to compare with it and to fall back on.
	Go
)

// LeerModo reads --cabeceras: «curso» or «go».
func LeerModo(s string) (Modo, bool) {
	switch s {
	case "curso":
		return Curso, true
	case "go":
		return Go, true
	}
	return Curso, false
}

func (m Modo) String() string {
	if m == Go {
		return "go"
	}
	return "curso"
}

// Opciones are a wrapped listener's.
type Opciones struct {
	Modo Modo
	// Ociosa is how long the server keeps an idle kept-alive connection (its http.Server's
	// IdleTimeout): the `Keep-Alive: timeout=N` line promises it, in whole seconds as Node writes
	// it. Zero: no Keep-Alive line.
	Ociosa time.Duration
}

// Envolver wraps a listener so that the heads of its responses leave as o says. The server must
// report its connections' states to Notar (http.Server.ConnState), which is how a connection knows
// that its next write starts a head.
func Envolver(l net.Listener, o Opciones) net.Listener {
	ka := ""
	if o.Ociosa > 0 {
		ka = "Keep-Alive: timeout=" + strconv.FormatInt(int64(o.Ociosa/time.Second), 10) + "\r\n"
	}
	return listener{l, o.Modo, ka}
}

type listener struct {
	net.Listener
	modo      Modo
	keepAlive string
}

func (l listener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	ec := &Conn{Conn: c, modo: l.modo, keepAlive: l.keepAlive}
	ec.cabeza.Store(l.modo == Curso)
	return ec, nil
}

// Conn is a connection whose responses' heads leave rewritten (see the package comment).
type Conn struct {
	net.Conn
	modo      Modo
	keepAlive string // Node's Keep-Alive line, with its CRLF; "" for none

	// cabeza says the next write starts a response's head: set when the connection opens, when it
	// goes idle after a response, and when a handler writes its status. A write with nothing
	// pending costs this one atomic load.
	cabeza atomic.Bool

	mu     sync.Mutex // guards what the next head needs, set by a handler, read by the write
	codigo int        // with frase: the reason phrase of the next head, if its status is codigo
	frase  string
	orden  []string // the next head's fields, in the course's order and spelling; reused
}

// NetConn is the connection underneath, as tls.Conn names its own (the gateway's reset reaches the
// TCP connection through it).
func (c *Conn) NetConn() net.Conn { return c.Conn }

// CloseWrite half-closes the connection when the one underneath can (TCP), for a staged close.
func (c *Conn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return c.Conn.Close()
}

// Notar is for http.Server.ConnState (chain it with others): a new connection, and one that goes
// idle after a response, writes a head next, with nothing a handler asked for yet. net/http calls it
// on the connection's own goroutine before it reads the next request, so no response is under way.
func Notar(c net.Conn, s http.ConnState) {
	if s != http.StateNew && s != http.StateIdle {
		return
	}
	if ec, ok := c.(*Conn); ok && ec.modo == Curso {
		ec.mu.Lock()
		ec.frase, ec.orden = "", ec.orden[:0]
		ec.mu.Unlock()
		ec.cabeza.Store(true)
	}
}

func (c *Conn) Write(p []byte) (int, error) {
	if !c.cabeza.Load() {
		return c.Conn.Write(p)
	}
	if !bytes.HasPrefix(p, []byte("HTTP/1.")) {
		// Not a head (a hijacked connection's own bytes): nothing more to rewrite until the next.
		c.cabeza.Store(false)
		return c.Conn.Write(p)
	}
	if len(p) > 12 && p[9] == '1' {
		// 100 Continue goes as it is; the final head comes next.
		return c.Conn.Write(p)
	}
	c.cabeza.Store(false)
	c.mu.Lock()
	s := siguiente{codigo: c.codigo, frase: c.frase, orden: c.orden, keepAlive: c.keepAlive}
	b := buffers.Get().(*[]byte)
	nueva := s.escribir((*b)[:0], p, c.modo)
	c.frase = ""
	c.mu.Unlock()
	n, err := c.Conn.Write(nueva)
	if cap(nueva) <= topeBuffer {
		*b = nueva
		buffers.Put(b)
	}
	if err != nil {
		// Report what reached the wire in the caller's terms, never more than it gave.
		return min(max(n-(len(nueva)-len(p)), 0), len(p)), err
	}
	return len(p), nil
}

// buffers hold rewritten heads between uses: a head and the start of its body fit in net/http's
// 4 KiB write buffer, so one of about that size serves every response.
var buffers = sync.Pool{New: func() any { b := make([]byte, 0, 4<<10+256); return &b }}

// topeBuffer is the largest buffer kept for reuse.
const topeBuffer = 16 << 10

type claveConn struct{}

// ConnContext is an http.Server ConnContext that lets handlers reach their connection.
func ConnContext(ctx context.Context, c net.Conn) context.Context {
	if ec, ok := c.(*Conn); ok {
		return context.WithValue(ctx, claveConn{}, ec)
	}
	return ctx
}

// conn is r's wrapped HTTP/1 connection, or nil (an httptest.ResponseRecorder, HTTP/2).
func conn(r *http.Request) *Conn {
	if r == nil || r.ProtoMajor != 1 {
		return nil
	}
	c, _ := r.Context().Value(claveConn{}).(*Conn)
	return c
}

// Escribir writes the status line for codigo with the suite's phrase (see Frase). orden names the
// fields the handler set, in the order and spelling the course's program passes them to writeHead:
// the head lists them so, after the fields it does not name (in net/http's order, as Node lists
// what setHeader set before) and before Node's own lines. A name the head does not carry is skipped.
func Escribir(w http.ResponseWriter, r *http.Request, codigo int, orden ...string) {
	EscribirConFrase(w, r, codigo, Frase(codigo), orden...)
}

// EscribirConFrase is Escribir with the given phrase. Outside a wrapped connection (an
// httptest.ResponseRecorder, HTTP/2) the phrase and the order are net/http's.
func EscribirConFrase(w http.ResponseWriter, r *http.Request, codigo int, frase string, orden ...string) {
	if c := conn(r); c != nil {
		c.mu.Lock()
		c.codigo, c.frase = codigo, ""
		if frase != FraseDeGo(codigo) {
			c.frase = frase
		}
		c.orden = append(c.orden[:0], orden...)
		// In Go mode only a phrase of our own needs the rewrite.
		if c.modo == Curso || c.frase != "" {
			c.cabeza.Store(true)
		}
		c.mu.Unlock()
	}
	w.WriteHeader(codigo)
}

// siguiente is what one head needs to leave rewritten.
type siguiente struct {
	codigo    int
	frase     string
	orden     []string
	keepAlive string
}

// Node's Connection lines.
const (
	cierre   = "Connection: close\r\n"
	mantener = "Connection: keep-alive\r\n"
)

// escribir appends to dst the head p starts with, rewritten, and the rest of p. p starts with a
// status line; net/http writes a head of up to 4 KiB whole in its first write
// (TestNetHTTPComoLoUsaLaReescritura), so a head that does not end in p is larger than any of the
// course's and leaves with only its phrase changed.
func (s siguiente) escribir(dst, p []byte, modo Modo) []byte {
	primera := bytes.Index(p, []byte("\r\n"))
	if primera < 0 {
		return append(dst, p...)
	}
	fin := bytes.Index(p, []byte("\r\n\r\n"))
	if modo == Go || fin < 0 {
		dst = s.linea(dst, p[:primera], false)
		return append(dst, p[primera:]...)
	}
	campos := p[primera+2 : fin+2] // each field line with its CRLF
	if len(s.orden) == 0 && s.frase == "" && bytes.Equal(campos, []byte(camposDelAnalizador)) {
		return delAnalizador(dst, p[:primera])
	}
	dst = append(s.linea(dst, p[:primera], true), "\r\n"...)
	return append(ordenar(dst, campos, s.orden, s.keepAlive, p[5] == '1' && p[7] == '0'), p[fin+2:]...)
}

// linea appends the status line l with the course's phrase when the handler asked for one; curso
// also writes HTTP/1.1 where net/http answers an HTTP/1.0 request with HTTP/1.0, as Node always
// writes HTTP/1.1.
func (s siguiente) linea(dst, l []byte, curso bool) []byte {
	// "HTTP/1.1 413 Request Entity Too Large"
	if len(l) < 12 || l[8] != ' ' || (len(l) > 12 && l[12] != ' ') {
		return append(dst, l...)
	}
	if curso {
		dst = append(dst, "HTTP/1.1"...)
	} else {
		dst = append(dst, l[:8]...)
	}
	dst = append(dst, l[8:12]...)
	if s.frase != "" && int(l[9]-'0')*100+int(l[10]-'0')*10+int(l[11]-'0') == s.codigo {
		return append(append(dst, ' '), s.frase...)
	}
	return append(dst, l[12:]...)
}

// camposDelAnalizador are the fields net/http writes, and only those, when it answers a request it
// could not read (400, 431, 501, 505) before any handler runs (TestNetHTTPComoLoUsaLaReescritura).
const camposDelAnalizador = "Content-Type: text/plain; charset=utf-8\r\nConnection: close\r\n"

// sinHost is the status line net/http writes for an HTTP/1.1 request without Host.
const sinHost = "HTTP/1.1 400 Bad Request: missing required Host header"

// delAnalizador appends Node's answer for a request its parser refused, given net/http's status
// line l: the status and its phrase, `Connection: close`, no body (net/http writes the phrase
// again as a text body). For a missing Host, Node's server itself answers, so it carries the date
// and an empty chunked body.
func delAnalizador(dst, l []byte) []byte {
	if string(l) == sinHost {
		dst = append(dst, "HTTP/1.1 400 Bad Request\r\nConnection: close\r\nDate: "...)
		dst = time.Now().UTC().AppendFormat(dst, http.TimeFormat)
		return append(dst, "\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"...)
	}
	codigo, err := strconv.Atoi(string(l[9:min(12, len(l))]))
	if err != nil || len(l) < 12 {
		return append(append(dst, l...), "\r\n"+camposDelAnalizador+"\r\n"...)
	}
	dst = append(dst, "HTTP/1.1 "...)
	dst = strconv.AppendInt(dst, int64(codigo), 10)
	dst = append(append(dst, ' '), Frase(codigo)...)
	return append(dst, "\r\n"+cierre+"\r\n"...)
}

// The fields Node writes itself, after the program's, and where.
const (
	otro = iota
	fecha
	conexion
	keepAlive
	largo
	transferencia
)

// campo is one field line of a head: [ini, dos) its name, [dos, fin) the colon, value and CRLF.
type campo struct {
	ini, dos, fin int
	clase         int
	usado         bool
}

// ordenar appends the field lines of b (each ending in CRLF) in the course's order: first those orden
// does not name (set before the order was named), in net/http's order; then those orden names, in
// its order and with its spelling; then what Node writes after the program's: Date, Connection (keep-alive, with the Keep-Alive line, unless the
// connection closes), Content-Length and Transfer-Encoding when the program did not set them.
// http10 says the request was HTTP/1.0, whose connection closes after the answer.
func ordenar(dst, b []byte, orden []string, lineaKeepAlive string, http10 bool) []byte {
	var arreglo [24]campo
	campos := arreglo[:0]
	for i := 0; i < len(b); {
		// net/http ends every line with CRLF and allows no bare CR or LF in a value.
		j := bytes.IndexByte(b[i:], '\n')
		dos := bytes.IndexByte(b[i:i+max(j, 0)], ':')
		if j < 1 || b[i+j-1] != '\r' || dos < 0 {
			return append(dst, b...) // not net/http's: leave it alone
		}
		c := campo{ini: i, dos: i + dos, fin: i + j + 1}
		c.clase = clase(b[c.ini:c.dos])
		campos = append(campos, c)
		i += j + 1
	}
	// Fields set before the handler named its order come first, as Node lists what setHeader set
	// before what writeHead sets.
	for _, c := range campos {
		if c.clase == otro && !nombrado(orden, b[c.ini:c.dos]) {
			dst = append(dst, b[c.ini:c.fin]...)
		}
	}
	conexionPuesta := false
	for _, nombre := range orden {
		for k := range campos {
			c := &campos[k]
			if !c.usado && igualSinCaso(nombre, b[c.ini:c.dos]) {
				dst = append(append(dst, nombre...), b[c.dos:c.fin]...)
				c.usado = true
				conexionPuesta = conexionPuesta || c.clase == conexion
			}
		}
	}
	dst = poner(dst, b, campos, fecha)
	hayKeepAlive := false
	for _, c := range campos {
		hayKeepAlive = hayKeepAlive || c.clase == keepAlive
	}
	mantiene := false
	switch {
	case conexionPuesta:
		// The program set Connection itself: Node adds neither line.
	case hay(campos, conexion):
		for _, c := range campos {
			if c.clase != conexion || c.usado {
				continue
			}
			switch v := bytes.TrimSpace(b[c.dos+1 : c.fin]); {
			case igualSinCaso("close", v):
				dst = append(dst, cierre...)
			case igualSinCaso("keep-alive", v):
				dst = append(dst, mantener...)
				mantiene = true
			default:
				dst = append(dst, b[c.ini:c.fin]...)
			}
		}
	case http10:
		dst = append(dst, cierre...)
	default:
		dst = append(dst, mantener...)
		mantiene = true
	}
	if mantiene && !hayKeepAlive {
		dst = append(dst, lineaKeepAlive...)
	}
	dst = poner(dst, b, campos, keepAlive)
	dst = poner(dst, b, campos, largo)
	dst = poner(dst, b, campos, transferencia)
	return dst
}

// nombrado says whether orden names the field nombre.
func nombrado(orden []string, nombre []byte) bool {
	for _, n := range orden {
		if igualSinCaso(n, nombre) {
			return true
		}
	}
	return false
}

// hay says whether an unused field of clase k is among campos.
func hay(campos []campo, k int) bool {
	for _, c := range campos {
		if c.clase == k && !c.usado {
			return true
		}
	}
	return false
}

// poner appends the unused fields of clase k.
func poner(dst, b []byte, campos []campo, k int) []byte {
	for _, c := range campos {
		if c.clase == k && !c.usado {
			dst = append(dst, b[c.ini:c.fin]...)
		}
	}
	return dst
}

func clase(nombre []byte) int {
	switch len(nombre) {
	case len("Date"):
		if igualSinCaso("Date", nombre) {
			return fecha
		}
	case len("Connection"): // and Keep-Alive
		if igualSinCaso("Connection", nombre) {
			return conexion
		}
		if igualSinCaso("Keep-Alive", nombre) {
			return keepAlive
		}
	case len("Content-Length"):
		if igualSinCaso("Content-Length", nombre) {
			return largo
		}
	case len("Transfer-Encoding"):
		if igualSinCaso("Transfer-Encoding", nombre) {
			return transferencia
		}
	}
	return otro
}

// igualSinCaso compares an ASCII name with b, ignoring case.
func igualSinCaso(s string, b []byte) bool {
	if len(s) != len(b) {
		return false
	}
	if s == string(b) {
		return true
	}
	for i := 0; i < len(s); i++ {
		x, y := s[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
