// Package etiquetas reads If-Match / If-None-Match conditions and compares ETags as RFC 9110 asks
// (sections 8.8.3, 13.1.1 and 13.1.2): compared as plain text they fail on W/"1-1" or on a list
// such as "9-9", "1-1".
package etiquetas

import "strings"

// Interpretar reads an If-Match or If-None-Match header. comodin is true when the header is "*"
// alone; otherwise lista holds the tags as they came (W/"1-1", "1-1"…), empty elements skipped. If
// any element is not a tag, or "*" comes mixed with tags, the whole list is invalid and comes back
// empty: it matches nothing, the cautious reading.
func Interpretar(cabecera string) (lista []string, comodin bool) {
	texto := strings.Trim(cabecera, " \t")
	if texto == "*" {
		return nil, true
	}
	i := 0
	for i < len(texto) {
		switch texto[i] {
		case ' ', '\t', ',':
			i++
			continue
		}
		inicio := i
		if strings.HasPrefix(texto[i:], "W/") {
			i += 2
		}
		if i >= len(texto) || texto[i] != '"' {
			return nil, false
		}
		cierre := strings.IndexByte(texto[i+1:], '"')
		if cierre < 0 {
			return nil, false
		}
		cierre += i + 1
		if !opacaValida(texto[i+1 : cierre]) {
			return nil, false
		}
		lista = append(lista, texto[inicio:cierre+1])
		i = cierre + 1
		// After a tag only white space fits, then a comma or the end.
		for i < len(texto) && (texto[i] == ' ' || texto[i] == '\t') {
			i++
		}
		if i < len(texto) && texto[i] != ',' {
			return nil, false
		}
	}
	return lista, false
}

// opacaValida reports whether the text between the quotes is only etagc:
// %x21 / %x23-7E / obs-text (%x80-FF).
func opacaValida(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == 0x21 || (c >= 0x23 && c <= 0x7E) || c >= 0x80 {
			continue
		}
		return false
	}
	return true
}

func esDebil(etiqueta string) bool { return strings.HasPrefix(etiqueta, "W/") }

func opaca(etiqueta string) string { return strings.TrimPrefix(etiqueta, "W/") }

// CoincideDebil is the weak comparison of If-None-Match: the quoted text alone must match, with or
// without W/.
func CoincideDebil(a, b string) bool { return opaca(a) == opaca(b) }

// CoincideFuerte is the strong comparison of If-Match: equal, and neither of them weak.
func CoincideFuerte(a, b string) bool { return !esDebil(a) && !esDebil(b) && a == b }

// HayCoincidencia reports whether any tag of the header matches the current one (vigente) by
// comparar (CoincideDebil for If-None-Match, CoincideFuerte for If-Match). "*" always matches: the
// caller has already checked that the resource exists.
func HayCoincidencia(cabecera, vigente string, comparar func(a, b string) bool) bool {
	lista, comodin := Interpretar(cabecera)
	if comodin {
		return true
	}
	for _, etiqueta := range lista {
		if comparar(etiqueta, vigente) {
			return true
		}
	}
	return false
}
