package datosclase

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"cursohttp/internal/prueba"
	"cursohttp/internal/prueba/pgtest"
	"cursohttp/pkg/basesql"
	"cursohttp/pkg/matricula"
	"cursohttp/pkg/topes"
)

// pgtest.Main stops the tests' PostgreSQL; then every connection and timer the tests started must
// have ended.
func TestMain(m *testing.M) { os.Exit(prueba.SinFugas(m, pgtest.Main)) }

var ctx = context.Background()

func debe(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// abridor opens a new, empty store for t, and returns with it how to open that same store again.
type abridor func(t *testing.T) (a matricula.Almacen, reabrir func() matricula.Almacen)

func abrirEn(t *testing.T, donde string) matricula.Almacen {
	t.Helper()
	a, err := Abrir(ctx, donde)
	if err != nil {
		t.Fatalf("Abrir(%s): %v", donde, err)
	}
	t.Cleanup(func() { a.Cerrar() })
	return a
}

func TestSQLite(t *testing.T) {
	t.Parallel()
	probar(t, func(t *testing.T) (matricula.Almacen, func() matricula.Almacen) {
		ruta := filepath.Join(t.TempDir(), "clase.db")
		return abrirEn(t, ruta), func() matricula.Almacen { return abrirEn(t, ruta) }
	})
}

// The same suite on a real PostgreSQL, each case on a database of its own.
func TestPostgres(t *testing.T) {
	t.Parallel()
	pgtest.Base(t) // skips the whole suite at once when there is no server
	probar(t, func(t *testing.T) (matricula.Almacen, func() matricula.Almacen) {
		url := pgtest.Base(t)
		return abrirEn(t, url), func() matricula.Almacen { return abrirEn(t, url) }
	})
}

// probar is what every store does, on a new store per case.
func probar(t *testing.T, abrir abridor) {
	casos := []struct {
		nombre string
		probar func(t *testing.T, abrir abridor)
	}{
		{"lista", probarLista},
		{"nombres que se leen igual", probarNombresQueSeLeenIgual},
		{"nombres que se leen igual en una lista", probarNombresEnUnaLista},
		{"la clave es única en la base", probarClaveUnica},
		{"tope de alumnos", probarTopeDeAlumnos},
		{"agregar a la vez no pasa del tope", probarAgregarALaVez},
		{"revocar y renovar", probarRevocarYRenovar},
		{"rotar", probarRotar},
		{"anotar y leer", probarAnotar},
		{"topes de una calificación", probarTopesDeCalificacion},
		{"historial con tope", probarHistorialConTope},
		{"ultimas", probarUltimas},
		{"limpiar", probarLimpiar},
		{"quitar", probarQuitar},
		{"reabrir", probarReabrir},
		{"anotar a la vez", probarAnotarALaVez},
		{"tablas clase_", probarTablas},
		{"escrituras repetidas tras un COMMIT dudoso", probarRepetidas},
		{"rondas de predicción", probarRondas},
		{"tope de rondas", probarTopeDeRondas},
		{"responder mientras se revela", probarResponderMientrasSeRevela},
	}
	for _, c := range casos {
		t.Run(c.nombre, func(t *testing.T) {
			t.Parallel()
			c.probar(t, abrir)
		})
	}
}

func agregar(t *testing.T, a matricula.Almacen, nombres ...string) []matricula.Credencial {
	t.Helper()
	c, err := a.Agregar(ctx, nombres)
	debe(t, err)
	return c
}

func nombresDe(t *testing.T, a matricula.Almacen) []string {
	t.Helper()
	lista, err := a.Alumnos(ctx)
	debe(t, err)
	var nombres []string
	for _, al := range lista {
		nombres = append(nombres, al.Nombre)
	}
	return nombres
}

// identifica checks what Identificar says of secreto: quien, or nobody when quien is "".
func identifica(t *testing.T, a matricula.Almacen, secreto, quien string) {
	t.Helper()
	nombre, ok, err := a.Identificar(ctx, secreto)
	debe(t, err)
	if ok != (quien != "") || nombre != quien {
		t.Errorf("Identificar(%q) = %q, %v; se esperaba %q", secreto, nombre, ok, quien)
	}
}

func probarLista(t *testing.T, abrir abridor) {
	a, _ := abrir(t)
	if c, err := a.Agregar(ctx, nil); err != nil || len(c) != 0 {
		t.Fatalf("Agregar(nada) = %v, %v", c, err)
	}
	antes := time.Now().Add(-time.Second)
	creds := agregar(t, a, "  Ana ", "Bea", "O\u0301scar")
	quiere := []string{"Ana", "Bea", "\u00d3scar"}
	vistos := map[string]bool{}
	for i, c := range creds {
		if c.Alumno != quiere[i] || !strings.HasPrefix(c.Secreto, "cl-") || len(c.Secreto) != largoCredencial ||
			strings.ToLower(c.Secreto) != c.Secreto || vistos[c.Secreto] {
			t.Errorf("credencial %d: %+v", i, c)
		}
		vistos[c.Secreto] = true
		identifica(t, a, c.Secreto, quiere[i])
	}
	lista, err := a.Alumnos(ctx)
	debe(t, err)
	for i, al := range lista {
		if al.Nombre != quiere[i] || al.Revocada || al.Alta.Before(antes) || al.Alta.After(time.Now()) {
			t.Errorf("alumno %d: %+v", i, al)
		}
	}
	// Nothing that is not a live credential identifies anyone.
	for _, s := range []string{"", "cl-", creds[0].Secreto + "x", strings.ToUpper(creds[0].Secreto),
		"cl-" + strings.Repeat("a", largoCredencial-3), creds[0].Secreto[:largoCredencial-1] + "?"} {
		identifica(t, a, s, "")
	}

	// A list is added whole or not at all.
	for _, lista := range [][]string{
		{"Carla", "Ana"},          // already there
		{"Carla", "Poca", "Роса"}, // two that read the same in the list
		{"Carla", "Ana\u200b"},    // an invalid name
	} {
		if _, err := a.Agregar(ctx, lista); err == nil {
			t.Errorf("Agregar(%q) pasó", lista)
		}
	}
	if _, err := a.Agregar(ctx, []string{"Carla", "Ana"}); !errors.Is(err, matricula.ErrYaEsta) || !strings.Contains(err.Error(), "«Ana»") {
		t.Errorf("Agregar de un nombre que ya está: %v", err)
	}
	if got := nombresDe(t, a); !slices.Equal(got, quiere) {
		t.Errorf("tras las listas rechazadas la clase es %q; se esperaba %q", got, quiere)
	}
}

func probarNombresQueSeLeenIgual(t *testing.T, abrir abridor) {
	casos := []struct {
		caso      string
		ya, nuevo string
		yaEsta    bool   // matricula.ErrYaEsta
		invalido  bool   // *matricula.NombreInvalido
		enMensaje string // matricula.ErrYaEsta's message names both
	}{
		{caso: "mayúsculas no cuentan", ya: "Ana", nuevo: "ana", yaEsta: true, enMensaje: "«ana» se lee igual que «Ana», que ya está en la lista"},
		{caso: "el mismo", ya: "Ana", nuevo: "Ana", yaEsta: true, enMensaje: "«Ana» ya está en la lista"},
		// Issue 40: each of these got in beside «Ana García».
		{caso: "i sin punto y acento", ya: "Ana García", nuevo: "Ana Garc\u0131\u0301a", yaEsta: true,
			enMensaje: "«Ana Garc\u0131\u0301a» se lee igual que «Ana García», que ya está en la lista"},
		{caso: "sin acento", ya: "Ana García", nuevo: "Ana Garcia", yaEsta: true, enMensaje: "«Ana Garcia» se lee igual que «Ana García», que ya está en la lista"},
		{caso: "en minúsculas", ya: "Ana García", nuevo: "ana garcía", yaEsta: true},
		{caso: "en mayúsculas", ya: "Ana García", nuevo: "ANA GARCÍA", yaEsta: true},
		{caso: "con un punto", ya: "Ana García", nuevo: "Ana García.", yaEsta: true},
		{caso: "al revés: con acento tras sin él", ya: "Ana Garcia", nuevo: "Ana García", yaEsta: true},
		{caso: "otro nombre", ya: "Ana García", nuevo: "Ana Garcés"},
		{caso: "con espacios de más", ya: "María José", nuevo: " María   José ", yaEsta: true},
		{caso: "Óscar descompuesto tras compuesto", ya: "\u00d3scar", nuevo: "O\u0301scar", yaEsta: true},
		{caso: "Óscar compuesto tras descompuesto", ya: "O\u0301scar", nuevo: "\u00d3scar", yaEsta: true},
		{caso: "Ана cirílico no se lee Ana", ya: "Ana", nuevo: "Ана"},
		{caso: "cirílico entero que se lee latino", ya: "Poca", nuevo: "Роса", yaEsta: true, enMensaje: "«Роса» se lee igual que «Poca», que ya está en la lista"},
		{caso: "latino que se lee cirílico", ya: "АНА", nuevo: "AHA", yaEsta: true, enMensaje: "«AHA» se lee igual que «АНА», que ya está en la lista"},
		{caso: "griego que se lee latino", ya: "KATO", nuevo: "ΚΑΤΟ", yaEsta: true},
		{caso: "cirílico con acento", ya: "\u00d3CO", nuevo: "О\u0301СО", yaEsta: true},
		{caso: "Аna con A cirílica", ya: "Ana", nuevo: "Аna", invalido: true},
		{caso: "Ana con U+200B", ya: "Ana", nuevo: "Ana\u200b", invalido: true},
		{caso: "Ana con U+202E", ya: "Ana", nuevo: "Ana\u202e", invalido: true},
	}
	for _, c := range casos {
		t.Run(c.caso, func(t *testing.T) {
			a, _ := abrir(t)
			agregar(t, a, c.ya)
			_, err := a.Agregar(ctx, []string{c.nuevo})
			var inv *matricula.NombreInvalido
			switch {
			case c.yaEsta:
				if !errors.Is(err, matricula.ErrYaEsta) || !strings.Contains(err.Error(), c.enMensaje) {
					t.Fatalf("Agregar(%q) con %q ya en la lista: %v; se esperaba matricula.ErrYaEsta con %s", c.nuevo, c.ya, err, c.enMensaje)
				}
			case c.invalido:
				if !errors.As(err, &inv) {
					t.Fatalf("Agregar(%q): %v; se esperaba *matricula.NombreInvalido", c.nuevo, err)
				}
			case err != nil:
				t.Fatalf("Agregar(%q) con %q ya en la lista: %v", c.nuevo, c.ya, err)
			}
			if n := len(nombresDe(t, a)); n != 1+map[bool]int{true: 0, false: 1}[c.yaEsta || c.invalido] {
				t.Errorf("la clase tiene %d alumnos", n)
			}
		})
	}
}

func muchos(desde, n int) []string {
	nombres := make([]string, n)
	for i := range nombres {
		nombres[i] = fmt.Sprintf("Alumno %d", desde+i)
	}
	return nombres
}

func probarTopeDeAlumnos(t *testing.T, abrir abridor) {
	a, _ := abrir(t)
	if _, err := a.Agregar(ctx, muchos(0, topes.Alumnos+1)); !errors.Is(err, matricula.ErrClaseLlena) {
		t.Fatalf("Agregar de %d nombres: %v; se esperaba matricula.ErrClaseLlena", topes.Alumnos+1, err)
	}
	agregar(t, a, muchos(0, topes.Alumnos-2)...)
	if _, err := a.Agregar(ctx, muchos(topes.Alumnos-2, 3)); !errors.Is(err, matricula.ErrClaseLlena) {
		t.Fatalf("Agregar que pasa del tope: %v; se esperaba matricula.ErrClaseLlena", err)
	}
	if n := len(nombresDe(t, a)); n != topes.Alumnos-2 {
		t.Fatalf("tras pasar del tope hay %d alumnos; se esperaban %d (nada añadido)", n, topes.Alumnos-2)
	}
	agregar(t, a, muchos(topes.Alumnos-2, 2)...)
	if _, err := a.Agregar(ctx, []string{"Uno Más"}); !errors.Is(err, matricula.ErrClaseLlena) {
		t.Fatalf("Agregar con la clase llena: %v", err)
	}
	// Removing one makes room for one.
	debe(t, a.Quitar(ctx, "Alumno 0"))
	agregar(t, a, "Uno Más")
	if n := len(nombresDe(t, a)); n != topes.Alumnos {
		t.Fatalf("hay %d alumnos", n)
	}
}

// Several instructors' commands at once never make the class pass its bound.
func probarAgregarALaVez(t *testing.T, abrir abridor) {
	a, _ := abrir(t)
	const tanda = 60
	var bien atomic.Int64
	var wg sync.WaitGroup
	for i := range 10 {
		wg.Go(func() {
			_, err := a.Agregar(ctx, muchos(i*tanda, tanda))
			switch {
			case err == nil:
				bien.Add(1)
			case !errors.Is(err, matricula.ErrClaseLlena):
				t.Errorf("tanda %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	if n, quiere := len(nombresDe(t, a)), int(bien.Load())*tanda; n != quiere || n > topes.Alumnos || bien.Load() != topes.Alumnos/tanda {
		t.Fatalf("%d tandas de %d entraron y la clase tiene %d alumnos", bien.Load(), tanda, n)
	}
}

func probarRevocarYRenovar(t *testing.T, abrir abridor) {
	a, _ := abrir(t)
	creds := agregar(t, a, "Ana", "Bea")
	debe(t, a.Revocar(ctx, " Ana"))
	identifica(t, a, creds[0].Secreto, "")
	identifica(t, a, creds[1].Secreto, "Bea")
	lista, err := a.Alumnos(ctx)
	debe(t, err)
	if !lista[0].Revocada || lista[1].Revocada {
		t.Fatalf("tras revocar a Ana: %+v", lista)
	}
	debe(t, a.Revocar(ctx, "Ana")) // again: still revoked, no error
	nueva, err := a.Renovar(ctx, "Ana")
	debe(t, err)
	if nueva.Alumno != "Ana" || nueva.Secreto == creds[0].Secreto {
		t.Fatalf("Renovar: %+v", nueva)
	}
	identifica(t, a, nueva.Secreto, "Ana")
	identifica(t, a, creds[0].Secreto, "")
	// Renewing a live credential ends the old one too.
	otra, err := a.Renovar(ctx, "Ana")
	debe(t, err)
	identifica(t, a, otra.Secreto, "Ana")
	identifica(t, a, nueva.Secreto, "")
	if lista, _ := a.Alumnos(ctx); lista[0].Revocada {
		t.Fatalf("renovada, sigue revocada: %+v", lista[0])
	}
	for _, nombre := range []string{"Carla", "", "Ana\u202e"} {
		if err := a.Revocar(ctx, nombre); !errors.Is(err, matricula.ErrNoEsta) {
			t.Errorf("Revocar(%q): %v", nombre, err)
		}
		if _, err := a.Renovar(ctx, nombre); !errors.Is(err, matricula.ErrNoEsta) {
			t.Errorf("Renovar(%q): %v", nombre, err)
		}
	}
}

func probarRotar(t *testing.T, abrir abridor) {
	a, _ := abrir(t)
	if c, err := a.Rotar(ctx); err != nil || len(c) != 0 {
		t.Fatalf("Rotar una clase vacía: %v, %v", c, err)
	}
	viejas := agregar(t, a, "Ana", "Bea", "Carla")
	debe(t, a.Revocar(ctx, "Bea"))
	nuevas, err := a.Rotar(ctx)
	debe(t, err)
	if len(nuevas) != 2 || nuevas[0].Alumno != "Ana" || nuevas[1].Alumno != "Carla" {
		t.Fatalf("Rotar: %+v; se esperaban Ana y Carla (Bea sigue revocada)", nuevas)
	}
	for _, c := range viejas {
		identifica(t, a, c.Secreto, "")
	}
	for _, c := range nuevas {
		identifica(t, a, c.Secreto, c.Alumno)
	}
	if lista, _ := a.Alumnos(ctx); !lista[1].Revocada {
		t.Fatalf("Rotar devolvió la credencial revocada: %+v", lista)
	}
}

// calif is a grading of alumno with every field set.
func calif(id, alumno string) matricula.Calificacion {
	inicio := time.Date(2026, 3, 9, 10, 0, 0, 123456000, time.UTC)
	return matricula.Calificacion{
		ID: id, Alumno: alumno, Inicio: inicio, Fin: inicio.Add(1500 * time.Millisecond), Semilla: math.MaxUint64 - 7,
		Comprobaciones: []matricula.Veredicto{
			{ID: "reintenta-503", Estado: "paso"},
			{ID: "respeta-retry-after", Estado: "fallo"},
			{ID: "sale-con-codigo", Estado: "no-juzgada", Autodeclarada: true},
		},
		Informe: "✔ reintenta-503\n✘ respeta-retry-after: esperó 0 s, se pedían 2\n",
	}
}

// igual compares two gradings, their times as instants.
func igual(a, b matricula.Calificacion) bool {
	if !a.Inicio.Equal(b.Inicio) || !a.Fin.Equal(b.Fin) {
		return false
	}
	a.Inicio, a.Fin, b.Inicio, b.Fin = time.Time{}, time.Time{}, time.Time{}, time.Time{}
	return reflect.DeepEqual(a, b)
}

func ids(h []matricula.Calificacion) []string {
	var s []string
	for _, c := range h {
		s = append(s, c.ID)
	}
	return s
}

func probarAnotar(t *testing.T, abrir abridor) {
	a, _ := abrir(t)
	agregar(t, a, "Ana", "Bea")
	h, err := a.Historial(ctx, "Ana")
	if err != nil || len(h) != 0 {
		t.Fatalf("el historial de quien no tiene calificaciones: %v, %v", h, err)
	}
	c := calif("corrida-1", "Ana")
	debe(t, a.Anotar(ctx, c))
	// The same grading again (a retry that may have committed) is still one.
	debe(t, a.Anotar(ctx, c))
	h, err = a.Historial(ctx, "Ana")
	debe(t, err)
	if len(h) != 1 || !igual(h[0], c) {
		t.Fatalf("Historial(Ana) = %+v; se esperaba %+v", h, c)
	}
	vacia := matricula.Calificacion{ID: "corrida-2", Alumno: "Ana"}
	debe(t, a.Anotar(ctx, vacia))
	h, err = a.Historial(ctx, "Ana")
	debe(t, err)
	if len(h) != 2 || !igual(h[0], vacia) || !h[0].Inicio.IsZero() || !igual(h[1], c) {
		t.Fatalf("Historial(Ana), lo último primero: %+v", h)
	}
	// The name as a caller may write it is the roster's.
	debe(t, a.Anotar(ctx, calif("corrida-b", "  Bea ")))
	if h, err := a.Historial(ctx, "Bea"); err != nil || len(h) != 1 || h[0].Alumno != "Bea" {
		t.Fatalf("Historial(Bea) = %+v, %v", h, err)
	}
	if err := a.Anotar(ctx, calif("corrida-3", "Carla")); !errors.Is(err, matricula.ErrNoEsta) {
		t.Fatalf("Anotar de quien no está: %v", err)
	}
	if _, err := a.Historial(ctx, "Carla"); !errors.Is(err, matricula.ErrNoEsta) {
		t.Fatalf("Historial de quien no está: %v", err)
	}
}

func probarTopesDeCalificacion(t *testing.T, abrir abridor) {
	a, _ := abrir(t)
	agregar(t, a, "Ana")
	veredictos := func(n int) []matricula.Veredicto {
		v := make([]matricula.Veredicto, n)
		for i := range v {
			v[i] = matricula.Veredicto{ID: fmt.Sprintf("comprobacion-%d", i), Estado: "paso"}
		}
		return v
	}
	casos := []struct {
		caso   string
		cambio func(c *matricula.Calificacion)
		quiere error // nil: kept; errOtro: refused, not for the bounds
	}{
		{"en los topes", func(c *matricula.Calificacion) {
			c.ID = strings.Repeat("i", topes.IDCalificacion)
			c.Informe = strings.Repeat("x", topes.InformeClase)
			c.Comprobaciones = veredictos(topes.Comprobaciones)
			c.Comprobaciones[0].ID = strings.Repeat("v", topes.IDCalificacion)
		}, nil},
		{"un informe de más", func(c *matricula.Calificacion) { c.Informe = strings.Repeat("x", topes.InformeClase+1) }, matricula.ErrDemasiado},
		{"una comprobación de más", func(c *matricula.Calificacion) { c.Comprobaciones = veredictos(topes.Comprobaciones + 1) }, matricula.ErrDemasiado},
		{"un id de comprobación largo", func(c *matricula.Calificacion) {
			c.Comprobaciones[0].ID = strings.Repeat("v", topes.IDCalificacion+1)
		}, matricula.ErrDemasiado},
		{"un estado largo", func(c *matricula.Calificacion) {
			c.Comprobaciones[0].Estado = strings.Repeat("e", topes.IDCalificacion+1)
		}, matricula.ErrDemasiado},
		{"un id de calificación largo", func(c *matricula.Calificacion) { c.ID = strings.Repeat("i", topes.IDCalificacion+1) }, matricula.ErrDemasiado},
		{"sin id", func(c *matricula.Calificacion) { c.ID = "" }, errOtro},
		{"UTF-8 roto", func(c *matricula.Calificacion) { c.Informe = "a\xffb" }, errOtro},
		{"NUL", func(c *matricula.Calificacion) { c.Comprobaciones[0].ID = "a\x00b" }, errOtro},
	}
	guardadas := 0
	for i, c := range casos {
		cal := calif(fmt.Sprint("corrida-", i), "Ana")
		c.cambio(&cal)
		err := a.Anotar(ctx, cal)
		switch {
		case c.quiere == nil && err == nil:
			guardadas++
		case c.quiere == errOtro && err != nil && !errors.Is(err, matricula.ErrDemasiado):
		case c.quiere != nil && errors.Is(err, c.quiere):
		default:
			t.Errorf("%s: Anotar = %v; se esperaba %v", c.caso, err, c.quiere)
		}
	}
	if h, err := a.Historial(ctx, "Ana"); err != nil || len(h) != guardadas || len(h[0].Informe) != topes.InformeClase {
		t.Fatalf("se guardaron %d calificaciones (%v); se esperaba %d", len(h), err, guardadas)
	}
}

var errOtro = errors.New("otro error")

func probarHistorialConTope(t *testing.T, abrir abridor) {
	a, _ := abrir(t)
	agregar(t, a, "Ana", "Bea")
	debe(t, a.Anotar(ctx, calif("bea-1", "Bea")))
	const n = topes.HistorialClase + 5
	for i := range n {
		debe(t, a.Anotar(ctx, calif(fmt.Sprint("ana-", i), "Ana")))
	}
	h, err := a.Historial(ctx, "Ana")
	debe(t, err)
	var quiere []string
	for i := n - 1; i >= n-topes.HistorialClase; i-- {
		quiere = append(quiere, fmt.Sprint("ana-", i))
	}
	if got := ids(h); !slices.Equal(got, quiere) {
		t.Fatalf("Historial(Ana) = %v; se esperaban las %d últimas, la última primero: %v", got, topes.HistorialClase, quiere)
	}
	// The rows are gone, not hidden; and another student's history is its own.
	if filas := contar(t, a, "Ana"); filas != topes.HistorialClase {
		t.Fatalf("Ana tiene %d filas", filas)
	}
	if h, _ := a.Historial(ctx, "Bea"); !slices.Equal(ids(h), []string{"bea-1"}) {
		t.Fatalf("Historial(Bea) = %v", ids(h))
	}
}

// contar is how many rows of gradings the store holds for alumno's id, or in all ("").
func contar(t *testing.T, a matricula.Almacen, alumno string) int {
	t.Helper()
	var n int
	consulta, args := `SELECT count(*) FROM clase_calificaciones`, []any{}
	if alumno != "" {
		consulta += ` WHERE alumno = (SELECT id FROM clase_alumnos WHERE nombre = $1)`
		args = append(args, alumno)
	}
	debe(t, a.(*almacenSQL).db.QueryRowContext(ctx, consulta, args...).Scan(&n))
	return n
}

func probarUltimas(t *testing.T, abrir abridor) {
	a, _ := abrir(t)
	if u, err := a.Ultimas(ctx); err != nil || len(u) != 0 {
		t.Fatalf("Ultimas de una clase vacía: %v, %v", u, err)
	}
	agregar(t, a, "Ana", "Bea", "Carla")
	for _, c := range []matricula.Calificacion{calif("a1", "Ana"), calif("b1", "Bea"), calif("a2", "Ana"), calif("b2", "Bea"), calif("a3", "Ana")} {
		debe(t, a.Anotar(ctx, c))
	}
	u, err := a.Ultimas(ctx)
	debe(t, err)
	if len(u) != 2 || !igual(u["Ana"], calif("a3", "Ana")) || !igual(u["Bea"], calif("b2", "Bea")) {
		t.Fatalf("Ultimas = %+v; se esperaban a3 de Ana y b2 de Bea (Carla sin calificar)", u)
	}
}

func probarLimpiar(t *testing.T, abrir abridor) {
	a, _ := abrir(t)
	agregar(t, a, "Ana", "Bea")
	for _, c := range []matricula.Calificacion{calif("a1", "Ana"), calif("b1", "Bea"), calif("a2", "Ana")} {
		debe(t, a.Anotar(ctx, c))
	}
	debe(t, a.Limpiar(ctx, "Ana"))
	if h, _ := a.Historial(ctx, "Ana"); len(h) != 0 {
		t.Fatalf("tras Limpiar(Ana): %v", ids(h))
	}
	if h, _ := a.Historial(ctx, "Bea"); len(h) != 1 {
		t.Fatalf("Limpiar(Ana) se llevó lo de Bea: %v", ids(h))
	}
	if err := a.Limpiar(ctx, "Carla"); !errors.Is(err, matricula.ErrNoEsta) {
		t.Fatalf("Limpiar de quien no está: %v", err)
	}
	debe(t, a.Limpiar(ctx, ""))
	if u, _ := a.Ultimas(ctx); len(u) != 0 || contar(t, a, "") != 0 {
		t.Fatalf("tras Limpiar(\"\"): %v", u)
	}
	if n := len(nombresDe(t, a)); n != 2 {
		t.Fatalf("Limpiar quitó alumnos: quedan %d", n)
	}
}

func probarQuitar(t *testing.T, abrir abridor) {
	a, _ := abrir(t)
	creds := agregar(t, a, "Ana", "Bea")
	debe(t, a.Anotar(ctx, calif("a1", "Ana")))
	debe(t, a.Anotar(ctx, calif("b1", "Bea")))
	debe(t, a.Quitar(ctx, " Ana  "))
	identifica(t, a, creds[0].Secreto, "")
	if got := nombresDe(t, a); !slices.Equal(got, []string{"Bea"}) {
		t.Fatalf("tras Quitar(Ana): %q", got)
	}
	if _, err := a.Historial(ctx, "Ana"); !errors.Is(err, matricula.ErrNoEsta) {
		t.Fatalf("Historial de quien se quitó: %v", err)
	}
	if n := contar(t, a, ""); n != 1 {
		t.Fatalf("quedan %d calificaciones; las de Ana debían irse con ella", n)
	}
	if err := a.Quitar(ctx, "Ana"); !errors.Is(err, matricula.ErrNoEsta) || !strings.Contains(err.Error(), "«Ana»") {
		t.Fatalf("Quitar otra vez: %v", err)
	}
	if err := a.Anotar(ctx, calif("a2", "Ana")); !errors.Is(err, matricula.ErrNoEsta) {
		t.Fatalf("Anotar de quien se quitó: %v", err)
	}
	// Back in the class, a new student: no old gradings, a new credential.
	nueva := agregar(t, a, "Ana")[0]
	identifica(t, a, nueva.Secreto, "Ana")
	if h, err := a.Historial(ctx, "Ana"); err != nil || len(h) != 0 {
		t.Fatalf("Historial de Ana otra vez en la clase: %v, %v", ids(h), err)
	}
	if got := nombresDe(t, a); !slices.Equal(got, []string{"Bea", "Ana"}) {
		t.Fatalf("la clase por orden de alta: %q", got)
	}
}

func probarReabrir(t *testing.T, abrir abridor) {
	a, reabrir := abrir(t)
	creds := agregar(t, a, "Ana", "Bea", "Carla")
	debe(t, a.Revocar(ctx, "Bea"))
	for _, c := range []matricula.Calificacion{calif("a1", "Ana"), calif("a2", "Ana"), calif("c1", "Carla")} {
		debe(t, a.Anotar(ctx, c))
	}
	alumnos, err := a.Alumnos(ctx)
	debe(t, err)
	debe(t, a.Cerrar())
	debe(t, a.Cerrar())
	if _, err := a.Alumnos(ctx); !errors.Is(err, errCerrado) {
		t.Fatalf("Alumnos tras Cerrar: %v", err)
	}
	if err := a.Anotar(ctx, calif("a3", "Ana")); !errors.Is(err, errCerrado) {
		t.Fatalf("Anotar tras Cerrar: %v", err)
	}

	b := reabrir()
	otra, err := b.Alumnos(ctx)
	debe(t, err)
	if len(otra) != len(alumnos) {
		t.Fatalf("reabierta, la clase es %+v; era %+v", otra, alumnos)
	}
	for i := range otra {
		if otra[i].Nombre != alumnos[i].Nombre || otra[i].Revocada != alumnos[i].Revocada || !otra[i].Alta.Equal(alumnos[i].Alta) {
			t.Errorf("reabierta, alumno %d: %+v; era %+v", i, otra[i], alumnos[i])
		}
	}
	identifica(t, b, creds[0].Secreto, "Ana")
	identifica(t, b, creds[1].Secreto, "")
	identifica(t, b, creds[2].Secreto, "Carla")
	h, err := b.Historial(ctx, "Ana")
	debe(t, err)
	if len(h) != 2 || !igual(h[0], calif("a2", "Ana")) || !igual(h[1], calif("a1", "Ana")) {
		t.Fatalf("reabierta, Historial(Ana) = %v", ids(h))
	}
}

// Fifty gradings at once, from fifty goroutines: each one kept.
func probarAnotarALaVez(t *testing.T, abrir abridor) {
	a, _ := abrir(t)
	alumnos := []string{"Ana", "Bea", "Carla", "Dani", "Eva"}
	agregar(t, a, alumnos...)
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Go(func() {
			if err := a.Anotar(ctx, calif(fmt.Sprint("corrida-", i), alumnos[i%len(alumnos)])); err != nil {
				t.Errorf("Anotar %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	u, err := a.Ultimas(ctx)
	debe(t, err)
	vistas := map[string]bool{}
	for _, n := range alumnos {
		h, err := a.Historial(ctx, n)
		debe(t, err)
		if len(h) != 10 || !igual(u[n], h[0]) {
			t.Errorf("%s tiene %d calificaciones (Ultimas: %s, Historial: %v)", n, len(h), u[n].ID, ids(h))
		}
		for _, c := range h {
			vistas[c.ID] = true
		}
	}
	if len(vistas) != 50 {
		t.Fatalf("se guardaron %d de 50", len(vistas))
	}
}

// A write whose connection broke during COMMIT runs again (on PostgreSQL) not knowing whether the
// first run was applied: run twice, each does what it did once.
func probarRepetidas(t *testing.T, abrir abridor) {
	a, _ := abrir(t)
	s := a.(*almacenSQL)
	correr := func(fn func(tx *sql.Tx) error) error {
		return s.escribir(ctx, func(tx *sql.Tx, _ bool) error { return fn(tx) })
	}
	creds := []matricula.Credencial{nuevaCredencial("Ana"), nuevaCredencial("Bea")}
	alta := time.Now().UnixMicro()
	for i, quiza := range []bool{false, true} {
		debe(t, correr(func(tx *sql.Tx) error { return s.agregarEn(ctx, tx, creds, alta, quiza) }))
		if got := nombresDe(t, a); !slices.Equal(got, []string{"Ana", "Bea"}) {
			t.Fatalf("Agregar, vez %d: %q", i+1, got)
		}
	}
	// Without the doubt, the same list is a name already there.
	if err := correr(func(tx *sql.Tx) error { return s.agregarEn(ctx, tx, creds, alta, false) }); !errors.Is(err, matricula.ErrYaEsta) {
		t.Fatalf("Agregar otra vez sin duda: %v", err)
	}
	for _, c := range creds {
		identifica(t, a, c.Secreto, c.Alumno)
	}

	secretos := map[string]matricula.Credencial{}
	var primera, segunda []matricula.Credencial
	debe(t, correr(func(tx *sql.Tx) (err error) { primera, err = s.rotarEn(ctx, tx, secretos); return err }))
	debe(t, correr(func(tx *sql.Tx) (err error) { segunda, err = s.rotarEn(ctx, tx, secretos); return err }))
	if len(primera) != 2 || !slices.Equal(primera, segunda) {
		t.Fatalf("Rotar dos veces: %+v y %+v", primera, segunda)
	}
	for i, c := range segunda {
		identifica(t, a, c.Secreto, c.Alumno)
		identifica(t, a, creds[i].Secreto, "")
	}

	debe(t, correr(func(tx *sql.Tx) error { return s.quitarEn(ctx, tx, "Ana", false) }))
	debe(t, correr(func(tx *sql.Tx) error { return s.quitarEn(ctx, tx, "Ana", true) }))
	if err := correr(func(tx *sql.Tx) error { return s.quitarEn(ctx, tx, "Ana", false) }); !errors.Is(err, matricula.ErrNoEsta) {
		t.Fatalf("Quitar otra vez sin duda: %v", err)
	}
	if got := nombresDe(t, a); !slices.Equal(got, []string{"Bea"}) {
		t.Fatalf("tras quitar a Ana dos veces: %q", got)
	}
}

// The class's tables are named clase_…, so they can sit next to the revisor's.
func probarTablas(t *testing.T, abrir abridor) {
	a, _ := abrir(t)
	s := a.(*almacenSQL)
	consulta := `SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite%'`
	if s.postgres {
		consulta = `SELECT relname FROM pg_class WHERE relnamespace = 'public'::regnamespace`
	}
	filas, err := s.db.QueryContext(ctx, consulta)
	debe(t, err)
	defer filas.Close()
	var nombres []string
	for filas.Next() {
		var n string
		debe(t, filas.Scan(&n))
		nombres = append(nombres, n)
	}
	debe(t, filas.Err())
	if len(nombres) < 3 {
		t.Fatalf("tablas e índices: %q", nombres)
	}
	for _, n := range nombres {
		if !strings.HasPrefix(n, "clase_") {
			t.Errorf("«%s» no empieza por clase_", n)
		}
	}
}

// The file and its folder are made private; the file is in WAL, with synchronous=FULL and foreign
// keys on, on every connection.
func TestSQLiteArchivo(t *testing.T) {
	t.Parallel()
	ruta := filepath.Join(t.TempDir(), "nueva", "carpeta", "clase.db")
	a := abrirEn(t, ruta).(*almacenSQL)
	agregar(t, a, "Ana")
	if runtime.GOOS != "windows" {
		for camino, quiere := range map[string]os.FileMode{ruta: 0o600, ruta + "-wal": 0o600, filepath.Dir(ruta): 0o700 | os.ModeDir} {
			if st, err := os.Stat(camino); err != nil || st.Mode() != quiere {
				t.Errorf("%s: %v %v; se esperaba %v", camino, st.Mode(), err, quiere)
			}
		}
	}
	// Several connections at once, so the pragmas are seen on more than one.
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			c, err := a.db.Conn(ctx)
			if err != nil {
				t.Error(err)
				return
			}
			defer c.Close()
			var modo string
			var sincronia, claves int
			for consulta, destino := range map[string]any{"PRAGMA journal_mode": &modo, "PRAGMA synchronous": &sincronia, "PRAGMA foreign_keys": &claves} {
				if err := c.QueryRowContext(ctx, consulta).Scan(destino); err != nil {
					t.Error(err)
				}
			}
			if modo != "wal" || sincronia != 2 || claves != 1 {
				t.Errorf("journal_mode=%s synchronous=%d foreign_keys=%d; se esperaba wal, 2 (FULL), 1", modo, sincronia, claves)
			}
		})
	}
	wg.Wait()
}

// The instructor's command and the class lab have the file open at once: what one writes the other
// reads.
func TestSQLiteDosProcesos(t *testing.T) {
	t.Parallel()
	ruta := filepath.Join(t.TempDir(), "clase.db")
	lab, orden := abrirEn(t, ruta), abrirEn(t, ruta)
	c := agregar(t, orden, "Ana")[0]
	identifica(t, lab, c.Secreto, "Ana")
	debe(t, lab.Anotar(ctx, calif("a1", "Ana")))
	if h, err := orden.Historial(ctx, "Ana"); err != nil || len(h) != 1 {
		t.Fatalf("Historial desde la otra conexión: %v, %v", ids(h), err)
	}
}

// A file whose write lock another process holds past busy_timeout (5 s) is refused in these words.
func TestSQLiteBloqueado(t *testing.T) {
	t.Parallel()
	ruta := filepath.Join(t.TempDir(), "clase.db")
	otro := abrirEn(t, ruta).(*almacenSQL)
	tx, err := otro.db.BeginTx(ctx, nil) // BEGIN IMMEDIATE: the file's write lock
	debe(t, err)
	defer tx.Rollback()
	quiere := "no se puede abrir la clase en " + ruta + ": otro proceso lo tiene bloqueado"
	if a, err := Abrir(ctx, ruta); err == nil || err.Error() != quiere {
		if err == nil {
			a.Cerrar()
		}
		t.Errorf("Abrir = %v; se esperaba «%s»", err, quiere)
	}
}

// Data a newer program made is refused, in these words, on either database.
func TestDatosDeUnaClaseMasNueva(t *testing.T) {
	t.Parallel()
	ruta := filepath.Join(t.TempDir(), "clase.db")
	casos := []struct {
		donde, prefijo string
		migraciones    []string
	}{
		{ruta, "no se puede abrir la clase en " + ruta + ": ", migracionesSQLite},
		{pgtest.Base(t), "no se puede abrir la clase en PostgreSQL: ", migracionesPostgres},
	}
	for _, c := range casos {
		a, err := Abrir(ctx, c.donde)
		debe(t, err)
		_, err = a.(*almacenSQL).db.ExecContext(ctx, `UPDATE clase_ajustes SET valor = '99' WHERE clave = 'esquema'`)
		debe(t, err)
		debe(t, a.Cerrar())
		quiere := c.prefijo + fmt.Sprintf("los datos de la clase son de una versión más nueva (esquema 99; esta conoce hasta el %d)", len(c.migraciones))
		if b, err := Abrir(ctx, c.donde); err == nil || err.Error() != quiere {
			if err == nil {
				b.Cerrar()
			}
			t.Errorf("Abrir(%s) = %v; se esperaba «%s»", c.donde, err, quiere)
		}
	}
}

func TestAbrirErrores(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	basura := filepath.Join(dir, "basura.db")
	debe(t, os.WriteFile(basura, []byte(strings.Repeat("esto no es SQLite\n", 100)), 0o600))
	nueva := filepath.Join(dir, "nueva.db")
	a := abrirEn(t, nueva).(*almacenSQL)
	_, err := a.db.ExecContext(ctx, `UPDATE clase_ajustes SET valor = '99' WHERE clave = 'esquema'`)
	debe(t, err)
	debe(t, a.Cerrar())
	casos := []struct{ datos, quiere string }{
		{"", "falta dónde guardar la clase"},
		{"  ", "falta dónde guardar la clase"},
		{dir, "es una carpeta"},
		{basura, "no es una base de datos SQLite"},
		{nueva, "de una versión más nueva (esquema 99"},
		{"postgres://[::1", "la URL no se entiende"},
	}
	for _, c := range casos {
		a, err := Abrir(ctx, c.datos)
		if err == nil {
			a.Cerrar()
		}
		if err == nil || !strings.Contains(err.Error(), c.quiere) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Abrir(%q) = %v; se esperaba una línea con «%s»", c.datos, err, c.quiere)
		}
	}
}

func TestConexionCaida(t *testing.T) {
	t.Parallel()
	casos := []struct {
		caso  string
		err   error
		caida bool
	}{
		{"el servidor se apaga", &pgconn.PgError{Code: "57P01"}, true},
		{"el servidor arranca", fmt.Errorf("conectar: %w", &pgconn.PgError{Code: "57P03"}), true},
		{"la conexión se cortó", fmt.Errorf("leer: %w", io.ErrUnexpectedEOF), true},
		{"una conexión mala", driver.ErrBadConn, true},
		{"sin conectar", &pgconn.ConnectError{}, true},
		{"la red", &net.OpError{Op: "dial", Err: errors.New("connection refused")}, true},
		{"un bloqueo mutuo", &pgconn.PgError{Code: "40P01"}, true},
		{"una fila repetida", &pgconn.PgError{Code: "23505"}, false},
		{"contraseña", fmt.Errorf("conectar: %w", &pgconn.PgError{Code: "28P01"}), false},
		{"el contexto", fmt.Errorf("leer: %w", context.Canceled), false},
		{"el plazo", context.DeadlineExceeded, false},
		{"otra cosa", errors.New("sintaxis"), false},
	}
	for _, c := range casos {
		if got := conexionCaida(c.err); got != c.caida {
			t.Errorf("%s: conexionCaida = %v", c.caso, got)
		}
	}
}

// Issue 31: PostgreSQL stops and starts again while the class lab is writing gradings, and later
// every connection is cut. Every Anotar that returned nil is kept, once; those that were waiting
// for the database when it went away are written when it is back (none fails, unless the restart
// took longer than EsperaReinicio).
func TestPostgresSobreviveAlReinicio(t *testing.T) {
	t.Parallel()
	srv := pgtest.Propio(t)
	url, err := srv.CrearBase(ctx, "clase")
	debe(t, err)
	a := abrirEn(t, url)
	alumnos := muchos(0, 20)
	agregar(t, a, alumnos...)

	type anotada struct {
		id              string
		empezo, termino time.Time
	}
	var (
		mu         sync.Mutex
		hechas     = map[string][]anotada{} // by student
		fallidas   []error
		bien       atomic.Int64
		enCurso    atomic.Int64
		parar      = make(chan struct{})
		escritores sync.WaitGroup
	)
	// Five writers, each on four students of its own, at most topes.HistorialClase gradings a student (so
	// every one stays in its history).
	for e := range 5 {
		escritores.Go(func() {
			for j := range 4 * topes.HistorialClase {
				select {
				case <-parar:
					return
				default:
				}
				alumno := alumnos[e*4+j%4]
				c := calif(fmt.Sprintf("e%d-%d", e, j), alumno)
				empezo := time.Now()
				enCurso.Add(1)
				err := a.Anotar(ctx, c)
				enCurso.Add(-1)
				mu.Lock()
				if err == nil {
					hechas[alumno] = append(hechas[alumno], anotada{c.ID, empezo, time.Now()})
					bien.Add(1)
				} else {
					fallidas = append(fallidas, err)
				}
				mu.Unlock()
			}
		})
	}
	prueba.Esperar(t, "las primeras calificaciones", func() bool { return bien.Load() >= 10 })
	parado := time.Now()
	debe(t, srv.Parar())
	antes := bien.Load()
	// A write in flight with the database down is what this test is about: wait for one (a loaded
	// machine may not schedule the writers before a quick restart ends), then bring it back.
	prueba.Esperar(t, "un Anotar con PostgreSQL fuera", func() bool { return enCurso.Load() > 0 })
	caido := time.Now()
	reanudar, listo := context.WithTimeout(ctx, 3*time.Minute) // however long a loaded machine takes
	defer listo()
	debe(t, srv.Reanudar(reanudar))
	vuelto := time.Now()
	t.Logf("PostgreSQL fuera %v", vuelto.Sub(parado).Round(time.Millisecond))
	prueba.Esperar(t, "calificaciones tras el reinicio", func() bool { return bien.Load() >= antes+20 })
	// And a network blip: every connection of the store cut at once, mid-writes.
	cortar, err := pgx.Connect(ctx, url)
	debe(t, err)
	_, err = cortar.Exec(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`)
	cortar.Close(ctx)
	debe(t, err)
	despues := bien.Load()
	prueba.Esperar(t, "calificaciones tras el corte", func() bool { return bien.Load() >= despues+20 })
	close(parar)
	escritores.Wait()

	mu.Lock()
	defer mu.Unlock()
	if len(fallidas) > 0 && vuelto.Sub(parado) < EsperaReinicio-5*time.Second {
		t.Errorf("con PostgreSQL fuera %v, %d Anotar fallaron; el primero: %v", vuelto.Sub(parado), len(fallidas), fallidas[0])
	}
	cruzaron := 0
	for alumno, anotadas := range hechas {
		h, err := a.Historial(ctx, alumno)
		debe(t, err)
		guardadas := ids(h)
		for _, an := range anotadas {
			if !slices.Contains(guardadas, an.id) {
				t.Errorf("la calificación %s de %s volvió sin error y no está", an.id, alumno)
			}
			if an.empezo.Before(caido) && an.termino.After(vuelto) {
				cruzaron++
			}
		}
		if len(guardadas) != len(anotadas) {
			t.Errorf("%s: %d guardadas, %d anotadas sin error", alumno, len(guardadas), len(anotadas))
		}
	}
	// Some writes began before the database was back and ended after it was: they waited for it,
	// and went in.
	if cruzaron == 0 {
		t.Errorf("ningún Anotar esperó al reinicio: la prueba no probó nada")
	}
	t.Logf("%d calificaciones, %d esperaron al reinicio, %d fallaron", bien.Load(), cruzaron, len(fallidas))
}

// What a grading costs on SQLite (synchronous=FULL: one fsync of the WAL each), with the history
// full, so each also trims the oldest.
func BenchmarkAnotar(b *testing.B) {
	a, err := Abrir(ctx, filepath.Join(b.TempDir(), "clase.db"))
	debe(b, err)
	defer a.Cerrar()
	alumnos := muchos(0, 2)
	if _, err := a.Agregar(ctx, alumnos); err != nil {
		b.Fatal(err)
	}
	c := calif("", "")
	c.Informe = strings.Repeat("✔ una comprobación que pasó\n", 100) // about 3 KB, a long report
	i := 0
	anotar := func() {
		c.ID, c.Alumno = fmt.Sprint("corrida-", i), alumnos[i%len(alumnos)]
		if err := a.Anotar(ctx, c); err != nil {
			b.Fatal(err)
		}
		i++
	}
	for range len(alumnos) * topes.HistorialClase {
		anotar()
	}
	for b.Loop() {
		anotar()
	}
}

// Within the names added at once, one that reads as one before it is refused, naming it; nothing
// of the list is added.
func probarNombresEnUnaLista(t *testing.T, abrir abridor) {
	a, _ := abrir(t)
	agregar(t, a, "Beto")
	for _, c := range []struct {
		lista  []string
		quiere string
	}{
		{[]string{"Ana García", "Luis", "ana garcia"}, "«ana garcia» se lee igual que «Ana García», que va antes en los nombres que añades"},
		{[]string{"Eva", "Eva"}, "«Eva» está dos veces en los nombres que añades"},
		{[]string{"Ana García.", "Ana Garc\u0131\u0301a"}, "«Ana Garcı́a» se lee igual que «Ana García.», que va antes en los nombres que añades"},
		{[]string{"Carla", "BETO"}, "«BETO» se lee igual que «Beto», que ya está en la lista"},
	} {
		_, err := a.Agregar(ctx, c.lista)
		var rep *matricula.NombreRepetido
		if !errors.Is(err, matricula.ErrYaEsta) || !errors.As(err, &rep) || err.Error() != c.quiere {
			t.Errorf("Agregar(%q): %v; se esperaba %q", c.lista, err, c.quiere)
		}
	}
	if n := nombresDe(t, a); !slices.Equal(n, []string{"Beto"}) {
		t.Errorf("la lista: %q", n)
	}
}

// A roster made before names had keys (schema of issue 32): opened now, every row is still
// there — two that read the same included, the first keeping the key — and a new name that reads
// as one of them is refused.
func TestClavesDeUnaClaseDeAntes(t *testing.T) {
	t.Parallel()
	casos := []struct {
		nombre      string
		donde       func(t *testing.T) string
		abrir       func(donde string) (*sql.DB, error)
		migraciones []string
	}{
		{"SQLite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "clase.db") },
			func(d string) (*sql.DB, error) { return basesql.AbrirSQLite(d, 1) }, migracionesSQLite},
		{"PostgreSQL", func(t *testing.T) string { return pgtest.Base(t) },
			func(d string) (*sql.DB, error) { return basesql.AbrirPostgres(d, 2) }, migracionesPostgres},
	}
	for _, c := range casos {
		t.Run(c.nombre, func(t *testing.T) {
			t.Parallel()
			donde := c.donde(t)
			db, err := c.abrir(donde)
			debe(t, err)
			_, err = basesql.Transaccion(ctx, db, func(tx *sql.Tx) error {
				if _, err := basesql.Migrar(ctx, tx, basesql.Esquema{Ajustes: "clase_ajustes", Migraciones: c.migraciones[:len(c.migraciones)-2], MasNueva: masNueva}); err != nil {
					return err
				}
				for i, n := range []string{"Ana García", "ana garcia", "Beto"} {
					if _, err := tx.ExecContext(ctx, `INSERT INTO clase_alumnos (nombre, esqueleto, alta, huella) VALUES ($1, $2, $3, $4)`,
						n, matricula.Esqueleto(n), int64(i), huella(fmt.Sprint("cl-", i))); err != nil {
						return err
					}
				}
				return nil
			})
			debe(t, err)
			debe(t, db.Close())

			a := abrirEn(t, donde)
			if n := nombresDe(t, a); !slices.Equal(n, []string{"Ana García", "ana garcia", "Beto"}) {
				t.Errorf("tras migrar: %q", n)
			}
			for nuevo, otro := range map[string]string{"ANA GARCÍA": "Ana García", "beto.": "Beto"} {
				var rep *matricula.NombreRepetido
				if _, err := a.Agregar(ctx, []string{nuevo}); !errors.As(err, &rep) || rep.Otro != otro {
					t.Errorf("Agregar(%q) tras migrar: %v; se esperaba que se lee igual que %q", nuevo, err, otro)
				}
			}
			agregar(t, a, "Carla")
			a.Cerrar()
			if n := nombresDe(t, abrirEn(t, donde)); !slices.Equal(n, []string{"Ana García", "ana garcia", "Beto", "Carla"}) {
				t.Errorf("reabierta: %q", n)
			}
		})
	}
}

// The database itself keeps one name per key (a unique index), not only Agregar's check.
func probarClaveUnica(t *testing.T, abrir abridor) {
	a, _ := abrir(t)
	agregar(t, a, "Ana García")
	s := a.(*almacenSQL)
	_, err := s.db.ExecContext(ctx, `INSERT INTO clase_alumnos (nombre, esqueleto, clave, alta) VALUES ($1, $2, $3, 0)`,
		"ANA GARCIA", matricula.Esqueleto("ANA GARCIA"), matricula.Clave("ANA GARCIA"))
	if err == nil {
		t.Error("la base aceptó un nombre con la clave de «Ana García»")
	}
}
