package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/spf13/pflag"

	"cursohttp/pkg/limitador"
	"cursohttp/pkg/revisor"
	"cursohttp/pkg/topes"
)

func TestBanderasDeLimites(t *testing.T) {
	t.Parallel()
	casos := []struct {
		args      []string
		algoritmo string
		cabeceras bool
	}{
		{nil, limitador.AlgoritmoVentana, false}, // the course's
		{[]string{"--limitador", "deslizante"}, limitador.AlgoritmoDeslizante, false},
		{[]string{"--limitador=cubeta", "--cabeceras-ratelimit"}, limitador.AlgoritmoCubeta, true},
	}
	for _, c := range casos {
		var l limites
		fs := pflag.NewFlagSet("revisor", pflag.ContinueOnError)
		l.banderas(fs)
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		var o revisor.Opciones
		if err := l.aplicar(&o); err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if p := o.Limitador(topes.Revisiones, revisor.Ventana).Politica(); p.Nombre != c.algoritmo || p.Cuota != 3 || p.Ventana != revisor.Ventana {
			t.Errorf("%v: %+v", c.args, p)
		}
		if o.CabecerasRateLimit != c.cabeceras {
			t.Errorf("%v: cabeceras %v", c.args, o.CabecerasRateLimit)
		}
	}
}

// An unknown algorithm stops the revisor before it listens, with exit code 2 and one line.
func TestLimitadorDesconocido(t *testing.T) {
	t.Parallel()
	var out, errOut bytes.Buffer
	codigo := run(context.Background(), []string{"--limitador", "cubo", "--puerto", "0"}, nil, &out, &errOut)
	if want := "revisor: --limitador: algoritmo desconocido «cubo»: usa ventana, deslizante o cubeta\n"; codigo != 2 || errOut.String() != want || out.Len() != 0 {
		t.Errorf("código %d, stdout %q, stderr %q", codigo, out.String(), errOut.String())
	}
}
