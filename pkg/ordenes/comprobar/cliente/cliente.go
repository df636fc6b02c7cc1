// Package cliente is `revisor comprobar cliente`: the grader of pkg/examen as an order.
package cliente

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"cursohttp/pkg/cli"
	"cursohttp/pkg/curso"
	"cursohttp/pkg/examen"
	"cursohttp/pkg/ordenes/entorno"
	"cursohttp/pkg/topes"
)

// Ayuda is the contract a student's client must follow, as `revisor comprobar cliente --help`
// and docs/comprobar.md state it; the checks and what each needs to be judged come from
// examen.Checks.
func Ayuda() string {
	var b strings.Builder
	b.WriteString(`Califica un cliente que reintenta, escrito en cualquier lenguaje, con las fallas de la
lección 6. Arranca su propio revisor (127.0.0.1:18080) y su propia pasarela (127.0.0.1:18082),
o en puertos libres con --puertos-libres, y se niega con una línea si el puerto está ocupado.
Corre el cliente una vez por alta (4 a la vez: --paralelo) y en cada intento la pasarela hace lo
que dice el guion del escenario, no lo que pida X-Simular. Juzga solo con lo que vieron la
pasarela y el revisor, con sus horas: nunca lee lo que el cliente imprime.

El contrato del cliente:
  - Se invoca como ORDEN [ARGUMENTOS…] NOMBRE URL: la calificación añade NOMBRE y URL al final.
  - Da de alta el servicio con POST /servicios en la pasarela: http://127.0.0.1:18082, o la
    que diga la variable PASARELA_URL (siempre está puesta), con «Authorization: Bearer
    escritura-a», «Content-Type: application/json» y el cuerpo {"nombre":NOMBRE,"url":URL},
    NOMBRE y URL tal como llegaron. Lo que no sea de esta calificación se rechaza sin juzgar; lo
    que llegue al revisor sin pasar por la pasarela se juzga y se avisa.
  - Del entorno recibe PASARELA_URL y COMPROBAR_CORRIDA, y no las variables del laboratorio
    (CURSOHTTP_*: sus tokens).
  - Una intención es una corrida: todos sus intentos llevan la misma Idempotency-Key, y cada
    corrida una llave nueva (aunque el cuerpo sea el mismo).
  - Cada intento deja de esperar la respuesta a los 10 s como mucho (alta-segura: 2 s).
  - Reintenta lo que puede arreglarse esperando: sin respuesta, 502, 503, 504, 408, 429 y 409
    llave-en-curso; nunca otro 4xx (ni 401, 403 o 409 nombre-repetido).
  - Sin Retry-After espera cada vez más y al azar (retroceso exponencial con jitter: alta-segura
    espera entre 0 y 500, 1000 y 2000 ms), contando desde que terminó el intento anterior (nunca
    dos a la vez); con Retry-After espera al menos eso, y si pide más de lo que el cliente está
    dispuesto a esperar (aquí, una hora), se rinde sin reintentar.
  - Aguanta al menos 3 fallos seguidos (4 intentos) y hace como mucho 10; cada corrida termina
    antes de 30 s (--limite), o se la detiene, a ella y a lo que arrancó, y se juzga así.
  - Sale con 0 solo si el alta quedó hecha; con otro código si no, o si no se sabe.

`)
	fmt.Fprintf(&b, "Las %d comprobaciones, cada una con su id (--json) y lo que necesita para juzgarse:\n", len(examen.Checks))
	for _, c := range examen.Checks {
		fmt.Fprintf(&b, "  - %s: %s.\n", c.ID, c.Premisa)
	}
	fmt.Fprintf(&b, `Una comprobación cuya premisa nunca ocurrió no pasa ni falla: «no se juzgó», con el porqué, y
«N de M» cuenta solo las juzgadas. Sale con 0 solo si se juzgan y pasan las %d, el cliente
arrancó siempre y ningún intento se saltó la pasarela. docs/comprobar.md lo explica.

Cada calificación a solas queda en tu historial, en esta máquina (calificaciones.jsonl en tu
directorio de configuración, cursohttp/; --historial otro, "" no guarda nada): cuándo, la
semilla, la orden, «N de M» y el estado de cada comprobación. «revisor comprobar historial» lo
muestra. Si no se puede guardar, lo dice en una línea y la calificación vale igual.

En el modo clase (laboratorio clase, del profesor), con --clase URL --credencial C (o
CURSOHTTP_CREDENCIAL), califica el laboratorio de la clase: él hace la calificación, su pasarela
aplica las fallas y él juzga con lo que vieron su pasarela y su revisor, y lo anota en la pizarra
de la clase; esta máquina solo corre el cliente (con el mismo contrato, PASARELA_URL apuntando a
la pasarela de la clase) y dice cuándo empieza y termina cada corrida, y su código de salida, lo
único que la pizarra marca como informado por el alumno. Si el laboratorio de la clase se
reinicia a mitad, la calificación se corta, se dice, y se repite entera.`, len(examen.Checks))
	return b.String()
}

