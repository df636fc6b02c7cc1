package pizarra

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"net/http"
	"time"

	"github.com/rs/zerolog"

	"cursohttp/pkg/matricula"
	"cursohttp/pkg/respuesta"
	"cursohttp/pkg/servidor"
	"cursohttp/pkg/token"
	"cursohttp/pkg/topes"
)

// The class board of classroom mode (laboratorio clase, issue 31): the roster of the class's store
// (pkg/matricula), each student's last grading as the class lab judged it, live, for a projector;
// a student's history on a click; and, for the instructor, removing a row or clearing the board.
// Unlike the local class page (clase.go) it takes no result from anybody: every verdict is the
// lab's own, appended to the store by the lab.
const (
	ModoClase          = "clase"                                  // estado's modo
	RutaAlumnoClase    = "/clase/alumnos/{nombre}"                // DELETE: quit a student (the instructor's)
	RutaHistorial      = "/clase/alumnos/{nombre}/calificaciones" // GET: a student's gradings; DELETE: forget them (the instructor's)
	RutaCalificaciones = "/clase/calificaciones"                  // DELETE: clear the board (the instructor's)
)

// SinVeredictosDeFuera is what POST /clase/resultados answers in classroom mode (410).
const SinVeredictosDeFuera = "en el modo clase cada veredicto lo calcula el laboratorio: no acepta ninguno de fuera " +
	"(revisor comprobar cliente --enviar es del modo local, «laboratorio panel»)"

// MotivoDelProfesor is a refused change of the board (401).
const MotivoDelProfesor = "quitar alumnos y limpiar la pizarra es del profesor: con su token (Authorization: Bearer …) " +
	"o desde la página abierta con su enlace de una vez («laboratorio clase entrar»)"

// esperaAlmacen bounds each request's calls to the store: a store that hangs costs a page one
// answer, not a connection held open.
const esperaAlmacen = 5 * time.Second

// OpcionesTablero configure a Tablero.
type OpcionesTablero struct {
	Almacen  matricula.Almacen
	Columnas []Columna // the grader's own table of checks, in order: the board's columns, and only these
	// Instructor says whether a request carries the instructor's token or session (the class lab
	// passes it); nil: nobody is.
	Instructor func(*http.Request) bool
	// Dir is the class's folder: a student removed from the page leaves its list of
	// credentials (credenciales.txt) at once. "": the list is the instructor's orders' only.
	Dir string
	// Log gets one line per change of the board and per failure of the store (whose error is not
	// shown to the page); nothing when zero.
	Log zerolog.Logger
}

// Columna is one check of the grader's table. Autodeclarada: it rests on what the student's
// machine reported (the client's exit code), not on what the lab saw.
type Columna struct {
	ID            string `json:"id"`
	Premisa       string `json:"premisa"`
	Autodeclarada bool   `json:"autodeclarada"`
}

// Tablero is the class board's http.Handler.
type Tablero struct {
	o        OpcionesTablero
	rutas    *http.ServeMux
	pagina   []byte         // clase.html, told it is classroom mode
	columnas map[string]int // a column's id → its place
}

// estadoTablero is GET /clase/estado in classroom mode.
type estadoTablero struct {
	Modo       string        `json:"modo"`       // ModoClase
	Instructor bool          `json:"instructor"` // the request's own: the page shows the instructor's buttons
	Columnas   []Columna     `json:"columnas"`
	Alumnos    []filaTablero `json:"alumnos"` // the roster's order
}

// filaTablero is one student of the roster: pending, or its last grading's time and the state
// of each column's check ("paso", "fallo", "no-juzgada"; absent when that grading lacks it).
type filaTablero struct {
	Nombre    string            `json:"nombre"`
	Pendiente bool              `json:"pendiente,omitempty"` // never graded (so no history either)
	Ultima    *time.Time        `json:"ultima,omitempty"`
	Checks    map[string]string `json:"comprobaciones,omitempty"`
}

// historialTablero is GET /clase/alumnos/{nombre}/calificaciones: the newest grading first.
type historialTablero struct {
	Alumno         string                `json:"alumno"`
	Calificaciones []calificacionTablero `json:"calificaciones"`
}

// calificacionTablero is one grading in a history. Anybody reads when it was and what each check
// gave; its id, seed and report only the instructor: the report is what the student's terminal
// showed, with the student's command line and what the client printed (issue 40, item 7).
type calificacionTablero struct {
	ID             string                `json:"id,omitempty"`
	Inicio         time.Time             `json:"inicio"`
	Fin            time.Time             `json:"fin"`
	Semilla        uint64                `json:"semilla,string,omitempty"` // a string: JavaScript's numbers stop at 2^53
	Comprobaciones []matricula.Veredicto `json:"comprobaciones"`           // the columns' checks, in their order
	Informe        string                `json:"informe,omitempty"`
}

