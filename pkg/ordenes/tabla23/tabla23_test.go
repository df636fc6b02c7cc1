package tabla23

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"cursohttp/internal/prueba/leccion7"
	"cursohttp/internal/prueba/ordenestest"
	"cursohttp/pkg/ordenes/entorno"
)

func TestTabla23ContraElLaboratorio(t *testing.T) {
	t.Parallel()
	lab, registro := ordenestest.Laboratorio(t)
	var out bytes.Buffer
	e := ordenestest.Entorno(&out)
	e.Laboratorio = lab
	if c := Tabla23(context.Background(), e); c != 0 {
		t.Fatalf("código de salida %d, se esperaba 0:\n%s", c, out.String())
	}
	ordenestest.CompararLineas(t, out.String(), leccion7.Tabla23)
	// One GET per code and nothing else: 301 and 308 were not followed.
	if n := strings.Count(registro.String(), "GET /codigo/"); n != len(entorno.CodigosDelCurso) {
		t.Errorf("el laboratorio vio %d peticiones, se esperaban %d:\n%s", n, len(entorno.CodigosDelCurso), registro)
	}
}

func TestTabla23SinLaboratorioSaleConUno(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	e := ordenestest.Entorno(&out)
	e.Laboratorio = "http://127.0.0.1:1" // nothing listens on port 1
	if c := Tabla23(context.Background(), e); c != 1 {
		t.Fatalf("código de salida %d, se esperaba 1", c)
	}
	if !strings.HasPrefix(out.String(), "CÓDIGO  ACCIÓN") || !strings.Contains(out.String(), "tabla23: ") {
		t.Errorf("salida inesperada:\n%s", out.String())
	}
}

// Ctrl+C ends the program quietly with 130, as a shell expects, not with an error sentence.
func TestInterrumpidoSaleCon130(t *testing.T) {
	t.Parallel()
	lab, _ := ordenestest.Laboratorio(t)
	ctx, cancelar := context.WithCancel(context.Background())
	cancelar()
	var out, errOut bytes.Buffer
	e := entorno.Entorno{Out: &out, Err: &errOut, Laboratorio: lab}
	if c := Tabla23(ctx, e); c != 130 {
		t.Fatalf("código de salida %d, se esperaba 130", c)
	}
	if errOut.Len() != 0 {
		t.Errorf("errores: %q", errOut.String())
	}
}

// What each command line becomes, seen through runF without running the program.
func TestLineasDeOrdenes(t *testing.T) {
	t.Parallel()
	ordenestest.Lineas(t, []ordenestest.Linea{
		{Construir: ordenestest.SoloEntorno(NuevoCmd), Anotado: `revisor="" laboratorio="http://127.0.0.1:18081"`},
		{Construir: ordenestest.SoloEntorno(NuevoCmd), Linea: "--laboratorio http://127.0.0.1:28081//", Anotado: `revisor="" laboratorio="http://127.0.0.1:28081"`},
	})
}
