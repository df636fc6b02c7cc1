package pasarela

import (
	"bytes"
	"net/http"

	"cursohttp/pkg/encabezado"
)

// net/http canonicalises header names and decides framing from "Content-Length" and "Content-Type"
// spelled that way, so the gateway sets them canonically and lower-cases the names of the
// passed-through headers as the response leaves, with the connection's head rewrite
// (encabezado.Reescribir): the bytes a student compares with the lesson's `curl -i` (S-I39). Same length
// in, same length out: framing is untouched.

// minusculas holds the passed-through names as net/http writes them, to be lower-cased on the wire.
var minusculas = func() map[string]bool {
	m := make(map[string]bool, len(vuelven))
	for _, n := range vuelven {
		m[http.CanonicalHeaderKey(n)] = true
	}
	return m
}()

// cabeza is how the head of one of the gateway's answers leaves: the passed-through names in lower
// case, and the revisor's reason phrase where net/http would write another one.
func cabeza(codigo int, frase string) encabezado.Reescritura {
	if frase == encabezado.FraseDeGo(codigo) {
		return enMinusculas
	}
	return func(dst, p []byte) []byte {
		n := len(dst)
		dst = encabezado.CambiarFrase(dst, p, codigo, frase)
		bajarNombres(dst[n:])
		return dst
	}
}

func enMinusculas(dst, p []byte) []byte {
	n := len(dst)
	dst = append(dst, p...)
	bajarNombres(dst[n:])
	return dst
}

// bajarNombres lower-cases, in place, the passed-through names of the head b starts with. net/http
// buffers 4 KiB before writing, so a response's first write holds its whole head; if it does not
// (enormous headers) the names simply stay canonical.
func bajarNombres(b []byte) {
	fin := bytes.Index(b, []byte("\r\n\r\n"))
	if fin < 0 {
		return
	}
	linea := bytes.Index(b, []byte("\r\n")) + 2
	for linea < fin {
		finLinea := linea + bytes.Index(b[linea:], []byte("\r\n"))
		if dos := bytes.IndexByte(b[linea:finLinea], ':'); dos > 0 && minusculas[string(b[linea:linea+dos])] {
			for i, c := range b[linea : linea+dos] {
				if 'A' <= c && c <= 'Z' {
					b[linea+i] = c + 'a' - 'A'
				}
			}
		}
		linea = finLinea + 2
	}
}
