// Package almacentest is the one test suite every almacen.Almacen passes: the store in memory
// (pkg/almacen), SQLite and PostgreSQL (pkg/datos). What the revisor relies on is asserted here
// once, through the interface, so the three cannot drift apart: ids and names, versions, retired
// services, checks, the Idempotency-Key records with their validity and bounds (the tables that
// used to test idempotencia.Registro alone), maintenance and the rate-limit windows. Only _test.go
// files import it.
package almacentest

import (
	"context"
	"errors"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"cursohttp/internal/prueba"
	"cursohttp/pkg/almacen"
	"cursohttp/pkg/idempotencia"
	"cursohttp/pkg/limitador"
	"cursohttp/pkg/respuesta"
)

// Abrir returns a new, empty store configured by o, closed when the test ends.
type Abrir func(t *testing.T, o almacen.Opciones) almacen.Almacen

// Probar runs the whole suite against the stores abrir makes; each case in parallel, each with a
// store of its own.
func Probar(t *testing.T, abrir Abrir) {
	casos := []struct {
		nombre string
		probar func(*testing.T, Abrir)
	}{
		{"semillas y primer alta", semillasYPrimerAlta},
		{"arranque", arranque},
		{"nombre repetido por equipo", nombreRepetidoPorEquipo},
		{"tope de servicios por equipo", topeDeServicios},
		{"listar por equipo", listarPorEquipo},
		{"retirado recuerda el equipo", retiradoRecuerdaEquipo},
		{"cambiar compara la versión", cambiarComparaVersion},
		{"cambiar concurrente: un solo ganador", cambiarConcurrente},
		{"crear concurrente: un solo nombre", crearConcurrente},
		{"revisiones", revisiones},
		{"ninguna huérfana", ningunaHuerfana},
		{"tomar", tomar},
		{"alta con su llave en el mismo paso", altaConLlave},
		{"la respuesta grabada no cambia", grabadaNoCambia},
		{"vigencia", vigencia},
		{"una en curso también vence", enCursoVence},
		{"una reserva dura su plazo", plazoDeLaReserva},
		{"una reserva vencida que nadie tomó termina", reservaTardia},
		{"las reservas vencidas no ocupan cupo", reservasVencidasSinCupo},
		{"tope de llaves", topeDeLlaves},
		{"cuotas por credencial", cuotasPorCredencial},
		{"olvidar las llaves de un equipo", olvidarLlaves},
		{"carrera por una llave", carrera},
		{"concurrencia mixta", concurrenciaMixta},
		{"mantenimiento", mantenimiento},
		{"contador", contador},
	}
	recordando := func(t *testing.T, o almacen.Opciones) almacen.Almacen {
		return &conReservas{Almacen: abrir(t, o), ultimas: map[[2]string]idempotencia.Reserva{}}
	}
	for _, c := range casos {
		t.Run(c.nombre, func(t *testing.T) {
			t.Parallel()
			c.probar(t, recordando)
		})
	}
}

// conReservas remembers the last reservation Tomar handed out for each credential and key, so the
// cases can record or release "the key" as the request that reserved it would.
type conReservas struct {
	almacen.Almacen
	mu      sync.Mutex
	ultimas map[[2]string]idempotencia.Reserva
}

func (c *conReservas) Tomar(ctx context.Context, credencial, llave, huella string) (idempotencia.Turno, error) {
	turno, err := c.Almacen.Tomar(ctx, credencial, llave, huella)
	if err == nil && turno.Tipo == idempotencia.Nueva {
		c.mu.Lock()
		c.ultimas[[2]string{credencial, llave}] = turno.Reserva
		c.mu.Unlock()
	}
	return turno, err
}

// reserva is the last reservation of credencial and llave that a store opened by this suite handed
// out (a Reserva with no Ficha if none).
func reserva(a almacen.Llaves, credencial, llave string) idempotencia.Reserva {
	c := a.(*conReservas)
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.ultimas[[2]string{credencial, llave}]
	if !ok {
		r = idempotencia.Reserva{Credencial: credencial, Llave: llave}
	}
	return r
}

var ctx = context.Background()

