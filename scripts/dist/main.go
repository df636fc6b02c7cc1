// Command dist is `make dist`: for every platform it builds the four programs and packs them with
// the README and the licence notices into one archive (zip for Windows, tar.gz elsewhere), then
// writes SHA256SUMS for all the archives and the release notes (NOTAS.md: the systems each archive
// needs and every program's size).
//
// The archives are reproducible: the same commit and Go toolchain give the same bytes. The builds
// use -trimpath and an empty build id, and the archives fix every entry's time (the commit's, or
// SOURCE_DATE_EPOCH), owner, permissions and order.
package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// programas are the four programs an archive carries.
var programas = []string{"revisor", "laboratorio", "pasarela", "alta-segura"}

func main() {
	ctx, parar := signal.NotifyContext(context.Background(), os.Interrupt)
	defer parar()
	if err := correr(ctx, os.Args[1:], os.Stdout, construir); err != nil {
		fmt.Fprintln(os.Stderr, "dist:", err)
		os.Exit(1)
	}
}

// Constructor builds the four programs for one platform into dir (construir; a test's stand-in
// writes small files instead, so the pipeline around the build is checked without packing tens of
// MB under the race detector).
type Constructor func(ctx context.Context, goos, goarch, version, dir string) error

func correr(ctx context.Context, args []string, out io.Writer, construir Constructor) error {
	fs := flag.NewFlagSet("dist", flag.ContinueOnError)
	salida := fs.String("salida", "dist", "carpeta de los archivos")
	version := fs.String("version", "", "la versión que llevan los programas (git describe)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	plataformas := fs.Args()
	if len(plataformas) == 0 || *version == "" {
		return fmt.Errorf("uso: dist --version V [--salida dist] os/arch...")
	}
	fecha, err := fechaFija(ctx)
	if err != nil {
		return err
	}
	if err := os.RemoveAll(*salida); err != nil {
		return err
	}
	if err := os.MkdirAll(*salida, 0o755); err != nil {
		return err
	}
	obra, err := os.MkdirTemp("", "cursohttp-dist-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(obra)
	var nombres []string
	var construidos []Construido
	for _, p := range plataformas {
		goos, goarch, ok := strings.Cut(p, "/")
		if !ok {
			return fmt.Errorf("plataforma «%s»: se espera os/arch", p)
		}
		bins := filepath.Join(obra, goos+"-"+goarch)
		if err := construir(ctx, goos, goarch, *version, bins); err != nil {
			return err
		}
		raiz := fmt.Sprintf("cursohttp-%s-%s-%s", *version, goos, goarch)
		archivos, err := documentos(ctx, p)
		if err != nil {
			return err
		}
		hecho := Construido{Plataforma: p, Programas: map[string]int64{}}
		for _, prog := range programas {
			nombre := prog
			if goos == "windows" {
				nombre += ".exe"
			}
			b, err := os.ReadFile(filepath.Join(bins, nombre))
			if err != nil {
				return err
			}
			archivos = append(archivos, Archivo{Nombre: nombre, Datos: b, Ejecutable: true})
			hecho.Programas[prog] = int64(len(b))
		}
		nombre := raiz + ".tar.gz"
		empaquetar := EmpaquetarTarGz
		if goos == "windows" {
			nombre = raiz + ".zip"
			empaquetar = EmpaquetarZip
		}
		f, err := os.Create(filepath.Join(*salida, nombre))
		if err != nil {
			return err
		}
		if err := empaquetar(f, raiz, archivos, fecha); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
		st, err := os.Stat(filepath.Join(*salida, nombre))
		if err != nil {
			return err
		}
		hecho.Archivo, hecho.Bytes = nombre, st.Size()
		construidos = append(construidos, hecho)
		nombres = append(nombres, nombre)
		fmt.Fprintf(out, "  %s\n", filepath.Join(*salida, nombre))
	}
	sumas, err := Sumas(*salida, nombres)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(*salida, "SHA256SUMS"), sumas, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(out, "  %s\n", filepath.Join(*salida, "SHA256SUMS"))
	toolchain, err := exec.CommandContext(ctx, "go", "env", "GOVERSION").Output()
	if err != nil {
		return fmt.Errorf("go env GOVERSION: %w", err)
	}
	notas := Notas(*version, strings.TrimSpace(string(toolchain)), construidos)
	if err := os.WriteFile(filepath.Join(*salida, "NOTAS.md"), notas, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(out, "  %s\n", filepath.Join(*salida, "NOTAS.md"))
	return nil
}

// construir builds the four programs for one platform into dir, reproducibly and stamped.
func construir(ctx context.Context, goos, goarch, version, dir string) error {
	args := []string{"build", "-trimpath", "-buildvcs=false",
		"-ldflags", "-s -w -buildid= -X cursohttp/pkg/cli.version=" + version,
		"-o", dir + string(filepath.Separator)}
	for _, p := range programas {
		args = append(args, "./cmd/"+p)
	}
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch, "CGO_ENABLED=0", "GOFLAGS=")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build para %s/%s: %w", goos, goarch, err)
	}
	return nil
}

// fechaFija is the time every archive entry carries: SOURCE_DATE_EPOCH if set (the convention of
// reproducible builds), else the last commit's time.
func fechaFija(ctx context.Context) (time.Time, error) {
	texto := os.Getenv("SOURCE_DATE_EPOCH")
	if texto == "" {
		out, err := exec.CommandContext(ctx, "git", "log", "-1", "--format=%ct").Output()
		if err != nil {
			return time.Time{}, fmt.Errorf("no sé la fecha del último commit (git log): %w; da SOURCE_DATE_EPOCH", err)
		}
		texto = strings.TrimSpace(string(out))
	}
	s, err := strconv.ParseInt(texto, 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("SOURCE_DATE_EPOCH «%s» no es un número de segundos", texto)
	}
	return time.Unix(s, 0).UTC(), nil
}

// Sumas is SHA256SUMS for the named files in dir, in the format sha256sum -c reads.
func Sumas(dir string, nombres []string) ([]byte, error) {
	nombres = append([]string{}, nombres...)
	sort.Strings(nombres)
	var b strings.Builder
	for _, n := range nombres {
		f, err := os.Open(filepath.Join(dir, n))
		if err != nil {
			return nil, err
		}
		h := sha256.New()
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "%s  %s\n", hex.EncodeToString(h.Sum(nil)), n)
	}
	return []byte(b.String()), nil
}
