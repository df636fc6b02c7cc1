package matricula

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/secure/precis"
	"golang.org/x/text/unicode/norm"

	"cursohttp/pkg/topes"
)

// Normalizar is the name as the roster keeps it: surrounding spaces trimmed, every inner run of
// spaces one space, in NFC (a composed and a decomposed «Óscar» are one name). It refuses, with a
// *NombreInvalido saying why, a name that is empty, longer than topes.NombreAlumno characters, or that could
// pass for another on the class page: control, invisible or bidirectional characters, anything but
// letters, marks, digits, spaces and . ' -, one that does not start with a letter or a digit (a
// spreadsheet reads a leading «-» as a formula, and «.Ana» reads as «Ana»), and letters of more
// than one script.
func Normalizar(nombre string) (string, error) {
	invalido := func(motivo string, args ...any) (string, error) {
		return "", &NombreInvalido{Nombre: nombre, Motivo: fmt.Sprintf(motivo, args...)}
	}
	// Before any work: a name this long cannot come down to topes.NombreAlumno characters (a character is
	// at most 4 bytes, and at most a few inner spaces could go).
	if len(nombre) > 8*topes.NombreAlumno {
		return invalido("tiene más de %d caracteres", topes.NombreAlumno)
	}
	if !utf8.ValidString(nombre) {
		return invalido("no es texto UTF-8 válido")
	}
	s := norm.NFC.String(strings.TrimFunc(nombre, unicode.IsSpace))
	var b strings.Builder
	var escrituras []*unicode.RangeTable
	anterior := ' '
	for _, r := range s {
		switch {
		case r == ' ' || unicode.Is(unicode.Zs, r):
			// Any space separator (no-break space included) is a space, and a run of them one.
			if anterior != ' ' {
				b.WriteByte(' ')
			}
			anterior = ' '
			continue
		case unicode.IsControl(r):
			return invalido("tiene un carácter de control (%U)", r)
		case esBidi(r):
			return invalido("tiene un control de dirección del texto (%U), que puede dar la vuelta a lo que se lee", r)
		case unicode.Is(unicode.Cf, r):
			return invalido("tiene un carácter invisible (%U)", r)
		case unicode.IsMark(r):
			// A mark only on a letter: alone it would sit on a space or a dash.
			if !unicode.IsLetter(anterior) && !unicode.IsMark(anterior) {
				return invalido("tiene un acento suelto (%U)", r)
			}
		case unicode.IsLetter(r):
			if e := escrituraDe(r); e != nil && !slices.Contains(escrituras, e) {
				escrituras = append(escrituras, e)
			}
		case unicode.IsDigit(r) || r == '.' || r == '\'' || r == '-':
		default:
			return invalido("tiene «%c» (%U): un nombre lleva solo letras, números, espacios y . ' -", r, r)
		}
		b.WriteRune(r)
		anterior = r
	}
	s = strings.TrimSuffix(b.String(), " ")
	switch n := utf8.RuneCountInString(s); {
	case n == 0:
		return invalido("está vacío")
	case n > topes.NombreAlumno:
		return invalido("tiene %d caracteres, más de %d", n, topes.NombreAlumno)
	}
	if primera, _ := utf8.DecodeRuneInString(s); !unicode.IsLetter(primera) && !unicode.IsDigit(primera) {
		return invalido("empieza por «%c»: un nombre empieza por una letra o un número", primera)
	}
	if !escriturasCompatibles(escrituras) {
		nombres := make([]string, len(escrituras))
		for i, e := range escrituras {
			nombres[i] = nombreDeEscritura(e)
		}
		return invalido("mezcla alfabetos (%s), y así se hace pasar por otro", strings.Join(nombres, " y "))
	}
	return s, nil
}

// esBidi: the characters that reorder what follows them on screen (embeddings, overrides,
// isolates and the directional marks), so «Ana\u202Eetoh» can show as another text.
func esBidi(r rune) bool {
	return r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069 || r == 0x200E || r == 0x200F || r == 0x061C
}

