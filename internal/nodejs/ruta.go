package nodejs

import "strings"

// Conjunto names a percent-encode set: the bytes Escapar writes as %XX. Like net/url's
// shouldEscape modes, one escaper serves every place a URL is written.
type Conjunto int

const (
	// EnHostOpaco is the WHATWG C0 control percent-encode set (a non-special URL's host): the C0
	// controls and every byte above 0x7E.
	EnHostOpaco Conjunto = iota
	// EnConsulta is the WHATWG special-query percent-encode set: EnHostOpaco plus space, " # < > and '.
	EnConsulta
	// EnRuta is the WHATWG path percent-encode set: EnHostOpaco plus space, " # < > ? ` { and }.
	EnRuta
	// EnComponente is encodeURIComponent's: everything except A-Z a-z 0-9 - _ . ! ~ * ' ( ).
	EnComponente
)

// debeEscapar reports whether c is in the set.
func debeEscapar(c byte, conjunto Conjunto) bool {
	if c < 0x20 || c > 0x7e {
		return true // in every set
	}
	switch conjunto {
	case EnConsulta:
		return c == ' ' || c == '"' || c == '#' || c == '<' || c == '>' || c == '\''
	case EnRuta:
		return c == ' ' || c == '"' || c == '#' || c == '<' || c == '>' || c == '?' || c == '`' || c == '{' || c == '}'
	case EnComponente:
		return !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || strings.IndexByte("-_.!~*'()", c) >= 0)
	}
	return false
}

// Escapar percent-encodes each byte of s that is in the set as %XX, upper-case hex, as Node does;
// bytes, not characters: invalid UTF-8 is escaped byte by byte, and a "%" already there stays as
// sent unless the set holds it (only EnComponente does).
func Escapar(s string, conjunto Conjunto) string {
	n := 0
	for i := 0; i < len(s); i++ {
		if debeEscapar(s[i], conjunto) {
			n++
		}
	}
	if n == 0 {
		return s
	}
	const hex = "0123456789ABCDEF"
	b := make([]byte, 0, len(s)+2*n)
	for i := 0; i < len(s); i++ {
		if c := s[i]; debeEscapar(c, conjunto) {
			b = append(b, '%', hex[c>>4], hex[c&0xf])
		} else {
			b = append(b, c)
		}
	}
	return string(b)
}

// Partir splits what follows a URL's host (or a request target) as the WHATWG parser does: the
// fragment, from the first "#", is dropped; the query runs from the first "?" before it. hayConsulta
// tells "/x?" (an empty query) from "/x" (none).
func Partir(objetivo string) (ruta, consulta string, hayConsulta bool) {
	objetivo, _, _ = strings.Cut(objetivo, "#")
	return strings.Cut(objetivo, "?")
}

// Ruta resolves a special URL's path as Node 20's URL parser (Ada) does and returns it with its
// leading "/". ruta is what follows the "/" (or "\") that opens the path: "\" counts as "/", "."
// and ".." segments (also written %2e, in any case) are resolved, a dot segment at the end leaves
// the path ending in "/", and each segment is percent-encoded with the EnRuta set — all as the
// WHATWG standard says, but for the paths Ada's shortcut takes as written (AtajoDeAda).
func Ruta(ruta string) string {
	if nadaQueResolver(ruta) || AtajoDeAda(ruta) {
		return "/" + ruta // the usual case, without splitting
	}
	partes := strings.Split(strings.ReplaceAll(ruta, `\`, "/"), "/")
	salida := make([]string, 0, len(partes))
	for i, p := range partes {
		ultimo := i == len(partes)-1
		switch {
		case esDosPuntos(p):
			if len(salida) > 0 {
				salida = salida[:len(salida)-1]
			}
			if ultimo {
				salida = append(salida, "")
			}
		case esUnPunto(p):
			if ultimo {
				salida = append(salida, "")
			}
		default:
			salida = append(salida, Escapar(p, EnRuta))
		}
	}
	return "/" + strings.Join(salida, "/")
}

// nadaQueResolver reports whether Ruta has nothing to do but add the slash: no "\", no "." or "%"
// (so no dot segment, plain or escaped) and no byte of the path set.
// RutaConBarra is Ruta for a path that keeps its opening "/": the same result, and the usual path,
// with nothing to resolve, comes back as it is, without a copy.
func RutaConBarra(ruta string) string {
	if ruta != "" && ruta[0] == '/' && nadaQueResolver(ruta[1:]) {
		return ruta
	}
	if ruta != "" && (ruta[0] == '/' || ruta[0] == '\\') {
		ruta = ruta[1:]
	}
	return Ruta(ruta)
}

func nadaQueResolver(ruta string) bool {
	for i := 0; i < len(ruta); i++ {
		if c := ruta[i]; c == '\\' || c == '.' || c == '%' || debeEscapar(c, EnRuta) {
			return false
		}
	}
	return true
}

// AtajoDeAda reports whether Node 20's Ada copies ruta as written where the standard would resolve
// its dot segments (ada::helpers::parse_prepared_path). When a path's only byte of note is "." (no
// "\", no "%", nothing to escape) and it does not start with ".", Ada looks only at its FIRST "/.":
// if what follows is neither the end, "." nor "/", the whole path is kept, so "a/.b/../c" and
// "/.00/." stay as typed (the standard gives "/a/c" and "//.00/"). The course's program runs on
// Node 20: the revisor requests, and routes, what it would.
func AtajoDeAda(ruta string) bool {
	if ruta == "" || ruta[0] == '.' {
		return false
	}
	for i := 0; i < len(ruta); i++ {
		if c := ruta[i]; c == '\\' || c == '%' || debeEscapar(c, EnRuta) {
			return false
		}
	}
	i := strings.Index(ruta, "/.")
	return i < 0 || i+2 < len(ruta) && ruta[i+2] != '.' && ruta[i+2] != '/'
}

// esUnPunto and esDosPuntos are the standard's single- and double-dot path segments.
func esUnPunto(s string) bool { return s == "." || strings.EqualFold(s, "%2e") }

func esDosPuntos(s string) bool {
	switch len(s) {
	case 2:
		return s == ".."
	case 4:
		return strings.EqualFold(s, ".%2e") || strings.EqualFold(s, "%2e.")
	case 6:
		return strings.EqualFold(s, "%2e%2e")
	}
	return false
}
