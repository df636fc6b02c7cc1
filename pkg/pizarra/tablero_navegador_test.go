package pizarra

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"cursohttp/internal/prueba/navegador"
	"cursohttp/internal/prueba/servidortest"
	"cursohttp/pkg/matricula"
)

// nombresDeClase are n distinct names as a class has them, a few long.
func nombresDeClase(n int) []string {
	nombres := []string{"Ana", "Bruno", "Carla", "Diego", "Elena", "Fátima", "Gonzalo", "Hugo", "Irene", "Javier", "Lucía",
		"Manuel", "Nuria", "Óscar", "Pablo", "Quim", "Raquel", "Sofía", "Tomás", "Úrsula", "Valeria", "Xavier", "Yago", "Zoe"}
	apellidos := []string{"García", "Pérez", "López", "Martín", "Sánchez", "Gómez", "Ruiz", "Díaz", "Moreno", "Muñoz",
		"Álvarez", "Romero", "Navarro", "Torres", "Domínguez", "Vázquez", "Ramos", "Gil", "Serrano", "Blanco", "Molina",
		"Castro", "Ortiz", "Rubio", "Marín"}
	var res []string
	for i := range n {
		s := nombres[i%len(nombres)] + " " + apellidos[(i/len(nombres))%len(apellidos)]
		if i >= len(nombres)*len(apellidos) {
			s += " " + strconv.Itoa(i)
		}
		if i%37 == 5 {
			s += " de la " + apellidos[(i+3)%len(apellidos)] // a long one
		}
		res = append(res, s)
	}
	return res
}

var estadosDePrueba = []string{"paso", "fallo", EstadoNoJuzgada}

// llenarClase puts n students in a, in order: every fifth never graded, the rest graded once to
// three times with every state, and now and then a grading without misma-llave (its cell «—»).
// The hostile name, when the store takes it, is one more student, graded.
func llenarClase(t testing.TB, a matricula.Almacen, n int, hostil string) []string {
	t.Helper()
	ctx := context.Background()
	nombres := nombresDeClase(n)
	if _, err := a.Agregar(ctx, nombres); err != nil {
		t.Fatal(err)
	}
	if hostil != "" {
		var malo *matricula.NombreInvalido
		switch _, err := a.Agregar(ctx, []string{hostil}); {
		case errors.As(err, &malo):
			t.Logf("el almacén no toma el nombre %q (%v): la prueba sigue sin él", hostil, err)
		case err != nil:
			t.Fatal(err)
		default:
			nombres = append(nombres, hostil)
		}
	}
	for i, nombre := range nombres {
		if i%5 == 0 {
			continue
		}
		for k := range 1 + i%3 {
			var pares []string
			for j, c := range columnasDePrueba {
				if c.ID == "misma-llave" && i%7 == 3 && k == i%3 {
					continue
				}
				pares = append(pares, c.ID+"="+estadosDePrueba[(i+j+k)%3])
			}
			anotar(t, a, nombre, fmt.Sprintf("%d-%d", i, k), hace.Add(time.Duration(i)*time.Second+time.Duration(k)*time.Minute),
				fmt.Sprintf("corrida %d de %s\n✔ …\n", k+1, nombre), pares...)
		}
	}
	return nombres
}

// filaVista is one row as the page draws it.
type filaVista struct {
	Nombre, Pendiente, Texto, Hora string
	Celdas                         []struct {
		ID, Marca string
		Clases    []string
	}
	Quitar bool
}

// vistaTablero is what the board's page shows, read from its DOM.
type vistaTablero struct {
	Filas                        []filaVista
	Estado                       string
	Daga                         string
	DagaVisible                  bool
	Cabeceras, CabecerasConDaga  int
	Limpiar, Accion              bool
	Imagenes                     int
	Xss                          string
	Ancho, AnchoDocumento, Letra float64
}