// NuevoCmd is `revisor comprobar cliente`; runF nil grades with examen.Correr (tests pass their
// own to see the options without running anything).
func NuevoCmd(f *entorno.Fabrica, runF func(context.Context, examen.Opciones) (*examen.Informe, error)) *cobra.Command {
	if runF == nil {
		runF = examen.Correr
	}
	out := f.Out
	var o examen.Opciones
	var semilla, clase, credencial, historial string
	var idas [3]string // --enviar, --alumno, --token: gone with the panel's class page (issue 40, item 9)
	var comoJSON bool
	c := &cobra.Command{
		Use:   "cliente [opciones] [--] ORDEN [ARGUMENTOS…]",
		Short: "Califica un cliente que reintenta, en cualquier lenguaje, bajo fallas con guion",
		Long:  Ayuda(),
		Example: `  revisor comprobar cliente -- alta-segura
  revisor comprobar cliente --semilla 7 -- python3 mi_cliente.py
  revisor comprobar cliente --puertos-libres --json -- node cliente.mjs
  revisor comprobar cliente -- alta-segura --defecto llave-por-intento   (falla misma-llave)
  revisor comprobar cliente --clase http://IP-DEL-PROFESOR:18084 --credencial SU-CREDENCIAL -- python3 mi_cliente.py`,
		Args: cobra.ArbitraryArgs,
		RunE: func(c *cobra.Command, args []string) error {
			for _, b := range banderasIdas {
				if c.Flags().Changed(b) {
					return cli.UsoMal("%s: --%s ya no existe: %s", c.CommandPath(), b, SinEnviar)
				}
			}
			if len(args) == 0 {
				return cli.UsoMal("%s: falta la orden del cliente (revisor comprobar cliente -- ORDEN [ARGUMENTOS…])", c.CommandPath())
			}
			if !c.Flags().Changed("semilla") {
				o.Semilla = rand.Uint64() % 1_000_000
			} else {
				n, err := strconv.ParseUint(semilla, 10, 64)
				if err != nil {
					return cli.UsoMal("%s: --semilla lleva un número entero no negativo, no «%s»", c.CommandPath(), semilla)
				}
				o.Semilla = n
			}
			if o.Paralelo < 1 || o.Paralelo > 20 {
				return cli.UsoMal("%s: --paralelo va de 1 a 20", c.CommandPath())
			}
			if o.Limite < 5*time.Second || o.Limite > 10*time.Minute {
				return cli.UsoMal("%s: --limite va de 5s a 10m", c.CommandPath())
			}
			if clase != "" {
				return enClase(c, f, clase, credencial, semilla, args, o, comoJSON)
			}
			if credencial != "" {
				return cli.UsoMal("%s: --credencial es del modo clase: va con --clase URL", c.CommandPath())
			}
			o.Orden = args
			inf, err := runF(c.Context(), o)
			if err != nil {
				var e *examen.Error
				switch {
				case c.Context().Err() != nil:
					return cli.Salir(curso.Interrumpido)
				case errors.As(err, &e) && e.Uso:
					return cli.UsoMal("%s: %s", c.CommandPath(), e.Texto)
				}
				return fmt.Errorf("%s: %w", c.CommandPath(), err)
			}
			if comoJSON {
				if err := inf.JSON(out); err != nil {
					return err
				}
			} else {
				inf.Escribir(out)
			}
			// Judged: kept on this machine, after the report (a history that cannot be written
			// is a warning, never the grading's failure).
			guardarEnHistorial(f.Err, c.CommandPath(), historial, inf, time.Now())
			return cli.Salir(inf.Codigo())
		},
	}
	// The client's own flags follow its command: the first argument that is not ours ends ours.
	c.Flags().SetInterspersed(false)
	c.Flags().StringVar(&semilla, "semilla", "", "sortea las fallas intermitentes y la marca de los nombres: la misma semilla, la misma calificación (si no se dice, una al azar, que el informe dice)")
	c.Flags().DurationVar(&o.Limite, "limite", topes.LimiteCliente, "cuánto puede durar cada corrida del cliente antes de detenerla")
	c.Flags().IntVar(&o.Paralelo, "paralelo", examen.ParaleloPorOmision, "cuántas corridas del cliente a la vez (menos para un cliente que tarda en arrancar, como una JVM)")
	c.Flags().BoolVar(&o.PuertosLibres, "puertos-libres", false, "el revisor y la pasarela en puertos libres en vez de 18080 y 18082 (el cliente los lee de PASARELA_URL)")
	// The flags of the panel's class page: hidden, and said to be gone when used (SinEnviar).
	for i, b := range banderasIdas {
		c.Flags().StringVar(&idas[i], b, "", "ya no existe")
		c.Flags().MarkHidden(b) //nolint:errcheck // declared just above
	}
	banderaHistorial(c, &historial, "el archivo donde queda cada calificación a solas, tu historial (\"\": no guarda nada)")
	c.Flags().Var(cli.URL{Destino: &clase, Vacia: true}, "clase", "califica en el laboratorio de la clase en esta URL (la que da el profesor), con --credencial")
	c.Flags().StringVar(&credencial, "credencial", "", "tu credencial de la clase, la que te dio el profesor (si no se dice: CURSOHTTP_CREDENCIAL)")
	c.Flags().BoolVar(&comoJSON, "json", false, "el informe en JSON: cada comprobación con su id y su resultado, y cada alta")
	return c
}

