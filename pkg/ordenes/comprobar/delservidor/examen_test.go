package delservidor

import (
	"context"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"cursohttp/internal/prueba"
	"cursohttp/pkg/almacen"
	"cursohttp/pkg/examen"
	"cursohttp/pkg/idempotencia"
	"cursohttp/pkg/revisor"
	"cursohttp/pkg/variantes"
)

// The suite's revisor passes every server check, expiry included (its clock and the checker's
// wait are one fake clock: no real waiting); --defecto sin-huella fails exactly its one.
func TestComprobarServidor(t *testing.T) {
	t.Parallel()
	sinHuella, err := variantes.Resolver(variantes.Revisor, variantes.Pedido{Defecto: variantes.SinHuella})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		nombre   string
		programa variantes.Eleccion
		fallan   []string
	}{
		{"el revisor del curso", variantes.Eleccion{}, nil},
		{"sin-huella", sinHuella, []string{"misma-llave-otro-cuerpo"}},
	} {
		t.Run(c.nombre, func(t *testing.T) {
			t.Parallel()
			reloj := prueba.NuevoReloj(time.Date(2026, 10, 21, 22, 0, 0, 0, time.UTC))
			alm := almacen.NuevaMemoria(almacen.Opciones{Semillas: almacen.Semillas(),
				Llaves: idempotencia.Opciones{Vigencia: time.Minute, Reloj: reloj.Ahora}})
			rv := revisor.Nuevo(revisor.Opciones{Almacen: alm, Programa: c.programa, Guardar: 50 * time.Millisecond})
			defer rv.Cerrar()
			srv := httptest.NewServer(rv)
			defer srv.Close()
			cs, err := ComprobarServidor(context.Background(), OpcionesServidor{Base: srv.URL, Vigencia: time.Minute, Dormir: reloj.Dormir})
			if err != nil {
				t.Fatal(err)
			}
			var ids, fallan []string
			var b strings.Builder
			examen.EscribirComprobaciones(&b, cs, "del servidor")
			for _, x := range cs {
				ids = append(ids, x.ID)
				if !x.Paso {
					fallan = append(fallan, x.ID)
				}
			}
			if !slices.Equal(ids, IDsServidor) || !slices.Equal(fallan, c.fallan) {
				t.Errorf("comprobaciones %v, fallan %v; quiero %v\n%s", ids, fallan, c.fallan, b.String())
			}
			if want := "comprobaciones del servidor pasaron\n"; !strings.HasSuffix(b.String(), want) {
				t.Errorf("resumen:\n%s", b.String())
			}
		})
	}
}