const jsLeerTablero = `(() => {
	const filas = [...document.querySelectorAll("#bloques tbody tr")].map(tr => ({
		Nombre: tr.firstChild.textContent,
		Pendiente: tr.querySelector("td.pendiente") ? tr.querySelector("td.pendiente").textContent : "",
		Texto: tr.textContent, Hora: tr.querySelector("td.ultima").dataset.hora,
		Celdas: [...tr.querySelectorAll("td[data-id]")].map(td => ({ID: td.dataset.id, Marca: td.firstChild.nodeValue, Clases: [...td.classList]})),
		Quitar: !!tr.querySelector('button[data-accion="quitar"]')}));
	const daga = document.querySelector("#daga"), r = daga.getBoundingClientRect();
	const ths = [...document.querySelectorAll('#bloques th[data-id="codigo-de-salida"]')];
	const letras = [...document.querySelectorAll("#bloques td.nombre, #bloques td[data-id], #bloques td.pendiente")].map(td => parseFloat(getComputedStyle(td).fontSize));
	return {Filas: filas, Estado: document.querySelector("#estado").textContent,
		Daga: daga.textContent, DagaVisible: !daga.hidden && r.width > 0 && r.top >= 0 && r.bottom <= innerHeight && r.right <= innerWidth,
		Cabeceras: ths.length, CabecerasConDaga: ths.filter(th => th.textContent.endsWith("†") && th.classList.contains("autodeclarada")).length,
		Limpiar: !document.querySelector("#limpiar").hidden, Accion: !!document.querySelector("#bloques th.accion"),
		Imagenes: document.images.length, Xss: window.xss === undefined ? "" : String(window.xss),
		Ancho: innerWidth, AnchoDocumento: document.documentElement.scrollWidth, Letra: Math.min(...letras)};
})()`

func leerTablero(ctx context.Context, t *testing.T, p *navegador.Pagina) vistaTablero {
	t.Helper()
	var v vistaTablero
	navegador.Evaluar(ctx, t, p, jsLeerTablero, &v)
	return v
}

// marcaDe is a check's cell as the page must draw it.
var marcaDe = map[string]struct{ marca, clase string }{
	"paso": {"✔", "bien"}, "fallo": {"✘", "mal"}, EstadoNoJuzgada: {"○", "sinjuicio"}, "": {"—", "falta"},
}

// comprobarTablero: one row per student of e, in its order, each as e says: «pendiente» and no
// mark for a pending one, each column's mark and class for a graded one, its time.
func comprobarTablero(t *testing.T, v vistaTablero, e estadoDePizarra) {
	t.Helper()
	if len(v.Filas) != len(e.Alumnos) {
		t.Fatalf("la página muestra %d filas; la pizarra tiene %d alumnos", len(v.Filas), len(e.Alumnos))
	}
	malas := 0
	for i, a := range e.Alumnos {
		f := v.Filas[i]
		var problema string
		switch {
		case f.Nombre != a.Nombre:
			problema = fmt.Sprintf("la fila %d es de %q", i, f.Nombre)
		case a.Pendiente && (f.Pendiente != "pendiente" || len(f.Celdas) != 0 || strings.ContainsAny(f.Texto, "✔✘○—") || f.Hora != ""):
			problema = fmt.Sprintf("pendiente, la fila dice %q (%d celdas)", f.Texto, len(f.Celdas))
		case !a.Pendiente && (f.Pendiente != "" || len(f.Celdas) != len(e.Columnas) || f.Hora != hora(*a.Ultima)):
			problema = fmt.Sprintf("calificado a las %s, la fila dice %q a las %q", hora(*a.Ultima), f.Texto, f.Hora)
		}
		for j, c := range f.Celdas {
			if problema != "" {
				break
			}
			col := e.Columnas[j]
			want := marcaDe[a.Checks[col.ID]]
			if c.ID != col.ID || c.Marca != want.marca || !slices.Contains(c.Clases, want.clase) || slices.Contains(c.Clases, "autodeclarada") != col.Autodeclarada {
				problema = fmt.Sprintf("%s es %q: la celda %+v", col.ID, a.Checks[col.ID], c)
			}
		}
		if problema != "" {
			if malas++; malas <= 5 {
				t.Errorf("%s: %s", a.Nombre, problema)
			}
		}
	}
	if malas > 5 {
		t.Errorf("y %d filas más", malas-5)
	}
}

func hora(t time.Time) string { return t.Local().Format("15:04:05") }

