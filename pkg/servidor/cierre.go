package servidor

import (
	"io"
	"net/http"
	"time"
)

// PeticionIlegible answers as Node's HTTP parser answers a request it cannot read (an unknown
// method, a malformed chunk): a bare "400 Bad Request" with "Connection: close", and the
// connection closed, before the handler's own answer could be written.
func PeticionIlegible(w http.ResponseWriter) {
	conn, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		w.Header()["Connection"] = []string{"close"}
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	defer conn.Close()
	buf.WriteString("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n")
	buf.Flush()
}

// CerrarEnEtapas closes a connection whose answer went out before the request's body was read
// (RFC 9112 §9.6): call it once the answer, with "Connection: close", is written. It sends the
// answer, closes the write side, and reads and throws away what the client is still sending until
// it closes or the deadline passes. Closing outright would make the kernel answer the rest of the
// upload with a reset, which can erase the answer before the client reads it; net/http alone
// half-closes and waits 500 ms without reading, which a client still sending can still turn into
// a reset, so the connection is taken over here.
func CerrarEnEtapas(w http.ResponseWriter, hasta time.Time) {
	rc := http.NewResponseController(w)
	if rc.Flush() != nil {
		return
	}
	conn, buf, err := rc.Hijack()
	if err != nil {
		// Not hijackable (HTTP/2, a recorder): "Connection: close" is all there is.
		return
	}
	defer conn.Close()
	if cw, ok := conn.(interface{ CloseWrite() error }); ok {
		cw.CloseWrite()
	}
	conn.SetReadDeadline(hasta)
	io.Copy(io.Discard, buf.Reader)
}
