package main

import (
	"fmt"

	"github.com/spf13/pflag"

	"cursohttp/pkg/limitador"
	"cursohttp/pkg/revisor"
	"cursohttp/pkg/topes"
)

// limites are the rate-limit flags. Their defaults are the course's: a fixed window, and only
// Retry-After on the wire, so the lessons' transcripts replay unchanged. --tope-servicios bounds
// what a team can register (beyond the course; far above what the lessons register).
type limites struct {
	algoritmo     string
	cabeceras     bool
	topeServicios int
}

func (l *limites) banderas(fs *pflag.FlagSet) {
	fs.StringVar(&l.algoritmo, "limitador", limitador.AlgoritmoVentana,
		"algoritmo de los límites por credencial: ventana (la fija del curso), deslizante o cubeta")
	fs.BoolVar(&l.cabeceras, "cabeceras-ratelimit", false,
		"anuncia RateLimit-Policy y RateLimit (borrador IETF) en las rutas limitadas, también en el 429")
	fs.IntVar(&l.topeServicios, "tope-servicios", topes.ServiciosPorEquipo,
		"servicios por equipo, como mucho; una alta más recibe 409 demasiados-servicios")
}

// aplicar puts the algorithm of every limited route, with the course's quotas, into o.
func (l limites) aplicar(o *revisor.Opciones) error {
	f, err := limitador.FabricaDe(l.algoritmo)
	if err != nil {
		return fmt.Errorf("--limitador: %w", err)
	}
	o.Limitador = f
	o.CabecerasRateLimit = l.cabeceras
	if l.topeServicios < 1 {
		return fmt.Errorf("--tope-servicios debe ser un número entero mayor que 0, no %d", l.topeServicios)
	}
	o.TopeServicios = l.topeServicios
	return nil
}
