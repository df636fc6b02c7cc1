package laboratorio

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"cursohttp/internal/prueba"
	"cursohttp/internal/prueba/servidortest"
	"cursohttp/pkg/encabezado"
	"cursohttp/pkg/servidor"
)

const (
	ct404 = "404 Not Found\nla única ruta es /codigo/NNN; prueba con /codigo/503\n"
	ct405 = "405 Method Not Allowed\nel banco solo atiende GET y HEAD\n"
)

// TestBanco asks the bench what the course's bench was asked and compares the bytes it answered.
func TestBanco(t *testing.T) {
	t.Parallel()
	ts := servidortest.Nuevo(t, Nuevo(zerolog.Nop()))
	addr := ts.Listener.Addr().String()

	casos := []struct {
		nombre, metodo, objetivo string
		linea                    string
		cabeceras                map[string]string // exact names; "" means absent
		cuerpo                   string
	}{
		{"200", "GET", "/codigo/200", "HTTP/1.1 200 OK",
			map[string]string{"Content-Type": TipoTexto, "Content-Length": "33"}, "200 OK\nlo pediste en /codigo/200\n"},
		{"201 con Location", "GET", "/codigo/201", "HTTP/1.1 201 Created",
			map[string]string{"Location": "/servicios/demo", "Content-Length": "38"}, "201 Created\nlo pediste en /codigo/201\n"},
		{"204 sin cuerpo", "GET", "/codigo/204", "HTTP/1.1 204 No Content",
			map[string]string{"Content-Length": "", "Content-Type": ""}, ""},
		{"205 con Content-Length 0", "GET", "/codigo/205", "HTTP/1.1 205 Reset Content",
			map[string]string{"Content-Length": "0", "Content-Type": ""}, ""},
		{"299 sin nombre", "GET", "/codigo/299", "HTTP/1.1 299 unknown",
			map[string]string{"Content-Length": "57"}, "299 (sin nombre en este banco)\nlo pediste en /codigo/299\n"},
		{"300 con frase pero sin nombre en el banco", "GET", "/codigo/300", "HTTP/1.1 300 Multiple Choices",
			nil, "300 (sin nombre en este banco)\nlo pediste en /codigo/300\n"},
		{"301 con Location", "GET", "/codigo/301", "HTTP/1.1 301 Moved Permanently",
			map[string]string{"Location": "/codigo/200"}, "301 Moved Permanently\nlo pediste en /codigo/301\n"},
		{"302", "GET", "/codigo/302", "HTTP/1.1 302 Found", map[string]string{"Location": "/codigo/200"}, "302 Found\nlo pediste en /codigo/302\n"},
		{"307", "GET", "/codigo/307", "HTTP/1.1 307 Temporary Redirect", map[string]string{"Location": "/codigo/200"}, "307 Temporary Redirect\nlo pediste en /codigo/307\n"},
		{"308", "GET", "/codigo/308", "HTTP/1.1 308 Permanent Redirect", map[string]string{"Location": "/codigo/200"}, "308 Permanent Redirect\nlo pediste en /codigo/308\n"},
		{"304 con ETag y sin cuerpo", "GET", "/codigo/304", "HTTP/1.1 304 Not Modified",
			map[string]string{"ETag": `"v1"`, "Etag": "", "Content-Length": "", "Content-Type": ""}, ""},
		{"401 con WWW-Authenticate", "GET", "/codigo/401", "HTTP/1.1 401 Unauthorized",
			map[string]string{"WWW-Authenticate": `Bearer realm="revisor"`, "Www-Authenticate": ""}, "401 Unauthorized\nlo pediste en /codigo/401\n"},
		{"405 pedido", "GET", "/codigo/405", "HTTP/1.1 405 Method Not Allowed",
			map[string]string{"Allow": "GET, HEAD"}, "405 Method Not Allowed\nlo pediste en /codigo/405\n"},
		{"413 con el nombre del curso", "GET", "/codigo/413", "HTTP/1.1 413 Content Too Large", nil, "413 Content Too Large\nlo pediste en /codigo/413\n"},
		{"418: la frase no es el nombre del banco", "GET", "/codigo/418", "HTTP/1.1 418 I'm a Teapot",
			nil, "418 (sin nombre en este banco)\nlo pediste en /codigo/418\n"},
		{"422 con el nombre del curso", "GET", "/codigo/422", "HTTP/1.1 422 Unprocessable Content", nil, "422 Unprocessable Content\nlo pediste en /codigo/422\n"},
		{"429 con Retry-After 30", "GET", "/codigo/429", "HTTP/1.1 429 Too Many Requests",
			map[string]string{"Retry-After": "30"}, "429 Too Many Requests\nlo pediste en /codigo/429\n"},
		{"502 sin Retry-After", "GET", "/codigo/502", "HTTP/1.1 502 Bad Gateway",
			map[string]string{"Retry-After": ""}, "502 Bad Gateway\nlo pediste en /codigo/502\n"},
		{"503 con Retry-After 120", "GET", "/codigo/503", "HTTP/1.1 503 Service Unavailable",
			map[string]string{"Retry-After": "120", "Content-Length": "50", "Content-Type": TipoTexto}, "503 Service Unavailable\nlo pediste en /codigo/503\n"},
		{"504 sin Retry-After", "GET", "/codigo/504", "HTTP/1.1 504 Gateway Timeout",
			map[string]string{"Retry-After": ""}, "504 Gateway Timeout\nlo pediste en /codigo/504\n"},
		{"599", "GET", "/codigo/599", "HTTP/1.1 599 unknown", nil, "599 (sin nombre en este banco)\nlo pediste en /codigo/599\n"},
		{"600 a propósito", "GET", "/codigo/600", "HTTP/1.1 600 unknown",
			map[string]string{"Content-Length": "125"}, "600 (sin nombre en este banco)\n" + motivoMayor599 + "\n"},
		{"999 a propósito", "GET", "/codigo/999", "HTTP/1.1 999 unknown", nil, "999 (sin nombre en este banco)\n" + motivoMayor599 + "\n"},
		{"000", "GET", "/codigo/000", "HTTP/1.1 400 Bad Request",
			map[string]string{"Content-Length": "61"}, "400 Bad Request\nno existe un código de estado menor que 100\n"},
		{"099", "GET", "/codigo/099", "HTTP/1.1 400 Bad Request", nil, "400 Bad Request\nno existe un código de estado menor que 100\n"},
		{"100", "GET", "/codigo/100", "HTTP/1.1 400 Bad Request",
			map[string]string{"Content-Length": "76"}, "400 Bad Request\nun 1xx es una respuesta intermedia: no puede ser la última\n"},
		{"199", "GET", "/codigo/199", "HTTP/1.1 400 Bad Request", nil, "400 Bad Request\nun 1xx es una respuesta intermedia: no puede ser la última\n"},

		// The path as a URL parser reads it.
		{"dos cifras", "GET", "/codigo/20", "HTTP/1.1 404 Not Found", map[string]string{"Content-Length": "68"}, ct404},
		{"cuatro cifras", "GET", "/codigo/2000", "HTTP/1.1 404 Not Found", nil, ct404},
		{"barra final", "GET", "/codigo/200/", "HTTP/1.1 404 Not Found", nil, ct404},
		{"mayúsculas", "GET", "/CODIGO/200", "HTTP/1.1 404 Not Found", nil, ct404},
		{"raíz", "GET", "/", "HTTP/1.1 404 Not Found", nil, ct404},
		{"sin código", "GET", "/codigo/", "HTTP/1.1 404 Not Found", nil, ct404},
		{"letras", "GET", "/codigo/abc", "HTTP/1.1 404 Not Found", nil, ct404},
		{"signo", "GET", "/codigo/+200", "HTTP/1.1 404 Not Found", nil, ct404},
		{"cifras escapadas", "GET", "/codigo/%32%30%30", "HTTP/1.1 404 Not Found", nil, ct404},
		{"cifras que no son ASCII", "GET", "/codigo/\u0662\u0660\u0660", "HTTP/1.1 404 Not Found", nil, ct404},
		{"la consulta no es parte de la ruta", "GET", "/codigo/200?x=1", "HTTP/1.1 200 OK", nil, "200 OK\nlo pediste en /codigo/200\n"},
		{"consulta vacía", "GET", "/codigo/503?", "HTTP/1.1 503 Service Unavailable", nil, "503 Service Unavailable\nlo pediste en /codigo/503\n"},
		{"fragmento", "GET", "/codigo/200#f", "HTTP/1.1 200 OK", nil, "200 OK\nlo pediste en /codigo/200\n"},
		{"dos barras: codigo es el host", "GET", "//codigo/200", "HTTP/1.1 404 Not Found", nil, ct404},
		{"dos barras con host", "GET", "//otro/codigo/200", "HTTP/1.1 200 OK", nil, "200 OK\nlo pediste en /codigo/200\n"},
		{"barra invertida con host", "GET", "/\\otro/codigo/200", "HTTP/1.1 200 OK", nil, "200 OK\nlo pediste en /codigo/200\n"},
		{"barra invertida", "GET", "/codigo\\200", "HTTP/1.1 200 OK", nil, "200 OK\nlo pediste en /codigo/200\n"},
		{"punto punto", "GET", "/x/../codigo/200", "HTTP/1.1 200 OK", nil, "200 OK\nlo pediste en /codigo/200\n"},
		{"punto", "GET", "/codigo/./200", "HTTP/1.1 200 OK", nil, "200 OK\nlo pediste en /codigo/200\n"},
		{"punto punto escapado", "GET", "/codigo/%2e%2e/codigo/201", "HTTP/1.1 201 Created", nil, "201 Created\nlo pediste en /codigo/201\n"},
		{"punto punto al final", "GET", "/codigo/200/..", "HTTP/1.1 404 Not Found", nil, ct404},
		{"forma absoluta", "GET", "http://banco/codigo/201", "HTTP/1.1 201 Created", nil, "201 Created\nlo pediste en /codigo/201\n"},
		{"forma absoluta con puerto y consulta", "GET", "http://otro:99/codigo/503?x", "HTTP/1.1 503 Service Unavailable", nil, "503 Service Unavailable\nlo pediste en /codigo/503\n"},
		{"asterisco", "GET", "*", "HTTP/1.1 404 Not Found", nil, ct404},

		// HEAD is GET without the body.
		{"HEAD 200", "HEAD", "/codigo/200", "HTTP/1.1 200 OK", map[string]string{"Content-Length": "33", "Content-Type": TipoTexto}, ""},
		{"HEAD 503", "HEAD", "/codigo/503", "HTTP/1.1 503 Service Unavailable", map[string]string{"Content-Length": "50", "Retry-After": "120"}, ""},
		{"HEAD 205", "HEAD", "/codigo/205", "HTTP/1.1 205 Reset Content", map[string]string{"Content-Length": "0"}, ""},
		{"HEAD 304", "HEAD", "/codigo/304", "HTTP/1.1 304 Not Modified", map[string]string{"ETag": `"v1"`}, ""},
		{"HEAD 404", "HEAD", "/nada", "HTTP/1.1 404 Not Found", map[string]string{"Content-Length": "68"}, ""},
		{"HEAD 600", "HEAD", "/codigo/600", "HTTP/1.1 600 unknown", map[string]string{"Content-Length": "125"}, ""},
		{"HEAD /lento", "HEAD", "/lento/5", "HTTP/1.1 200 OK", map[string]string{"Content-Length": "19"}, ""},

		// Other methods.
		{"POST", "POST", "/codigo/200", "HTTP/1.1 405 Method Not Allowed",
			map[string]string{"Allow": "GET, HEAD", "Content-Length": "56", "Content-Type": TipoTexto}, ct405},
		{"PUT a una ruta que no existe", "PUT", "/nada", "HTTP/1.1 405 Method Not Allowed", nil, ct405},
		{"DELETE", "DELETE", "/codigo/503", "HTTP/1.1 405 Method Not Allowed", map[string]string{"Retry-After": ""}, ct405},
		{"OPTIONS", "OPTIONS", "/codigo/200", "HTTP/1.1 405 Method Not Allowed", nil, ct405},
		{"PROPFIND", "PROPFIND", "/codigo/200", "HTTP/1.1 405 Method Not Allowed", nil, ct405},
		// Node's parser refuses a method it does not know before the program sees it (pkg/servidor).
		{"un método inventado", "FOO", "/codigo/200", "HTTP/1.1 400 Bad Request", map[string]string{"Connection": "close"}, ""},
		{"un método en minúsculas", "get", "/codigo/200", "HTTP/1.1 400 Bad Request", map[string]string{"Connection": "close"}, ""},

		// /lento/MS on the raw target, before the method.
		{"lento", "GET", "/lento/5", "HTTP/1.1 200 OK", map[string]string{"Content-Length": "19", "Content-Type": TipoTexto}, "200 OK\ntardé 5 ms\n"},
		{"lento con ceros", "GET", "/lento/00010", "HTTP/1.1 200 OK", nil, "200 OK\ntardé 00010 ms\n"},
		{"lento 0", "GET", "/lento/0", "HTTP/1.1 200 OK", nil, "200 OK\ntardé 0 ms\n"},
		{"lento con POST", "POST", "/lento/5", "HTTP/1.1 200 OK", nil, "200 OK\ntardé 5 ms\n"},
		{"lento con DELETE", "DELETE", "/lento/5", "HTTP/1.1 200 OK", nil, "200 OK\ntardé 5 ms\n"},
		{"lento con seis cifras", "GET", "/lento/123456", "HTTP/1.1 404 Not Found", nil, ct404},
		{"lento con consulta", "GET", "/lento/10?x", "HTTP/1.1 404 Not Found", nil, ct404},
		{"lento sin cifras", "GET", "/lento/", "HTTP/1.1 404 Not Found", nil, ct404},
		{"lento con barra final", "GET", "/lento/10/", "HTTP/1.1 404 Not Found", nil, ct404},
		{"lento en forma absoluta", "GET", "http://banco/lento/5", "HTTP/1.1 404 Not Found", nil, ct404},
		{"lento con POST y otra cosa", "POST", "/lento/5x", "HTTP/1.1 405 Method Not Allowed", nil, ct405},

		// /cortar and /basura only as the exact raw target.
		{"cortar con consulta", "GET", "/cortar?x", "HTTP/1.1 404 Not Found", nil, ct404},
		{"cortar con barra", "GET", "/cortar/", "HTTP/1.1 404 Not Found", nil, ct404},
		{"cortar en forma absoluta", "GET", "http://banco/cortar", "HTTP/1.1 404 Not Found", nil, ct404},
		{"basura con consulta", "GET", "/basura?x", "HTTP/1.1 404 Not Found", nil, ct404},
		{"basura con POST y consulta", "POST", "/basura?x", "HTTP/1.1 405 Method Not Allowed", nil, ct405},
	}
	for _, c := range casos {
		t.Run(c.nombre, func(t *testing.T) {
			t.Parallel()
			r := pedirCrudo(t, addr, c.metodo, c.objetivo, "")
			if r.linea != c.linea {
				t.Errorf("línea de estado %q, se esperaba %q", r.linea, c.linea)
			}
			for nombre, valor := range c.cabeceras {
				got, ok := r.cabeceras[nombre]
				switch {
				case valor == "" && ok:
					t.Errorf("%s: %q, no debería estar", nombre, got)
				case valor != "" && got != valor:
					t.Errorf("%s: %q, se esperaba %q", nombre, got, valor)
				}
			}
			if r.cuerpo != c.cuerpo {
				t.Errorf("cuerpo %q, se esperaba %q", r.cuerpo, c.cuerpo)
			}
		})
	}
}

