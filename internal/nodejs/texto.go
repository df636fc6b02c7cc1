package nodejs

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Texto decodes a body as fetch's Response.text() does (the WHATWG UTF-8 decoder): one leading BOM
// is dropped and each maximal invalid subpart becomes one U+FFFD. Go's own decoding would give one
// U+FFFD per byte, and the course's clients print and parse what Node decoded.
func Texto(b []byte) string {
	return Valido(string(bytes.TrimPrefix(b, []byte("\ufeff"))))
}

// Cabecera is a header's value as text to show (in a detail or a log line). Node's parser holds a
// header's bytes as latin1 characters, one a byte, so a value that is not UTF-8 reads as Node shows
// it ("\xf1and\xfa" is "ñandú"). A value that is valid UTF-8 stays UTF-8, as a student typed it,
// where Node would show each of its bytes as a character ("Ã±" for "ñ"): docs/diferencias.md.
func Cabecera(v string) string {
	if utf8.ValidString(v) {
		return v
	}
	r := make([]rune, len(v))
	for i := 0; i < len(v); i++ {
		r[i] = rune(v[i])
	}
	return string(r)
}

// Valido replaces invalid UTF-8 in s the way the WHATWG decoder does (see Texto), BOM kept.
func Valido(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r != utf8.RuneError || n > 1 {
			sb.WriteString(s[i : i+n])
			i += n
			continue
		}
		sb.WriteRune(utf8.RuneError)
		i += subparteInvalida(s[i:])
	}
	return sb.String()
}

// subparteInvalida measures the maximal prefix of a UTF-8 sequence that began well and broke off
// (Unicode's "substitution of maximal subparts"), or 1.
func subparteInvalida(s string) int {
	c := s[0]
	var faltan int
	bajo, alto := byte(0x80), byte(0xBF)
	switch {
	case c >= 0xC2 && c <= 0xDF:
		faltan = 1
	case c == 0xE0:
		faltan, bajo = 2, 0xA0
	case c >= 0xE1 && c <= 0xEC, c == 0xEE, c == 0xEF:
		faltan = 2
	case c == 0xED:
		faltan, alto = 2, 0x9F
	case c == 0xF0:
		faltan, bajo = 3, 0x90
	case c >= 0xF1 && c <= 0xF3:
		faltan = 3
	case c == 0xF4:
		faltan, alto = 3, 0x8F
	default:
		return 1
	}
	n := 1
	for ; n <= faltan && n < len(s); n++ {
		if s[n] < bajo || s[n] > alto {
			break
		}
		bajo, alto = 0x80, 0xBF
	}
	return n
}

// EsEspacio reports whether String.prototype.trim removes r: JavaScript's WhiteSpace (Zs, tab, VT,
// FF, BOM) and LineTerminator. It is not unicode.IsSpace: U+0085 stays, U+FEFF goes.
func EsEspacio(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', '\ufeff', '\u2028', '\u2029':
		return true
	}
	return unicode.Is(unicode.Zs, r)
}

// Recortar is String.prototype.trim.
func Recortar(s string) string { return strings.TrimFunc(s, EsEspacio) }

// Largo is String.prototype.length: UTF-16 code units ("ñ" is one, "😀" two). A lone surrogate held
// as WTF-8 (see EsSustituto) is one; any other invalid byte counts one, as the U+FFFD Node would
// have decoded it to.
func Largo(s string) int {
	n := 0
	for i := 0; i < len(s); {
		if EsSustituto(s[i:]) {
			n++
			i += 3
			continue
		}
		r, ancho := utf8.DecodeRuneInString(s[i:])
		n += utf16.RuneLen(r)
		i += ancho
	}
	return n
}

// EsSustituto reports whether s starts with a surrogate code point (U+D800–U+DFFF) encoded as if it
// were a character (WTF-8): 0xED, then 0xA0–0xBF, then a continuation byte. Valid UTF-8 never has
// one; DecodificarCuerpoJSON keeps a lone "\uD800" escape this way, as a JavaScript string would.
func EsSustituto(s string) bool {
	return len(s) >= 3 && s[0] == 0xed && s[1] >= 0xa0 && s[1] <= 0xbf && s[2] >= 0x80 && s[2] <= 0xbf
}
