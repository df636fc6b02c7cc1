// Package encabezado puts the course's reason phrase on the wire. Go's net/http writes its own phrases
// (413 "Request Entity Too Large", 422 "Unprocessable Entity") and cannot be told another one, so a
// listener wraps each connection and, for the one response a handler marks, rewrites its head as it
// leaves: the phrase of the status line, and whatever else a handler's Reescritura changes (the
// gateway's lower-case names). Keep-alive, framing and everything else stay net/http's.
package encabezado

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"strconv"
	"sync/atomic"
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

// Reescritura rewrites the head of one response as it leaves. p is the response's first write: it
// starts with the status line and, since net/http buffers 4 KiB before writing, holds the whole
// head unless the head is larger. The function appends to dst what goes on the wire instead and
// returns it. It must leave the framing as it is: the same fields with the same values.
type Reescritura func(dst, p []byte) []byte

// Conn is a connection whose next response head a handler may rewrite (Reescribir): the course's
// reason phrase, the gateway's lower-case names. One wrapper with one hook, so a write with
// nothing pending costs one atomic load.
type Conn struct {
	net.Conn
	pendiente atomic.Value // Reescritura; a nil one when nothing is pending
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

func (c *Conn) Write(p []byte) (int, error) {
	f, _ := c.pendiente.Load().(Reescritura)
	if f == nil || !bytes.HasPrefix(p, []byte("HTTP/1.")) {
		return c.Conn.Write(p)
	}
	c.pendiente.Store(Reescritura(nil))
	nueva := f(make([]byte, 0, len(p)+32), p)
	n, err := c.Conn.Write(nueva)
	if err != nil {
		// Report what reached the wire in the caller's terms, never more than it gave.
		return min(max(n-(len(nueva)-len(p)), 0), len(p)), err
	}
	return len(p), nil
}

type listener struct{ net.Listener }

func (l listener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &Conn{Conn: c}, nil
}

// Envolver wraps a listener so that its connections can carry the course's reason phrases.
func Envolver(l net.Listener) net.Listener { return listener{l} }

type claveConn struct{}

// ConnContext is an http.Server ConnContext that lets handlers reach their connection.
func ConnContext(ctx context.Context, c net.Conn) context.Context {
	if ec, ok := c.(*Conn); ok {
		return context.WithValue(ctx, claveConn{}, ec)
	}
	return ctx
}

// Reescribir asks that the head of the next response on r's connection leave through f. Outside a
// wrapped HTTP/1 connection (an httptest.ResponseRecorder, HTTP/2) it does nothing.
func Reescribir(r *http.Request, f Reescritura) {
	if r == nil || r.ProtoMajor != 1 {
		return
	}
	if c, ok := r.Context().Value(claveConn{}).(*Conn); ok {
		c.pendiente.Store(f)
	}
}

// Escribir writes the status line for codigo with the suite's phrase (see Frase).
func Escribir(w http.ResponseWriter, r *http.Request, codigo int) {
	EscribirConFrase(w, r, codigo, Frase(codigo))
}

// EscribirConFrase writes the status line for codigo with the given phrase. Outside a wrapped
// connection (an httptest.ResponseRecorder, HTTP/2) it falls back to net/http's own phrase.
func EscribirConFrase(w http.ResponseWriter, r *http.Request, codigo int, frase string) {
	if frase != FraseDeGo(codigo) {
		Reescribir(r, func(dst, p []byte) []byte { return CambiarFrase(dst, p, codigo, frase) })
	}
	w.WriteHeader(codigo)
}

// CambiarFrase appends p to dst with frase as the reason phrase of its status line, if that line is
// codigo's; any other p is appended as it is.
func CambiarFrase(dst, p []byte, codigo int, frase string) []byte {
	// "HTTP/1.1 413 Request Entity Too Large\r\n"
	if len(p) < 13 || !bytes.HasPrefix(p, []byte("HTTP/1.")) || p[8] != ' ' || p[12] != ' ' ||
		string(p[9:12]) != strconv.Itoa(codigo) {
		return append(dst, p...)
	}
	fin := bytes.Index(p, []byte("\r\n"))
	if fin < 0 {
		return append(dst, p...)
	}
	dst = append(dst, p[:13]...)
	dst = append(dst, frase...)
	return append(dst, p[fin:]...)
}

// FraseDeGo is the phrase net/http writes by itself for codigo.
func FraseDeGo(codigo int) string {
	if t := http.StatusText(codigo); t != "" {
		return t
	}
	return "status code " + strconv.Itoa(codigo)
}