// TestBancoTodosLosCodigos checks the whole range against the two tables: the status line's phrase
// (encabezado.Frase) and the body's name (the bench's own).
func TestBancoTodosLosCodigos(t *testing.T) {
	t.Parallel()
	ts := servidortest.Nuevo(t, Nuevo(zerolog.Nop()))
	addr := ts.Listener.Addr().String()
	for codigo := 200; codigo <= 999; codigo++ {
		if codigo > 600 && codigo%100 != 99 {
			continue
		}
		r := pedirCrudo(t, addr, "GET", "/codigo/"+strconv.Itoa(codigo), "")
		linea := "HTTP/1.1 " + strconv.Itoa(codigo) + " " + encabezado.Frase(codigo)
		if r.linea != linea {
			t.Errorf("%d: línea %q, se esperaba %q", codigo, r.linea, linea)
		}
		explicacion := "lo pediste en /codigo/" + strconv.Itoa(codigo)
		if codigo > 599 {
			explicacion = motivoMayor599
		}
		cuerpo := Cuerpo(codigo, explicacion)
		if codigo == 204 || codigo == 205 || codigo == 304 {
			cuerpo = ""
		}
		if r.cuerpo != cuerpo {
			t.Errorf("%d: cuerpo %q, se esperaba %q", codigo, r.cuerpo, cuerpo)
		}
		if c, ok := cabeceras[codigo]; ok && r.cabeceras[c.Nombre] != c.Valor {
			t.Errorf("%d: %s %q, se esperaba %q", codigo, c.Nombre, r.cabeceras[c.Nombre], c.Valor)
		}
	}
}