func debe(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func curso(t *testing.T, abrir Abrir) almacen.Almacen {
	return abrir(t, almacen.Opciones{Arranque: "00000000", Semillas: almacen.Semillas()})
}

func buscar(t *testing.T, a almacen.Almacen, id int) (almacen.Servicio, bool) {
	t.Helper()
	s, ok, err := a.Buscar(ctx, id)
	debe(t, err)
	return s, ok
}

func semillasYPrimerAlta(t *testing.T, abrir Abrir) {
	a := abrir(t, almacen.Opciones{Semillas: almacen.Semillas()})
	lista, err := a.Listar(ctx, "*")
	debe(t, err)
	if len(lista) != 6 {
		t.Fatalf("%d servicios de arranque, se esperaban 6", len(lista))
	}
	nombres := []string{"catalogo", "pagos", "nomina", "inventario", "reportes", "facturacion"}
	for i, s := range lista {
		if s.ID != i+1 || s.Nombre != nombres[i] || s.Version != 1 {
			t.Errorf("servicio %d = %+v", i+1, s)
		}
	}
	if s, _ := buscar(t, a, 3); s.Equipo != "b" {
		t.Errorf("nomina es del equipo %q, se esperaba b", s.Equipo)
	}
	if s, _ := buscar(t, a, 5); s.LimiteMs != 1000 || s.URL != "http://127.0.0.1:18081/lento/3000" {
		t.Errorf("reportes = %+v", s)
	}
	s, err := a.Crear(ctx, "a", almacen.Datos{Nombre: "avisos", URL: "http://127.0.0.1:18081/codigo/200", LimiteMs: 2000}, 0, nil)
	if err != nil || s.ID != 7 || s.Version != 1 || s.Equipo != "a" {
		t.Fatalf("primer alta = %+v, %v; se esperaba id 7", s, err)
	}
	if got, ok := buscar(t, a, 7); !ok || got != s {
		t.Errorf("Buscar(7) = %+v, %v; se esperaba %+v", got, ok, s)
	}
	if _, ok := buscar(t, a, 8); ok {
		t.Error("Buscar(8) encontró algo")
	}
}

func arranque(t *testing.T, abrir Abrir) {
	a, b := abrir(t, almacen.Opciones{}), abrir(t, almacen.Opciones{})
	if !regexp.MustCompile(`^[0-9a-f]{8}$`).MatchString(a.Arranque()) {
		t.Fatalf("arranque %q no son 8 hex", a.Arranque())
	}
	if a.Arranque() == b.Arranque() {
		t.Errorf("dos almacenes sortearon el mismo arranque %q", a.Arranque())
	}
	if c := abrir(t, almacen.Opciones{Arranque: "6db25d01"}); c.Arranque() != "6db25d01" {
		t.Errorf("arranque pedido 6db25d01, se obtuvo %q", c.Arranque())
	}
}

func nombreRepetidoPorEquipo(t *testing.T, abrir Abrir) {
	a := curso(t, abrir)
	_, err := a.Crear(ctx, "a", almacen.Datos{Nombre: "catalogo", URL: "http://x", LimiteMs: 2000}, 0, nil)
	var rep *almacen.NombreRepetido
	if !errors.As(err, &rep) || rep.Existente != 1 {
		t.Fatalf("Crear catalogo en a = %v, se esperaba NombreRepetido{1}", err)
	}
	if _, err := a.Crear(ctx, "b", almacen.Datos{Nombre: "catalogo", URL: "http://x", LimiteMs: 2000}, 0, nil); err != nil {
		t.Errorf("otro equipo puede usar el nombre: %v", err)
	}
	// A retired service's name is free again.
	if _, err := a.Retirar(ctx, 2); err != nil {
		t.Fatal(err)
	}
	if s, err := a.Crear(ctx, "a", almacen.Datos{Nombre: "pagos", URL: "http://x", LimiteMs: 2000}, 0, nil); err != nil || s.ID != 8 {
		t.Errorf("pagos tras retirar la 2 = %+v, %v", s, err)
	}
}

func topeDeServicios(t *testing.T, abrir Abrir) {
	a := abrir(t, almacen.Opciones{})
	crear := func(equipo, nombre string) error {
		_, err := a.Crear(ctx, equipo, almacen.Datos{Nombre: nombre, URL: "http://x", LimiteMs: 2000}, 2, nil)
		return err
	}
	debe(t, crear("a", "uno"))
	debe(t, crear("a", "dos"))
	var lleno *almacen.TopeAlcanzado
	if err := crear("a", "tres"); !errors.As(err, &lleno) || lleno.Tope != 2 {
		t.Fatalf("la tercera de a con tope 2 = %v", err)
	}
	// A repeated name is answered first, as the course's check comes first.
	var rep *almacen.NombreRepetido
	if err := crear("a", "uno"); !errors.As(err, &rep) {
		t.Errorf("uno repetido con el equipo lleno = %v, se esperaba NombreRepetido", err)
	}
	debe(t, crear("b", "tres"))
	if _, err := a.Retirar(ctx, 1); err != nil {
		t.Fatal(err)
	}
	debe(t, crear("a", "tres"))

	// Twenty at once against a bound of five: exactly five pass.
	var wg sync.WaitGroup
	var mu sync.Mutex
	creados := 0
	for i := range 20 {
		wg.Go(func() {
			_, err := a.Crear(ctx, "c", almacen.Datos{Nombre: "c-" + strconv.Itoa(i), URL: "http://x", LimiteMs: 2000}, 5, nil)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				creados++
			case !errors.As(err, &lleno):
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if creados != 5 {
		t.Errorf("%d altas simultáneas pasaron el tope de 5", creados)
	}
}

func listarPorEquipo(t *testing.T, abrir Abrir) {
	a := curso(t, abrir)
	_, err := a.Crear(ctx, "*", almacen.Datos{Nombre: "de-admin", URL: "http://x", LimiteMs: 2000}, 0, nil)
	debe(t, err)
	_, err = a.Retirar(ctx, 4)
	debe(t, err)
	ids := func(equipo string) []int {
		lista, err := a.Listar(ctx, equipo)
		debe(t, err)
		var ids []int
		for _, s := range lista {
			ids = append(ids, s.ID)
		}
		return ids
	}
	for equipo, quiere := range map[string]string{"a": "[1 2 5 6]", "b": "[3]", "*": "[1 2 3 5 6 7]", "c": "[]"} {
		if got := ids(equipo); fmtInts(got) != quiere {
			t.Errorf("Listar(%q) = %v, se esperaba %s", equipo, got, quiere)
		}
	}
}

func fmtInts(v []int) string {
	b := []byte{'['}
	for i, n := range v {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, int64(n), 10)
	}
	return string(append(b, ']'))
}

func retiradoRecuerdaEquipo(t *testing.T, abrir Abrir) {
	a := curso(t, abrir)
	primera, err := a.Retirar(ctx, 3)
	debe(t, err)
	segunda, err := a.Retirar(ctx, 3)
	debe(t, err)
	if !primera || segunda {
		t.Fatal("Retirar(3) debe valer una sola vez")
	}
	if _, ok := buscar(t, a, 3); ok {
		t.Error("un retirado no se encuentra")
	}
	if e, ok, err := a.EquipoDeRetirado(ctx, 3); err != nil || !ok || e != "b" {
		t.Errorf("EquipoDeRetirado(3) = %q, %v, %v", e, ok, err)
	}
	if _, ok, err := a.EquipoDeRetirado(ctx, 1); err != nil || ok {
		t.Errorf("EquipoDeRetirado(1), que vive = %v, %v", ok, err)
	}
	if _, ok, err := a.EquipoDeRetirado(ctx, 99); err != nil || ok {
		t.Errorf("EquipoDeRetirado(99), que nunca existió = %v, %v", ok, err)
	}
	if _, err := a.Cambiar(ctx, 3, nil, almacen.Datos{Nombre: "nomina", URL: "http://x", LimiteMs: 2000}); !errors.Is(err, almacen.ErrRetirado) {
		t.Errorf("Cambiar un retirado = %v", err)
	}
	if ok, err := a.Retirar(ctx, 99); err != nil || ok {
		t.Errorf("Retirar(99) = %v, %v", ok, err)
	}
}

func cambiarComparaVersion(t *testing.T, abrir Abrir) {
	a := curso(t, abrir)
	uno := 1
	s, err := a.Cambiar(ctx, 1, &uno, almacen.Datos{Nombre: "catalogo", URL: "http://x", LimiteMs: 1500})
	if err != nil || s.Version != 2 || s.LimiteMs != 1500 || s.URL != "http://x" || s.Equipo != "a" {
		t.Fatalf("Cambiar = %+v, %v", s, err)
	}
	if got, _ := buscar(t, a, 1); got != s {
		t.Errorf("tras cambiar, Buscar = %+v; se esperaba %+v", got, s)
	}
	if _, err := a.Cambiar(ctx, 1, &uno, almacen.Datos{Nombre: "catalogo", URL: "http://x", LimiteMs: 1500}); !errors.Is(err, almacen.ErrConflicto) {
		t.Errorf("con la versión vieja = %v, se esperaba ErrConflicto", err)
	}
	s, err = a.Cambiar(ctx, 1, nil, almacen.Datos{Nombre: "catalogo", URL: "http://x", LimiteMs: 1500})
	if err != nil || s.Version != 3 {
		t.Errorf("If-Match: * = %+v, %v; la versión sube aunque no cambie nada", s, err)
	}
	var rep *almacen.NombreRepetido
	if _, err := a.Cambiar(ctx, 1, nil, almacen.Datos{Nombre: "pagos", URL: "http://x", LimiteMs: 1500}); !errors.As(err, &rep) || rep.Existente != 2 {
		t.Errorf("renombrar a pagos = %v", err)
	}
	// A name of another team is free; renaming frees the old name.
	s, err = a.Cambiar(ctx, 1, nil, almacen.Datos{Nombre: "nomina", URL: "http://x", LimiteMs: 1500})
	if err != nil || s.Nombre != "nomina" {
		t.Fatalf("renombrar a nomina (de b) = %+v, %v", s, err)
	}
	if _, err := a.Crear(ctx, "a", almacen.Datos{Nombre: "catalogo", URL: "http://x", LimiteMs: 2000}, 0, nil); err != nil {
		t.Errorf("catalogo, libre tras renombrar la 1: %v", err)
	}
	// A retired service's name check comes first, against its old team (as in memory).
	_, err = a.Retirar(ctx, 5)
	debe(t, err)
	if _, err := a.Cambiar(ctx, 5, nil, almacen.Datos{Nombre: "pagos", URL: "http://x", LimiteMs: 1500}); !errors.As(err, &rep) || rep.Existente != 2 {
		t.Errorf("renombrar la retirada 5 a pagos = %v, se esperaba NombreRepetido{2}", err)
	}
}

// Fifty writers holding the same version: exactly one wins.
func cambiarConcurrente(t *testing.T, abrir Abrir) {
	a := curso(t, abrir)
	const n = 50
	var wg sync.WaitGroup
	var mu sync.Mutex
	ganadores, conflictos := 0, 0
	for i := range n {
		wg.Go(func() {
			v := 1
			_, err := a.Cambiar(ctx, 1, &v, almacen.Datos{Nombre: "catalogo", URL: "http://x", LimiteMs: 100 + i})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				ganadores++
			case errors.Is(err, almacen.ErrConflicto):
				conflictos++
			default:
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if ganadores != 1 || conflictos != n-1 {
		t.Errorf("%d ganadores y %d conflictos; se esperaba 1 y %d", ganadores, conflictos, n-1)
	}
}

// Fifty registrations of one name at once: one service, every other told which one it is.
func crearConcurrente(t *testing.T, abrir Abrir) {
	a := curso(t, abrir)
	const n = 50
	var wg sync.WaitGroup
	var mu sync.Mutex
	creados, repetidos := 0, 0
	for range n {
		wg.Go(func() {
			s, err := a.Crear(ctx, "b", almacen.Datos{Nombre: "agenda", URL: "http://x", LimiteMs: 2000}, 0, nil)
			var rep *almacen.NombreRepetido
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil && s.ID == 7:
				creados++
			case errors.As(err, &rep) && rep.Existente == 7:
				repetidos++
			default:
				t.Errorf("%+v, %v", s, err)
			}
		})
	}
	wg.Wait()
	if creados != 1 || repetidos != n-1 {
		t.Errorf("%d creados y %d repetidos; se esperaba 1 y %d", creados, repetidos, n-1)
	}
}

func revisiones(t *testing.T, abrir Abrir) {
	a := curso(t, abrir)
	crear := func(servicio int) almacen.Revision {
		r, err := a.CrearRevision(ctx, servicio)
		debe(t, err)
		return r
	}
	r1, r2, r3 := crear(2), crear(4), crear(2)
	if r1.ID != 1 || r2.ID != 2 || r3.ID != 3 || r1.Estado != almacen.Pendiente || r1.Resultado != nil || r2.Servicio != 4 {
		t.Fatalf("revisiones = %+v %+v %+v", r1, r2, r3)
	}
	codigo, ms := 503, 4
	debe(t, a.TerminarRevision(ctx, 1, almacen.Resultado{Estado: almacen.Caido, Codigo: &codigo, Ms: &ms, Detalle: "503 (reintentar en 120 s)"}))
	debe(t, a.TerminarRevision(ctx, 3, almacen.Resultado{Estado: almacen.Caido, Detalle: "sin conexión"}))
	de2, err := a.RevisionesDe(ctx, 2)
	debe(t, err)
	if len(de2) != 2 || de2[0].ID != 1 || de2[1].ID != 3 {
		t.Fatalf("RevisionesDe(2) = %+v", de2)
	}
	if de2[0].Estado != almacen.Terminada || *de2[0].Resultado.Codigo != 503 || *de2[0].Resultado.Ms != 4 ||
		de2[0].Resultado.Estado != almacen.Caido || de2[0].Resultado.Detalle != "503 (reintentar en 120 s)" {
		t.Errorf("revisión 1 = %+v %+v", de2[0], de2[0].Resultado)
	}
	if r := de2[1].Resultado; r == nil || r.Codigo != nil || r.Ms != nil || r.Detalle != "sin conexión" {
		t.Errorf("revisión 3 sin respuesta HTTP = %+v", r)
	}
	// A copy handed out cannot change the store.
	*de2[0].Resultado.Codigo = 200
	if r, ok, err := a.BuscarRevision(ctx, 1); err != nil || !ok || *r.Resultado.Codigo != 503 {
		t.Error("la copia entregada cambió el almacén")
	}
	if r, ok, err := a.BuscarRevision(ctx, 2); err != nil || !ok || r.Estado != almacen.Pendiente || r.Resultado != nil {
		t.Errorf("revisión 2 = %+v, %v, %v", r, ok, err)
	}
	if _, ok, err := a.BuscarRevision(ctx, 4); err != nil || ok {
		t.Errorf("BuscarRevision(4) = %v, %v", ok, err)
	}
	if de5, err := a.RevisionesDe(ctx, 5); err != nil || len(de5) != 0 {
		t.Errorf("RevisionesDe(5) = %+v, %v", de5, err)
	}
}

// A store just made has no checks left by anyone, and the checks of the process that owns them are
// never handed out as orphans.
func ningunaHuerfana(t *testing.T, abrir Abrir) {
	a := curso(t, abrir)
	_, err := a.CrearRevision(ctx, 1)
	debe(t, err)
	h, err := a.Huerfanas(ctx)
	if err != nil || len(h) != 0 {
		t.Errorf("Huerfanas = %+v, %v", h, err)
	}
}

// The Idempotency-Key records.

var avisos201 = idempotencia.Grabada{
	Codigo: 201,
	Cabeceras: []respuesta.Cabecera{
		{Nombre: "Location", Valor: "/servicios/7"},
		{Nombre: "ETag", Valor: `"7-1-0cabc364"`},
	},
	Cuerpo: []byte(`{"id":7,"nombre":"avisos","url":"http://127.0.0.1:18081/codigo/200","limite_ms":2000}` + "\n"),
}

func nuevoReloj() *prueba.Reloj {
	return prueba.NuevoReloj(time.Date(2026, 10, 21, 22, 26, 31, 0, time.UTC))
}

func conLlaves(t *testing.T, abrir Abrir, o idempotencia.Opciones) almacen.Almacen {
	return abrir(t, almacen.Opciones{Llaves: o})
}

func tipo(t *testing.T, a almacen.Llaves, credencial, llave, huella string) idempotencia.Tipo {
	t.Helper()
	turno, err := a.Tomar(ctx, credencial, llave, huella)
	debe(t, err)
	return turno.Tipo
}

func grabar(t *testing.T, a almacen.Llaves, credencial, llave string) {
	t.Helper()
	debe(t, a.Grabar(ctx, reserva(a, credencial, llave), avisos201))
}

func soltar(t *testing.T, a almacen.Llaves, credencial, llave string) {
	t.Helper()
	debe(t, a.Soltar(ctx, reserva(a, credencial, llave)))
}

func cuantas(t *testing.T, a almacen.Almacen) int {
	t.Helper()
	n, err := a.CuantasLlaves(ctx)
	debe(t, err)
	return n
}

// olvidarLlaves: a class team's keys (its credentials end in «@EQUIPO»), recorded or in progress,
// go, and nobody else's: a credential that only contains the suffix, or differs in case, keeps its.
func olvidarLlaves(t *testing.T, abrir Abrir) {
	a := conLlaves(t, abrir, idempotencia.Opciones{})
	for _, cr := range []string{"escritura-a@e1", "escritura-b@e1", "escritura-a@e2", "escritura-a@e1x", "escritura-a@E1"} {
		tipo(t, a, cr, "grabada", "h")
		grabar(t, a, cr, "grabada")
		tipo(t, a, cr, "en-curso", "h")
	}
	n, err := a.OlvidarLlaves(ctx, "@e1")
	debe(t, err)
	if n != 4 {
		t.Errorf("OlvidarLlaves(@e1) quitó %d; se esperaban 4", n)
	}
	if c := cuantas(t, a); c != 6 {
		t.Errorf("quedan %d llaves; se esperaban 6", c)
	}
	// The team's keys are new again; the others' are as they were.
	if got := tipo(t, a, "escritura-a@e1", "grabada", "h"); got != idempotencia.Nueva {
		t.Errorf("una llave olvidada de @e1: %v", got)
	}
	if got := tipo(t, a, "escritura-a@e2", "grabada", "h"); got != idempotencia.Repetir {
		t.Errorf("una llave de @e2: %v", got)
	}
}

func tomar(t *testing.T, abrir Abrir) {
	h1, h2 := "h1", "h2"
	type paso struct {
		accion     string // tomar, grabar, soltar
		credencial string
		llave      string
		huella     string
		quiere     idempotencia.Tipo
	}
	casos := []struct {
		nombre string
		pasos  []paso
	}{
		{"llave nueva", []paso{{"tomar", "escritura-a", "k", h1, idempotencia.Nueva}}},
		{"misma llave mientras sigue en curso", []paso{
			{"tomar", "escritura-a", "k", h1, idempotencia.Nueva},
			{"tomar", "escritura-a", "k", h1, idempotencia.EnCurso},
		}},
		{"otro cuerpo mientras sigue en curso: 422 antes que 409", []paso{
			{"tomar", "escritura-a", "k", h1, idempotencia.Nueva},
			{"tomar", "escritura-a", "k", h2, idempotencia.OtraPeticion},
		}},
		{"terminada: se repite", []paso{
			{"tomar", "escritura-a", "k", h1, idempotencia.Nueva},
			{"grabar", "escritura-a", "k", "", 0},
			{"tomar", "escritura-a", "k", h1, idempotencia.Repetir},
			{"tomar", "escritura-a", "k", h1, idempotencia.Repetir},
		}},
		{"terminada con otro cuerpo", []paso{
			{"tomar", "escritura-a", "k", h1, idempotencia.Nueva},
			{"grabar", "escritura-a", "k", "", 0},
			{"tomar", "escritura-a", "k", h2, idempotencia.OtraPeticion},
		}},
		{"una falla suelta la llave (S-G5, S-G6)", []paso{
			{"tomar", "escritura-a", "k", h1, idempotencia.Nueva},
			{"soltar", "escritura-a", "k", "", 0},
			{"tomar", "escritura-a", "k", h2, idempotencia.Nueva},
		}},
		{"soltar no borra una respuesta grabada", []paso{
			{"tomar", "escritura-a", "k", h1, idempotencia.Nueva},
			{"grabar", "escritura-a", "k", "", 0},
			{"soltar", "escritura-a", "k", "", 0},
			{"tomar", "escritura-a", "k", h1, idempotencia.Repetir},
		}},
		{"grabar sin reservar no graba", []paso{
			{"grabar-perdida", "escritura-a", "k", "", 0},
			{"tomar", "escritura-a", "k", h1, idempotencia.Nueva},
		}},
		{"la llave es de quien la manda (S-G10)", []paso{
			{"tomar", "escritura-a", "alta-agenda-1", h1, idempotencia.Nueva},
			{"grabar", "escritura-a", "alta-agenda-1", "", 0},
			{"tomar", "escritura-b", "alta-agenda-1", h1, idempotencia.Nueva},
		}},
		{"las comillas son parte de la llave (S-G11)", []paso{
			{"tomar", "escritura-a", "alta-agenda-1", h1, idempotencia.Nueva},
			{"grabar", "escritura-a", "alta-agenda-1", "", 0},
			{"tomar", "escritura-a", `"alta-agenda-1"`, h1, idempotencia.Nueva},
		}},
		{"credencial y llave no se confunden al juntarlas", []paso{
			{"tomar", "a", "b:c", h1, idempotencia.Nueva},
			{"tomar", "a:b", "c", h1, idempotencia.Nueva},
		}},
	}
	for _, c := range casos {
		t.Run(c.nombre, func(t *testing.T) {
			t.Parallel()
			a := abrir(t, almacen.Opciones{})
			for i, p := range c.pasos {
				switch p.accion {
				case "tomar":
					turno, err := a.Tomar(ctx, p.credencial, p.llave, p.huella)
					debe(t, err)
					if turno.Tipo != p.quiere {
						t.Fatalf("paso %d: Tomar = %v, se esperaba %v", i, turno.Tipo, p.quiere)
					}
					if turno.Tipo == idempotencia.Repetir && string(turno.Grabada.Cuerpo) != string(avisos201.Cuerpo) {
						t.Fatalf("paso %d: se repitió %q", i, turno.Grabada.Cuerpo)
					}
				case "grabar":
					grabar(t, a, p.credencial, p.llave)
				case "grabar-perdida":
					if err := a.Grabar(ctx, reserva(a, p.credencial, p.llave), avisos201); !errors.Is(err, almacen.ErrReservaPerdida) {
						t.Fatalf("paso %d: Grabar sin reserva = %v, se esperaba ErrReservaPerdida", i, err)
					}
				case "soltar":
					soltar(t, a, p.credencial, p.llave)
				}
			}
		})
	}
}

// Crear with an Alta records the key's response from the service it creates, in the same step; a
// registration that fails records nothing and leaves the reservation for the caller to release.
func altaConLlave(t *testing.T, abrir Abrir) {
	a := curso(t, abrir)
	if got := tipo(t, a, "escritura-a", "alta-avisos-1", "h"); got != idempotencia.Nueva {
		t.Fatalf("Tomar = %v", got)
	}
	alta := &almacen.Alta{Reserva: reserva(a, "escritura-a", "alta-avisos-1"), Respuesta: func(s almacen.Servicio) idempotencia.Grabada {
		return idempotencia.Grabada{Codigo: 201,
			Cabeceras: []respuesta.Cabecera{{Nombre: "Location", Valor: "/servicios/" + strconv.Itoa(s.ID)}, {Nombre: "ETag", Valor: almacen.Etiqueta(a.Arranque(), s)}},
			Cuerpo:    []byte(s.Nombre + "\n")}
	}}
	s, err := a.Crear(ctx, "a", almacen.Datos{Nombre: "avisos", URL: "http://x", LimiteMs: 2000}, 0, alta)
	debe(t, err)
	turno, err := a.Tomar(ctx, "escritura-a", "alta-avisos-1", "h")
	debe(t, err)
	g := turno.Grabada
	if turno.Tipo != idempotencia.Repetir || g.Codigo != 201 || string(g.Cuerpo) != "avisos\n" || len(g.Cabeceras) != 2 ||
		g.Cabeceras[0] != (respuesta.Cabecera{Nombre: "Location", Valor: "/servicios/7"}) ||
		g.Cabeceras[1] != (respuesta.Cabecera{Nombre: "ETag", Valor: `"7-1-00000000"`}) || s.ID != 7 {
		t.Fatalf("tras Crear con la llave, Tomar = %v %+v", turno.Tipo, g)
	}
	if got := tipo(t, a, "escritura-a", "alta-pagos-1", "h"); got != idempotencia.Nueva {
		t.Fatalf("Tomar = %v", got)
	}
	alta.Reserva = reserva(a, "escritura-a", "alta-pagos-1")
	var rep *almacen.NombreRepetido
	if _, err := a.Crear(ctx, "a", almacen.Datos{Nombre: "pagos", URL: "http://x", LimiteMs: 2000}, 0, alta); !errors.As(err, &rep) {
		t.Fatalf("pagos repetido = %v", err)
	}
	if got := tipo(t, a, "escritura-a", "alta-pagos-1", "h"); got != idempotencia.EnCurso {
		t.Fatalf("tras un alta que falló, la llave = %v; sigue reservada hasta que se suelte", got)
	}
}

// The recorded response is replayed exactly, and nobody can change it through a slice they hold.
func grabadaNoCambia(t *testing.T, abrir Abrir) {
	a := abrir(t, almacen.Opciones{})
	g := idempotencia.Grabada{Codigo: 201, Cabeceras: append([]respuesta.Cabecera(nil), avisos201.Cabeceras...), Cuerpo: append([]byte(nil), avisos201.Cuerpo...)}
	tipo(t, a, "escritura-a", "k", "h")
	debe(t, a.Grabar(ctx, reserva(a, "escritura-a", "k"), g))
	g.Cuerpo[0] = 'X'
	g.Cabeceras[0].Valor = "/otro"
	primera, err := a.Tomar(ctx, "escritura-a", "k", "h")
	debe(t, err)
	primera.Grabada.Cuerpo[0] = 'Y'
	segunda, err := a.Tomar(ctx, "escritura-a", "k", "h")
	debe(t, err)
	s := segunda.Grabada
	if s.Codigo != 201 || string(s.Cuerpo) != string(avisos201.Cuerpo) ||
		len(s.Cabeceras) != 2 || s.Cabeceras[0] != avisos201.Cabeceras[0] || s.Cabeceras[1] != avisos201.Cabeceras[1] {
		t.Fatalf("la respuesta grabada cambió: %+v", s)
	}
}

// Exercise 3's rule, with a fake clock: validity counted from the reservation, strictly greater.
func vigencia(t *testing.T, abrir Abrir) {
	reloj := nuevoReloj()
	a := conLlaves(t, abrir, idempotencia.Opciones{Vigencia: 5 * time.Second, Reloj: reloj.Ahora})
	if got := tipo(t, a, "escritura-a", "vence-1", "h1"); got != idempotencia.Nueva {
		t.Fatalf("primera: %v", got)
	}
	reloj.Avanzar(500 * time.Millisecond)
	grabar(t, a, "escritura-a", "vence-1")
	reloj.Avanzar(4500 * time.Millisecond) // exactly 5 s after the reservation: still valid
	if got := tipo(t, a, "escritura-a", "vence-1", "h1"); got != idempotencia.Repetir {
		t.Fatalf("a los 5 s: %v, se esperaba repetir", got)
	}
	reloj.Avanzar(time.Millisecond)
	if got := tipo(t, a, "escritura-a", "vence-1", "h1"); got != idempotencia.Nueva {
		t.Fatalf("pasados 5 s: %v, se esperaba nueva", got)
	}
	// An expired key with another body is new too (no 422).
	soltar(t, a, "escritura-a", "vence-1")
	tipo(t, a, "escritura-a", "vence-2", "h1")
	grabar(t, a, "escritura-a", "vence-2")
	reloj.Avanzar(6 * time.Second)
	if got := tipo(t, a, "escritura-a", "vence-2", "otro"); got != idempotencia.Nueva {
		t.Fatalf("vencida con otro cuerpo: %v, se esperaba nueva", got)
	}
}

// A reservation older than the validity is forgotten even if it never finished (exercise 3's rule):
// a request leaked by a crash does not hold its key forever.
func enCursoVence(t *testing.T, abrir Abrir) {
	reloj := nuevoReloj()
	a := conLlaves(t, abrir, idempotencia.Opciones{Vigencia: time.Second, Reloj: reloj.Ahora})
	tipo(t, a, "escritura-a", "k", "h")
	reloj.Avanzar(time.Second)
	if got := tipo(t, a, "escritura-a", "k", "h"); got != idempotencia.EnCurso {
		t.Fatalf("dentro de la vigencia: %v, se esperaba en-curso", got)
	}
	reloj.Avanzar(time.Millisecond)
	if got := tipo(t, a, "escritura-a", "k", "h"); got != idempotencia.Nueva {
		t.Fatalf("pasada la vigencia: %v, se esperaba nueva", got)
	}
}

// Issue 22: a reservation is a lease. It holds its key for its Plazo (a repeat gets 409, another
// body 422); past it, the key is free, and the request that held it can no longer create, record or
// release anything under it: one service per key even when the first request outlives its Plazo.
func plazoDeLaReserva(t *testing.T, abrir Abrir) {
	reloj := nuevoReloj()
	a := abrir(t, almacen.Opciones{Semillas: almacen.Semillas(), Llaves: idempotencia.Opciones{Plazo: 2 * time.Second, Reloj: reloj.Ahora}})
	primera, err := a.Tomar(ctx, "escritura-a", "k", "h1")
	debe(t, err)
	if primera.Tipo != idempotencia.Nueva || primera.Reserva.Plazo != 2*time.Second {
		t.Fatalf("Tomar = %v con plazo %v", primera.Tipo, primera.Reserva.Plazo)
	}
	reloj.Avanzar(2 * time.Second) // exactly its Plazo: still held
	if got := tipo(t, a, "escritura-a", "k", "h1"); got != idempotencia.EnCurso {
		t.Fatalf("al cumplirse el plazo: %v, se esperaba en-curso", got)
	}
	if got := tipo(t, a, "escritura-a", "k", "h2"); got != idempotencia.OtraPeticion {
		t.Fatalf("otro cuerpo dentro del plazo: %v, se esperaba otra-peticion", got)
	}
	reloj.Avanzar(time.Millisecond)
	segunda, err := a.Tomar(ctx, "escritura-a", "k", "h2")
	debe(t, err)
	if segunda.Tipo != idempotencia.Nueva || segunda.Reserva.Ficha == primera.Reserva.Ficha {
		t.Fatalf("pasado el plazo, otro cuerpo: %v (ficha %d, la primera %d); se esperaba nueva, con otra ficha",
			segunda.Tipo, segunda.Reserva.Ficha, primera.Reserva.Ficha)
	}
	respuesta := func(s almacen.Servicio) idempotencia.Grabada {
		return idempotencia.Grabada{Codigo: 201, Cuerpo: []byte(s.Nombre + "\n")}
	}
	// The first request, late: nothing it does touches the key or creates anything.
	if _, err := a.Crear(ctx, "a", almacen.Datos{Nombre: "tarde", URL: "http://x", LimiteMs: 2000}, 0,
		&almacen.Alta{Reserva: primera.Reserva, Respuesta: respuesta}); !errors.Is(err, almacen.ErrReservaPerdida) {
		t.Fatalf("Crear con la reserva vencida y tomada = %v, se esperaba ErrReservaPerdida", err)
	}
	if err := a.Grabar(ctx, primera.Reserva, avisos201); !errors.Is(err, almacen.ErrReservaPerdida) {
		t.Fatalf("Grabar con la reserva vencida y tomada = %v, se esperaba ErrReservaPerdida", err)
	}
	debe(t, a.Soltar(ctx, primera.Reserva))
	if got := tipo(t, a, "escritura-a", "k", "h2"); got != idempotencia.EnCurso {
		t.Fatalf("tras soltar la reserva vieja, la nueva: %v, se esperaba en-curso", got)
	}
	lista, err := a.Listar(ctx, "a")
	debe(t, err)
	if len(lista) != 5 {
		t.Fatalf("la petición tardía creó algo: %d servicios de a, se esperaban 5", len(lista))
	}
	// The second finishes: its response is the key's.
	if _, err := a.Crear(ctx, "a", almacen.Datos{Nombre: "a-tiempo", URL: "http://x", LimiteMs: 2000}, 0,
		&almacen.Alta{Reserva: segunda.Reserva, Respuesta: respuesta}); err != nil {
		t.Fatal(err)
	}
	turno, err := a.Tomar(ctx, "escritura-a", "k", "h2")
	debe(t, err)
	if turno.Tipo != idempotencia.Repetir || string(turno.Grabada.Cuerpo) != "a-tiempo\n" {
		t.Fatalf("la llave tras el alta de la segunda: %v %q", turno.Tipo, turno.Grabada.Cuerpo)
	}
}

// A request that outlives its reservation's Plazo but that no other request has replaced still
// finishes: its service and its response, as if on time.
func reservaTardia(t *testing.T, abrir Abrir) {
	reloj := nuevoReloj()
	a := abrir(t, almacen.Opciones{Llaves: idempotencia.Opciones{Plazo: time.Second, Reloj: reloj.Ahora}})
	turno, err := a.Tomar(ctx, "escritura-a", "k", "h")
	debe(t, err)
	reloj.Avanzar(time.Minute)
	if _, err := a.Crear(ctx, "a", almacen.Datos{Nombre: "tarde", URL: "http://x", LimiteMs: 2000}, 0,
		&almacen.Alta{Reserva: turno.Reserva, Respuesta: func(almacen.Servicio) idempotencia.Grabada { return avisos201 }}); err != nil {
		t.Fatalf("Crear tarde sin que nadie tomara la llave = %v", err)
	}
	if got := tipo(t, a, "escritura-a", "k", "h"); got != idempotencia.Repetir {
		t.Fatalf("la llave tras el alta tardía: %v, se esperaba repetir", got)
	}
}

// Reservations past their Plazo hold no bound: a credential whose requests all hung or died can
// still register (issue 22: 32 hang-ups made the next keyed registration a 429), and a full store
// gets room from them.
func reservasVencidasSinCupo(t *testing.T, abrir Abrir) {
	reloj := nuevoReloj()
	a := abrir(t, almacen.Opciones{Llaves: idempotencia.Opciones{EnCursoPorCredencial: 3, Tope: 5, Plazo: time.Second, Reloj: reloj.Ahora}})
	for i := range 3 {
		if got := tipo(t, a, "b", "b-"+strconv.Itoa(i), "h"); got != idempotencia.Nueva {
			t.Fatalf("b-%d: %v", i, got)
		}
	}
	if got := tipo(t, a, "b", "b-3", "h"); got != idempotencia.DemasiadasEnCurso {
		t.Fatalf("la cuarta en curso: %v, se esperaba demasiadas-en-curso", got)
	}
	reloj.Avanzar(time.Second + time.Millisecond)
	if got := tipo(t, a, "b", "b-3", "h"); got != idempotencia.Nueva {
		t.Fatalf("con las tres vencidas, la cuarta: %v, se esperaba nueva", got)
	}
	for i := 4; i < 6; i++ {
		if got := tipo(t, a, "b", "b-"+strconv.Itoa(i), "h"); got != idempotencia.Nueva {
			t.Fatalf("b-%d: %v", i, got)
		}
	}
	if got := tipo(t, a, "b", "b-6", "h"); got != idempotencia.DemasiadasEnCurso {
		t.Fatalf("con tres vigentes en curso: %v, se esperaba demasiadas-en-curso", got)
	}
	// The store's total: two more credentials fill it with reservations that then lapse.
	reloj.Avanzar(time.Second + time.Millisecond)
	for _, k := range []string{"c-0", "c-1", "d-0", "d-1", "d-2"} {
		if got := tipo(t, a, k[:1], k, "h"); got != idempotencia.Nueva {
			t.Fatalf("%s: %v", k, got)
		}
	}
	if got := tipo(t, a, "e", "e-0", "h"); got != idempotencia.Lleno {
		t.Fatalf("con el total lleno de reservas vigentes: %v, se esperaba lleno", got)
	}
	reloj.Avanzar(time.Second + time.Millisecond)
	if got := tipo(t, a, "e", "e-0", "h"); got != idempotencia.Nueva {
		t.Fatalf("con el total lleno de reservas vencidas: %v, se esperaba nueva", got)
	}
}

func topeDeLlaves(t *testing.T, abrir Abrir) {
	t.Run("primero se van las vencidas", func(t *testing.T) {
		t.Parallel()
		reloj := nuevoReloj()
		a := conLlaves(t, abrir, idempotencia.Opciones{Vigencia: time.Minute, Tope: 3, Reloj: reloj.Ahora})
		for _, k := range []string{"a", "b"} {
			tipo(t, a, "c", k, "h")
			grabar(t, a, "c", k)
		}
		reloj.Avanzar(2 * time.Minute)
		tipo(t, a, "c", "z", "h")
		grabar(t, a, "c", "z")
		if got := tipo(t, a, "c", "nueva", "h"); got != idempotencia.Nueva {
			t.Fatalf("Tomar = %v", got)
		}
		if n := cuantas(t, a); n != 2 {
			t.Fatalf("quedan %d registros, se esperaban 2 (z y nueva)", n)
		}
		if got := tipo(t, a, "c", "z", "h"); got != idempotencia.Repetir {
			t.Fatalf("z, que no había vencido, debía seguir: %v", got)
		}
	})
	t.Run("luego la terminada más vieja, nunca una en curso", func(t *testing.T) {
		t.Parallel()
		a := conLlaves(t, abrir, idempotencia.Opciones{Tope: 3})
		tipo(t, a, "c", "en-curso", "h") // the oldest, but still running
		tipo(t, a, "c", "vieja", "h")
		grabar(t, a, "c", "vieja")
		tipo(t, a, "c", "reciente", "h")
		grabar(t, a, "c", "reciente")
		if got := tipo(t, a, "c", "nueva", "h"); got != idempotencia.Nueva {
			t.Fatalf("Tomar = %v", got)
		}
		if n := cuantas(t, a); n != 3 {
			t.Fatalf("hay %d registros, tope 3", n)
		}
		if got := tipo(t, a, "c", "en-curso", "h"); got != idempotencia.EnCurso {
			t.Fatalf("la llave en curso se perdió: %v", got)
		}
		if got := tipo(t, a, "c", "reciente", "h"); got != idempotencia.Repetir {
			t.Fatalf("se desalojó la reciente: %v", got)
		}
		// "vieja" was evicted, so it is served as new (and "reciente" makes room for it).
		if got := tipo(t, a, "c", "vieja", "h"); got != idempotencia.Nueva {
			t.Fatalf("vieja: %v, se esperaba nueva (desalojada)", got)
		}
	})
	t.Run("todas en curso: lleno, y no se crea nada", func(t *testing.T) {
		t.Parallel()
		a := conLlaves(t, abrir, idempotencia.Opciones{Tope: 2})
		tipo(t, a, "c", "a", "h")
		tipo(t, a, "c", "b", "h")
		if got := tipo(t, a, "c", "c", "h"); got != idempotencia.Lleno {
			t.Fatalf("Tomar = %v, se esperaba lleno", got)
		}
		if n := cuantas(t, a); n != 2 {
			t.Fatalf("hay %d registros", n)
		}
		soltar(t, a, "c", "a")
		if got := tipo(t, a, "c", "c", "h"); got != idempotencia.Nueva {
			t.Fatalf("tras soltar una: %v", got)
		}
	})
}

// Issue 16: one credential's keys never evict another's; each credential has its own bound, and its
// own bound on requests in progress.
func cuotasPorCredencial(t *testing.T, abrir Abrir) {
	tomarYGrabar := func(t *testing.T, a almacen.Almacen, credencial, llave string) idempotencia.Tipo {
		t.Helper()
		got := tipo(t, a, credencial, llave, "h")
		if got == idempotencia.Nueva {
			grabar(t, a, credencial, llave)
		}
		return got
	}
	t.Run("las llaves de otra credencial no desalojan la tuya", func(t *testing.T) {
		t.Parallel()
		a := conLlaves(t, abrir, idempotencia.Opciones{Tope: 100})
		tomarYGrabar(t, a, "escritura-a", "victima-1")
		for i := range 300 {
			if got := tomarYGrabar(t, a, "escritura-b", "k-"+strconv.Itoa(i)); got != idempotencia.Nueva {
				t.Fatalf("escritura-b, llave %d: %v", i, got)
			}
		}
		if got := tipo(t, a, "escritura-a", "victima-1", "h"); got != idempotencia.Repetir {
			t.Fatalf("tras 300 llaves de escritura-b, la repetición de escritura-a dio %v; se esperaba repetir", got)
		}
		if n := cuantas(t, a); n > 100 {
			t.Fatalf("%d registros, tope 100", n)
		}
	})
	t.Run("cada credencial hasta su tope, y el total", func(t *testing.T) {
		t.Parallel()
		a := conLlaves(t, abrir, idempotencia.Opciones{Tope: 10, TopePorCredencial: 4})
		for i := range 10 {
			tomarYGrabar(t, a, "b", "b-"+strconv.Itoa(i))
		}
		// b keeps its 4 newest keys; its older ones were its own to give up.
		for i := 6; i < 10; i++ {
			if got := tipo(t, a, "b", "b-"+strconv.Itoa(i), "h"); got != idempotencia.Repetir {
				t.Fatalf("b-%d: %v, se esperaba repetir", i, got)
			}
		}
		if n := cuantas(t, a); n != 4 {
			t.Fatalf("b tiene %d registros, tope por credencial 4", n)
		}
		for _, k := range []string{"c-0", "c-1", "c-2", "c-3", "d-0", "d-1"} {
			if got := tomarYGrabar(t, a, k[:1], k); got != idempotencia.Nueva {
				t.Fatalf("%s: %v", k, got)
			}
		}
		if n := cuantas(t, a); n != 10 {
			t.Fatalf("%d registros, se esperaban 10 (4 de b, 4 de c, 2 de d)", n)
		}
		// The store is full: d's next key costs d its own oldest, never one of b's or c's.
		tomarYGrabar(t, a, "d", "d-2")
		for _, k := range []string{"b-6", "b-7", "b-8", "b-9", "c-0", "c-1", "c-2", "c-3", "d-1", "d-2"} {
			if got := tipo(t, a, k[:1], k, "h"); got != idempotencia.Repetir {
				t.Fatalf("%s se perdió al llenarse el total: %v", k, got)
			}
		}
		if n := cuantas(t, a); n != 10 {
			t.Fatalf("%d registros, tope 10", n)
		}
	})
	t.Run("en curso a la vez, por credencial", func(t *testing.T) {
		t.Parallel()
		a := conLlaves(t, abrir, idempotencia.Opciones{EnCursoPorCredencial: 3})
		for i := range 3 {
			if got := tipo(t, a, "b", "b-"+strconv.Itoa(i), "h"); got != idempotencia.Nueva {
				t.Fatalf("b-%d: %v", i, got)
			}
		}
		if got := tipo(t, a, "b", "b-3", "h"); got != idempotencia.DemasiadasEnCurso {
			t.Fatalf("la cuarta en curso de b: %v, se esperaba demasiadas-en-curso", got)
		}
		if got := tipo(t, a, "b", "b-0", "h"); got != idempotencia.EnCurso {
			t.Fatalf("repetir una en curso sigue siendo en curso: %v", got)
		}
		if got := tipo(t, a, "a", "a-0", "h"); got != idempotencia.Nueva {
			t.Fatalf("las de b no cuentan para a: %v", got)
		}
		grabar(t, a, "b", "b-0")
		soltar(t, a, "b", "b-1")
		for _, k := range []string{"b-3", "b-4"} {
			if got := tipo(t, a, "b", k, "h"); got != idempotencia.Nueva {
				t.Fatalf("%s, con dos terminadas: %v", k, got)
			}
		}
		if n := cuantas(t, a); n != 5 {
			t.Fatalf("%d registros, se esperaban 5", n)
		}
	})
	t.Run("lleno: nada propio que ceder", func(t *testing.T) {
		t.Parallel()
		a := conLlaves(t, abrir, idempotencia.Opciones{Tope: 4, TopePorCredencial: 2})
		for _, c := range []string{"a", "b"} {
			tomarYGrabar(t, a, c, c+"-0")
			tomarYGrabar(t, a, c, c+"-1")
		}
		if got := tipo(t, a, "c", "c-0", "h"); got != idempotencia.Lleno {
			t.Fatalf("c, con el total lleno por a y b: %v, se esperaba lleno", got)
		}
		if got := tipo(t, a, "a", "a-0", "h"); got != idempotencia.Repetir {
			t.Fatalf("a-0 se perdió: %v", got)
		}
	})
}

// Fifty goroutines with the same key and body: exactly one reserves it.
func carrera(t *testing.T, abrir Abrir) {
	a := abrir(t, almacen.Opciones{})
	const n = 50
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		cuenta = map[idempotencia.Tipo]int{}
	)
	inicio := make(chan struct{})
	for range n {
		wg.Go(func() {
			<-inicio
			turno, err := a.Tomar(ctx, "escritura-a", "alta-correo-1", "h")
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			cuenta[turno.Tipo]++
			mu.Unlock()
		})
	}
	close(inicio)
	wg.Wait()
	if cuenta[idempotencia.Nueva] != 1 || cuenta[idempotencia.EnCurso] != n-1 {
		t.Fatalf("turnos: %v, se esperaba 1 nueva y %d en curso", cuenta, n-1)
	}
}

// Many keys, reservations, recordings and releases at once, under -race, with a small bound.
func concurrenciaMixta(t *testing.T, abrir Abrir) {
	a := conLlaves(t, abrir, idempotencia.Opciones{Tope: 20})
	var wg sync.WaitGroup
	for i := range 100 {
		wg.Go(func() {
			llave := string(rune('a' + i%26))
			turno, err := a.Tomar(ctx, "c", llave, "h")
			if err != nil {
				t.Error(err)
				return
			}
			if turno.Tipo == idempotencia.Nueva {
				if i%3 == 0 {
					err = a.Soltar(ctx, turno.Reserva)
				} else {
					err = a.Grabar(ctx, turno.Reserva, avisos201)
				}
			}
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if n := cuantas(t, a); n > 20 {
		t.Fatalf("%d registros, tope 20", n)
	}
}

func mantenimiento(t *testing.T, abrir Abrir) {
	a := abrir(t, almacen.Opciones{})
	ver := func(quiere bool) {
		t.Helper()
		activo, err := a.Mantenimiento(ctx)
		if err != nil || activo != quiere {
			t.Fatalf("Mantenimiento = %v, %v; se esperaba %v", activo, err, quiere)
		}
	}
	ver(false)
	debe(t, a.PonerMantenimiento(ctx, true))
	ver(true)
	debe(t, a.PonerMantenimiento(ctx, true))
	ver(true)
	debe(t, a.PonerMantenimiento(ctx, false))
	ver(false)
}

// The course's fixed window, counted by the store: three per minute and credential, the fourth told
// how long to wait, another credential not affected, a new window after the minute.
func contador(t *testing.T, abrir Abrir) {
	a := abrir(t, almacen.Opciones{})
	fija := func(c int, v time.Duration) limitador.Limitador { return limitador.NuevaVentanaFija(c, v) }
	c := a.Contador("revisiones", fija, 3, time.Minute)
	if p := c.Politica(); p != (limitador.Politica{Nombre: limitador.AlgoritmoVentana, Cuota: 3, Ventana: time.Minute}) {
		t.Fatalf("Politica = %+v", p)
	}
	t0 := time.Date(2026, 10, 21, 22, 26, 31, 0, time.UTC)
	permitir := func(clave string, desde time.Duration) limitador.Veredicto {
		t.Helper()
		v, err := c.Permitir(ctx, clave, t0.Add(desde))
		debe(t, err)
		return v
	}
	for i, quiere := range []int{2, 1, 0} {
		if v := permitir("escritura-a", time.Duration(i)*time.Second); !v.Permitido || v.Restantes != quiere {
			t.Fatalf("petición %d: %+v", i+1, v)
		}
	}
	if v := permitir("escritura-a", 20*time.Second); v.Permitido || v.RetryAfter != 40 {
		t.Fatalf("la cuarta a los 20 s: %+v; se esperaba rechazo con Retry-After 40", v)
	}
	if v := permitir("escritura-b", 20*time.Second); !v.Permitido || v.Restantes != 2 {
		t.Fatalf("otra credencial: %+v", v)
	}
	// Another limit of the same store counts apart.
	otro := a.Contador("consultas", fija, 3, time.Minute)
	if v, err := otro.Permitir(ctx, "escritura-a", t0.Add(20*time.Second)); err != nil || !v.Permitido {
		t.Fatalf("otro límite: %+v, %v", v, err)
	}
	if v := permitir("escritura-a", time.Minute); !v.Permitido || v.Restantes != 2 {
		t.Fatalf("pasado el minuto: %+v", v)
	}
}
