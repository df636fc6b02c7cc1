package programas

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"cursohttp/pkg/jsonjs"
	"cursohttp/pkg/reintento"
)

// RetryAfter is fig04_03.ts: Retry-After read in its two forms, seconds or an HTTP date, and what
// is not either (a word, or no header at all) says nothing about how long to wait.
func RetryAfter(e Entorno) int {
	dentroDe90 := e.ahora().Add(90 * time.Second).UTC().Format(http.TimeFormat)
	valores := []*string{ptr("120"), ptr("0"), &dentroDe90, ptr("Wed, 21 Oct 2015 07:28:00 GMT"), ptr("mañana"), nil}
	for _, v := range valores {
		texto, resultado := "(sin la cabecera)", "null: no dice cuánto esperar"
		if v != nil {
			texto = string(jsonjs.Codificar(*v))
			if s, ok := reintento.SegundosDeEspera(*v, e.ahora()); ok {
				resultado = strconv.FormatInt(s, 10)
			}
		}
		fmt.Fprintf(e.Out, "%s → %s\n", padEnd(texto, 34), resultado)
	}
	return 0
}

func ptr(s string) *string { return &s }