func TestCuerpo(t *testing.T) {
	t.Parallel()
	casos := []struct {
		codigo int
		want   string
	}{
		{503, "503 Service Unavailable\nx\n"},
		{418, "418 (sin nombre en este banco)\nx\n"},
		{413, "413 Content Too Large\nx\n"},
		{422, "422 Unprocessable Content\nx\n"},
		{600, "600 (sin nombre en este banco)\nx\n"},
	}
	for _, c := range casos {
		if got := Cuerpo(c.codigo, "x"); got != c.want {
			t.Errorf("Cuerpo(%d) = %q, se esperaba %q", c.codigo, got, c.want)
		}
	}
}

func TestCortar(t *testing.T) {
	t.Parallel()
	ts := servidortest.Nuevo(t, Nuevo(zerolog.Nop()))
	addr := ts.Listener.Addr().String()
	for _, metodo := range []string{"GET", "HEAD", "POST", "DELETE"} {
		t.Run(metodo, func(t *testing.T) {
			t.Parallel()
			cuerpo := ""
			if metodo == "POST" {
				cuerpo = "hola"
			}
			if r, err := intentarCrudo(addr, peticionCruda(metodo, "/cortar", cuerpo)); err != nil || r.todo != "" {
				t.Errorf("llegó %q (%v); /cortar no debe escribir nada", r.todo, err)
			}
		})
	}
}

