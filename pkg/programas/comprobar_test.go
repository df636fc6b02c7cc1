package programas

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"strings"
	"testing"

	"cursohttp/pkg/decision"
	"cursohttp/pkg/laboratorio"
	"cursohttp/pkg/problema"
	respuestas "cursohttp/pkg/respuesta"
)

// S12 of lesson 7, verbatim [lesson L2880-L2890], without the shell's echo line.
const salidaComprobarTabla = `ok    los 23 códigos del curso caen en una de las seis acciones
ok    corregir, reautenticar, reconciliar y rendirse nunca reintentan
ok    un type conocido afina el código: el mismo 409 es esperar o reconciliar
ok    un type que la tabla no conoce se decide por el código
ok    un type heredado de Object.prototype no revienta: se decide por el código
ok    un código que la tabla no lista cae en el x00 de su familia
ok    traducir el title y el detail no cambia la decisión

7 de 7 comprobaciones de la tabla pasaron
`

func TestComprobarTablaSieteDeSiete(t *testing.T) {
	t.Parallel()
	lab, _ := laboratorioDePrueba(t)
	var out bytes.Buffer
	e := entornoDePrueba(&out)
	e.Laboratorio = lab
	if c := ComprobarTabla(context.Background(), e, decision.Tabla{}, "127.0.0.1:0", laboratorio.NuevoHostil()); c != 0 {
		t.Fatalf("código de salida %d, se esperaba 0:\n%s", c, out.String())
	}
	compararLineas(t, out.String(), salidaComprobarTabla)
}

// A hostile service that always sends the same type makes checks 3 and 7 fail with the course's
// failure texts, and the exit code becomes 1.
func TestComprobarTablaInformaLasFallas(t *testing.T) {
	t.Parallel()
	lab, _ := laboratorioDePrueba(t)
	mentiroso := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		respuestas.Bytes(w, r, http.StatusConflict, problema.TipoMedio, []byte(`{"type":"https://revisor.example/problemas/nombre-repetido"}`))
	})
	var out bytes.Buffer
	e := entornoDePrueba(&out)
	e.Laboratorio = lab
	if c := ComprobarTabla(context.Background(), e, decision.Tabla{}, "127.0.0.1:0", mentiroso); c != 1 {
		t.Fatalf("código de salida %d, se esperaba 1", c)
	}
	for _, linea := range []string{
		"FALLA un type conocido afina el código: el mismo 409 es esperar o reconciliar\n      llave-en-curso: reconciliar; nombre-repetido: reconciliar\n",
		"FALLA traducir el title y el detail no cambia la decisión\n      en español reconciliar, en inglés reconciliar\n",
		"ok    un type que la tabla no conoce se decide por el código\n",
		"\n5 de 7 comprobaciones de la tabla pasaron\n",
	} {
		if !strings.Contains(out.String(), linea) {
			t.Errorf("falta %q en:\n%s", linea, out.String())
		}
	}
}

// A busy port is one clear sentence and exit code 1, not a crash.
func TestComprobarTablaConElPuertoOcupado(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var out bytes.Buffer
	e := entornoDePrueba(&out)
	e.Laboratorio = "http://127.0.0.1:1"
	if c := ComprobarTabla(context.Background(), e, decision.Tabla{}, ln.Addr().String(), laboratorio.NuevoHostil()); c != 1 {
		t.Fatalf("código de salida %d, se esperaba 1", c)
	}
	if !strings.Contains(out.String(), "el puerto ya está en uso") || strings.Contains(out.String(), "comprobaciones") {
		t.Errorf("salida inesperada:\n%s", out.String())
	}
}

// S21: when the checker ends, nothing is left listening on the hostile port.
func TestComprobarTablaCierraElServicioHostil(t *testing.T) {
	t.Parallel()
	lab, _ := laboratorioDePrueba(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	direccion := ln.Addr().String()
	ln.Close()
	var out bytes.Buffer
	e := entornoDePrueba(&out)
	e.Laboratorio = lab
	if c := ComprobarTabla(context.Background(), e, decision.Tabla{}, direccion, laboratorio.NuevoHostil()); c != 0 {
		t.Fatalf("código de salida %d:\n%s", c, out.String())
	}
	if conn, err := net.Dial("tcp", direccion); err == nil {
		conn.Close()
		t.Errorf("%s sigue escuchando", direccion)
	}
}
