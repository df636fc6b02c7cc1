package laboratorio

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"cursohttp/internal/prueba"
)

// crudo is a response as it crossed the wire: header names keep their case.
type crudo struct {
	linea     string
	cabeceras map[string]string
	cuerpo    string
	todo      string
}

// pedirCrudo sends one request line on its own connection (with Connection: close) and reads the
// response as it came.
func pedirCrudo(t *testing.T, addr, metodo, objetivo string, cuerpo string) crudo {
	t.Helper()
	return partir(prueba.PedirCrudo(t, addr, peticionCruda(metodo, objetivo, cuerpo)))
}

func peticionCruda(metodo, objetivo, cuerpo string) string {
	peticion := metodo + " " + objetivo + " HTTP/1.1\r\nHost: banco\r\nConnection: close\r\n"
	if cuerpo != "" {
		peticion += "Content-Length: " + strconv.Itoa(len(cuerpo)) + "\r\n"
	}
	return peticion + "\r\n" + cuerpo
}

// intentarCrudo reads everything until the server closes, for what is not an HTTP response (a cut,
// garbage) and for goroutines other than the test's, which prueba.PedirCrudo is not for.
func intentarCrudo(addr, peticion string) (crudo, error) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return crudo{}, err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(prueba.PlazoDeEspera))
	if _, err := io.WriteString(c, peticion); err != nil {
		return crudo{}, err
	}
	todo, err := io.ReadAll(c)
	if err != nil {
		return crudo{}, fmt.Errorf("leyendo la respuesta: %w (llegó %q)", err, todo)
	}
	return partir(string(todo)), nil
}

func partir(todo string) crudo {
	r := crudo{todo: todo, cabeceras: map[string]string{}}
	cabeza, cuerpo, ok := strings.Cut(todo, "\r\n\r\n")
	if !ok || !strings.HasPrefix(todo, "HTTP/") {
		return r
	}
	r.cuerpo = cuerpo
	lineas := strings.Split(cabeza, "\r\n")
	r.linea = lineas[0]
	for _, l := range lineas[1:] {
		nombre, valor, _ := strings.Cut(l, ": ")
		r.cabeceras[nombre] = valor
	}
	return r
}

// registro is a log destination safe for concurrent handlers.
type registro struct{ prueba.Buffer }

func (l *registro) lineas() []string {
	var out []string
	s := bufio.NewScanner(strings.NewReader(l.String()))
	for s.Scan() {
		out = append(out, s.Text())
	}
	return out
}

func nopLog() zerolog.Logger { return zerolog.Nop() }
