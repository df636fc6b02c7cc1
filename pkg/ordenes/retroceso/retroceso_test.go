package retroceso

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"cursohttp/internal/prueba/ordenestest"
	"cursohttp/pkg/ordenes/entorno"
)

// The deterministic parts of fig06_02.ts's output (leccion-6 §2.15): ceilings, the no-jitter
// column, the labels; the draws only have to stay within each ceiling and add up to 1000.
func TestRetrocesoForma(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	e := entorno.Entorno{Out: &out}
	if c := Retroceso(e); c != 0 {
		t.Fatalf("código de salida %d", c)
	}
	lineas := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lineas) != 16 {
		t.Fatalf("%d líneas, se esperaban 16:\n%s", len(lineas), out.String())
	}
	if lineas[0] != "intento  techo (ms)  cinco esperas sorteadas (ms)" {
		t.Errorf("cabecera %q", lineas[0])
	}
	fila := regexp.MustCompile(`^ {6}(\d)  +(\d+)  (\d+), (\d+), (\d+), (\d+), (\d+)$`)
	for i, techo := range []int{500, 1000, 2000, 2000, 2000} {
		m := fila.FindStringSubmatch(lineas[1+i])
		if m == nil || m[1] != strconv.Itoa(i+1) || m[2] != strconv.Itoa(techo) || len(lineas[1+i]) < 19 || lineas[1+i][9:19] != entorno.PadStart(strconv.Itoa(techo), 10) {
			t.Fatalf("fila %d: %q", i+1, lineas[1+i])
		}
		for _, s := range m[3:] {
			if n, _ := strconv.Atoi(s); n > techo {
				t.Errorf("fila %d: espera %d pasa del techo %d", i+1, n, techo)
			}
		}
	}
	fijas := []string{
		"",
		"1000 clientes reintentan a la vez; reintentos por cada 100 ms:",
		"ventana (ms)   sin jitter  con jitter",
	}
	for i, f := range fijas {
		if lineas[6+i] != f {
			t.Errorf("línea %d = %q, se esperaba %q", 7+i, lineas[6+i], f)
		}
	}
	ventana := regexp.MustCompile(`^(.{12})  ( {0,9}\d+)  ( {0,9}\d+)$`)
	etiquetas := []string{"0-99", "100-199", "200-299", "300-399", "400-499", "500 o más"}
	suma, mayor := 0, 0
	for i, etiqueta := range etiquetas {
		m := ventana.FindStringSubmatch(lineas[9+i])
		if m == nil || strings.TrimRight(m[1], " ") != etiqueta || len(m[2]) != 10 || len(m[3]) != 10 {
			t.Fatalf("ventana %q", lineas[9+i])
		}
		sin := strings.TrimSpace(m[2])
		if (i < 5 && sin != "0") || (i == 5 && sin != "1000") {
			t.Errorf("sin jitter en %s = %s", etiqueta, sin)
		}
		n, _ := strconv.Atoi(strings.TrimSpace(m[3]))
		suma += n
		mayor = max(mayor, n)
	}
	if suma != 1000 {
		t.Errorf("con jitter suma %d, se esperaba 1000", suma)
	}
	if want := "la ventana más cargada: 1000 sin jitter, " + strconv.Itoa(mayor) + " con jitter"; lineas[15] != want {
		t.Errorf("última línea %q, se esperaba %q", lineas[15], want)
	}
}

// With the random source pinned the output is fixed: the course's sample is reproducible.
func TestRetrocesoConAzarFijo(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	i := 0
	azar := func() float64 { // 0, 0.1, …, 0.9, 0, …
		mu.Lock()
		defer mu.Unlock()
		i++
		return float64((i-1)%10) / 10
	}
	var out bytes.Buffer
	Retroceso(entorno.Entorno{Out: &out, Azar: azar})
	esperado := `intento  techo (ms)  cinco esperas sorteadas (ms)
      1         500  0, 50, 100, 150, 200
      2        1000  500, 600, 700, 800, 900
      3        2000  0, 200, 400, 600, 800
      4        2000  1000, 1200, 1400, 1600, 1800
      5        2000  0, 200, 400, 600, 800

1000 clientes reintentan a la vez; reintentos por cada 100 ms:
ventana (ms)   sin jitter  con jitter
0-99                   0         200
100-199                0         200
200-299                0         200
300-399                0         200
400-499                0         200
500 o más           1000           0
la ventana más cargada: 1000 sin jitter, 200 con jitter
`
	ordenestest.CompararLineas(t, out.String(), esperado)
}

// What each command line becomes, seen through runF without running the program.
func TestLineasDeOrdenes(t *testing.T) {
	t.Parallel()
	ordenestest.Lineas(t, []ordenestest.Linea{
		{Construir: ordenestest.SoloEntorno(NuevoCmd), Anotado: `revisor="" laboratorio=""`},
	})
}
