package revisar

import (
	"bytes"
	"context"
	"net/http"
	"sync/atomic"
	"testing"

	"cursohttp/internal/prueba/servidortest"
	"cursohttp/pkg/curso"
	"cursohttp/pkg/ordenes/entorno"
	"cursohttp/pkg/sonda"
)

// consultorQueCorta cancels the run (Ctrl+C) during its second probe, which then fails as a cut
// probe does.
type consultorQueCorta struct {
	n        atomic.Int32
	cancelar context.CancelFunc
}

func (c *consultorQueCorta) Consultar(context.Context, string, int) sonda.Consulta {
	if c.n.Add(1) == 2 {
		c.cancelar()
		return sonda.Consulta{Tipo: sonda.RespuestaInvalida}
	}
	return sonda.Consulta{Tipo: sonda.Respuesta, Codigo: 200, Ms: 1}
}

// Ctrl+C while revisar probes a service: it stops with 130 and does not report the cut probe (nor
// the services after it) as if the services had answered so.
func TestRevisarInterrumpido(t *testing.T) {
	t.Parallel()
	ts := servidortest.Nuevo(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"servicios":[{"nombre":"uno","url":"u","limite_ms":2000},{"nombre":"dos","url":"u","limite_ms":2000},{"nombre":"tres","url":"u","limite_ms":2000}]}`))
	}))
	ctx, cancelar := context.WithCancel(context.Background())
	defer cancelar()
	var out, errOut bytes.Buffer
	c := Revisar(ctx, entorno.Entorno{Out: &out, Err: &errOut, Revisor: ts.URL}, "lectura-a", &consultorQueCorta{cancelar: cancelar})
	want := "SERVICIO     RESPUESTA          ACCIÓN        MOTIVO\nuno          200 en 1 ms        seguir        salió bien\n"
	if c != curso.Interrumpido || out.String() != want || errOut.Len() != 0 {
		t.Fatalf("código %d, salida %q, errores %q", c, out.String(), errOut.String())
	}
}
