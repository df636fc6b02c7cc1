package revisor

import (
	"context"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"cursohttp/pkg/almacen"
	"cursohttp/pkg/topes"
)

// Issue 16: what a writer can make the revisor hold is bounded — a team's services, a URL's
// length — and a listing's JSON is never built for each request.

func TestURLDemasiadoLarga(t *testing.T) {
	t.Parallel()
	base := "http://127.0.0.1:18081/"
	justa := base + strings.Repeat("u", topes.URL-len(base))
	e := nuevoEntorno(t, func(o *Opciones) { o.Guardar = time.Millisecond })
	if r := e.pedir("POST", "/servicios", `{"nombre":"justa","url":"`+justa+`"}`, cred("escritura-a"), jsonCT); !strings.HasPrefix(r.linea, "HTTP/1.1 201") {
		t.Fatalf("una URL de %d caracteres: %s %s", topes.URL, r.linea, r.cuerpo)
	}
	r := e.pedir("POST", "/servicios", `{"nombre":"larga","url":"`+justa+`u"}`, cred("escritura-a"), jsonCT)
	quiere := `{"type":"https://revisor.example/problemas/datos-invalidos","title":"Los datos no se pueden cumplir","status":422,` +
		`"detail":"1 dato(s) no se pueden cumplir","instance":"/servicios","errors":[{"detail":"debe tener como mucho 2048 caracteres","pointer":"#/url"}]}` + "\n"
	if !strings.HasPrefix(r.linea, "HTTP/1.1 422") || r.cuerpo != quiere {
		t.Errorf("una URL de %d caracteres:\n%s\n%s\nse esperaba\n%s", topes.URL+1, r.linea, r.cuerpo, quiere)
	}
}

// A URL outside ASCII is bounded in bytes too: 2,048 «ñ» are 2,048 characters but 4,096 bytes.
func TestURLNoASCIIAcotadaEnBytes(t *testing.T) {
	t.Parallel()
	base := "http://127.0.0.1:18081/"
	e := nuevoEntorno(t, func(o *Opciones) { o.Guardar = time.Millisecond })
	cabe := base + strings.Repeat("ñ", (topes.URL-len(base))/2)
	if r := e.pedir("POST", "/servicios", `{"nombre":"cabe","url":"`+cabe+`"}`, cred("escritura-a"), jsonCT); !strings.HasPrefix(r.linea, "HTTP/1.1 201") {
		t.Fatalf("una URL de %d bytes: %s %s", len(cabe), r.linea, r.cuerpo)
	}
	r := e.pedir("POST", "/servicios", `{"nombre":"larga","url":"`+cabe+`ñ"}`, cred("escritura-a"), jsonCT)
	if !strings.HasPrefix(r.linea, "HTTP/1.1 422") || !strings.Contains(r.cuerpo, `"errors":[{"detail":"debe ocupar como mucho 2048 bytes en UTF-8","pointer":"#/url"}]`) {
		t.Errorf("una URL de %d caracteres y %d bytes:\n%s\n%s", len([]rune(cabe))+1, len(cabe)+2, r.linea, r.cuerpo)
	}
}

