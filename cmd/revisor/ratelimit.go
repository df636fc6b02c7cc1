package main

import (
	"fmt"

	"github.com/spf13/pflag"

	"cursohttp/pkg/limitador"
	"cursohttp/pkg/revisor"
)

// limites are the rate-limit flags. Their defaults are the course's: a fixed window, and only
// Retry-After on the wire, so the lessons' transcripts replay unchanged.
type limites struct {
	algoritmo string
	cabeceras bool
}

func (l *limites) banderas(fs *pflag.FlagSet) {
	fs.StringVar(&l.algoritmo, "limitador", limitador.AlgoritmoVentana,
		"algoritmo de los límites por credencial: ventana (la fija del curso), deslizante o cubeta")
	fs.BoolVar(&l.cabeceras, "cabeceras-ratelimit", false,
		"anuncia RateLimit-Policy y RateLimit (borrador IETF) en las rutas limitadas, también en el 429")
}

// aplicar puts the algorithm of every limited route, with the course's quotas, into o.
func (l limites) aplicar(o *revisor.Opciones) error {
	f, err := limitador.FabricaDe(l.algoritmo)
	if err != nil {
		return fmt.Errorf("--limitador: %w", err)
	}
	o.Limitador = f
	o.CabecerasRateLimit = l.cabeceras
	return nil
}
