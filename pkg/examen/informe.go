package examen

import (
	"encoding/json"
	"fmt"
	"io"
	"time"
)

// Informe is a grading run: what was run, each intent as observed, and each check's verdict.
type Informe struct {
	Semilla        uint64
	Orden          string
	Pasarela       string
	Limite         time.Duration
	Duracion       time.Duration
	Intenciones    []*Intencion
	Comprobaciones []Comprobacion
	// Avisos are what happened before any check could judge it, said first (a client that did not
	// start, a refused credential, attempts that skipped the gateway, requests of another grading).
	Avisos []string
	// Ajenas counts the requests that were not this run's: refused, not judged.
	Ajenas int
}

// Juzgadas is how many checks judged something: «N de M» counts only these.
func (inf *Informe) Juzgadas() int {
	n := 0
	for _, c := range inf.Comprobaciones {
		if c.Juzgada() {
			n++
		}
	}
	return n
}

// Pasaron is how many checks passed.
func (inf *Informe) Pasaron() int {
	n := 0
	for _, c := range inf.Comprobaciones {
		if c.Paso {
			n++
		}
	}
	return n
}

// Codigo is the exit code of the run: 0 only when every check was judged and passed, the client
// started every time and no attempt skipped the gateway. A check not judged is not a pass: a correct
// client meets every premise, so one left unjudged is a situation the client avoided.
func (inf *Informe) Codigo() int {
	if inf.Pasaron() != len(inf.Comprobaciones) {
		return 1
	}
	for _, in := range inf.Intenciones {
		if in.Arranque != "" {
			return 1
		}
		for _, a := range in.Intentos {
			if a.Directo {
				return 1
			}
		}
	}
	return 0
}

// Escribir prints the report as the course's checkers do: «ok» or «FALLA» and the check, the
// failures indented below, and «N de M» at the end. Nothing in it depends on the machine's timing
// or on the client's own randomness beyond its verdicts: the same seed gives the same report.
func (inf *Informe) Escribir(w io.Writer) {
	fmt.Fprintf(w, "comprobar cliente: %s, %d altas con la semilla %d\n\n", inf.Orden, len(inf.Intenciones), inf.Semilla)
	for _, a := range inf.Avisos {
		fmt.Fprintf(w, "AVISO %s\n", a)
	}
	if len(inf.Avisos) > 0 {
		fmt.Fprintln(w)
	}
	escribirLista(w, inf.Comprobaciones, anchoID, "del cliente")
}

// anchoID is the report's column of check ids: a longer id would push its line out of line.
const anchoID = 20

// intencionJSON is an intent as --json shows it: only what does not depend on timing.
type intencionJSON struct {
	Escenario  string   `json:"escenario"`
	Nombre     string   `json:"nombre"`
	Intentos   int      `json:"intentos"`
	Respuestas []string `json:"respuestas"`
	Salida     *int     `json:"codigo_de_salida"` // null: stopped at the limit, or never started
	Arranque   string   `json:"no_arranco,omitempty"`
	Directos   int      `json:"directos_al_revisor,omitempty"`
	Registrada bool     `json:"alta_hecha"`
}

// JSON writes the report as one JSON object: the seed, the warnings, the checks (id, paso, estado,
// line, details), how many passed of how many judged and the total, and each intent (scenario, name, attempts and what each one got, exit code, whether the
// registration exists).
func (inf *Informe) JSON(w io.Writer) error {
	v := struct {
		Semilla        uint64          `json:"semilla"`
		Orden          string          `json:"orden"`
		Avisos         []string        `json:"avisos,omitempty"`
		Pasaron        int             `json:"pasaron"`
		Juzgadas       int             `json:"juzgadas"`
		Total          int             `json:"total"`
		Comprobaciones []Comprobacion  `json:"comprobaciones"`
		Intenciones    []intencionJSON `json:"intenciones"`
	}{inf.Semilla, inf.Orden, inf.Avisos, inf.Pasaron(), inf.Juzgadas(), len(inf.Comprobaciones), inf.Comprobaciones, nil}
	for _, in := range inf.Intenciones {
		j := intencionJSON{Escenario: in.Escenario.ID, Nombre: in.Nombre, Intentos: len(in.Intentos), Registrada: in.Registrada, Respuestas: []string{}}
		for _, a := range in.Intentos {
			j.Respuestas = append(j.Respuestas, visto(a))
			if a.Directo {
				j.Directos++
			}
		}
		j.Arranque = in.Arranque
		if !in.Detenido && in.Arranque == "" {
			s := in.Salida
			j.Salida = &s
		}
		v.Intenciones = append(v.Intenciones, j)
	}
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	return e.Encode(v)
}

// visto is what the client got from one attempt, in a word: «201», «502», «409 llave-en-curso»,
// «sin respuesta».
func visto(a Intento) string {
	if a.Cliente == 0 {
		return "sin respuesta"
	}
	return fmt.Sprint(a.Cliente) + TipoCorto(a.Type) // TipoCorto("") is ""
}

// EscribirComprobaciones prints checks as the course's checkers do, with «N de M … pasaron» at the
// end, que naming what was checked («del servidor»).
func EscribirComprobaciones(w io.Writer, cs []Comprobacion, que string) {
	escribirLista(w, cs, 23, que)
}

// escribirLista is the checkers' list: «ok», «FALLA» or «—» (not judged) and the check's id in a
// column ancho wide and its line, the failures indented below, and «N de M comprobaciones que
// pasaron» at the end, M counting only the judged ones.
func escribirLista(w io.Writer, cs []Comprobacion, ancho int, que string) {
	bien, juzgadas := 0, 0
	for _, c := range cs {
		marca := "ok   "
		switch {
		case !c.Juzgada():
			marca = "—    "
		case c.Paso:
			bien++
			juzgadas++
		default:
			marca = "FALLA"
			juzgadas++
		}
		fmt.Fprintf(w, "%s %-*s %s\n", marca, ancho, c.ID, c.Linea)
		for _, d := range c.Detalles {
			fmt.Fprintf(w, "      %s\n", d)
		}
	}
	fmt.Fprintf(w, "\n%d de %d comprobaciones %s pasaron", bien, juzgadas, que)
	if n := len(cs) - juzgadas; n > 0 {
		fmt.Fprintf(w, "; %d no se juzg%s", n, plural(n, "ó", "aron"))
	}
	fmt.Fprintln(w)
}