// filaJS is the row of a student in the page, for an expression.
func filaJS(nombre string) string {
	return `[...document.querySelectorAll("#bloques tbody tr")].find(f => f.firstChild.textContent === ` + navegador.Literal(nombre) + `)`
}

// The class board in a real Chromium at a projector's 1280×800: 200 students (pending, passed,
// failed, not judged), every row as the JSON says; the † legend; a name opens its history; no
// instructor's button for a student, and for the instructor each of them works. Then the cost of
// a refresh with 500 students.
func TestTableroEnNavegador(t *testing.T) {
	t.Parallel()
	nav := navegador.Arrancar(t, 1280, 800)
	ctx, cancelar := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancelar()

	const hostil = `Eva <img src=x onerror=window.xss=1>`
	almacen := almacenDePrueba(t)
	nombres := llenarClase(t, almacen, 200, hostil)
	lectura := servidortest.Nuevo(t, NuevoTablero(OpcionesTablero{Almacen: almacen, Columnas: columnasDePrueba}))
	profesor := servidortest.Nuevo(t, NuevoTablero(OpcionesTablero{Almacen: almacen, Columnas: columnasDePrueba,
		Instructor: func(*http.Request) bool { return true }}))

	t.Run("200 alumnos", func(t *testing.T) {
		pagina, err := nav.Abrir(ctx, lectura.URL+RutaClase, 1280, 800)
		if err != nil {
			t.Fatal(err)
		}
		navegador.Esperar(ctx, t, pagina, `document.querySelectorAll("#bloques tbody tr").length === `+strconv.Itoa(len(nombres)), "la página no mostró a todos")
		e := leerPizarra(t, lectura.URL)
		v := leerTablero(ctx, t, pagina)
		comprobarTablero(t, v, e)
		pendientes := 0
		for _, a := range e.Alumnos {
			if a.Pendiente {
				pendientes++
			}
		}
		if want := fmt.Sprintf("%d alumnos, %d pendientes", len(nombres), pendientes); !strings.HasPrefix(v.Estado, want) || !strings.HasSuffix(v.Estado, "; se actualiza sola") {
			t.Errorf("la página dice %q; se esperaba %q…", v.Estado, want)
		}
		if v.Daga != "† lo informa la máquina del alumno" || !v.DagaVisible || v.Cabeceras == 0 || v.CabecerasConDaga != v.Cabeceras {
			t.Errorf("la leyenda %q (a la vista %v); %d de %d cabeceras de codigo-de-salida con †", v.Daga, v.DagaVisible, v.CabecerasConDaga, v.Cabeceras)
		}
		if v.Limpiar || v.Accion || slices.ContainsFunc(v.Filas, func(f filaVista) bool { return f.Quitar }) {
			t.Errorf("un alumno ve los botones del profesor: limpiar %v, columna %v", v.Limpiar, v.Accion)
		}
		if v.Imagenes != 0 || v.Xss != "" {
			t.Errorf("un nombre se interpretó: %d imágenes, xss %q", v.Imagenes, v.Xss)
		}
		if v.AnchoDocumento > v.Ancho || v.Letra < 16 {
			t.Errorf("a 1280×800: el documento mide %v de ancho en %v, letra de %v px", v.AnchoDocumento, v.Ancho, v.Letra)
		}
		navegador.Capturar(ctx, t, pagina, "tablero-200.png")

		// A name opens its history: each grading, the newest first, its time, checks and report.
		for _, nombre := range []string{nombres[2], nombres[len(nombres)-1], nombres[5]} {
			abrirYComprobarHistorial(ctx, t, pagina, lectura.URL, nombre, false)
		}
	})

	t.Run("profesor", func(t *testing.T) {
		pagina, err := nav.Abrir(ctx, profesor.URL+RutaClase, 1280, 800)
		if err != nil {
			t.Fatal(err)
		}
		navegador.Esperar(ctx, t, pagina, `document.querySelectorAll("#bloques tbody tr").length === `+strconv.Itoa(len(nombres)), "la página no mostró a todos")
		v := leerTablero(ctx, t, pagina)
		quitar := 0
		for _, f := range v.Filas {
			if f.Quitar {
				quitar++
			}
		}
		if !v.Limpiar || !v.Accion || quitar != len(nombres) {
			t.Errorf("el profesor ve limpiar %v, la columna %v, %d botones «quitar» de %d", v.Limpiar, v.Accion, quitar, len(nombres))
		}
		confirmar := func(pregunta string) {
			t.Helper()
			navegador.Esperar(ctx, t, pagina, `document.querySelector("#confirmar").open`, "no pidió confirmación")
			var texto string
			navegador.Evaluar(ctx, t, pagina, `document.querySelector("#confirmar-texto").textContent`, &texto)
			if !strings.Contains(texto, pregunta) {
				t.Errorf("la confirmación dice %q; se esperaba %q", texto, pregunta)
			}
			navegador.Evaluar(ctx, t, pagina, `document.querySelector("#confirmar-si").click()`, nil)
		}
		// «quitar»: the row goes, and the student from the roster.
		quitado := nombres[3]
		navegador.Evaluar(ctx, t, pagina, filaJS(quitado)+`.querySelector('button[data-accion="quitar"]').click()`, nil)
		confirmar("¿Quitar a «" + quitado + "»")
		navegador.Esperar(ctx, t, pagina, `document.querySelectorAll("#bloques tbody tr").length === `+strconv.Itoa(len(nombres)-1)+` && !`+filaJS(quitado),
			"la fila quitada sigue")
		if slices.ContainsFunc(mustAlumnos(t, almacen), func(a matricula.Alumno) bool { return a.Nombre == quitado }) {
			t.Errorf("%s sigue en la lista", quitado)
		}
		// «borrar sus calificaciones», from the history: the row reads «pendiente» again.
		limpio := nombres[4]
		abrirYComprobarHistorial(ctx, t, pagina, profesor.URL, limpio, true)
		navegador.Capturar(ctx, t, pagina, "tablero-historial.png")
		navegador.Evaluar(ctx, t, pagina, `document.querySelector("#borrar-historial").click()`, nil)
		confirmar("¿Borrar las calificaciones de «" + limpio + "»")
		navegador.Esperar(ctx, t, pagina, filaJS(limpio)+`.querySelector("td.pendiente") && document.querySelector("#historial-estado").textContent === "todavía no tiene calificaciones"`,
			"la fila no volvió a pendiente")
		navegador.Evaluar(ctx, t, pagina, `document.querySelector("#cerrar-historial").click()`, nil)
		// «limpiar la pizarra»: everybody pending, the roster kept.
		navegador.Evaluar(ctx, t, pagina, `document.querySelector("#limpiar").click()`, nil)
		confirmar("¿Limpiar la pizarra?")
		navegador.Esperar(ctx, t, pagina, `document.querySelectorAll("#bloques td.pendiente").length === `+strconv.Itoa(len(nombres)-1), "la pizarra no se limpió")
		if u, err := almacen.Ultimas(ctx); err != nil || len(u) != 0 {
			t.Errorf("tras limpiar quedan %d calificaciones (%v)", len(u), err)
		}
	})

	t.Run("coste con 500", func(t *testing.T) {
		medirCoste(ctx, t, nav)
	})
}

