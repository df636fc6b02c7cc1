package revisar

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"cursohttp/internal/prueba/ordenestest"
	"cursohttp/pkg/destinos"
	"cursohttp/pkg/sonda"
)

// consultorHacia probes as the revisor does, but sends what the seed services point at (the
// course's laboratory, 127.0.0.1:18081) to the test laboratory on its ephemeral port.
type consultorHacia struct {
	s   *sonda.Sonda
	lab string // host:port of the test laboratory
}

func nuevoConsultorHacia(lab string) consultorHacia {
	u, _ := url.Parse(lab)
	return consultorHacia{s: sonda.Nueva(destinos.Nuevo([]string{u.Host}, nil), sonda.Opciones{}), lab: u.Host}
}

func (c consultorHacia) Consultar(ctx context.Context, direccion string, limiteMs int) sonda.Consulta {
	return c.s.Consultar(ctx, strings.Replace(direccion, "127.0.0.1:18081", c.lab, 1), limiteMs)
}

// S2 of lesson 7 [lesson L415-L421]; the milliseconds vary and are normalised.
const salidaRevisar = `SERVICIO     RESPUESTA          ACCIÓN        MOTIVO
catalogo     200 en 6 ms        seguir        salió bien
pagos        503 en 4 ms        esperar       no está disponible: espera lo que diga Retry-After
inventario   200 en 1503 ms     seguir        salió bien
reportes     tiempo-agotado     esperar       tiempo-agotado
facturacion  respuesta-invalida esperar       respuesta-invalida
`

var milisegundos = regexp.MustCompile(`en \d+ ms +`)

func sinMilisegundos(s string) string { return milisegundos.ReplaceAllString(s, "en N ms\t") }

func TestRevisarDePuntaAPunta(t *testing.T) {
	if testing.Short() {
		t.Skip("espera a /lento/1500 y al límite de 1000 ms de reportes")
	}
	t.Parallel()
	lab, registroLab := ordenestest.Laboratorio(t)
	rev, _ := ordenestest.Revisor(t, 0)
	var out bytes.Buffer
	e := ordenestest.Entorno(&out)
	e.Revisor = rev
	if c := Revisar(context.Background(), e, CredencialPorOmision, nuevoConsultorHacia(lab)); c != 0 {
		t.Fatalf("código de salida %d:\n%s", c, out.String())
	}
	ordenestest.CompararLineas(t, sinMilisegundos(out.String()), sinMilisegundos(salidaRevisar))
	if m := regexp.MustCompile(`inventario   200 en (\d+) ms`).FindStringSubmatch(out.String()); m == nil || len(m[1]) != 4 || m[1] < "1500" {
		t.Errorf("inventario tendría que tardar 1500 ms o más:\n%s", out.String())
	}
	// The laboratory saw the five team-a services, nomina (team b) not.
	for _, ruta := range []string{"GET /codigo/200", "GET /codigo/503", "GET /lento/1500", "GET /lento/3000", "GET /basura"} {
		if strings.Count(registroLab.String(), ruta+"\n") != 1 {
			t.Errorf("el laboratorio tendría que ver %q una vez:\n%s", ruta, registroLab.String())
		}
	}
}

// S3: an invented credential is one line, the table's motive (not the server's detail), no retry,
// exit code 1.
func TestRevisarConCredencialInventada(t *testing.T) {
	t.Parallel()
	rev, registro := ordenestest.Revisor(t, 0)
	var out bytes.Buffer
	e := ordenestest.Entorno(&out)
	e.Revisor = rev
	if c := Revisar(context.Background(), e, "inventada", consultorHacia{}); c != 1 {
		t.Fatalf("código de salida %d, se esperaba 1", c)
	}
	ordenestest.CompararLineas(t, out.String(), "la API respondió 401 (https://revisor.example/problemas/credencial-invalida): reautenticar, falta una credencial válida\n")
	if n := strings.Count(registro.String(), "GET /servicios\n"); n != 1 {
		t.Errorf("el revisor vio %d GET /servicios, se esperaba 1", n)
	}
}

// S4: in maintenance the type decides (esperar), and 120 s is above the 5 s cap: no sleep, exit 1.
func TestRevisarEnMantenimiento(t *testing.T) {
	t.Parallel()
	rev, registro := ordenestest.Revisor(t, 0)
	poner := func(activo string) {
		t.Helper()
		req, _ := http.NewRequest("PUT", rev+"/mantenimiento", strings.NewReader(`{"activo":`+activo+`}`))
		req.Header.Set("Authorization", "Bearer admin")
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 204 {
			t.Fatalf("PUT /mantenimiento dio %d", res.StatusCode)
		}
	}
	poner("true")
	var out bytes.Buffer
	e := ordenestest.Entorno(&out)
	e.Revisor = rev
	e.Dormir = func(context.Context, time.Duration) error { t.Error("no tendría que dormir"); return nil }
	if c := Revisar(context.Background(), e, CredencialPorOmision, consultorHacia{}); c != 1 {
		t.Fatalf("código de salida %d, se esperaba 1", c)
	}
	ordenestest.CompararLineas(t, out.String(), `la API respondió 503 (https://revisor.example/problemas/en-mantenimiento): esperar, el revisor está en mantenimiento: espera lo que diga Retry-After
  pide esperar 120 s, más que el tope de 5 s: lo intento más tarde
`)
	poner("false")
	if n := strings.Count(registro.String(), "GET /servicios\n"); n != 1 {
		t.Errorf("el revisor vio %d GET /servicios, se esperaba 1", n)
	}
}
