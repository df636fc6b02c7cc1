package revisor

import (
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"cursohttp/internal/contrato"
	"cursohttp/internal/prueba"
	"cursohttp/internal/prueba/servidortest"
	"cursohttp/pkg/almacen"
	"cursohttp/pkg/bitacora"
	"cursohttp/pkg/grabacion"
	"cursohttp/pkg/laboratorio"
)

// entorno is a laboratory and a revisor on ephemeral ports, the revisor's start-up services pointing
// at this laboratory instead of 127.0.0.1:18081, and its logs.
type entorno struct {
	t        *testing.T
	rv       *Revisor
	srv      *httptest.Server
	lab      *httptest.Server
	labAddr  string
	out, err *prueba.Buffer
	reloj    *prueba.Reloj // for the rate-limit windows
	// grabados are what the revisor answered; when the test ends each is checked against the
	// OpenAPI document of its program (contrato_test.go), and tallied in cobertura if set.
	grabados  *grabados
	cobertura *contrato.Cobertura
	// alValidar, if set, sees each response that validated, with what it is in the document.
	alValidar func(grabacion.Intercambio, contrato.Respuesta)
}

const arranqueDePrueba = "6db25d01"

type ajuste func(*Opciones)

// rapido shortens the course's waits so a series runs in a fraction of the time; the order of
// events stays the same.
func rapido(o *Opciones) {
	o.Guardar = 5 * time.Millisecond
	o.EsperaEnCola = 20 * time.Millisecond
}

func nuevoEntorno(t *testing.T, ajustes ...ajuste) *entorno {
	t.Helper()
	e := &entorno{t: t, out: &prueba.Buffer{}, err: &prueba.Buffer{}, reloj: prueba.NuevoReloj(time.Date(2026, 10, 21, 13, 19, 6, 0, time.UTC))}
	e.lab = servidortest.Nuevo(t, laboratorio.Nuevo(zerolog.Nop()))
	e.labAddr = strings.TrimPrefix(e.lab.URL, "http://")
	semillas := almacen.Semillas()
	for i := range semillas {
		semillas[i].URL = strings.Replace(semillas[i].URL, "127.0.0.1:18081", e.labAddr, 1)
	}
	log := bitacora.NuevoLogger(e.out, e.err, false)
	o := Opciones{
		Log:      log,
		Almacen:  almacen.NuevaMemoria(almacen.Opciones{Arranque: arranqueDePrueba, Semillas: semillas}),
		Destinos: []string{e.labAddr},
		Reloj:    e.reloj.Ahora,
	}
	for _, a := range ajustes {
		a(&o)
	}
	e.rv = Nuevo(o)
	e.grabados = &grabados{}
	// Registered before the server's Close, so it runs after it: every handler has returned.
	t.Cleanup(func() { e.validarContrato(o.Programa) })
	e.srv = servidortest.Nuevo(t, bitacora.Registrar(log, grabacion.Envolver(e.rv, e.grabados.anotar)))
	t.Cleanup(e.rv.Cerrar)
	return e
}

// lab turns the course's laboratory address in a URL into this test's one.
func (e *entorno) lab18081(texto string) string {
	return strings.ReplaceAll(texto, "127.0.0.1:18081", e.labAddr)
}

// respuestaDePrueba is what came back, the body with the test laboratory's address written as the
// course's.
type respuestaDePrueba struct {
	linea    string
	cab      http.Header
	cuerpo   string
	crudo    []byte
	cierra   bool // Connection: close, which Go's client takes out of the header map
	duracion time.Duration
}

var cliente = &http.Client{
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	Transport:     &http.Transport{Proxy: nil, MaxIdleConnsPerHost: 64},
}

// pedir sends metodo ruta with the headers ("Nombre: valor") and the body.
func (e *entorno) pedir(metodo, ruta, cuerpo string, cabeceras ...string) respuestaDePrueba {
	e.t.Helper()
	var lector io.Reader
	if cuerpo != "" {
		lector = strings.NewReader(e.lab18081(cuerpo))
	}
	req, err := http.NewRequest(metodo, e.srv.URL+ruta, lector)
	if err != nil {
		e.t.Fatal(err)
	}
	for _, c := range cabeceras {
		nombre, valor, _ := strings.Cut(c, ": ")
		req.Header[nombre] = append(req.Header[nombre], valor)
	}
	inicio := time.Now()
	resp, err := cliente.Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", metodo, ruta, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatalf("%s %s: leer el cuerpo: %v", metodo, ruta, err)
	}
	return respuestaDePrueba{
		linea:    resp.Proto + " " + resp.Status,
		cab:      resp.Header,
		cuerpo:   strings.ReplaceAll(string(b), e.labAddr, "127.0.0.1:18081"),
		crudo:    b,
		cierra:   resp.Close,
		duracion: time.Since(inicio),
	}
}

