//go:build unix

package main

import (
	"fmt"
	"strings"
)

// Elision is the lesson's own mark for "lines left out" (L7 S7 prints a lab
// terminal ending in …). A line that is only … matches any number of lines;
// a line ending in … matches any line that starts with what comes before it.
const Elision = "…"

func coincide(esperada, obtenida string) bool {
	if esperada == obtenida {
		return true
	}
	if p, ok := strings.CutSuffix(esperada, Elision); ok && esperada != Elision {
		return strings.HasPrefix(obtenida, p)
	}
	return false
}

type operacion int

const (
	igual operacion = iota
	quitar
	agregar
	absorber // an obtained line covered by an … line
)

type edicion struct {
	op   operacion
	e, o int // indexes into esperado / obtenido
}

// alinear finds the cheapest way to turn esperado into obtenido, where each
// line added or removed costs one and … lines absorb obtained lines for free.
// The texts are small (a scene's output), so the plain quadratic table is fine.
func alinear(esperado, obtenido []string) []edicion {
	n, m := len(esperado), len(obtenido)
	costo := make([][]int, n+1)
	for i := range costo {
		costo[i] = make([]int, m+1)
	}
	for i := n; i >= 0; i-- {
		for j := m; j >= 0; j-- {
			switch {
			case i == n:
				costo[i][j] = m - j
			case esperado[i] == Elision:
				costo[i][j] = costo[i+1][j]
				if j < m && costo[i][j+1] < costo[i][j] {
					costo[i][j] = costo[i][j+1]
				}
			case j == m:
				costo[i][j] = 1 + costo[i+1][j]
			default:
				c := 1 + min(costo[i+1][j], costo[i][j+1])
				if coincide(esperado[i], obtenido[j]) && costo[i+1][j+1] <= c {
					c = costo[i+1][j+1]
				}
				costo[i][j] = c
			}
		}
	}
	var eds []edicion
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && esperado[i] == Elision:
			if j < m && costo[i][j+1] <= costo[i+1][j] {
				eds = append(eds, edicion{absorber, i, j})
				j++
			} else {
				i++
			}
		case i < n && j < m && coincide(esperado[i], obtenido[j]) && costo[i][j] == costo[i+1][j+1]:
			eds = append(eds, edicion{igual, i, j})
			i++
			j++
		case i < n && (j == m || costo[i][j] == 1+costo[i+1][j]):
			eds = append(eds, edicion{quitar, i, j})
			i++
		default:
			eds = append(eds, edicion{agregar, i, j})
			j++
		}
	}
	return eds
}

// Diferencia compares one block, both sides already normalised: esperado
// holds the transcript's lines with their line numbers, obtenido what the
// program printed. It returns "" when they match, otherwise a unified diff
// whose "-" side is numbered by transcript line, so the instructor can open
// the file right there. paso is the line of the command (or directive) the
// block belongs to, used when there is no expected line to point at.
func Diferencia(ruta string, paso int, esperado []Linea, titulo string, obtenido []string) string {
	textos := make([]string, len(esperado))
	for i, l := range esperado {
		textos[i] = l.Texto
	}
	eds := alinear(textos, obtenido)
	distinto := false
	for _, d := range eds {
		if d.op == quitar || d.op == agregar {
			distinto = true
			break
		}
	}
	if !distinto {
		return ""
	}
	const contexto = 3
	var b strings.Builder
	fmt.Fprintf(&b, "--- %s (como en la lección)\n+++ %s\n", ruta, titulo)
	// Group edits into hunks: runs of changes with up to 2*contexto equal lines between them.
	cambia := func(k int) bool { return eds[k].op == quitar || eds[k].op == agregar }
	for k := 0; k < len(eds); {
		if !cambia(k) {
			k++
			continue
		}
		ini := max(0, k-contexto)
		fin := k
		for fin < len(eds) {
			if cambia(fin) {
				fin++
				continue
			}
			// Look ahead: does another change come within 2*contexto lines?
			siguiente := fin
			for siguiente < len(eds) && !cambia(siguiente) && siguiente-fin < 2*contexto {
				siguiente++
			}
			if siguiente < len(eds) && cambia(siguiente) {
				fin = siguiente
				continue
			}
			break
		}
		hasta := min(len(eds), fin+contexto)
		escribirTrozo(&b, ruta, paso, eds[ini:hasta], esperado, obtenido)
		k = hasta
	}
	return b.String()
}

func escribirTrozo(b *strings.Builder, ruta string, paso int, eds []edicion, esperado []Linea, obtenido []string) {
	var lineas []string
	desdeE, desdeO, nE, nO := 0, 0, 0, 0
	primera := 0 // the transcript line of the first difference
	for _, d := range eds {
		if primera != 0 {
			break
		}
		switch {
		case d.op == quitar:
			primera = esperado[d.e].Numero
		case d.op == agregar && d.e < len(esperado):
			primera = esperado[d.e].Numero
		case d.op == agregar && len(esperado) > 0:
			primera = esperado[len(esperado)-1].Numero + 1
		}
	}
	for _, d := range eds {
		switch d.op {
		case igual:
			lineas = append(lineas, " "+esperado[d.e].Texto)
			nE++
			nO++
		case absorber:
			lineas = append(lineas, " "+obtenido[d.o])
			nO++
		case quitar:
			lineas = append(lineas, "-"+esperado[d.e].Texto)
			nE++
		case agregar:
			lineas = append(lineas, "+"+obtenido[d.o])
			nO++
		}
		if desdeE == 0 && d.op != agregar && d.op != absorber {
			desdeE = esperado[d.e].Numero
		}
		if desdeO == 0 && d.op != quitar {
			desdeO = d.o + 1
		}
	}
	if desdeE == 0 {
		// Only additions: point at the expected line they would follow.
		if i := eds[0].e; i < len(esperado) {
			desdeE = esperado[i].Numero
		} else if len(esperado) > 0 {
			desdeE = esperado[len(esperado)-1].Numero + 1
		} else {
			desdeE = paso + 1
		}
	}
	if desdeO == 0 {
		desdeO = eds[0].o + 1
	}
	if primera == 0 {
		primera = desdeE
	}
	fmt.Fprintf(b, "@@ -%d,%d +%d,%d @@ %s:%d\n", desdeE, nE, desdeO, nO, ruta, primera)
	for _, l := range lineas {
		b.WriteString(strings.TrimRight(l, "\r"))
		b.WriteByte('\n')
	}
}
