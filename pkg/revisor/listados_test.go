package revisor

import (
	"context"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/rs/zerolog"

	"cursohttp/internal/nodejs"
	"cursohttp/pkg/almacen"
	"cursohttp/pkg/respuesta"
)

// pedirLista answers metodo ruta for credencial straight from the handler.
func pedirLista(rv *Revisor, metodo, ruta, credencial string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(metodo, ruta, nil)
	r.Header.Set("Authorization", "Bearer "+credencial)
	w := httptest.NewRecorder()
	rv.ServeHTTP(w, r)
	return w
}

// listaEsperada is what a listing answered before listados: respuesta.JSON of the whole object,
// which respuesta.ListaJSON sends byte for byte.
func listaEsperada(t *testing.T, a almacen.Almacen, metodo, equipo string, f *formaLista) *httptest.ResponseRecorder {
	t.Helper()
	servicios, err := a.Listar(context.Background(), equipo)
	if err != nil {
		t.Fatal(err)
	}
	lista := make([]nodejs.Objeto, len(servicios))
	for i, s := range servicios {
		lista[i] = f.representar(s)
	}
	w := httptest.NewRecorder()
	respuesta.JSON(w, httptest.NewRequest(metodo, "/", nil), http.StatusOK, nodejs.Objeto{{Nombre: "servicios", Valor: lista}}, f.cabeceras...)
	return w
}

func mismaRespuesta(t *testing.T, que string, got, quiere *httptest.ResponseRecorder) {
	t.Helper()
	if got.Code != quiere.Code || got.Body.String() != quiere.Body.String() || !maps.EqualFunc(got.Header(), quiere.Header(), slices.Equal) {
		t.Errorf("%s: %d %v, %d bytes\nse esperaba %d %v, %d bytes", que, got.Code, got.Header(), got.Body.Len(), quiere.Code, quiere.Header(), quiere.Body.Len())
	}
}

