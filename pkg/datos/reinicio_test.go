package datos

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"cursohttp/internal/prueba"
	"cursohttp/internal/prueba/pgtest"
	"cursohttp/pkg/almacen"
	"cursohttp/pkg/idempotencia"
	"cursohttp/pkg/limitador"
)

// Issue 22, item 2: two revisors on one PostgreSQL, and the database stops and starts again, or
// their connections are cut. Afterwards each still sees the other alive — a key the other holds is
// in progress (409), with another body 422, never free for a second service; the other's pending
// checks are not orphans — and the rate-limit window and maintenance are as they were. Only a
// revisor that really stops beating is dead: Vida after its last beat its reservation is free and
// its check goes to exactly one other. Beat and life are shortened, so the test waits less; life
// stays thirty beats long, so that a loaded machine, whose beats come late, does not kill a live one.
func TestPostgresSobreviveAlServidor(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("para y vuelve a arrancar un PostgreSQL propio (unos 10 s)")
	}
	srv := pgtest.Propio(t)
	url, err := srv.CrearBase(ctx, "revisor")
	debe(t, err)
	const latido, vida = 100 * time.Millisecond, 3 * time.Second
	// A reservation's Plazo longer than the test: what must keep a's key is a being alive.
	o := almacen.Opciones{Semillas: almacen.Semillas(), Llaves: idempotencia.Opciones{Plazo: 10 * time.Minute}}
	abrir := func() *postgresAlmacen {
		a, err := abrirPostgresCon(ctx, url, o, latido, vida)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { a.Cerrar() })
		return a
	}
	a, b, c := abrir(), abrir(), abrir()
	tipo := func(p almacen.Llaves, llave, huella string) idempotencia.Turno {
		t.Helper()
		turno, err := p.Tomar(ctx, "escritura-a", llave, huella)
		if err != nil {
			t.Fatalf("Tomar(%s): %v", llave, err)
		}
		return turno
	}
	// a holds a key in progress and a pending check; two of the window's three are spent, one
	// through each; maintenance is on.
	enCurso := tipo(a, "alta-agenda-1", "h1")
	if enCurso.Tipo != idempotencia.Nueva {
		t.Fatalf("a: %v", enCurso.Tipo)
	}
	pendiente, err := a.CrearRevision(ctx, 1)
	debe(t, err)
	fija := func(c int, v time.Duration) limitador.Limitador { return limitador.NuevaVentanaFija(c, v) }
	ca, cb := a.Contador("revisiones", fija, 3, time.Minute), b.Contador("revisiones", fija, 3, time.Minute)
	t0 := time.Now()
	for i, cont := range []almacen.Contador{ca, cb} {
		if v, err := cont.Permitir(ctx, "escritura-a", t0.Add(time.Duration(i)*time.Second)); err != nil || !v.Permitido {
			t.Fatalf("petición %d de la ventana: %+v %v", i+1, v, err)
		}
	}
	debe(t, b.PonerMantenimiento(ctx, true))

	responden := func(que string) {
		t.Helper()
		prueba.Esperar(t, "a, b y c responden "+que, func() bool {
			for _, p := range []*postgresAlmacen{a, b, c} {
				if _, err := p.Mantenimiento(ctx); err != nil {
					return false
				}
			}
			return true
		})
	}
	vivos := func(que string) {
		t.Helper()
		for _, p := range []*postgresAlmacen{b, c} {
			if got := tipo(p, "alta-agenda-1", "h1").Tipo; got != idempotencia.EnCurso {
				t.Fatalf("%s, la llave que a tiene en curso, repetida en otro: %v; se esperaba en-curso", que, got)
			}
			if got := tipo(p, "alta-agenda-1", "h2").Tipo; got != idempotencia.OtraPeticion {
				t.Fatalf("%s, la llave de a con otro cuerpo en otro: %v; se esperaba otra-peticion (un segundo servicio)", que, got)
			}
			if h, err := p.Huerfanas(ctx); err != nil || len(h) != 0 {
				t.Fatalf("%s, con a vivo, sus revisiones se dieron por huérfanas: %+v %v", que, h, err)
			}
			if activo, err := p.Mantenimiento(ctx); err != nil || !activo {
				t.Fatalf("%s, el mantenimiento: %v %v", que, activo, err)
			}
		}
	}

	t1 := time.Now()
	debe(t, srv.Parar())
	t2 := time.Now()
	reanudar, listo := context.WithTimeout(ctx, 3*time.Minute) // however long a loaded machine takes
	defer listo()
	debe(t, srv.Reanudar(reanudar))
	t.Logf("PostgreSQL parado en %v, arrancado de nuevo en %v", t2.Sub(t1).Round(time.Millisecond), time.Since(t2).Round(time.Millisecond))
	responden("tras reiniciar PostgreSQL")
	vivos("recién reiniciado PostgreSQL")
	// Past the Vida the restart gave every process: a has beaten since, on its own.
	prueba.Esperar(t, "pasó la vida que el reinicio dio a todos", func() bool {
		var pasada bool
		err := b.db.QueryRowContext(ctx, `SELECT clock_timestamp() > pg_postmaster_start_time() + $1 * interval '1 millisecond'`,
			(2 * vida).Milliseconds()).Scan(&pasada)
		return err == nil && pasada
	})
	vivos("pasada la vida tras el reinicio")

	// A network blip: every connection of the three cut at once.
	cortar, err := pgx.Connect(ctx, url)
	debe(t, err)
	_, err = cortar.Exec(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`)
	cortar.Close(ctx)
	debe(t, err)
	responden("tras cortar sus conexiones")
	vivos("tras cortar sus conexiones")

	// The window went on counting: the third passes, through b, and the fourth does not, through a.
	if v, err := cb.Permitir(ctx, "escritura-a", t0.Add(2*time.Second)); err != nil || !v.Permitido {
		t.Fatalf("la tercera de la ventana tras el reinicio: %+v %v", v, err)
	}
	if v, err := ca.Permitir(ctx, "escritura-a", t0.Add(3*time.Second)); err != nil || v.Permitido {
		t.Fatalf("la cuarta de la ventana tras el reinicio: %+v %v; la ventana se perdió", v, err)
	}
	// a's registration ends: its answer is the key's, for everyone.
	s, err := a.Crear(ctx, "a", almacen.Datos{Nombre: "agenda", URL: "http://x", LimiteMs: 2000}, 0,
		&almacen.Alta{Reserva: enCurso.Reserva, Respuesta: respuestaDe(a)})
	debe(t, err)
	if turno := tipo(b, "alta-agenda-1", "h1"); turno.Tipo != idempotencia.Repetir || turno.Grabada.Cabeceras[0].Valor != "/servicios/7" || s.ID != 7 {
		t.Fatalf("la llave tras el alta de a, en b: %v %+v", turno.Tipo, turno.Grabada)
	}
	if got := tipo(c, "alta-agenda-1", "h2").Tipo; got != idempotencia.OtraPeticion {
		t.Fatalf("la llave tras el alta de a, con otro cuerpo en c: %v", got)
	}

	// a dies as kill -9 leaves it: its new reservation and its check stay a's for Vida, then the
	// key is free and the check goes to exactly one of b and c.
	if got := tipo(a, "alta-correo-1", "h").Tipo; got != idempotencia.Nueva {
		t.Fatalf("a: %v", got)
	}
	a.morir()
	// Its row holds until hasta (the database's clock): asked before then, the key is in progress.
	var hasta, ahora time.Time
	debe(t, b.db.QueryRowContext(ctx, `SELECT hasta FROM instancias WHERE id = $1`, a.instancia).Scan(&hasta))
	got := tipo(b, "alta-correo-1", "h").Tipo
	debe(t, b.db.QueryRowContext(ctx, `SELECT clock_timestamp()`).Scan(&ahora))
	switch {
	case got == idempotencia.EnCurso:
	case ahora.Before(hasta):
		t.Fatalf("recién muerto a, su reserva en b: %v; se esperaba en-curso hasta que pase su vida", got)
	default:
		t.Logf("la máquina tardó más que la vida de a en preguntar: su reserva ya estaba libre (%v)", got)
	}
	prueba.Esperar(t, "la reserva de a quedó libre", func() bool {
		return tipo(b, "alta-correo-1", "h").Tipo == idempotencia.Nueva
	})
	var heredadas []almacen.Huerfana
	for _, p := range []*postgresAlmacen{b, c, b, c} {
		h, err := p.Huerfanas(ctx)
		debe(t, err)
		heredadas = append(heredadas, h...)
	}
	if len(heredadas) != 1 || heredadas[0].Revision.ID != pendiente.ID {
		t.Fatalf("la revisión pendiente de a se heredó así: %+v; se esperaba una vez la %d", heredadas, pendiente.ID)
	}
}

// morir stops the store the way kill -9 stops its process, as far as the others can tell: no more
// beats, its connections closed, its row left to lapse.
func (a *postgresAlmacen) morir() {
	a.parar()
	a.latiendo.Wait()
	a.cerrar()
}
