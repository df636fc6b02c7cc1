package fueradetabla

import (
	"bytes"
	"context"
	"testing"

	"cursohttp/internal/prueba/leccion7"
	"cursohttp/internal/prueba/ordenestest"
)

func TestFueraDeTablaContraElLaboratorio(t *testing.T) {
	t.Parallel()
	lab, _ := ordenestest.Laboratorio(t)
	var out bytes.Buffer
	e := ordenestest.Entorno(&out)
	e.Laboratorio = lab
	if c := FueraDeTabla(context.Background(), e); c != 0 {
		t.Fatalf("código de salida %d:\n%s", c, out.String())
	}
	ordenestest.CompararLineas(t, out.String(), leccion7.FueraDeTabla)
}

// What each command line becomes, seen through runF without running the program.
func TestLineasDeOrdenes(t *testing.T) {
	t.Parallel()
	ordenestest.Lineas(t, []ordenestest.Linea{
		{Construir: ordenestest.SoloEntorno(NuevoCmd), Linea: "--laboratorio http://x", Anotado: `revisor="" laboratorio="http://x"`},
	})
}
