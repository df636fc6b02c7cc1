package pizarra

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"cursohttp/internal/prueba/servidortest"
	"cursohttp/pkg/matricula"
	"cursohttp/pkg/token"
	"cursohttp/pkg/topes"
)

// columnasDePrueba are a grader's table as the class lab passes it: codigo-de-salida rests on the
// student's machine.
var columnasDePrueba = []Columna{
	{ID: "una-escritura", Premisa: "el cliente mandó un POST"},
	{ID: "misma-llave", Premisa: "el cliente reintentó un POST"},
	{ID: "respeta-retry-after", Premisa: "la pasarela pidió esperar"},
	{ID: "codigo-de-salida", Premisa: "el cliente terminó", Autodeclarada: true},
}

// Roster order is not alphabetical: the board keeps the roster's.
var listaDePrueba = []string{"Zoe", "Ana", "Mario", "Bea"}

// hace is the class's clock: whole seconds, in UTC, as any store keeps them.
var hace = time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)

// veredictos reads "id=estado" pairs.
func veredictos(pares ...string) []matricula.Veredicto {
	var vs []matricula.Veredicto
	for _, p := range pares {
		id, estado, _ := strings.Cut(p, "=")
		vs = append(vs, matricula.Veredicto{ID: id, Estado: estado, Autodeclarada: id == "codigo-de-salida"})
	}
	return vs
}

func anotar(t testing.TB, a matricula.Almacen, alumno, id string, fin time.Time, informe string, pares ...string) {
	t.Helper()
	c := matricula.Calificacion{ID: id, Alumno: alumno, Inicio: fin.Add(-3 * time.Second), Fin: fin, Semilla: 1<<60 + 7,
		Comprobaciones: veredictos(pares...), Informe: informe}
	if err := a.Anotar(context.Background(), c); err != nil {
		t.Fatalf("Anotar %s: %v", id, err)
	}
}

// claseDePrueba: Zoe graded twice (the last with a check the grader's table no longer has), Ana
// once, Mario and Bea never.
func claseDePrueba(t testing.TB) matricula.Almacen {
	t.Helper()
	a := almacenDePrueba(t)
	if _, err := a.Agregar(context.Background(), listaDePrueba); err != nil {
		t.Fatal(err)
	}
	anotar(t, a, "Zoe", "z1", hace, "primera corrida de Zoe\n", "una-escritura=fallo", "misma-llave=fallo", "respeta-retry-after=fallo", "codigo-de-salida=fallo")
	anotar(t, a, "Ana", "a1", hace.Add(time.Minute), "la de Ana\n", "una-escritura=paso", "misma-llave=paso", "respeta-retry-after=paso", "codigo-de-salida=paso")
	anotar(t, a, "Zoe", "z2", hace.Add(2*time.Minute), "segunda corrida de Zoe\n",
		"codigo-de-salida=paso", "una-escritura=paso", "vieja-comprobacion=fallo", "misma-llave=fallo", "respeta-retry-after=no-juzgada")
	return a
}

// delProfesorDePrueba: the instructor is whoever sends «Bearer profe» (the class lab checks its
// token or session; the board only asks).
func delProfesorDePrueba(r *http.Request) bool { return token.Portador(r) == "profe" }

func servirTablero(t testing.TB, a matricula.Almacen) *httptest.Server {
	t.Helper()
	return servidortest.Nuevo(t, NuevoTablero(OpcionesTablero{Almacen: a, Columnas: columnasDePrueba, Instructor: delProfesorDePrueba}))
}

