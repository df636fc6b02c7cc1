package main

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"io"
	"io/fs"
	"path"
	"sort"
	"time"
)

// Archivo is one file of a release archive.
type Archivo struct {
	Nombre     string // inside the archive's top folder
	Datos      []byte
	Ejecutable bool
}

// ordenados returns the files by name: the order of the entries is part of the bytes.
func ordenados(archivos []Archivo) []Archivo {
	r := append([]Archivo{}, archivos...)
	sort.Slice(r, func(i, j int) bool { return r[i].Nombre < r[j].Nombre })
	return r
}

func modo(a Archivo) int64 {
	if a.Ejecutable {
		return 0o755
	}
	return 0o644
}

// EmpaquetarTarGz writes a .tar.gz with the files under raiz/, owned by root, dated fecha. The
// gzip header carries no name and no time.
func EmpaquetarTarGz(w io.Writer, raiz string, archivos []Archivo, fecha time.Time) error {
	gz, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(gz)
	cabecera := func(nombre string, tipo byte, modo, tam int64) *tar.Header {
		return &tar.Header{Typeflag: tipo, Name: nombre, Mode: modo, Size: tam, ModTime: fecha,
			Uname: "root", Gname: "root", Format: tar.FormatPAX}
	}
	if err := tw.WriteHeader(cabecera(raiz+"/", tar.TypeDir, 0o755, 0)); err != nil {
		return err
	}
	for _, a := range ordenados(archivos) {
		if err := tw.WriteHeader(cabecera(path.Join(raiz, a.Nombre), tar.TypeReg, modo(a), int64(len(a.Datos)))); err != nil {
			return err
		}
		if _, err := tw.Write(a.Datos); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

// EmpaquetarZip writes a .zip with the files under raiz/, dated fecha, with unix permissions
// (WSL and unzip keep them; Windows ignores them).
func EmpaquetarZip(w io.Writer, raiz string, archivos []Archivo, fecha time.Time) error {
	zw := zip.NewWriter(w)
	dir := &zip.FileHeader{Name: raiz + "/", Modified: fecha}
	dir.SetMode(fs.ModeDir | 0o755)
	if _, err := zw.CreateHeader(dir); err != nil {
		return err
	}
	for _, a := range ordenados(archivos) {
		h := &zip.FileHeader{Name: path.Join(raiz, a.Nombre), Method: zip.Deflate, Modified: fecha}
		h.SetMode(fs.FileMode(modo(a)))
		f, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		if _, err := f.Write(a.Datos); err != nil {
			return err
		}
	}
	return zw.Close()
}