func TestBasura(t *testing.T) {
	t.Parallel()
	ts := servidortest.Nuevo(t, Nuevo(zerolog.Nop()))
	addr := ts.Listener.Addr().String()
	for _, metodo := range []string{"GET", "HEAD", "POST", "PUT"} {
		t.Run(metodo, func(t *testing.T) {
			t.Parallel()
			if r, err := intentarCrudo(addr, peticionCruda(metodo, "/basura", "")); err != nil || r.todo != Basura {
				t.Errorf("llegó %q (%v), se esperaba %q", r.todo, err, Basura)
			}
		})
	}
	// A Go client gets no response: what curl calls HTTP/0.9.
	_, err := ts.Client().Get(ts.URL + "/basura")
	if err == nil {
		t.Error("un cliente HTTP aceptó /basura como respuesta")
	}
}

// TestLentoSinCliente: a client that leaves ends the wait at once; nothing stays behind.
func TestLentoSinCliente(t *testing.T) {
	t.Parallel()
	var terminados atomic.Int32
	empezo, fin := make(chan struct{}, 1), make(chan struct{}, 1)
	banco := Nuevo(zerolog.Nop())
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			terminados.Add(1)
			fin <- struct{}{}
		}()
		empezo <- struct{}{}
		banco.ServeHTTP(w, r)
	})
	ts := servidortest.Nuevo(t, h)
	for _, cuerpo := range []string{"", "un cuerpo que hay que leer"} {
		c, err := net.Dial("tcp", ts.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		peticion := "POST /lento/99999 HTTP/1.1\r\nHost: banco\r\nContent-Length: " + strconv.Itoa(len(cuerpo)) + "\r\n\r\n" + cuerpo
		io.WriteString(c, peticion)
		<-empezo // /lento/99999 waits 100 s unless the client leaves
		c.Close()
		select {
		case <-fin:
		case <-time.After(prueba.PlazoDeEspera):
			t.Fatalf("con cuerpo %q: /lento/99999 siguió esperando después de que el cliente se fue", cuerpo)
		}
	}
	if n := terminados.Load(); n != 2 {
		t.Errorf("%d manejadores terminaron, se esperaban 2", n)
	}
}

