package main

import (
	"fmt"
	"strings"
)

// Construido is what one platform's build gave: its archive and the size of each program in it.
type Construido struct {
	Plataforma string // os/arch
	Archivo    string
	Bytes      int64            // the archive's
	Programas  map[string]int64 // each program's, by name without .exe
}

// minimos are the oldest systems the programs run on: Go's own minimums for the toolchain that
// builds them (Go 1.26: macOS 12 Monterey, Windows 10 or Server 2016, Linux kernel 3.2). On an older
// Windows the programs die at start with «bcryptprimitives.dll not found».
var minimos = map[string]string{
	"linux":   "Linux kernel 3.2 or later",
	"darwin":  "macOS 12 Monterey or later",
	"windows": "Windows 10 or Windows Server 2016 or later",
}

// Notas are the release notes written beside the archives (NOTAS.md): the version, the toolchain,
// the systems each archive needs and the size of every program, so a download can be checked
// against what was published and a program that grew is seen. Reproducible like the archives.
func Notas(version, toolchain string, construidos []Construido) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# cursohttp %s\n\n`--version` prints each program's name and this version (`revisor %s`). Built with %s.\n\n",
		version, version, toolchain)
	b.WriteString("Sizes in MB (10^6 bytes).\n\n| archive | needs | size |")
	for _, p := range programas {
		b.WriteString(" " + p + " |")
	}
	b.WriteString("\n|---|---|---|" + strings.Repeat("---|", len(programas)) + "\n")
	for _, c := range construidos {
		goos, _, _ := strings.Cut(c.Plataforma, "/")
		fmt.Fprintf(&b, "| `%s` | %s | %s |", c.Archivo, minimos[goos], mb(c.Bytes))
		for _, p := range programas {
			b.WriteString(" " + mb(c.Programas[p]) + " |")
		}
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

func mb(n int64) string { return fmt.Sprintf("%.1f", float64(n)/1e6) }