// Where clase.html says what it is for; the board serves it told it is classroom mode.
const (
	lugarDelTitulo = `<title>La clase — revisor comprobar cliente</title>`
	lugarDelComo   = `<p class="como"><code>revisor comprobar cliente --enviar … --alumno …</code> · lo declara cada alumno</p>`
)

// NuevoTablero builds the board over o.Almacen.
func NuevoTablero(o OpcionesTablero) *Tablero {
	if o.Instructor == nil {
		o.Instructor = func(*http.Request) bool { return false }
	}
	html, _ := fs.ReadFile(web, "web/clase.html")
	if !bytes.Contains(html, []byte(lugarDelTitulo)) || !bytes.Contains(html, []byte(lugarDelComo)) {
		panic("pizarra: clase.html ya no tiene el título o la línea que el tablero reemplaza")
	}
	html = bytes.Replace(html, []byte(lugarDelTitulo),
		[]byte(`<title>La clase — laboratorio clase</title>`+"\n"+`<meta name="modo" content="clase">`), 1)
	html = bytes.Replace(html, []byte(lugarDelComo), []byte(`<p class="como">modo clase: cada veredicto lo da el laboratorio</p>`), 1)
	t := &Tablero{o: o, pagina: html, columnas: map[string]int{}}
	for i, c := range o.Columnas {
		t.columnas[c.ID] = i
	}
	m := http.NewServeMux()
	m.HandleFunc("GET "+RutaClase, t.servirPagina)
	m.HandleFunc("GET /clase.js", servirArchivo)
	m.HandleFunc("GET /clase.css", servirArchivo)
	m.HandleFunc("GET "+RutaEstado, t.estado)
	m.HandleFunc("GET "+RutaHistorial, t.historial)
	m.HandleFunc("DELETE "+RutaAlumnoClase, t.quitar)
	m.HandleFunc("DELETE "+RutaHistorial, t.limpiarAlumno)
	m.HandleFunc("DELETE "+RutaCalificaciones, t.limpiarTodo)
	m.HandleFunc("GET "+RutaExportarNotas, t.exportarNotas)
	// Whatever the method: the local mode's grader posting, or asking first whether it may.
	m.HandleFunc(RutaResultados, func(w http.ResponseWriter, r *http.Request) {
		servidor.AntesDelCuerpo(w, r, func() { servidor.Texto(w, r, http.StatusGone, SinVeredictosDeFuera) })
	})
	// The board's paths with another method: 405 in the course's language, with Allow.
	for ruta, permitidos := range map[string]string{RutaClase: "GET, HEAD", "/clase.js": "GET, HEAD", "/clase.css": "GET, HEAD",
		RutaEstado: "GET, HEAD", RutaHistorial: "GET, HEAD, DELETE", RutaAlumnoClase: "DELETE", RutaCalificaciones: "DELETE",
		RutaExportarNotas: "GET, HEAD"} {
		m.HandleFunc(ruta, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Allow", permitidos)
			servidor.AntesDelCuerpo(w, r, func() { servidor.Texto(w, r, http.StatusMethodNotAllowed, "método no admitido: "+permitidos) })
		})
	}
	m.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		servidor.AntesDelCuerpo(w, r, func() {
			servidor.Texto(w, r, http.StatusNotFound, "no existe: la pizarra de la clase está en "+RutaClase)
		})
	})
	t.rutas = m
	return t
}

func (t *Tablero) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// Each answer within the panel's write deadline: a page that never reads holds no connection.
	http.NewResponseController(w).SetWriteDeadline(time.Now().Add(topes.EsperaEscritura))
	servidor.ProtegerPagina(w)
	h := w.Header()
	// What the board says depends on who asks (instructor) and changes every grading.
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	t.rutas.ServeHTTP(w, r)
}

func (t *Tablero) servirPagina(w http.ResponseWriter, r *http.Request) {
	// The same for everybody (who is the instructor is in the estado's JSON): a cache may keep it.
	w.Header().Set("Cache-Control", "no-cache")
	respuesta.Bytes(w, r, http.StatusOK, "text/html; charset=utf-8", t.pagina)
}

