package variantes

import (
	"fmt"
	"strconv"
	"strings"
)

// Valor is one value of --leccion, --defecto or --ejercicio as a shell offers it on Tab: the value
// and where the course runs it (its lesson and section).
type Valor struct {
	Texto       string
	Descripcion string
}

// ProgramaDe is the program whose variant flags a command carries, from its command path: the
// longest start of it that carries variants («revisor servir» carries the revisor's).
func ProgramaDe(ruta string) (Programa, bool) {
	for palabras := strings.Fields(ruta); len(palabras) > 0; palabras = palabras[:len(palabras)-1] {
		p := Programa(strings.Join(palabras, " "))
		if len(Lecciones(p)) > 0 || len(De(p, Defecto)) > 0 || len(De(p, Ejercicio)) > 0 {
			return p, true
		}
	}
	return "", false
}

// ValoresLeccion are p's --leccion values, each with its lesson's program.
func ValoresLeccion(p Programa) []Valor {
	var vs []Valor
	for _, v := range Versiones {
		if v.Programa != p {
			continue
		}
		quien := "lección " + strconv.Itoa(v.Lecciones[0])
		if len(v.Lecciones) > 1 {
			quien = "lecciones " + lista(v.Lecciones)
		}
		for _, l := range v.Lecciones {
			vs = append(vs, Valor{strconv.Itoa(l), fmt.Sprintf("%s (%s): %s", quien, v.Figura, v.Descripcion)})
		}
	}
	return vs
}

// ValoresDefecto are p's --defecto values, each with its lesson and section.
func ValoresDefecto(p Programa) []Valor {
	var vs []Valor
	for _, v := range De(p, Defecto) {
		vs = append(vs, Valor{v.Nombre, fmt.Sprintf("lección %d, %s", v.Leccion, v.Seccion)})
	}
	return vs
}

// ValoresEjercicio are p's --ejercicio values, each with its lesson and section. With leccion (the
// --leccion on the line; 0 if none) only that lesson's; without it, a number two lessons share is
// one value that names both.
func ValoresEjercicio(p Programa, leccion int) []Valor {
	var vs []Valor
	donde := map[string]int{}
	for _, v := range De(p, Ejercicio) {
		if leccion != 0 && !mismoPrograma(p, leccion, v.Leccion) {
			continue
		}
		texto, desc := strconv.Itoa(v.Numero), fmt.Sprintf("lección %d, %s", v.Leccion, v.Seccion)
		if i, ya := donde[texto]; ya {
			vs[i].Descripcion += " · " + desc + " (di cuál con --leccion)"
			continue
		}
		donde[texto] = len(vs)
		vs = append(vs, Valor{texto, desc})
	}
	return vs
}
