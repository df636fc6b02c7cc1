package cliente

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cursohttp/pkg/examen"
)

// informeDePrueba is a judged grading: one check passed, one failed, one not judged.
func informeDePrueba(semilla uint64, orden string) *examen.Informe {
	return &examen.Informe{Semilla: semilla, Orden: orden, Comprobaciones: []examen.Comprobacion{
		{ID: "una-escritura", Paso: true, Estado: examen.EstadoPaso, Linea: "bien"},
		{ID: "misma-llave", Estado: examen.EstadoFallo, Linea: "mal"},
		{ID: "respeta-retry-after", Estado: examen.EstadoNoJuzgada, Linea: "nunca hubo Retry-After"}}}
}

// Each local grading judged is appended to the history (after the report, whose bytes do not
// change), and «revisor comprobar historial» reads it back: date, seed, command, «N de M», each
// check's state; --json the same as data. A grading that was not judged leaves nothing.
func TestHistorialGuardadoYLeido(t *testing.T) {
	t.Parallel()
	ruta := filepath.Join(t.TempDir(), "sub", "calificaciones.jsonl")
	correr := func(_ context.Context, o examen.Opciones) (*examen.Informe, error) {
		return informeDePrueba(o.Semilla, strings.Join(o.Orden, " ")), nil
	}
	antes := time.Now().UTC().Add(-time.Second)
	codigo, out, errOut := orden(t, correr, "cliente", "--historial", ruta, "--semilla", "7", "--", "python3", "mi_cliente.py")
	if codigo != 1 || errOut != "" || !strings.HasPrefix(out, "comprobar cliente: python3 mi_cliente.py, 0 altas con la semilla 7\n") {
		t.Fatalf("la calificación: %d %q %q", codigo, out, errOut)
	}
	var soloInforme strings.Builder
	informeDePrueba(7, "python3 mi_cliente.py").Escribir(&soloInforme)
	if out != soloInforme.String() {
		t.Errorf("el informe cambió con el historial:\n%s\nse esperaba:\n%s", out, soloInforme.String())
	}
	if codigo, _, _ := orden(t, correr, "cliente", "--historial", ruta, "--semilla", "8", "--json", "--", "alta-segura"); codigo != 1 {
		t.Fatalf("la segunda calificación: %d", codigo)
	}
	// Not judged (the client's command does not exist; an interruption is the same): nothing kept.
	fallida := func(context.Context, examen.Opciones) (*examen.Informe, error) {
		return nil, &examen.Error{Uso: true, Texto: "no encuentro la orden «x»"}
	}
	if codigo, _, _ := orden(t, fallida, "cliente", "--historial", ruta, "--", "x"); codigo != 2 {
		t.Fatalf("la calificación sin juzgar: %d", codigo)
	}

	cs, err := Leer(ruta)
	if err != nil || len(cs) != 2 {
		t.Fatalf("el historial tiene %d calificaciones (%v); se esperaban 2", len(cs), err)
	}
	quiere := []EstadoDeCheck{{"una-escritura", "paso"}, {"misma-llave", "fallo"}, {"respeta-retry-after", "no-juzgada"}}
	for i, c := range cs {
		if c.Cuando.Before(antes) || c.Cuando.After(time.Now()) || c.Pasaron != 1 || c.Juzgadas != 2 || c.Total != 3 ||
			len(c.Comprobaciones) != 3 || c.Comprobaciones[0] != quiere[0] || c.Comprobaciones[1] != quiere[1] || c.Comprobaciones[2] != quiere[2] {
			t.Errorf("calificación %d: %+v", i, c)
		}
	}
	if cs[0].Semilla != 7 || cs[0].Orden != "python3 mi_cliente.py" || cs[1].Semilla != 8 || cs[1].Orden != "alta-segura" {
		t.Errorf("semillas y órdenes: %+v", cs)
	}

	codigo, out, errOut = orden(t, nil, "historial", "--historial", ruta)
	lineas := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	fecha := cs[0].Cuando.Local().Format("2006-01-02 15:04")
	if codigo != 0 || errOut != "" || len(lineas) != 5 ||
		lineas[0] != fecha+"  semilla 7  python3 mi_cliente.py: 1 de 2 (1 sin juzgar)" ||
		lineas[1] != "    ✔ una-escritura  ✘ misma-llave  ○ respeta-retry-after" ||
		!strings.HasSuffix(lineas[2], "  semilla 8  alta-segura: 1 de 2 (1 sin juzgar)") ||
		lineas[4] != "✔ pasó · ✘ falló · ○ no se juzgó" {
		t.Errorf("revisor comprobar historial: %d %q\n%s", codigo, errOut, out)
	}
	codigo, out, _ = orden(t, nil, "historial", "--historial", ruta, "--json")
	var leidas []Calificacion
	if err := json.Unmarshal([]byte(out), &leidas); err != nil || codigo != 0 || len(leidas) != 2 || leidas[1].Semilla != 8 ||
		leidas[1].Comprobaciones[2].Estado != "no-juzgada" || !leidas[0].Cuando.Equal(cs[0].Cuando) {
		t.Errorf("--json: %d %v\n%s", codigo, err, out)
	}

	// No history yet: it says so, and --json is an empty list.
	vacio := filepath.Join(t.TempDir(), "no-existe.jsonl")
	if codigo, out, _ := orden(t, nil, "historial", "--historial", vacio); codigo != 0 || !strings.HasPrefix(out, "El historial está vacío") {
		t.Errorf("historial vacío: %d %q", codigo, out)
	}
	if codigo, out, _ := orden(t, nil, "historial", "--historial", vacio, "--json"); codigo != 0 || out != "[]\n" {
		t.Errorf("historial vacío --json: %d %q", codigo, out)
	}
	// --historial "" keeps nothing.
	if codigo, _, errOut := orden(t, correr, "cliente", "--historial", "", "--", "a"); codigo != 1 || errOut != "" {
		t.Errorf("--historial \"\": %d %q", codigo, errOut)
	}
}

