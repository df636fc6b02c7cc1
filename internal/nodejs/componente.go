package nodejs

import (
	"errors"
	"strings"
	"unicode/utf8"
)

// ErrURIMalformada is what decodeURIComponent calls "URI malformed".
var ErrURIMalformada = errors.New("URI malformada")

// DecodificarComponente decodes every %XX as JavaScript's decodeURIComponent does: reserved
// characters too, "+" stays "+", and an escape that is not two hex digits, or escaped bytes that are
// not one whole valid UTF-8 sequence (overlong forms, surrogates, beyond U+10FFFF), fail the whole
// string. Bytes that are not escaped are kept as they are.
func DecodificarComponente(s string) (string, error) {
	if !strings.Contains(s, "%") {
		return s, nil
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		if s[i] != '%' {
			b.WriteByte(s[i])
			i++
			continue
		}
		c, ok := byteEscapado(s, i)
		if !ok {
			return "", ErrURIMalformada
		}
		i += 3
		if c < utf8.RuneSelf {
			b.WriteByte(c)
			continue
		}
		var n int
		switch {
		case c&0xe0 == 0xc0:
			n = 2
		case c&0xf0 == 0xe0:
			n = 3
		case c&0xf8 == 0xf0:
			n = 4
		default:
			return "", ErrURIMalformada
		}
		secuencia := []byte{c}
		for k := 1; k < n; k++ {
			d, ok := byteEscapado(s, i)
			if !ok || d&0xc0 != 0x80 {
				return "", ErrURIMalformada
			}
			secuencia = append(secuencia, d)
			i += 3
		}
		if !utf8.Valid(secuencia) {
			return "", ErrURIMalformada
		}
		b.Write(secuencia)
	}
	return b.String(), nil
}

// byteEscapado reads the "%XX" at s[i:].
func byteEscapado(s string, i int) (byte, bool) {
	if i+2 >= len(s) || s[i] != '%' {
		return 0, false
	}
	a, ok1 := valorHex(s[i+1])
	b, ok2 := valorHex(s[i+2])
	return a<<4 | b, ok1 && ok2
}

func valorHex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
