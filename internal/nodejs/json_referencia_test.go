package nodejs

// The decoder this package had before its own reader: encoding/json's tokenizer, which JSON.parse's
// grammar matches. Kept as the oracle the hand-written reader is compared with (FuzzComoEncodingJSON).

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// lectorReferencia is encoding/json's tokenizer plus the text it reads, so a string token can be decoded
// again from its literal when lone surrogates must be kept.
type lectorReferencia struct {
	dec        *json.Decoder
	data       []byte
	sustitutos bool
}

func decodificarReferencia(data []byte, sustitutos bool) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	l := &lectorReferencia{dec: dec, data: data, sustitutos: sustitutos}
	v, err := l.leerValorReferencia()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoEsJSON, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%w: sobra texto después del valor", ErrNoEsJSON)
	}
	return v, nil
}

// token is dec.Token, with a string decoded again from its literal when it has a surrogate escape.
func (l *lectorReferencia) token() (json.Token, error) {
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
	return conSustitutosReferencia(literal), nil
}

// conSustitutosReferencia decodes a string literal encoding/json has already accepted, keeping each surrogate
// escape without its pair as WTF-8 bytes. Everything else decodes as encoding/json does it.
func conSustitutosReferencia(literal []byte) string {
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
			b.WriteByte(escapeSimpleReferencia(escape))
			continue
		}
		u := hex4Referencia(s[i:])
		i += 4
		if !utf16.IsSurrogate(u) {
			b.WriteRune(u)
			continue
		}
		if u < 0xdc00 && i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
			if bajo := hex4Referencia(s[i+2:]); bajo >= 0xdc00 && bajo <= 0xdfff {
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

// escapeSimpleReferencia is the character a one-letter escape stands for (\" \\ \/ \b \f \n \r \t).
func escapeSimpleReferencia(c byte) byte {
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

// hex4Referencia reads the four hex digits of a \u escape (already checked by encoding/json); anything else
// makes it not a surrogate.
func hex4Referencia(s []byte) rune {
	if len(s) < 4 {
		return 0
	}
	n, err := strconv.ParseUint(string(s[:4]), 16, 32)
	if err != nil {
		return 0
	}
	return rune(n)
}

func (l *lectorReferencia) leerValorReferencia() (any, error) {
	dec := l.dec
	t, err := l.token()
	if err != nil {
		return nil, err
	}
	switch x := t.(type) {
	case json.Delim:
		switch x {
		case '{':
			return l.leerObjetoReferencia()
		case '[':
			lista := []any{}
			for dec.More() {
				v, err := l.leerValorReferencia()
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

func (l *lectorReferencia) leerObjetoReferencia() (Objeto, error) {
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
		v, err := l.leerValorReferencia()
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

// casosDelLector are texts at every edge of the grammar: what both readers must accept or refuse
// alike, and read to the same value.
var casosDelLector = []string{
	``, ` `, `{}`, `[]`, `{ }`, `[ ]`, ` {"a" : 1 } `, `{"a":1,}`, `[1,]`, `[,1]`, `{,}`, `{"a"}`, `{"a":}`,
	`{"a" 1}`, `{1:2}`, `{"a":1 "b":2}`, `[1 2]`, `"x"`, `"x`, `x`, `tru`, `true`, `truex`, `[true,false,null]`,
	`nul`, `nulll`, `0`, `-0`, `-`, `01`, `1.`, `.5`, `1.5e`, `1e+`, `1e-5`, `1E5`, `-1.25e-3`, `+1`, `1e400`,
	`-1e400`, `1e-400`, `123456789012345678901234567890`, `0x10`, `Infinity`, `NaN`, `[-]`, `[0e]`,
	`"\u0041\u00e9\u20ac"`, `"\ud83d\ude00"`, `"\ud800"`, `"\udc00"`, `"\ud800\udc00"`, `"\ud800\u0041"`,
	`"\ud800\ud800\udc00"`, `"\udbff\udfff"`, `"\ud800\u"`, `"\ud800\uzzzz"`, `"\u12"`, `"\u12g4"`,
	`"\uD83D\uDE00"`, `"\\ud800"`, `"a\/b"`, `"\b\f\n\r\t\"\\"`, `"\x"`, `"\'"`, `"\"`, "\"a\tb\"",
	"\"a\x00b\"", "\"a\x1fb\"", "\"a\x7fb\"", "\"\xff\"", "\"\xc3\"", "\"\xc3\xa9\"", "\"\xed\xa0\x80\"",
	"\"a\xffb\\n\xfe\"", "\ufeff{}", "{}\x00", "[1]\n\r\t ", `{"b":1,"2":1,"1":1,"01":1,"a":1}`,
	`{"4294967294":1,"4294967295":2,"0":3}`, `{"a":1,"b":2,"a":3}`, `{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"a":11,"k":12,"j":13}`,
	`{"__proto__":1}`, `[[[[[]]]]]`, `{"a":{"b":{"c":[1,{"d":null}]}}}`, `{} {}`, `[1]]`, `"\u0000"`,
	strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
	strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
	strings.Repeat(`{"a":`, 3000) + "1" + strings.Repeat("}", 3000),
}

func mismoResultado(t *testing.T, entrada []byte, sustitutos bool) {
	t.Helper()
	v, err := decodificar(entrada, sustitutos)
	w, errRef := decodificarReferencia(entrada, sustitutos)
	if (err == nil) != (errRef == nil) {
		t.Fatalf("%q (sustitutos %v): el lectorJSON da %v, encoding/json %v", entrada, sustitutos, err, errRef)
	}
	if err == nil && (!reflect.DeepEqual(v, w) || !bytes.Equal(CodificarJSON(v), CodificarJSON(w))) {
		t.Fatalf("%q (sustitutos %v): el lectorJSON lee %#v, encoding/json %#v", entrada, sustitutos, v, w)
	}
}

// The hand-written reader accepts and refuses what encoding/json's tokenizer did and reads the
// same values, with and without lone surrogates kept.
func TestLectorComoEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, c := range casosDelLector {
		mismoResultado(t, []byte(c), false)
		mismoResultado(t, []byte(c), true)
	}
}

func FuzzLectorComoEncodingJSON(f *testing.F) {
	for _, c := range casosDelLector {
		if len(c) < 200 {
			f.Add([]byte(c))
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		mismoResultado(t, b, false)
		mismoResultado(t, b, true)
	})
}
