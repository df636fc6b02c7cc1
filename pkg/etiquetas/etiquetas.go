// Package etiquetas lee las condiciones If-Match / If-None-Match y compara ETags
// como pide el RFC 9110 (secciones 8.8.3, 13.1.1 y 13.1.2), porque compararlas
// como texto falla con W/"1-1" o con una lista "9-9", "1-1".
package etiquetas

import "strings"

// Interpretar lee una cabecera If-Match o If-None-Match.
// Devuelve comodin=true si la cabecera es «*» sola; si no, la lista de etiquetas
// tal como llegaron (W/"1-1", "1-1"…). Los elementos vacíos se saltan. Si algún
// elemento no es una etiqueta, o «*» viene mezclado con etiquetas, la lista
// entera es inválida y se devuelve vacía: no coincide con nada, que es lo prudente.
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
		// Tras una etiqueta solo caben espacios y luego una coma o el final.
		for i < len(texto) && (texto[i] == ' ' || texto[i] == '\t') {
			i++
		}
		if i < len(texto) && texto[i] != ',' {
			return nil, false
		}
	}
	return lista, false
}

// opacaValida dice si el texto entre comillas usa solo etagc:
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

// CoincideDebil compara como If-None-Match: basta con que coincida el texto
// entre comillas, con W/ o sin él.
func CoincideDebil(a, b string) bool { return opaca(a) == opaca(b) }

// CoincideFuerte compara como If-Match: iguales y ninguna de las dos débil.
func CoincideFuerte(a, b string) bool { return !esDebil(a) && !esDebil(b) && a == b }

// HayCoincidencia dice si alguna etiqueta de la cabecera coincide con la vigente
// usando comparar (CoincideDebil para If-None-Match, CoincideFuerte para If-Match).
// «*» coincide siempre: quien llama ya comprobó que el recurso existe.
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