// escriturasLatinas are tried first: nearly every name is in one of them.
var escriturasLatinas = []*unicode.RangeTable{unicode.Latin, unicode.Cyrillic, unicode.Greek}

// todasLasEscrituras is every script but Common and Inherited, in a fixed order.
var todasLasEscrituras = func() []*unicode.RangeTable {
	var nombres []string
	for n := range unicode.Scripts {
		if n != "Common" && n != "Inherited" {
			nombres = append(nombres, n)
		}
	}
	slices.Sort(nombres)
	tablas := make([]*unicode.RangeTable, len(nombres))
	for i, n := range nombres {
		tablas[i] = unicode.Scripts[n]
	}
	return tablas
}()

// escrituraDe is the script of the letter r, nil for Common and Inherited (which mix with any).
func escrituraDe(r rune) *unicode.RangeTable {
	for _, e := range escriturasLatinas {
		if unicode.Is(e, r) {
			return e
		}
	}
	for _, e := range todasLasEscrituras {
		if unicode.Is(e, r) {
			return e
		}
	}
	return nil
}

// Scripts that one name writes together (Unicode's UTS #39, "highly restrictive"): Japanese mixes
// kanji and both kanas, Korean hangul and hanja, Chinese han and bopomofo.
var escriturasQueSeMezclan = [][]*unicode.RangeTable{
	{unicode.Han, unicode.Hiragana, unicode.Katakana},
	{unicode.Han, unicode.Hangul},
	{unicode.Han, unicode.Bopomofo},
}

func escriturasCompatibles(es []*unicode.RangeTable) bool {
	if len(es) <= 1 {
		return true
	}
	for _, juntas := range escriturasQueSeMezclan {
		if !slices.ContainsFunc(es, func(e *unicode.RangeTable) bool { return !slices.Contains(juntas, e) }) {
			return true
		}
	}
	return false
}

// nombreDeEscritura names a script in the course's language (the usual ones; any other by its
// Unicode name).
func nombreDeEscritura(e *unicode.RangeTable) string {
	switch e {
	case unicode.Latin:
		return "latino"
	case unicode.Cyrillic:
		return "cirílico"
	case unicode.Greek:
		return "griego"
	case unicode.Arabic:
		return "árabe"
	case unicode.Hebrew:
		return "hebreo"
	case unicode.Armenian:
		return "armenio"
	case unicode.Georgian:
		return "georgiano"
	}
	for n, t := range unicode.Scripts {
		if t == e {
			return n
		}
	}
	return "?"
}

// gemelas are the Cyrillic and Greek letters that read as a Latin one in the fonts a class page
// uses (from Unicode's confusables.txt, those whose twin is a plain Latin letter). Case is kept: «ana»
// and «Ana» are two students, but «Аna» with a Cyrillic А is «Ana».
var gemelas = map[rune]rune{
	// Cyrillic
	'А': 'A', 'а': 'a', 'В': 'B', 'Е': 'E', 'е': 'e', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O', 'о': 'o',
	'Р': 'P', 'р': 'p', 'С': 'C', 'с': 'c', 'Т': 'T', 'Х': 'X', 'х': 'x', 'у': 'y', 'Ү': 'Y',
	'Ѕ': 'S', 'ѕ': 's', 'І': 'I', 'і': 'i', 'Ј': 'J', 'ј': 'j', 'ԁ': 'd', 'һ': 'h', 'ӏ': 'l',
	'Ԛ': 'Q', 'ԛ': 'q', 'Ԝ': 'W', 'ԝ': 'w',
	// Greek
	'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O',
	'Ρ': 'P', 'Τ': 'T', 'Υ': 'Y', 'Χ': 'X', 'ο': 'o', 'ν': 'v',
}

// Esqueleto is what a normalised name reads as: decomposed (so a Cyrillic Ё is Е and its
// diaeresis, and reads as Ë), each look-alike letter its Latin twin. Two names with one skeleton
// would show the same on the class page; the roster keeps one (a unique index on it).
func Esqueleto(nombre string) string {
	return strings.Map(func(r rune) rune {
		if g, ok := gemelas[r]; ok {
			return g
		}
		return r
	}, norm.NFD.String(nombre))
}

