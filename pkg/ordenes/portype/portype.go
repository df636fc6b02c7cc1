// Package portype is `revisor por-type`, por-type.ts: the same 409 decided with the code alone
// and with the type.
package portype

import (
	"context"
	"fmt"
	"time"

	"cursohttp/pkg/cli"
	"cursohttp/pkg/ordenes/entorno"
	"cursohttp/pkg/tabladecision"

	"github.com/spf13/cobra"
)

// PorType is por-type.ts: the same 409 decided with the code alone and with the type. Two altas with
// the same key 100 ms apart (the second finds the first still saving: llave-en-curso), then a name
// that team a already has (nombre-repetido).
func PorType(ctx context.Context, e entorno.Entorno) int {
	lab := e.Laboratorio + entorno.Codigo200
	type resultado struct {
		r   entorno.Respuesta
		err error
	}
	primera := make(chan resultado, 1)
	go func() {
		r, err := e.Alta(ctx, "escritura-a", "llave-1", "correo", lab)
		primera <- resultado{r, err}
	}()
	segunda := make(chan resultado, 1)
	go func() {
		if err := e.Pausar(ctx, 100*time.Millisecond); err != nil {
			segunda <- resultado{err: err}
			return
		}
		r, err := e.Alta(ctx, "escritura-a", "llave-1", "correo", lab)
		segunda <- resultado{r, err}
	}()
	uno, dos := <-primera, <-segunda
	if uno.err != nil {
		return e.Fallo("por-type", uno.err)
	}
	if dos.err != nil {
		return e.Fallo("por-type", dos.err)
	}
	repetido, err := e.Alta(ctx, "escritura-a", "llave-2", "pagos", lab)
	if err != nil {
		return e.Fallo("por-type", err)
	}
	for _, r := range []entorno.Respuesta{dos.r, repetido} {
		tipo, hay := entorno.TypeDe(r)
		soloCodigo := tabladecision.Decidir(r.Codigo, nil, nil)
		var t *string
		if hay {
			t = &tipo
		}
		conType := tabladecision.Decidir(r.Codigo, nil, t)
		fmt.Fprintf(e.Out, "%d %s\n", r.Codigo, entorno.TextoJS(tipo, hay))
		fmt.Fprintf(e.Out, "  solo con el código: %s (%s)\n", soloCodigo.Accion, soloCodigo.Motivo)
		fmt.Fprintf(e.Out, "  con el type:        %s (%s)\n", conType.Accion, conType.Motivo)
	}
	return 0
}

// NuevoCmd is `revisor por-type`; runF nil runs PorType.
func NuevoCmd(f *entorno.Fabrica, runF func(context.Context, entorno.Entorno) int) *cobra.Command {
	return entorno.Armar(f, &cobra.Command{
		Use:   "por-type [opciones]",
		Short: "El mismo 409, dos decisiones: lo que agrega el type (por-type.ts)",
		Long: `Provoca dos 409 en el revisor (una llave en curso y un nombre repetido) y muestra qué decide
la tabla solo con el código y con el type. Necesita el revisor y el laboratorio recién arrancados.`,
		Args: cli.SinArgumentos,
	}, runF, PorType, entorno.ConRevisor, entorno.ConLaboratorio)
}
