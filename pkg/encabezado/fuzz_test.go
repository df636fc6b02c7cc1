package encabezado

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The package's contract, fuzzed against net/http's own output: for any status, any fields a
// handler sets (in any order, any spelling of the names it orders) and any body, the rewritten
// head carries the same status with the course's phrase, the same fields with the same values
// (Node's Connection and Keep-Alive lines added), the ordered fields in the handler's order, and
// the same body, as a client reads them — what net/http alone writes for the same handler.
func FuzzCabezaComoNetHTTP(f *testing.F) {
	f.Add(uint16(201), "Location:/servicios/1\nETag:\"a\"\nContent-Type:application/json", "content-type,Location,ETag", uint16(24), false, false)
	f.Add(uint16(413), "Content-Type:application/problem+json\nConnection:close", "Content-Type,Connection", uint16(60), false, false)
	f.Add(uint16(304), "ETag:\"b\"\nCache-Control:no-cache", "ETag", uint16(0), false, true)
	f.Add(uint16(429), "Retry-After:2\nRateLimit-Policy:\"r\";q=3;w=60\nRateLimit:\"r\";r=0;t=2", "Retry-After,RateLimit,RateLimit-Policy", uint16(5), true, false)
	f.Add(uint16(204), "", "", uint16(0), false, false)
	f.Add(uint16(599), "X-Uno:1\nX-Uno:2\nx-dos: tres ", "X-DOS,x-uno,No-Esta", uint16(65000), false, false)
	manejador := func(w http.ResponseWriter, r *http.Request) {
		campos, _ := base64.StdEncoding.DecodeString(r.Header.Get("X-Campos"))
		for _, l := range strings.Split(string(campos), "\n") {
			if n, v, ok := strings.Cut(l, ":"); ok {
				w.Header().Add(n, v)
			}
		}
		codigo, _ := strconv.Atoi(r.Header.Get("X-Codigo"))
		var orden []string
		if o := r.Header.Get("X-Orden"); o != "" {
			orden = strings.Split(o, ",")
		}
		Escribir(w, r, codigo, orden...)
		largo, _ := strconv.Atoi(r.Header.Get("X-Cuerpo"))
		w.Write(bytes.Repeat([]byte("x"), largo))
	}
	curso := servidor(f, Curso, manejador)
	solo := httptest.NewServer(http.HandlerFunc(manejador)) // net/http alone: no wrapper
	f.Cleanup(solo.Close)

	f.Fuzz(func(t *testing.T, c uint16, campos, orden string, cuerpo uint16, http10, cerrar bool) {
		codigo := 200 + int(c)%400
		var lineas []string
		for _, l := range strings.Split(campos, "\n") {
			n, v, ok := strings.Cut(l, ":")
			if ok && nombreValido(n) && valorValido(v) && !reservado(n) {
				lineas = append(lineas, n+":"+v)
			}
		}
		var ordenados []string
		for _, n := range strings.Split(orden, ",") {
			if nombreValido(n) {
				ordenados = append(ordenados, n)
			}
		}
		pedido := "GET / HTTP/1.1\r\n"
		if http10 {
			pedido = "GET / HTTP/1.0\r\n"
		}
		pedido += "Host: x\r\nX-Codigo: " + strconv.Itoa(codigo) + "\r\nX-Campos: " +
			base64.StdEncoding.EncodeToString([]byte(strings.Join(lineas, "\n"))) +
			"\r\nX-Orden: " + strings.Join(ordenados, ",") + "\r\nX-Cuerpo: " + strconv.Itoa(int(cuerpo)) + "\r\n"
		if cerrar {
			pedido += "Connection: close\r\n"
		}
		pedido += "\r\n"
		cabezaCurso, rc, cuerpoCurso := pedirCrudo(t, curso, pedido)
		_, rg, cuerpoGo := pedirCrudo(t, solo.Listener.Addr().String(), pedido)

		if rc.StatusCode != rg.StatusCode || rc.Status != strconv.Itoa(codigo)+" "+Frase(codigo) || rc.Proto != "HTTP/1.1" {
			t.Fatalf("línea %q %s; net/http: %q", rc.Status, rc.Proto, rg.Status)
		}
		if !bytes.Equal(cuerpoCurso, cuerpoGo) {
			t.Fatalf("cuerpo de %d bytes; net/http: %d", len(cuerpoCurso), len(cuerpoGo))
		}
		for _, h := range []http.Header{rc.Header, rg.Header} {
			if len(h["Date"]) != 1 {
				t.Fatalf("Date: %q", h["Date"])
			}
			h.Del("Date")
		}
		// Node's lines, added: keep-alive with its timeout where the connection stays open.
		conexion := rc.Header.Get("Connection")
		if rg.Header.Get("Connection") == "" && rc.Close == (conexion == "keep-alive") {
			t.Fatalf("Connection: %q con la conexión cerrándose %v", conexion, rc.Close)
		}
		if conexion == "keep-alive" && rc.Header.Get("Keep-Alive") != "timeout=5" {
			t.Fatalf("Keep-Alive: %q", rc.Header.Get("Keep-Alive"))
		}
		if rg.Header.Get("Connection") == "" {
			rc.Header.Del("Connection")
		}
		if rg.Header.Get("Keep-Alive") == "" {
			rc.Header.Del("Keep-Alive")
		}
		if !igualesCampos(rc.Header, rg.Header) || rc.ContentLength != rg.ContentLength ||
			!slices.Equal(rc.TransferEncoding, rg.TransferEncoding) {
			t.Fatalf("campos\n%v\nnet/http\n%v", rc.Header, rg.Header)
		}
		// The ordered fields leave in the handler's order, spelled as its first mention of them.
		ultimo := 0
		for _, l := range strings.Split(cabezaCurso, "\r\n")[1:] {
			n, _, _ := strings.Cut(l, ":")
			i := slices.IndexFunc(ordenados, func(o string) bool { return strings.EqualFold(o, n) })
			if i < 0 {
				continue
			}
			if n != ordenados[i] || i < ultimo {
				t.Fatalf("el campo %q salió como %q, o fuera del orden %v:\n%s", ordenados[i], n, ordenados, cabezaCurso)
			}
			ultimo = i
		}
	})
}