// Clave is what a name reads as once case, accents and punctuation are set aside: two names with
// one key are one student («Ana García», «ana garcia», «ANA GARCÍA», «Ana García.», «Ana Garcı́a»
// with a dotless ı), and the roster keeps one (a unique index on it), beside Esqueleto, which
// keeps case and catches the look-alike letters of another script. The name is decomposed with
// its compatibility forms (NFKD: a ligature is its letters, a fullwidth letter its letter), its
// marks dropped, case-folded (ß is ss), each look-alike lowercase letter its Latin twin and each
// letter whose mark does not decompose (ı, ł, ø, đ…) its plain letter, punctuation a space; then
// compared as PRECIS compares nicknames (RFC 8266, precis.Nickname: spaces of any kind one space,
// none at the ends, NFKC, lowercase).
func Clave(nombre string) string {
	s := strings.Map(sinMarcas, norm.NFKD.String(nombre))
	s = strings.Map(plegar, cases.Fold().String(s))
	if k, err := precis.Nickname.CompareKey(s); err == nil {
		s = k
	}
	return strings.Join(strings.Fields(strings.Map(sinMarcas, norm.NFKD.String(s))), " ")
}

// sinMarcas drops the combining marks (accents, cedillas, tildes…).
func sinMarcas(r rune) rune {
	if unicode.In(r, unicode.Mn, unicode.Me) {
		return -1
	}
	return r
}

// plegar is Clave's mapping of one case-folded character: punctuation reads as a space, a letter
// with a mark of its own as the plain letter, a look-alike lowercase letter as its Latin twin.
func plegar(r rune) rune {
	switch {
	case unicode.IsPunct(r):
		return ' '
	case unicode.IsLower(r):
		if p, ok := sinTrazo[r]; ok {
			return p
		}
		if g, ok := gemelas[r]; ok {
			return g
		}
	}
	return r
}

// sinTrazo are the letters whose stroke, dot or bar is part of them (no decomposition drops it)
// and that a class page reads as the plain letter: «Garcıa» is «Garcia».
var sinTrazo = map[rune]rune{'ı': 'i', 'ȷ': 'j', 'ł': 'l', 'ø': 'o', 'đ': 'd', 'ħ': 'h', 'ŧ': 't', 'ƀ': 'b', 'ɨ': 'i', 'ʉ': 'u'}

// NombreRepetido is a name refused because it reads as one in the roster, or as one before it in
// the same list: matricula.ErrYaEsta, in one line that names both.
type NombreRepetido struct {
	Nombre, Otro string
	MismaLista   bool // Otro is earlier in the list being added, not in the roster
}

func (e *NombreRepetido) Error() string {
	donde := "que ya está en la lista"
	if e.MismaLista {
		donde = "que va antes en los nombres que añades"
	}
	if e.Nombre == e.Otro {
		if e.MismaLista {
			return "«" + Visible(e.Nombre) + "» está dos veces en los nombres que añades"
		}
		return "«" + Visible(e.Nombre) + "» ya está en la lista"
	}
	return "«" + Visible(e.Nombre) + "» se lee igual que «" + Visible(e.Otro) + "», " + donde
}

// Unwrap makes errors.Is(err, ErrYaEsta) hold.
func (e *NombreRepetido) Unwrap() error { return ErrYaEsta }

// Visible is a name as an error message may print it: every control, invisible or bidirectional
// character as its code point (printed raw, U+202E would turn the rest of the line around), and
// cut short when it is long.
func Visible(s string) string {
	var b strings.Builder
	n := 0
	for i, r := range s {
		if n == topes.NombreAlumno+10 {
			b.WriteString("…")
			break
		}
		n++
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], string(utf8.RuneError)):
			fmt.Fprintf(&b, "<%#02x>", s[i])
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Zs, r) && r != ' ':
			fmt.Fprintf(&b, "<%U>", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
