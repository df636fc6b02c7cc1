package revisor

import (
	"bufio"
	"cursohttp/internal/prueba"
	"cursohttp/internal/prueba/almacentest"
	"cursohttp/pkg/topes"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

const catalogo1500 = `{"nombre":"catalogo","url":"http://127.0.0.1:18081/codigo/200","limite_ms":1500}`

// Lesson 6 series A (§6.2.2): what repeating each method does.
func TestLeccion6SerieAMetodos(t *testing.T) {
	t.Parallel()
	e := nuevoEntorno(t)
	etag := e.pedir("GET", "/servicios/1", "", cred("escritura-a")).cab.Get("ETag")
	if etag != `"1-1-6db25d01"` {
		t.Fatalf("ETag %s", etag)
	}
	e.pedir("PUT", "/servicios/1", catalogo1500, cred("escritura-a"), jsonCT, "If-Match: "+etag).comoLaLeccion(t, `HTTP/1.1 200 OK
ETag: "1-2-a9fec589"
Content-Type: application/json
Content-Length: 88

{"id":1,"nombre":"catalogo","url":"http://127.0.0.1:18081/codigo/200","limite_ms":1500}`)
	e.pedir("PUT", "/servicios/1", catalogo1500, cred("escritura-a"), jsonCT, "If-Match: "+etag).comoLaLeccion(t, `HTTP/1.1 412 Precondition Failed
Content-Type: application/problem+json
Content-Language: es
Content-Length: 269

{"type":"https://revisor.example/problemas/etiqueta-vencida","title":"Tu etiqueta ya no es la vigente","status":412,"detail":"tu etiqueta ya no es la vigente: el servicio cambió o el revisor se reinició; vuelve a leerlo antes de cambiarlo","instance":"/servicios/1"}`)
	if r := e.pedir("GET", "/servicios/1", "", cred("escritura-a")); r.cuerpo != catalogo1500[:0]+`{"id":1,"nombre":"catalogo","url":"http://127.0.0.1:18081/codigo/200","limite_ms":1500}`+"\n" {
		t.Errorf("A4: %s", r.cuerpo)
	}
	e.pedir("DELETE", "/servicios/4", "", cred("escritura-a")).comoLaLeccion(t, "HTTP/1.1 204 No Content\n\n")
	e.pedir("DELETE", "/servicios/4", "", cred("escritura-a")).comoLaLeccion(t, `HTTP/1.1 410 Gone
Content-Type: application/problem+json
Content-Language: es
Content-Length: 188

{"type":"https://revisor.example/problemas/servicio-retirado","title":"El servicio se retiró","status":410,"detail":"el servicio 4 se retiró y no va a volver","instance":"/servicios/4"}`)
	avisos := `{"nombre":"avisos","url":"http://127.0.0.1:18081/codigo/200"}`
	r := e.pedir("POST", "/servicios", avisos, cred("escritura-a"), jsonCT)
	r.comoLaLeccion(t, `HTTP/1.1 201 Created
Location: /servicios/7
ETag: "7-1-a9fec589"
Content-Type: application/json
Content-Length: 86

{"id":7,"nombre":"avisos","url":"http://127.0.0.1:18081/codigo/200","limite_ms":2000}`)
	if r.duracion < Guardar {
		t.Errorf("el alta tardó %v; guarda al menos %v", r.duracion, Guardar)
	}
	e.pedir("POST", "/servicios", avisos, cred("escritura-a"), jsonCT).comoLaLeccion(t, `HTTP/1.1 409 Conflict
Content-Type: application/problem+json
Content-Language: es
Content-Length: 220

{"type":"https://revisor.example/problemas/nombre-repetido","title":"Ya existe un servicio con ese nombre","status":409,"detail":"ya existe un servicio llamado avisos","instance":"/servicios","existente":"/servicios/7"}`)
	for i := 1; i <= 2; i++ {
		e.pedir("POST", "/servicios/1/revisiones", "", cred("escritura-a")).comoLaLeccion(t, `HTTP/1.1 202 Accepted
Location: /revisiones/`+strconv.Itoa(i)+`
Content-Type: application/json
Content-Length: 60

{"id":`+strconv.Itoa(i)+`,"servicio":1,"estado":"pendiente","resultado":null}`)
	}
}

// M1 (§6.6.4): two keyless registrations of one name, the second sent while the first is still
// being saved (the lesson sends it 100 ms later, inside the first's 500 ms): 201 and 409, one
// service. The store holds the first at its creation until the second arrives there too, and lets
// the second go on once the first is done, so both are in flight at once however loaded the
// machine is.
func TestLeccion6AltasSimultaneasUnSoloNombre(t *testing.T) {
	t.Parallel()
	av := &almacentest.Avisador{}
	e := nuevoEntorno(t, avisando(av))
	primera, soltarPrimera := make(chan struct{}), make(chan struct{})
	segunda, primeraHecha := make(chan struct{}), make(chan struct{})
	var llegadas atomic.Int32
	av.Al(almacentest.Ganchos{AlCrear: func(string) {
		switch llegadas.Add(1) {
		case 1:
			close(primera)
			<-soltarPrimera
		case 2:
			close(segunda)
			<-primeraHecha
		}
	}})
	alta := func() string {
		return e.pedir("POST", "/servicios", `{"nombre":"correo","url":"http://127.0.0.1:18081/codigo/200"}`, cred("escritura-a"), jsonCT).codigo()
	}
	codigos := make([]string, 2)
	hecha := make(chan struct{})
	go func() { codigos[0] = alta(); close(hecha) }()
	<-primera
	var wg sync.WaitGroup
	wg.Go(func() { codigos[1] = alta() })
	<-segunda
	close(soltarPrimera)
	<-hecha
	close(primeraHecha)
	wg.Wait()
	if codigos[0] != "201" || codigos[1] != "409" {
		t.Errorf("códigos %v, se esperaba [201 409]", codigos)
	}
	if n := strings.Count(e.pedir("GET", "/servicios", "", cred("escritura-a")).cuerpo, `"correo"`); n != 1 {
		t.Errorf("%d servicios correo", n)
	}
}

// Series C (§6.4.4): checks with retries; the laboratory log tells how many calls each got.
func TestLeccion6SerieCReintentos(t *testing.T) {
	t.Parallel()
	e := nuevoEntorno(t, rapido)
	for _, s := range []struct{ nombre, ruta string }{{"puerta", "502"}, {"cupo", "429"}, {"ausente", "404"}} {
		if r := e.pedir("POST", "/servicios", `{"nombre":"`+s.nombre+`","url":"http://127.0.0.1:18081/codigo/`+s.ruta+`"}`, cred("escritura-a"), jsonCT); r.codigo() != "201" {
			t.Fatal(r.linea, r.cuerpo)
		}
	}
	for _, p := range []struct{ id, cred string }{{"2", "escritura-a"}, {"7", "escritura-a"}, {"8", "escritura-a"}, {"9", "admin"}} {
		if r := e.pedir("POST", "/servicios/"+p.id+"/revisiones", "", cred(p.cred)); r.codigo() != "202" {
			t.Fatal(r.linea)
		}
	}
	want := []string{
		`{"id":1,"servicio":2,"estado":"terminada","resultado":{"estado":"CAIDO","codigo":503,"ms":12,"detalle":"503 (reintentar en 120 s)"}}`,
		`{"id":2,"servicio":7,"estado":"terminada","resultado":{"estado":"CAIDO","codigo":502,"ms":1,"detalle":"502"}}`,
		`{"id":3,"servicio":8,"estado":"terminada","resultado":{"estado":"CAIDO","codigo":429,"ms":1,"detalle":"429 (reintentar en 30 s)"}}`,
		`{"id":4,"servicio":9,"estado":"terminada","resultado":{"estado":"CAIDO","codigo":404,"ms":2,"detalle":"404"}}`,
	}
	for i, w := range want {
		r := e.esperarTerminada(strconv.Itoa(i + 1))
		if normalizar(r.cuerpo) != normalizar(w+"\n") {
			t.Errorf("revisión %d: %s, se esperaba %s", i+1, r.cuerpo, w)
		}
	}
}

// Series I (§6.8.4): everything from earlier lessons still works.
func TestLeccion6SerieILoDemas(t *testing.T) {
	t.Parallel()
	av := &almacentest.Avisador{} // for the slow PUTs: see pedirLento
	e := nuevoEntorno(t, rapido, avisando(av))
	e.pedir("POST", "/servicios", `{"nombre":"metadatos","url":"http://169.254.169.254/latest/meta-data/"}`, cred("escritura-a"), jsonCT).comoLaLeccion(t, `HTTP/1.1 422 Unprocessable Content
Content-Type: application/problem+json
Content-Language: es
Content-Length: 230

{"type":"https://revisor.example/problemas/destino-prohibido","title":"El revisor no se conecta a ese destino","status":422,"detail":"destino prohibido: 169.254.169.254:80: dirección privada o reservada","instance":"/servicios"}`)
	e.pedir("POST", "/servicios", `{"nombre":"yo-mismo","url":"http://localhost:18080/mantenimiento"}`, cred("escritura-a"), jsonCT).comoLaLeccion(t, `HTTP/1.1 422 Unprocessable Content
Content-Type: application/problem+json
Content-Language: es
Content-Length: 235

{"type":"https://revisor.example/problemas/destino-prohibido","title":"El revisor no se conecta a ese destino","status":422,"detail":"destino prohibido: localhost resuelve a una dirección privada o reservada","instance":"/servicios"}`)

	etag := e.pedir("GET", "/servicios/1", "", cred("lectura-a")).cab.Get("ETag")
	noModificado := "HTTP/1.1 304 Not Modified\nETag: " + etag + "\n\n"
	e.pedir("GET", "/servicios/1", "", cred("lectura-a"), "If-None-Match: W/"+etag).comoLaLeccion(t, noModificado)
	e.pedir("GET", "/servicios/1", "", cred("lectura-a"), `If-None-Match: "9-9", `+etag).comoLaLeccion(t, noModificado)
	e.pedir("GET", "/servicios/1", "", cred("lectura-a"), "If-None-Match: *").comoLaLeccion(t, noModificado)
	e.pedir("GET", "/servicios/1", "", cred("lectura-a"), `If-None-Match: "9-9", W/"8-8"`).comoLaLeccion(t, `HTTP/1.1 200 OK
ETag: "1-1-68f9abf8"
Content-Type: application/json
Content-Length: 88

{"id":1,"nombre":"catalogo","url":"http://127.0.0.1:18081/codigo/200","limite_ms":2000}`)
	e.pedir("PUT", "/servicios/1", catalogo1500, cred("escritura-a"), jsonCT, "If-Match: W/"+etag).comoLaLeccion(t, `HTTP/1.1 412 Precondition Failed
Content-Type: application/problem+json
Content-Language: es
Content-Length: 263

{"type":"https://revisor.example/problemas/etiqueta-vencida","title":"Tu etiqueta ya no es la vigente","status":412,"detail":"If-Match se compara en fuerte: una etiqueta débil (W/) no sirve para cambiar; manda la ETag tal como llegó","instance":"/servicios/1"}`)
	cambiado := func(version string) string {
		return "HTTP/1.1 200 OK\nETag: \"1-" + version + "-68f9abf8\"\nContent-Type: application/json\nContent-Length: 88\n\n" +
			`{"id":1,"nombre":"catalogo","url":"http://127.0.0.1:18081/codigo/200","limite_ms":1500}`
	}
	e.pedir("PUT", "/servicios/1", catalogo1500, cred("escritura-a"), jsonCT, `If-Match: "9-9", `+etag).comoLaLeccion(t, cambiado("2"))
	e.pedir("PUT", "/servicios/1", catalogo1500, cred("escritura-a"), jsonCT, "If-Match: *").comoLaLeccion(t, cambiado("3"))

	// The lost update: a slow PUT whose body arrives late and a fast one in between.
	etag = e.pedir("GET", "/servicios/1", "", cred("escritura-a")).cab.Get("ETag")
	terminarLenta := e.pedirLento(av, 1, "PUT", "/servicios/1", `{"nombre":"catalogo","url":"http://127.0.0.1:18081/codigo/200","limite_ms":1000}`,
		cred("escritura-a"), jsonCT, "If-Match: "+etag)
	if r := e.pedir("PUT", "/servicios/1", `{"nombre":"catalogo","url":"http://127.0.0.1:18081/codigo/200","limite_ms":3000}`, cred("escritura-a"), jsonCT, "If-Match: "+etag); r.codigo() != "200" {
		t.Errorf("rápida: %s", r.linea)
	}
	terminarLenta().comoLaLeccion(t, `HTTP/1.1 412 Precondition Failed
Content-Type: application/problem+json
Content-Language: es

{"type":"https://revisor.example/problemas/etiqueta-vencida","title":"Tu etiqueta ya no es la vigente","status":412,"detail":"el servicio cambió mientras se atendía tu petición; vuelve a leerlo antes de cambiarlo","instance":"/servicios/1"}`)
	if r := e.pedir("GET", "/servicios/1", "", cred("escritura-a")); !strings.Contains(r.cuerpo, `"limite_ms":3000`) {
		t.Errorf("queda la rápida: %s", r.cuerpo)
	}

	// 415 before any If-Match evaluation.
	for _, cab := range [][]string{{`If-Match: "1-0-0"`}, nil} {
		if r := e.pedir("PUT", "/servicios/1", "catalogo", append([]string{cred("escritura-a"), "Content-Type: text/plain"}, cab...)...); r.codigo() != "415" {
			t.Errorf("text/plain %v: %s", cab, r.linea)
		}
	}

	// A slow PUT and a DELETE in the gap: 204, then the PUT gets 410.
	loc := e.pedir("POST", "/servicios", `{"nombre":"efimero","url":"http://127.0.0.1:18081/codigo/200"}`, cred("escritura-a"), jsonCT).cab.Get("Location")
	if loc != "/servicios/7" {
		t.Fatalf("efimero en %s (las altas rechazadas por SSRF no gastan ids)", loc)
	}
	etag = e.pedir("GET", loc, "", cred("escritura-a")).cab.Get("ETag")
	terminarLento := e.pedirLento(av, 7, "PUT", loc, `{"nombre":"efimero","url":"http://127.0.0.1:18081/codigo/200"}`, cred("escritura-a"), jsonCT, "If-Match: "+etag)
	if r := e.pedir("DELETE", loc, "", cred("escritura-a")); r.codigo() != "204" {
		t.Errorf("DELETE en el hueco: %s", r.linea)
	}
	terminarLento().comoLaLeccion(t, `HTTP/1.1 410 Gone
Content-Type: application/problem+json
Content-Language: es

{"type":"https://revisor.example/problemas/servicio-retirado","title":"El servicio se retiró","status":410,"detail":"el servicio 7 se retiró y no va a volver","instance":"/servicios/7"}`)

	if r := e.pedir("GET", "/servicios", "", "Authorization: bearer lectura-a"); r.codigo() != "200" {
		t.Errorf("bearer en minúsculas: %s", r.linea)
	}
	e.pedir("GET", "/servicios", "", "Authorization: Basic bGVjdHVyYS1hOg==").comoLaLeccion(t, `HTTP/1.1 401 Unauthorized
WWW-Authenticate: Bearer realm="revisor"
Content-Type: application/problem+json
Content-Language: es
Content-Length: 185

{"type":"https://revisor.example/problemas/credencial-invalida","title":"Falta una credencial válida","status":401,"detail":"solo se admite el esquema Bearer","instance":"/servicios"}`)

	// The body limit.
	grande := strings.Repeat("a", 20000)
	demasiado := `HTTP/1.1 413 Content Too Large
Connection: close
Content-Type: application/problem+json
Content-Language: es
Content-Length: 129

{"type":"about:blank","title":"Content Too Large","status":413,"detail":"el cuerpo pasa de 16384 bytes","instance":"/servicios"}`
	e.pedir("POST", "/servicios", grande, cred("escritura-a"), jsonCT).comoLaLeccion(t, demasiado)
	e.pedirPorPartes("POST", "/servicios", grande, cred("escritura-a"), jsonCT).comoLaLeccion(t, demasiado)
	if r := e.pedir("POST", "/servicios", strings.Repeat("a", topes.Cuerpo), cred("escritura-a"), jsonCT); r.codigo() != "400" {
		t.Errorf("en el tope: %s", r.linea)
	}
	if r := e.pedir("GET", "/servicios/1", "", cred("lectura-a")); r.codigo() != "200" {
		t.Errorf("después: %s", r.linea)
	}
	e.pedir("POST", "/servicios", "null", cred("escritura-a"), jsonCT).comoLaLeccion(t, `HTTP/1.1 400 Bad Request
Content-Type: application/problem+json
Content-Language: es
Content-Length: 177

{"type":"https://revisor.example/problemas/cuerpo-ilegible","title":"El cuerpo no se puede leer","status":400,"detail":"el cuerpo no es un objeto JSON","instance":"/servicios"}`)

	// Twelve SSRF ranges.
	for i, u := range []string{
		"http://100.100.100.200/latest/meta-data/", "http://[64:ff9b::a9fe:a9fe]/", "http://224.0.0.1/", "http://[ff02::1]/",
		"http://[2002:a9fe:a9fe::]/", "http://[::7f00:1]/", "http://[64:ff9b:1::a9fe:a9fe]/", "http://240.0.0.1/",
		"http://198.18.0.1/", "http://192.0.2.1/", "http://[2001:db8::1]/", "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/",
	} {
		r := e.pedir("POST", "/servicios", `{"nombre":"rango-`+strconv.Itoa(i+1)+`","url":"`+u+`"}`, cred("escritura-a"), jsonCT)
		host := strings.TrimSuffix(strings.TrimPrefix(u, "http://"), "/latest/meta-data/")
		host = strings.TrimSuffix(host, "/")
		want := `"detail":"destino prohibido: ` + host + `:80: dirección privada o reservada"`
		if r.codigo() != "422" || !strings.Contains(r.cuerpo, want) {
			t.Errorf("rango %d: %s %s", i+1, r.linea, r.cuerpo)
		}
	}

	var salud []string
	for range 4 {
		r := e.pedir("GET", "/servicios/1/salud", "", cred("lectura-a"))
		salud = append(salud, r.codigo()+" "+r.cab.Get("Retry-After"))
	}
	if got := strings.Join(salud, ","); got != "200 ,200 ,200 ,429 60" {
		t.Errorf("salud: %s", got)
	}
	var revs []string
	for i := 1; i <= 6; i++ {
		revs = append(revs, e.pedir("POST", "/servicios/"+strconv.Itoa(i)+"/revisiones", "", cred("escritura-b")).codigo())
	}
	if got := strings.Join(revs, " "); got != "404 404 202 429 429 429" {
		t.Errorf("revisiones: %s", got)
	}
	loc = e.pedir("POST", "/servicios", `{"nombre":"cortado","url":"http://127.0.0.1:18081/cortar"}`, cred("escritura-a"), jsonCT).cab.Get("Location")
	e.pedir("GET", loc+"/salud", "", cred("admin")).comoLaLeccion(t, `HTTP/1.1 502 Bad Gateway
Content-Type: application/problem+json
Content-Language: es

{"type":"https://revisor.example/problemas/respuesta-invalida","title":"El servicio no dio una respuesta HTTP válida","status":502,"detail":"el servicio 8 no dio una respuesta HTTP válida: cortó la conexión o respondió algo que no es HTTP","instance":"/servicios/8/salud"}`)
}

// pedirLento sends the headers at once and holds the body, as `( sleep 1; printf … ) | curl -T -`
// does; it returns once the revisor has read service id (and so checked the If-Match against it),
// with the function that sends the body and returns the answer.
func (e *entorno) pedirLento(av *almacentest.Avisador, id int, metodo, ruta, cuerpo string, cabeceras ...string) func() respuestaDePrueba {
	leido := make(chan struct{})
	var una sync.Once
	av.Al(almacentest.Ganchos{AlBuscar: func(n int) {
		if n == id {
			una.Do(func() { close(leido) })
		}
	}})
	pr, pw := io.Pipe()
	respuesta := make(chan respuestaDePrueba, 1)
	go func() { respuesta <- e.pedirCon(metodo, ruta, pr, cabeceras...) }()
	<-leido
	av.Al(almacentest.Ganchos{})
	return func() respuestaDePrueba {
		pw.Write([]byte(e.lab18081(cuerpo)))
		pw.Close()
		return <-respuesta
	}
}

// pedirPorPartes sends the body chunked.
func (e *entorno) pedirPorPartes(metodo, ruta, cuerpo string, cabeceras ...string) respuestaDePrueba {
	return e.pedirCon(metodo, ruta, io.MultiReader(strings.NewReader(cuerpo)), cabeceras...)
}

func (e *entorno) pedirCon(metodo, ruta string, cuerpo io.Reader, cabeceras ...string) respuestaDePrueba {
	req, err := http.NewRequest(metodo, e.srv.URL+ruta, cuerpo)
	if err != nil {
		e.t.Error(err)
		return respuestaDePrueba{}
	}
	req.ContentLength = -1
	for _, c := range cabeceras {
		nombre, valor, _ := strings.Cut(c, ": ")
		req.Header[nombre] = append(req.Header[nombre], valor)
	}
	resp, err := cliente.Do(req)
	if err != nil {
		e.t.Errorf("%s %s: %v", metodo, ruta, err)
		return respuestaDePrueba{}
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return respuestaDePrueba{linea: resp.Proto + " " + resp.Status, cab: resp.Header, cuerpo: string(b), crudo: b, cierra: resp.Close}
}

// Two hundred PUTs carrying the same If-Match: exactly one wins.
func TestPutsConcurrentesUnSoloGanador(t *testing.T) {
	t.Parallel()
	e := nuevoEntorno(t, rapido)
	etag := e.pedir("GET", "/servicios/1", "", cred("escritura-a")).cab.Get("ETag")
	const n = 200
	var wg sync.WaitGroup
	var mu sync.Mutex
	cuenta := map[string]int{}
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cuerpo := `{"nombre":"catalogo","url":"http://127.0.0.1:18081/codigo/200","limite_ms":` + strconv.Itoa(100+i) + `}`
			r := e.pedir("PUT", "/servicios/1", cuerpo, cred("escritura-a"), jsonCT, "If-Match: "+etag)
			mu.Lock()
			cuenta[r.linea]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if cuenta["HTTP/1.1 200 OK"] != 1 || cuenta["HTTP/1.1 412 Precondition Failed"] != n-1 {
		t.Errorf("respuestas %v; se esperaba un 200 y %d 412", cuenta, n-1)
	}
	if got := e.pedir("GET", "/servicios/1", "", cred("escritura-a")).cab.Get("ETag"); got != `"1-2-6db25d01"` {
		t.Errorf("ETag final %s: una sola escritura", got)
	}
}

// A 50 MB chunked upload: the client reads the 413, and the revisor's memory barely moves because
// it never holds more than the limit.
func TestSubidaDe50MBPorPartes(t *testing.T) {
	e := nuevoEntorno(t, rapido)
	conn, err := net.Dial("tcp", strings.TrimPrefix(e.srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	runtime.GC()
	var antes, despues runtime.MemStats
	runtime.ReadMemStats(&antes)

	const total = 50 << 20
	enviados := make(chan int64, 1)
	go func() {
		fmt.Fprintf(conn, "POST /servicios HTTP/1.1\r\nHost: revisor\r\nAuthorization: Bearer escritura-a\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
		trozo := []byte(strings.Repeat("a", 64<<10))
		cabeza := []byte(strconv.FormatInt(int64(len(trozo)), 16) + "\r\n")
		var n int64
		for n < total {
			if _, err := conn.Write(cabeza); err != nil {
				break
			}
			if _, err := conn.Write(trozo); err != nil {
				break
			}
			if _, err := conn.Write([]byte("\r\n")); err != nil {
				break
			}
			n += int64(len(trozo))
		}
		conn.Write([]byte("0\r\n\r\n"))
		if tcp, ok := conn.(*net.TCPConn); ok {
			tcp.CloseWrite()
		}
		enviados <- n
	}()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("el cliente no pudo leer la respuesta: %v", err)
	}
	cuerpo, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("cuerpo del 413: %v", err)
	}
	if resp.Status != "413 Content Too Large" || !resp.Close ||
		!strings.Contains(string(cuerpo), `"detail":"el cuerpo pasa de 16384 bytes"`) {
		t.Errorf("%s %v %s", resp.Status, resp.Header, cuerpo)
	}
	n := <-enviados
	runtime.GC()
	runtime.ReadMemStats(&despues)
	crecio := int64(despues.HeapAlloc) - int64(antes.HeapAlloc)
	asignado := despues.TotalAlloc - antes.TotalAlloc
	t.Logf("enviados %d MB; el montón creció %d KB; asignado en total %d KB", n>>20, crecio/1024, asignado/1024)
	if crecio > 4<<20 || asignado > 8<<20 {
		t.Errorf("la memoria creció %d KB (asignado %d KB) por una subida rechazada", crecio/1024, asignado/1024)
	}
}

// After a 413 the revisor closes only its write side and keeps reading what arrives, for at most
// EsperaCierre: a client that never closes does not hold the connection.
func TestCierreEnEtapasTieneTope(t *testing.T) {
	t.Parallel()
	e := nuevoEntorno(t, func(o *Opciones) { o.EsperaCierre = 300 * time.Millisecond })
	conn, err := net.Dial("tcp", strings.TrimPrefix(e.srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /servicios HTTP/1.1\r\nHost: revisor\r\nAuthorization: Bearer escritura-a\r\nContent-Type: application/json\r\nContent-Length: 20000\r\n\r\n")
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.ReadAll(resp.Body)
	if resp.StatusCode != 413 {
		t.Fatal(resp.Status)
	}
	inicio := time.Now()
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := br.ReadByte(); err != io.EOF {
		t.Errorf("tras el 413 se esperaba el fin de la escritura, no %v", err)
	}
	// The write side is already closed (EOF above at once); the whole connection goes after the wait,
	// which is what is timed here: a write fails once the revisor has closed it (reset).
	prueba.Esperar(t, "la conexión se cierra del todo tras la espera", func() bool {
		_, err := conn.Write([]byte("aaaa"))
		return err != nil
	})
	if d := time.Since(inicio); d < 200*time.Millisecond {
		t.Errorf("cerró del todo a los %v, antes de la espera", d)
	}
}
