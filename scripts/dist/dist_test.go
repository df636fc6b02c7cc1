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

// What two runs of make dist on the same commit in two clones could differ in, and so what the two
// tests below check, both from two directories (the module, and the module through a symlink
// elsewhere, where the go command sees another source path as in another clone), each with its
// own output and work folders, comparing every file byte for byte:
//
//   - the programs (TestDosConstruccionesIguales, the real construir): a source path in them (drop
//     -trimpath and it fails), a build id or anything else that depends on the directory;
//   - everything around them (TestDosCorridasIguales, the real pipeline, a tar.gz platform and a
//     zip one, with small stand-ins for the programs): an entry's time taken from the clock or from
//     the files just built, entries in the order they were read or built, an output or temporary
//     path in the archives, SHA256SUMS, NOTAS.md or the notices. TestReproducible moves the clock a
//     second under the packers; TestContenidoTarGz and TestContenidoZip pin owner, modes and the
//     gzip header, which two runs by one user would share.
//
// An archive is the packing of the programs' bytes with the documents and the fixed date, so the
// two together say that the archives are equal, at the cost of two links of the four programs for
// one platform. What they no longer do, and why that is honest: pack the real programs (55 MB of
// gzip -9 under the race detector were nearly all of the old test's 4 to 6 minutes; the packers
// are the same functions whatever the bytes); build every platform (what could differ between
// runs depends on the archive's format, both here, not on the platform; all take the same flags
// from construir, and make cruzar compiles all of them with these flags); check that Go's compiler
// is deterministic (the second build's compile is a cache hit, because under -trimpath the go
// command does not key it on the directory; Go guarantees the same output for the same inputs, and
// proving it would take a second compile with an empty cache, minutes); a VCS stamp (one commit,
// one stamp; -buildvcs=false anyway).
func TestDosConstruccionesIguales(t *testing.T) {
	if testing.Short() {
		t.Skip("enlaza los cuatro programas dos veces")
	}
	dirs := dosDirectorios(t)
	salidas := []string{filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")}
	for i, dir := range dirs {
		t.Chdir(dir) // also sets PWD, which the go command takes as the module's path
		if err := construir(context.Background(), "linux", "amd64", "v0.0.0-prueba", salidas[i]); err != nil {
			t.Fatal(err)
		}
	}
	iguales(t, salidas, len(programas))
}

func TestDosCorridasIguales(t *testing.T) {
	if testing.Short() {
		t.Skip("go list para dos plataformas, dos veces")
	}
	t.Setenv("SOURCE_DATE_EPOCH", "1764547200")
	// The stand-ins are as different per platform as real programs, and written now, as a build
	// writes them.
	falso := func(_ context.Context, goos, goarch, version, dir string) error {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		for _, p := range programas {
			if goos == "windows" {
				p += ".exe"
			}
			if err := os.WriteFile(filepath.Join(dir, p), []byte(p+" "+goos+"/"+goarch+" "+version), 0o755); err != nil {
				return err
			}
		}
		return nil
	}
	dirs := dosDirectorios(t)
	salidas := []string{filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")}
	for i, dir := range dirs {
		t.Chdir(dir)
		if err := correr(context.Background(), []string{"--version", "v0.0.0-prueba", "--salida", salidas[i], "linux/amd64", "windows/amd64"}, io.Discard, falso); err != nil {
			t.Fatal(err)
		}
	}
	iguales(t, salidas, 4) // the two archives, SHA256SUMS and NOTAS.md
}

// dosDirectorios are the module's root and the same root seen through a symlink elsewhere.
func dosDirectorios(t *testing.T) []string {
	t.Helper()
	modulo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	otro := filepath.Join(t.TempDir(), "otra-copia")
	if err := os.Symlink(modulo, otro); err != nil {
		t.Skipf("no se puede crear un enlace simbólico aquí: %v", err)
	}
	return []string{modulo, otro}
}

// iguales compares the n files of the first folder with the second's, byte for byte.
func iguales(t *testing.T, dirs []string, n int) {
	t.Helper()
	nombres, err := os.ReadDir(dirs[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(nombres) != n {
		t.Fatalf("se esperaban %d archivos: %v", n, nombres)
	}
	for _, f := range nombres {
		a, errA := os.ReadFile(filepath.Join(dirs[0], f.Name()))
		b, errB := os.ReadFile(filepath.Join(dirs[1], f.Name()))
		if errA != nil || errB != nil || !bytes.Equal(a, b) {
			t.Errorf("%s difiere entre dos corridas en dos carpetas (%v, %v)", f.Name(), errA, errB)
		}
	}
}
