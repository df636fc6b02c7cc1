package programas

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"cursohttp/internal/prueba"
	"cursohttp/internal/prueba/servidortest"
	"cursohttp/pkg/laboratorio"
	"cursohttp/pkg/servidor"
)

// laboratorioDePrueba starts our laboratory on an ephemeral port, with its per-request log.
func laboratorioDePrueba(t *testing.T) (string, *prueba.Buffer) {
	t.Helper()
	registro := &prueba.Buffer{}
	log := servidor.NuevoLogger(registro, registro, false)
	ts := servidortest.Nuevo(t, servidor.Registrar(log, laboratorio.Nuevo(zerolog.Nop())))
	return ts.URL, registro
}

// sinEsperas sleeps no time at all but still honours ctx, so retry loops run instantly.
func sinEsperas(ctx context.Context, _ time.Duration) error { return ctx.Err() }

// entornoDePrueba is an Entorno that writes to out and never sleeps.
func entornoDePrueba(out *bytes.Buffer) Entorno {
	return Entorno{Out: out, Err: out, Cliente: NuevoCliente(), Dormir: sinEsperas}
}

// compararLineas fails with the first differing line, which is easier to read than a whole diff.
func compararLineas(t *testing.T, obtenido, esperado string) {
	t.Helper()
	if obtenido == esperado {
		return
	}
	o, e := strings.Split(obtenido, "\n"), strings.Split(esperado, "\n")
	for i := 0; i < max(len(o), len(e)); i++ {
		var lo, le string
		if i < len(o) {
			lo = o[i]
		}
		if i < len(e) {
			le = e[i]
		}
		if lo != le {
			t.Fatalf("línea %d:\n obtenida: %q\n esperada: %q\n--- salida completa:\n%s", i+1, lo, le, obtenido)
		}
	}
}

// sinRedirecciones answers 301 to anything, to prove the client does not follow it.
var sinRedirecciones = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	http.Redirect(w, r, "/otra", http.StatusMovedPermanently)
})
