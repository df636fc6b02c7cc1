package reintento

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// guion answers each attempt with the next outcome (the last one repeats) and writes down what the
// loop did, hooks and sleeps included, in order.
type guion struct {
	resultados []Resultado
	n          int
	registro   []string
}

func (g *guion) intentar(context.Context) (int, Resultado) {
	r := g.resultados[min(g.n, len(g.resultados)-1)]
	g.n++
	return g.n, r
}

func (g *guion) avisos() Avisos[int] {
	return Avisos[int]{
		Intento: func(n, ultimo int) { g.registro = append(g.registro, fmt.Sprintf("intento %d (%d)", n, ultimo)) },
		Espera: func(n int, e Espera) {
			g.registro = append(g.registro, fmt.Sprintf("espera %d: %v techo %v ra %v", n, e.Duracion, e.Techo, e.PorRetryAfter))
		},
	}
}

func (g *guion) dormir(_ context.Context, d time.Duration) error {
	g.registro = append(g.registro, fmt.Sprintf("duerme %v", d))
	return nil
}

func TestCorrer(t *testing.T) {
	t.Parallel()
	respuesta := func(codigo int) Resultado { return Resultado{Respondio: true, Codigo: codigo} }
	conRA := func(codigo int, s int64) Resultado {
		return Resultado{Respondio: true, Codigo: codigo, RetryAfter: s, HayRetryAfter: true}
	}
	casos := []struct {
		nombre     string
		politica   Politica
		resultados []Resultado
		fin        Fin
		intentos   int
		registro   string
	}{
		{"éxito a la primera", PoliticaAlta(), []Resultado{respuesta(201)}, Definitivo, 1,
			"intento 1 (1)"},
		{"502 y luego 201", PoliticaAlta(), []Resultado{respuesta(502), respuesta(201)}, Definitivo, 2,
			"intento 1 (1)|espera 1: 250ms techo 500ms ra false|duerme 250ms|intento 2 (2)"},
		{"un 4xx no se reintenta", PoliticaAlta(), []Resultado{respuesta(422)}, Definitivo, 1,
			"intento 1 (1)"},
		{"cuatro 502: tres esperas, ninguna tras el último", PoliticaAlta(), []Resultado{respuesta(502)}, Agotado, 4,
			"intento 1 (1)|espera 1: 250ms techo 500ms ra false|duerme 250ms|" +
				"intento 2 (2)|espera 2: 500ms techo 1s ra false|duerme 500ms|" +
				"intento 3 (3)|espera 3: 1s techo 2s ra false|duerme 1s|intento 4 (4)"},
		{"tres sin respuesta en un chequeo", PoliticaRevision(), []Resultado{{}}, Agotado, 3,
			"intento 1 (1)|espera 1: 250ms techo 500ms ra false|duerme 250ms|" +
				"intento 2 (2)|espera 2: 500ms techo 1s ra false|duerme 500ms|intento 3 (3)"},
		{"destino prohibido: definitivo sin respuesta", PoliticaRevision(), []Resultado{{Definitivo: true}}, Definitivo, 1,
			"intento 1 (1)"},
		{"Retry-After corto se obedece exacto", PoliticaRevision(), []Resultado{conRA(503, 2), respuesta(200)}, Definitivo, 2,
			"intento 1 (1)|espera 1: 2s techo 0s ra true|duerme 2s|intento 2 (2)"},
		{"Retry-After largo: no se insiste", PoliticaAlta(), []Resultado{respuesta(502), conRA(503, 120)}, SinInsistir, 2,
			"intento 1 (1)|espera 1: 250ms techo 500ms ra false|duerme 250ms|intento 2 (2)"},
		{"Retry-After largo en el último intento: agotado, no se pregunta la espera", PoliticaRevision(),
			[]Resultado{respuesta(502), respuesta(502), conRA(503, 120)}, Agotado, 3,
			"intento 1 (1)|espera 1: 250ms techo 500ms ra false|duerme 250ms|" +
				"intento 2 (2)|espera 2: 500ms techo 1s ra false|duerme 500ms|intento 3 (3)"},
		{"un solo intento", Politica{Intentos: 1, Regla: ReglaAlta()}, []Resultado{respuesta(502)}, Agotado, 1,
			"intento 1 (1)"},
	}
	for _, c := range casos {
		t.Run(c.nombre, func(t *testing.T) {
			t.Parallel()
			g := &guion{resultados: c.resultados}
			p := c.politica
			p.Azar = fijo(0.5)
			p.Dormir = g.dormir
			d, err := Correr(context.Background(), p, g.intentar, g.avisos())
			if err != nil {
				t.Fatal(err)
			}
			if d.Fin != c.fin || d.Intentos != c.intentos || d.Ultimo != c.intentos || d.Resultado != c.resultados[min(c.intentos, len(c.resultados))-1] {
				t.Errorf("desenlace %+v; quiero fin %d tras %d intentos", d, c.fin, c.intentos)
			}
			if got := strings.Join(g.registro, "|"); got != c.registro {
				t.Errorf("registro:\n %s\nquiero:\n %s", got, c.registro)
			}
		})
	}
}

