package traza

import (
	"context"
	"net/http"
	"strings"
	"testing"
)

const ejemplo = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

// The examples and the invalid forms of W3C Trace Context §3.2.
func TestLeer(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		valor        string
		ok           bool
		traza, padre string
		flags        byte
	}{
		{ejemplo, true, "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7", 1},
		{"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00", true, "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7", 0},
		// A later version: its first four fields, and only the flags version 00 knows.
		{"cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-ff-algo-mas", true, "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7", 1},
		{"cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", true, "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7", 1},
		{"cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01x", false, "", "", 0},
		{"ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", false, "", "", 0},
		{"00-00000000000000000000000000000000-00f067aa0ba902b7-01", false, "", "", 0},
		{"00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", false, "", "", 0},
		{"00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01", false, "", "", 0},
		{"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-", false, "", "", 0},
		{"00-4bf92f3577b34da6a3ce929d0e0e473-600f067aa0ba902b7-01", false, "", "", 0},
		{"0-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", false, "", "", 0},
		{"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0g", false, "", "", 0},
		{"00_4bf92f3577b34da6a3ce929d0e0e4736_00f067aa0ba902b7_01", false, "", "", 0},
		{"", false, "", "", 0},
		{ejemplo + ", " + ejemplo, false, "", "", 0},
	} {
		got, ok := Leer(c.valor)
		if ok != c.ok {
			t.Errorf("Leer(%q): ok %v, se esperaba %v", c.valor, ok, c.ok)
			continue
		}
		if !ok {
			if got != (Contexto{}) {
				t.Errorf("Leer(%q) inválido devolvió %+v", c.valor, got)
			}
			continue
		}
		if got.Traza.String() != c.traza || got.Padre.String() != c.padre || got.Flags != c.flags || !got.Tramo.Vacio() {
			t.Errorf("Leer(%q) = traza %s padre %s tramo %s flags %x", c.valor, got.Traza, got.Padre, got.Tramo, got.Flags)
		}
	}
}

// A server continues the caller's trace: same trace id, the caller's span as parent, a span of its
// own; what it sends on names that span as the parent.
func TestContinuarYValor(t *testing.T) {
	t.Parallel()
	r, _ := http.NewRequest("GET", "/", nil)
	r.Header.Set("traceparent", ejemplo)
	c := Continuar(r)
	if c.Traza.String() != "4bf92f3577b34da6a3ce929d0e0e4736" || c.Padre.String() != "00f067aa0ba902b7" || c.Tramo.Vacio() || c.Flags != 1 {
		t.Fatalf("Continuar = %+v", c)
	}
	v := c.Valor()
	if v != "00-4bf92f3577b34da6a3ce929d0e0e4736-"+c.Tramo.String()+"-01" {
		t.Fatalf("Valor = %q", v)
	}
	siguiente, ok := Leer(v)
	if !ok || siguiente.Traza != c.Traza || siguiente.Padre != c.Tramo {
		t.Fatalf("lo que recibe el siguiente: %+v %v", siguiente, ok)
	}
	h := c.Hijo()
	if h.Traza != c.Traza || h.Padre != c.Tramo || h.Tramo == c.Tramo || h.Tramo.Vacio() {
		t.Fatalf("Hijo = %+v", h)
	}
}

// Without a traceparent, or with one that is not valid or comes twice, a new trace starts.
func TestContinuarSinCabeceraValidaEmpiezaOtra(t *testing.T) {
	t.Parallel()
	for _, valores := range [][]string{nil, {"basura"}, {ejemplo, ejemplo}} {
		r, _ := http.NewRequest("GET", "/", nil)
		if valores != nil {
			r.Header[Cabecera] = valores
		}
		c := Continuar(r)
		if !c.Valido() || c.Tramo.Vacio() || !c.Padre.Vacio() || c.Traza.String() == "4bf92f3577b34da6a3ce929d0e0e4736" {
			t.Errorf("%q: %+v", valores, c)
		}
	}
	a, b := Nueva(), Nueva()
	if a.Traza == b.Traza || a.Tramo == b.Tramo {
		t.Fatal("dos trazas nuevas iguales")
	}
}

func TestPonerPasaTracestate(t *testing.T) {
	t.Parallel()
	h := http.Header{}
	c := Nueva()
	c.Poner(h, []string{"congo=t61rcWkgMzE"})
	if h.Get("traceparent") != c.Valor() || h.Get("tracestate") != "congo=t61rcWkgMzE" {
		t.Fatalf("%v", h)
	}
}

func TestContexto(t *testing.T) {
	t.Parallel()
	if DeContexto(context.Background()) != nil {
		t.Fatal("un contexto vacío no tiene traza")
	}
	c := Nueva()
	if got := DeContexto(EnContexto(context.Background(), &c)); got != &c {
		t.Fatalf("DeContexto = %v", got)
	}
}

// Whatever a stranger sends, Leer either refuses it or reads what Valor writes back.
func FuzzLeer(f *testing.F) {
	for _, s := range []string{ejemplo, "cc-" + ejemplo[3:] + "-x", "ff-" + ejemplo[3:], strings.Repeat("0", 55)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		c, ok := Leer(v)
		if !ok {
			return
		}
		if !c.Valido() || c.Padre.Vacio() {
			t.Fatalf("Leer(%q) aceptó ids en cero", v)
		}
		c.Tramo = c.Padre
		otra, ok := Leer(c.Valor())
		if !ok || otra.Traza != c.Traza || otra.Padre != c.Padre {
			t.Fatalf("Leer(%q) → %q no se relee", v, c.Valor())
		}
	})
}

func BenchmarkContinuar(b *testing.B) {
	r, _ := http.NewRequest("GET", "/", nil)
	r.Header.Set("traceparent", ejemplo)
	b.ReportAllocs()
	for b.Loop() {
		Continuar(r)
	}
}
