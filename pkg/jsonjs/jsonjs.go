// Package jsonjs reads and writes JSON byte for byte as JavaScript's JSON.parse and JSON.stringify do,
// because the course's bodies and fingerprints are JSON.stringify output: field order kept, no HTML
// escaping, JavaScript's number format.
package jsonjs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"cursohttp/pkg/nodejs"
)

// Campo is one member of an Objeto.
type Campo struct {
	Nombre string
	Valor  any
}

// Objeto is a JSON object whose members keep their order, as a JavaScript object does.
type Objeto []Campo

// Valor returns the member called nombre.
func (o Objeto) Valor(nombre string) (any, bool) {
	for _, c := range o {
		if c.Nombre == nombre {
			return c.Valor, true
		}
	}
	return nil, false
}

// Texto returns the member called nombre when it is a string.
func (o Objeto) Texto(nombre string) (string, bool) {
	v, _ := o.Valor(nombre)
	s, ok := v.(string)
	return s, ok
}

// Codificar writes v as JSON.stringify(v) would. Supported values: nil, bool, string, the integer
// types, float64, Objeto, []any, []string, []Objeto, json.RawMessage and anything encoding/json can
// write (as a last resort, without HTML escaping).
func Codificar(v any) []byte {
	var b bytes.Buffer
	escribir(&b, v, "", "")
	return b.Bytes()
}

// Agregar writes v to b as Codificar does, for a caller that builds a larger text piece by piece.
func Agregar(b *bytes.Buffer, v any) {
	escribir(b, v, "", "")
}

// CodificarSangria writes v as JSON.stringify(v, null, sangria) would.
func CodificarSangria(v any, sangria string) []byte {
	var b bytes.Buffer
	escribir(&b, v, sangria, "")
	return b.Bytes()
}

func escribir(b *bytes.Buffer, v any, sangria, actual string) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case string:
		EscribirTexto(b, x)
	case int:
		b.WriteString(strconv.Itoa(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case int32:
		b.WriteString(strconv.FormatInt(int64(x), 10))
	case uint64:
		b.WriteString(strconv.FormatUint(x, 10))
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			b.WriteString("null") // JSON has no NaN or Infinity
		} else {
			b.WriteString(nodejs.Numero(x))
		}
	case *int64:
		if x == nil {
			b.WriteString("null")
		} else {
			b.WriteString(strconv.FormatInt(*x, 10))
		}
	case *string:
		if x == nil {
			b.WriteString("null")
		} else {
			EscribirTexto(b, *x)
		}
	case Objeto:
		escribirObjeto(b, x, sangria, actual)
	case []any:
		escribirLista(b, len(x), func(i int) any { return x[i] }, sangria, actual)
	case []string:
		escribirLista(b, len(x), func(i int) any { return x[i] }, sangria, actual)
	case []Objeto:
		escribirLista(b, len(x), func(i int) any { return x[i] }, sangria, actual)
	case json.RawMessage:
		b.Write(x)
	default:
		var tmp bytes.Buffer
		enc := json.NewEncoder(&tmp)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(x); err != nil {
			b.WriteString("null")
			return
		}
		b.Write(bytes.TrimRight(tmp.Bytes(), "\n"))
	}
}

func escribirObjeto(b *bytes.Buffer, o Objeto, sangria, actual string) {
	if len(o) == 0 {
		b.WriteString("{}")
		return
	}
	interior := actual + sangria
	b.WriteByte('{')
	for i, c := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		if sangria != "" {
			b.WriteByte('\n')
			b.WriteString(interior)
		}
		EscribirTexto(b, c.Nombre)
		b.WriteByte(':')
		if sangria != "" {
			b.WriteByte(' ')
		}
		escribir(b, c.Valor, sangria, interior)
	}
	if sangria != "" {
		b.WriteByte('\n')
		b.WriteString(actual)
	}
	b.WriteByte('}')
}

func escribirLista(b *bytes.Buffer, n int, en func(int) any, sangria, actual string) {
	if n == 0 {
		b.WriteString("[]")
		return
	}
	interior := actual + sangria
	b.WriteByte('[')
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		if sangria != "" {
			b.WriteByte('\n')
			b.WriteString(interior)
		}
		escribir(b, en(i), sangria, interior)
	}
	if sangria != "" {
		b.WriteByte('\n')
		b.WriteString(actual)
	}
	b.WriteByte(']')
}