// Without hooks nothing is printed and nothing breaks; the default sleep is a real timer.
func TestCorrerSinAvisos(t *testing.T) {
	t.Parallel()
	n := 0
	p := PoliticaAlta()
	p.Azar = fijo(0)
	d, err := Correr(context.Background(), p, func(context.Context) (struct{}, Resultado) {
		n++
		return struct{}{}, Resultado{Respondio: true, Codigo: 503}
	}, Avisos[struct{}]{})
	if err != nil || d.Fin != Agotado || n != 4 {
		t.Fatalf("desenlace %+v, error %v, %d intentos", d, err, n)
	}
}

// A context that ends during an attempt or during a wait ends the loop at once with its error, and
// the attempt or wait it cut short is not reported.
func TestCorrerInterrumpido(t *testing.T) {
	t.Parallel()
	ctx, cancelar := context.WithCancel(context.Background())
	g := &guion{resultados: []Resultado{{}}}
	p := PoliticaAlta()
	p.Dormir = g.dormir
	d, err := Correr(ctx, p, func(ctx context.Context) (int, Resultado) {
		n, r := g.intentar(ctx)
		if n == 2 {
			cancelar()
		}
		return n, r
	}, g.avisos())
	if !errors.Is(err, context.Canceled) || d.Intentos != 2 {
		t.Fatalf("durante el intento: desenlace %+v, error %v", d, err)
	}
	if !slices.Equal(g.registro[:1], []string{"intento 1 (1)"}) || strings.Contains(strings.Join(g.registro, "|"), "intento 2") {
		t.Errorf("registro %q", g.registro)
	}

	g = &guion{resultados: []Resultado{{}}}
	p.Dormir = func(context.Context, time.Duration) error { return context.Canceled }
	d, err = Correr(context.Background(), p, g.intentar, g.avisos())
	if !errors.Is(err, context.Canceled) || d.Intentos != 1 || len(g.registro) != 2 {
		t.Fatalf("durante la espera: desenlace %+v, error %v, registro %q", d, err, g.registro)
	}

	// The default sleep ends with the context.
	ctx, cancelar = context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancelar()
	p = PoliticaAlta()
	p.Azar = fijo(1)
	inicio := time.Now()
	_, err = Correr(ctx, p, func(context.Context) (int, Resultado) {
		return 0, Resultado{Respondio: true, Codigo: 503, RetryAfter: 5, HayRetryAfter: true}
	}, Avisos[int]{})
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(inicio) > 4*time.Second {
		t.Fatalf("la espera de 5 s no se cortó: %v tras %v", err, time.Since(inicio))
	}
}