// TestLentoTiempo: the answer comes after the milliseconds asked, not before.
func TestLentoTiempo(t *testing.T) {
	t.Parallel()
	ts := servidortest.Nuevo(t, Nuevo(zerolog.Nop()))
	inicio := time.Now()
	r := pedirCrudo(t, ts.Listener.Addr().String(), "GET", "/lento/150", "")
	if d := time.Since(inicio); d < 150*time.Millisecond {
		t.Errorf("respondió en %v, antes de 150 ms", d)
	}
	if r.cuerpo != "200 OK\ntardé 150 ms\n" {
		t.Errorf("cuerpo %q", r.cuerpo)
	}
}

// TestLentoApagado: a graceful shutdown lets a /lento in flight finish.
func TestLentoApagado(t *testing.T) {
	t.Parallel()
	ln, err := servidor.Escuchar("laboratorio", servidor.Opciones{Direccion: "127.0.0.1", Puerto: 0})
	if err != nil {
		t.Fatal(err)
	}
	ctx, apagar := context.WithCancel(context.Background())
	servido := make(chan error, 1)
	banco := Nuevo(zerolog.Nop())
	enCurso := make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(enCurso)
		banco.ServeHTTP(w, r)
	})
	go func() { servido <- servidor.Servir(ctx, ln, servidor.Nuevo(h), zerolog.Nop()) }()

	respuesta := make(chan crudo, 1)
	go func() {
		r, err := intentarCrudo(ln.Addr().String(), "GET /lento/300 HTTP/1.1\r\nHost: banco\r\n\r\n")
		if err != nil {
			r.todo = err.Error()
		}
		respuesta <- r
	}()
	<-enCurso
	apagar()

	r := <-respuesta
	if r.linea != "HTTP/1.1 200 OK" || r.cuerpo != "200 OK\ntardé 300 ms\n" {
		t.Errorf("la petición en curso recibió %q", r.todo)
	}
	if err := <-servido; err != nil {
		t.Errorf("Servir: %v", err)
	}
}

