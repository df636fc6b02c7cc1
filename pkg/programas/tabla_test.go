package programas

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"cursohttp/internal/prueba/leccion7"
)

func TestTabla23ContraElLaboratorio(t *testing.T) {
	t.Parallel()
	lab, registro := laboratorioDePrueba(t)
	var out bytes.Buffer
	e := entornoDePrueba(&out)
	e.Laboratorio = lab
	if c := Tabla23(context.Background(), e); c != 0 {
		t.Fatalf("código de salida %d, se esperaba 0:\n%s", c, out.String())
	}
	compararLineas(t, out.String(), leccion7.Tabla23)
	// One GET per code and nothing else: 301 and 308 were not followed.
	if n := strings.Count(registro.String(), "GET /codigo/"); n != len(codigosDelCurso) {
		t.Errorf("el laboratorio vio %d peticiones, se esperaban %d:\n%s", n, len(codigosDelCurso), registro)
	}
}

func TestFueraDeTablaContraElLaboratorio(t *testing.T) {
	t.Parallel()
	lab, _ := laboratorioDePrueba(t)
	var out bytes.Buffer
	e := entornoDePrueba(&out)
	e.Laboratorio = lab
	if c := FueraDeTabla(context.Background(), e); c != 0 {
		t.Fatalf("código de salida %d:\n%s", c, out.String())
	}
	compararLineas(t, out.String(), leccion7.FueraDeTabla)
}

func TestTabla23SinLaboratorioSaleConUno(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	e := entornoDePrueba(&out)
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
	lab, _ := laboratorioDePrueba(t)
	ctx, cancelar := context.WithCancel(context.Background())
	cancelar()
	var out, errOut bytes.Buffer
	e := Entorno{Out: &out, Err: &errOut, Laboratorio: lab}
	if c := Tabla23(ctx, e); c != 130 {
		t.Fatalf("código de salida %d, se esperaba 130", c)
	}
	if errOut.Len() != 0 {
		t.Errorf("errores: %q", errOut.String())
	}
}
