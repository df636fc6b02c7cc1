package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"cursohttp/pkg/idempotencia"
)

func TestVigenciaLlaves(t *testing.T) {
	t.Parallel()
	casos := []struct {
		nombre  string
		args    []string
		entorno map[string]string
		want    time.Duration
		falla   bool
	}{
		{"por omisión", nil, nil, 24 * time.Hour, false},
		{"ejercicio 3", nil, map[string]string{"REVISOR_VIGENCIA_MS": "5000"}, 5 * time.Second, false},
		{"la bandera gana", []string{"--vigencia-llaves", "90s"}, map[string]string{"REVISOR_VIGENCIA_MS": "5000"}, 90 * time.Second, false},
		{"variable ilegible", nil, map[string]string{"REVISOR_VIGENCIA_MS": "5s"}, 0, true},
		{"variable vacía", nil, map[string]string{"REVISOR_VIGENCIA_MS": ""}, 0, true},
	}
	for _, c := range casos {
		fs := pflag.NewFlagSet("revisor", pflag.ContinueOnError)
		var v vigenciaLlaves
		v.banderas(fs)
		if err := fs.Parse(c.args); err != nil {
			t.Fatalf("%s: %v", c.nombre, err)
		}
		o, err := v.opciones(func(k string) (string, bool) { s, ok := c.entorno[k]; return s, ok })
		reg := idempotencia.Nuevo(o)
		if (err != nil) != c.falla {
			t.Fatalf("%s: error %v", c.nombre, err)
		}
		if err == nil && reg.Vigencia() != c.want {
			t.Errorf("%s: vigencia %v, se esperaba %v", c.nombre, reg.Vigencia(), c.want)
		}
	}
	fs := pflag.NewFlagSet("revisor", pflag.ContinueOnError)
	var v vigenciaLlaves
	v.banderas(fs)
	for _, malo := range []string{"0s", "-1m", "cinco"} {
		if err := fs.Parse([]string{"--vigencia-llaves", malo}); err == nil {
			t.Errorf("--vigencia-llaves %s se aceptó", malo)
		}
	}
}

// The store's bounds come from their flags; a bound under 1 stops the revisor with one line.
func TestTopesDeLlaves(t *testing.T) {
	t.Parallel()
	fs := pflag.NewFlagSet("revisor", pflag.ContinueOnError)
	var v vigenciaLlaves
	v.banderas(fs)
	if err := fs.Parse([]string{"--tope-llaves", "50", "--tope-llaves-credencial", "10", "--tope-llaves-en-curso", "2"}); err != nil {
		t.Fatal(err)
	}
	o, err := v.opciones(func(string) (string, bool) { return "", false })
	reg := idempotencia.Nuevo(o)
	if err != nil || reg.Tope() != 50 || reg.TopePorCredencial() != 10 || reg.EnCursoPorCredencial() != 2 {
		t.Fatalf("%v: tope %d, por credencial %d, en curso %d", err, reg.Tope(), reg.TopePorCredencial(), reg.EnCursoPorCredencial())
	}
	for _, args := range [][]string{{"--tope-llaves", "0"}, {"--tope-llaves-credencial", "-1"}, {"--tope-llaves-en-curso", "0"}, {"--tope-servicios", "0"}} {
		var out, errOut bytes.Buffer
		codigo := run(context.Background(), append(args, "--puerto", "0"), nil, &out, &errOut)
		if codigo != 2 || !strings.HasPrefix(errOut.String(), "revisor: "+args[0]+" debe ser un número entero mayor que 0") || strings.Count(errOut.String(), "\n") != 1 {
			t.Errorf("%v: código %d, stderr %q", args, codigo, errOut.String())
		}
	}
}