const hex = "0123456789abcdef"

// EscribirTexto writes s as a JSON string the way JSON.stringify does: only the quote, the backslash
// and the C0 controls are escaped; <, >, &, U+2028 and U+2029 go as they are. A lone surrogate held
// as WTF-8 (see DecodificarCuerpo) is written as its \uXXXX escape, as JSON.stringify writes one;
// other invalid UTF-8 becomes U+FFFD, as when Node decodes a body.
func EscribirTexto(b *bytes.Buffer, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch c {
			case '"':
				b.WriteString(`\"`)
			case '\\':
				b.WriteString(`\\`)
			case '\b':
				b.WriteString(`\b`)
			case '\f':
				b.WriteString(`\f`)
			case '\n':
				b.WriteString(`\n`)
			case '\r':
				b.WriteString(`\r`)
			case '\t':
				b.WriteString(`\t`)
			default:
				if c < 0x20 {
					b.WriteString(`\u00`)
					b.WriteByte(hex[c>>4])
					b.WriteByte(hex[c&0xf])
				} else {
					b.WriteByte(c)
				}
			}
			i++
			continue
		}
		if nodejs.EsSustituto(s[i:]) {
			// A lone surrogate kept by DecodificarCuerpo: JSON.stringify writes it as an escape.
			u := rune(s[i]&0x0f)<<12 | rune(s[i+1]&0x3f)<<6 | rune(s[i+2]&0x3f)
			b.WriteString(`\u`)
			for _, corrimiento := range []uint{12, 8, 4, 0} {
				b.WriteByte(hex[u>>corrimiento&0xf])
			}
			i += 3
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteString("\ufffd")
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	b.WriteByte('"')
}

// DecodificarCuerpo reads a request body as the course's servers do, JSON.parse(buffer.toString()):
// invalid UTF-8 becomes one U+FFFD per maximal invalid subpart (Node's decoder, not Go's one per
// byte), and a \uD800–\uDFFF escape that is not half of a pair stays a lone surrogate, held as its
// WTF-8 bytes, instead of becoming U+FFFD. Two names that differ only there stay different, and
// Codificar writes the escape back as JSON.stringify would.
func DecodificarCuerpo(data []byte) (any, error) {
	return decodificar([]byte(nodejs.Valido(string(data))), true)
}

// ErrNoEsJSON says the text is not one JSON value, as JSON.parse would refuse it.
var ErrNoEsJSON = errors.New("jsonjs: no es JSON")

// Decodificar reads data as JSON.parse does: objects become Objeto with JavaScript's member order
// (integer-like names first, ascending; the rest in order of first appearance; a repeated name keeps
// its first place and its last value), numbers become float64, arrays []any.
func Decodificar(data []byte) (any, error) {
	return decodificar(data, false)
}

// lector is encoding/json's tokenizer plus the text it reads, so a string token can be decoded
// again from its literal when lone surrogates must be kept.
type lector struct {
	dec        *json.Decoder
	data       []byte
	sustitutos bool
}

func decodificar(data []byte, sustitutos bool) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	l := &lector{dec: dec, data: data, sustitutos: sustitutos}
	v, err := l.leerValor()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoEsJSON, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%w: sobra texto después del valor", ErrNoEsJSON)
	}
	return v, nil
}

// token is dec.Token, with a string decoded again from its literal when it has a surrogate escape.
func (l *lector) token() (json.Token, error) {
	desde := l.dec.InputOffset()
	t, err := l.dec.Token()
	if err != nil || !l.sustitutos {
		return t, err
	}
	if _, esTexto := t.(string); !esTexto {
		return t, nil
	}
	hasta := l.dec.InputOffset()
	literal := l.data[desde:hasta]
	literal = literal[bytes.IndexByte(literal, '"'):]
	if !bytes.Contains(literal, []byte(`\ud`)) && !bytes.Contains(literal, []byte(`\uD`)) {
		return t, nil
	}
	return conSustitutos(literal), nil
}

