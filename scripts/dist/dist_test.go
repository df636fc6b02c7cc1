package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// Each archive's notices list what is compiled into its own programs: mousetrap (cobra's, for
// Windows only) is in Windows' notices and in no other.
func TestAvisosPorPlataforma(t *testing.T) {
	if testing.Short() {
		t.Skip("go list para dos plataformas")
	}
	t.Chdir("../..") // go list ./cmd/... reads the module from here
	ctx := context.Background()
	for plataforma, con := range map[string]bool{"windows/amd64": true, "linux/amd64": false, "darwin/arm64": false} {
		avisos, err := Avisos(ctx, []string{plataforma})
		if err != nil {
			t.Fatal(err)
		}
		if got := bytes.Contains(avisos, []byte("==== github.com/inconshreveable/mousetrap ")); got != con {
			t.Errorf("%s: mousetrap en los avisos: %v, se esperaba %v", plataforma, got, con)
		}
	}
}

// Two runs of make dist on the same commit give the same bytes: one platform, twice, compared
// file by file (the archives, SHA256SUMS, NOTAS.md). One platform is enough: what could leak into
// an archive (a time, a path, a build id, an order) does not depend on which.
func TestDosCorridasIguales(t *testing.T) {
	if testing.Short() {
		t.Skip("compila los cuatro programas dos veces")
	}
	t.Chdir("../..")
	t.Setenv("SOURCE_DATE_EPOCH", "1764547200")
	dirs := []string{filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")}
	for _, d := range dirs {
		if err := correr(context.Background(), []string{"--version", "v0.0.0-prueba", "--salida", d, "linux/amd64"}, io.Discard); err != nil {
			t.Fatal(err)
		}
	}
	nombres, err := os.ReadDir(dirs[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(nombres) != 3 {
		t.Fatalf("se esperaban el archivo, SHA256SUMS y NOTAS.md: %v", nombres)
	}
	for _, n := range nombres {
		a, errA := os.ReadFile(filepath.Join(dirs[0], n.Name()))
		b, errB := os.ReadFile(filepath.Join(dirs[1], n.Name()))
		if errA != nil || errB != nil || !bytes.Equal(a, b) {
			t.Errorf("%s difiere entre dos corridas (%v, %v)", n.Name(), errA, errB)
		}
	}
}
