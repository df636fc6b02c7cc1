package revisor

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"cursohttp/internal/prueba/servidortest"
	"cursohttp/pkg/almacen"
	"cursohttp/pkg/bitacora"
	"cursohttp/pkg/topes"
)

// descarte is the cheapest ResponseWriter, so the handler's own cost shows.
type descarte struct{ h http.Header }

func (d *descarte) Header() http.Header         { return d.h }
func (d *descarte) Write(p []byte) (int, error) { return len(p), nil }
func (d *descarte) WriteHeader(int)             {}

func benchHandler(b *testing.B, ruta string, cabeceras http.Header) {
	benchHandlerCon(b, Nuevo(Opciones{Log: zerolog.Nop()}), ruta, cabeceras)
}

func benchHandlerCon(b *testing.B, rv *Revisor, ruta string, cabeceras http.Header) {
	b.Cleanup(rv.Cerrar)
	r, _ := http.NewRequest("GET", ruta, nil)
	r.RequestURI = ruta
	r.Header = cabeceras
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		rv.ServeHTTP(&descarte{h: http.Header{}}, r)
	}
}

func benchRed(b *testing.B, ruta string, cabeceras http.Header) {
	rv := Nuevo(Opciones{Log: zerolog.Nop()})
	b.Cleanup(rv.Cerrar)
	srv := servidortest.Nuevo(b, bitacora.Registrar(zerolog.Nop(), rv))
	c := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256}}
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req, _ := http.NewRequest("GET", srv.URL+ruta, nil)
			req.Header = cabeceras.Clone()
			resp, err := c.Do(req)
			if err != nil {
				b.Error(err)
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	})
}

var conCredencial = http.Header{"Authorization": {"Bearer lectura-a"}}

// BenchmarkConsultar: GET /servicios/{id} with a credential, through the whole gate.
func BenchmarkConsultar(b *testing.B) {
	b.Run("manejador", func(b *testing.B) { benchHandler(b, "/servicios/1", conCredencial) })
	b.Run("red", func(b *testing.B) { benchRed(b, "/servicios/1", conCredencial) })
}

// BenchmarkRutaInexistente: the 404 problem path.
func BenchmarkRutaInexistente(b *testing.B) {
	b.Run("manejador", func(b *testing.B) { benchHandler(b, "/no-existe", http.Header{}) })
	b.Run("red", func(b *testing.B) { benchRed(b, "/no-existe", http.Header{}) })
}

// BenchmarkListar: GET /servicios with the course's start-up services.
func BenchmarkListar(b *testing.B) {
	b.Run("manejador", func(b *testing.B) { benchHandler(b, "/servicios", conCredencial) })
}

// BenchmarkListarGrande: GET /servicios of admin over the sin-leer attack's list, 100 services per
// team with URLs of 2,048 characters (617 KB), the list unchanged between requests.
func BenchmarkListarGrande(b *testing.B) {
	a := almacen.NuevaMemoria(almacen.Opciones{})
	url := "http://127.0.0.1:18081/" + strings.Repeat("u", topes.URL-23)
	for i := range 300 {
		if _, err := a.Crear(context.Background(), []string{"a", "b", "*"}[i%3], almacen.Datos{Nombre: "grande-" + strconv.Itoa(i), URL: url, LimiteMs: 2000}, 0, nil); err != nil {
			b.Fatal(err)
		}
	}
	benchHandlerCon(b, Nuevo(Opciones{Log: zerolog.Nop(), Almacen: a}), "/servicios", http.Header{"Authorization": {"Bearer admin"}})
}

// BenchmarkAltaRepetida: POST /servicios repeated with its Idempotency-Key, answered from the record.
func BenchmarkAltaRepetida(b *testing.B) {
	rv := Nuevo(Opciones{Log: zerolog.Nop(), Guardar: time.Millisecond})
	b.Cleanup(rv.Cerrar)
	cuerpo := `{"nombre":"bench","url":"http://127.0.0.1:18081/codigo/200"}`
	pedir := func() *http.Request {
		r, _ := http.NewRequest("POST", "/servicios", strings.NewReader(cuerpo))
		r.RequestURI = "/servicios"
		r.Header = http.Header{"Authorization": {"Bearer escritura-a"}, "Content-Type": {"application/json"}, "Idempotency-Key": {"bench-una-llave"}}
		return r
	}
	rv.ServeHTTP(&descarte{h: http.Header{}}, pedir())
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		rv.ServeHTTP(&descarte{h: http.Header{}}, pedir())
	}
}

// BenchmarkNoModificado: GET /servicios/{id} with the current ETag in If-None-Match (304).
func BenchmarkNoModificado(b *testing.B) {
	rv := Nuevo(Opciones{Log: zerolog.Nop()})
	etiqueta := almacen.Etiqueta(rv.arranque, almacen.Servicio{ID: 1, Version: 1})
	w := &descarte{h: http.Header{}}
	r, _ := http.NewRequest("GET", "/servicios/1", nil)
	r.RequestURI, r.Header = "/servicios/1", http.Header{"Authorization": {"Bearer lectura-a"}, "If-None-Match": {etiqueta}}
	if rv.ServeHTTP(w, r); w.h.Get("Content-Length") != "" || len(w.h["ETag"]) != 1 || w.h["ETag"][0] != etiqueta {
		b.Fatalf("no es un 304 de %s: %v", etiqueta, w.h)
	}
	benchHandlerCon(b, rv, "/servicios/1", r.Header)
}
