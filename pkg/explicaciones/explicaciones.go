// Package explicaciones is the page behind each problem type the revisor answers (RFC 9457 §3.1.1: a
// type URI should lead a person to its documentation): what happened, what a client should do
// (the decision table's action, pkg/tabladecision), whether a retry with the same Idempotency-Key is
// safe, an example response and where the lessons teach it. «revisor explicar» prints it; the
// lab's panel serves it at /problemas/<nombre>.
//
// The examples in ejemplos/ are real responses: pkg/revisor's contract test writes them from what
// the revisor answered in it (go test ./pkg/revisor -run TestContrato -actualizar) and fails when
// one no longer matches.
package explicaciones

import (
	"embed"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"cursohttp/pkg/curso"
	"cursohttp/pkg/documentoapi"
	"cursohttp/pkg/problema"
	"cursohttp/pkg/tabladecision"
)

//go:embed ejemplos
var ejemplos embed.FS

// Cita is where a lesson teaches a type: a section with its title, or the lesson alone when its
// text is not in this repository's materials.
type Cita struct {
	Leccion int
	Seccion string // "6.6.4"; "" for the lesson as a whole
	Titulo  string
}

func (c Cita) String() string {
	if c.Seccion == "" {
		return "lección " + strconv.Itoa(c.Leccion) + ": " + c.Titulo
	}
	return "lección " + strconv.Itoa(c.Leccion) + ", §" + c.Seccion + " «" + c.Titulo + "»"
}

// Pagina is everything said of one type.
type Pagina struct {
	Clave       problema.Clave
	Tipo        problema.Tipo
	Que         string                 // what happened
	Decision    tabladecision.Decision // the table's row for this status and type
	Llave       string                 // whether a retry with the same Idempotency-Key is safe
	Citas       []Cita
	Operaciones []string // the operations of the final revisor that can answer it
	Ejemplo     string   // a real response, as curl -i shows it
}

// Nombre is the type's last segment, the page's name (about:blank types are named by their key).
func (p Pagina) Nombre() string { return string(p.Clave) }

// Paginas are the pages of every type, in the catalogue's order.
func Paginas() []Pagina {
	ops := documentoapi.Operaciones()
	var ps []Pagina
	for _, c := range problema.DelRevisor() {
		t := problema.Buscar(c)
		tipo := t.Type
		d := tabladecision.Decidir(t.Status, nil, &tipo)
		e := textos[c]
		p := Pagina{Clave: c, Tipo: t, Que: e.que, Decision: d, Citas: e.citas}
		for _, op := range ops {
			if slices.Contains(op.Problemas, string(c)) {
				p.Operaciones = append(p.Operaciones, op.Metodo+" "+op.Ruta)
			}
		}
		alta := slices.Contains(p.Operaciones, "POST /servicios")
		switch {
		case e.llave != "":
			p.Llave = e.llave
		case alta:
			p.Llave = "Sí: la puerta respondió antes de mirar la llave, que no quedó reservada; repetir con ella no duplica nada."
		default:
			p.Llave = "No aplica: la Idempotency-Key solo la lee POST /servicios, y este type no sale de un alta."
		}
		if b, err := ejemplos.ReadFile("ejemplos/" + string(c) + ".txt"); err == nil {
			p.Ejemplo = string(b)
		}
		ps = append(ps, p)
	}
	return ps
}

// Buscar finds the pages a name asks for: a type's name (llave-en-curso), its whole URI, or a
// status code (409 gives every type of that code).
func Buscar(nombre string) ([]Pagina, error) {
	nombre = strings.TrimSpace(nombre)
	nombre = strings.TrimPrefix(nombre, curso.Problemas)
	var ps []Pagina
	codigo, esCodigo := strconv.Atoi(nombre)
	for _, p := range Paginas() {
		if (esCodigo == nil && p.Tipo.Status == codigo) || p.Nombre() == nombre {
			ps = append(ps, p)
		}
	}
	if len(ps) == 0 {
		if esCodigo == nil {
			return nil, fmt.Errorf("el revisor no responde %d con ningún type", codigo)
		}
		return nil, &NoExiste{Nombre: nombre}
	}
	return ps, nil
}

// NoExiste is a name Buscar found no page for: not a type the revisor answers.
type NoExiste struct{ Nombre string }

func (e *NoExiste) Error() string { return "el revisor no tiene el type «" + e.Nombre + "»" }

// Texto is the page as the terminal shows it.
func (p Pagina) Texto() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s — %d %s\n", p.Nombre(), p.Tipo.Status, p.Tipo.Title)
	fmt.Fprintf(&b, "type: %s\n\n", p.Tipo.Type)
	fmt.Fprintf(&b, "Qué pasó\n%s\n\n", envolver(p.Que))
	fmt.Fprintf(&b, "Qué hacer\n%s\n", envolver("La tabla de decisión (lección 7): "+string(p.Decision.Accion)+" — "+p.Decision.Motivo+
		". Reintenta: "+p.Decision.ReintentaTexto()+"."))
	fmt.Fprintf(&b, "%s\n\n", envolver("¿Repetir con la misma Idempotency-Key? "+p.Llave))
	if len(p.Operaciones) > 0 {
		fmt.Fprintf(&b, "Quién lo responde\n  %s\n\n", strings.Join(p.Operaciones, ", "))
	}
	if p.Ejemplo != "" {
		fmt.Fprintf(&b, "Un ejemplo (una respuesta real del revisor)\n%s\n", sangrar(p.Ejemplo))
	}
	b.WriteString("Dónde lo enseña el curso\n")
	for _, c := range p.Citas {
		fmt.Fprintf(&b, "  %s\n", c)
	}
	return b.String()
}

// envolver wraps a paragraph at 100 columns, as the suite's other help texts.
func envolver(s string) string {
	var lineas []string
	linea := ""
	for _, w := range strings.Fields(s) {
		if linea != "" && len([]rune(linea))+1+len([]rune(w)) > 100 {
			lineas = append(lineas, linea)
			linea = w
			continue
		}
		if linea != "" {
			linea += " "
		}
		linea += w
	}
	return strings.Join(append(lineas, linea), "\n")
}

func sangrar(s string) string {
	lineas := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lineas {
		if l != "" {
			lineas[i] = "  " + l
		}
	}
	return strings.Join(lineas, "\n") + "\n"
}
