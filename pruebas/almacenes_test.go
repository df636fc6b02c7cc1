//go:build unix

package pruebas

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"cursohttp/internal/prueba"
	"cursohttp/internal/prueba/pgtest"
	"cursohttp/pkg/altasegura"
	"cursohttp/pkg/idempotencia"
)

// Issue 22, items 1 and 2, against the built binaries.

// enCursoTipo is the type of 409 llave-en-curso.
const enCursoTipo = `"type":"https://revisor.example/problemas/llave-en-curso"`

// alta posts a registration of nombre with llave as credencial, and returns the status, Location
// and body; status 0 when no answer came.
func alta(base, credencial, nombre, llave string) (int, string, string) {
	req, _ := http.NewRequest("POST", base+"/servicios", bytes.NewReader(altasegura.Cuerpo(nombre, URLServicio)))
	req.Header.Set("Authorization", "Bearer "+credencial)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", llave)
	res, err := sinReuso.Do(req)
	if err != nil {
		return 0, "", err.Error()
	}
	defer res.Body.Close()
	cuerpo, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header.Get("Location"), string(cuerpo)
}

// pendiente says whether an answer leaves the intent unsettled: no answer, a 5xx, or 409
// llave-en-curso (the first request still runs).
func pendiente(codigo int, cuerpo string) bool {
	return codigo == 0 || codigo >= 500 || (codigo == 409 && strings.Contains(cuerpo, enCursoTipo))
}

// plazoDeUnaLlave is the longest a key may stay in progress: the reservation's Plazo, with room
// for a loaded machine.
const plazoDeUnaLlave = idempotencia.PlazoPorOmision + 10*time.Second

// definitiva repeats a registration with its key until the answer settles the intent, for as long
// as a key may stay in progress, and returns that answer.
func definitiva(t *testing.T, base, credencial, nombre, llave string) (codigo int, location, cuerpo string) {
	t.Helper()
	prueba.Hasta(t, plazoDeUnaLlave, "la llave "+llave+" dio una respuesta definitiva", func() bool {
		codigo, location, cuerpo = alta(base, credencial, nombre, llave)
		return !pendiente(codigo, cuerpo)
	})
	return codigo, location, cuerpo
}

// TestColgarConDatos: a client that sends a whole keyed registration and hangs up while it runs,
// against the built revisor on SQLite and on PostgreSQL. Its retry with the same key gets 409
// llave-en-curso while the first runs, then the recorded 201, never a key stuck; and more hang-ups
// than the credential may have in progress at once do not make its next registration a 429.
func TestColgarConDatos(t *testing.T) {
	largo(t)
	t.Parallel()
	for _, caso := range []struct {
		nombre string
		donde  func(t *testing.T) string
	}{
		{"sqlite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "revisor.db") }},
		{"postgres", func(t *testing.T) string { return pgtest.Base(t) }},
	} {
		t.Run(caso.nombre, func(t *testing.T) {
			t.Parallel()
			const tope = 4
			rev := arrancar(t, "revisor", "--datos", caso.donde(t), "--tope-llaves-en-curso", strconv.Itoa(tope))
			colgadas := 0
			for i := range tope + 2 {
				nombre := fmt.Sprintf("colgada-%d", i)
				llave := "alta-" + nombre
				conn, err := net.Dial("tcp", rev.addr)
				if err != nil {
					t.Fatal(err)
				}
				cuerpo := altasegura.Cuerpo(nombre, URLServicio)
				antes := strings.Count(rev.salida.String(), "POST /servicios")
				fmt.Fprintf(conn, "POST /servicios HTTP/1.1\r\nHost: revisor\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\n"+
					"Idempotency-Key: %s\r\nContent-Length: %d\r\n\r\n%s", altasegura.CredencialPorOmision, llave, len(cuerpo), cuerpo)
				// The revisor has it (its request line is logged first), so the repeat comes second;
				// once the repeat says the first is in progress, the first hangs up.
				prueba.Hasta(t, 10*time.Second, "el revisor anotó el alta de "+llave, func() bool {
					return strings.Count(rev.salida.String(), "POST /servicios") > antes
				})
				var codigo int
				var location, texto string
				prueba.Hasta(t, 10*time.Second, "la repetición de "+llave+" vio la primera en curso o terminada", func() bool {
					codigo, location, texto = alta(rev.url(), altasegura.CredencialPorOmision, nombre, llave)
					return codigo == 201 || (codigo == 409 && strings.Contains(texto, enCursoTipo))
				})
				conn.SetReadDeadline(time.Now())
				if n, _ := conn.Read(make([]byte, 1)); n == 0 && codigo == 409 {
					colgadas++
				}
				conn.Close()
				if codigo == 409 {
					codigo, location, texto = definitiva(t, rev.url(), altasegura.CredencialPorOmision, nombre, llave)
				}
				if codigo != 201 {
					t.Fatalf("%s, repetida tras colgar: %d %s\n%s", llave, codigo, texto, rev.salida)
				}
				if c, l, b := alta(rev.url(), altasegura.CredencialPorOmision, nombre, llave); c != 201 || l != location || b != texto {
					t.Fatalf("%s otra vez: %d %s %s; se esperaba el 201 grabado %s %s", llave, c, l, b, location, texto)
				}
			}
			if colgadas == 0 {
				t.Fatalf("ningún cliente colgó con su alta en curso: la prueba no probó nada")
			}
			if c, _, b := alta(rev.url(), altasegura.CredencialPorOmision, "tras-colgar", "alta-tras-colgar"); c != 201 {
				t.Fatalf("el alta siguiente a %d cuelgues: %d %s", tope+2, c, b)
			}
			if strings.Contains(rev.salida.String(), "no se pudo soltar") {
				t.Errorf("la bitácora dice que una llave no se soltó:\n%s", rev.salida)
			}
			for nombre, n := range nombresEnElRevisor(t, rev.url()) {
				if n != 1 {
					t.Errorf("%s está %d veces", nombre, n)
				}
			}
			t.Logf("%d altas, %d colgadas con el alta en curso: cada repetición recibió el 201 grabado", tope+2, colgadas)
		})
	}
}