// banderasIdas are the flags of the panel's class page of local mode, removed in issue 40 (item 9):
// each is refused with SinEnviar instead of cobra's «no existe la opción».
var banderasIdas = [...]string{"enviar", "alumno", "token"}

// SinEnviar is why --enviar (and its --alumno, --token) is refused, and what to use instead.
const SinEnviar = "la página de la clase del panel se fue, y con ella el envío de resultados; en clase, " +
	"califica con --clase URL --credencial C (la URL y la credencial te las da el profesor: laboratorio clase); " +
	"a solas, cada calificación queda en tu historial («revisor comprobar historial»)"

// VariableCredencial holds a student's class credential (so that it stays off the command line).
const VariableCredencial = "CURSOHTTP_CREDENCIAL"

// enClase is the grading in classroom mode: the class lab makes and judges the run.
func enClase(c *cobra.Command, f *entorno.Fabrica, clase, credencial, semilla string, args []string, o examen.Opciones, comoJSON bool) error {
	for _, b := range []string{"limite"} {
		if c.Flags().Changed(b) {
			return cli.UsoMal("%s: --%s no va con --clase: en el modo clase el laboratorio de la clase pone el límite y la pizarra", c.CommandPath(), b)
		}
	}
	if c.Flags().Changed("historial") {
		return cli.UsoMal("%s: --historial no va con --clase: en el modo clase tus calificaciones las guarda el laboratorio de la clase, en su pizarra", c.CommandPath())
	}
	if credencial == "" {
		credencial, _ = f.Variable(VariableCredencial)
	}
	if credencial == "" {
		return cli.UsoMal("%s: --clase pide tu credencial de la clase: --credencial C (o CURSOHTTP_CREDENCIAL), la que te dio el profesor", c.CommandPath())
	}
	oc := examen.OpcionesClase{URL: clase, Credencial: credencial, Orden: args, Paralelo: o.Paralelo, PuertosLibres: o.PuertosLibres,
		Cortada: func(motivo string) {
			fmt.Fprintf(f.Err, "%s: la calificación se cortó (%s); la repito desde el principio\n", c.CommandPath(), motivo)
		}}
	if c.Flags().Changed("semilla") {
		n, err := strconv.ParseUint(semilla, 10, 64)
		if err != nil {
			return cli.UsoMal("%s: --semilla lleva un número entero no negativo, no «%s»", c.CommandPath(), semilla)
		}
		oc.Semilla = &n
	}
	v, err := examen.CorrerEnClase(c.Context(), oc)
	if err != nil {
		var e *examen.Error
		switch {
		case c.Context().Err() != nil:
			return cli.Salir(curso.Interrumpido)
		case errors.As(err, &e) && e.Uso:
			return cli.UsoMal("%s: %s", c.CommandPath(), e.Texto)
		}
		fmt.Fprintf(f.Err, "%s: %v\n", c.CommandPath(), err)
		return cli.Salir(1)
	}
	if comoJSON {
		f.Out.Write(v.JSON) //nolint:errcheck // stdout
	} else {
		fmt.Fprint(f.Out, v.Texto)
	}
	return cli.Salir(v.Codigo)
}
