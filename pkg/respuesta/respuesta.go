// Package respuesta writes the suite's responses as the course frames them: exact header names in
// the course's order, the course's status lines, JSON.stringify bodies with a final newline and an
// explicit Content-Length.
package respuesta

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"

	"cursohttp/internal/nodejs"
	"cursohttp/pkg/encabezado"
	"cursohttp/pkg/topes"
)

// Cabecera is one response header, its name written as the course writes it.
type Cabecera struct{ Nombre, Valor string }

// Poner sets each header under the exact name given. net/http would canonicalise "ETag" to "Etag" and
// "WWW-Authenticate" to "Www-Authenticate"; names are case-insensitive, but a student compares
// `curl -i` with the lesson.
func Poner(h http.Header, cabeceras ...Cabecera) {
	valores := make([]string, len(cabeceras)) // one allocation for every value
	for i, c := range cabeceras {
		valores[i] = c.Valor
		poner(h, c.Nombre, valores[i:i+1:i+1])
	}
}

// poner sets nombre to valores, after removing any other spelling of nombre ("Etag" for "ETag").
// valores is clipped (cap = len): an Add to the header copies it instead of writing into it.
func poner(h http.Header, nombre string, valores []string) {
	for k := range h {
		if k != nombre && strings.EqualFold(k, nombre) {
			delete(h, k)
		}
	}
	h[nombre] = valores
}

// Bytes sends codigo with a body of the given media type.
func Bytes(w http.ResponseWriter, r *http.Request, codigo int, tipo string, cuerpo []byte, cabeceras ...Cabecera) {
	cabeza(w, r, codigo, tipo, len(cuerpo), cabeceras...)
	w.Write(cuerpo)
}

// cabeza sets the answer's head as the course's enviarJson does: {...cabeceras, Content-Type,
// Content-Length}, in that order on the wire (a Content-Type among cabeceras keeps its place and
// takes tipo as its value, as a spread object keeps a key's first place).
func cabeza(w http.ResponseWriter, r *http.Request, codigo int, tipo string, largo int, cabeceras ...Cabecera) {
	h := w.Header()
	// One allocation for every value of the answer's head, the given headers' and the two of framing.
	n := len(cabeceras)
	valores := make([]string, n+2)
	var arreglo [8]string
	orden := arreglo[:0]
	for i, c := range cabeceras {
		valores[i] = c.Valor
		poner(h, c.Nombre, valores[i:i+1:i+1])
		orden = append(orden, c.Nombre)
	}
	valores[n], valores[n+1] = tipo, strconv.Itoa(largo)
	h["Content-Type"] = valores[n : n+1 : n+1]
	h["Content-Length"] = valores[n+1 : n+2 : n+2]
	encabezado.Escribir(w, r, codigo, append(orden, "Content-Type", "Content-Length")...)
}

// Terminar answers as a Node program that calls writeHead(codigo, cabeceras) and then end(cuerpo)
// (the course's fake gateway and hostile service): the program sets no length, so Node frames the
// body itself, after its Date and Connection lines. Node frames it chunked; the suite sends the same
// bytes with a Content-Length in that place. 204 and 304 carry neither length nor body.
func Terminar(w http.ResponseWriter, r *http.Request, codigo int, cuerpo []byte, cabeceras ...Cabecera) {
	h := w.Header()
	Poner(h, cabeceras...)
	var arreglo [8]string
	orden := arreglo[:0]
	for _, c := range cabeceras {
		orden = append(orden, c.Nombre)
	}
	if codigo == http.StatusNoContent || codigo == http.StatusNotModified {
		encabezado.Escribir(w, r, codigo, orden...)
		return
	}
	h["Content-Length"] = []string{strconv.Itoa(len(cuerpo))}
	encabezado.Escribir(w, r, codigo, orden...)
	w.Write(cuerpo)
}

// ListaJSON sends {"<miembro>":[e(0),…,e(n-1)]} and a newline, application/json, the same bytes
// JSON sends for that object, with its Content-Length. A body up to topes.Listado is built and sent at
// once; a longer one is never held whole: its elements are encoded once to count them and again,
// one at a time, as they are sent, so memory stays at topes.Listado plus one element however long the
// list. e must give the same element both times.
func ListaJSON(w http.ResponseWriter, r *http.Request, codigo int, miembro string, n int, e func(int) any, cabeceras ...Cabecera) {
	var b bytes.Buffer
	b.WriteByte('{')
	nodejs.EscribirTextoJSON(&b, miembro)
	b.WriteString(":[")
	i := 0
	for ; i < n && b.Len() <= topes.Listado; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		nodejs.AgregarJSON(&b, e(i))
	}
	const fin = "]}\n"
	if i == n {
		b.WriteString(fin)
		Bytes(w, r, codigo, "application/json", b.Bytes(), cabeceras...)
		return
	}
	largo := b.Len() + len(fin)
	var uno bytes.Buffer
	for j := i; j < n; j++ {
		uno.Reset()
		nodejs.AgregarJSON(&uno, e(j))
		largo += 1 + uno.Len()
	}
	cabeza(w, r, codigo, "application/json", largo, cabeceras...)
	if r.Method == http.MethodHead {
		return
	}
	if _, err := w.Write(b.Bytes()); err != nil {
		return
	}
	for j := i; j < n; j++ {
		uno.Reset()
		uno.WriteByte(',')
		nodejs.AgregarJSON(&uno, e(j))
		if _, err := w.Write(uno.Bytes()); err != nil {
			return // the client left
		}
	}
	w.Write([]byte(fin))
}

