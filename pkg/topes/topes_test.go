package topes

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// docs/seguridad.md's table of limits is this one: every row names one of Tabla's limits in code
// font and gives its value as Texto writes it, and every limit has its row.
func TestLaTablaDeSeguridadEsLaDelCodigo(t *testing.T) {
	t.Parallel()
	f, err := os.Open("../../docs/seguridad.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	enDoc := map[string]string{}
	var orden []string
	dentro := false
	s := bufio.NewScanner(f)
	for s.Scan() {
		l := s.Text()
		switch {
		case l == "## The limits":
			dentro = true
			continue
		case dentro && strings.HasPrefix(l, "## "):
			dentro = false
		}
		if !dentro || !strings.HasPrefix(l, "| `") {
			continue
		}
		celdas := strings.Split(l, "|")
		nombre, _, ok := strings.Cut(strings.TrimPrefix(strings.TrimSpace(celdas[1]), "`"), "`")
		if !ok || len(celdas) < 3 {
			t.Errorf("fila sin nombre en código: %s", l)
			continue
		}
		enDoc[nombre] = strings.Trim(strings.TrimSpace(celdas[2]), "*")
		orden = append(orden, nombre)
	}
	if len(enDoc) == 0 {
		t.Fatal("docs/seguridad.md no tiene la tabla de «## The limits»")
	}
	var nombres []string
	for _, tope := range Tabla() {
		nombres = append(nombres, tope.Nombre)
		valor, ok := enDoc[tope.Nombre]
		switch {
		case !ok:
			t.Errorf("el tope %s (%s) no tiene fila en docs/seguridad.md", tope.Nombre, tope.Texto())
		case valor != tope.Texto():
			t.Errorf("docs/seguridad.md dice %s = «%s»; el código, «%s»", tope.Nombre, valor, tope.Texto())
		}
		delete(enDoc, tope.Nombre)
	}
	for nombre := range enDoc {
		t.Errorf("docs/seguridad.md nombra el tope «%s», que pkg/topes no tiene", nombre)
	}
	if !t.Failed() && strings.Join(orden, " ") != strings.Join(nombres, " ") {
		t.Errorf("el orden de la página:\n%v\nel de Tabla:\n%v", orden, nombres)
	}
}

func TestTexto(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		tope Tope
		es   string
	}{
		{Tope{Valor: 16 << 10, Unidad: Bytes}, "16 KiB"},
		{Tope{Valor: 32 << 20, Unidad: Bytes}, "32 MiB"},
		{Tope{Valor: 512, Unidad: Bytes}, "512 bytes"},
		{Tope{Valor: int64(VigenciaLlaves), Unidad: Tiempo}, "24 h"},
		{Tope{Valor: int64(EsperaRevisor), Unidad: Tiempo}, "300 s"},
		{Tope{Valor: 1500 * 1e6, Unidad: Tiempo}, "1,500 ms"},
		{Tope{Valor: 100_000}, "100,000"},
		{Tope{Valor: 32}, "32"},
	} {
		if got := c.tope.Texto(); got != c.es {
			t.Errorf("%+v: %q, se esperaba %q", c.tope, got, c.es)
		}
	}
}
