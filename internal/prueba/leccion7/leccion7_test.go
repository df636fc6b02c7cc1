package leccion7

import (
	"strconv"
	"strings"
	"testing"
)

func TestFilas(t *testing.T) {
	t.Parallel()
	s1 := Filas(Tabla23)
	if len(s1) != 23 {
		t.Fatalf("S1 tiene %d filas, se esperaban 23", len(s1))
	}
	if want := (Fila{429, "esperar", "sí", "30 s", "demasiadas peticiones: espera lo que diga Retry-After"}); s1[18] != want {
		t.Errorf("fila 429: %+v", s1[18])
	}
	if want := (Fila{200, "seguir", "no", "—", "salió bien"}); s1[0] != want {
		t.Errorf("fila 200: %+v", s1[0])
	}
	s6 := Filas(FueraDeTabla)
	if len(s6) != 13 {
		t.Fatalf("S6 tiene %d filas, se esperaban 13", len(s6))
	}
	if want := (Fila{Codigo: 799, Accion: "rendirse", Reintenta: "no",
		Motivo: "799 no es un código de HTTP (el RFC 9110 admite de 100 a 599): se procesa como un 5xx"}); s6[12] != want {
		t.Errorf("fila 799: %+v", s6[12])
	}
	// Every row read back and padded again is the transcript's line: nothing is lost or shifted.
	for _, c := range []struct {
		tabla  string
		filas  []Fila
		anchos []int
	}{{Tabla23, s1, []int{8, 14, 11, 8}}, {FueraDeTabla, s6, []int{8, 14, 11}}} {
		lineas := strings.Split(c.tabla, "\n")[1:]
		for i, f := range c.filas {
			campos := []string{strconv.Itoa(f.Codigo), f.Accion, f.Reintenta, f.Espera, f.Motivo}
			if len(c.anchos) == 3 {
				campos = append(campos[:3], f.Motivo)
			}
			var b strings.Builder
			for k, campo := range campos {
				b.WriteString(campo)
				if k < len(c.anchos) {
					b.WriteString(strings.Repeat(" ", max(0, c.anchos[k]-len([]rune(campo)))))
				}
			}
			if b.String() != lineas[i] {
				t.Errorf("fila %d: %q, la línea es %q", i+1, b.String(), lineas[i])
			}
		}
	}
}

func TestAltas(t *testing.T) {
	t.Parallel()
	altas := Altas(Agente)
	if len(altas) != 5 {
		t.Fatalf("S9 tiene %d altas, se esperaban 5", len(altas))
	}
	nombres := []string{"agenda", "agenda", NombreHostil, NombreHostil, ""}
	for i, a := range altas {
		if a.Nombre != nombres[i] || !strings.HasPrefix(a.Objeto, "{\n") || !strings.HasSuffix(a.Objeto, "\n}") {
			t.Errorf("alta %d: %q %q", i+1, a.Nombre, a.Objeto)
		}
	}
	// Read back and printed again, the altas are the transcript.
	var b strings.Builder
	for _, a := range altas {
		b.WriteString("alta de «" + a.Nombre + "»\n" + a.Objeto + "\n")
	}
	if b.String() != Agente {
		t.Errorf("las altas no rehacen S9:\n%s", b.String())
	}
}
