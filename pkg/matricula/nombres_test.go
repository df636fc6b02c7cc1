package matricula

import (
	"errors"
	"strings"
	"testing"
)

func TestNormalizar(t *testing.T) {
	t.Parallel()
	casos := []struct {
		caso, entrada string
		quiere        string // the name kept, when it is valid
		motivo        string // part of the reason, when it is not
	}{
		{caso: "tal cual", entrada: "Ana", quiere: "Ana"},
		{caso: "nombre compuesto", entrada: "María José", quiere: "María José"},
		{caso: "apóstrofo", entrada: "O'Neill", quiere: "O'Neill"},
		{caso: "guion", entrada: "Jean-Luc", quiere: "Jean-Luc"},
		{caso: "puntos", entrada: "J. R. Tolkien", quiere: "J. R. Tolkien"},
		{caso: "con número", entrada: "Ana 2", quiere: "Ana 2"},
		{caso: "empieza por un número", entrada: "2 Ana", quiere: "2 Ana"},
		{caso: "punto al final", entrada: "Ana García.", quiere: "Ana García."},
		{caso: "i sin punto y un acento", entrada: "Ana Garc\u0131\u0301a", quiere: "Ana Garc\u0131\u0301a"},
		{caso: "espacios alrededor y de más", entrada: "  Ana    María ", quiere: "Ana María"},
		{caso: "la línea de un archivo", entrada: "Ana\t\r\n", quiere: "Ana"},
		{caso: "espacio duro dentro", entrada: "Ana\u00a0\u00a0María", quiere: "Ana María"},
		{caso: "Óscar compuesto", entrada: "\u00d3scar", quiere: "\u00d3scar"},
		{caso: "Óscar descompuesto queda compuesto", entrada: "O\u0301scar", quiere: "\u00d3scar"},
		{caso: "cirílico entero", entrada: "Ана", quiere: "Ана"},
		{caso: "griego entero", entrada: "Σοφία", quiere: "Σοφία"},
		{caso: "japonés: kanji y kana juntos", entrada: "田中 さくら", quiere: "田中 さくら"},
		{caso: "coreano", entrada: "김민준", quiere: "김민준"},
		{caso: "vietnamita", entrada: "Nguyễn Thị Minh Khai", quiere: "Nguyễn Thị Minh Khai"},
		{caso: "60 caracteres", entrada: strings.Repeat("á", 60), quiere: strings.Repeat("á", 60)},
		{caso: "60 caracteres con espacios de más", entrada: strings.Repeat("a  ", 30), quiere: strings.TrimSpace(strings.Repeat("a ", 30))},

		{caso: "vacío", entrada: "", motivo: "está vacío"},
		{caso: "solo espacios", entrada: " \t ", motivo: "está vacío"},
		{caso: "61 caracteres", entrada: strings.Repeat("a", 61), motivo: "tiene 61 caracteres, más de 60"},
		{caso: "enorme", entrada: strings.Repeat("a", 10000), motivo: "más de 60"},
		{caso: "espacio de ancho cero", entrada: "Ana\u200b", motivo: "carácter invisible (U+200B)"},
		{caso: "ZWJ", entrada: "An\u200da", motivo: "carácter invisible (U+200D)"},
		{caso: "BOM", entrada: "\ufeffAna", motivo: "carácter invisible (U+FEFF)"},
		{caso: "guion blando", entrada: "Ana\u00adMaría", motivo: "carácter invisible (U+00AD)"},
		{caso: "U+202E", entrada: "Ana\u202eetoh", motivo: "control de dirección del texto (U+202E)"},
		{caso: "U+2066", entrada: "\u2066Ana", motivo: "control de dirección del texto (U+2066)"},
		{caso: "U+200F", entrada: "Ana\u200f", motivo: "control de dirección del texto (U+200F)"},
		{caso: "U+061C", entrada: "Ana\u061c", motivo: "control de dirección del texto (U+061C)"},
		{caso: "control", entrada: "Ana\x07", motivo: "carácter de control (U+0007)"},
		{caso: "tabulador dentro", entrada: "Ana\tMaría", motivo: "carácter de control (U+0009)"},
		{caso: "emoji", entrada: "Ana 😀", motivo: "tiene «😀» (U+1F600)"},
		{caso: "arroba", entrada: "ana@clase", motivo: "tiene «@»"},
		{caso: "uso privado", entrada: "Ana\ue000", motivo: "(U+E000)"},
		{caso: "acento suelto", entrada: "\u0301Ana", motivo: "acento suelto (U+0301)"},
		{caso: "acento tras un guion", entrada: "Ana-\u0301", motivo: "acento suelto"},
		{caso: "UTF-8 roto", entrada: "Ana\xff", motivo: "no es texto UTF-8 válido"},
		{caso: "A cirílica en nombre latino", entrada: "Аna", motivo: "mezcla alfabetos (cirílico y latino)"},
		{caso: "ómicron griega en nombre latino", entrada: "Ramοn", motivo: "mezcla alfabetos (latino y griego)"},
		{caso: "latino y japonés", entrada: "Ana さくら", motivo: "mezcla alfabetos"},
		{caso: "empieza por un guion (una fórmula en una hoja de cálculo)", entrada: "-Ana", motivo: "empieza por «-»: un nombre empieza por una letra o un número"},
		{caso: "empieza por un punto", entrada: ".Ana", motivo: "empieza por «.»"},
		{caso: "empieza por un apóstrofo", entrada: "'Ana", motivo: "empieza por «'»"},
		{caso: "solo puntos", entrada: "...", motivo: "empieza por «.»"},
	}
	for _, c := range casos {
		got, err := Normalizar(c.entrada)
		if c.motivo == "" {
			if err != nil || got != c.quiere {
				t.Errorf("%s: Normalizar(%q) = %q, %v; se esperaba %q", c.caso, c.entrada, got, err, c.quiere)
				continue
			}
			if otra, err := Normalizar(got); err != nil || otra != got {
				t.Errorf("%s: normalizar otra vez %q da %q, %v", c.caso, got, otra, err)
			}
			continue
		}
		var inv *NombreInvalido
		if !errors.As(err, &inv) || !strings.Contains(inv.Motivo, c.motivo) || inv.Nombre != c.entrada {
			t.Errorf("%s: Normalizar(%q) = %q, %v; se esperaba *NombreInvalido con «%s»", c.caso, c.entrada, got, err, c.motivo)
			continue
		}
		// The message is one line, prints no character that turns it around or hides, and is short.
		msg := err.Error()
		if strings.ContainsAny(msg, "\n\r\t\u202e\u2066\u200b\u200d\u200f\u061c\ufeff\u00ad\x07") || len(msg) > 400 {
			t.Errorf("%s: el mensaje muestra lo que no se ve: %q", c.caso, msg)
		}
	}
}

