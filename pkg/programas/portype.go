package programas

import (
	"context"
	"fmt"
	"time"

	"cursohttp/pkg/cli"
	"cursohttp/pkg/decision"
	"cursohttp/pkg/jsonjs"

	"github.com/spf13/cobra"
)

const urlDelLaboratorio200 = "/codigo/200"

// alta sends POST /servicios with {nombre, url} as JSON.stringify writes it.
func (e Entorno) alta(ctx context.Context, credencial, llave, nombre, url string) (respuesta, error) {
	cuerpo := jsonjs.Codificar(jsonjs.Objeto{{Nombre: "nombre", Valor: nombre}, {Nombre: "url", Valor: url}})
	cab := map[string]string{
		"Authorization": "Bearer " + credencial,
		"Content-Type":  "application/json",
	}
	if llave != "" {
		cab["Idempotency-Key"] = llave
	}
	return e.pedir(ctx, "POST", e.Revisor+"/servicios", cab, cuerpo)
}

// PorType is por-type.ts: the same 409 decided with the code alone and with the type. Two altas with
// the same key 100 ms apart (the second finds the first still saving: llave-en-curso), then a name
// that team a already has (nombre-repetido).
func PorType(ctx context.Context, e Entorno) int {
	lab := e.Laboratorio + urlDelLaboratorio200
	type resultado struct {
		r   respuesta
		err error
	}
	primera := make(chan resultado, 1)
	go func() {
		r, err := e.alta(ctx, "escritura-a", "llave-1", "correo", lab)
		primera <- resultado{r, err}
	}()
	segunda := make(chan resultado, 1)
	go func() {
		if err := e.dormir(ctx, 100*time.Millisecond); err != nil {
			segunda <- resultado{err: err}
			return
		}
		r, err := e.alta(ctx, "escritura-a", "llave-1", "correo", lab)
		segunda <- resultado{r, err}
	}()
	uno, dos := <-primera, <-segunda
	if uno.err != nil {
		return e.fallo("por-type", uno.err)
	}
	if dos.err != nil {
		return e.fallo("por-type", dos.err)
	}
	repetido, err := e.alta(ctx, "escritura-a", "llave-2", "pagos", lab)
	if err != nil {
		return e.fallo("por-type", err)
	}
	for _, r := range []respuesta{dos.r, repetido} {
		tipo, hay := typeDe(r)
		soloCodigo := decision.Decidir(r.codigo, nil, nil)
		var t *string
		if hay {
			t = &tipo
		}
		conType := decision.Decidir(r.codigo, nil, t)
		fmt.Fprintf(e.Out, "%d %s\n", r.codigo, textoJS(tipo, hay))
		fmt.Fprintf(e.Out, "  solo con el código: %s (%s)\n", soloCodigo.Accion, soloCodigo.Motivo)
		fmt.Fprintf(e.Out, "  con el type:        %s (%s)\n", conType.Accion, conType.Motivo)
	}
	return 0
}

// nuevoCmdPorType is `revisor por-type`; runF nil runs PorType.
func nuevoCmdPorType(f *Fabrica, runF func(context.Context, Entorno) int) *cobra.Command {
	return armar(f, &cobra.Command{
		Use:   "por-type [opciones]",
		Short: "El mismo 409, dos decisiones: lo que agrega el type (por-type.ts)",
		Long: `Provoca dos 409 en el revisor (una llave en curso y un nombre repetido) y muestra qué decide
la tabla solo con el código y con el type. Necesita el revisor y el laboratorio recién arrancados.`,
		Args: cli.SinArgumentos,
	}, runF, PorType, conRevisor, conLaboratorio)
}