// pedir sends one request (cabeceras are name, value pairs) and returns the answer, its body read.
func pedir(t testing.TB, metodo, direccion, cuerpo string, cabeceras ...string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(metodo, direccion, strings.NewReader(cuerpo))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(cabeceras); i += 2 {
		req.Header.Set(cabeceras[i], cabeceras[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// estadoDePizarra is GET /clase/estado as a page reads it.
type estadoDePizarra struct {
	Modo       string    `json:"modo"`
	Instructor bool      `json:"instructor"`
	Columnas   []Columna `json:"columnas"`
	Alumnos    []struct {
		Nombre    string            `json:"nombre"`
		Pendiente bool              `json:"pendiente"`
		Ultima    *time.Time        `json:"ultima"`
		Checks    map[string]string `json:"comprobaciones"`
	} `json:"alumnos"`
}

func leerPizarra(t testing.TB, base string, cabeceras ...string) estadoDePizarra {
	t.Helper()
	resp, cuerpo := pedir(t, http.MethodGet, base+RutaEstado, "", cabeceras...)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("GET %s: %d %s %q", RutaEstado, resp.StatusCode, resp.Header.Get("Content-Type"), cuerpo)
	}
	var e estadoDePizarra
	if err := json.Unmarshal([]byte(cuerpo), &e); err != nil {
		t.Fatal(err)
	}
	return e
}

func (e estadoDePizarra) nombres() []string {
	var ns []string
	for _, a := range e.Alumnos {
		ns = append(ns, a.Nombre)
	}
	return ns
}

// The board's rows are the roster's, in its order: a pending student says so and nothing else, a
// graded one its last grading's time and states, only of the grader's columns; two calls to the
// store per read whatever the class's size, and the instructor's flag is the request's own.
func TestTableroEstado(t *testing.T) {
	t.Parallel()
	contado := contarLlamadas(claseDePrueba(t))
	srv := servirTablero(t, contado)

	e := leerPizarra(t, srv.URL)
	if e.Modo != "clase" || e.Instructor || !slices.Equal(e.Columnas, columnasDePrueba) {
		t.Errorf("modo %q, instructor %v, columnas %+v", e.Modo, e.Instructor, e.Columnas)
	}
	if !slices.Equal(e.nombres(), listaDePrueba) {
		t.Fatalf("filas %q; la lista es %q", e.nombres(), listaDePrueba)
	}
	if l := contado.tomar(); l["Alumnos"] != 1 || l["Ultimas"] != 1 || l["Historial"] != 0 {
		t.Errorf("una lectura llamó al almacén %v; se esperaba Alumnos y Ultimas una vez cada una", l)
	}
	for _, c := range []struct {
		nombre    string
		pendiente bool
		ultima    time.Time
		checks    map[string]string
	}{
		{"Zoe", false, hace.Add(2 * time.Minute), map[string]string{"una-escritura": "paso", "misma-llave": "fallo",
			"respeta-retry-after": "no-juzgada", "codigo-de-salida": "paso"}},
		{"Ana", false, hace.Add(time.Minute), map[string]string{"una-escritura": "paso", "misma-llave": "paso",
			"respeta-retry-after": "paso", "codigo-de-salida": "paso"}},
		{"Mario", true, time.Time{}, nil},
		{"Bea", true, time.Time{}, nil},
	} {
		i := slices.Index(e.nombres(), c.nombre)
		a := e.Alumnos[i]
		if a.Pendiente != c.pendiente || (a.Ultima == nil) != c.ultima.IsZero() || (a.Ultima != nil && !a.Ultima.Equal(c.ultima)) {
			t.Errorf("%s: pendiente %v, última %v; se esperaba %v, %v", c.nombre, a.Pendiente, a.Ultima, c.pendiente, c.ultima)
		}
		if len(a.Checks) != len(c.checks) {
			t.Errorf("%s: comprobaciones %v; se esperaba %v (una que el revisor ya no tiene no se muestra)", c.nombre, a.Checks, c.checks)
		}
		for id, estado := range c.checks {
			if a.Checks[id] != estado {
				t.Errorf("%s: %s es %q; se esperaba %q", c.nombre, id, a.Checks[id], estado)
			}
		}
	}

	// The instructor's flag comes from the request, not from the board.
	if e := leerPizarra(t, srv.URL, "Authorization", "Bearer profe"); !e.Instructor {
		t.Error("con el token del profesor, instructor es false")
	}

	// A student removed from the roster is gone from the board; one added reads pending.
	ctx := context.Background()
	if err := contado.Quitar(ctx, "Ana"); err != nil {
		t.Fatal(err)
	}
	if _, err := contado.Agregar(ctx, []string{"Óscar"}); err != nil {
		t.Fatal(err)
	}
	e = leerPizarra(t, srv.URL)
	if want := []string{"Zoe", "Mario", "Bea", "Óscar"}; !slices.Equal(e.nombres(), want) || !e.Alumnos[3].Pendiente {
		t.Errorf("tras quitar a Ana y agregar a Óscar: %+v", e.Alumnos)
	}
}

// almacenDeMas answers a roster longer than any store keeps: the board shows at most
// topes.Alumnos rows whatever the store says.
type almacenDeMas struct{ matricula.Almacen }

func (a almacenDeMas) Alumnos(ctx context.Context) ([]matricula.Alumno, error) {
	var as []matricula.Alumno
	for i := range topes.Alumnos + 100 {
		as = append(as, matricula.Alumno{Nombre: "alumno " + string(rune('a'+i%26)) + strings.Repeat("x", i/26)})
	}
	return as, nil
}

// almacenRoto fails every read of the gradings, with an error that names the instructor's file.
type almacenRoto struct{ matricula.Almacen }

var errDelAlmacen = errors.New("/home/profe/clase.db: database is locked")

func (almacenRoto) Ultimas(context.Context) (map[string]matricula.Calificacion, error) {
	return nil, errDelAlmacen
}

func (almacenRoto) Historial(context.Context, string) ([]matricula.Calificacion, error) {
	return nil, errDelAlmacen
}

// A store that says too much is cut to the bound; one that fails is said in one line that keeps
// its error (and its paths) out of the page.
func TestTableroAcotadoYAlmacenQueFalla(t *testing.T) {
	t.Parallel()
	if e := leerPizarra(t, servirTablero(t, almacenDeMas{almacenDePrueba(t)}).URL); len(e.Alumnos) != topes.Alumnos {
		t.Errorf("%d filas; el tope es %d", len(e.Alumnos), topes.Alumnos)
	}
	srv := servirTablero(t, almacenRoto{claseDePrueba(t)})
	for _, ruta := range []string{RutaEstado, "/clase/alumnos/Zoe/calificaciones"} {
		resp, cuerpo := pedir(t, http.MethodGet, srv.URL+ruta, "")
		if resp.StatusCode != http.StatusServiceUnavailable || strings.Count(cuerpo, "\n") != 1 ||
			!strings.HasPrefix(cuerpo, "no pude leer ") || strings.Contains(cuerpo, "clase.db") {
			t.Errorf("GET %s con el almacén roto: %d %q", ruta, resp.StatusCode, cuerpo)
		}
	}
}

// historialDePizarra is GET /clase/alumnos/{nombre}/calificaciones.
type historialDePizarra struct {
	Alumno         string `json:"alumno"`
	Calificaciones []struct {
		ID             string                `json:"id"`
		Inicio         time.Time             `json:"inicio"`
		Fin            time.Time             `json:"fin"`
		Semilla        string                `json:"semilla"`
		Comprobaciones []matricula.Veredicto `json:"comprobaciones"`
		Informe        string                `json:"informe"`
	} `json:"calificaciones"`
}

// A student's history: each grading, the newest first, its time, its checks (the columns', in
// their order) and its report; none for a pending one; 404 and one line for a name not in the
// roster. A name is a path segment, escaped.
func TestTableroHistorial(t *testing.T) {
	t.Parallel()
	a := claseDePrueba(t)
	if _, err := a.Agregar(context.Background(), []string{"María José", "Eva/Luz"}); err != nil {
		// A store may refuse a name with a slash; the rest of the test does not need it.
		var malo *matricula.NombreInvalido
		if !errors.As(err, &malo) {
			t.Fatal(err)
		}
		if _, err := a.Agregar(context.Background(), []string{"María José"}); err != nil {
			t.Fatal(err)
		}
	}
	anotar(t, a, "María José", "mj1", hace, "comprobar cliente: python3 mi_cliente.py --clave s3creta, 12 altas con la semilla 7\n", "una-escritura=paso")
	srv := servirTablero(t, a)
	leerComo := func(nombre string, cabeceras ...string) (int, string, historialDePizarra) {
		t.Helper()
		resp, cuerpo := pedir(t, http.MethodGet, srv.URL+"/clase/alumnos/"+url.PathEscape(nombre)+"/calificaciones", "", cabeceras...)
		var h historialDePizarra
		if resp.StatusCode == 200 {
			if err := json.Unmarshal([]byte(cuerpo), &h); err != nil {
				t.Fatalf("%s: %v %q", nombre, err, cuerpo)
			}
		}
		return resp.StatusCode, cuerpo, h
	}
	leer := func(nombre string) (int, string, historialDePizarra) { return leerComo(nombre) }

	// Anybody reads what graded: when, and each check; not the report, its command line, nor
	// the run's id or seed (issue 40, item 7).
	codigo, cuerpo, h := leer("María José")
	if codigo != 200 || len(h.Calificaciones) != 1 || strings.Contains(cuerpo, "mi_cliente") || strings.Contains(cuerpo, "s3creta") ||
		strings.Contains(cuerpo, `"informe"`) || strings.Contains(cuerpo, `"mj1"`) || strings.Contains(cuerpo, `"semilla"`) ||
		!h.Calificaciones[0].Fin.Equal(hace) || !slices.Equal(h.Calificaciones[0].Comprobaciones, veredictos("una-escritura=paso")) {
		t.Errorf("el historial público de María José: %d %s", codigo, cuerpo)
	}
	if codigo, cuerpo, h := leerComo("María José", "Authorization", "Bearer profe"); codigo != 200 || len(h.Calificaciones) != 1 ||
		!strings.HasPrefix(h.Calificaciones[0].Informe, "comprobar cliente: python3 mi_cliente.py") || h.Calificaciones[0].ID != "mj1" {
		t.Errorf("el historial de María José para el profesor: %d %s", codigo, cuerpo)
	}

	codigo, cuerpo, h = leerComo("Zoe", "Authorization", "Bearer profe")
	if codigo != 200 || h.Alumno != "Zoe" || len(h.Calificaciones) != 2 {
		t.Fatalf("Zoe: %d %q", codigo, cuerpo)
	}
	nueva, vieja := h.Calificaciones[0], h.Calificaciones[1]
	if nueva.ID != "z2" || !nueva.Fin.Equal(hace.Add(2*time.Minute)) || nueva.Informe != "segunda corrida de Zoe\n" ||
		vieja.ID != "z1" || !vieja.Fin.Equal(hace) || vieja.Informe != "primera corrida de Zoe\n" || nueva.Semilla != "1152921504606846983" {
		t.Errorf("Zoe: %+v", h.Calificaciones)
	}
	want := veredictos("una-escritura=paso", "misma-llave=fallo", "respeta-retry-after=no-juzgada", "codigo-de-salida=paso")
	if !slices.Equal(nueva.Comprobaciones, want) {
		t.Errorf("las comprobaciones de la última de Zoe: %+v; se esperaba %+v", nueva.Comprobaciones, want)
	}
	for _, c := range []struct {
		nombre string
		codigo int
		n      int
		linea  string
	}{
		{"María José", 200, 1, ""},
		{"Mario", 200, 0, ""},
		{"Eva/Luz", 200, 0, ""},
		{"Nadie", 404, 0, "«Nadie» no está en la lista de la clase\n"},
		{"zoe", 404, 0, "«zoe» no está en la lista de la clase\n"},
	} {
		if c.nombre == "Eva/Luz" && !slices.ContainsFunc(mustAlumnos(t, a), func(x matricula.Alumno) bool { return x.Nombre == c.nombre }) {
			continue
		}
		codigo, cuerpo, h := leer(c.nombre)
		if codigo != c.codigo || (c.codigo == 200 && (h.Alumno != c.nombre || len(h.Calificaciones) != c.n || h.Calificaciones == nil)) ||
			(c.linea != "" && cuerpo != c.linea) {
			t.Errorf("%s: %d %q", c.nombre, codigo, cuerpo)
		}
	}
}

func mustAlumnos(t testing.TB, a matricula.Almacen) []matricula.Alumno {
	t.Helper()
	as, err := a.Alumnos(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return as
}

// The instructor's three changes: each refused from another site whatever it carries (403), then
// without the instructor (401, with the challenge), and done with it (204); the board then reads
// as the change says. Each case on a class of its own.
func TestTableroCambiosDelProfesor(t *testing.T) {
	t.Parallel()
	profe := []string{"Authorization", "Bearer profe"}
	con := func(cab ...string) []string { return append(append([]string{}, profe...), cab...) }
	pendientes := func(e estadoDePizarra) []string {
		var ns []string
		for _, a := range e.Alumnos {
			if a.Pendiente {
				ns = append(ns, a.Nombre)
			}
		}
		return ns
	}
	sinCambio := func(t *testing.T, e estadoDePizarra) {
		if !slices.Equal(e.nombres(), listaDePrueba) || !slices.Equal(pendientes(e), []string{"Mario", "Bea"}) {
			t.Errorf("la pizarra cambió: %q, pendientes %q", e.nombres(), pendientes(e))
		}
	}
	for _, c := range []struct {
		que, ruta string
		cab       []string
		codigo    int
		linea     string
		despues   func(*testing.T, estadoDePizarra)
	}{
		{"quitar sin el profesor", "/clase/alumnos/Zoe", nil, 401, MotivoDelProfesor, sinCambio},
		{"quitar con otro token", "/clase/alumnos/Zoe", []string{"Authorization", "Bearer alumno"}, 401, MotivoDelProfesor, sinCambio},
		{"quitar de otro sitio", "/clase/alumnos/Zoe", con("Sec-Fetch-Site", "cross-site"), 403, token.MotivoSitio, sinCambio},
		{"quitar desde otro puerto", "/clase/alumnos/Zoe", con("Sec-Fetch-Site", "same-site"), 403, token.MotivoSitio, sinCambio},
		{"quitar con otro Origin", "/clase/alumnos/Zoe", con("Origin", "http://evil.example"), 403, token.MotivoSitio, sinCambio},
		{"quitar", "/clase/alumnos/Zoe", profe, 204, "", func(t *testing.T, e estadoDePizarra) {
			if !slices.Equal(e.nombres(), []string{"Ana", "Mario", "Bea"}) {
				t.Errorf("tras quitar a Zoe: %q", e.nombres())
			}
		}},
		{"quitar desde la página", "/clase/alumnos/Zoe", con("Sec-Fetch-Site", "same-origin", "Origin", "ORIGEN"), 204, "", func(t *testing.T, e estadoDePizarra) {
			if slices.Contains(e.nombres(), "Zoe") {
				t.Errorf("tras quitar a Zoe: %q", e.nombres())
			}
		}},
		{"quitar a quien no está", "/clase/alumnos/Nadie", profe, 404, "«Nadie» no está en la lista de la clase", sinCambio},
		{"limpiar sin el profesor", RutaCalificaciones, nil, 401, MotivoDelProfesor, sinCambio},
		{"limpiar de otro sitio", RutaCalificaciones, con("Sec-Fetch-Site", "cross-site"), 403, token.MotivoSitio, sinCambio},
		{"limpiar", RutaCalificaciones, profe, 204, "", func(t *testing.T, e estadoDePizarra) {
			if !slices.Equal(e.nombres(), listaDePrueba) || !slices.Equal(pendientes(e), listaDePrueba) {
				t.Errorf("tras limpiar: %q, pendientes %q", e.nombres(), pendientes(e))
			}
		}},
		{"limpiar una fila sin el profesor", "/clase/alumnos/Zoe/calificaciones", nil, 401, MotivoDelProfesor, sinCambio},
		{"limpiar una fila de otro sitio", "/clase/alumnos/Zoe/calificaciones", con("Sec-Fetch-Site", "cross-site"), 403, token.MotivoSitio, sinCambio},
		{"limpiar una fila", "/clase/alumnos/Zoe/calificaciones", profe, 204, "", func(t *testing.T, e estadoDePizarra) {
			if !slices.Equal(e.nombres(), listaDePrueba) || !slices.Equal(pendientes(e), []string{"Zoe", "Mario", "Bea"}) {
				t.Errorf("tras limpiar la fila de Zoe: %q, pendientes %q", e.nombres(), pendientes(e))
			}
		}},
		{"limpiar la fila de quien no está", "/clase/alumnos/Nadie/calificaciones", profe, 404, "«Nadie» no está en la lista de la clase", sinCambio},
	} {
		t.Run(c.que, func(t *testing.T) {
			t.Parallel()
			srv := servirTablero(t, claseDePrueba(t))
			cab := slices.Clone(c.cab)
			for i := range cab {
				cab[i] = strings.ReplaceAll(cab[i], "ORIGEN", srv.URL)
			}
			resp, cuerpo := pedir(t, http.MethodDelete, srv.URL+c.ruta, "", cab...)
			if resp.StatusCode != c.codigo || (c.linea != "" && cuerpo != c.linea+"\n") || (c.codigo == 204 && cuerpo != "") {
				t.Errorf("DELETE %s: %d %q; se esperaba %d %q", c.ruta, resp.StatusCode, cuerpo, c.codigo, c.linea)
			}
			if desafio := resp.Header.Get("WWW-Authenticate"); (c.codigo == 401) != (desafio == token.Desafio) {
				t.Errorf("DELETE %s: %d con WWW-Authenticate %q", c.ruta, resp.StatusCode, desafio)
			}
			c.despues(t, leerPizarra(t, srv.URL))
		})
	}
}

// No route takes a verdict: the local mode's one answers 410 and one line, with whatever token,
// and what it was sent changes nothing; the board's routes refuse the other methods.
func TestTableroNoAceptaVeredictos(t *testing.T) {
	t.Parallel()
	srv := servirTablero(t, claseDePrueba(t))
	antes := leerPizarra(t, srv.URL)
	resultado := `{"alumno":"Mario","comprobaciones":[{"id":"una-escritura","paso":true}]}`
	for _, c := range []struct {
		metodo, ruta, cuerpo string
		cab                  []string
		codigo               int
		linea                string
	}{
		{"POST", RutaResultados, resultado, []string{"Content-Type", "application/json"}, 410, SinVeredictosDeFuera},
		{"POST", RutaResultados, resultado, []string{"Authorization", "Bearer profe"}, 410, SinVeredictosDeFuera},
		{"GET", RutaResultados, "", []string{"Authorization", "Bearer clase"}, 410, SinVeredictosDeFuera},
		{"PUT", "/clase/alumnos/Mario/calificaciones", resultado, []string{"Authorization", "Bearer profe"}, 405, "método no admitido: GET, HEAD, DELETE"},
		{"POST", "/clase/alumnos/Mario/calificaciones", resultado, []string{"Authorization", "Bearer profe"}, 405, "método no admitido: GET, HEAD, DELETE"},
		{"POST", RutaCalificaciones, resultado, []string{"Authorization", "Bearer profe"}, 405, "método no admitido: DELETE"},
		{"PUT", "/clase/alumnos/Mario", resultado, []string{"Authorization", "Bearer profe"}, 405, "método no admitido: DELETE"},
		{"POST", RutaEstado, resultado, nil, 405, "método no admitido: GET, HEAD"},
		{"POST", RutaClase, resultado, nil, 405, "método no admitido: GET, HEAD"},
		{"POST", "/clase/alumnos", resultado, nil, 404, "no existe: la pizarra de la clase está en /clase"},
	} {
		resp, cuerpo := pedir(t, c.metodo, srv.URL+c.ruta, c.cuerpo, c.cab...)
		if resp.StatusCode != c.codigo || cuerpo != c.linea+"\n" {
			t.Errorf("%s %s: %d %q; se esperaba %d %q", c.metodo, c.ruta, resp.StatusCode, cuerpo, c.codigo, c.linea)
		}
	}
	if despues := leerPizarra(t, srv.URL); !igualesJSON(antes, despues) {
		t.Errorf("la pizarra cambió:\n%+v\n%+v", antes, despues)
	}
}

func igualesJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// plazos records the write deadline a handler sets (http.ResponseController finds the method).
type plazos struct {
	*httptest.ResponseRecorder
	plazo time.Time
}

func (p *plazos) SetWriteDeadline(d time.Time) error {
	p.plazo = d
	return nil
}

// Every answer, whatever it says, carries the panel page's protections and a write deadline; the
// page is clase.html told it is classroom mode.
func TestTableroCabeceras(t *testing.T) {
	t.Parallel()
	tablero := NuevoTablero(OpcionesTablero{Almacen: claseDePrueba(t), Columnas: columnasDePrueba, Instructor: delProfesorDePrueba})
	for _, c := range []struct {
		metodo, ruta string
		codigo       int
		cache        string
	}{
		{"GET", RutaClase, 200, "no-cache"},
		{"HEAD", RutaClase, 200, "no-cache"},
		{"GET", "/clase.js", 200, "no-cache"},
		{"GET", "/clase.css", 200, "no-cache"},
		{"GET", RutaEstado, 200, "no-store"},
		{"GET", "/clase/alumnos/Zoe/calificaciones", 200, "no-store"},
		{"GET", "/clase/alumnos/Nadie/calificaciones", 404, "no-store"},
		{"DELETE", RutaCalificaciones, 401, "no-store"},
		{"POST", RutaResultados, 410, "no-store"},
		{"PATCH", RutaEstado, 405, "no-store"},
		{"GET", "/", 404, "no-store"},
	} {
		w := &plazos{ResponseRecorder: httptest.NewRecorder()}
		antes := time.Now()
		tablero.ServeHTTP(w, httptest.NewRequest(c.metodo, c.ruta, nil))
		h := w.Header()
		if w.Code != c.codigo || !strings.Contains(h.Get("Content-Security-Policy"), "default-src 'self'; frame-ancestors 'none'") ||
			h.Get("X-Frame-Options") != "DENY" || h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Cache-Control") != c.cache ||
			h.Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("%s %s: %d %v", c.metodo, c.ruta, w.Code, h)
		}
		if w.plazo.Before(antes.Add(topes.EsperaEscritura)) || w.plazo.After(time.Now().Add(topes.EsperaEscritura)) {
			t.Errorf("%s %s: plazo de escritura %v", c.metodo, c.ruta, w.plazo)
		}
	}

	w := httptest.NewRecorder()
	tablero.ServeHTTP(w, httptest.NewRequest("GET", RutaClase, nil))
	pagina := w.Body.String()
	if !strings.Contains(pagina, `<meta name="modo" content="clase">`) || strings.Contains(pagina, "revisor comprobar cliente") ||
		!strings.Contains(pagina, `<script src="/clase.js"`) || !strings.Contains(pagina, "† lo informa la máquina del alumno") {
		t.Errorf("la página del modo clase: %q", pagina)
	}
}
