package servidor

import (
	"net/http"
	"time"

	"cursohttp/pkg/respuesta"
	"cursohttp/pkg/topes"
)

// What the lab's pages share (the panel's timeline, the class pages of pkg/pizarra): one copy of
// their protections and of how they answer a line of text, so the pages cannot drift apart.

// ProtegerPagina: no other site may frame the page or load anything into it.
func ProtegerPagina(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
}

// ArchivosDePagina serves a page's scripts and styles from archivos with the pages' protections;
// they never change while the binary runs, and a projector left open reloads them anyway.
func ArchivosDePagina(archivos http.Handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ProtegerPagina(w)
		w.Header().Set("Cache-Control", "no-cache")
		archivos.ServeHTTP(w, r)
	}
}

// Texto answers one line of text with its Content-Length: a staged close ends the connection
// right after it, so the answer must say where it ends (a chunked one would be cut).
func Texto(w http.ResponseWriter, r *http.Request, codigo int, linea string) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	respuesta.Bytes(w, r, codigo, "text/plain; charset=utf-8", []byte(linea+"\n"))
}

// AntesDelCuerpo writes an answer (escribir) to a request whose body was not read to its end, as
// the revisor answers its 413: with "Connection: close", then the staged close (CerrarEnEtapas),
// which reads and throws away what the client is still sending for at most topes.EsperaCierre.
// Closing outright makes the kernel answer the rest of the upload with a reset, which erases the
// answer before a client still sending reads it (issue 34, item 4).
func AntesDelCuerpo(w http.ResponseWriter, r *http.Request, escribir func()) {
	if r.ContentLength == 0 {
		escribir()
		return
	}
	w.Header().Set("Connection", "close")
	escribir()
	CerrarEnEtapas(w, time.Now().Add(topes.EsperaCierre))
}