// abrirYComprobarHistorial clicks a student's name and checks the history it shows against the
// lab's JSON.
func abrirYComprobarHistorial(ctx context.Context, t *testing.T, pagina *navegador.Pagina, base, nombre string, instructor bool) {
	t.Helper()
	resp, cuerpo := pedir(t, http.MethodGet, base+"/clase/alumnos/"+url.PathEscape(nombre)+"/calificaciones", "")
	var h historialDePizarra
	if resp.StatusCode != 200 || json.Unmarshal([]byte(cuerpo), &h) != nil {
		t.Fatalf("el historial de %s: %d %q", nombre, resp.StatusCode, cuerpo)
	}
	navegador.Evaluar(ctx, t, pagina, filaJS(nombre)+`.querySelector('button[data-accion="historial"]').click()`, nil)
	navegador.Esperar(ctx, t, pagina, `document.querySelector("#historial").open && document.querySelector("#historial-titulo").textContent === `+navegador.Literal(nombre)+
		` && document.querySelector("#historial-estado").textContent !== "cargando…"`, "el historial de "+nombre+" no se abrió")
	var vista struct {
		Estado string
		Items  []struct {
			Cuando, Informe string
			Marcas          []struct{ ID, Texto, Clase string }
		}
		Borrar bool
	}
	navegador.Evaluar(ctx, t, pagina, `({Estado: document.querySelector("#historial-estado").textContent,
		Borrar: !document.querySelector("#borrar-historial").hidden,
		Items: [...document.querySelectorAll("#historial-lista li")].map(li => ({Cuando: li.querySelector(".cuando").textContent,
			Informe: li.querySelector("pre") ? li.querySelector("pre").textContent : "",
			Marcas: [...li.querySelectorAll(".marcas span")].map(s => ({ID: s.dataset.id, Texto: s.textContent, Clase: s.className}))}))})`, &vista)
	if len(vista.Items) != len(h.Calificaciones) || vista.Borrar != instructor {
		t.Fatalf("el historial de %s muestra %d calificaciones (borrar %v); el laboratorio tiene %d: %+v", nombre, len(vista.Items), vista.Borrar, len(h.Calificaciones), vista)
	}
	if len(h.Calificaciones) == 0 && vista.Estado != "todavía no tiene calificaciones" {
		t.Errorf("el historial vacío de %s dice %q", nombre, vista.Estado)
	}
	for i, c := range h.Calificaciones {
		it := vista.Items[i]
		if !strings.HasSuffix(it.Cuando, hora(c.Fin)) || it.Informe != c.Informe || len(it.Marcas) != len(c.Comprobaciones) {
			t.Errorf("%s, calificación %d: %+v; el laboratorio dice %+v", nombre, i, it, c)
			continue
		}
		for j, v := range c.Comprobaciones {
			want := marcaDe[v.Estado].marca + " " + v.ID
			if v.Autodeclarada {
				want += "†"
			}
			if m := it.Marcas[j]; m.ID != v.ID || m.Texto != want || m.Clase != marcaDe[v.Estado].clase {
				t.Errorf("%s, calificación %d: %+v; se esperaba %q", nombre, i, m, want)
			}
		}
	}
	if !instructor {
		navegador.Evaluar(ctx, t, pagina, `document.querySelector("#cerrar-historial").click()`, nil)
		navegador.Esperar(ctx, t, pagina, `!document.querySelector("#historial").open`, "el historial no se cerró")
	}
}

