package variantes

import (
	"os"

	"github.com/spf13/pflag"
)

// Banderas are --leccion, --defecto and --ejercicio as one program declares them: only those its
// catalogue entries call for.
type Banderas struct {
	programa  Programa
	fs        *pflag.FlagSet
	leccion   int
	defecto   string
	ejercicio int
}

// Declarar adds p's variant flags to fs.
func Declarar(fs *pflag.FlagSet, p Programa) *Banderas {
	b := &Banderas{programa: p, fs: fs}
	if ls := Lecciones(p); len(ls) > 0 {
		fs.IntVar(&b.leccion, "leccion", ls[len(ls)-1], "la versión de esta lección (ver «Versiones del curso»)")
		// Read at start-up, not a value of the flag.
		fs.Lookup("leccion").DefValue = VariableLeccion + " o " + itoa(ls[len(ls)-1])
	}
	if len(De(p, Defecto)) > 0 {
		fs.StringVar(&b.defecto, "defecto", "", "arranca una versión rota a propósito (ver «Versiones rotas a propósito»)")
	}
	if len(De(p, Ejercicio)) > 0 {
		fs.IntVar(&b.ejercicio, "ejercicio", 0, "la solución de ese ejercicio (ver «Soluciones de ejercicios»)")
		fs.Lookup("ejercicio").DefValue = ""
	}
	return b
}

// Eleccion checks what the command line asked; entorno reads CURSO_LECCION (nil: the process's).
func (b *Banderas) Eleccion(entorno func(string) (string, bool)) (Eleccion, error) {
	if entorno == nil {
		entorno = os.LookupEnv
	}
	return Resolver(b.programa, Pedido{
		Leccion:       b.leccion,
		LeccionDada:   b.fs.Changed("leccion"),
		Defecto:       b.defecto,
		Ejercicio:     b.ejercicio,
		EjercicioDado: b.fs.Changed("ejercicio"),
		Entorno:       entorno,
	})
}
