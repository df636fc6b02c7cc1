package pizarra

import (
	"bytes"
	"context"
	"encoding/csv"
	"net/http"
	"strconv"
	"time"

	"cursohttp/pkg/respuesta"
	"cursohttp/pkg/topes"
)

// The grades out of the class lab (issue 40, item 8): «laboratorio clase exportar» asks these
// routes, with the instructor's token, for CSV a gradebook imports (RFC 4180 as encoding/csv
// writes it: CRLF line ends, a field with a comma, a quote or a line end quoted; UTF-8, no BOM;
// the names as the roster keeps them).
const (
	RutaExportarNotas        = "/clase/exportar/notas"        // GET: the board, one row per roster name
	RutaExportarPredicciones = "/clase/exportar/predicciones" // GET: every prediction's answers, by student (pkg/clase)
)

// TipoCSV is the exports' Content-Type (RFC 4180's text/csv, with its header parameter).
const TipoCSV = "text/csv; charset=utf-8; header=present"

// The board's states as the export writes them: the board's own vocabulary, and «pendiente» for
// a student never graded. A cell is empty when the student's last grading had no such check (one
// made before the check was in the grader's table).
const (
	EstadoPaso      = "paso"
	EstadoFallo     = "fallo"
	EstadoPendiente = "pendiente"
)

// Columns of the grades' CSV before the checks'.
var cabeceraNotas = []string{"alumno", "ultima_calificacion", "pasaron", "juzgadas"}

// FormatoHora is how the exports write a time: RFC 3339 with the lab's offset, to the second.
const FormatoHora = time.RFC3339

// exportarNotas is the board as CSV: a header (alumno, ultima_calificacion, pasaron, juzgadas and
// each column's id, in the board's order), then one row per roster name, in the roster's order.
// The instructor's only: a gradebook's file is not the projector's.
func (t *Tablero) exportarNotas(w http.ResponseWriter, r *http.Request) {
	if !t.delProfesor(w, r) {
		return
	}
	ctx, cancelar := context.WithTimeout(r.Context(), esperaAlmacen)
	defer cancelar()
	alumnos, err := t.o.Almacen.Alumnos(ctx)
	if err != nil {
		t.fallaDelAlmacen(w, r, "leer la lista", err)
		return
	}
	ultimas, err := t.o.Almacen.Ultimas(ctx)
	if err != nil {
		t.fallaDelAlmacen(w, r, "leer las calificaciones", err)
		return
	}
	var b bytes.Buffer
	cw := csv.NewWriter(&b)
	cw.UseCRLF = true
	cabecera := append([]string{}, cabeceraNotas...)
	for _, c := range t.o.Columnas {
		cabecera = append(cabecera, c.ID)
	}
	cw.Write(cabecera) //nolint:errcheck // a buffer; cw.Error below
	for _, a := range alumnos[:min(len(alumnos), topes.Alumnos)] {
		fila := make([]string, len(cabecera))
		fila[0] = a.Nombre
		c, ok := ultimas[a.Nombre]
		if !ok {
			for i := range t.o.Columnas {
				fila[len(cabeceraNotas)+i] = EstadoPendiente
			}
			cw.Write(fila) //nolint:errcheck // a buffer
			continue
		}
		if !c.Fin.IsZero() {
			fila[1] = c.Fin.Local().Format(FormatoHora)
		}
		pasaron, juzgadas := 0, 0
		for _, v := range t.veredictos(c.Comprobaciones) {
			fila[len(cabeceraNotas)+t.columnas[v.ID]] = v.Estado
			switch v.Estado {
			case EstadoPaso:
				pasaron++
				juzgadas++
			case EstadoFallo:
				juzgadas++
			}
		}
		fila[2], fila[3] = strconv.Itoa(pasaron), strconv.Itoa(juzgadas)
		cw.Write(fila) //nolint:errcheck // a buffer
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		t.fallaDelAlmacen(w, r, "escribir el CSV", err)
		return
	}
	w.Header().Set("Content-Disposition", `attachment; filename="notas.csv"`)
	respuesta.Bytes(w, r, http.StatusOK, TipoCSV, b.Bytes())
}