// ArmarLista builds whole the body ListaJSON sends for the same list, to be sent many times (see
// Preparar), in a buffer of reserva bytes to start with; false, and nothing kept, once the body
// passes tope bytes.
func ArmarLista(miembro string, n int, e func(int) any, reserva, tope int) ([]byte, bool) {
	var b bytes.Buffer
	b.Grow(min(reserva, tope))
	b.WriteByte('{')
	nodejs.EscribirTextoJSON(&b, miembro)
	b.WriteString(":[")
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		nodejs.AgregarJSON(&b, e(i))
		if b.Len() > tope {
			return nil, false
		}
	}
	b.WriteString("]}\n")
	if b.Len() > tope {
		return nil, false
	}
	return b.Bytes(), true
}

// JSON sends datos as JSON.stringify(datos) + "\n", application/json.
func JSON(w http.ResponseWriter, r *http.Request, codigo int, datos any, cabeceras ...Cabecera) {
	cuerpo := append(nodejs.CodificarJSON(datos), '\n')
	Bytes(w, r, codigo, "application/json", cuerpo, cabeceras...)
}

// Vacio sends a response without content: 204 and 304 carry no Content-Length (RFC 9110 §8.6),
// everything else says "Content-Length: 0".
func Vacio(w http.ResponseWriter, r *http.Request, codigo int, cabeceras ...Cabecera) {
	h := w.Header()
	Poner(h, cabeceras...)
	var arreglo [8]string
	orden := arreglo[:0]
	for _, c := range cabeceras {
		orden = append(orden, c.Nombre)
	}
	if codigo != http.StatusNoContent && codigo != http.StatusNotModified {
		h["Content-Length"] = []string{"0"}
		orden = append(orden, "Content-Length")
	}
	encabezado.Escribir(w, r, codigo, orden...)
}

// Ruta returns the path of the request target as a browser's URL parser (WHATWG) gives it, which is
// what the course matches routes against and puts in `instance`: no query or fragment, backslashes as
// slashes, "." and ".." segments resolved (also written as %2e), spaces, quotes, <, >, `, {, } and
// non-ASCII bytes percent-encoded, the rest left as sent.
func Ruta(r *http.Request) string {
	objetivo := r.RequestURI
	if objetivo == "" && r.URL != nil {
		objetivo = r.URL.RequestURI()
	}
	return RutaDe(objetivo)
}

// RutaDe is Ruta for a raw request target.
func RutaDe(objetivo string) string {
	objetivo, _, _ = nodejs.Partir(objetivo)
	switch {
	case len(objetivo) >= 2 && objetivo[0] == '/' && (objetivo[1] == '/' || objetivo[1] == '\\'):
		// "//host/x" is a scheme-relative URL to a parser: what follows the slashes is a host.
		objetivo = sinHost(strings.TrimLeft(objetivo, "/\\"))
	case !strings.HasPrefix(objetivo, "/") && strings.Contains(objetivo, "://"):
		// absolute-form ("GET http://host/x HTTP/1.1"): keep only the path.
		_, resto, _ := strings.Cut(objetivo, "://")
		objetivo = sinHost(resto)
	}
	// A target without its opening slash ("*") reads as if it had one.
	if objetivo == "" || (objetivo[0] != '/' && objetivo[0] != '\\') {
		return nodejs.Ruta(objetivo)
	}
	return nodejs.RutaConBarra(objetivo)
}

// sinHost drops the authority at the start of s and keeps the path.
func sinHost(s string) string {
	if j := strings.IndexAny(s, "/\\"); j >= 0 {
		return s[j:]
	}
	return "/"
}

// Preparada is an answer computed once and sent many times (a service's representation until it
// changes): its head is ready to set, so sending it allocates nothing. Build it with Preparar or
// PrepararVacia; it is never changed afterwards, so any number of requests may send it at once.
type Preparada struct {
	codigo    int
	cabeceras []preparada
	orden     []string // their names, in order
	cuerpo    []byte
	vacia     bool
}

type preparada struct {
	nombre  string
	valores []string // clipped: an Add to the response's header copies them
}

// Preparar is what Bytes would send: codigo, the headers, the media type, the body and its length.
func Preparar(codigo int, tipo string, cuerpo []byte, cabeceras ...Cabecera) *Preparada {
	cabeceras = append(cabeceras[:len(cabeceras):len(cabeceras)],
		Cabecera{"Content-Type", tipo}, Cabecera{"Content-Length", strconv.Itoa(len(cuerpo))})
	return preparar(codigo, cuerpo, false, cabeceras)
}

// PrepararVacia is what Vacio would send.
func PrepararVacia(codigo int, cabeceras ...Cabecera) *Preparada {
	if codigo != http.StatusNoContent && codigo != http.StatusNotModified {
		cabeceras = append(cabeceras[:len(cabeceras):len(cabeceras)], Cabecera{"Content-Length", "0"})
	}
	return preparar(codigo, nil, true, cabeceras)
}

func preparar(codigo int, cuerpo []byte, vacia bool, cabeceras []Cabecera) *Preparada {
	p := &Preparada{codigo: codigo, cuerpo: cuerpo, vacia: vacia}
	for _, c := range cabeceras {
		p.cabeceras = append(p.cabeceras, preparada{c.Nombre, []string{c.Valor}})
		p.orden = append(p.orden, c.Nombre)
	}
	return p
}

// Enviar sends p as the answer to r.
func (p *Preparada) Enviar(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	for _, c := range p.cabeceras {
		poner(h, c.nombre, c.valores[:1:1])
	}
	encabezado.Escribir(w, r, p.codigo, p.orden...)
	if !p.vacia {
		w.Write(p.cuerpo)
	}
}
