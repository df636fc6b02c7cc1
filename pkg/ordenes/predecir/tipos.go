package predecir

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// Tipo is the kind of answer a question takes. Every answer, the student's and the run's, is kept
// in its canonical text (Leer's), so two answers are compared as strings and the class lab can
// store and count them without knowing the type.
type Tipo string

const (
	Codigo  Tipo = "codigo"  // an HTTP status code, 100-599
	Codigos Tipo = "codigos" // several codes, in order: «404 404 202»
	Numero  Tipo = "numero"  // a whole number, ≥ 0
	Numeros Tipo = "numeros" // several whole numbers, in order: «500 1000 2000»
	Salida  Tipo = "salida"  // a program's exit code, 0-255
	Opcion  Tipo = "opcion"  // one of Pregunta.Opciones
	SiNo    Tipo = "sino"    // «sí» or «no»
)

// Pregunta is one typed question of an exercise.
type Pregunta struct {
	ID       string   `json:"id"` // stable within its exercise
	Texto    string   `json:"texto"`
	Tipo     Tipo     `json:"tipo"`
	Opciones []string `json:"opciones,omitempty"` // Opcion: the names a student chooses from
	// Nada, when set, is also an answer: the word for «no value» (JavaScript's null, the table's
	// «—»), for a Numero whose honest answer may be none.
	Nada string `json:"nada,omitempty"`
	// Margen: a Numero within this distance of the run's counts as right (a time rounded up to the
	// next second may be one more).
	Margen int `json:"margen,omitempty"`
}

// Pista is how the question says what it takes, after its text.
func (p Pregunta) Pista() string {
	switch p.Tipo {
	case Codigo:
		return "un código de estado, p. ej. 404"
	case Codigos:
		return "códigos separados por espacios, p. ej. 404 202 429"
	case Numeros:
		return "números enteros separados por espacios, p. ej. 1 2 3"
	case Numero:
		if p.Nada != "" {
			return "un número entero, o «" + p.Nada + "» si no hay ninguno"
		}
		return "un número entero"
	case Salida:
		return "un código de salida, de 0 a 255"
	case Opcion:
		return strings.Join(p.Opciones, ", ")
	case SiNo:
		return "sí o no"
	}
	return ""
}

// Leer checks a typed answer and returns it in canonical form, or one Spanish sentence saying why
// it is not an answer to this question.
func (p Pregunta) Leer(texto string) (string, error) {
	t := strings.TrimSpace(texto)
	if t == "" {
		return "", fmt.Errorf("falta la respuesta (%s)", p.Pista())
	}
	switch p.Tipo {
	case Codigo:
		return leerCodigo(t)
	case Codigos:
		campos := strings.FieldsFunc(t, func(r rune) bool { return unicode.IsSpace(r) || r == ',' })
		for i, c := range campos {
			var err error
			if campos[i], err = leerCodigo(c); err != nil {
				return "", err
			}
		}
		return strings.Join(campos, " "), nil
	case Numeros:
		campos := strings.FieldsFunc(t, func(r rune) bool { return unicode.IsSpace(r) || r == ',' })
		for i, c := range campos {
			n, err := strconv.Atoi(c)
			if err != nil || n < 0 {
				return "", fmt.Errorf("«%s» no es un número entero (escríbelo con cifras: 4, no cuatro)", c)
			}
			campos[i] = strconv.Itoa(n)
		}
		return strings.Join(campos, " "), nil
	case Numero:
		if p.Nada != "" && strings.EqualFold(t, p.Nada) {
			return p.Nada, nil
		}
		n, err := strconv.Atoi(t)
		if err != nil || n < 0 {
			return "", fmt.Errorf("«%s» no es un número entero (escríbelo con cifras: 4, no cuatro)", t)
		}
		return strconv.Itoa(n), nil
	case Salida:
		n, err := strconv.Atoi(t)
		if err != nil || n < 0 || n > 255 {
			return "", fmt.Errorf("«%s» no es un código de salida (un número de 0 a 255)", t)
		}
		return strconv.Itoa(n), nil
	case Opcion:
		for _, o := range p.Opciones {
			if strings.EqualFold(t, o) {
				return o, nil
			}
		}
		return "", fmt.Errorf("«%s» no es una de las opciones: %s", t, strings.Join(p.Opciones, ", "))
	case SiNo:
		switch strings.ToLower(t) {
		case "sí", "si", "s":
			return "sí", nil
		case "no", "n":
			return "no", nil
		}
		return "", fmt.Errorf("«%s» no es sí ni no", t)
	}
	return "", fmt.Errorf("la pregunta %s no tiene tipo", p.ID)
}

func leerCodigo(t string) (string, error) {
	n, err := strconv.Atoi(t)
	if err != nil || n < 100 || n > 599 {
		return "", fmt.Errorf("«%s» no es un código de estado HTTP (un número de 100 a 599)", t)
	}
	return strconv.Itoa(n), nil
}

// Acierta reports whether the canonical answer dada matches the run's real one.
func (p Pregunta) Acierta(dada, real string) bool {
	if dada == real {
		return true
	}
	if p.Tipo == Numero && p.Margen > 0 {
		a, err1 := strconv.Atoi(dada)
		b, err2 := strconv.Atoi(real)
		return err1 == nil && err2 == nil && a-b <= p.Margen && b-a <= p.Margen
	}
	return false
}