func TestTopeDeServiciosPorEquipo(t *testing.T) {
	t.Parallel()
	// Team a starts with five services, team b with one (almacen.Semillas).
	e := nuevoEntorno(t, func(o *Opciones) { o.Guardar, o.TopeServicios = time.Millisecond, 7 })
	alta := func(credencial, nombre string) respuestaDePrueba {
		return e.pedir("POST", "/servicios", `{"nombre":"`+nombre+`","url":"http://127.0.0.1:18081/codigo/200"}`,
			cred(credencial), jsonCT, "Idempotency-Key: "+nombre)
	}
	for _, n := range []string{"a6", "a7"} {
		if r := alta("escritura-a", n); !strings.HasPrefix(r.linea, "HTTP/1.1 201") {
			t.Fatalf("%s: %s %s", n, r.linea, r.cuerpo)
		}
	}
	r := alta("escritura-a", "a8")
	quiere := `{"type":"https://revisor.example/problemas/demasiados-servicios","title":"El equipo llegó a su tope de servicios","status":409,` +
		`"detail":"tu equipo ya tiene 7 servicios, el tope; retira alguno antes de dar de alta otro","instance":"/servicios"}` + "\n"
	if r.linea != "HTTP/1.1 409 Conflict" || r.cuerpo != quiere {
		t.Fatalf("la octava de a:\n%s\n%s\nse esperaba\n%s", r.linea, r.cuerpo, quiere)
	}
	for i := 2; i <= 7; i++ {
		if r := alta("escritura-b", "b"+strconv.Itoa(i)); !strings.HasPrefix(r.linea, "HTTP/1.1 201") {
			t.Fatalf("el equipo b tiene su propio tope: b%d %s %s", i, r.linea, r.cuerpo)
		}
	}
	// The refused key was released: once a service is retired, the same request goes through.
	if r := e.pedir("DELETE", "/servicios/1", "", cred("escritura-a")); !strings.HasPrefix(r.linea, "HTTP/1.1 204") {
		t.Fatalf("DELETE: %s", r.linea)
	}
	if r := alta("escritura-a", "a8"); !strings.HasPrefix(r.linea, "HTTP/1.1 201") {
		t.Fatalf("a8 tras retirar uno: %s %s", r.linea, r.cuerpo)
	}
}

// contador is a ResponseWriter that keeps only the number of bytes written.
type contador struct {
	h http.Header
	n int
}

func (c *contador) Header() http.Header         { return c.h }
func (c *contador) Write(p []byte) (int, error) { c.n += len(p); return len(p), nil }
func (c *contador) WriteHeader(int)             {}

// A listing of 3,000 services with 2 KB URLs is about 6 MB of JSON. What listing them again
// allocates must not follow the URLs' size: compared with the same services with short URLs, it
// allocates no more than a small buffer more — whether the listing is kept (listados) or, with no
// budget for it, streamed (the old listing built the whole body each time, 6 MB more). Not parallel:
// it reads the process's allocation counters.
func TestListarNoArmaLaListaEnCadaPeticion(t *testing.T) {
	medir := func(url string, tope int64) (asignado uint64, largo int) {
		a := almacen.NuevaMemoria(almacen.Opciones{Arranque: arranqueDePrueba})
		for i := range 3000 {
			equipo := []string{"a", "b", "*"}[i%3]
			if _, err := a.Crear(context.Background(), equipo, almacen.Datos{Nombre: "s" + strconv.Itoa(i), URL: url, LimiteMs: 2000}, 0, nil); err != nil {
				t.Fatal(err)
			}
		}
		rv := Nuevo(Opciones{Log: zerolog.Nop(), Almacen: a})
		defer rv.Cerrar()
		rv.listados = nuevosListados(tope)
		listar := func() *contador {
			r, _ := http.NewRequest("GET", "/servicios", nil)
			r.RequestURI = "/servicios"
			r.Header = http.Header{"Authorization": {"Bearer admin"}}
			w := &contador{h: http.Header{}}
			rv.ServeHTTP(w, r)
			return w
		}
		listar()
		var antes, despues runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&antes)
		w := listar()
		runtime.ReadMemStats(&despues)
		if cl, _ := strconv.Atoi(w.h.Get("Content-Length")); cl != w.n {
			t.Fatalf("Content-Length %s, %d bytes escritos", w.h.Get("Content-Length"), w.n)
		}
		return despues.TotalAlloc - antes.TotalAlloc, w.n
	}
	for _, tope := range []int64{topes.Listados, 0} {
		corto, largoCorto := medir("http://127.0.0.1:18081/", tope)
		largo, largoLargo := medir("http://127.0.0.1:18081/"+strings.Repeat("u", topes.URL-23), tope)
		t.Logf("con %d bytes para listados, listar %d bytes asignó %d; con URLs cortas, %d bytes asignó %d", tope, largoLargo, largo, largoCorto, corto)
		if largoLargo < 6_000_000 {
			t.Fatalf("la lista larga tiene %d bytes", largoLargo)
		}
		if largo > corto+512<<10 {
			t.Errorf("con %d bytes para listados y URLs de %d caracteres, listar asignó %d bytes más que con URLs cortas: la lista entera se armó otra vez", tope, topes.URL, largo-corto)
		}
	}
}
