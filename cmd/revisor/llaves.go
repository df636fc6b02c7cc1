package main

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/spf13/pflag"

	"cursohttp/pkg/idempotencia"
	"cursohttp/pkg/topes"
)

// vigenciaLlaves is --vigencia-llaves: how long POST /servicios remembers an Idempotency-Key.
// The course's keys live as long as the process; exercise 3 adds REVISOR_VIGENCIA_MS. Here the flag
// wins, then the variable, then 24 h (what Stripe documents). It also carries the store's bounds
// (--tope-llaves, --tope-llaves-credencial, --tope-llaves-en-curso), beyond the course.
type vigenciaLlaves struct {
	d      time.Duration
	puesta bool

	tope, porCredencial, enCurso int
}

func (v *vigenciaLlaves) String() string {
	if !v.puesta {
		return topes.VigenciaLlaves.String()
	}
	return v.d.String()
}

func (v *vigenciaLlaves) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return errors.New("se espera una duración positiva (24h, 5s, 1500ms)")
	}
	v.d, v.puesta = d, true
	return nil
}

func (v *vigenciaLlaves) Type() string { return "duración" }

func (v *vigenciaLlaves) banderas(fs *pflag.FlagSet) {
	fs.Var(v, "vigencia-llaves", "cuánto recuerda el alta una Idempotency-Key")
	// Read at start-up, not a value of the flag.
	fs.Lookup("vigencia-llaves").DefValue = "REVISOR_VIGENCIA_MS, en ms, o 24h"
	fs.IntVar(&v.tope, "tope-llaves", topes.Llaves,
		"cuántas Idempotency-Key recuerda el alta entre todas las credenciales")
	fs.IntVar(&v.porCredencial, "tope-llaves-credencial", topes.LlavesPorCredencial,
		"cuántas recuerda por credencial; al llegar, la credencial olvida su llave terminada más vieja, nunca las de otra")
	fs.IntVar(&v.enCurso, "tope-llaves-en-curso", topes.LlavesEnCurso,
		"altas con Idempotency-Key en curso a la vez por credencial; una más recibe 429")
}

// opciones are the key records' validity and bounds as chosen.
func (v *vigenciaLlaves) opciones(entorno func(string) (string, bool)) (idempotencia.Opciones, error) {
	if entorno == nil {
		entorno = os.LookupEnv
	}
	d := v.d
	if !v.puesta {
		if texto, hay := entorno("REVISOR_VIGENCIA_MS"); hay {
			ms, ok := idempotencia.VigenciaDeEntorno(texto)
			if !ok {
				return idempotencia.Opciones{}, fmt.Errorf("REVISOR_VIGENCIA_MS debe ser un número entero de milisegundos mayor que 0, no «%s»", texto)
			}
			d = ms
		}
	}
	for _, b := range []struct {
		nombre string
		valor  int
	}{{"--tope-llaves", v.tope}, {"--tope-llaves-credencial", v.porCredencial}, {"--tope-llaves-en-curso", v.enCurso}} {
		if b.valor < 1 {
			return idempotencia.Opciones{}, fmt.Errorf("%s debe ser un número entero mayor que 0, no %d", b.nombre, b.valor)
		}
	}
	return idempotencia.Opciones{Vigencia: d, Tope: v.tope, TopePorCredencial: v.porCredencial, EnCursoPorCredencial: v.enCurso}, nil
}
