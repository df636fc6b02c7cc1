package datos

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"cursohttp/internal/prueba/pgtest"
	"cursohttp/pkg/almacen"
	"cursohttp/pkg/idempotencia"
	"cursohttp/pkg/limitador"
	"cursohttp/pkg/respuesta"
)

var ctx = context.Background()

func debe(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

var delCurso = almacen.Opciones{Semillas: almacen.Semillas()}

func abrirSinCerrar(t *testing.T, donde string, o almacen.Opciones) almacen.Almacen {
	t.Helper()
	a, err := Abrir(ctx, donde, o)
	if err != nil {
		t.Fatalf("Abrir(%s): %v", donde, err)
	}
	return a
}

func respuestaDe(a almacen.Almacen) func(almacen.Servicio) idempotencia.Grabada {
	return func(s almacen.Servicio) idempotencia.Grabada {
		return idempotencia.Grabada{Codigo: 201,
			Cabeceras: []respuesta.Cabecera{{Nombre: "Location", Valor: "/servicios/" + strconv.Itoa(s.ID)}, {Nombre: "ETag", Valor: almacen.Etiqueta(a.Arranque(), s)}},
			Cuerpo:    []byte(`{"id":` + strconv.Itoa(s.ID) + "}\n")}
	}
}

// Everything the revisor wrote is there after a restart: services with their ids, versions and
// ETag suffix, retired services, checks and results, recorded key responses; the next ids go on
// from where they were; the start-up services are not created twice. What a crashed process left
// half done is settled: its key reservations are free (it created nothing), and its pending checks
// go, once, to the process that opened the file.
func TestSQLiteSobreviveAlReinicio(t *testing.T) {
	t.Parallel()
	ruta := filepath.Join(t.TempDir(), "revisor.db")
	a := abrirSinCerrar(t, ruta, delCurso)
	arranque := a.Arranque()
	tomar := func(a almacen.Almacen, llave string) idempotencia.Turno {
		t.Helper()
		turno, err := a.Tomar(ctx, "escritura-a", llave, "h")
		debe(t, err)
		return turno
	}
	reserva := tomar(a, "alta-avisos-1").Reserva
	avisos, err := a.Crear(ctx, "a", almacen.Datos{Nombre: "avisos", URL: "http://x", LimiteMs: 2000}, 0,
		&almacen.Alta{Reserva: reserva, Respuesta: respuestaDe(a)})
	debe(t, err)
	_, err = a.Cambiar(ctx, 1, nil, almacen.Datos{Nombre: "catalogo", URL: "http://y", LimiteMs: 1500})
	debe(t, err)
	_, err = a.Retirar(ctx, 3)
	debe(t, err)
	hecha, err := a.CrearRevision(ctx, 2)
	debe(t, err)
	debe(t, a.TerminarRevision(ctx, hecha.ID, almacen.Resultado{Estado: almacen.Arriba, Detalle: "200"}))
	pendiente, err := a.CrearRevision(ctx, 7)
	debe(t, err)
	if got := tomar(a, "alta-correo-1"); got.Tipo != idempotencia.Nueva {
		t.Fatalf("alta-correo-1: %v", got.Tipo)
	}
	debe(t, a.PonerMantenimiento(ctx, true))
	debe(t, a.Cerrar())

	b := abrirEn(t, ruta, delCurso)
	if b.Arranque() != arranque {
		t.Errorf("el arranque cambió: %s, antes %s", b.Arranque(), arranque)
	}
	lista, err := b.Listar(ctx, "*")
	debe(t, err)
	if len(lista) != 6 || lista[5] != avisos {
		t.Errorf("tras reabrir, %d servicios: %+v", len(lista), lista)
	}
	if s, _, _ := b.Buscar(ctx, 1); s.Version != 2 || s.URL != "http://y" {
		t.Errorf("catalogo = %+v", s)
	}
	if e, ok, _ := b.EquipoDeRetirado(ctx, 3); !ok || e != "b" {
		t.Errorf("la 3 retirada: %q %v", e, ok)
	}
	if r, _, _ := b.BuscarRevision(ctx, hecha.ID); r.Estado != almacen.Terminada || r.Resultado.Detalle != "200" {
		t.Errorf("revisión terminada = %+v", r)
	}
	if activo, _ := b.Mantenimiento(ctx); !activo {
		t.Error("el mantenimiento se perdió")
	}
	turno := tomar(b, "alta-avisos-1")
	if turno.Tipo != idempotencia.Repetir || turno.Grabada.Cabeceras[0].Valor != "/servicios/7" || turno.Grabada.Cabeceras[1].Valor != almacen.Etiqueta(arranque, avisos) {
		t.Errorf("la llave de avisos tras reabrir: %v %+v", turno.Tipo, turno.Grabada)
	}
	if got := tomar(b, "alta-correo-1"); got.Tipo != idempotencia.Nueva {
		t.Errorf("la reserva que dejó el proceso anterior: %v, se esperaba nueva (no creó nada)", got.Tipo)
	}
	s, err := b.Crear(ctx, "a", almacen.Datos{Nombre: "correo", URL: "http://x", LimiteMs: 2000}, 0, nil)
	if err != nil || s.ID != 8 {
		t.Errorf("la siguiente alta: %+v, %v; se esperaba id 8", s, err)
	}
	huerfanas, err := b.Huerfanas(ctx)
	debe(t, err)
	if len(huerfanas) != 1 || huerfanas[0].Revision.ID != pendiente.ID || huerfanas[0].Servicio != avisos {
		t.Fatalf("Huerfanas = %+v; se esperaba la revisión %d de avisos", huerfanas, pendiente.ID)
	}
	if otra, err := b.Huerfanas(ctx); err != nil || len(otra) != 0 {
		t.Errorf("la huérfana se entregó dos veces: %+v, %v", otra, err)
	}
	if r, err := b.CrearRevision(ctx, 1); err != nil || r.ID != pendiente.ID+1 {
		t.Errorf("la siguiente revisión: %+v, %v", r, err)
	}
}

// One file, one revisor: the second is refused with one line that says why.
func TestSQLiteUnProcesoPorArchivo(t *testing.T) {
	t.Parallel()
	ruta := filepath.Join(t.TempDir(), "revisor.db")
	abrirEn(t, ruta, delCurso)
	_, err := Abrir(ctx, ruta, delCurso)
	if err == nil || err.Error() != "otro proceso lo tiene abierto (¿otro revisor con el mismo --datos?)" {
		t.Fatalf("segundo Abrir = %v", err)
	}
}

// Data a newer revisor made is refused, in these words, on either database, and left as it was.
func TestDatosDeUnRevisorMasNuevo(t *testing.T) {
	t.Parallel()
	casos := []struct {
		donde       string
		migraciones []string
	}{
		{filepath.Join(t.TempDir(), "revisor.db"), migracionesSQLite},
		{pgtest.Base(t), migracionesPostgres},
	}
	for _, c := range casos {
		a := abrirSinCerrar(t, c.donde, delCurso)
		var db *sql.DB
		switch a := a.(type) {
		case *sqliteAlmacen:
			db = a.db
		case *postgresAlmacen:
			db = a.db
		}
		_, err := db.ExecContext(ctx, `UPDATE ajustes SET valor = '99' WHERE clave = 'esquema'`)
		debe(t, err)
		debe(t, a.Cerrar())
		quiere := fmt.Sprintf("los datos son de una versión más nueva del revisor (esquema 99; este conoce hasta el %d)", len(c.migraciones))
		if b, err := Abrir(ctx, c.donde, delCurso); err == nil || err.Error() != quiere {
			if err == nil {
				b.Cerrar()
			}
			t.Errorf("Abrir(%s) = %v; se esperaba «%s»", c.donde, err, quiere)
		}
	}
}

func TestErroresAlAbrir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	basura := filepath.Join(dir, "basura.db")
	debe(t, os.WriteFile(basura, []byte(strings.Repeat("esto no es sqlite\n", 100)), 0o644))
	casos := []struct{ donde, quiere string }{
		{"", "falta dónde"},
		{filepath.Join(dir, "no-existe", "revisor.db"), "no existe la carpeta"},
		{dir, "es una carpeta"},
		{basura, "no es una base de datos SQLite"},
		{"postgres://nadie@/x?host=" + dir, "no hay ningún PostgreSQL en " + dir},
		{"postgres://[::1", "la URL no se entiende"},
	}
	for _, c := range casos {
		_, err := Abrir(ctx, c.donde, delCurso)
		if err == nil || !strings.Contains(err.Error(), c.quiere) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Abrir(%q) = %v; se esperaba una línea con %q", c.donde, err, c.quiere)
		}
	}
}

