package comprobar

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"cursohttp/internal/prueba"
	"cursohttp/internal/prueba/leccion7"
	"cursohttp/internal/prueba/ordenestest"
	"cursohttp/internal/prueba/servidortest"
	"cursohttp/pkg/cli"
	"cursohttp/pkg/curso"
	"cursohttp/pkg/hostil"
	"cursohttp/pkg/ordenes/entorno"
	"cursohttp/pkg/problema"
	respuestas "cursohttp/pkg/respuesta"
	"cursohttp/pkg/tabladecision"
)

func TestComprobarTablaSieteDeSiete(t *testing.T) {
	t.Parallel()
	lab, _ := ordenestest.Laboratorio(t)
	var out bytes.Buffer
	e := ordenestest.Entorno(&out)
	e.Laboratorio = lab
	if c := ComprobarTabla(context.Background(), e, tabladecision.Tabla{}, "127.0.0.1:0", hostil.Nuevo()); c != 0 {
		t.Fatalf("código de salida %d, se esperaba 0:\n%s", c, out.String())
	}
	ordenestest.CompararLineas(t, out.String(), leccion7.ComprobarTabla)
}

// A hostile service that always sends the same type makes checks 3 and 7 fail with the course's
// failure texts, and the exit code becomes 1.
func TestComprobarTablaInformaLasFallas(t *testing.T) {
	t.Parallel()
	lab, _ := ordenestest.Laboratorio(t)
	mentiroso := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		respuestas.Bytes(w, r, http.StatusConflict, problema.TipoMedio, []byte(`{"type":"https://revisor.example/problemas/nombre-repetido"}`))
	})
	var out bytes.Buffer
	e := ordenestest.Entorno(&out)
	e.Laboratorio = lab
	if c := ComprobarTabla(context.Background(), e, tabladecision.Tabla{}, "127.0.0.1:0", mentiroso); c != 1 {
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
	e := ordenestest.Entorno(&out)
	e.Laboratorio = "http://127.0.0.1:1"
	if c := ComprobarTabla(context.Background(), e, tabladecision.Tabla{}, ln.Addr().String(), hostil.Nuevo()); c != 1 {
		t.Fatalf("código de salida %d, se esperaba 1", c)
	}
	if !strings.Contains(out.String(), "el puerto ya está en uso") || strings.Contains(out.String(), "comprobaciones") {
		t.Errorf("salida inesperada:\n%s", out.String())
	}
}

// S21: when the checker ends, nothing is left listening on the hostile port.
func TestComprobarTablaCierraElServicioHostil(t *testing.T) {
	t.Parallel()
	lab, _ := ordenestest.Laboratorio(t)
	direccion := "127.0.0.1:" + strconv.Itoa(prueba.PuertosLibres(t, 1)[0])
	var out bytes.Buffer
	e := ordenestest.Entorno(&out)
	e.Laboratorio = lab
	if c := ComprobarTabla(context.Background(), e, tabladecision.Tabla{}, direccion, hostil.Nuevo()); c != 0 {
		t.Fatalf("código de salida %d:\n%s", c, out.String())
	}
	if conn, err := net.Dial("tcp", direccion); err == nil {
		conn.Close()
		t.Errorf("%s sigue escuchando", direccion)
	}
}

// Ctrl+C during a checker: 130, no FALLA line for the check cut short and no summary.
func TestComprobadoresInterrumpidos(t *testing.T) {
	t.Parallel()
	ctx, cancelar := context.WithCancel(context.Background())
	defer cancelar()
	ts := servidortest.Nuevo(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // so the server notices the client leaving
		cancelar()
		select {
		case <-r.Context().Done():
		case <-time.After(2 * time.Second):
		}
	}))
	var out bytes.Buffer
	if c := ComprobarIdempotencia(ctx, ts.URL, &out); c != curso.Interrumpido || out.Len() != 0 {
		t.Fatalf("idempotencia: código %d, salida %q", c, out.String())
	}

	ctx, cancelar = context.WithCancel(context.Background())
	defer cancelar()
	lab := servidortest.Nuevo(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // so the server notices the client leaving
		cancelar()
		select {
		case <-r.Context().Done():
		case <-time.After(2 * time.Second):
		}
	}))
	out.Reset()
	e := ordenestest.Entorno(&out)
	e.Laboratorio = lab.URL
	if c := ComprobarTabla(ctx, e, tabladecision.Tabla{}, "127.0.0.1:0", http.NotFoundHandler()); c != curso.Interrumpido || out.Len() != 0 {
		t.Fatalf("tabla: código %d, salida %q", c, out.String())
	}
}

