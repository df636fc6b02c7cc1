package carga

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

func TestMedirCuentaCadaRespuesta(t *testing.T) {
	t.Parallel()
	var atendidas atomic.Int64
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		atendidas.Add(1)
		if r.Header.Get("X-Prueba") != "si" {
			w.WriteHeader(400)
			return
		}
		w.WriteHeader(204)
	}))
	defer ts.Close()
	p := Peticion{Metodo: "GET", URL: ts.URL, Cabeceras: http.Header{"X-Prueba": {"si"}}}
	r := Medir(context.Background(), NuevoCliente(4), p, 4, time.Second)
	if r.Peticiones == 0 || r.Codigos[204] != r.Peticiones || r.Errores != 0 {
		t.Fatalf("resultado %+v", r)
	}
	if int64(r.Peticiones) > atendidas.Load() {
		t.Errorf("contó %d respuestas y el servidor atendió %d", r.Peticiones, atendidas.Load())
	}
	if r.P50 <= 0 || r.P99 < r.P50 || r.PorSegundo() <= 0 {
		t.Errorf("percentiles %v %v, %f/s", r.P50, r.P99, r.PorSegundo())
	}
}

func TestNoSigueRedirecciones(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/otra", http.StatusMovedPermanently)
	}))
	defer ts.Close()
	r := Medir(context.Background(), NuevoCliente(1), Peticion{Metodo: "GET", URL: ts.URL}, 1, 500*time.Millisecond)
	if r.Codigos[301] == 0 || len(r.Codigos) != 1 {
		t.Errorf("códigos %v", r.Codigos)
	}
}
