package nodejs

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Numero writes f as JavaScript's String(f) does: the shortest digits that read back as f, plain
// from 1e-6 up to 1e21 and in exponent form outside ("1e+21", "1.5e-7"), -0 as "0".
func Numero(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		return "0"
	}
	if abs := math.Abs(f); abs >= 1e21 || abs < 1e-6 {
		mant, exp, _ := strings.Cut(strconv.FormatFloat(f, 'e', -1, 64), "e")
		return mant + "e" + exp[:1] + strings.TrimLeft(exp[1:], "0")
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// LeerNumero reads texto as JavaScript's Number(texto) does; ok is false where Number gives NaN.
// JavaScript's white space around it is ignored, an empty text is 0, "0x", "0o" and "0b" prefixes
// read unsigned integers in their base, and a decimal may carry a sign, a fraction, an exponent or
// be "Infinity". Go's extras (underscores, hexadecimal fractions, "inf", "NaN") are not numbers.
func LeerNumero(texto string) (n float64, ok bool) {
	s := Recortar(texto)
	if s == "" {
		return 0, true
	}
	if len(s) > 2 && s[0] == '0' {
		base := 0
		switch s[1] {
		case 'x', 'X':
			base = 16
		case 'o', 'O':
			base = 8
		case 'b', 'B':
			base = 2
		}
		if base != 0 {
			return enteroEnBase(s[2:], base)
		}
	}
	sinSigno := s
	if s[0] == '+' || s[0] == '-' {
		sinSigno = s[1:]
	}
	if sinSigno == "Infinity" {
		if s[0] == '-' {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case '0' <= c && c <= '9', c == '.', c == 'e', c == 'E', c == '+', c == '-':
		default:
			return 0, false
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !math.IsInf(f, 0) {
		return 0, false // not a number; a value out of range is ±Infinity, as in JavaScript
	}
	return f, true
}

// enteroEnBase reads the digits after a 0x, 0o or 0b prefix; a result beyond 2^53 is rounded to
// the nearest float64, as JavaScript does.
func enteroEnBase(cifras string, base int) (float64, bool) {
	if cifras == "" || strings.ContainsAny(cifras, "+-_") {
		return 0, false
	}
	if n, err := strconv.ParseUint(cifras, base, 64); err == nil {
		return float64(n), true
	}
	grande, ok := new(big.Int).SetString(cifras, base)
	if !ok {
		return 0, false
	}
	f, _ := new(big.Float).SetInt(grande).Float64()
	return f, true
}
