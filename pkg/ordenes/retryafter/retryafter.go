// Package retryafter is `revisor retry-after`, fig04_03.ts: Retry-After read in its two forms,
// and with --ejercicio 2 Lesson 4 exercise 2's naive reader beside it.
package retryafter

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"

	"cursohttp/internal/nodejs"
	"cursohttp/pkg/cli"
	"cursohttp/pkg/ordenes/entorno"
	"cursohttp/pkg/reintento"
	"cursohttp/pkg/variantes"

	"github.com/spf13/cobra"
)

// RetryAfter is fig04_03.ts: Retry-After read in its two forms, seconds or an HTTP date, and what
// is not either (a word, or no header at all) says nothing about how long to wait.
func RetryAfter(e entorno.Entorno) int {
	dentroDe90 := e.Hora().Add(90 * time.Second).UTC().Format(http.TimeFormat)
	valores := []*string{ptr("120"), ptr("0"), &dentroDe90, ptr("Wed, 21 Oct 2015 07:28:00 GMT"), ptr("mañana"), nil}
	for _, v := range valores {
		texto, resultado := "(sin la cabecera)", "null: no dice cuánto esperar"
		if v != nil {
			texto = string(nodejs.CodificarJSON(*v))
			if s, ok := reintento.SegundosDeEspera(*v, e.Hora()); ok {
				resultado = strconv.FormatInt(s, 10)
			}
		}
		fmt.Fprintf(e.Out, "%s → %s\n", entorno.PadEnd(texto, 34), resultado)
	}
	return 0
}

func ptr(s string) *string { return &s }

// RetryAfterIngenuo is Lesson 4 exercise 2's solution (ejercicios/ej2.ts): nine values of
// Retry-After read by a naive reader that takes digits or else whatever Date.parse makes of the
// text, against the revisor's reader. The last three are the same instant, a minute ahead and
// rounded up to the next whole second, in the three HTTP-date forms. zona is the machine's local
// time, in which Date.parse reads a date without a zone (asctime's).
func RetryAfterIngenuo(e entorno.Entorno, zona *time.Location) int {
	ahora := e.Hora()
	enUnMinuto := ahora.Add(time.Minute).Truncate(time.Second)
	if enUnMinuto.Before(ahora.Add(time.Minute)) {
		enUnMinuto = enUnMinuto.Add(time.Second)
	}
	enUnMinuto = enUnMinuto.UTC()
	valores := []string{"120", "1.5", "-1", "12 30", "Xyz, 21 Oct 2026 10:00:00 GMT", "Wed, 32 Oct 2026 10:00:00 GMT",
		enUnMinuto.Format(http.TimeFormat),
		enUnMinuto.Format("Monday, 02-Jan-06 15:04:05 GMT"),
		enUnMinuto.Format("Mon Jan _2 15:04:05 2006"),
	}
	fmt.Fprintf(e.Out, "%s%s%s\n", entorno.PadEnd("valor", 36), entorno.PadStart("Date.parse", 11), entorno.PadStart("revisor", 9))
	for _, v := range valores {
		ingenua := "null"
		if n, ok := segundosConDateParse(v, e.Hora(), zona); ok {
			ingenua = nodejs.Numero(n)
		}
		revisor := "null"
		if n, ok := reintento.SegundosDeEspera(v, e.Hora()); ok {
			revisor = strconv.FormatInt(n, 10)
		}
		fmt.Fprintf(e.Out, "%s%s%s\n", entorno.PadEnd(string(nodejs.CodificarJSON(v)), 36), entorno.PadStart(ingenua, 11), entorno.PadStart(revisor, 9))
	}
	return 0
}

// segundosConDateParse is the naive reader: digits are Number(valor) seconds, anything else goes to
// Date.parse, and a date is the seconds until it, rounded up, never less than 0. ok is false for
// JavaScript's null.
func segundosConDateParse(valor string, ahora time.Time, zona *time.Location) (float64, bool) {
	if soloDigitos(valor) {
		return nodejs.LeerNumero(valor)
	}
	fecha, ok := nodejs.LeerFecha(valor, zona)
	if !ok {
		return 0, false
	}
	return max(0, math.Ceil(float64(fecha.UnixMilli()-ahora.UnixMilli())/1000)), true
}

func soloDigitos(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// NuevoCmd is `revisor retry-after`, and with --ejercicio 2 Lesson 4 exercise 2's
// program; runF nil runs the one chosen.
func NuevoCmd(f *entorno.Fabrica, runF func(context.Context, entorno.Entorno) int) *cobra.Command {
	var version *variantes.Banderas
	var eleccion variantes.Eleccion
	c := entorno.Armar(f, &cobra.Command{
		Use:   "retry-after",
		Short: "Leer Retry-After en sus dos formas: segundos o una fecha HTTP (fig04_03.ts)",
		Long: `Lee seis valores de Retry-After (segundos, una fecha HTTP, una palabra y la cabecera ausente)
y muestra cuántos segundos dicen esperar. No necesita ningún servidor.

Con --ejercicio 2 es la solución del ejercicio 2 de la lección 4 (ejercicios/ej2.ts): nueve
valores leídos por una versión ingenua, que confía en Date.parse, y por la del revisor. La columna
de Date.parse lee la fecha asctime en la hora local de la máquina (TZ).

` + variantes.Ayuda(variantes.RevisorRetryAfter),
		Example: `  revisor retry-after
  revisor retry-after --ejercicio 2
  TZ=America/Mexico_City revisor retry-after --ejercicio 2   (la máquina de la lección, UTC−6)`,
		Args: cli.SinArgumentos,
		PreRunE: func(c *cobra.Command, _ []string) (err error) {
			if eleccion, err = version.Eleccion(f.Variable); err != nil {
				return cli.UsoMal("%s: %v", c.CommandPath(), err)
			}
			return nil
		},
	}, runF, func(_ context.Context, e entorno.Entorno) int {
		if eleccion.EsEjercicio(4, 2) {
			return RetryAfterIngenuo(e, time.Local)
		}
		return RetryAfter(e)
	})
	version = variantes.Declarar(c.Flags(), variantes.RevisorRetryAfter)
	return c
}