// Two names read the same when their skeletons are one: the look-alike letters of another script
// count as their Latin twins, case does not.
func TestEsqueleto(t *testing.T) {
	t.Parallel()
	casos := []struct {
		a, b  string
		igual bool
	}{
		{"Ana", "Аna", true},   // Cyrillic А
		{"Poca", "Роса", true}, // Cyrillic Р, о, с, а
		{"AHA", "АНА", true},   // Cyrillic А, Н
		{"KATO", "ΚΑΤΟ", true}, // Greek
		{"Ópera", "О\u0301pera", true},
		{"Ëva", "Ёva", true}, // Cyrillic Ё is Е and a diaeresis
		{"Ana", "Ана", false},
		{"Ana", "ana", false},
		{"Ana", "Ána", false},
	}
	for _, c := range casos {
		if got := Esqueleto(c.a) == Esqueleto(c.b); got != c.igual {
			t.Errorf("Esqueleto(%q) == Esqueleto(%q): %v; se esperaba %v", c.a, c.b, got, c.igual)
		}
	}
}

// Names that read the same are one name (issue 40, item 6): case, accents, a dotless ı, the
// punctuation and the spaces do not tell two apart; the letters do.
func TestClave(t *testing.T) {
	t.Parallel()
	mismas := [][]string{
		{"Ana García", "Ana Garc\u0131\u0301a", "Ana Garcia", "ana garcía", "ANA GARCÍA", "Ana García.", "Ana  García", "Ana Garci\u0301a", "Ana\u00a0García"},
		{"Jean-Luc", "Jean Luc", "JEAN-LUC", "Jean - Luc"},
		{"J. R. Tolkien", "J.R. Tolkien", "J R Tolkien"},
		{"O'Neill", "O Neill", "o'neill"},
		{"Strauß", "Strauss", "STRAUSS"},
		{"İlker", "ilker", "Ilker"},
		{"Łukasz", "Lukasz"},
		{"Søren", "Soren"},
		{"Ａｎａ", "Ana"},           // fullwidth letters
		{"Роса", "Poca", "poca"}, // Cyrillic р, о, с, а read as Latin
		{"Ана", "АНА"},           // one Cyrillic name in two cases
		{"Σοφία", "ΣΟΦΊΑ", "σοφια"},
		{"Nguyễn Thị", "Nguyen Thi", "NGUYỄN THỊ"},
	}
	for _, grupo := range mismas {
		for _, otro := range grupo[1:] {
			if Clave(grupo[0]) != Clave(otro) {
				t.Errorf("Clave(%q) = %q y Clave(%q) = %q: se leen igual", grupo[0], Clave(grupo[0]), otro, Clave(otro))
			}
		}
	}
	distintas := [][2]string{{"Ana", "Ano"}, {"Ana", "Ана"}, {"Ana María", "AnaMaría"}, {"Ana 2", "Ana 3"}, {"O'Neill", "ONeill"}, {"Eva", "Ева"}}
	for _, p := range distintas {
		if Clave(p[0]) == Clave(p[1]) {
			t.Errorf("Clave(%q) == Clave(%q) == %q: se leen distinto", p[0], p[1], Clave(p[0]))
		}
	}
	// The key of a key is itself, and no key is empty for a name Normalizar takes.
	for _, grupo := range mismas {
		for _, n := range grupo {
			if k := Clave(n); Clave(k) != k || k == "" {
				t.Errorf("Clave(Clave(%q)) = %q, Clave = %q", n, Clave(k), k)
			}
		}
	}
}

// A repeated name says, in one line, which one it reads as and where that one is.
func TestNombreRepetido(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		e      *NombreRepetido
		quiere string
	}{
		{&NombreRepetido{Nombre: "Ana Garcia", Otro: "Ana García"}, "«Ana Garcia» se lee igual que «Ana García», que ya está en la lista"},
		{&NombreRepetido{Nombre: "ana garcía", Otro: "Ana García", MismaLista: true}, "«ana garcía» se lee igual que «Ana García», que va antes en los nombres que añades"},
		{&NombreRepetido{Nombre: "Ana", Otro: "Ana"}, "«Ana» ya está en la lista"},
		{&NombreRepetido{Nombre: "Ana", Otro: "Ana", MismaLista: true}, "«Ana» está dos veces en los nombres que añades"},
	} {
		if c.e.Error() != c.quiere || !errors.Is(c.e, ErrYaEsta) {
			t.Errorf("%q; se esperaba %q (y ErrYaEsta)", c.e.Error(), c.quiere)
		}
	}
}