func TestRuta(t *testing.T) {
	t.Parallel()
	casos := []struct{ crudo, want string }{
		{"/codigo/200", "/codigo/200"},
		{"/codigo/200?x=1", "/codigo/200"},
		{"/codigo/200#f", "/codigo/200"},
		{"//codigo/200", "/200"},
		{"//otro/codigo/200", "/codigo/200"},
		{"/\\otro/codigo/200", "/codigo/200"},
		{"///otro/codigo/200", "/codigo/200"},
		{"//otro", "/"},
		{"//otro?x", "/"},
		{"/codigo\\200", "/codigo/200"},
		{"/x/../codigo/200", "/codigo/200"},
		{"/codigo/%2E%2e/codigo/201", "/codigo/201"},
		{"http://banco/codigo/201", "/codigo/201"},
		{"HTTP://otro/codigo/404", "/codigo/404"},
		{"*", "/*"},
		{"/codigo/200é", "/codigo/200%C3%A9"},
	}
	for _, c := range casos {
		if got := Ruta(c.crudo); got != c.want {
			t.Errorf("Ruta(%q) = %q, se esperaba %q", c.crudo, got, c.want)
		}
	}
}

func TestCifrasLento(t *testing.T) {
	t.Parallel()
	casos := []struct {
		crudo  string
		cifras string
		ok     bool
	}{
		{"/lento/5", "5", true},
		{"/lento/99999", "99999", true},
		{"/lento/00000", "00000", true},
		{"/lento/123456", "", false},
		{"/lento/", "", false},
		{"/lento/1e3", "", false},
		{"/lento/10?x", "", false},
		{"/lento/10/", "", false},
		{"/lento/-1", "", false},
		{"/LENTO/5", "", false},
		{"/lento/\u0665", "", false},
	}
	for _, c := range casos {
		cifras, ok := cifrasLento(c.crudo)
		if cifras != c.cifras || ok != c.ok {
			t.Errorf("cifrasLento(%q) = %q, %v; se esperaba %q, %v", c.crudo, cifras, ok, c.cifras, c.ok)
		}
	}
}

