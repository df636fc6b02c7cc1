// Package pizarra is the lab's two class pages, which the timeline's panel used to carry: the
// local mode's (laboratorio panel: results the graders post, kept in memory or a file; Montar puts
// it on the panel's mux, behind the panel's gate) and classroom mode's board (laboratorio clase:
// NuevoTablero, over the class's store), with the class lab's routes and files that laboratorio
// names without linking the class lab (sitioclase.go). Both serve web/clase.html, its script and
// its styles from the binary.
package pizarra

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/rs/zerolog"

	"cursohttp/pkg/respuesta"
	"cursohttp/pkg/resultados"
	"cursohttp/pkg/servidor"
	"cursohttp/pkg/token"
	"cursohttp/pkg/topes"
)

//go:embed web
var web embed.FS

// archivos serves the pages' files (web/): clase.html, clase.js, clase.css.
var archivos = func() http.Handler {
	sub, _ := fs.Sub(web, "web")
	return http.FileServerFS(sub)
}()

// The class page (issue 24.5): each student's last grading (revisor comprobar cliente --enviar),
// each check and when it last passed, live, for a projector. Posting needs the class token (or
// the lab's); reading it needs nothing, as the timeline page.
const (
	RutaClase      = "/clase"            // GET: the page
	RutaResultados = "/clase/resultados" // POST: one grading, JSON (resultados.Envio); GET: 204 if the token may post
	RutaEstado     = "/clase/estado"     // GET: the whole class, JSON, for the page
)

// EstadoNoJuzgada is a check that judged nothing (pkg/examen's EstadoNoJuzgada; not linked here).
const EstadoNoJuzgada = "no-juzgada"

// PistaClase ends a refused post of results: where a student gets the class token and how the
// grader sends it.
const PistaClase = "el token de la clase lo da el profesor (el panel lo dice al arrancar; «laboratorio lab token --clase» lo muestra); revisor comprobar cliente lo manda con --token o CURSOHTTP_TOKEN_CLASE"

// What a class can make the panel hold is bounded by pkg/topes: topes.Alumnos students, names of
// topes.NombreAlumno characters, topes.Comprobaciones checks a grading, topes.ResultadosBytes bytes
// a POST.

// Alumno is one student as the page shows it.
type Alumno struct {
	Nombre string                    `json:"nombre"`
	Ultima time.Time                 `json:"ultima"` // the last grading received
	Checks map[string]*EstadoDeCheck `json:"comprobaciones"`
}

// EstadoDeCheck is one check of one student: its last result and when it last passed.
type EstadoDeCheck struct {
	Paso     bool       `json:"paso"`
	Estado   string     `json:"estado,omitempty"` // "no-juzgada", or "" for what Paso says
	UltimoOK *time.Time `json:"ultima_vez_bien,omitempty"`
}

// Puerta is the gate of the server that mounts the class page (the panel's exigir: the lab's
// token, the class token or the instructor's session, from no other site): it lets r through if it
// may do what nivel allows, and otherwise answers the refusal and says false. Passed in, so this
// package links no panel.
type Puerta func(w http.ResponseWriter, r *http.Request, nivel token.Nivel) bool

// Clase is the local class page's results, kept in memory and, with a file, on disk after every
// change.
type Clase struct {
	mu      sync.Mutex
	archivo string
	alumnos map[string]*Alumno
	orden   []string // check ids in the order first seen: the page's columns
	ahora   func() time.Time
	log     zerolog.Logger // the mounting server's: a file that cannot be written is said there
}

// estadoClase is what the file and GET /clase/estado hold.
type estadoClase struct {
	Comprobaciones []string  `json:"comprobaciones"`
	Alumnos        []*Alumno `json:"alumnos"`
}

// GuardarEn keeps the class's results in archivo: what it holds is loaded now, and every result
// received is written to it, so they outlive a restart (laboratorio panel --datos).
func (c *Clase) GuardarEn(archivo string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, err := os.ReadFile(archivo)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("no puedo leer %s: %w", archivo, err)
	default:
		var e estadoClase
		if err := json.Unmarshal(b, &e); err != nil {
			return fmt.Errorf("%s no tiene los resultados de una clase: %v", archivo, err)
		}
		for _, a := range e.Alumnos {
			if a != nil && len(c.alumnos) < topes.Alumnos {
				if a.Checks == nil {
					a.Checks = map[string]*EstadoDeCheck{}
				}
				c.alumnos[a.Nombre] = a
			}
		}
		c.orden = e.Comprobaciones
	}
	c.archivo = archivo
	return c.guardar()
}

// guardar writes the file whole, through a temporary one renamed over it: a crash leaves the old
// results or the new ones, never half. Called with mu held.
func (c *Clase) guardar() error {
	if c.archivo == "" {
		return nil
	}
	b, _ := json.MarshalIndent(c.estado(), "", " ")
	tmp, err := os.CreateTemp(filepath.Dir(c.archivo), ".clase-*")
	if err != nil {
		return fmt.Errorf("no puedo guardar los resultados junto a %s: %w", c.archivo, err)
	}
	_, err = tmp.Write(b)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), c.archivo)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("no puedo guardar los resultados en %s: %w", c.archivo, err)
	}
	return nil
}

