package revisar

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"cursohttp/internal/prueba"
	"cursohttp/internal/prueba/ordenestest"
	"cursohttp/internal/prueba/servidortest"
	"cursohttp/pkg/cli"
	"cursohttp/pkg/ordenes/entorno"
	"cursohttp/pkg/sonda"
)

// When the API asks for a wait within the cap, revisar waits exactly that and asks again, at most
// twice in all; then it gives up with exit code 1.
func TestRevisarEsperaLoQuePideYPideOtraVez(t *testing.T) {
	t.Parallel()
	var pedidas atomic.Int32
	ts := servidortest.Nuevo(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		pedidas.Add(1)
		w.Header().Set("Retry-After", "2")
		w.Header().Set("Content-Type", "application/problem+json")
		w.WriteHeader(429)
		w.Write([]byte(`{"type":"https://revisor.example/problemas/demasiadas-consultas","detail":"ignora esto"}`))
	}))
	var out bytes.Buffer
	var dormido []time.Duration
	e := entorno.Entorno{Out: &out, Revisor: ts.URL, Dormir: func(_ context.Context, d time.Duration) error {
		dormido = append(dormido, d)
		return nil
	}}
	if c := Revisar(context.Background(), e, "lectura-a", consultorFijo{}); c != 1 {
		t.Fatalf("código de salida %d, se esperaba 1", c)
	}
	linea := "la API respondió 429 (https://revisor.example/problemas/demasiadas-consultas): esperar, demasiadas peticiones: espera lo que diga Retry-After\n  espero 2 s y vuelvo a pedir\n"
	ordenestest.CompararLineas(t, out.String(), linea+linea)
	if pedidas.Load() != 2 || len(dormido) != 2 || dormido[0] != 2*time.Second {
		t.Errorf("pedidas %d, esperas %v", pedidas.Load(), dormido)
	}
}

// Without Problem Details the type prints as JavaScript prints null, and a 502 without Retry-After
// (esperar with no number) is not retried.
func TestRevisarSinProblemDetails(t *testing.T) {
	t.Parallel()
	ts := servidortest.Nuevo(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(502)
	}))
	var out bytes.Buffer
	e := entorno.Entorno{Out: &out, Revisor: ts.URL}
	if c := Revisar(context.Background(), e, "lectura-a", consultorFijo{}); c != 1 {
		t.Fatalf("código de salida %d, se esperaba 1", c)
	}
	ordenestest.CompararLineas(t, out.String(), "la API respondió 502 (null): esperar, falló lo que está detrás: reintenta solo si la operación es idempotente\n")
}

// consultorFijo answers every probe with the same outcome.
type consultorFijo sonda.Consulta

func (c consultorFijo) Consultar(context.Context, string, int) sonda.Consulta {
	return sonda.Consulta(c)
}

func TestRevisarColumnas(t *testing.T) {
	t.Parallel()
	ts := servidortest.Nuevo(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"servicios":[{"id":9,"nombre":"año—𝄞","url":"http://10.0.0.1/","limite_ms":2000}]}`))
	}))
	casos := []struct {
		consulta sonda.Consulta
		linea    string
	}{
		{sonda.Consulta{Tipo: sonda.DestinoProhibido, Motivo: "10.0.0.1:80: dirección privada o reservada"},
			"año—𝄞       destino-prohibido  corregir      destino prohibido"},
		{sonda.Consulta{Tipo: sonda.SinConexion}, "año—𝄞       sin-conexion       esperar       sin-conexion"},
		{sonda.Consulta{Tipo: sonda.Respuesta, Codigo: 429, Ms: 12, ReintentarEn: 30, HayReintentarEn: true},
			"año—𝄞       429 en 12 ms       esperar       demasiadas peticiones: espera lo que diga Retry-After"},
		{sonda.Consulta{Tipo: sonda.Respuesta, Codigo: 301, Ms: 3}, "año—𝄞       301 en 3 ms        corregir      la dirección cambió para siempre: actualiza la configuración"},
	}
	for _, c := range casos {
		var out bytes.Buffer
		if code := Revisar(context.Background(), entorno.Entorno{Out: &out, Revisor: ts.URL}, "lectura-a", consultorFijo(c.consulta)); code != 0 {
			t.Fatalf("código de salida %d", code)
		}
		ordenestest.CompararLineas(t, out.String(), "SERVICIO     RESPUESTA          ACCIÓN        MOTIVO\n"+c.linea+"\n")
	}
}

func TestRevisarConUnaListaRota(t *testing.T) {
	t.Parallel()
	ts := servidortest.Nuevo(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"servicios":`))
	}))
	var out, errOut bytes.Buffer
	if c := Revisar(context.Background(), entorno.Entorno{Out: &out, Err: &errOut, Revisor: ts.URL}, "lectura-a", consultorFijo{}); c != 1 {
		t.Fatalf("código de salida %d, se esperaba 1", c)
	}
	if out.Len() != 0 || !strings.HasPrefix(errOut.String(), "revisar: ") {
		t.Errorf("salida %q, errores %q", out.String(), errOut.String())
	}
}