// pedirCrudo sends one raw request and returns the head as it came, and the response and body as
// net/http's client reads them.
func pedirCrudo(t *testing.T, addr, pedido string) (string, *http.Response, []byte) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(c, pedido); err != nil {
		t.Fatal(err)
	}
	var copia bytes.Buffer
	br := bufio.NewReader(io.TeeReader(c, &copia))
	resp, err := http.ReadResponse(br, &http.Request{Method: "GET"})
	if err != nil {
		t.Fatalf("respuesta ilegible: %v\n%q", err, copia.String())
	}
	cuerpo, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	cabeza, _, _ := strings.Cut(copia.String(), "\r\n\r\n")
	return cabeza, resp, cuerpo
}

// igualesCampos compares two heads' fields: same names, same values in the same order per name.
func igualesCampos(a, b http.Header) bool {
	if len(a) != len(b) {
		return false
	}
	for n, v := range a {
		if !slices.Equal(v, b[n]) {
			return false
		}
	}
	return true
}

// nombreValido: a field name a handler can set (RFC 9110 token characters).
func nombreValido(n string) bool {
	if n == "" || len(n) > 40 {
		return false
	}
	for i := 0; i < len(n); i++ {
		if !strings.ContainsRune("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", rune(n[i])) {
			return false
		}
	}
	return true
}

// valorValido: a value net/http writes as given (visible ASCII and spaces, no CR, LF or NUL).
func valorValido(v string) bool {
	for i := 0; i < len(v); i++ {
		if v[i] < ' ' || v[i] > '~' {
			return false
		}
	}
	return len(v) <= 200
}

// reservado: what net/http itself decides (framing, the date) or the handler must not set for a
// response of another length; the contract is about the fields a handler sets freely.
func reservado(n string) bool {
	switch http.CanonicalHeaderKey(n) {
	case "Content-Length", "Transfer-Encoding", "Date", "Trailer", "Keep-Alive", "Connection":
		return true
	}
	return false
}
