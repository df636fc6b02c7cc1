package main

import (
	"testing"
	"time"

	"github.com/spf13/pflag"
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
		reg, err := v.registro(func(k string) (string, bool) { s, ok := c.entorno[k]; return s, ok })
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
