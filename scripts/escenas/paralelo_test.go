//go:build unix

package main

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"cursohttp/internal/saltos"
)

// Scenes in parallel, each in a network of its own: all three start the same server on the same
// port, which this test holds open on the machine's own network meanwhile; the lines come out in
// the scenes' order although the first one finishes last; a scene that differs is reported with
// its diff and not counted; one whose «# necesita» names a program not installed is skipped, said
// in its line and in make test's record.
func TestEnParaleloCadaUnaEnSuRed(t *testing.T) {
	yo, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if !redDisponible(yo) {
		t.Skip("esta máquina no deja crear espacios de red (ni como root ni con unshare -rn): las escenas van una tras otra")
	}
	ocupado, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ocupado.Close()
	puerto := strconv.Itoa(ocupado.Addr().(*net.TCPAddr).Port)
	t.Setenv("ESCENAS_SERVIDOR_FALSO", puerto) // the children's fake server, on the port held here
	bin := t.TempDir()
	if err := os.Symlink(yo, filepath.Join(bin, "falso")); err != nil {
		t.Fatal(err)
	}
	escenas := []*Escena{
		escenaLlamada(t, "9.1-la-lenta", "# 9.1 — lenta\n# servidores: falso\n$ sleep 1; curl -s http://127.0.0.1:"+puerto+"/uno\nhola desde /uno\n"),
		escenaLlamada(t, "9.2-otra", "# 9.2 — otra\n# servidores: falso\n$ curl -s http://127.0.0.1:"+puerto+"/dos\nhola desde /dos\n"),
		escenaLlamada(t, "9.3-sin-su-programa", "# 9.3 — sin su programa\n# necesita: curl programa-que-no-hay\n# servidores: falso\n$ programa-que-no-hay\n"),
		escenaLlamada(t, "9.4-distinta", "# 9.4 — distinta\n# servidores: falso\n$ curl -s http://127.0.0.1:"+puerto+"/tres\nhola desde /cuatro\n"),
	}
	registro := filepath.Join(t.TempDir(), "saltos")
	t.Setenv(saltos.Variable, registro)
	t.Setenv("CURSOHTTP_CI", "")
	var out bytes.Buffer
	if bien, saltadas := reproducirEnParalelo(context.Background(), yo, bin, escenas, 3, 0, &out); bien != 2 || saltadas != 1 {
		t.Errorf("%d escenas como en la lección y %d saltadas, se esperaban 2 y 1:\n%s", bien, saltadas, out.String())
	}
	if b, err := os.ReadFile(registro); err != nil || string(b) != "escena 9.3-sin-su-programa: programa-que-no-hay no está instalado\n" {
		t.Errorf("el registro de make test: %q %v", b, err)
	}
	lineas := strings.Split(out.String(), "\n")
	want := []*regexp.Regexp{
		regexp.MustCompile(`^ok     9\.1-la-lenta \([0-9.]+ s\)$`),
		regexp.MustCompile(`^ok     9\.2-otra \([0-9.]+ s\)$`),
		regexp.MustCompile(`^salta  9\.3-sin-su-programa: programa-que-no-hay no está instalado$`),
		regexp.MustCompile(`^FALLA  9\.4-distinta \([0-9.]+ s\)$`),
	}
	if len(lineas) < len(want) {
		t.Fatalf("salida:\n%s", out.String())
	}
	for i, re := range want {
		if !re.MatchString(lineas[i]) {
			t.Errorf("línea %d: %q; salida:\n%s", i+1, lineas[i], out.String())
		}
	}
	if !strings.Contains(out.String(), "-hola desde /cuatro\n") || !strings.Contains(out.String(), "+hola desde /tres\n") {
		t.Errorf("falta la diferencia de 9.4:\n%s", out.String())
	}
}

// The lock is per network namespace: its file names the namespace, so replays in separate ones
// (each engineer in `unshare -n`) do not stop each other; in the same one, the second says why.
func TestCandadoPorEspacioDeRed(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	uno, err := TomarCandado()
	if err != nil {
		t.Fatal(err)
	}
	defer uno.Close()
	if red := espacioDeRed(); red != "" && !strings.Contains(uno.f.Name(), "red"+red) {
		t.Errorf("el candado %s no nombra el espacio de red %s", uno.f.Name(), red)
	}
	if _, err := TomarCandado(); err == nil || !strings.Contains(err.Error(), "otra copia") {
		t.Errorf("un segundo candado en el mismo espacio de red: %v", err)
	}
}
