package predecir

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// The history is one JSON line per exercise answered, newest last. Past TopeHistorial bytes the
// oldest lines go, down to half of it, so the file never grows without bound.
const TopeHistorial = 256 << 10

// Entrada is one exercise answered and run, alone or in class: what a student keeps.
type Entrada struct {
	Cuando     time.Time    `json:"cuando"`
	Ejercicio  string       `json:"ejercicio"`
	Respuestas []Calificada `json:"respuestas"`
	Aciertos   int          `json:"aciertos"`
	Total      int          `json:"total"`
}

// Calificada is one question: the student's answer beside the run's.
type Calificada struct {
	Pregunta string `json:"pregunta"`
	Dada     string `json:"dada"`
	Real     string `json:"real"`
	Acierto  bool   `json:"acierto"`
	Porque   string `json:"porque,omitempty"`
}

// HistorialPorOmision is predicciones.jsonl in the user's configuration directory (on Linux
// $XDG_CONFIG_HOME/cursohttp or ~/.config/cursohttp; %AppData% on Windows; ~/Library/Application
// Support on macOS).
func HistorialPorOmision() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "predicciones.jsonl"
	}
	return filepath.Join(dir, "cursohttp", "predicciones.jsonl")
}

// Guardar appends e to the history at ruta, trimming the oldest entries past TopeHistorial. The
// file is replaced whole (a temporary file renamed over it), so a cut never leaves half a line.
func Guardar(ruta string, e Entrada) error {
	linea, err := json.Marshal(e)
	if err != nil {
		return err
	}
	previo, err := os.ReadFile(ruta)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	datos := append(previo, append(linea, '\n')...)
	if len(datos) > TopeHistorial {
		for len(datos) > TopeHistorial/2 {
			i := bytes.IndexByte(datos, '\n')
			if i < 0 || i == len(datos)-1 {
				break
			}
			datos = datos[i+1:]
		}
	}
	if err := os.MkdirAll(filepath.Dir(ruta), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(ruta), ".predicciones-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(datos); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), ruta)
}

// Leer reads the history at ruta; a line that is not an entry (a hand edit) is skipped.
func Leer(ruta string) ([]Entrada, error) {
	f, err := os.Open(ruta)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var es []Entrada
	s := bufio.NewScanner(f)
	s.Buffer(make([]byte, 0, 64<<10), TopeHistorial)
	for s.Scan() {
		var e Entrada
		if json.Unmarshal(s.Bytes(), &e) == nil && e.Ejercicio != "" {
			es = append(es, e)
		}
	}
	return es, s.Err()
}

// Mostrar writes the history for a person: one line per exercise, and each miss under it.
func Mostrar(w io.Writer, es []Entrada) {
	if len(es) == 0 {
		fmt.Fprintln(w, "El historial está vacío: todavía no has respondido ningún ejercicio.")
		return
	}
	for _, e := range es {
		fmt.Fprintf(w, "%s  %s: %d de %d\n", e.Cuando.Local().Format("2006-01-02 15:04"), e.Ejercicio, e.Aciertos, e.Total)
		for _, r := range e.Respuestas {
			if !r.Acierto {
				fmt.Fprintf(w, "    ✘ %s: dijiste %s; la corrida dio %s\n", r.Pregunta, r.Dada, r.Real)
			}
		}
	}
}
