package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// make perfiles relies on it: with the variable set, a run leaves a CPU profile (gzip-compressed
// protobuf, as pprof reads it) once it ends, and ending it twice (a second Ctrl+C racing the normal
// exit) is harmless.
func TestPerfilConLaVariable(t *testing.T) {
	ruta := filepath.Join(t.TempDir(), "cpu.pprof")
	t.Setenv(VariablePerfil, ruta)
	terminar := perfilar()
	suma := 0
	for i := range 2_000_000 {
		suma += i % 7
	}
	terminar()
	terminar()
	b, err := os.ReadFile(ruta)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte{0x1f, 0x8b}) {
		t.Errorf("el perfil no es un pprof comprimido: %q… (%d)", b[:min(len(b), 8)], suma)
	}
}

func TestSinLaVariableNoHayPerfil(t *testing.T) {
	t.Setenv(VariablePerfil, "")
	dir := t.TempDir()
	t.Chdir(dir)
	perfilar()()
	if entradas, _ := os.ReadDir(dir); len(entradas) != 0 {
		t.Errorf("sin %s no debe escribir nada: %v", VariablePerfil, entradas)
	}
}
