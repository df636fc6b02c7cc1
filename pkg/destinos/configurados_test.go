package destinos

import (
	"slices"
	"testing"
)

func TestConfigurados(t *testing.T) {
	t.Parallel()
	entorno := func(m map[string]string) func(string) (string, bool) {
		return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
	}
	casos := []struct {
		nombre   string
		bandera  string
		variable map[string]string
		want     []string
		mal      bool
	}{
		{"nada: el laboratorio del curso", "", nil, nil, false},
		{"la variable", "", map[string]string{"REVISOR_DESTINOS": "10.0.0.1:80, [::1]:81"}, []string{"10.0.0.1:80", "[::1]:81"}, false},
		{"la variable vacía: ninguno", "", map[string]string{"REVISOR_DESTINOS": ""}, []string{""}, false},
		{"la bandera gana", "127.0.0.1:9", map[string]string{"REVISOR_DESTINOS": "10.0.0.1:80"}, []string{"127.0.0.1:9"}, false},
		{"una bandera mal escrita", "laboratorio:18081", nil, nil, true},
		{"una variable mal escrita", "", map[string]string{"REVISOR_DESTINOS": "10.0.0.1"}, nil, true},
	}
	for _, c := range casos {
		got, err := Configurados(c.bandera, entorno(c.variable))
		if (err != nil) != c.mal || !slices.Equal(got, c.want) || (got == nil) != (c.want == nil) {
			t.Errorf("%s: %q, %v", c.nombre, got, err)
		}
	}
}
