package revisor

import (
	"strings"
	"sync"
	"testing"

	"cursohttp/internal/prueba/almacentest"
	"cursohttp/pkg/idempotencia"
	"cursohttp/pkg/variantes"
)

// The final revisor's variants of Lessons 6 and 7, as each lesson shows them.

// Lesson 6 Series L (--defecto sin-huella): the key is kept without the fingerprint. correo, sent
// with avisos' key, gets avisos' 201 — its Location, ETag and body — and is never created.
func TestDefectoSinHuella(t *testing.T) {
	t.Parallel()
	e := nuevoEntorno(t, rapido, conVariante(t, variantes.Pedido{Defecto: variantes.SinHuella}))
	avisos := e.pedir("POST", "/servicios", `{"nombre":"avisos","url":"http://127.0.0.1:18081/codigo/200"}`, cred("escritura-a"), jsonCT, "Idempotency-Key: alta-avisos-1")
	avisos.comoLaLeccion(t, `HTTP/1.1 201 Created
Location: /servicios/7
ETag: "7-1-6db25d01"
Content-Type: application/json
Content-Length: 86

{"id":7,"nombre":"avisos","url":"http://127.0.0.1:18081/codigo/200","limite_ms":2000}`)
	correo := e.pedir("POST", "/servicios", `{"nombre":"correo","url":"http://127.0.0.1:18081/codigo/200"}`, cred("escritura-a"), jsonCT, "Idempotency-Key: alta-avisos-1")
	correo.comoLaLeccion(t, `HTTP/1.1 201 Created
Location: /servicios/7
ETag: "7-1-6db25d01"
Content-Type: application/json
Content-Length: 86

{"id":7,"nombre":"avisos","url":"http://127.0.0.1:18081/codigo/200","limite_ms":2000}`)
	lista := e.pedir("GET", "/servicios", "", cred("escritura-a")).cuerpo
	if !strings.Contains(lista, `"nombre":"avisos"`) || strings.Contains(lista, `"nombre":"correo"`) {
		t.Errorf("la lista: %s", lista)
	}
	if got := strings.Count(e.out.String(), "idempotencia: la llave alta-avisos-1 ya se atendió; repito su respuesta\n"); got != 1 {
		t.Errorf("bitácora (%d repeticiones):\n%s", got, e.out.String())
	}
}

// What the lesson says still works in the broken store: a key in progress is 409, a failed
// registration releases its key, and a request without a key is untouched.
func TestDefectoSinHuellaLoDemasIgual(t *testing.T) {
	t.Parallel()
	// The original holds k3 and is held at its creation, past its save pause, until the second has
	// its answer: "still running" however loaded the machine is.
	av := &almacentest.Avisador{}
	e := nuevoEntorno(t, rapido, conVariante(t, variantes.Pedido{Defecto: variantes.SinHuella}), avisando(av))
	tomada, soltar := make(chan struct{}), make(chan struct{})
	var una sync.Once
	av.Al(almacentest.Ganchos{
		AlTomar: func(llave string, tipo idempotencia.Tipo) {
			if llave == "k3" && tipo == idempotencia.Nueva {
				una.Do(func() { close(tomada) })
			}
		},
		AlCrear: func(nombre string) {
			if nombre == "correo" {
				<-soltar
			}
		},
	})
	original := make(chan respuestaDePrueba)
	go func() {
		original <- e.pedir("POST", "/servicios", `{"nombre":"correo","url":"http://127.0.0.1:18081/codigo/200"}`, cred("escritura-a"), jsonCT, "Idempotency-Key: k3")
	}()
	<-tomada
	// Even with another body: without the fingerprint it is "the same request", still running.
	if r := e.pedir("POST", "/servicios", `{"nombre":"otro","url":"http://127.0.0.1:18081/codigo/200"}`, cred("escritura-a"), jsonCT, "Idempotency-Key: k3"); r.codigo() != "409" ||
		!strings.Contains(r.cuerpo, "llave-en-curso") {
		t.Errorf("en curso: %s %s", r.linea, r.cuerpo)
	}
	close(soltar)
	if r := <-original; r.codigo() != "201" {
		t.Errorf("la original: %s", r.linea)
	}
	if r := e.pedir("POST", "/servicios", `{"nombre":"k4","url":"ftp://archivos"}`, cred("escritura-a"), jsonCT, "Idempotency-Key: k4"); r.codigo() != "422" {
		t.Errorf("alta mala: %s", r.linea)
	}
	if r := e.pedir("POST", "/servicios", `{"nombre":"k4","url":"http://127.0.0.1:18081/codigo/200"}`, cred("escritura-a"), jsonCT, "Idempotency-Key: k4"); r.codigo() != "201" {
		t.Errorf("alta corregida: %s", r.linea)
	}
	if r := e.pedir("POST", "/servicios", `{"nombre":"k4","url":"http://127.0.0.1:18081/codigo/200"}`, cred("escritura-a"), jsonCT); r.codigo() != "409" ||
		!strings.Contains(r.cuerpo, "nombre-repetido") {
		t.Errorf("sin llave: %s %s", r.linea, r.cuerpo)
	}
}

// Lesson 7 exercise 3 (S18): the name conflict's detail in English, in the registration and in the
// change; everything a table reads (status, type, the existente extension) stays.
func TestEjercicio3Leccion7DetalleEnIngles(t *testing.T) {
	t.Parallel()
	e := nuevoEntorno(t, rapido, conVariante(t, variantes.Pedido{Leccion: 7, LeccionDada: true, Ejercicio: 3, EjercicioDado: true}))
	e.pedir("POST", "/servicios", `{"nombre":"catalogo","url":"http://127.0.0.1:18081/codigo/200"}`, cred("escritura-a"), jsonCT).comoLaLeccion(t, `HTTP/1.1 409 Conflict
Content-Type: application/problem+json
Content-Language: es
Content-Length: 223

{"type":"https://revisor.example/problemas/nombre-repetido","title":"Ya existe un servicio con ese nombre","status":409,"detail":"a service named catalogo already exists","instance":"/servicios","existente":"/servicios/1"}`)
	r := e.pedir("PUT", "/servicios/2", `{"nombre":"catalogo","url":"http://127.0.0.1:18081/codigo/200"}`, cred("escritura-a"), jsonCT, "If-Match: *")
	if r.codigo() != "409" || !strings.Contains(r.cuerpo, `"detail":"a service named catalogo already exists","instance":"/servicios/2","existente":"/servicios/1"}`) {
		t.Errorf("PUT: %s %s", r.linea, r.cuerpo)
	}
	// The other errors keep the course's Spanish.
	if r := e.pedir("GET", "/servicios/99", "", cred("escritura-a")); !strings.Contains(r.cuerpo, `"detail":"no existe el servicio 99"`) {
		t.Errorf("404: %s", r.cuerpo)
	}
}
