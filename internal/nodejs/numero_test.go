package nodejs

import (
	"math"
	"testing"
)

// What String(n) prints in Node.
func TestNumero(t *testing.T) {
	t.Parallel()
	casos := []struct {
		n    float64
		text string
	}{
		{0, "0"}, {math.Copysign(0, -1), "0"}, {1, "1"}, {-1.5, "-1.5"}, {300.5, "300.5"}, {2000, "2000"},
		{0.30000000000000004, "0.30000000000000004"}, {1e21, "1e+21"}, {123456789012345680000, "123456789012345680000"},
		{0.000001, "0.000001"}, {1e-7, "1e-7"}, {-1.5e-7, "-1.5e-7"}, {1.7976931348623157e308, "1.7976931348623157e+308"},
		{5e-324, "5e-324"}, {math.NaN(), "NaN"}, {math.Inf(1), "Infinity"}, {math.Inf(-1), "-Infinity"},
	}
	for _, c := range casos {
		if got := Numero(c.n); got != c.text {
			t.Errorf("Numero(%v) = %q, Node escribe %q", c.n, got, c.text)
		}
	}
}

// What Number(texto) gives in Node; ok=false is NaN.
func TestLeerNumero(t *testing.T) {
	t.Parallel()
	inf := math.Inf(1)
	casos := []struct {
		texto string
		n     float64
		ok    bool
	}{
		{"", 0, true}, {" \t\n", 0, true}, {"300", 300, true}, {" 150 ", 150, true}, {"\u00a01\u2028", 1, true},
		{"3e2", 300, true}, {"3E+2", 300, true}, {"300.5", 300.5, true}, {".5", 0.5, true}, {"5.", 5, true},
		{"-5", -5, true}, {"+5", 5, true}, {"007", 7, true}, {"0e5", 0, true}, {"1e-400", 0, true},
		{"0x12c", 300, true}, {"0X12C", 300, true}, {"0o17", 15, true}, {"0b101", 5, true},
		{"0xFFFFFFFFFFFFFFFFFFFF", 1208925819614629174706175, true},
		{"Infinity", inf, true}, {"+Infinity", inf, true}, {"-Infinity", -inf, true}, {"1e400", inf, true},
		{"-1e400", -inf, true},
		{"abc", 0, false}, {"1_000", 0, false}, {"0x1_0", 0, false}, {"infinity", 0, false}, {"inf", 0, false},
		{"NaN", 0, false}, {"--1", 0, false}, {"+-1", 0, false}, {"-0x10", 0, false}, {"+0x10", 0, false},
		{"0x", 0, false}, {"0xg", 0, false}, {"0b2", 0, false}, {"1e", 0, false}, {".", 0, false},
		{"0x1p3", 0, false}, {"1 2", 0, false}, {"\u00851", 0, false}, {"++Infinity", 0, false},
		{"12px", 0, false},
	}
	for _, c := range casos {
		n, ok := LeerNumero(c.texto)
		if ok != c.ok || ok && n != c.n {
			t.Errorf("LeerNumero(%q) = %v, %v; Node da %v, %v", c.texto, n, ok, c.n, c.ok)
		}
	}
}

func FuzzLeerNumero(f *testing.F) {
	for _, s := range []string{"300", " 1e3 ", "0x1F", "-Infinity", ".5", "1_0", "0b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, texto string) {
		n, ok := LeerNumero(texto)
		if !ok {
			return
		}
		// What String(n) writes, Number reads back as the same number.
		if m, ok := LeerNumero(Numero(n)); !ok || m != n {
			t.Fatalf("LeerNumero(%q) = %v; Numero da %q, que se lee %v, %v", texto, n, Numero(n), m, ok)
		}
	})
}
