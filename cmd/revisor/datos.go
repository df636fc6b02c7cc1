package main

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"cursohttp/pkg/almacen"
	"cursohttp/pkg/basesql"
	"cursohttp/pkg/cli"
	"cursohttp/pkg/datos"
	"cursohttp/pkg/idempotencia"
)

// VariableDatos is where --datos is read from when the flag is absent.
const VariableDatos = "REVISOR_DATOS"

// rescatePostgres is how often a revisor on PostgreSQL looks for the pending checks of a revisor
// that is gone: another copy may have died without ever coming back.
const rescatePostgres = 5 * time.Second

// almacenDatos is --datos: where the revisor keeps what it knows. Without it, in memory, as the
// course does: every scene replays as the lesson shows.
type almacenDatos struct{ donde string }

func (d *almacenDatos) banderas(fs *pflag.FlagSet) {
	fs.StringVar(&d.donde, "datos", "", "dónde guarda servicios, revisiones y llaves: un archivo (SQLite, sin servidor) o una URL postgres://…")
	// Read at start-up, not a value of the flag.
	fs.Lookup("datos").DefValue = VariableDatos + " o en memoria, como el curso"
}

// abrir opens the store chosen (the flag, else the variable, else memory) with the key records'
// options. It returns the line that says where the data is ("" for memory) and how often to look
// for other revisors' pending checks.
func (d almacenDatos) abrir(ctx context.Context, entorno func(string) (string, bool), llaves idempotencia.Opciones) (almacen.Almacen, string, time.Duration, error) {
	if entorno == nil {
		entorno = os.LookupEnv
	}
	donde := d.donde
	if donde == "" {
		donde, _ = entorno(VariableDatos)
	}
	o := almacen.Opciones{Semillas: almacen.Semillas(), Llaves: llaves}
	if donde == "" {
		return almacen.NuevaMemoria(o), "", 0, nil
	}
	a, err := datos.Abrir(ctx, donde, o)
	if err != nil {
		return nil, "", 0, fmt.Errorf("no se pudo abrir --datos «%s»: %v", legible(donde), err)
	}
	if basesql.EsPostgres(donde) {
		return a, "datos en PostgreSQL, " + legible(donde), rescatePostgres, nil
	}
	return a, "datos en " + donde + " (SQLite)", 0, nil
}

// ordenBorrarDatos is «revisor borrar-datos --datos DONDE», hidden: how «laboratorio lab vaciar»
// (make lab-reset) erases the revisor's store, so that laboratorio need not link SQLite and
// PostgreSQL's driver to do it. No revisor may have the store open.
func ordenBorrarDatos() *cobra.Command {
	var donde string
	c := &cobra.Command{
		Use:    "borrar-datos",
		Short:  "borra los datos que el revisor guarda en --datos (lo que hace «laboratorio lab vaciar»)",
		Hidden: true,
		RunE: func(c *cobra.Command, _ []string) error {
			if donde == "" {
				return cli.UsoMal("%s: falta --datos: el archivo o la URL postgres://… que borrar", c.CommandPath())
			}
			if err := datos.Borrar(c.Context(), donde); err != nil {
				return fmt.Errorf("%s: no se pudieron borrar los datos de «%s»: %v", c.CommandPath(), legible(donde), err)
			}
			return nil
		},
	}
	c.Flags().StringVar(&donde, "datos", "", "el archivo (SQLite) o la URL postgres://… cuyos datos se borran")
	return c
}

// legible is donde without a password.
func legible(donde string) string {
	if !basesql.EsPostgres(donde) {
		return donde
	}
	u, err := url.Parse(donde)
	if err != nil {
		return "postgres://…"
	}
	return u.Redacted()
}
