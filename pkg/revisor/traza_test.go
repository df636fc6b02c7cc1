package revisor

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"cursohttp/internal/prueba"
	"cursohttp/internal/prueba/servidortest"
	"cursohttp/pkg/almacen"
	"cursohttp/pkg/bitacora"
	"cursohttp/pkg/observacion"
	"cursohttp/pkg/traza"
)

// The revisor's probes carry the trace on to the bench: as it came when the revisor observes
// nothing (it adds no span of its own), or from a span of the probe's own when it observes.
func TestLasSondasContinuanLaTraza(t *testing.T) {
	t.Parallel()
	const padre = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	for _, observa := range []bool{false, true} {
		recibidas := make(chan string, 4)
		lab := servidortest.Nuevo(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			recibidas <- r.Header.Get("traceparent")
		}))
		addr := strings.TrimPrefix(lab.URL, "http://")
		var out prueba.Buffer
		log := bitacora.NuevoLogger(&out, &out, false)
		obs := observacion.Observador{Programa: "revisor", Log: log, Detalle: observa}
		rv := Nuevo(Opciones{Log: log, Destinos: []string{addr}, Observacion: obs, EsperaEnCola: 10 * time.Millisecond,
			Almacen: almacen.NuevaMemoria(almacen.Opciones{Arranque: "6db25d01", Semillas: []almacen.Semilla{{Datos: almacen.Datos{Nombre: "uno", URL: lab.URL + "/x", LimiteMs: 2000}, Equipo: "a"}}})})
		t.Cleanup(rv.Cerrar)
		srv := servidortest.Nuevo(t, obs.Envolver(bitacora.Registrar(log, rv)))
		for _, p := range []struct{ metodo, ruta string }{{"GET", "/servicios/1/salud"}, {"POST", "/servicios/1/revisiones"}} {
			req, _ := http.NewRequest(p.metodo, srv.URL+p.ruta, nil)
			req.Header.Set("Authorization", "Bearer escritura-a")
			req.Header.Set("traceparent", padre)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			got := <-recibidas
			c, ok := traza.Leer(got)
			switch {
			case !observa && got != padre:
				t.Errorf("%s sin observar: la sonda mandó %q, no el traceparent que llegó", p.ruta, got)
			case observa && (!ok || c.Traza.String() != "4bf92f3577b34da6a3ce929d0e0e4736" || c.Padre.String() == "00f067aa0ba902b7" ||
				!strings.Contains(out.String(), "detalle: sonda GET "+lab.URL+"/x → 200 en ")):
				t.Errorf("%s observando: la sonda mandó %q; bitácora:\n%s", p.ruta, got, out.String())
			}
		}
	}
}
