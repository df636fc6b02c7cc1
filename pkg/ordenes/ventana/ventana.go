// Package ventana is `revisor ventana`, fig04_02.ts: the fixed window up close.
package ventana

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"time"

	"cursohttp/pkg/cli"
	"cursohttp/pkg/limitador"
	"cursohttp/pkg/ordenes/entorno"

	"github.com/spf13/cobra"
)

// fig04_02.ts's plan: 3 permits per 1000 ms, and when each request asks, in ms since the start.
const (
	maximoVentana = 3
	ventanaMs     = 1000
)

var planVentana = []int{0, 950, 960, 1005, 1010, 1015, 1020}

// Ventana is fig04_02.ts: the fixed window up close, with a short window so nobody waits a minute.
// At the boundary it lets 5 of 3 through in about 70 ms. algoritmo picks another limiter
// ("deslizante", "cubeta") to see what they do with the same plan; "" or "ventana" is the course's.
func Ventana(ctx context.Context, e entorno.Entorno, algoritmo string) int {
	if algoritmo == "" {
		algoritmo = limitador.AlgoritmoVentana
	}
	lim, err := limitador.Nuevo(algoritmo, maximoVentana, ventanaMs*time.Millisecond)
	if err != nil {
		return e.Fallo("ventana", err)
	}
	inicio := e.Hora()
	var permitidas []int64
	for _, cuando := range planVentana {
		falta := time.Duration(cuando)*time.Millisecond - e.Hora().Sub(inicio)
		if err := e.Pausar(ctx, max(0, falta)); err != nil {
			return e.Fallo("ventana", err)
		}
		// The limiter is asked at the instant the plan names, the line says when it really was: a
		// loaded machine that wakes late changes the milliseconds printed, never the lesson's 5 of 3
		// at the boundary (docs/diferencias.md).
		v := lim.Permitir("demo", inicio.Add(time.Duration(cuando)*time.Millisecond))
		ms := int64(math.Round(float64(e.Hora().Sub(inicio)) / float64(time.Millisecond)))
		texto := "permitida"
		if v.Permitido {
			permitidas = append(permitidas, ms)
		} else {
			texto = "rechazada: Retry-After " + strconv.FormatInt(v.RetryAfter, 10)
		}
		fmt.Fprintf(e.Out, "%s ms  %s\n", entorno.PadStart(strconv.FormatInt(ms, 10), 5), texto)
	}
	var rafaga []int64
	for _, ms := range permitidas {
		if ms >= 900 {
			rafaga = append(rafaga, ms)
		}
	}
	primera, ultima := "undefined", "undefined" // what JavaScript prints for an empty burst
	if len(rafaga) > 0 {
		primera = strconv.FormatInt(rafaga[0], 10)
		ultima = strconv.FormatInt(rafaga[len(rafaga)-1], 10)
	}
	fmt.Fprintln(e.Out)
	fmt.Fprintf(e.Out, "límite: %d cada %d ms\n", maximoVentana, ventanaMs)
	fmt.Fprintf(e.Out, "permitidas entre %s y %s ms: %d\n", primera, ultima, len(rafaga))
	return 0
}

// NuevoCmd is `revisor ventana`; runF nil runs Ventana with the --algoritmo chosen.
func NuevoCmd(f *entorno.Fabrica, runF func(ctx context.Context, e entorno.Entorno, algoritmo string) int) *cobra.Command {
	if runF == nil {
		runF = Ventana
	}
	var algoritmo string
	c := &cobra.Command{
		Use:   "ventana [opciones]",
		Short: "La ventana fija vista de cerca: 3 permisos cada 1000 ms (fig04_02.ts)",
		Long: `Pide siete permisos al limitador en momentos planeados y muestra que, en el borde de la
ventana fija, pasan 5 de 3 en unos 70 ms. Con --algoritmo deslizante o cubeta se ve qué hacen
los otros limitadores con el mismo plan. No necesita ningún servidor.`,
		Args: cli.SinArgumentos,
		RunE: func(c *cobra.Command, _ []string) error {
			return cli.Salir(runF(c.Context(), f.Entorno, algoritmo))
		},
	}
	c.Flags().StringVar(&algoritmo, "algoritmo", limitador.AlgoritmoVentana, "limitador: ventana (la del curso), deslizante o cubeta")
	return c
}
