package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

var (
	fecha    = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	archivos = []Archivo{
		{Nombre: "revisor", Datos: []byte("binario"), Ejecutable: true},
		{Nombre: "README.md", Datos: []byte("# léeme\n")},
		{Nombre: "LICENSE", Datos: []byte("MIT\n")},
	}
)

// Same input, same bytes, whatever order the files come in and whenever it runs. The clock is a
// synctest bubble's, so the second run is a second later at no cost in real time.
func TestReproducible(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) { reproducible(t) })
}

func reproducible(t *testing.T) {
	for nombre, empaquetar := range map[string]func(io.Writer, string, []Archivo, time.Time) error{
		"tar.gz": EmpaquetarTarGz, "zip": EmpaquetarZip,
	} {
		var a, b bytes.Buffer
		if err := empaquetar(&a, "cursohttp-1.0-x", archivos, fecha); err != nil {
			t.Fatal(err)
		}
		// Time itself is under test: a clock that leaked into the archive would now differ (tar and
		// zip keep whole seconds, hence more than one).
		time.Sleep(1100 * time.Millisecond)
		invertidos := []Archivo{archivos[2], archivos[1], archivos[0]}
		if err := empaquetar(&b, "cursohttp-1.0-x", invertidos, fecha); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("%s: dos empaquetados del mismo contenido difieren", nombre)
		}
	}
}

func TestContenidoTarGz(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	if err := EmpaquetarTarGz(&buf, "raiz", archivos, fecha); err != nil {
		t.Fatal(err)
	}
	gz, err := gzip.NewReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !gz.ModTime.IsZero() || gz.Name != "" {
		t.Errorf("la cabecera gzip lleva hora o nombre: %v %q", gz.ModTime, gz.Name)
	}
	tr := tar.NewReader(gz)
	var got []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if !h.ModTime.Equal(fecha) || h.Uid != 0 || h.Gid != 0 || h.Uname != "root" {
			t.Errorf("%s: fecha %v, dueño %d/%d %s", h.Name, h.ModTime, h.Uid, h.Gid, h.Uname)
		}
		got = append(got, h.Name+" "+os.FileMode(h.Mode).String())
	}
	want := "raiz/ -rwxr-xr-x|raiz/LICENSE -rw-r--r--|raiz/README.md -rw-r--r--|raiz/revisor -rwxr-xr-x"
	if strings.Join(got, "|") != want {
		t.Errorf("entradas %q, se esperaban %q", strings.Join(got, "|"), want)
	}
}

func TestContenidoZip(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	if err := EmpaquetarZip(&buf, "raiz", archivos, fecha); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range zr.File {
		if !f.Modified.Equal(fecha) {
			t.Errorf("%s: fecha %v", f.Name, f.Modified)
		}
		got = append(got, f.Name+" "+f.Mode().String())
	}
	want := "raiz/ drwxr-xr-x|raiz/LICENSE -rw-r--r--|raiz/README.md -rw-r--r--|raiz/revisor -rwxr-xr-x"
	if strings.Join(got, "|") != want {
		t.Errorf("entradas %q, se esperaban %q", strings.Join(got, "|"), want)
	}
}

func TestSumas(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "b.zip"), []byte("abc"), 0o644)
	os.WriteFile(filepath.Join(dir, "a.tar.gz"), nil, 0o644)
	got, err := Sumas(dir, []string{"b.zip", "a.tar.gz"})
	if err != nil {
		t.Fatal(err)
	}
	want := "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  a.tar.gz\n" +
		"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  b.zip\n"
	if string(got) != want {
		t.Errorf("SHA256SUMS:\n%s\nse esperaba:\n%s", got, want)
	}
}
