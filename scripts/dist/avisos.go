package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
)

// documentos are the files every archive carries besides the programs: the README, the project's
// licence and the licence notices of everything compiled into that platform's programs (mousetrap,
// say, only into Windows'), so an archive's notices are the same in a full run and in a run of
// that platform alone.
func documentos(ctx context.Context, plataforma string) ([]Archivo, error) {
	var r []Archivo
	for _, n := range []string{"README.md", "LICENSE"} {
		b, err := os.ReadFile(n)
		if err != nil {
			return nil, err
		}
		r = append(r, Archivo{Nombre: n, Datos: b})
	}
	avisos, err := Avisos(ctx, []string{plataforma})
	if err != nil {
		return nil, err
	}
	return append(r, Archivo{Nombre: "AVISOS-DE-TERCEROS.txt", Datos: avisos}), nil
}

// modulo is a module compiled into the programs on some platform.
type modulo struct{ ruta, version, dir string }

// Avisos gathers the licence texts of Go and of every module linked into the four programs on any
// of the platforms, read from where the build took them (GOROOT, the module cache), so the
// notices always match what is inside.
func Avisos(ctx context.Context, plataformas []string) ([]byte, error) {
	modulos := map[string]modulo{}
	for _, p := range plataformas {
		goos, goarch, _ := strings.Cut(p, "/")
		cmd := exec.CommandContext(ctx, "go", "list", "-deps",
			"-f", `{{with .Module}}{{if not .Main}}{{.Path}}{{"\t"}}{{.Version}}{{"\t"}}{{.Dir}}{{end}}{{end}}`, "./cmd/...")
		cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch, "CGO_ENABLED=0")
		cmd.Stderr = os.Stderr
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("go list para %s: %w", p, err)
		}
		for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			if f := strings.Split(l, "\t"); len(f) == 3 {
				modulos[f[0]] = modulo{f[0], f[1], f[2]}
			}
		}
	}
	goroot, err := exec.CommandContext(ctx, "go", "env", "GOROOT").Output()
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString("Los programas de cursohttp llevan compilados dentro estos componentes de otros autores.\n")
	b.WriteString("Estos son sus avisos de licencia, tal como los publican.\n")
	texto, err := licencia(strings.TrimSpace(string(goroot)))
	if err != nil {
		return nil, fmt.Errorf("Go: %w", err)
	}
	fmt.Fprintf(&b, "\n==== Go %s (biblioteca estándar y runtime) ====\n\n%s", runtime.Version(), texto)
	rutas := make([]string, 0, len(modulos))
	for r := range modulos {
		rutas = append(rutas, r)
	}
	sort.Strings(rutas)
	for _, r := range rutas {
		m := modulos[r]
		texto, err := licencia(m.dir)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", r, err)
		}
		fmt.Fprintf(&b, "\n==== %s %s ====\n\n%s", m.ruta, m.version, texto)
	}
	return []byte(b.String()), nil
}

// licencia reads the licence file at the top of a module.
func licencia(dir string) (string, error) {
	for _, n := range []string{"LICENSE", "LICENSE.txt", "LICENSE.md", "LICENCE", "COPYING"} {
		if b, err := os.ReadFile(filepath.Join(dir, n)); err == nil {
			t := strings.TrimRight(string(b), "\n") + "\n"
			return strings.ReplaceAll(t, "\r\n", "\n"), nil
		}
	}
	return "", fmt.Errorf("no encuentro su licencia en %s", dir)
}
