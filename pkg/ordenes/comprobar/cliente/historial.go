package cliente

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"cursohttp/pkg/cli"
	"cursohttp/pkg/examen"
	"cursohttp/pkg/ordenes/entorno"
)

// A student alone keeps their own gradings on their machine (issue 40, item 9): one JSON line per
// grading judged, newest last, as revisor predecir keeps its answers (pkg/ordenes/predecir). The
// file is bounded in bytes and in entries: past either, the oldest lines go.
const (
	TopeHistorial = 256 << 10 // bytes of the file
	TopeEntradas  = 500       // gradings kept
	TopeOrden     = 1 << 10   // bytes of the client's command kept in an entry: a long one is cut
)

// Calificacion is one local grading as the history keeps it: when it ended, its seed and the
// client's command, «N de M» and each check's state.
type Calificacion struct {
	Cuando         time.Time       `json:"cuando"`
	Semilla        uint64          `json:"semilla"`
	Orden          string          `json:"orden"`
	Pasaron        int             `json:"pasaron"`
	Juzgadas       int             `json:"juzgadas"`
	Total          int             `json:"total"`
	Comprobaciones []EstadoDeCheck `json:"comprobaciones"`
}

// EstadoDeCheck is one check of a grading kept: its id and examen's state (paso, fallo,
// no-juzgada).
type EstadoDeCheck struct {
	ID     string `json:"id"`
	Estado string `json:"estado"`
}

// HistorialPorOmision is calificaciones.jsonl beside revisor predecir's history, in the user's
// configuration directory (on Linux $XDG_CONFIG_HOME/cursohttp or ~/.config/cursohttp;
// %AppData% on Windows; ~/Library/Application Support on macOS).
func HistorialPorOmision() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "calificaciones.jsonl"
	}
	return filepath.Join(dir, "cursohttp", "calificaciones.jsonl")
}

// DelInforme is what the history keeps of a judged grading that ended at cuando.
func DelInforme(inf *examen.Informe, cuando time.Time) Calificacion {
	c := Calificacion{Cuando: cuando.UTC(), Semilla: inf.Semilla, Orden: recortar(inf.Orden, TopeOrden),
		Pasaron: inf.Pasaron(), Juzgadas: inf.Juzgadas(), Total: len(inf.Comprobaciones), Comprobaciones: []EstadoDeCheck{}}
	for _, x := range inf.Comprobaciones {
		c.Comprobaciones = append(c.Comprobaciones, EstadoDeCheck{ID: x.ID, Estado: estadoDe(x)})
	}
	return c
}

// estadoDe is a check's state in examen's words, also for one that left Estado empty.
func estadoDe(x examen.Comprobacion) string {
	switch {
	case !x.Juzgada():
		return examen.EstadoNoJuzgada
	case x.Paso:
		return examen.EstadoPaso
	}
	return examen.EstadoFallo
}

// recortar cuts s to n bytes on a character's boundary, ending in «…».
func recortar(s string, n int) string {
	if len(s) <= n {
		return s
	}
	corte := n
	for corte > 0 && !utf8.RuneStart(s[corte]) {
		corte--
	}
	return strings.ToValidUTF8(s[:corte], "") + "…"
}