// Lesson 7's broken versions and exercise solutions, as the lesson prints their runs.

const avisoSinHasOwn = "AVISO: «revisor comprobar tabla --defecto sin-hasown» es una versión rota a propósito, la de la " +
	"lección 7 (un type llamado constructor, S16): imita un tropiezo de JavaScript: la tabla busca el type sin " +
	"Object.hasOwn, y un type «constructor» encuentra una función heredada de Object.prototype en vez de una decisión. " +
	"No es el programa del curso."

// S16 [lesson L2977-L2988], without the shell's echo line.
const salidaSinHasOwn = `ok    los 23 códigos del curso caen en una de las seis acciones
ok    corregir, reautenticar, reconciliar y rendirse nunca reintentan
ok    un type conocido afina el código: el mismo 409 es esperar o reconciliar
ok    un type que la tabla no conoce se decide por el código
FALLA un type heredado de Object.prototype no revienta: se decide por el código
      type constructor: TypeError: function is not iterable (cannot read property Symbol(Symbol.iterator))
ok    un código que la tabla no lista cae en el x00 de su familia
ok    traducir el title y el detail no cambia la decisión

6 de 7 comprobaciones de la tabla pasaron
`

func TestComprobarTablaSinHasOwn(t *testing.T) {
	t.Parallel()
	lab, _ := ordenestest.Laboratorio(t)
	out, errOut, c := ordenestest.Ejecutar(t, nuevoCmd, "comprobar", "tabla", "--defecto", "sin-hasown", "--laboratorio", lab, "--puerto-hostil", "0")
	if c != 1 || errOut != avisoSinHasOwn+"\n" {
		t.Errorf("código %d, stderr %q", c, errOut)
	}
	ordenestest.CompararLineas(t, out, salidaSinHasOwn)
}

// nuevoCmd is `revisor comprobar` as the revisor wires it, with the laboratory's hostile service.
func nuevoCmd(f *entorno.Fabrica) *cobra.Command { return NuevoCmd(f, nuevoHostil) }

func nuevoHostil() http.Handler { return hostil.Nuevo() }

// What each command line becomes, seen through runF without running the checkers.
func TestLineasDeOrdenes(t *testing.T) {
	t.Parallel()
	tabla := func(f *entorno.Fabrica, a ordenestest.Anotar) *cobra.Command {
		return nuevoCmdComprobarTabla(f, nuevoHostil, func(_ context.Context, e entorno.Entorno, tabla tabladecision.Tabla, direccion string, servidor http.Handler) int {
			a(fmt.Sprintf("%s %+v hostil=%s %v", ordenestest.Bases(e), tabla, direccion, servidor != nil))
			return 0
		})
	}
	idempotencia := func(f *entorno.Fabrica, a ordenestest.Anotar) *cobra.Command {
		return nuevoCmdComprobarIdempotencia(f, func(_ context.Context, base string, out io.Writer) int {
			a(fmt.Sprintf("base=%q %v", base, out != nil))
			return 0
		})
	}
	ordenestest.Lineas(t, []ordenestest.Linea{
		{Construir: tabla, Anotado: `revisor="" laboratorio="http://127.0.0.1:18081" {Con413:false SinHasOwn:false} hostil=127.0.0.1:18083 true`},
		{Construir: tabla, Linea: "--puerto-hostil 0", Anotado: `revisor="" laboratorio="http://127.0.0.1:18081" {Con413:false SinHasOwn:false} hostil=127.0.0.1:0 true`},
		{Construir: tabla, Linea: "--defecto sin-hasown", Variables: map[string]string{"CURSO_LECCION": "4"},
			Anotado: `revisor="" laboratorio="http://127.0.0.1:18081" {Con413:false SinHasOwn:true} hostil=127.0.0.1:18083 true`, Stderr: avisoSinHasOwn + "\n"},
		{Construir: tabla, Linea: "--defecto lee-la-frase", Codigo: cli.SalidaUso,
			Stderr: "tabla: --defecto: «revisor comprobar tabla» no tiene la versión rota «lee-la-frase»; las que hay: sin-hasown\n"},
		{Construir: idempotencia, Anotado: `base="http://127.0.0.1:18080" true`},
		{Construir: idempotencia, Linea: "--revisor http://r/", Anotado: `base="http://r" true`},
		{Construir: idempotencia, Linea: "http://base/ --revisor http://r", Anotado: `base="http://base/" true`},
	})
}
