package decision

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"unicode/utf8"
)

// TypeDe lee el type de un cuerpo Problem Details (RFC 9457) y nada más: ni
// title, ni detail, ni extensiones. ok=false si no es Problem Details (otro
// tipo de medio, o un cuerpo que no es JSON, o JSON null). Si es un objeto con
// un type de texto, ese; en cualquier otro caso, "about:blank", el type por
// omisión de un problema que no dice más que su código.
//
// Reproduce lo que el curso hace con fetch y JSON.parse: el cuerpo se
// decodifica como UTF-8 (sin BOM inicial, bytes inválidos como U+FFFD), con
// claves repetidas gana la última, y la profundidad de anidamiento no tiene
// límite.
func TypeDe(contentType string, cuerpo []byte) (string, bool) {
	// El tipo de medio no distingue mayúsculas y puede traer parámetros (RFC 9110, §8.3.1).
	medio, _, _ := strings.Cut(contentType, ";")
	if strings.ToLower(recortarEspacios(medio)) != "application/problem+json" {
		return "", false
	}
	return typeDeJSON(decodificarUTF8(cuerpo))
}

// typeDeJSON recorre el JSON por fichas en vez de decodificarlo entero: así no
// lo detiene el tope de anidamiento de encoding/json ni un número como 1e400,
// que JSON.parse sí acepta.
func typeDeJSON(texto string) (string, bool) {
	dec := json.NewDecoder(strings.NewReader(texto))
	dec.UseNumber()
	primera, err := dec.Token()
	if err != nil {
		return "", false
	}
	tipo, esTexto := "", false
	switch primera {
	case nil: // JSON null: leer .type de null lanza, y el curso lo trata como «no es JSON»
		return "", false
	case json.Delim('{'):
		for dec.More() {
			clave, err := dec.Token()
			if err != nil {
				return "", false
			}
			valor, err := dec.Token()
			if err != nil {
				return "", false
			}
			if _, ok := valor.(json.Delim); ok && !saltarResto(dec) {
				return "", false
			}
			if clave == "type" { // con claves repetidas, la última manda
				tipo, esTexto = valor.(string)
			}
		}
		if cierre, err := dec.Token(); err != nil || cierre != json.Delim('}') {
			return "", false
		}
	case json.Delim('['):
		if !saltarResto(dec) {
			return "", false
		}
	}
	if !soloQuedaElFinal(dec) {
		return "", false
	}
	if !esTexto {
		return "about:blank", true
	}
	return tipo, true
}

// saltarResto consume el resto de un objeto o arreglo recién abierto; el
// Decoder ya comprueba que los cierres casen con las aperturas.
func saltarResto(dec *json.Decoder) bool {
	for nivel := 1; nivel > 0; {
		f, err := dec.Token()
		if err != nil {
			return false
		}
		switch f {
		case json.Delim('{'), json.Delim('['):
			nivel++
		case json.Delim('}'), json.Delim(']'):
			nivel--
		}
	}
	return true
}

// soloQuedaElFinal: JSON.parse rechaza lo que siga al valor salvo espacios.
func soloQuedaElFinal(dec *json.Decoder) bool {
	_, err := dec.Token()
	return err == io.EOF
}

// recortarEspacios quita por los dos lados lo que String.prototype.trim
// considera espacio (no es exactamente lo mismo que strings.TrimSpace: JS
// incluye U+FEFF y excluye U+0085).
func recortarEspacios(s string) string {
	return strings.TrimFunc(s, func(r rune) bool {
		switch r {
		case '\t', '\n', '\v', '\f', '\r', ' ', '\u00a0', '\u1680', '\u2028', '\u2029',
			'\u202f', '\u205f', '\u3000', '\ufeff':
			return true
		}
		return r >= '\u2000' && r <= '\u200a'
	})
}

// decodificarUTF8 hace lo que el decodificador UTF-8 de WHATWG que usa
// Response.text(): quita un BOM inicial y cambia cada subparte maximal
// inválida por un U+FFFD (utf8.DecodeRune cambiaría cada byte suelto).
func decodificarUTF8(b []byte) string {
	b = bytes.TrimPrefix(b, []byte("\ufeff"))
	if utf8.Valid(b) {
		return string(b)
	}
	var sb strings.Builder
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError || n > 1 {
			sb.WriteString(string(b[i : i+n]))
			i += n
			continue
		}
		sb.WriteRune(utf8.RuneError)
		i += subparteInvalida(b[i:])
	}
	return sb.String()
}

// subparteInvalida mide el prefijo maximal de una secuencia UTF-8 que empezó
// bien y se cortó (Unicode, «U+FFFD substitution of maximal subparts»), o 1.
func subparteInvalida(b []byte) int {
	c := b[0]
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
	for ; n <= faltan && n < len(b); n++ {
		if b[n] < bajo || b[n] > alto {
			break
		}
		bajo, alto = 0x80, 0xBF
	}
	return n
}
