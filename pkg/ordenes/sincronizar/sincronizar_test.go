package sincronizar

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"cursohttp/internal/prueba/ordenestest"
	"cursohttp/pkg/curso"
	"cursohttp/pkg/ordenes/entorno"
	"cursohttp/pkg/tabladecision"
	"cursohttp/pkg/variantes"
)

// S10 of lesson 7, verbatim [lesson L1012-L1036].
const salidaSincronizar = `agenda
  respondió 201 (sin Problem Details)
  acción: seguir — listo, sigue con el siguiente
agenda
  respondió 409 https://revisor.example/problemas/nombre-repetido
  acción: reconciliar — relee el servicio que ya existe y compara con el que quería crear
nomina2 (no existe aún)
  respondió 201 (sin Problem Details)
  acción: seguir — listo, sigue con el siguiente
nomina2 (no existe aún)
  respondió 409 https://revisor.example/problemas/nombre-repetido
  acción: reconciliar — relee el servicio que ya existe y compara con el que quería crear
cuenta
  respondió 422 https://revisor.example/problemas/datos-invalidos
  acción: corregir — no repite: corrige la petición
metadatos
  respondió 422 https://revisor.example/problemas/destino-prohibido
  acción: corregir — no repite: corrige la petición
sin-permiso
  respondió 403 https://revisor.example/problemas/permiso-insuficiente
  acción: rendirse — se detiene y avisa a una persona; no vuelve a intentarlo
sin-credencial
  respondió 401 https://revisor.example/problemas/credencial-invalida
  acción: reautenticar — no repite: pide una credencial válida
`

func TestSincronizarContraElRevisor(t *testing.T) {
	t.Parallel()
	rev, registro := ordenestest.Revisor(t, 20*time.Millisecond)
	var out bytes.Buffer
	e := ordenestest.Entorno(&out)
	e.Revisor, e.Laboratorio = rev, curso.URLLaboratorio
	if c := Sincronizar(context.Background(), e); c != 0 {
		t.Fatalf("código de salida %d:\n%s", c, out.String())
	}
	ordenestest.CompararLineas(t, out.String(), salidaSincronizar)
	// Every alta carried its own key: the revisor never replayed one.
	if strings.Contains(registro.String(), "idempotencia:") {
		t.Errorf("el revisor repitió una respuesta:\n%s", registro.String())
	}
}

// S15 [lesson L2932-L2956]: three of S10's eight decisions change.
const salidaLeeLaFrase = `agenda
  respondió 201 (sin Problem Details)
  acción: seguir — listo, sigue con el siguiente
agenda
  respondió 409 https://revisor.example/problemas/nombre-repetido
  acción: reconciliar — relee el servicio que ya existe y compara con el que quería crear
nomina2 (no existe aún)
  respondió 201 (sin Problem Details)
  acción: seguir — listo, sigue con el siguiente
nomina2 (no existe aún)
  respondió 409 https://revisor.example/problemas/nombre-repetido
  acción: rendirse — se detiene y avisa a una persona; no vuelve a intentarlo
cuenta
  respondió 422 https://revisor.example/problemas/datos-invalidos
  acción: corregir — no repite: corrige la petición
metadatos
  respondió 422 https://revisor.example/problemas/destino-prohibido
  acción: rendirse — se detiene y avisa a una persona; no vuelve a intentarlo
sin-permiso
  respondió 403 https://revisor.example/problemas/permiso-insuficiente
  acción: reautenticar — no repite: pide una credencial válida
sin-credencial
  respondió 401 https://revisor.example/problemas/credencial-invalida
  acción: reautenticar — no repite: pide una credencial válida
`

// S18's broken run [lesson L3086-L3110]: against the English detail, the repeated agenda too.
var salidaLeeLaFraseEnIngles = strings.Replace(salidaLeeLaFrase, `agenda
  respondió 409 https://revisor.example/problemas/nombre-repetido
  acción: reconciliar — relee el servicio que ya existe y compara con el que quería crear`, `agenda
  respondió 409 https://revisor.example/problemas/nombre-repetido
  acción: rendirse — se detiene y avisa a una persona; no vuelve a intentarlo`, 1)

