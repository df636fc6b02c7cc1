package revisor_test

// A client that hangs up in the middle of a keyed registration (issue 22, item 1), on each of the
// three stores: the registration it started ends as it would have (a client that hangs up does not
// stop work it started), its retry with the same key gets the recorded 201 (or, while the first
// still runs, 409 llave-en-curso), and hang-ups never add up to a 429.

import (
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"cursohttp/internal/prueba"
	"cursohttp/internal/prueba/pgtest"
	"cursohttp/internal/prueba/servidortest"
	"cursohttp/pkg/almacen"
	"cursohttp/pkg/bitacora"
	"cursohttp/pkg/datos"
	"cursohttp/pkg/idempotencia"
	"cursohttp/pkg/revisor"
)

// pgtest.Main stops the tests' PostgreSQL; then every server, connection and timer the tests
// started must have ended.
func TestMain(m *testing.M) { os.Exit(prueba.SinFugas(m, pgtest.Main)) }

// almacenes are the three stores, each opened new for one test.
var almacenes = []struct {
	nombre string
	abrir  func(t *testing.T, o almacen.Opciones) almacen.Almacen
}{
	{"memoria", func(_ *testing.T, o almacen.Opciones) almacen.Almacen { return almacen.NuevaMemoria(o) }},
	{"sqlite", func(t *testing.T, o almacen.Opciones) almacen.Almacen {
		return abrirDatos(t, filepath.Join(t.TempDir(), "revisor.db"), o)
	}},
	{"postgres", func(t *testing.T, o almacen.Opciones) almacen.Almacen { return abrirDatos(t, pgtest.Base(t), o) }},
}

func abrirDatos(t *testing.T, donde string, o almacen.Opciones) almacen.Almacen {
	t.Helper()
	a, err := datos.Abrir(context.Background(), donde, o)
	if err != nil {
		t.Fatalf("datos.Abrir(%s): %v", donde, err)
	}
	t.Cleanup(func() { a.Cerrar() })
	return a
}

// altaConLlave posts a registration of nombre with llave as escritura-a, under ctx.
func altaConLlave(ctx context.Context, base, nombre, llave string) (codigo int, location, cuerpo string, err error) {
	req, _ := http.NewRequestWithContext(ctx, "POST", base+"/servicios",
		strings.NewReader(`{"nombre":"`+nombre+`","url":"http://127.0.0.1:18081/codigo/200"}`))
	req.Header.Set("Authorization", "Bearer escritura-a")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", llave)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", "", err
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header.Get("Location"), string(b), nil
}

// enviar sends a registration of nombre with llave as escritura-a, and reads nothing.
func enviar(t *testing.T, base, nombre, llave string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	cuerpo := `{"nombre":"` + nombre + `","url":"http://127.0.0.1:18081/codigo/200"}`
	if _, err := io.WriteString(conn, "POST /servicios HTTP/1.1\r\nHost: revisor\r\nAuthorization: Bearer escritura-a\r\n"+
		"Content-Type: application/json\r\nIdempotency-Key: "+llave+"\r\nContent-Length: "+strconv.Itoa(len(cuerpo))+"\r\n\r\n"+cuerpo); err != nil {
		t.Fatal(err)
	}
	return conn
}

// colgo closes conn and says whether that was a hang-up: no byte of the answer had come yet.
func colgo(conn net.Conn) bool {
	conn.SetReadDeadline(time.Now())
	n, _ := conn.Read(make([]byte, 1))
	conn.Close()
	return n == 0
}

const enCurso = `"type":"https://revisor.example/problemas/llave-en-curso"`

func TestAltaColgada(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("espera de reloj a que venzan las reservas de las altas colgadas (unos 6 s por almacén)")
	}
	for _, a := range almacenes {
		t.Run(a.nombre, func(t *testing.T) {
			t.Parallel()
			// Three in progress at once per credential: more hang-ups than that must still leave
			// room for the next registration. A reservation's Plazo longer than the test: what
			// frees the key is the registration ending, not its lease lapsing.
			const tope = 3
			alm := a.abrir(t, almacen.Opciones{Semillas: almacen.Semillas(),
				Llaves: idempotencia.Opciones{EnCursoPorCredencial: tope, Plazo: time.Minute}})
			log := &prueba.Buffer{}
			rv := revisor.Nuevo(revisor.Opciones{Log: bitacora.NuevoLogger(log, log, false), Almacen: alm, Guardar: time.Second})
			t.Cleanup(rv.Cerrar)
			base := servidortest.Nuevo(t, rv).URL
			llaves := func() int {
				n, err := alm.CuantasLlaves(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				return n
			}
			colgadas := 0
			for i := range tope + 2 {
				nombre := "colgada-" + string(rune('a'+i))
				llave := "alta-" + nombre
				antes := llaves()
				// The whole request; once its key is reserved (the registration under way), the
				// connection closed without reading a byte.
				conn := enviar(t, base, nombre, llave)
				prueba.Esperar(t, "se reservó la llave "+llave, func() bool { return llaves() > antes })
				if colgo(conn) {
					colgadas++
				}
				// Its retry: 409 while the first runs, then the recorded 201, and the same again.
				var codigo int
				var location, cuerpo string
				prueba.Esperar(t, "la repetición de "+llave+" dejó de recibir 409 llave-en-curso", func() bool {
					var err error
					codigo, location, cuerpo, err = altaConLlave(context.Background(), base, nombre, llave)
					if err != nil {
						t.Fatal(err)
					}
					return codigo != 409 || !strings.Contains(cuerpo, enCurso)
				})
				if codigo != 201 || !strings.Contains(cuerpo, `"nombre":"`+nombre+`"`) {
					t.Fatalf("la repetición de %s tras colgar: %d %s", llave, codigo, cuerpo)
				}
				if c, l, b, _ := altaConLlave(context.Background(), base, nombre, llave); c != 201 || l != location || b != cuerpo {
					t.Fatalf("otra repetición de %s: %d %s %s; se esperaba el 201 grabado %s %s", llave, c, l, b, location, cuerpo)
				}
			}
			// On a machine so loaded that every registration ended before its client could hang
			// up, this test proved nothing.
			if colgadas == 0 {
				t.Fatalf("ninguna de las %d altas seguía en curso cuando su cliente colgó", tope+2)
			}
			// Hang-ups alone never make the next keyed registration a 429.
			if c, _, b, err := altaConLlave(context.Background(), base, "tras-colgar", "alta-tras-colgar"); err != nil || c != 201 {
				t.Fatalf("el alta siguiente a %d cuelgues: %d %s %v", tope+2, c, b, err)
			}
			if strings.Contains(log.String(), "no se pudo soltar") {
				t.Errorf("la bitácora dice que una llave no se soltó:\n%s", log)
			}
			lista, err := alm.Listar(context.Background(), "a")
			if err != nil {
				t.Fatal(err)
			}
			veces := map[string]int{}
			for _, s := range lista {
				veces[s.Nombre]++
			}
			for i := range tope + 2 {
				if n := veces["colgada-"+string(rune('a'+i))]; n != 1 {
					t.Errorf("colgada-%c está %d veces", 'a'+i, n)
				}
			}
		})
	}
}