// estado is the whole board: two calls to the store whatever the class's size (the roster, then
// every last grading at once), at most topes.Alumnos rows.
func (t *Tablero) estado(w http.ResponseWriter, r *http.Request) {
	ctx, cancelar := context.WithTimeout(r.Context(), esperaAlmacen)
	defer cancelar()
	alumnos, err := t.o.Almacen.Alumnos(ctx)
	if err != nil {
		t.fallaDelAlmacen(w, r, "leer la lista", err)
		return
	}
	ultimas, err := t.o.Almacen.Ultimas(ctx)
	if err != nil {
		t.fallaDelAlmacen(w, r, "leer las calificaciones", err)
		return
	}
	alumnos = alumnos[:min(len(alumnos), topes.Alumnos)]
	e := estadoTablero{Modo: ModoClase, Instructor: t.o.Instructor(r), Columnas: t.o.Columnas, Alumnos: make([]filaTablero, 0, len(alumnos))}
	if e.Columnas == nil {
		e.Columnas = []Columna{}
	}
	for _, a := range alumnos {
		f := filaTablero{Nombre: a.Nombre}
		c, ok := ultimas[a.Nombre]
		if !ok {
			f.Pendiente = true
			e.Alumnos = append(e.Alumnos, f)
			continue
		}
		if !c.Fin.IsZero() {
			fin := c.Fin.UTC()
			f.Ultima = &fin
		}
		f.Checks = make(map[string]string, len(t.o.Columnas))
		for _, v := range t.veredictos(c.Comprobaciones) {
			f.Checks[v.ID] = v.Estado
		}
		e.Alumnos = append(e.Alumnos, f)
	}
	b, _ := json.Marshal(e)
	respuesta.Bytes(w, r, http.StatusOK, "application/json", append(b, '\n'))
}

// veredictos are a grading's checks that are columns, in the columns' order, each marked
// autodeclarada as its column is: a check the grader's table no longer has, or a state no grader
// writes, is not shown.
func (t *Tablero) veredictos(vs []matricula.Veredicto) []matricula.Veredicto {
	puestos := make([]*matricula.Veredicto, len(t.o.Columnas))
	for _, v := range vs {
		i, ok := t.columnas[v.ID]
		if !ok || puestos[i] != nil || (v.Estado != "paso" && v.Estado != "fallo" && v.Estado != EstadoNoJuzgada) {
			continue
		}
		puestos[i] = &matricula.Veredicto{ID: v.ID, Estado: v.Estado, Autodeclarada: t.o.Columnas[i].Autodeclarada}
	}
	res := make([]matricula.Veredicto, 0, len(vs))
	for _, v := range puestos {
		if v != nil {
			res = append(res, *v)
		}
	}
	return res
}

// historial is one student's gradings, the newest first: what graded (when, each check) for
// anybody, and for the instructor also each one's report.
func (t *Tablero) historial(w http.ResponseWriter, r *http.Request) {
	nombre := r.PathValue("nombre")
	ctx, cancelar := context.WithTimeout(r.Context(), esperaAlmacen)
	defer cancelar()
	if !t.enLaLista(ctx, w, r, nombre) {
		return
	}
	cs, err := t.o.Almacen.Historial(ctx, nombre)
	if errors.Is(err, matricula.ErrNoEsta) {
		servidor.Texto(w, r, http.StatusNotFound, noEsta(nombre))
		return
	}
	if err != nil {
		t.fallaDelAlmacen(w, r, "leer el historial", err)
		return
	}
	instructor := t.o.Instructor(r)
	h := historialTablero{Alumno: nombre, Calificaciones: make([]calificacionTablero, 0, min(len(cs), topes.HistorialClase))}
	for _, c := range cs[:min(len(cs), topes.HistorialClase)] {
		ct := calificacionTablero{Inicio: c.Inicio.UTC(), Fin: c.Fin.UTC(), Comprobaciones: t.veredictos(c.Comprobaciones)}
		if instructor {
			ct.ID, ct.Semilla, ct.Informe = c.ID, c.Semilla, c.Informe
			if len(ct.Informe) > topes.InformeClase {
				ct.Informe = ct.Informe[:topes.InformeClase]
			}
		}
		h.Calificaciones = append(h.Calificaciones, ct)
	}
	b, _ := json.Marshal(h)
	respuesta.Bytes(w, r, http.StatusOK, "application/json", append(b, '\n'))
}