// The two scripts against the course's revisor (S10, S15) and against exercise 3's (S18): the
// right one prints the same both times, the broken one changes.
func TestSincronizarLasDosVersionesContraLosDosRevisores(t *testing.T) {
	t.Parallel()
	nuevo := func(f *entorno.Fabrica) *cobra.Command { return NuevoCmd(f, nil) }
	for _, c := range []struct {
		nombre   string
		revisor  variantes.Pedido
		programa []string
		want     string
	}{
		{"S10", variantes.Pedido{}, nil, salidaSincronizar},
		{"S15", variantes.Pedido{}, []string{"--defecto", "lee-la-frase"}, salidaLeeLaFrase},
		{"S18 bien", variantes.Pedido{Leccion: 7, LeccionDada: true, Ejercicio: 3, EjercicioDado: true}, nil, salidaSincronizar},
		{"S18 roto", variantes.Pedido{Leccion: 7, LeccionDada: true, Ejercicio: 3, EjercicioDado: true}, []string{"--defecto", "lee-la-frase"}, salidaLeeLaFraseEnIngles},
	} {
		t.Run(c.nombre, func(t *testing.T) {
			t.Parallel()
			rev, _ := ordenestest.RevisorVariante(t, 5*time.Millisecond, c.revisor)
			out, errOut, codigo := ordenestest.Ejecutar(t, nuevo, append([]string{"sincronizar", "--revisor", rev, "--laboratorio", curso.URLLaboratorio}, c.programa...)...)
			if codigo != 0 || (errOut != "") != (c.programa != nil) ||
				(c.programa != nil && !strings.HasPrefix(errOut, "AVISO: «revisor sincronizar --defecto lee-la-frase» es una versión rota a propósito, la de la lección 7 (la frase que se mueve, S15)")) {
				t.Errorf("código %d, stderr %q", codigo, errOut)
			}
			ordenestest.CompararLineas(t, out, c.want)
		})
	}
}

// The broken script's reading of a body, as JavaScript reads it: JSON.parse, String(detail), the
// four searches without case in their order, rendirse by default; a 2xx always goes on.
func TestDecidirPorLaFrase(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		codigo int
		cuerpo string
		accion tabladecision.Accion
		motivo string
	}{
		{201, `{"detail":"no existe"}`, tabladecision.Seguir, "salió bien"},
		{299, `basura`, tabladecision.Seguir, "salió bien"},
		{404, `{"detail":"no existe el servicio 9"}`, tabladecision.Rendirse, "no existe el servicio 9"},
		{409, `{"detail":"ya existe un servicio llamado nomina2 (no existe aún)"}`, tabladecision.Rendirse, "ya existe un servicio llamado nomina2 (no existe aún)"},
		{409, `{"detail":"YA EXISTE"}`, tabladecision.Reconciliar, "YA EXISTE"},
		{403, `{"detail":"tu Credencial solo puede leer"}`, tabladecision.Reautenticar, "tu Credencial solo puede leer"},
		{422, `{"detail":"2 dato(s) no se pueden cumplir"}`, tabladecision.Corregir, "2 dato(s) no se pueden cumplir"},
		{422, `{"detail":"el revisor no se conecta ahí"}`, tabladecision.Corregir, "el revisor no se conecta ahí"},
		{422, `{"detail":"destino prohibido: 169.254.169.254:80: dirección privada o reservada"}`, tabladecision.Rendirse, "destino prohibido: 169.254.169.254:80: dirección privada o reservada"},
		// Without the u flag only ASCII letters fold: «ſ» is not «s», the Kelvin sign is not «k».
		{409, `{"detail":"ya exiſte"}`, tabladecision.Rendirse, "ya exiſte"},
		{503, `{"detail":503}`, tabladecision.Rendirse, "503"},
		{503, `{"detail":["ya","existe"]}`, tabladecision.Rendirse, "ya,existe"},
		{503, `{"detail":["ya existe"]}`, tabladecision.Reconciliar, "ya existe"},
		{503, `{"detail":{"a":"ya existe"}}`, tabladecision.Rendirse, "[object Object]"},
		{503, `{"detail":null}`, tabladecision.Rendirse, ""},
		{503, `null`, tabladecision.Rendirse, ""},
		{503, `"ya existe"`, tabladecision.Rendirse, ""},
		{503, `no es JSON`, tabladecision.Rendirse, ""},
		{503, "\ufeff{\"detail\":\"ya existe\"}", tabladecision.Reconciliar, "ya existe"},
	} {
		d := decidirPorLaFrase(entorno.Respuesta{Codigo: c.codigo, Cabeceras: http.Header{}, Cuerpo: []byte(c.cuerpo)})
		if d.Accion != c.accion || d.Motivo != c.motivo || d.Reintenta || d.EsperaS != nil {
			t.Errorf("%d %s: %+v; se esperaba %s %q", c.codigo, c.cuerpo, d, c.accion, c.motivo)
		}
	}
}

// What each command line becomes, seen through runF without running the program.
func TestLineasDeOrdenes(t *testing.T) {
	t.Parallel()
	ordenestest.Lineas(t, []ordenestest.Linea{
		{Construir: ordenestest.SoloEntorno(NuevoCmd), Linea: "--laboratorio http://l", Anotado: `revisor="http://127.0.0.1:18080" laboratorio="http://l"`},
	})
}