// A history that cannot be written never fails the grading: the report and the exit code are
// the grading's, and one warning line says why.
func TestHistorialQueNoSeEscribe(t *testing.T) {
	t.Parallel()
	archivo := filepath.Join(t.TempDir(), "un-archivo")
	if err := os.WriteFile(archivo, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	ruta := filepath.Join(archivo, "calificaciones.jsonl") // its folder is a file
	bien := func(_ context.Context, o examen.Opciones) (*examen.Informe, error) {
		return &examen.Informe{Semilla: o.Semilla, Orden: "alta-segura",
			Comprobaciones: []examen.Comprobacion{{ID: "una-escritura", Paso: true, Estado: examen.EstadoPaso, Linea: "bien"}}}, nil
	}
	codigo, out, errOut := orden(t, bien, "cliente", "--historial", ruta, "--semilla", "3", "--", "alta-segura")
	if codigo != 0 || !strings.Contains(out, "1 de 1 comprobaciones del cliente pasaron") || strings.Count(errOut, "\n") != 1 ||
		!strings.HasPrefix(errOut, "revisor comprobar cliente: aviso: no pude guardar la calificación en el historial "+ruta+" (") ||
		!strings.HasSuffix(errOut, "); la calificación vale igual\n") {
		t.Errorf("código %d, salida %q, error %q", codigo, out, errOut)
	}
	// Reading it is a failure of its own: one line, exit 1.
	if codigo, out, errOut := orden(t, nil, "historial", "--historial", archivo+"/otro/x"); codigo != 1 || out != "" ||
		!strings.HasPrefix(errOut, "revisor comprobar historial: no puedo leer el historial ") || strings.Count(errOut, "\n") != 1 {
		t.Errorf("leer un historial ilegible: %d %q %q", codigo, out, errOut)
	}
	// In classroom mode the class lab keeps the gradings: --historial does not go with --clase.
	if codigo, _, errOut := orden(t, bien, "cliente", "--historial", ruta, "--clase", "http://127.0.0.1:1", "--credencial", "c", "--", "a"); codigo != 2 ||
		!strings.HasPrefix(errOut, "revisor comprobar cliente: --historial no va con --clase") {
		t.Errorf("--historial con --clase: %d %q", codigo, errOut)
	}
}

// The history is bounded in entries and in bytes: the oldest go, the newest stay, in order; a
// long command is cut; a line that is not a grading is skipped.
func TestHistorialAcotado(t *testing.T) {
	t.Parallel()
	ruta := filepath.Join(t.TempDir(), "calificaciones.jsonl")
	cuando := time.Date(2026, 10, 21, 13, 0, 0, 0, time.UTC)
	for i := range TopeEntradas + 30 {
		if err := Guardar(ruta, DelInforme(informeDePrueba(uint64(i), "alta-segura"), cuando)); err != nil {
			t.Fatal(err)
		}
	}
	cs, err := Leer(ruta)
	if err != nil || len(cs) != TopeEntradas || cs[0].Semilla != 30 || cs[len(cs)-1].Semilla != TopeEntradas+29 {
		t.Fatalf("%d calificaciones (%v), de la %d a la %d", len(cs), err, cs[0].Semilla, cs[len(cs)-1].Semilla)
	}
	// Long commands: the bytes bound, and each command cut.
	largo := strings.Repeat("ñ", 4*TopeOrden)
	for i := range 400 {
		if err := Guardar(ruta, DelInforme(informeDePrueba(uint64(10_000+i), largo), cuando)); err != nil {
			t.Fatal(err)
		}
	}
	if info, err := os.Stat(ruta); err != nil || info.Size() > TopeHistorial {
		t.Fatalf("el historial ocupa %d bytes, más que su tope %d (%v)", info.Size(), TopeHistorial, err)
	}
	cs, err = Leer(ruta)
	if err != nil || len(cs) < 100 || cs[len(cs)-1].Semilla != 10_399 {
		t.Fatalf("%d calificaciones (%v)", len(cs), err)
	}
	if o := cs[len(cs)-1].Orden; len(o) > TopeOrden+len("…") || !strings.HasSuffix(o, "ñ…") {
		t.Errorf("la orden guardada mide %d bytes: %q…", len(o), o[:20])
	}
	// A hand edit: the lines that are not gradings are skipped, the rest read.
	f, err := os.OpenFile(ruta, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("no es json\n{\"otra\":1}\n")
	f.Close()
	if otras, err := Leer(ruta); err != nil || len(otras) != len(cs) {
		t.Errorf("con dos líneas ajenas: %d calificaciones (%v); se esperaban %d", len(otras), err, len(cs))
	}
	if err := Guardar(ruta, DelInforme(informeDePrueba(1, "a"), cuando)); err != nil {
		t.Fatal(err)
	}
	if _, err := Leer(ruta); errors.Is(err, os.ErrNotExist) || err != nil {
		t.Errorf("tras guardar sobre líneas ajenas: %v", err)
	}
}