// Another revisor on the same store changes it and this one hears nothing: each listing still
// shows the store as it is, in both forms and for each team, with the bytes it always had.
func TestListadoSigueAlAlmacenCompartido(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	a := almacen.NuevaMemoria(almacen.Opciones{Arranque: arranqueDePrueba, Semillas: almacen.Semillas()})
	rv := Nuevo(Opciones{Log: zerolog.Nop(), Almacen: a})
	t.Cleanup(rv.Cerrar)
	comprobar := func(paso string) {
		t.Helper()
		for _, c := range []struct {
			ruta   string
			forma  *formaLista
			quien  string
			equipo string
		}{
			{"/servicios", formaActual, "lectura-a", "a"},
			{"/servicios", formaActual, "escritura-b", "b"},
			{"/servicios", formaActual, "admin", "*"},
			{"/v1/servicios", formaV1, "lectura-a", "a"},
		} {
			for _, metodo := range []string{"GET", "GET", "HEAD"} { // the second GET finds it built
				mismaRespuesta(t, paso+": "+metodo+" "+c.ruta+" de "+c.quien,
					pedirLista(rv, metodo, c.ruta, c.quien), listaEsperada(t, a, metodo, c.equipo, c.forma))
			}
		}
	}
	comprobar("al arrancar")
	s, err := a.Crear(ctx, "a", almacen.Datos{Nombre: "nuevo", URL: "http://127.0.0.1:18081/codigo/200", LimiteMs: 2000}, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	comprobar("tras un alta")
	// The same length and the same id: only the version tells.
	if _, err := a.Cambiar(ctx, s.ID, nil, almacen.Datos{Nombre: "nueva", URL: "http://127.0.0.1:18081/codigo/201", LimiteMs: 2000}); err != nil {
		t.Fatal(err)
	}
	comprobar("tras un cambio")
	if _, err := a.Retirar(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
	comprobar("tras retirarlo")
}

// Requests that find the same list at once share one listing, built once, and its bytes count
// once against the budget; whoever finds the list changed gets a new one, and the old one's bytes
// go back when its last request ends.
func TestListadoUnoParaTodos(t *testing.T) {
	t.Parallel()
	ls := nuevosListados(1 << 20)
	servicios := make([]almacen.Servicio, 100)
	for i := range servicios {
		servicios[i] = almacen.Servicio{ID: i + 1, Nombre: "s" + strconv.Itoa(i), URL: "http://x/" + strings.Repeat("u", 1000), LimiteMs: 2000, Equipo: "a", Version: 1}
	}
	const n = 64
	tomados := make([]*listado, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { tomados[i] = ls.tomar("a", formaActual, slices.Clone(servicios)) })
	}
	wg.Wait()
	primero := tomados[0]
	if primero == nil {
		t.Fatal("un listado de 100 KB no cupo en 1 MiB")
	}
	for _, l := range tomados {
		if l != primero {
			t.Fatalf("%d peticiones a la vez con la misma lista armaron más de un listado", n)
		}
	}
	if got := ls.usados.Load(); got != primero.bytes {
		t.Errorf("%d peticiones con un listado de %d bytes cuentan %d", n, primero.bytes, got)
	}
	for _, l := range tomados[1:] {
		l.soltar()
	}
	// Another team, or the other form, is another listing.
	if otro := ls.tomar("b", formaActual, servicios); otro == nil || otro == primero {
		t.Error("el equipo b recibió el listado del a")
	} else {
		otro.soltar()
	}
	// The list changes while a request still sends the old listing.
	servicios[7].Version++
	nuevo := ls.tomar("a", formaActual, servicios)
	if nuevo == nil || nuevo == primero {
		t.Fatal("una versión nueva de un servicio no armó otro listado")
	}
	if got, quiere := ls.usados.Load(), 2*primero.bytes+nuevo.bytes; got != quiere { // a's old and new, and b's
		t.Errorf("con el listado viejo todavía en envío cuentan %d bytes, se esperaban %d", got, quiere)
	}
	primero.soltar()
	nuevo.soltar()
	if got, quiere := ls.usados.Load(), primero.bytes+nuevo.bytes; got != quiere {
		t.Errorf("terminado el último envío del listado viejo cuentan %d bytes, se esperaban %d (el nuevo y el de b)", got, quiere)
	}
}

// A listing that does not fit in what is left of the budget is streamed, with the same bytes, and
// holds nothing.
func TestListadoQueNoCabeSeMandaPorPartes(t *testing.T) {
	t.Parallel()
	a := almacen.NuevaMemoria(almacen.Opciones{Arranque: arranqueDePrueba})
	for i := range 300 {
		if _, err := a.Crear(context.Background(), "a", almacen.Datos{Nombre: "s" + strconv.Itoa(i), URL: "http://x/" + strings.Repeat("ñ", 1000), LimiteMs: 2000}, 0, nil); err != nil {
			t.Fatal(err)
		}
	}
	rv := Nuevo(Opciones{Log: zerolog.Nop(), Almacen: a})
	t.Cleanup(rv.Cerrar)
	rv.listados = nuevosListados(256 << 10) // the list is about 600 KB
	for _, metodo := range []string{"GET", "HEAD"} {
		got := pedirLista(rv, metodo, "/servicios", "lectura-a")
		quiere := listaEsperada(t, a, metodo, "a", formaActual)
		if metodo == "HEAD" {
			quiere.Body.Reset() // net/http drops a HEAD's body; ListaJSON does not send the long one
		}
		mismaRespuesta(t, metodo+" de un listado que no cabe", got, quiere)
	}
	if got := rv.listados.usados.Load(); got != 0 {
		t.Errorf("un listado que no cupo dejó %d bytes contados", got)
	}
}

// Texts made of escapes take more room than a listing reserves for them: it is built all the same,
// with the bytes JSON writes, and counted for what it took; and when the budget cannot hold it,
// nothing stays counted.
func TestListadoDeEscapes(t *testing.T) {
	t.Parallel()
	servicios := make([]almacen.Servicio, 50)
	lista := make([]nodejs.Objeto, len(servicios))
	for i := range servicios {
		servicios[i] = almacen.Servicio{ID: i + 1, Nombre: strings.Repeat("\"\x01", 20), URL: "http://x/" + strings.Repeat(`\`, 2000), LimiteMs: 2000, Equipo: "a", Version: 1}
		lista[i] = representar(servicios[i])
	}
	quiere := append(nodejs.CodificarJSON(nodejs.Objeto{{Nombre: "servicios", Valor: lista}}), '\n')
	ls := nuevosListados(1 << 20)
	l := ls.tomar("a", formaActual, servicios)
	if l == nil {
		t.Fatalf("un listado de %d bytes no cupo en 1 MiB", len(quiere))
	}
	w := httptest.NewRecorder()
	l.enviar.Enviar(w, httptest.NewRequest("GET", "/servicios", nil))
	l.soltar()
	if w.Body.String() != string(quiere) {
		t.Errorf("el listado tiene %d bytes, se esperaban los %d de JSON", w.Body.Len(), len(quiere))
	}
	if got := ls.usados.Load(); got != l.bytes || got < int64(len(quiere)) {
		t.Errorf("un listado de %d bytes cuenta %d (el listado dice %d)", len(quiere), got, l.bytes)
	}
	chico := nuevosListados(int64(len(quiere)) * 3 / 4)
	if l := chico.tomar("a", formaActual, servicios); l != nil {
		t.Errorf("un listado de %d bytes cupo en %d", len(quiere), chico.tope)
	}
	if got := chico.usados.Load(); got != 0 {
		t.Errorf("un listado que no cupo dejó %d bytes contados", got)
	}
}
