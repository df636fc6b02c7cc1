// Package grabacion records what a server answers, one exchange per line of JSON, so a test can
// check every response against the API's OpenAPI document (internal/contrato). It is a hidden
// hook: the revisor records only when the environment names a file (Variable), which the scene
// replayer does; nothing a student sees changes, since the recorder only copies what the handler
// writes.
package grabacion

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"
)

// Variable names the file the revisor appends its exchanges to. Unset, nothing is recorded.
const Variable = "CURSOHTTP_GRABAR"

// TopeCuerpo bounds the bytes of a body kept per exchange; a longer one is kept cut, and Truncado
// says so (a validator cannot check a body it does not have whole).
const TopeCuerpo = 1 << 20

// Intercambio is one request and what the handler answered to it.
type Intercambio struct {
	Metodo    string      `json:"metodo"`
	Ruta      string      `json:"ruta"`               // the request target as it came (path and query)
	Peticion  http.Header `json:"peticion,omitempty"` // the request's headers
	Codigo    int         `json:"codigo"`
	Cabeceras http.Header `json:"cabeceras"` // as the handler set them, names as written
	Cuerpo    []byte      `json:"cuerpo,omitempty"`
	// Truncado: the body passed TopeCuerpo. Cortado: the handler gave up mid-answer (the client
	// saw a connection cut, not a response).
	Truncado bool `json:"truncado,omitempty"`
	Cortado  bool `json:"cortado,omitempty"`
}

// Envolver records every exchange h answers and hands it to anotar when h returns. anotar must
// be safe for concurrent use.
func Envolver(h http.Handler, anotar func(Intercambio)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		g := &grabador{ResponseWriter: w}
		terminado := false
		defer func() {
			i := Intercambio{Metodo: r.Method, Ruta: r.RequestURI, Peticion: r.Header.Clone(), Codigo: g.codigo, Cabeceras: g.cabeceras,
				Cuerpo: g.cuerpo, Truncado: g.truncado, Cortado: !terminado}
			if i.Codigo == 0 {
				i.Codigo = http.StatusOK // what net/http sends for a handler that wrote nothing
				i.Cabeceras = w.Header().Clone()
			}
			if r.Method == http.MethodHead {
				i.Cuerpo, i.Truncado = nil, false // net/http sends none
			}
			anotar(i)
		}()
		h.ServeHTTP(g, r)
		terminado = true
	})
}

type grabador struct {
	http.ResponseWriter
	codigo    int
	cabeceras http.Header
	cuerpo    []byte
	truncado  bool
}

func (g *grabador) WriteHeader(codigo int) {
	if g.codigo == 0 && codigo >= 200 {
		g.codigo = codigo
		g.cabeceras = g.ResponseWriter.Header().Clone()
	}
	g.ResponseWriter.WriteHeader(codigo)
}

func (g *grabador) Write(p []byte) (int, error) {
	if g.codigo == 0 {
		g.WriteHeader(http.StatusOK)
	}
	if cabe := TopeCuerpo - len(g.cuerpo); cabe < len(p) {
		g.cuerpo = append(g.cuerpo, p[:max(cabe, 0)]...)
		g.truncado = true
	} else {
		g.cuerpo = append(g.cuerpo, p...)
	}
	return g.ResponseWriter.Write(p)
}

// Unwrap lets http.ResponseController reach Flush, Hijack and the deadlines.
func (g *grabador) Unwrap() http.ResponseWriter { return g.ResponseWriter }

// Archivo writes exchanges to w, one JSON line each, one at a time.
type Archivo struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

// NuevoArchivo writes to w.
func NuevoArchivo(w io.Writer) *Archivo { return &Archivo{w: w} }

// Anotar writes i. After the first error nothing more is written: a recording that cannot be
// written must not take the server down (the validator then finds fewer exchanges, not wrong ones).
func (a *Archivo) Anotar(i Intercambio) {
	b, err := json.Marshal(i)
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.err != nil {
		return
	}
	if err == nil {
		_, err = a.w.Write(append(b, '\n'))
	}
	a.err = err
}

// DesdeEntorno opens the file that Variable names (appending: a restarted server adds to the
// same recording) and returns the handler that records into it, or h itself when the variable is
// unset. cerrar closes the file.
func DesdeEntorno(h http.Handler, entorno func(string) (string, bool)) (envuelto http.Handler, cerrar func() error, err error) {
	ruta, ok := entorno(Variable)
	if !ok || ruta == "" {
		return h, func() error { return nil }, nil
	}
	f, err := os.OpenFile(ruta, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("no se pudo abrir la grabación %s: %w", ruta, err)
	}
	a := NuevoArchivo(f)
	return Envolver(h, a.Anotar), f.Close, nil
}

// Leer reads a recording back.
func Leer(r io.Reader) ([]Intercambio, error) {
	var is []Intercambio
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 4*TopeCuerpo)
	for n := 1; sc.Scan(); n++ {
		var i Intercambio
		if err := json.Unmarshal(sc.Bytes(), &i); err != nil {
			return nil, fmt.Errorf("línea %d de la grabación: %w", n, err)
		}
		is = append(is, i)
	}
	return is, sc.Err()
}