// A list request that fails is one Spanish sentence with Node's code for the failure, never Go's
// English error text: the API hangs up, answers something that is not HTTP, cuts the body, or
// answers a list that is not JSON.
func TestRevisarSinRespuestaDice(t *testing.T) {
	t.Parallel()
	servir := func(atender func(net.Conn)) string {
		return "http://" + prueba.ServidorCrudo(t, func(c net.Conn) {
			bufio.NewReader(c).ReadString('\n')
			atender(c)
		})
	}
	casos := []struct {
		nombre  string
		atender func(net.Conn)
		want    string // after "revisar: "
	}{
		{"cuelga", func(c net.Conn) { c.Close() }, "sin respuesta de %s/servicios (UND_ERR_SOCKET)\n"},
		{"no es HTTP", func(c net.Conn) { io.WriteString(c, "esto no es HTTP\r\n\r\n"); c.Close() },
			"sin respuesta de %s/servicios (HPE_INVALID_CONSTANT)\n"},
		{"corta el cuerpo", func(c net.Conn) {
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\n{\"servicios\":")
			c.Close()
		}, "sin respuesta de %s/servicios (UND_ERR_SOCKET)\n"},
		{"no es JSON", func(c net.Conn) {
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhola\n")
			c.Close()
		}, "la lista no es JSON\n"},
	}
	for _, c := range casos {
		t.Run(c.nombre, func(t *testing.T) {
			t.Parallel()
			base := servir(c.atender)
			var out, errOut bytes.Buffer
			if code := Revisar(context.Background(), entorno.Entorno{Out: &out, Err: &errOut, Revisor: base}, "lectura-a", consultorFijo{}); code != 1 {
				t.Fatalf("código de salida %d", code)
			}
			want := "revisar: " + strings.ReplaceAll(c.want, "%s", base)
			if errOut.String() != want {
				t.Errorf("errores %q, se esperaba %q", errOut.String(), want)
			}
		})
	}
}

// What each command line becomes, seen through runF without running the program: the private
// destinations the probe may reach.
func TestLineasDeOrdenes(t *testing.T) {
	t.Parallel()
	revisar := func(f *entorno.Fabrica, a ordenestest.Anotar) *cobra.Command {
		return NuevoCmd(f, func(_ context.Context, e entorno.Entorno, credencial string, permitidos []string) int {
			a(fmt.Sprintf("%s credencial=%s permitidos=%q nil=%v", ordenestest.Bases(e), credencial, permitidos, permitidos == nil))
			return 0
		})
	}
	ordenestest.Lineas(t, []ordenestest.Linea{
		{Construir: revisar, Anotado: `revisor="http://127.0.0.1:18080" laboratorio="" credencial=lectura-a permitidos=[] nil=true`},
		{Construir: revisar, Linea: "inventada", Variables: map[string]string{"REVISOR_DESTINOS": "10.0.0.1:80, [::1]:81"},
			Anotado: `revisor="http://127.0.0.1:18080" laboratorio="" credencial=inventada permitidos=["10.0.0.1:80" "[::1]:81"] nil=false`},
		{Construir: revisar, Linea: "--destinos 127.0.0.1:9", Variables: map[string]string{"REVISOR_DESTINOS": "10.0.0.1:80"},
			Anotado: `revisor="http://127.0.0.1:18080" laboratorio="" credencial=lectura-a permitidos=["127.0.0.1:9"] nil=false`},
		// REVISOR_DESTINOS is read once, and checked as the server checks it.
		{Construir: revisar, Variables: map[string]string{"REVISOR_DESTINOS": "laboratorio:18081"}, Codigo: cli.SalidaUso,
			Stderr: "revisar: destinos permitidos que no son ip:puerto: «laboratorio:18081»\n"},
		{Construir: revisar, Linea: "--destinos 10.0.0.1", Codigo: cli.SalidaUso, Stderr: "revisar: destinos permitidos que no son ip:puerto: «10.0.0.1»\n"},
	})
}
