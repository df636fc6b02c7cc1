package main

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"cursohttp/internal/prueba"
)

// With --datos the revisor says where its data is, right after the start-up line, and what it
// wrote is there after a restart with the same file.
func TestDatosEnArchivo(t *testing.T) {
	t.Parallel()
	ruta := filepath.Join(t.TempDir(), "revisor.db")
	inicio := regexp.MustCompile(`^revisor en http://(127\.0\.0\.1:\d+)$`)
	alta := func(addr string) (int, string) {
		req, _ := http.NewRequest("POST", "http://"+addr+"/servicios", strings.NewReader(`{"nombre":"agenda","url":"http://127.0.0.1:18081/codigo/200"}`))
		req.Header.Set("Authorization", "Bearer escritura-a")
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Idempotency-Key", "alta-agenda-1")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode, resp.Header.Get("Location") + " " + resp.Header.Get("ETag")
	}
	s := prueba.Arrancar(t, run, inicio, "--puerto", "0", "--datos", ruta)
	codigo, primera := alta(s.Addr)
	if c := s.Parar(); c != 0 || codigo != 201 {
		t.Fatalf("alta %d, salida %d: %s", codigo, c, s.Err.String())
	}
	if !strings.Contains(s.Out.String(), "\ndatos en "+ruta+" (SQLite)\n") {
		t.Errorf("la bitácora no dice dónde están los datos: %q", s.Out.String())
	}
	s = prueba.Arrancar(t, run, inicio, "--puerto", "0", "--datos", ruta)
	defer s.Parar()
	if codigo, otra := alta(s.Addr); codigo != 201 || otra != primera {
		t.Errorf("tras reiniciar, la misma llave: %d %s; se esperaba 201 %s", codigo, otra, primera)
	}
}

// A store that cannot be opened stops the revisor with one line and exit code 1.
func TestDatosQueNoSeAbren(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	basura := filepath.Join(dir, "basura.db")
	if err := os.WriteFile(basura, []byte(strings.Repeat("no es sqlite\n", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	casos := map[string]string{
		filepath.Join(dir, "no", "r.db"):     "no existe la carpeta",
		basura:                               "no es una base de datos SQLite",
		"postgres://yo:clave@/x?host=" + dir: "revisor: no se pudo abrir --datos «postgres://yo:xxxxx@/x?host=" + dir + "»: no hay ningún PostgreSQL en " + dir + " (falta " + dir + "/.s.PGSQL.5432)\n",
		// In the course's words, once: pgx said it in English, for TLS and again without (issue 42).
		"postgres://nadie@127.0.0.1:1/x": "revisor: no se pudo abrir --datos «postgres://nadie@127.0.0.1:1/x»: no hay ningún PostgreSQL escuchando en 127.0.0.1:1\n",
	}
	for donde, quiere := range casos {
		codigo, _, errOut := prueba.Correr(t, run, "--puerto", "0", "--datos", donde)
		if codigo != 1 || !strings.HasPrefix(errOut, "revisor: no se pudo abrir --datos «") || !strings.Contains(errOut, quiere) ||
			strings.Count(errOut, "\n") != 1 || strings.Contains(errOut, "clave") {
			t.Errorf("--datos %s: código %d, stderr %q", donde, codigo, errOut)
		}
	}
}