// conSustitutos decodes a string literal encoding/json has already accepted, keeping each surrogate
// escape without its pair as WTF-8 bytes. Everything else decodes as encoding/json does it.
func conSustitutos(literal []byte) string {
	s := literal[1 : len(literal)-1]
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			r, n := utf8.DecodeRune(s[i:])
			b.WriteRune(r) // an invalid byte is U+FFFD, one per byte, as encoding/json does
			i += n
			continue
		}
		escape := s[i+1]
		i += 2
		if escape != 'u' {
			b.WriteByte(escapeSimple(escape))
			continue
		}
		u := hex4(s[i:])
		i += 4
		if !utf16.IsSurrogate(u) {
			b.WriteRune(u)
			continue
		}
		if u < 0xdc00 && i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
			if bajo := hex4(s[i+2:]); bajo >= 0xdc00 && bajo <= 0xdfff {
				b.WriteRune(utf16.DecodeRune(u, bajo))
				i += 6
				continue
			}
		}
		b.WriteByte(0xe0 | byte(u>>12))
		b.WriteByte(0x80 | byte(u>>6)&0x3f)
		b.WriteByte(0x80 | byte(u)&0x3f)
	}
	return b.String()
}

// escapeSimple is the character a one-letter escape stands for (\" \\ \/ \b \f \n \r \t).
func escapeSimple(c byte) byte {
	switch c {
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	}
	return c // ", \ and /
}

// hex4 reads the four hex digits of a \u escape (already checked by encoding/json); anything else
// makes it not a surrogate.
func hex4(s []byte) rune {
	if len(s) < 4 {
		return 0
	}
	n, err := strconv.ParseUint(string(s[:4]), 16, 32)
	if err != nil {
		return 0
	}
	return rune(n)
}

func (l *lector) leerValor() (any, error) {
	dec := l.dec
	t, err := l.token()
	if err != nil {
		return nil, err
	}
	switch x := t.(type) {
	case json.Delim:
		switch x {
		case '{':
			return l.leerObjeto()
		case '[':
			lista := []any{}
			for dec.More() {
				v, err := l.leerValor()
				if err != nil {
					return nil, err
				}
				lista = append(lista, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return lista, nil
		}
		return nil, fmt.Errorf("delimitador inesperado %v", x)
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return nil, err
		}
		return f, nil
	default:
		return x, nil // string, bool or nil
	}
}

func (l *lector) leerObjeto() (Objeto, error) {
	dec := l.dec
	o := Objeto{}
	lugar := map[string]int{}
	for dec.More() {
		t, err := l.token()
		if err != nil {
			return nil, err
		}
		nombre, ok := t.(string)
		if !ok {
			return nil, fmt.Errorf("nombre de miembro inválido")
		}
		v, err := l.leerValor()
		if err != nil {
			return nil, err
		}
		if i, visto := lugar[nombre]; visto {
			o[i].Valor = v
			continue
		}
		lugar[nombre] = len(o)
		o = append(o, Campo{nombre, v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	// JavaScript lists integer-like member names first, in ascending numeric order.
	sort.SliceStable(o, func(i, j int) bool {
		ni, ei := indice(o[i].Nombre)
		nj, ej := indice(o[j].Nombre)
		if ei && ej {
			return ni < nj
		}
		return ei && !ej
	})
	return o, nil
}

// indice reports whether s is an array index in JavaScript's sense: the canonical decimal form of an
// integer from 0 to 2^32-2.
func indice(s string) (uint64, bool) {
	if s == "" || len(s) > 10 || (len(s) > 1 && s[0] == '0') {
		return 0, false
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || n > math.MaxUint32-1 {
		return 0, false
	}
	return n, true
}

// Cadena is String(v) for a value JSON.parse made (what Decodificar returns): a string is itself,
// a number is written as JavaScript writes it, an array is its elements' Cadena joined with ","
// (null as nothing), an object is "[object Object]".
func Cadena(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(x)
	case float64:
		return nodejs.Numero(x)
	case string:
		return x
	case []any:
		partes := make([]string, len(x))
		for i, e := range x {
			if e != nil {
				partes[i] = Cadena(e)
			}
		}
		return strings.Join(partes, ",")
	}
	return "[object Object]"
}