// medirCoste: the main thread's time per refresh of a board of 500 students, quiet, with ten rows
// changed, and with one student fewer (a new roster: the layout is searched again). Each figure is
// the page's own (from parsing the JSON to the layout, window.medirDibujo) and DevTools'
// TaskDuration over the same reads.
func medirCoste(ctx context.Context, t *testing.T, nav *navegador.Navegador) {
	const n, lecturas = 500, 6
	almacen := almacenDePrueba(t)
	nombres := llenarClase(t, almacen, n, "")
	srv := servidortest.Nuevo(t, NuevoTablero(OpcionesTablero{Almacen: almacen, Columnas: columnasDePrueba}))
	pagina, err := nav.Abrir(ctx, srv.URL+RutaClase, 1280, 800)
	if err != nil {
		t.Fatal(err)
	}
	navegador.Esperar(ctx, t, pagina, `document.querySelectorAll("#bloques tbody tr").length === `+strconv.Itoa(n), "la página no mostró a los 500")

	// Quiet: nothing changes, no row is built again (each keeps the mark put on it now).
	navegador.Evaluar(ctx, t, pagina, `document.querySelectorAll("#bloques tbody tr").forEach(tr => tr.vieja = true)`, nil)
	quieto, tarea := medirLecturas(ctx, t, pagina, lecturas, nil)
	var viejas int
	navegador.Evaluar(ctx, t, pagina, `[...document.querySelectorAll("#bloques tbody tr")].filter(tr => tr.vieja).length`, &viejas)
	if viejas != n {
		t.Errorf("sin cambios se rehicieron %d filas de %d", n-viejas, n)
	}

	// Ten students graded again before each read: only their rows are built again.
	ronda := 0
	cambiadas, _ := medirLecturas(ctx, t, pagina, lecturas, func() {
		ronda++
		fin := hace.Add(time.Duration(ronda) * time.Hour)
		var ultima string
		for i := range 10 {
			nombre := nombres[(ronda*10+i)*7%n]
			var pares []string
			for j, c := range columnasDePrueba {
				pares = append(pares, c.ID+"="+estadosDePrueba[(ronda+i+j)%3])
			}
			anotar(t, almacen, nombre, fmt.Sprintf("r%d-%d", ronda, i), fin, "otra\n", pares...)
			ultima = nombre
		}
		navegador.Esperar(ctx, t, pagina, filaJS(ultima)+`.querySelector("td.ultima").dataset.hora === "`+hora(fin)+`"`, "la fila cambiada no se redibujó")
	})
	navegador.Evaluar(ctx, t, pagina, `[...document.querySelectorAll("#bloques tbody tr")].filter(tr => tr.vieja).length`, &viejas)
	if rehechas := n - viejas; rehechas == 0 || rehechas > 10*lecturas {
		t.Errorf("con 10 alumnos nuevos por lectura se rehicieron %d filas en %d lecturas", rehechas, lecturas)
	}
	comprobarTablero(t, leerTablero(ctx, t, pagina), leerPizarra(t, srv.URL))

	// One student fewer: a new roster, the whole layout searched again.
	quitados := 0
	nuevos, _ := medirLecturas(ctx, t, pagina, 3, func() {
		quitados++
		nombre := nombres[n-quitados]
		if err := almacen.Quitar(ctx, nombre); err != nil {
			t.Fatal(err)
		}
		navegador.Esperar(ctx, t, pagina, `!`+filaJS(nombre), "la fila quitada sigue")
	})

	_, cuerpo := pedir(t, http.MethodGet, srv.URL+RutaEstado, "")
	t.Logf("coste por lectura con %d alumnos, %d KB de JSON (hilo principal; mediana y máximo de %d lecturas):", n, len(cuerpo)>>10, lecturas)
	t.Logf("  modo clase, sin cambios:       %s (DevTools TaskDuration: %.1f ms por lectura)", mediana(quieto), tarea)
	t.Logf("  modo clase, 10 filas cambiadas: %s", mediana(cambiadas))
	t.Logf("  modo clase, un alumno menos:    %s", mediana(nuevos))
}