// enLaLista answers 404 for a name the roster does not have (a store may answer an empty history
// for it instead of ErrNoEsta) and says false.
func (t *Tablero) enLaLista(ctx context.Context, w http.ResponseWriter, r *http.Request, nombre string) bool {
	alumnos, err := t.o.Almacen.Alumnos(ctx)
	if err != nil {
		t.fallaDelAlmacen(w, r, "leer la lista", err)
		return false
	}
	for _, a := range alumnos {
		if a.Nombre == nombre {
			return true
		}
	}
	servidor.Texto(w, r, http.StatusNotFound, noEsta(nombre))
	return false
}

func noEsta(nombre string) string {
	return "«" + nombre + "» no está en la lista de la clase"
}

// quitar removes a student: its row, its credential and its gradings.
func (t *Tablero) quitar(w http.ResponseWriter, r *http.Request) {
	if !t.delProfesor(w, r) {
		return
	}
	nombre := r.PathValue("nombre")
	ctx, cancelar := context.WithTimeout(r.Context(), esperaAlmacen)
	defer cancelar()
	err := t.o.Almacen.Quitar(ctx, nombre)
	if err == nil && t.o.Dir != "" {
		if ruta, err := ActualizarCredenciales(t.o.Dir, CambioDeCredenciales{Quitar: []string{nombre}}); err != nil {
			t.o.Log.Error().Err(err).Msg("clase: no pude quitar a «" + nombre + "» de " + ruta + ": " + err.Error())
		}
	}
	t.cambiar(w, r, err, nombre, "quitar a «"+nombre+"»", "quitó a «"+nombre+"» de la clase")
}

// limpiarAlumno forgets one student's gradings: its row reads «pendiente» again.
func (t *Tablero) limpiarAlumno(w http.ResponseWriter, r *http.Request) {
	if !t.delProfesor(w, r) {
		return
	}
	nombre := r.PathValue("nombre")
	ctx, cancelar := context.WithTimeout(r.Context(), esperaAlmacen)
	defer cancelar()
	if !t.enLaLista(ctx, w, r, nombre) {
		return
	}
	t.cambiar(w, r, t.o.Almacen.Limpiar(ctx, nombre), nombre, "borrar las calificaciones de «"+nombre+"»",
		"borró las calificaciones de «"+nombre+"»")
}

// limpiarTodo clears the board: every student pending, the roster kept.
func (t *Tablero) limpiarTodo(w http.ResponseWriter, r *http.Request) {
	if !t.delProfesor(w, r) {
		return
	}
	ctx, cancelar := context.WithTimeout(r.Context(), esperaAlmacen)
	defer cancelar()
	t.cambiar(w, r, t.o.Almacen.Limpiar(ctx, ""), "", "limpiar la pizarra", "limpió la pizarra")
}

// cambiar answers a change the store made (204) or refused.
func (t *Tablero) cambiar(w http.ResponseWriter, r *http.Request, err error, nombre, que, hecho string) {
	switch {
	case err == nil:
		t.o.Log.Info().Str("alumno", nombre).Msg("clase: el profesor " + hecho)
		w.WriteHeader(http.StatusNoContent)
	case errors.Is(err, matricula.ErrNoEsta):
		servidor.Texto(w, r, http.StatusNotFound, noEsta(nombre))
	default:
		t.fallaDelAlmacen(w, r, que, err)
	}
}

// delProfesor lets r through when the instructor sends it from no other site, as the panel's own
// routes that change a page for everybody (exigir): another site's page first, whatever it
// carries (403), then who sends it (401).
func (t *Tablero) delProfesor(w http.ResponseWriter, r *http.Request) bool {
	codigo, motivo := 0, ""
	switch {
	case !token.MismoSitio(r):
		codigo, motivo = token.DeOtroSitio, token.MotivoSitio
	case !t.o.Instructor(r):
		codigo, motivo = token.SinPermiso, MotivoDelProfesor
		w.Header().Set("WWW-Authenticate", token.Desafio)
	default:
		return true
	}
	servidor.AntesDelCuerpo(w, r, func() { servidor.Texto(w, r, codigo, motivo) })
	return false
}

// fallaDelAlmacen says the store failed: the reason to the lab's log, one line to the page (the
// store's error may name the instructor's files).
func (t *Tablero) fallaDelAlmacen(w http.ResponseWriter, r *http.Request, que string, err error) {
	t.o.Log.Error().Err(err).Msg("clase: no pude " + que + " en la matrícula: " + err.Error())
	servidor.AntesDelCuerpo(w, r, func() {
		servidor.Texto(w, r, http.StatusServiceUnavailable, "no pude "+que+" en la matrícula de la clase: el laboratorio dice por qué en su registro")
	})
}
