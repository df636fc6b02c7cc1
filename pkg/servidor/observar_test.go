package servidor

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"cursohttp/pkg/bitacora"
	"cursohttp/pkg/eventos"
	"cursohttp/pkg/observacion"
)

// --panel and --token reach the observation: each request's event, with its trace, key and result,
// goes to the panel with the lab's token.
func TestEventoAlPanel(t *testing.T) {
	t.Parallel()
	recibidos := make(chan eventos.Evento, 10)
	panel := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/eventos" || r.Header.Get("Content-Type") != eventos.Tipo || r.Header.Get("Authorization") != "Bearer del-laboratorio" {
			t.Errorf("%s %s %s %q", r.Method, r.URL, r.Header.Get("Content-Type"), r.Header.Get("Authorization"))
		}
		sc := bufio.NewScanner(r.Body)
		for sc.Scan() {
			var ev eventos.Evento
			if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
				t.Errorf("%q: %v", sc.Text(), err)
			}
			recibidos <- ev
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer panel.Close()
	// --panel and --token, as the lab controller's servers have them.
	obs, cerrar := Opciones{Panel: panel.URL, Token: "del-laboratorio"}.Observar("revisor", bitacora.NuevoLogger(io.Discard, io.Discard, false))
	emisor := obs.Panel
	h := obs.Envolver(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		observacion.RegistroDe(r.Context()).Resultado = "respuesta repetida"
		w.Write([]byte("hola"))
	}))
	r := httptest.NewRequest("POST", "/servicios", nil)
	r.Header.Set("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
	r.Header.Set("Idempotency-Key", "alta-1")
	h.ServeHTTP(httptest.NewRecorder(), r)
	emisor.Cerrar(5 * time.Second)
	cerrar()
	select {
	case ev := <-recibidos:
		if ev.Programa != "revisor" || ev.Tipo != eventos.Peticion || ev.Traza != "4bf92f3577b34da6a3ce929d0e0e4736" ||
			ev.Padre != "00f067aa0ba902b7" || len(ev.Tramo) != 16 || ev.Metodo != "POST" || ev.Ruta != "/servicios" ||
			ev.Codigo != 200 || ev.Llave != "alta-1" || ev.Resultado != "respuesta repetida" || ev.Inicio.IsZero() {
			t.Errorf("evento %+v", ev)
		}
	default:
		t.Fatal("el panel no recibió el evento")
	}
}
