package decision

import (
	"encoding/json"
	"io"
	"strings"

	"cursohttp/pkg/jsonjs"
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
	if strings.ToLower(jsonjs.Recortar(medio)) != "application/problem+json" {
		return "", false
	}
	return typeDeJSON(jsonjs.Texto(cuerpo))
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