// medirLecturas collects the page's own measure of k reads (antes, when given, runs before each
// and waits until the read it caused is drawn), and DevTools' main-thread time per read over them.
func medirLecturas(ctx context.Context, t *testing.T, p *navegador.Pagina, k int, antes func()) ([]float64, float64) {
	t.Helper()
	navegador.Evaluar(ctx, t, p, `window.medirDibujo = []`, nil)
	m0, err := p.Metricas(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var ms []float64
	for range k {
		if antes == nil {
			break
		}
		antes()
		var x []float64
		navegador.Evaluar(ctx, t, p, `window.medirDibujo`, &x)
		ms = append(ms, x[len(x)-1])
	}
	if antes == nil {
		// One call that returns after k reads: no polling from here meanwhile, so DevTools' figure
		// is the page's own (a timer of its own four times a second costs microseconds).
		navegador.Evaluar(ctx, t, p, `new Promise(listo => { const id = setInterval(() => {
			if (window.medirDibujo.length >= `+strconv.Itoa(k)+`) { clearInterval(id); listo(); } }, 250); })`, nil)
		navegador.Evaluar(ctx, t, p, `window.medirDibujo`, &ms)
	}
	m1, err := p.Metricas(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var leidas int
	navegador.Evaluar(ctx, t, p, `window.medirDibujo.length`, &leidas)
	navegador.Evaluar(ctx, t, p, `delete window.medirDibujo`, nil)
	return ms[:min(len(ms), k)], (m1["TaskDuration"] - m0["TaskDuration"]) * 1000 / float64(max(1, leidas))
}

func mediana(ms []float64) string {
	if len(ms) == 0 {
		return "sin lecturas"
	}
	s := slices.Clone(ms)
	sort.Float64s(s)
	return fmt.Sprintf("%.1f ms (máx. %.1f ms)", s[len(s)/2], s[len(s)-1])
}
