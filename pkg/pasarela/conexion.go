package pasarela

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"strings"
	"sync/atomic"

	"cursohttp/pkg/estado"
	"cursohttp/pkg/servidor"
)

// net/http canonicalises header names and decides framing from "Content-Length" and "Content-Type"
// spelled that way, so the gateway sets them canonically and a connection wrapper lower-cases the
// names of the passed-through headers as the response leaves — the bytes a student compares with
// the lesson's `curl -i` (S-I39). Same length in, same length out: framing is untouched.

type conexion struct {
	net.Conn
	minusculas atomic.Bool
}

func (c *conexion) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return c.Conn.Close()
}

// vuelven holds the passed-through names as net/http writes them, to be lower-cased on the wire.
var vuelven = func() map[string]bool {
	m := make(map[string]bool, len(Vuelven))
	for _, n := range Vuelven {
		m[http.CanonicalHeaderKey(n)] = true
	}
	return m
}()

func (c *conexion) Write(p []byte) (int, error) {
	if !c.minusculas.Load() || !bytes.HasPrefix(p, []byte("HTTP/1.")) {
		return c.Conn.Write(p)
	}
	c.minusculas.Store(false)
	// net/http buffers 4 KiB before writing, so a response's first write holds its whole header
	// block; if it does not (enormous headers) the names simply stay canonical.
	fin := bytes.Index(p, []byte("\r\n\r\n"))
	if fin < 0 {
		return c.Conn.Write(p)
	}
	nuevo := bytes.Clone(p)
	linea := bytes.Index(nuevo, []byte("\r\n")) + 2
	for linea < fin {
		finLinea := linea + bytes.Index(nuevo[linea:], []byte("\r\n"))
		if dos := bytes.IndexByte(nuevo[linea:finLinea], ':'); dos > 0 && vuelven[string(nuevo[linea:linea+dos])] {
			copy(nuevo[linea:linea+dos], strings.ToLower(string(nuevo[linea:linea+dos])))
		}
		linea = finLinea + 2
	}
	return c.Conn.Write(nuevo)
}

type oyente struct{ net.Listener }

func (o oyente) Accept() (net.Conn, error) {
	c, err := o.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &conexion{Conn: c}, nil
}

// Envolver wraps a listener (already wrapped by estado, as servidor.Escuchar returns it) so the
// gateway can write lower-case header names.
func Envolver(l net.Listener) net.Listener { return oyente{l} }

type claveConexion struct{}

// ConnContext lets handlers reach both wrappers: this package's and estado's underneath.
func ConnContext(ctx context.Context, c net.Conn) context.Context {
	if m, ok := c.(*conexion); ok {
		ctx = estado.ConnContext(ctx, m.Conn)
		return context.WithValue(ctx, claveConexion{}, m)
	}
	return estado.ConnContext(ctx, c)
}

// enMinusculas asks for the next response on r's connection to carry lower-case names.
func enMinusculas(r *http.Request) {
	if r.ProtoMajor != 1 {
		return
	}
	if m, ok := r.Context().Value(claveConexion{}).(*conexion); ok {
		m.minusculas.Store(true)
	}
}

// NuevoServidor is servidor.Nuevo with the gateway's connection context.
func NuevoServidor(h http.Handler) *http.Server {
	srv := servidor.Nuevo(h)
	srv.ConnContext = ConnContext
	return srv
}