// Guardar appends c to the history at ruta, dropping the oldest entries past TopeEntradas or
// TopeHistorial bytes. The file is replaced whole (a temporary file renamed over it), so a cut
// never leaves half a line.
func Guardar(ruta string, c Calificacion) error {
	linea, err := json.Marshal(c)
	if err != nil {
		return err
	}
	previo, err := os.ReadFile(ruta)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	var lineas [][]byte
	for l := range bytes.SplitSeq(previo, []byte("\n")) {
		if len(bytes.TrimSpace(l)) > 0 {
			lineas = append(lineas, l)
		}
	}
	lineas = append(lineas, linea)
	total := 0
	for _, l := range lineas {
		total += len(l) + 1
	}
	for len(lineas) > 1 && (len(lineas) > TopeEntradas || total > TopeHistorial) {
		total -= len(lineas[0]) + 1
		lineas = lineas[1:]
	}
	datos := append(bytes.Join(lineas, []byte("\n")), '\n')
	if err := os.MkdirAll(filepath.Dir(ruta), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(ruta), ".calificaciones-*")
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

// Leer reads the history at ruta, oldest first; a line that is not a grading (a hand edit) is
// skipped. A history that does not exist yet is empty.
func Leer(ruta string) ([]Calificacion, error) {
	f, err := os.Open(ruta)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var cs []Calificacion
	s := bufio.NewScanner(f)
	s.Buffer(make([]byte, 0, 64<<10), TopeHistorial)
	for s.Scan() {
		var c Calificacion
		if json.Unmarshal(s.Bytes(), &c) == nil && !c.Cuando.IsZero() && c.Total > 0 {
			cs = append(cs, c)
		}
	}
	return cs, s.Err()
}

// marcas are each state's mark, as the report and the class board draw them.
var marcas = map[string]string{examen.EstadoPaso: "✔", examen.EstadoFallo: "✘", examen.EstadoNoJuzgada: "○"}

// Mostrar writes the history for a person, oldest first: one line per grading (when, seed,
// command, «N de M») and its checks under it, each with its mark.
func Mostrar(w io.Writer, cs []Calificacion) {
	if len(cs) == 0 {
		fmt.Fprintln(w, "El historial está vacío: todavía no calificaste ningún cliente en esta máquina (revisor comprobar cliente -- ORDEN).")
		return
	}
	for _, c := range cs {
		fmt.Fprintf(w, "%s  semilla %d  %s: %d de %d", c.Cuando.Local().Format("2006-01-02 15:04"), c.Semilla, c.Orden, c.Pasaron, c.Juzgadas)
		if n := c.Total - c.Juzgadas; n > 0 {
			fmt.Fprintf(w, " (%d sin juzgar)", n)
		}
		fmt.Fprintln(w)
		var checks []string
		for _, x := range c.Comprobaciones {
			m, ok := marcas[x.Estado]
			if !ok {
				m = "?"
			}
			checks = append(checks, m+" "+x.ID)
		}
		escribirEnLineas(w, "    ", checks, 100)
	}
	fmt.Fprintln(w, "✔ pasó · ✘ falló · ○ no se juzgó")
}

// escribirEnLineas writes palabras separated by two spaces, each line starting with sangria and
// no longer than ancho where a word allows it.
func escribirEnLineas(w io.Writer, sangria string, palabras []string, ancho int) {
	linea := ""
	for _, p := range palabras {
		if linea != "" && utf8.RuneCountInString(sangria+linea+"  "+p) > ancho {
			fmt.Fprintln(w, sangria+linea)
			linea = ""
		}
		if linea != "" {
			linea += "  "
		}
		linea += p
	}
	if linea != "" {
		fmt.Fprintln(w, sangria+linea)
	}
}

// guardarEnHistorial keeps a judged grading in the history at ruta ("" keeps nothing). A history
// that cannot be written costs one warning line, never the grading.
func guardarEnHistorial(errOut io.Writer, orden, ruta string, inf *examen.Informe, cuando time.Time) {
	if ruta == "" {
		return
	}
	if err := Guardar(ruta, DelInforme(inf, cuando)); err != nil {
		fmt.Fprintf(errOut, "%s: aviso: no pude guardar la calificación en el historial %s (%v); la calificación vale igual\n", orden, ruta, err)
	}
}

// NuevoHistorialCmd is `revisor comprobar historial`: the local gradings kept on this machine.
func NuevoHistorialCmd(f *entorno.Fabrica) *cobra.Command {
	var ruta string
	var comoJSON bool
	c := &cobra.Command{
		Use:   "historial [opciones]",
		Short: "Tus calificaciones de revisor comprobar cliente en esta máquina, de la más antigua a la más nueva",
		Long: `Muestra las calificaciones que «revisor comprobar cliente» (a solas, sin --clase) guardó en
esta máquina: cuándo, con qué semilla, qué orden se calificó, cuántas comprobaciones pasaron de
las juzgadas y el estado de cada una (✔ pasó, ✘ falló, ○ no se juzgó). El historial queda en
calificaciones.jsonl en tu directorio de configuración, cursohttp/ (--historial otro), y guarda
las ` + fmt.Sprint(TopeEntradas) + ` más recientes (` + fmt.Sprint(TopeHistorial>>10) + ` KiB como mucho).
En el modo clase las calificaciones las guarda el laboratorio de la clase, en su pizarra.`,
		Example: `  revisor comprobar historial
  revisor comprobar historial --json`,
		Args: cli.SinArgumentos,
		RunE: func(c *cobra.Command, _ []string) error {
			cs, err := Leer(ruta)
			if err != nil {
				fmt.Fprintf(f.Err, "%s: no puedo leer el historial %s: %v\n", c.CommandPath(), ruta, err)
				return cli.Salir(cli.SalidaFallo)
			}
			if !comoJSON {
				Mostrar(f.Out, cs)
				return nil
			}
			if cs == nil {
				cs = []Calificacion{}
			}
			e := json.NewEncoder(f.Out)
			e.SetIndent("", "  ")
			return e.Encode(cs)
		},
	}
	banderaHistorial(c, &ruta, "el archivo del historial que se muestra")
	c.Flags().BoolVar(&comoJSON, "json", false, "el historial en JSON: una lista de calificaciones, cada comprobación con su id y su estado")
	return c
}

// banderaHistorial declares --historial, whose default is the user's own file.
func banderaHistorial(c *cobra.Command, ruta *string, ayuda string) {
	c.Flags().StringVar(ruta, "historial", HistorialPorOmision(), ayuda)
	c.Flags().Lookup("historial").DefValue = "calificaciones.jsonl en tu directorio de configuración, cursohttp/"
}