func cred(nombre string) string { return "Authorization: Bearer " + nombre }

const jsonCT = "Content-Type: application/json"

var (
	reUUID = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}`)
	reMs   = regexp.MustCompile(`"ms":\d+`)
	reBoot = regexp.MustCompile(`("\d+-\d+-)[0-9a-f]{8}"`)
)

// normalizar removes what the course says changes on every run: UUIDs, measured milliseconds and
// the boot suffix of ETags.
func normalizar(s string) string {
	s = reUUID.ReplaceAllString(s, "<uuid>")
	s = reMs.ReplaceAllString(s, `"ms":N`)
	return reBoot.ReplaceAllString(s, `${1}BOOT"`)
}

// importantes are the headers whose presence and value a series asserts; any other (Date) is noise.
var importantes = []string{
	"Content-Type", "Content-Language", "Content-Length", "Location", "ETag", "Retry-After", "Allow",
	"WWW-Authenticate", "Accept", "Connection", "Deprecation", "Sunset", "Link",
}

// comoLaLeccion compares r with a block written as the lesson prints `curl -i`: the status line,
// the meaningful headers (exactly those, no more, values after normalising), a blank line and the
// body without its final newline. Content-Length is skipped when the body carries measured ms.
func (r respuestaDePrueba) comoLaLeccion(t *testing.T, bloque string) {
	t.Helper()
	cabeza, cuerpo, _ := strings.Cut(bloque, "\n\n")
	lineas := strings.Split(cabeza, "\n")
	if r.linea != lineas[0] {
		t.Errorf("línea de estado %q, se esperaba %q (cuerpo %s)", r.linea, lineas[0], r.cuerpo)
	}
	esperadas := map[string]string{}
	for _, l := range lineas[1:] {
		nombre, valor, _ := strings.Cut(l, ": ")
		esperadas[http.CanonicalHeaderKey(nombre)] = valor
	}
	conMs := reMs.MatchString(r.cuerpo)
	for _, nombre := range importantes {
		canon := http.CanonicalHeaderKey(nombre)
		valores, hay := r.cab[canon]
		if !hay {
			valores, hay = r.cab[nombre]
		}
		want, esperada := esperadas[canon]
		if canon == "Connection" && r.cierra {
			valores, hay = []string{"close"}, true
		}
		switch {
		case canon == "Connection" && !esperada && !r.cierra && strings.Join(valores, ", ") == "keep-alive":
			// Node's line on every answer that keeps the connection; the scenes compare the head in order.
		case canon == "Content-Length" && conMs:
		case canon == "Content-Length" && hay && !esperada:
			// Not written in the block: it must still count the body.
			if valores[0] != strconv.Itoa(len(r.crudo)) {
				t.Errorf("Content-Length %s para un cuerpo de %d bytes", valores[0], len(r.crudo))
			}
		case hay && !esperada:
			t.Errorf("sobra la cabecera %s: %v", nombre, valores)
		case !hay && esperada:
			t.Errorf("falta la cabecera %s: %s", nombre, want)
		case hay && normalizar(strings.Join(valores, ", ")) != normalizar(want):
			t.Errorf("%s: %q, se esperaba %q", nombre, strings.Join(valores, ", "), want)
		}
	}
	want := cuerpo
	if want != "" {
		want += "\n"
	}
	if normalizar(r.cuerpo) != normalizar(want) {
		t.Errorf("cuerpo\n%s\nse esperaba\n%s", r.cuerpo, want)
	}
}

// codigo is the status code alone, for the series that print only %{http_code}.
func (r respuestaDePrueba) codigo() string { return strings.Fields(r.linea)[1] }

// esperarTerminada polls a check until it is finished, as a student would with Retry-After: 1.
func (e *entorno) esperarTerminada(id string) respuestaDePrueba {
	e.t.Helper()
	var r respuestaDePrueba
	prueba.Esperar(e.t, "la revisión "+id+" termina", func() bool {
		r = e.pedir("GET", "/revisiones/"+id, "", cred("admin"))
		return !strings.Contains(r.cuerpo, `"pendiente"`)
	})
	return r
}
