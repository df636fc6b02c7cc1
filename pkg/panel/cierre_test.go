package panel

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"cursohttp/internal/prueba/servidortest"
	"cursohttp/pkg/eventos"
)

// Issue 34, item 4: the panel answered a 4 MB event with 413 and closed at once, so a client
// still sending got a reset instead of the answer. Now it closes in stages, as the revisor does
// after its own 413: a client that keeps sending reads the 413, and so does one without the token.
func TestUnLoteGrandeLee413MientrasManda(t *testing.T) {
	t.Parallel()
	srv := servidortest.Nuevo(t, Nuevo(Opciones{Log: zerolog.Nop(), Token: "profe"}))
	addr := strings.TrimPrefix(srv.URL, "http://")
	for _, caso := range []struct{ nombre, auth, codigo string }{
		{"con el token", "Authorization: Bearer profe\r\n", "413"},
		{"sin el token", "", "401"},
	} {
		t.Run(caso.nombre, func(t *testing.T) {
			t.Parallel()
			cuerpo := eventoGrande(0, 4<<20)
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			mandado := make(chan error, 1)
			go func() {
				// The whole upload, without looking at what comes back: as Python's http.client does.
				_, err := io.WriteString(c, "POST "+RutaEventos+" HTTP/1.1\r\nHost: "+addr+"\r\n"+caso.auth+
					"Content-Type: "+eventos.Tipo+"\r\nContent-Length: "+strconv.Itoa(len(cuerpo))+"\r\n\r\n"+cuerpo)
				mandado <- err
			}()
			if err := <-mandado; err != nil {
				t.Fatalf("el cliente no pudo mandar el lote entero: %v", err)
			}
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				t.Fatalf("el cliente no leyó la respuesta: %v", err)
			}
			resp.Body.Close()
			// ReadResponse takes "Connection: close" out of the head into Close.
			if strconv.Itoa(resp.StatusCode) != caso.codigo || !resp.Close {
				t.Errorf("%d, cierra %v; se esperaba %s con Connection: close", resp.StatusCode, resp.Close, caso.codigo)
			}
		})
	}
}

// The same with Python's http.client, which reset 5 times of 5 before the staged close.
func TestUnLoteGrandeDesdePython(t *testing.T) {
	t.Parallel()
	python, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("CURSOHTTP_CI") == "1" {
			t.Fatal("CI necesita python3 para el cliente que manda el lote entero")
		}
		t.Skip("sin python3 no se prueba el 413 con http.client de Python")
	}
	srv := servidortest.Nuevo(t, Nuevo(Opciones{Log: zerolog.Nop(), Token: "profe"}))
	const guion = `
import http.client, sys
host, puerto, cuerpo = sys.argv[1], int(sys.argv[2]), sys.stdin.buffer.read()
for _ in range(5):
    c = http.client.HTTPConnection(host, puerto, timeout=10)
    c.request("POST", "/eventos", body=cuerpo, headers={"Authorization": "Bearer profe", "Content-Type": "application/x-ndjson"})
    r = c.getresponse()
    print(r.status, r.read().decode().strip())
    c.close()
`
	host, puerto, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))
	cmd := exec.Command(python, "-c", guion, host, puerto)
	cmd.Stdin = strings.NewReader(eventoGrande(0, 4<<20))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("python3: %v\n%s", err, out)
	}
	esperado := strings.Repeat("413 un evento pasa de 64 KiB: no tomo el lote\n", 5)
	if string(out) != esperado {
		t.Errorf("python3 leyó:\n%s\nse esperaba cinco veces el 413", out)
	}
}