func FuzzRuta(f *testing.F) {
	for _, s := range []string{"/codigo/200", "//x/y", "/\\", "http://a", "/a/../../b", "?", "/%2e%2E/x", "//"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, crudo string) {
		ruta := Ruta(crudo)
		if !strings.HasPrefix(ruta, "/") {
			t.Fatalf("Ruta(%q) = %q no empieza con /", crudo, ruta)
		}
		if strings.ContainsAny(ruta, "?#\\") {
			t.Fatalf("Ruta(%q) = %q conserva ?, # o \\", crudo, ruta)
		}
	})
}

// TestBancoSinConexion: the bench also works behind a recorder (no wrapped connection): the
// failure routes abort instead of hijacking.
func TestBancoSinConexion(t *testing.T) {
	t.Parallel()
	banco := Nuevo(zerolog.Nop())
	w := httptest.NewRecorder()
	banco.ServeHTTP(w, httptest.NewRequest("GET", "/codigo/503", nil))
	if w.Code != 503 || w.Header().Get("Retry-After") != "120" || w.Body.String() != "503 Service Unavailable\nlo pediste en /codigo/503\n" {
		t.Errorf("%d %v %q", w.Code, w.Header(), w.Body.String())
	}
	for _, ruta := range []string{"/cortar", "/basura"} {
		func() {
			defer func() {
				if p := recover(); !errors.Is(asError(p), http.ErrAbortHandler) {
					t.Errorf("%s sin conexión: %v, se esperaba http.ErrAbortHandler", ruta, p)
				}
			}()
			banco.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", ruta, nil))
		}()
	}
}

func asError(p any) error {
	err, _ := p.(error)
	return err
}

func BenchmarkCodigo200(b *testing.B) {
	banco := Nuevo(zerolog.Nop())
	r := httptest.NewRequest("GET", "/codigo/200", nil)
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		banco.ServeHTTP(w, r)
		if w.Code != http.StatusOK {
			b.Fatal(w.Code)
		}
	}
}
