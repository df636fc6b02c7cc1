package altasegura

// Temporary: the old numeroJS, LimiteDeEntorno and jsonjs.Numero, frozen, against what replaced
// them (pkg/nodejs). Removed once the comparison has run; see the commit that deletes it.

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"cursohttp/pkg/jsonjs"
	"cursohttp/pkg/nodejs"
	"cursohttp/pkg/reintento"
)

func limiteDeEntornoViejo(valor string, hay bool) (time.Duration, string) {
	if hay {
		if n, ok := numeroJSViejo(valor); ok && n > 0 && n < 1e12 {
			return time.Duration(n * float64(time.Millisecond)), numeroViejo(n)
		}
	}
	return reintento.LimiteIntentoAlta, "2000"
}

// numeroJS is Number(texto) for the decimal forms a person types: surrounding whitespace ignored,
// empty means 0, hexadecimal/octal/binary prefixes accepted; anything else is NaN (ok=false).
// Infinity is refused too: it is no time limit at all, and the program needs one.
func numeroJSViejo(texto string) (float64, bool) {
	s := nodejs.Recortar(texto)
	if s == "" {
		return 0, true
	}
	for _, base := range []struct {
		prefijo string
		base    int
	}{{"0x", 16}, {"0X", 16}, {"0o", 8}, {"0O", 8}, {"0b", 2}, {"0B", 2}} {
		if resto, ok := strings.CutPrefix(s, base.prefijo); ok {
			n, err := strconv.ParseUint(resto, base.base, 64)
			return float64(n), err == nil && !strings.ContainsAny(resto, "+-_")
		}
	}
	if strings.ContainsAny(s, "_xXpPnNiI") || strings.HasSuffix(s, "e") {
		return 0, false // ParseFloat's extras (underscores, hex floats, NaN, Inf) are not JS
	}
	n, err := strconv.ParseFloat(s, 64)
	return n, err == nil && !math.IsInf(n, 0)
}

func numeroViejo(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "null"
	}
	if f == 0 {
		return "0"
	}
	abs := math.Abs(f)
	if abs >= 1e21 || abs < 1e-6 {
		s := strconv.FormatFloat(f, 'e', -1, 64)
		mant, exp, _ := strings.Cut(s, "e")
		signo := exp[0]
		exp = strings.TrimLeft(exp[1:], "0")
		return mant + "e" + string(signo) + exp
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

var trozos = []string{"0", "1", "2", "9", ".", "e", "E", "+", "-", "x", "X", "o", "b", "_", " ", "\t", "\u00a0", "\u2028",
	"\u0085", "Infinity", "NaN", "inf", "p", "a", "f", "F", "0x", "0o", "0b", "400", "1e308", "\xff"}

func aleatorio(r *rand.Rand) string {
	var b strings.Builder
	for n := r.IntN(8); n > 0; n-- {
		b.WriteString(trozos[r.IntN(len(trozos))])
	}
	return b.String()
}

func TestLimiteDeEntornoComoElViejo(t *testing.T) {
	t.Parallel()
	casos := []string{"", "300", " 150 ", "3e2", "0x12c", "300.5", "0", "-5", "abc", "1_000", "Infinity", "-Infinity",
		"1e400", "0xFFFFFFFFFFFFFFFFFFFF", "1e-400", "0.0001", "999999999999", "1e12", "0b", "0x", ".", "5."}
	r := rand.New(rand.NewPCG(15, 6))
	for range 200_000 {
		casos = append(casos, aleatorio(r))
	}
	for _, c := range casos {
		comparar(t, c)
	}
}

func comparar(t *testing.T, s string) {
	for _, hay := range []bool{true, false} {
		d1, t1 := LimiteDeEntorno(s, hay)
		d2, t2 := limiteDeEntornoViejo(s, hay)
		if d1 != d2 || t1 != t2 {
			t.Fatalf("LimiteDeEntorno(%q, %v) = %v %q, el viejo daba %v %q", s, hay, d1, t1, d2, t2)
		}
	}
	// Where the old reading saw a number, the new one sees the same; it also reads ±Infinity and
	// 0x/0o/0b integers of 2^64 and more, which the old refused and LimiteDeEntorno still refuses.
	n1, ok1 := nodejs.LeerNumero(s)
	n2, ok2 := numeroJSViejo(s)
	if ok2 && (!ok1 || n1 != n2) || !ok2 && ok1 && !math.IsInf(n1, 0) && n1 < 1<<64 {
		t.Fatalf("LeerNumero(%q) = %v %v, numeroJS daba %v %v", s, n1, ok1, n2, ok2)
	}
}

func FuzzLimiteDeEntornoComoElViejo(f *testing.F) {
	f.Add(" 0x1F ")
	f.Fuzz(comparar)
}

func TestNumeroComoElViejo(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(15, 7))
	casos := []float64{0, math.Copysign(0, -1), 1e21, 1e-6, 1e-7, 999999999999999900000, 5e-324, math.MaxFloat64}
	for range 200_000 {
		casos = append(casos, math.Float64frombits(r.Uint64()), r.Float64()*math.Pow(10, float64(r.IntN(50)-25)))
	}
	for _, f := range casos {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue // the old one wrote null, JSON's word; jsonjs still does (TestNumeroEnJSONComoElViejo)
		}
		if got, want := nodejs.Numero(f), numeroViejo(f); got != want {
			t.Fatalf("Numero(%v) = %q, el viejo daba %q", f, got, want)
		}
	}
}

func TestNumeroEnJSONComoElViejo(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(15, 8))
	casos := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, 1.5}
	for range 100_000 {
		casos = append(casos, math.Float64frombits(r.Uint64()))
	}
	for _, f := range casos {
		if got, want := string(jsonjs.Codificar(f)), numeroViejo(f); got != want {
			t.Fatalf("jsonjs.Codificar(%v) = %q, el viejo daba %q", f, got, want)
		}
	}
}
