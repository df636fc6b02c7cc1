// JSON as JavaScript reads and writes it: the course's bodies and fingerprints are JSON.stringify output,
// with member order kept, no HTML escaping and JavaScript's number format.

package nodejs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
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

// CodificarJSON writes v as JSON.stringify(v) would. Supported values: nil, bool, string, the integer
// types, float64, Objeto, []any, []string, []Objeto, json.RawMessage and anything encoding/json can
// write (as a last resort, without HTML escaping).
func CodificarJSON(v any) []byte {
	var b bytes.Buffer
	escribir(&b, v, "", "")
	return b.Bytes()
}

// AgregarJSON writes v to b as CodificarJSON does, for a caller that builds a larger text piece by piece.
func AgregarJSON(b *bytes.Buffer, v any) {
	escribir(b, v, "", "")
}

// CodificarJSONSangria writes v as JSON.stringify(v, null, sangria) would.
func CodificarJSONSangria(v any, sangria string) []byte {
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
		EscribirTextoJSON(b, x)
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
			b.WriteString(Numero(x))
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
			EscribirTextoJSON(b, *x)
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
		EscribirTextoJSON(b, c.Nombre)
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

// EscribirTextoJSON writes s as a JSON string the way JSON.stringify does: only the quote, the backslash
// and the C0 controls are escaped; <, >, &, U+2028 and U+2029 go as they are. A lone surrogate held
// as WTF-8 (see DecodificarCuerpoJSON) is written as its \uXXXX escape, as JSON.stringify writes one;
// other invalid UTF-8 becomes U+FFFD, as when Node decodes a body.
func EscribirTextoJSON(b *bytes.Buffer, s string) {
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
		if EsSustituto(s[i:]) {
			// A lone surrogate kept by DecodificarCuerpoJSON: JSON.stringify writes it as an escape.
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

// DecodificarCuerpoJSON reads a request body as the course's servers do, JSON.parse(buffer.toString()):
// invalid UTF-8 becomes one U+FFFD per maximal invalid subpart (Node's decoder, not Go's one per
// byte), and a \uD800–\uDFFF escape that is not half of a pair stays a lone surrogate, held as its
// WTF-8 bytes, instead of becoming U+FFFD. Two names that differ only there stay different, and
// CodificarJSON writes the escape back as JSON.stringify would.
func DecodificarCuerpoJSON(data []byte) (any, error) {
	if !utf8.Valid(data) {
		data = []byte(Valido(string(data)))
	}
	return decodificar(data, true)
}

// ErrNoEsJSON says the text is not one JSON value, as JSON.parse would refuse it.
var ErrNoEsJSON = errors.New("nodejs: no es JSON")

// DecodificarJSON reads data as JSON.parse does: objects become Objeto with JavaScript's member order
// (integer-like names first, ascending; the rest in order of first appearance; a repeated name keeps
// its first place and its last value), numbers become float64, arrays []any. Invalid UTF-8 inside a
// string becomes one U+FFFD per byte, and so does a lone surrogate escape, as encoding/json reads them.
func DecodificarJSON(data []byte) (any, error) {
	return decodificar(data, false)
}

// lectorJSON reads one JSON text (RFC 8259, which JSON.parse follows) by recursive descent. It is
// written by hand because every request body goes through it: encoding/json's token reader cost
// the revisor more than the rest of a repeated registration (make perfiles).
type lectorJSON struct {
	data       []byte
	i          int
	sustitutos bool // keep a lone surrogate escape as WTF-8 (DecodificarCuerpoJSON)
}

// errSintaxis carries where the text stopped being JSON; the message is never shown to anyone.
type errSintaxis struct {
	que   string
	lugar int
}

func (e *errSintaxis) Error() string { return e.que + " en el byte " + strconv.Itoa(e.lugar) }

func decodificar(data []byte, sustitutos bool) (any, error) {
	l := &lectorJSON{data: data, sustitutos: sustitutos}
	v, err := l.valor()
	if err == nil {
		l.espacios()
		if l.i < len(l.data) {
			err = l.fallo("sobra texto después del valor")
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoEsJSON, err)
	}
	return v, nil
}

func (l *lectorJSON) fallo(que string) error { return &errSintaxis{que, l.i} }

func (l *lectorJSON) espacios() {
	for l.i < len(l.data) {
		switch l.data[l.i] {
		case ' ', '\t', '\n', '\r':
			l.i++
		default:
			return
		}
	}
}

func (l *lectorJSON) valor() (any, error) {
	l.espacios()
	if l.i >= len(l.data) {
		return nil, l.fallo("falta un valor")
	}
	switch c := l.data[l.i]; {
	case c == '{':
		return l.objeto()
	case c == '[':
		return l.lista()
	case c == '"':
		return l.texto()
	case c == '-' || ('0' <= c && c <= '9'):
		return l.numero()
	case c == 't':
		return true, l.palabra("true")
	case c == 'f':
		return false, l.palabra("false")
	case c == 'n':
		return nil, l.palabra("null")
	}
	return nil, l.fallo("carácter inesperado")
}

func (l *lectorJSON) palabra(p string) error {
	if !bytes.HasPrefix(l.data[l.i:], []byte(p)) {
		return l.fallo("literal inválido")
	}
	l.i += len(p)
	return nil
}

func (l *lectorJSON) lista() (any, error) {
	l.i++ // [
	lista := []any{}
	l.espacios()
	if l.i < len(l.data) && l.data[l.i] == ']' {
		l.i++
		return lista, nil
	}
	for {
		v, err := l.valor()
		if err != nil {
			return nil, err
		}
		lista = append(lista, v)
		l.espacios()
		if l.i >= len(l.data) {
			return nil, l.fallo("lista sin cerrar")
		}
		switch l.data[l.i] {
		case ',':
			l.i++
		case ']':
			l.i++
			return lista, nil
		default:
			return nil, l.fallo("se esperaba , o ]")
		}
	}
}

func (l *lectorJSON) objeto() (any, error) {
	l.i++ // {
	o := Objeto{}
	l.espacios()
	if l.i < len(l.data) && l.data[l.i] == '}' {
		l.i++
		return o, nil
	}
	var lugar map[string]int // past a few members, where each name is, for repeated names
	const sinMapa = 8
	for {
		l.espacios()
		if l.i >= len(l.data) || l.data[l.i] != '"' {
			return nil, l.fallo("se esperaba el nombre de un miembro")
		}
		nombre, err := l.texto()
		if err != nil {
			return nil, err
		}
		l.espacios()
		if l.i >= len(l.data) || l.data[l.i] != ':' {
			return nil, l.fallo("se esperaba :")
		}
		l.i++
		v, err := l.valor()
		if err != nil {
			return nil, err
		}
		// A repeated name keeps its first place and takes the last value.
		visto := -1
		if lugar != nil {
			if i, ok := lugar[nombre]; ok {
				visto = i
			}
		} else {
			for i := range o {
				if o[i].Nombre == nombre {
					visto = i
					break
				}
			}
		}
		if visto >= 0 {
			o[visto].Valor = v
		} else {
			o = append(o, Campo{nombre, v})
			if lugar != nil {
				lugar[nombre] = len(o) - 1
			} else if len(o) > sinMapa {
				lugar = make(map[string]int, 2*len(o))
				for i, c := range o {
					lugar[c.Nombre] = i
				}
			}
		}
		l.espacios()
		if l.i >= len(l.data) {
			return nil, l.fallo("objeto sin cerrar")
		}
		switch l.data[l.i] {
		case ',':
			l.i++
		case '}':
			l.i++
			ordenarComoJS(o)
			return o, nil
		default:
			return nil, l.fallo("se esperaba , o }")
		}
	}
}

// ordenarComoJS puts integer-like member names first, in ascending numeric order, as JavaScript
// lists an object's members; the rest keep their order.
func ordenarComoJS(o Objeto) {
	hay := false
	for _, c := range o {
		if _, es := indice(c.Nombre); es {
			hay = true
			break
		}
	}
	if !hay {
		return
	}
	sort.SliceStable(o, func(i, j int) bool {
		ni, ei := indice(o[i].Nombre)
		nj, ej := indice(o[j].Nombre)
		if ei && ej {
			return ni < nj
		}
		return ei && !ej
	})
}

func (l *lectorJSON) numero() (any, error) {
	desde := l.i
	d := l.data
	if d[l.i] == '-' {
		l.i++
	}
	switch {
	case l.i < len(d) && d[l.i] == '0':
		l.i++
	case l.i < len(d) && '1' <= d[l.i] && d[l.i] <= '9':
		l.digitos()
	default:
		return nil, l.fallo("número inválido")
	}
	if l.i < len(d) && d[l.i] == '.' {
		l.i++
		if l.digitos() == 0 {
			return nil, l.fallo("número inválido")
		}
	}
	if l.i < len(d) && (d[l.i] == 'e' || d[l.i] == 'E') {
		l.i++
		if l.i < len(d) && (d[l.i] == '+' || d[l.i] == '-') {
			l.i++
		}
		if l.digitos() == 0 {
			return nil, l.fallo("número inválido")
		}
	}
	// Beyond float64's range JSON.parse gives ±Infinity, as ParseFloat does with ErrRange.
	f, err := strconv.ParseFloat(string(d[desde:l.i]), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return nil, err
	}
	return f, nil
}

func (l *lectorJSON) digitos() int {
	desde := l.i
	for l.i < len(l.data) && '0' <= l.data[l.i] && l.data[l.i] <= '9' {
		l.i++
	}
	return l.i - desde
}

// texto reads a string. Without escapes and with valid UTF-8 (the usual) it is the bytes between
// the quotes.
func (l *lectorJSON) texto() (string, error) {
	l.i++ // the opening quote
	desde := l.i
	d := l.data
	for l.i < len(d) {
		c := d[l.i]
		switch {
		case c == '"':
			s := d[desde:l.i]
			l.i++
			if !utf8.Valid(s) {
				return string(aRunas(nil, s)), nil
			}
			return string(s), nil
		case c == '\\':
			return l.textoConEscapes(desde)
		case c < 0x20:
			return "", l.fallo("carácter de control en un texto")
		}
		l.i++
	}
	return "", l.fallo("texto sin cerrar")
}

// aRunas appends s with each invalid UTF-8 byte as U+FFFD, as encoding/json decodes a string.
func aRunas(b, s []byte) []byte {
	for len(s) > 0 {
		r, n := utf8.DecodeRune(s)
		if r == utf8.RuneError && n == 1 {
			b = utf8.AppendRune(b, utf8.RuneError)
		} else {
			b = append(b, s[:n]...)
		}
		s = s[n:]
	}
	return b
}

func (l *lectorJSON) textoConEscapes(desde int) (string, error) {
	d := l.data
	b := aRunas(make([]byte, 0, l.i-desde+16), d[desde:l.i])
	tramo := l.i // the start of the run of plain bytes not yet copied
	for l.i < len(d) {
		c := d[l.i]
		switch {
		case c == '"':
			b = aRunas(b, d[tramo:l.i])
			l.i++
			return string(b), nil
		case c < 0x20:
			return "", l.fallo("carácter de control en un texto")
		case c != '\\':
			l.i++
			continue
		}
		b = aRunas(b, d[tramo:l.i])
		if l.i+1 >= len(d) {
			return "", l.fallo("escape sin terminar")
		}
		e := d[l.i+1]
		l.i += 2
		switch e {
		case '"', '\\', '/':
			b = append(b, e)
		case 'b', 'f', 'n', 'r', 't':
			b = append(b, escapeSimple(e))
		case 'u':
			u, ok := hex4(d[l.i:])
			if !ok {
				return "", l.fallo("escape \\u inválido")
			}
			l.i += 4
			if !utf16.IsSurrogate(u) {
				b = utf8.AppendRune(b, u)
				break
			}
			// A high surrogate and a low one escaped right after it are one character.
			if u < 0xdc00 && l.i+6 <= len(d) && d[l.i] == '\\' && d[l.i+1] == 'u' {
				if bajo, ok := hex4(d[l.i+2:]); ok && bajo >= 0xdc00 && bajo <= 0xdfff {
					b = utf8.AppendRune(b, utf16.DecodeRune(u, bajo))
					l.i += 6
					break
				}
			}
			if l.sustitutos {
				// Kept as its WTF-8 bytes (see DecodificarCuerpoJSON).
				b = append(b, 0xe0|byte(u>>12), 0x80|byte(u>>6)&0x3f, 0x80|byte(u)&0x3f)
			} else {
				b = utf8.AppendRune(b, utf8.RuneError)
			}
		default:
			return "", l.fallo("escape inválido")
		}
		tramo = l.i
	}
	return "", l.fallo("texto sin cerrar")
}

// escapeSimple is the character a one-letter escape stands for (\b \f \n \r \t).
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
	}
	return '\t'
}

// hex4 reads the four hex digits of a \u escape.
func hex4(s []byte) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var u rune
	for _, c := range s[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		u = u<<4 | rune(c)
	}
	return u, true
}

// indice reports whether s is an array index in JavaScript's sense: the canonical decimal form of an
// integer from 0 to 2^32-2.
func indice(s string) (uint64, bool) {
	if s == "" || len(s) > 10 || (len(s) > 1 && s[0] == '0') {
		return 0, false
	}
	var n uint64
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false // without building ParseUint's error: most names are words
		}
		n = n*10 + uint64(s[i]-'0')
	}
	if n > math.MaxUint32-1 {
		return 0, false
	}
	return n, true
}

// CadenaJSON is String(v) for a value JSON.parse made (what DecodificarJSON returns): a string is itself,
// a number is written as JavaScript writes it, an array is its elements' CadenaJSON joined with ","
// (null as nothing), an object is "[object Object]".
func CadenaJSON(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(x)
	case float64:
		return Numero(x)
	case string:
		return x
	case []any:
		partes := make([]string, len(x))
		for i, e := range x {
			if e != nil {
				partes[i] = CadenaJSON(e)
			}
		}
		return strings.Join(partes, ",")
	}
	return "[object Object]"
}
