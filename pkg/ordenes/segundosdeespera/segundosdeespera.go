// Package segundosdeespera is `revisor segundos-de-espera`: what the client's Retry-After reader
// (the course's segundosDeEspera) makes of each value, as Lesson 6's one-line node -e over
// cliente.ts prints it (S-I32).
package segundosdeespera

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"cursohttp/internal/nodejs"
	"cursohttp/pkg/cli"
	"cursohttp/pkg/ordenes/entorno"
	"cursohttp/pkg/reintento"
)

// Opciones are the values to read and, if given, the two dates to subtract.
type Opciones struct {
	Valores []string
	Restar  []string // none, or two HTTP dates: the first minus the second
}

// SegundosDeEspera prints, for each value, `"valor" -> segundos` (null for a value that says
// nothing about waiting), as console.log(JSON.stringify(v), "->", segundosDeEspera(v)) prints it;
// then, with two dates to subtract, «<form> menos <form> (misma fecha): N s», both read at the
// same moment.
func SegundosDeEspera(_ context.Context, e entorno.Entorno, o Opciones) int {
	ahora := e.Hora()
	for _, v := range o.Valores {
		fmt.Fprintf(e.Out, "%s -> %s\n", nodejs.CodificarJSON(v), leer(v, ahora))
	}
	if len(o.Restar) == 2 {
		a, b := o.Restar[0], o.Restar[1]
		sa, _ := reintento.SegundosDeEspera(a, ahora)
		sb, _ := reintento.SegundosDeEspera(b, ahora)
		misma := ""
		ta, _ := reintento.FechaHTTP(a, ahora)
		if tb, _ := reintento.FechaHTTP(b, ahora); ta.Equal(tb) {
			misma = " (misma fecha)"
		}
		fmt.Fprintf(e.Out, "%s menos %s%s: %d s\n", forma(a), forma(b), misma, sa-sb)
	}
	return 0
}

func leer(v string, ahora time.Time) string {
	if s, ok := reintento.SegundosDeEspera(v, ahora); ok {
		return strconv.FormatInt(s, 10)
	}
	return "null"
}

// formas are the three forms of an HTTP date (RFC 9110 §5.6.7), by the name the lessons give them.
var formas = []struct{ nombre, molde string }{
	{"IMF-fixdate", http1123},
	{"RFC 850", "Monday, 02-Jan-06 15:04:05 GMT"},
	{"asctime", "Mon Jan _2 15:04:05 2006"},
}

const http1123 = "Mon, 02 Jan 2006 15:04:05 GMT"

// forma names the form of an HTTP date; "" for anything else.
func forma(s string) string {
	for _, f := range formas {
		if _, err := time.Parse(f.molde, s); err == nil {
			return f.nombre
		}
	}
	return ""
}

// NuevoCmd is `revisor segundos-de-espera`; runF (nil: SegundosDeEspera) gets what the command
// line asked.
func NuevoCmd(f *entorno.Fabrica, runF func(context.Context, entorno.Entorno, Opciones) int) *cobra.Command {
	if runF == nil {
		runF = SegundosDeEspera
	}
	c := &cobra.Command{
		Use:   "segundos-de-espera <valor>... [--restar FECHA --restar FECHA]",
		Short: "Lo que el cliente hace de cada valor de Retry-After (segundosDeEspera, lección 6, S-I32)",
		Long: `Lee cada valor como el cliente del revisor lee Retry-After (segundosDeEspera de cliente.ts) y
escribe una línea por valor: el valor entre comillas y los segundos que dice esperar, o null si
no dice cuánto (solo cifras, o una de las tres formas de fecha HTTP, siempre en GMT). Es el
«node --input-type=module -e 'import { segundosDeEspera } from "./cliente.ts"; …'» de la
lección 6 (S-I32). No necesita ningún servidor.

Con --restar dos veces, resta lo que dicen dos fechas leídas en el mismo momento: la misma fecha
en asctime y en IMF-fixdate da 0 s, porque asctime se lee en GMT, no en la hora local (TZ).`,
		Example: `  revisor segundos-de-espera 120 1.5 -1 '12 30'
  TZ=America/Mexico_City revisor segundos-de-espera 120 1.5 -1 '12 30' --restar 'Fri Jan  1 00:00:00 2100' --restar 'Fri, 01 Jan 2100 00:00:00 GMT'`,
		// A value may start with «-» (the lesson reads -1): the words are read here, not as flags.
		DisableFlagParsing: true,
		Args:               func(*cobra.Command, []string) error { return nil },
		RunE: func(c *cobra.Command, palabras []string) error {
			var args, restar []string
			for i := 0; i < len(palabras); i++ {
				switch p := palabras[i]; {
				case p == "-h" || p == "--help":
					return c.Help()
				case p == "--":
					args = append(args, palabras[i+1:]...)
					i = len(palabras)
				case p == "--restar":
					if i+1 == len(palabras) {
						return cli.UsoMal("%s: la opción --restar necesita un valor; «%s --help» muestra las opciones", c.CommandPath(), c.CommandPath())
					}
					i++
					restar = append(restar, palabras[i])
				case strings.HasPrefix(p, "--restar="):
					restar = append(restar, strings.TrimPrefix(p, "--restar="))
				case strings.HasPrefix(p, "--"):
					return cli.UsoMal("%s: no existe la opción %s; «%s --help» muestra las opciones", c.CommandPath(), p, c.CommandPath())
				default:
					args = append(args, p)
				}
			}
			if len(restar) != 0 && len(restar) != 2 {
				return cli.UsoMal("%s: --restar va dos veces, una por fecha, no %d", c.CommandPath(), len(restar))
			}
			for _, r := range restar {
				if forma(r) == "" {
					return cli.UsoMal("%s: --restar: «%s» no es una fecha HTTP (IMF-fixdate, RFC 850 o asctime)", c.CommandPath(), r)
				}
			}
			if len(args) == 0 && len(restar) == 0 {
				return cli.UsoMal("%s: falta al menos un valor; «%s --help» muestra cómo se usa", c.CommandPath(), c.CommandPath())
			}
			return cli.Salir(runF(c.Context(), f.Entorno, Opciones{Valores: args, Restar: restar}))
		},
	}
	// Declared for the help; the words are read in RunE.
	c.Flags().StringArray("restar", nil, "una fecha HTTP; dos veces: la primera menos la segunda")
	c.Flags().Lookup("restar").DefValue = ""
	return c
}
