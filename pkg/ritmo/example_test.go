package ritmo_test

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"cursohttp/pkg/ritmo"
)

// The revisor with --cabeceras-ratelimit says the window is spent for 58 more seconds: a client
// with the course's 5 s cap does not go early into a 429; one whose cap covers the window waits.
func Example() {
	ahora := time.Date(2026, 10, 21, 13, 19, 11, 0, time.UTC)
	reloj := func() time.Time { return ahora }
	respuesta := http.Header{}
	respuesta.Set("RateLimit-Policy", `"revisiones";q=3;w=60`)
	respuesta.Set("RateLimit", `"revisiones";r=0;t=58`)

	dormir := func(_ context.Context, d time.Duration) error { fmt.Println("duerme", d); return nil }
	for _, tope := range []time.Duration{0, 65 * time.Second} {
		m := ritmo.Nuevo(ritmo.Opciones{Tope: tope, Ahora: reloj, Dormir: dormir})
		m.Anotar(http.StatusAccepted, respuesta)
		if _, err := m.Esperar(context.Background()); err != nil {
			fmt.Println(err)
		}
	}
	// Output:
	// el servidor pide esperar 58 s y el tope es 5 s
	// duerme 58s
}
