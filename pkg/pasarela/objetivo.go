package pasarela

import (
	"net/url"
	"strings"
)

// The course's gateway asks fetch for DESTINO + the request target, so the revisor receives the
// target as a WHATWG URL parser leaves it: "." and ".." segments resolved, "\" read as "/", what a
// path or a query may not carry as is percent-encoded, the fragment dropped. The revisor logs the
// target it receives, so the gateway sends the same one.

// comoFetch returns the path and query the course's gateway would send for objetivo, behind a
// revisor whose base path is prefijo; an empty query is sent as none ("/x?" goes as "/x"), as fetch
// does. ok is false when objetivo does not start with "/" (asterisk or absolute form): DESTINO +
// objetivo is then no URL, and the course's gateway answers 502 without asking.
func comoFetch(prefijo, objetivo string) (camino, consulta string, ok bool) {
	if !strings.HasPrefix(objetivo, "/") {
		return "", "", false
	}
	objetivo, _, _ = strings.Cut(objetivo, "#")
	c, q, _ := strings.Cut(objetivo, "?")
	partes := strings.Split(strings.ReplaceAll(prefijo+c, `\`, "/"), "/")[1:]
	salida := make([]string, 0, len(partes))
	for i, p := range partes {
		ultimo := i == len(partes)-1
		switch strings.ToLower(p) {
		case "..", ".%2e", "%2e.", "%2e%2e":
			if len(salida) > 0 {
				salida = salida[:len(salida)-1]
			}
			if ultimo {
				salida = append(salida, "")
			}
		case ".", "%2e":
			if ultimo {
				salida = append(salida, "")
			}
		default:
			salida = append(salida, porciento(p, "\"#<>?`{}"))
		}
	}
	return "/" + strings.Join(salida, "/"), porciento(q, "\"#<>'"), true
}

// porciento percent-encodes controls, space, bytes above 0x7E and those in conjunto; a "%" already
// there stays as sent, well formed or not.
func porciento(s, conjunto string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= 0x20 || c >= 0x7f || strings.IndexByte(conjunto, c) >= 0 {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&0xf])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// urlHacia is the revisor's URL with that path and query, written on the request line byte for
// byte: net/http would otherwise re-escape a path it cannot decode ("%zz") or read "//x" as a host.
func urlHacia(destino *url.URL, camino, consulta string) *url.URL {
	u := &url.URL{Scheme: destino.Scheme, Host: destino.Host, RawQuery: consulta}
	if !strings.HasPrefix(camino, "//") {
		u.Opaque = camino // sent as is
		return u
	}
	// An opaque "//x" would be sent in absolute form; a decodable path is sent as is via RawPath.
	if p, err := url.PathUnescape(camino); err == nil {
		u.Path, u.RawPath = p, camino
	} else {
		u.Path = camino
	}
	return u
}
