// Package servidortest starts handlers on ephemeral ports with the suite's server settings (the
// course's status lines, Node's methods, the limits), for tests: what httptest.NewServer is for
// net/http's defaults. Only _test.go files import it.
package servidortest

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"cursohttp/pkg/encabezado"
	"cursohttp/pkg/servidor"
	"cursohttp/pkg/topes"
)

// Nuevo starts h on 127.0.0.1 on a free port as servidor.Nuevo configures it, on a listener wrapped
// as servidor.Escuchar wraps it, and closes it when the test ends.
func Nuevo(tb testing.TB, h http.Handler) *httptest.Server {
	tb.Helper()
	ts := httptest.NewUnstartedServer(h)
	ts.Listener = encabezado.Envolver(ts.Listener, encabezado.Opciones{Ociosa: topes.EsperaOciosa})
	ts.Config = servidor.Nuevo(h)
	ts.Start()
	tb.Cleanup(ts.Close)
	return ts
}
