package tabladecision

import (
	"encoding/json"
	"io"
	"strings"

	"cursohttp/internal/nodejs"
)

// TypeDe reads the type of a Problem Details body (RFC 9457) and nothing else: no title, no detail,
// no extensions. ok=false when it is not Problem Details (another media type, a body that is not
// JSON, or JSON null). If it is an object with a string type, that one; in any other case
// "about:blank", the default type of a problem that says no more than its status.
//
// It reproduces what the course does with fetch and JSON.parse: the body is decoded as UTF-8 (no
// leading BOM, invalid bytes as U+FFFD), with repeated keys the last one wins, and nesting depth has
// no limit.
func TypeDe(contentType string, cuerpo []byte) (string, bool) {
	// The media type is case-insensitive and may carry parameters (RFC 9110, §8.3.1).
	medio, _, _ := strings.Cut(contentType, ";")
	if strings.ToLower(nodejs.Recortar(medio)) != "application/problem+json" {
		return "", false
	}
	return typeDeJSON(nodejs.Texto(cuerpo))
}

// TypeDelCuerpo is TypeDe for a body whose media type the caller already knows to be a problem's
// (the graders read the revisor's own answers): its type, "about:blank" when it names none, and ""
// when the body is not JSON.
func TypeDelCuerpo(cuerpo []byte) string {
	tipo, _ := typeDeJSON(nodejs.Texto(cuerpo))
	return tipo
}

// typeDeJSON walks the JSON token by token instead of decoding it whole: that way neither
// encoding/json's nesting cap nor a number like 1e400, which JSON.parse accepts, stops it.
func typeDeJSON(texto string) (string, bool) {
	dec := json.NewDecoder(strings.NewReader(texto))
	dec.UseNumber()
	primera, err := dec.Token()
	if err != nil {
		return "", false
	}
	tipo, esTexto := "", false
	switch primera {
	case nil: // JSON null: reading .type of null throws, and the course treats it as "not JSON"
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
			if clave == "type" { // with repeated keys, the last one rules
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

// saltarResto consumes the rest of an object or array just opened; the Decoder already checks that
// closings match openings.
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

// soloQuedaElFinal: JSON.parse refuses anything after the value but whitespace.
func soloQuedaElFinal(dec *json.Decoder) bool {
	_, err := dec.Token()
	return err == io.EOF
}
