//go:build unix

package e2e

import (
	"cursohttp/internal/prueba"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The revisor's log, one write per line to a file both streams share (bitacora.NuevoLogger). Under
// load from many clients at once,
// with requests that crash among them, its file holds every request's line exactly once, each
// client's in the order it sent them, and each crash's error line after its request's line and
// before that client's next one. A crash's line is in the file by the time its 500 arrives, and
// Ctrl+C leaves nothing unwritten.
func TestBitacoraDelRevisorBajoCarga(t *testing.T) {
	largo(t)
	t.Parallel()
	ruta := filepath.Join(t.TempDir(), "revisor.log")
	archivo, err := os.Create(ruta)
	if err != nil {
		t.Fatal(err)
	}
	defer archivo.Close()
	// As make lab-up does: both streams into one file.
	cmd := exec.Command(filepath.Join(binarios, "revisor"), "--puerto", "0")
	cmd.Stdout, cmd.Stderr = archivo, archivo
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	hecho := make(chan error, 1)
	go func() { hecho <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-hecho
	})
	leer := func() string {
		b, err := os.ReadFile(ruta)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	var base string
	prueba.Esperar(t, "el revisor escribe su dirección en la bitácora", func() bool {
		m := direccion.FindStringSubmatch(leer())
		if m != nil {
			base = "http://" + m[1]
		}
		return m != nil
	})

	const clientes, peticiones, cadaCuanto = 8, 500, 50
	referencia := regexp.MustCompile(`urn:uuid:([0-9a-f-]{36})`)
	var wg sync.WaitGroup
	for c := range clientes {
		wg.Go(func() {
			cliente := &http.Client{Transport: &http.Transport{}}
			defer cliente.CloseIdleConnections()
			for i := range peticiones {
				camino := fmt.Sprintf("/no-existe/%d/%d", c, i)
				choca := i%cadaCuanto == cadaCuanto-1
				if choca {
					// Service 1 has no checks: the planted defect of /informe panics (500).
					camino = fmt.Sprintf("/servicios/1/informe?c=%d&i=%d", c, i)
				}
				req, _ := http.NewRequest("GET", base+camino, nil)
				req.Header.Set("Authorization", "Bearer lectura-a")
				res, err := cliente.Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				cuerpo, _ := io.ReadAll(res.Body)
				res.Body.Close()
				if !choca {
					continue
				}
				m := referencia.FindSubmatch(cuerpo)
				if res.StatusCode != 500 || m == nil {
					t.Errorf("%s: %d %s", camino, res.StatusCode, cuerpo)
					return
				}
				if linea := "error " + string(m[1]) + " en GET " + camino + ": "; !strings.Contains(leer(), linea) {
					t.Errorf("llegó el 500 y la bitácora aún no tiene %q", linea)
				}
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	cmd.Process.Signal(syscall.SIGINT)
	select {
	case err := <-hecho:
		hecho <- err
		if err != nil {
			t.Fatalf("tras Ctrl+C: %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("no terminó tras Ctrl+C")
	}

	peticion := regexp.MustCompile(`^GET /(?:no-existe/(\d+)/(\d+)|servicios/1/informe\?c=(\d+)&i=(\d+))$`)
	fallo := regexp.MustCompile(`^error [0-9a-f-]{36} en GET /servicios/1/informe\?c=(\d+)&i=(\d+): `)
	siguiente := make([]int, clientes)      // the next request line expected of each client
	errorPendiente := make([]int, clientes) // the request whose error line is due, -1 if none
	for c := range errorPendiente {
		errorPendiente[c] = -1
	}
	lineas := strings.Split(strings.TrimSuffix(leer(), "\n"), "\n")
	if !strings.HasPrefix(lineas[0], "revisor en http://") {
		t.Fatalf("primera línea %q", lineas[0])
	}
	numeros := func(m [][]byte, desde int) (int, int) {
		c, _ := strconv.Atoi(string(m[desde]))
		i, _ := strconv.Atoi(string(m[desde+1]))
		return c, i
	}
	for n, l := range lineas[1:] {
		b := []byte(l)
		switch {
		case peticion.Match(b):
			m := peticion.FindSubmatch(b)
			c, i := numeros(m, 1)
			if m[1] == nil {
				c, i = numeros(m, 3)
			}
			if c >= clientes || i != siguiente[c] || errorPendiente[c] >= 0 {
				t.Fatalf("línea %d %q: se esperaba la petición %d del cliente %d (error pendiente: %d)", n+2, l, siguiente[c], c, errorPendiente[c])
			}
			siguiente[c]++
			if m[1] == nil {
				errorPendiente[c] = i
			}
		case fallo.Match(b):
			c, i := numeros(fallo.FindSubmatch(b), 1)
			if c >= clientes || errorPendiente[c] != i {
				t.Fatalf("línea %d %q: error fuera de su lugar (pendiente del cliente: %d)", n+2, l, errorPendiente[c])
			}
			errorPendiente[c] = -1
		case strings.HasPrefix(l, "    at "):
			// The crash's own frames, under its error line.
		default:
			t.Fatalf("línea %d inesperada: %q", n+2, l)
		}
	}
	for c := range clientes {
		if siguiente[c] != peticiones || errorPendiente[c] >= 0 {
			t.Errorf("cliente %d: %d de %d líneas de petición, error pendiente %d", c, siguiente[c], peticiones, errorPendiente[c])
		}
	}
	if t.Failed() {
		t.Logf("bitácora:\n%s", leer()[:min(len(leer()), 4000)])
	}
}
