package pasarela

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"cursohttp/internal/prueba"
	"cursohttp/internal/prueba/servidortest"
	"cursohttp/pkg/bitacora"
)

// nadie is the address of a port nobody listens on: a revisor that is down.
func nadie(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr
}

// quien is a revisor that answers with its name, the body it got included.
func quien(t *testing.T, nombre string) string {
	t.Helper()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, nombre+" "+string(b))
	}))
	t.Cleanup(ts.Close)
	return ts.URL
}

func pasarelaHacia(t *testing.T, destinos ...string) (string, *prueba.Buffer) {
	t.Helper()
	var us []*url.URL
	for _, d := range destinos {
		u, err := url.Parse(d)
		if err != nil {
			t.Fatal(err)
		}
		us = append(us, u)
	}
	log := &prueba.Buffer{}
	ts := servidortest.Nuevo(t, Nueva(Opciones{Destinos: us, Log: bitacora.NuevoLogger(log, log, false)}))
	return ts.URL, log
}

func enviar(t *testing.T, base, cuerpo string) (int, string) {
	t.Helper()
	res, err := http.Post(base+"/servicios", "application/json", strings.NewReader(cuerpo))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// Several revisors take requests in turn; one that refuses connections is skipped, body and all,
// and when none answers the client gets the gateway's 502 as with one.
func TestVariosRevisores(t *testing.T) {
	t.Parallel()
	base, _ := pasarelaHacia(t, quien(t, "a"), quien(t, "b"))
	var turnos []string
	for range 4 {
		_, cuerpo := enviar(t, base, "{}")
		turnos = append(turnos, cuerpo)
	}
	if got := strings.Join(turnos, ","); got != "a {},b {},a {},b {}" {
		t.Errorf("por turnos: %s", got)
	}

	base, log := pasarelaHacia(t, nadie(t), quien(t, "c"), nadie(t))
	for i := range 6 {
		if codigo, cuerpo := enviar(t, base, `{"n":1}`); codigo != 200 || cuerpo != `c {"n":1}` {
			t.Fatalf("petición %d con dos revisores caídos: %d %s", i, codigo, cuerpo)
		}
	}
	if !strings.Contains(log.String(), "rechaza la conexión; la petición va al siguiente revisor") {
		t.Errorf("la bitácora no dice que saltó a un revisor caído:\n%s", log)
	}

	base, _ = pasarelaHacia(t, nadie(t), nadie(t))
	if codigo, cuerpo := enviar(t, base, "{}"); codigo != 502 || !strings.Contains(cuerpo, DetalleSinRevisor) {
		t.Errorf("sin ningún revisor: %d %s", codigo, cuerpo)
	}
}
