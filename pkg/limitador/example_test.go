package limitador_test

import (
	"fmt"
	"time"

	"cursohttp/pkg/limitador"
)

// The revisor's limit: 3 revision requests per credential every 60 s, with a computed Retry-After.
func Example() {
	revisiones := limitador.NuevaVentanaFija(3, time.Minute)
	inicio := time.Date(2026, 10, 21, 13, 19, 9, 0, time.UTC)
	for _, s := range []int{0, 1, 2, 3, 23} {
		v := revisiones.Permitir("revisiones:escritura-a", inicio.Add(time.Duration(s)*time.Second))
		if v.Permitido {
			fmt.Printf("%2d s  202  RateLimit: %s\n", s, limitador.ValorRateLimit("revisiones", v))
		} else {
			fmt.Printf("%2d s  429  Retry-After: %d\n", s, v.RetryAfter)
		}
	}
	fmt.Println("RateLimit-Policy:", limitador.ValorRateLimitPolicy("revisiones", revisiones.Politica()))
	// Output:
	//  0 s  202  RateLimit: "revisiones";r=2;t=60
	//  1 s  202  RateLimit: "revisiones";r=1;t=59
	//  2 s  202  RateLimit: "revisiones";r=0;t=58
	//  3 s  429  Retry-After: 57
	// 23 s  429  Retry-After: 37
	// RateLimit-Policy: "revisiones";q=3;w=60
}

// A client reads what is left before it is refused.
func ExampleLeerRateLimit() {
	limites, err := limitador.LeerRateLimit(`"burst";t=7;r=1, "daily";r=900;t=86400`)
	if err != nil {
		fmt.Println("se ignora:", err)
		return
	}
	for _, l := range limites {
		fmt.Printf("%s: quedan %d durante %s\n", l.Politica, l.Restantes, l.Reinicio)
	}
	// Output:
	// burst: quedan 1 durante 7s
	// daily: quedan 900 durante 24h0m0s
}
