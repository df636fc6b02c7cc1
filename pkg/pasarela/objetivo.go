package pasarela

import (
	"net/url"
	"strings"

	"cursohttp/internal/nodejs"
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
	c, q, _ := nodejs.Partir(objetivo)
	// prefijo is a URL's escaped path: empty or starting with "/", the slash that opens the path.
	return nodejs.Ruta((prefijo + c)[1:]), nodejs.Escapar(q, nodejs.EnConsulta), true
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