// Several revisors on one PostgreSQL: one boot identifier, one maintenance switch, one window per
// credential, one reservation per key; when one process goes, its reservations are free and its
// pending checks go to exactly one of the others.
func TestPostgresVariosProcesos(t *testing.T) {
	t.Parallel()
	url := pgtest.Base(t)
	a := abrirSinCerrar(t, url, delCurso)
	b := abrirEn(t, url, delCurso)
	c := abrirEn(t, url, delCurso)
	if a.Arranque() != b.Arranque() {
		t.Fatalf("dos arranques para una base: %s y %s", a.Arranque(), b.Arranque())
	}
	if lista, _ := b.Listar(ctx, "*"); len(lista) != 6 {
		t.Fatalf("las semillas se crearon %d veces", len(lista)/6)
	}
	debe(t, a.PonerMantenimiento(ctx, true))
	if activo, _ := b.Mantenimiento(ctx); !activo {
		t.Error("b no ve el mantenimiento que encendió a")
	}
	debe(t, b.PonerMantenimiento(ctx, false))
	if activo, _ := a.Mantenimiento(ctx); activo {
		t.Error("a no ve que b lo apagó")
	}

	fija := func(c int, v time.Duration) limitador.Limitador { return limitador.NuevaVentanaFija(c, v) }
	ca, cb := a.Contador("revisiones", fija, 3, time.Minute), b.Contador("revisiones", fija, 3, time.Minute)
	t0 := time.Now()
	for i, cont := range []almacen.Contador{ca, cb, ca, cb} {
		v, err := cont.Permitir(ctx, "escritura-a", t0.Add(time.Duration(i)*time.Second))
		debe(t, err)
		if v.Permitido != (i < 3) {
			t.Errorf("petición %d, repartidas entre a y b: %+v", i+1, v)
		}
	}

	// Twenty processes' worth of simultaneous reservations of one key, spread over a, b and c.
	var wg sync.WaitGroup
	var mu sync.Mutex
	cuenta := map[idempotencia.Tipo]int{}
	var reservada idempotencia.Reserva
	for i := range 30 {
		wg.Go(func() {
			turno, err := []almacen.Almacen{a, b, c}[i%3].Tomar(ctx, "escritura-a", "alta-agenda-1", "h")
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			cuenta[turno.Tipo]++
			if turno.Tipo == idempotencia.Nueva {
				reservada = turno.Reserva
			}
			mu.Unlock()
		})
	}
	wg.Wait()
	if cuenta[idempotencia.Nueva] != 1 || cuenta[idempotencia.EnCurso] != 29 {
		t.Fatalf("turnos repartidos en tres procesos: %v", cuenta)
	}

	// Whoever reserved it gives it back; then a reserves it.
	debe(t, a.Soltar(ctx, reservada))
	if turno, _ := a.Tomar(ctx, "escritura-a", "alta-agenda-1", "h"); turno.Tipo != idempotencia.Nueva {
		t.Fatalf("a: %v", turno.Tipo)
	}
	var pendientes []int
	for _, s := range []int{1, 2, 4} {
		r, err := a.CrearRevision(ctx, s)
		debe(t, err)
		pendientes = append(pendientes, r.ID)
	}
	if turno, _ := b.Tomar(ctx, "escritura-a", "alta-agenda-1", "h"); turno.Tipo != idempotencia.EnCurso {
		t.Fatalf("con a vivo, b: %v", turno.Tipo)
	}
	if h, _ := b.Huerfanas(ctx); len(h) != 0 {
		t.Fatalf("con a vivo, sus revisiones no son huérfanas: %+v", h)
	}
	debe(t, a.Cerrar())
	if turno, _ := b.Tomar(ctx, "escritura-a", "alta-agenda-1", "h"); turno.Tipo != idempotencia.Nueva {
		t.Errorf("ido a, su reserva queda libre para b: %v", turno.Tipo)
	}
	var heredadas []int
	for range 2 {
		wg.Go(func() {
			for _, p := range []almacen.Almacen{b, c} {
				h, err := p.Huerfanas(ctx)
				if err != nil {
					t.Error(err)
				}
				mu.Lock()
				for _, r := range h {
					heredadas = append(heredadas, r.Revision.ID)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(heredadas) != len(pendientes) {
		t.Errorf("las %d revisiones pendientes de a se heredaron %d veces: %v", len(pendientes), len(heredadas), heredadas)
	}
	if _, _, err := a.Buscar(ctx, 1); err == nil {
		t.Error("un almacén cerrado respondió")
	}
}
