package altasegura

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"cursohttp/pkg/reintento"
)

// Lesson 6 Series K (--defecto llave-por-intento): a new key on every attempt. Against a gateway
// that loses the first answer of every key, all four attempts are 502; the waits still promise
// «la misma llave» and the last line names the last attempt's key.
func TestLlavePorIntento(t *testing.T) {
	t.Parallel()
	base, vistas := guionista(t, guion{codigo: 502, cuerpo: perdida})
	n := 0
	var out bytes.Buffer
	politica := reintento.PoliticaAlta()
	politica.Azar = func() float64 { return 0.5 }
	politica.Dormir = func(context.Context, time.Duration) error { return nil }
	codigo := Correr(context.Background(), Opciones{
		Nombre: "agenda", URL: "http://127.0.0.1:18081/codigo/200", Pasarela: base, Politica: politica,
		LlavePorIntento: true, Salida: &out,
		Llave: func() string { n++; return fmt.Sprintf("llave-%d", n) },
	})
	want := "intento 1: 502 " + perdida + "\n  espero entre 0 y 500 ms y reintento con la misma llave\n" +
		"intento 2: 502 " + perdida + "\n  espero entre 0 y 1000 ms y reintento con la misma llave\n" +
		"intento 3: 502 " + perdida + "\n  espero entre 0 y 2000 ms y reintento con la misma llave\n" +
		"intento 4: 502 " + perdida + "\n" +
		"se agotaron los 4 intentos sin una respuesta definitiva; repetir más tarde con la llave llave-5 es seguro\n"
	if codigo != 1 || out.String() != want {
		t.Errorf("código %d, salida:\n%s\nse esperaba:\n%s", codigo, out.String(), want)
	}
	// As the course's broken loop: one key drawn before it, then one at the start of every turn.
	var llaves []string
	for _, v := range vistas() {
		llaves = append(llaves, v.cabeceras.Get("Idempotency-Key"))
	}
	if got := strings.Join(llaves, " "); got != "llave-2 llave-3 llave-4 llave-5" {
		t.Errorf("llaves enviadas: %s", got)
	}
}

// Without a key there is nothing to invent: --sin-llave behaves the same with or without the defect,
// and so does a first attempt that succeeds.
func TestLlavePorIntentoSinLlaveNoCambia(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		sinLlave bool
		guion    []guion
	}{
		{true, []guion{{codigo: 502, cuerpo: perdida}, {codigo: 201, cuerpo: agenda}}},
		{false, []guion{{codigo: 201, cuerpo: agenda}}},
	} {
		var salidas [2]string
		for i, defecto := range []bool{false, true} {
			base, _ := guionista(t, c.guion...)
			var out bytes.Buffer
			politica := reintento.PoliticaAlta()
			politica.Azar = func() float64 { return 0.5 }
			politica.Dormir = func(context.Context, time.Duration) error { return nil }
			Correr(context.Background(), Opciones{Nombre: "agenda", URL: "http://x/", SinLlave: c.sinLlave, Pasarela: base,
				Politica: politica, LlavePorIntento: defecto, Salida: &out, Llave: func() string { return llaveFija }})
			salidas[i] = out.String()
		}
		if salidas[0] != salidas[1] {
			t.Errorf("sin llave %v: sin el defecto\n%s\ncon él\n%s", c.sinLlave, salidas[0], salidas[1])
		}
	}
}
