package ritmo_test

import (
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

	for _, tope := range []time.Duration{0, 65 * time.Second} {
		m := ritmo.Nuevo(ritmo.Opciones{Tope: tope, Ahora: reloj})
		m.Anotar(http.StatusAccepted, respuesta)
		espera, insistir := m.Espera()
		fmt.Println(espera, insistir)
	}
	// Output:
	// 58s false
	// 58s true
}
