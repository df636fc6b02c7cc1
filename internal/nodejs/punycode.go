package nodejs

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// punycodeValido approximates UTS 46's check of an "xn--" label: it must decode (RFC 3492) to
// something non-empty, with no combining mark first, no upper case (Cherokee's is valid) and no
// impossible characters.
// Without Unicode's tables no more can be asked; an odd label that passes only ends as a name that
// does not resolve.
func punycodeValido(s string) bool {
	const (
		base, tmin, tmax, skew, damp = 36, 1, 26, 38, 700
		sesgoInicial, nInicial       = 72, 128
		maximo                       = utf8.MaxRune
	)
	if s == "" {
		return false
	}
	var salida []rune
	resto := s
	// A delimiter first ends an empty basic part: Node reads "xn---ls8h" as "xn--ls8h".
	if d := strings.LastIndexByte(s, '-'); d >= 0 {
		for i := 0; i < d; i++ {
			if s[i] >= 0x80 {
				return false
			}
			salida = append(salida, rune(s[i]))
		}
		resto = s[d+1:]
	}
	n, i, sesgo := nInicial, 0, sesgoInicial
	for p := 0; p < len(resto); {
		anterior, w := i, 1
		for k := base; ; k += base {
			if p >= len(resto) {
				return false
			}
			c := resto[p]
			p++
			var digito int
			switch {
			case '0' <= c && c <= '9':
				digito = int(c-'0') + 26
			case 'a' <= c && c <= 'z':
				digito = int(c - 'a')
			case 'A' <= c && c <= 'Z':
				digito = int(c - 'A')
			default:
				return false
			}
			if digito > (maximo-i)/w {
				return false
			}
			i += digito * w
			t := k - sesgo
			if t < tmin {
				t = tmin
			} else if t > tmax {
				t = tmax
			}
			if digito < t {
				break
			}
			if w > maximo/(base-t) {
				return false
			}
			w *= base - t
		}
		largo := len(salida) + 1
		// Adapt the bias (RFC 3492, section 6.1).
		delta := i - anterior
		if anterior == 0 {
			delta /= damp
		} else {
			delta /= 2
		}
		delta += delta / largo
		k := 0
		for delta > ((base-tmin)*tmax)/2 {
			delta /= base - tmin
			k += base
		}
		sesgo = k + (base-tmin+1)*delta/(delta+skew)
		if i/largo > maximo-n {
			return false
		}
		n += i / largo
		i %= largo
		if n > maximo || (n >= 0xD800 && n <= 0xDFFF) {
			return false
		}
		salida = append(salida[:i], append([]rune{rune(n)}, salida[i:]...)...)
		i++
	}
	if len(salida) == 0 || unicode.Is(unicode.M, salida[0]) {
		return false
	}
	for _, r := range salida {
		if (unicode.IsUpper(r) && !unicode.Is(unicode.Cherokee, r)) || !unicode.IsPrint(r) || r == '.' {
			return false
		}
	}
	return true
}