// estado is the class, students by name. Called with mu held.
func (c *Clase) estado() estadoClase {
	e := estadoClase{Comprobaciones: append([]string{}, c.orden...), Alumnos: []*Alumno{}}
	for _, a := range c.alumnos {
		e.Alumnos = append(e.Alumnos, a)
	}
	slices.SortFunc(e.Alumnos, func(a, b *Alumno) int { return strings.Compare(a.Nombre, b.Nombre) })
	return e
}

// Montar puts the local class page's routes on mux (the panel's), a post let through by exigir,
// and returns the results it keeps. log gets a results file that cannot be written.
func Montar(m *http.ServeMux, exigir Puerta, log zerolog.Logger) *Clase {
	c := &Clase{alumnos: map[string]*Alumno{}, ahora: time.Now, log: log}
	m.HandleFunc("POST "+RutaResultados, func(w http.ResponseWriter, r *http.Request) {
		if exigir(w, r, token.Clase) {
			c.recibirResultados(w, r)
		}
	})
	m.HandleFunc("GET "+RutaResultados, func(w http.ResponseWriter, r *http.Request) {
		// The grader asks this before grading a client (seconds of work), so that a wrong token
		// or address is said at once: the same guard as the POST, and nothing changes.
		if exigir(w, r, token.Clase) {
			w.Header().Set("Cache-Control", "no-store")
			w.WriteHeader(http.StatusNoContent)
		}
	})
	m.HandleFunc("GET "+RutaEstado, func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		b, _ := json.Marshal(c.estado())
		c.mu.Unlock()
		w.Header().Set("Cache-Control", "no-store")
		respuesta.Bytes(w, r, http.StatusOK, "application/json", append(b, '\n'))
	})
	m.HandleFunc("GET "+RutaClase, func(w http.ResponseWriter, r *http.Request) {
		r2 := r.Clone(r.Context())
		r2.URL.Path = "/clase.html"
		servirArchivo(w, r2)
	})
	m.HandleFunc("GET /clase.js", servirArchivo)
	m.HandleFunc("GET /clase.css", servirArchivo)
	return c
}

// servirArchivo serves one of the class pages' files, with the pages' protections.
var servirArchivo = servidor.ArchivosDePagina(archivos)

// recibirResultados takes one grading: the student's name (text, shown as text) and each check's
// id and result.
func (c *Clase) recibirResultados(w http.ResponseWriter, r *http.Request) {
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, topes.ResultadosBytes))
	var res resultados.Envio
	if err == nil {
		err = json.Unmarshal(b, &res)
	}
	if err != nil {
		http.Error(w, "el cuerpo debe ser un JSON con alumno y comprobaciones (revisor comprobar cliente --enviar lo manda)", http.StatusBadRequest)
		return
	}
	nombre := strings.TrimSpace(res.Alumno)
	if motivo := nombreMalo(nombre); motivo != "" {
		http.Error(w, "alumno: "+motivo, http.StatusBadRequest)
		return
	}
	if len(res.Comprobaciones) == 0 || len(res.Comprobaciones) > topes.Comprobaciones {
		http.Error(w, fmt.Sprintf("comprobaciones: de 1 a %d", topes.Comprobaciones), http.StatusBadRequest)
		return
	}
	for _, x := range res.Comprobaciones {
		if !idBueno(x.ID) {
			http.Error(w, "comprobaciones: cada id es de 1 a 40 letras minúsculas, cifras y guiones", http.StatusBadRequest)
			return
		}
		if x.Estado != "" && x.Estado != "paso" && x.Estado != "fallo" && x.Estado != EstadoNoJuzgada {
			http.Error(w, "comprobaciones: estado es paso, fallo o "+EstadoNoJuzgada, http.StatusBadRequest)
			return
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	a := c.alumnos[nombre]
	if a == nil {
		if len(c.alumnos) >= topes.Alumnos {
			http.Error(w, fmt.Sprintf("la clase ya tiene %d alumnos", topes.Alumnos), http.StatusConflict)
			return
		}
		a = &Alumno{Nombre: nombre, Checks: map[string]*EstadoDeCheck{}}
		c.alumnos[nombre] = a
	}
	ahora := c.ahora().UTC()
	a.Ultima = ahora
	for _, x := range res.Comprobaciones {
		if !slices.Contains(c.orden, x.ID) && len(c.orden) < 4*topes.Comprobaciones {
			c.orden = append(c.orden, x.ID)
		}
		e := a.Checks[x.ID]
		if e == nil {
			if len(a.Checks) >= 4*topes.Comprobaciones {
				continue
			}
			e = &EstadoDeCheck{}
			a.Checks[x.ID] = e
		}
		e.Paso, e.Estado = x.Paso, ""
		if x.Estado == EstadoNoJuzgada {
			e.Paso, e.Estado = false, EstadoNoJuzgada
		}
		if e.Paso {
			t := ahora
			e.UltimoOK = &t
		}
	}
	if err := c.guardar(); err != nil {
		c.log.Error().Err(err).Msg("panel: " + err.Error())
	}
	w.WriteHeader(http.StatusNoContent)
}

func nombreMalo(n string) string {
	switch {
	case n == "":
		return "falta el nombre"
	case !utf8.ValidString(n):
		return "no es UTF-8"
	case utf8.RuneCountInString(n) > topes.NombreAlumno:
		return fmt.Sprintf("de 1 a %d caracteres", topes.NombreAlumno)
	case strings.ContainsFunc(n, unicode.IsControl):
		return "sin caracteres de control"
	}
	return ""
}

func idBueno(id string) bool {
	if id == "" || len(id) > 40 {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}
