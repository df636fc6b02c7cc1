package main

import (
	"strings"
	"testing"
)

// The release notes say the version a program prints, what each archive needs and every program's
// size, one row per archive.
func TestNotas(t *testing.T) {
	t.Parallel()
	got := string(Notas("v0.4.0", "go1.26.8", []Construido{
		{Plataforma: "linux/amd64", Archivo: "cursohttp-v0.4.0-linux-amd64.tar.gz", Bytes: 24_600_000,
			Programas: map[string]int64{"revisor": 31_954_893, "laboratorio": 15_280_435, "pasarela": 14_836_131, "alta-segura": 13_325_336}},
		{Plataforma: "windows/arm64", Archivo: "cursohttp-v0.4.0-windows-arm64.zip", Bytes: 25_000_000,
			Programas: map[string]int64{"revisor": 30_000_000, "laboratorio": 14_000_000, "pasarela": 13_000_000, "alta-segura": 12_000_000}},
	}))
	for _, want := range []string{
		"# cursohttp v0.4.0\n",
		"(`revisor v0.4.0`)",
		"Built with go1.26.8.",
		"| archive | needs | size | revisor | laboratorio | pasarela | alta-segura |\n",
		"| `cursohttp-v0.4.0-linux-amd64.tar.gz` | Linux kernel 3.2 or later | 24.6 | 32.0 | 15.3 | 14.8 | 13.3 |\n",
		"| `cursohttp-v0.4.0-windows-arm64.zip` | Windows 10 or Windows Server 2016 or later | 25.0 | 30.0 | 14.0 | 13.0 | 12.0 |\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("falta %q en:\n%s", want, got)
		}
	}
}
