package portype

import (
	"bytes"
	"context"
	"testing"

	"cursohttp/internal/prueba/ordenestest"
	"cursohttp/pkg/curso"
	"cursohttp/pkg/ordenes/entorno"
)

// S5 of lesson 7, verbatim [lesson L515-L521].
const salidaPorType = `409 https://revisor.example/problemas/llave-en-curso
  solo con el código: reconciliar (choca con el estado actual: relee y decide)
  con el type:        esperar (la petición original sigue en curso: espera y repite con la misma llave)
409 https://revisor.example/problemas/nombre-repetido
  solo con el código: reconciliar (choca con el estado actual: relee y decide)
  con el type:        reconciliar (ya existe: mira el miembro existente antes de crear otro)
`

func TestPorTypeContraElRevisor(t *testing.T) {
	t.Parallel()
	rev, _ := ordenestest.Revisor(t, 0) // the course's 500 ms save: the second alta arrives at 100 ms
	var out bytes.Buffer
	e := entorno.Entorno{Out: &out, Err: &out, Revisor: rev, Laboratorio: curso.URLLaboratorio}
	if c := PorType(context.Background(), e); c != 0 {
		t.Fatalf("código de salida %d:\n%s", c, out.String())
	}
	ordenestest.CompararLineas(t, out.String(), salidaPorType)
}

// What each command line becomes, seen through runF without running the program.
func TestLineasDeOrdenes(t *testing.T) {
	t.Parallel()
	ordenestest.Lineas(t, []ordenestest.Linea{
		{Construir: ordenestest.SoloEntorno(NuevoCmd), Linea: "--revisor http://r/", Anotado: `revisor="http://r" laboratorio="http://127.0.0.1:18081"`},
	})
}
