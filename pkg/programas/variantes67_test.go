package programas

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"cursohttp/pkg/curso"
	"cursohttp/pkg/decision"
	"cursohttp/pkg/variantes"
)

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
	lab, _ := laboratorioDePrueba(t)
	out, errOut, c := ejecutar(t, "comprobar", "tabla", "--defecto", "sin-hasown", "--laboratorio", lab, "--puerto-hostil", "0")
	if c != 1 || errOut != avisoSinHasOwn+"\n" {
		t.Errorf("código %d, stderr %q", c, errOut)
	}
	compararLineas(t, out, salidaSinHasOwn)
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
	for _, c := range []struct {
		nombre   string
		revisor  variantes.Pedido
		programa []string
		want     string
	}{
		{"S10", variantes.Pedido{}, nil, salidaSincronizar},
		{"S15", variantes.Pedido{}, []string{"--defecto", "lee-la-frase"}, salidaLeeLaFrase},
		{"S18 bien", variantes.Pedido{Ejercicio: 3, EjercicioDado: true}, nil, salidaSincronizar},
		{"S18 roto", variantes.Pedido{Ejercicio: 3, EjercicioDado: true}, []string{"--defecto", "lee-la-frase"}, salidaLeeLaFraseEnIngles},
	} {
		t.Run(c.nombre, func(t *testing.T) {
			t.Parallel()
			rev, _ := revisorVariante(t, 5*time.Millisecond, c.revisor)
			out, errOut, codigo := ejecutar(t, append([]string{"sincronizar", "--revisor", rev, "--laboratorio", curso.URLLaboratorio}, c.programa...)...)
			if codigo != 0 || (errOut != "") != (c.programa != nil) ||
				(c.programa != nil && !strings.HasPrefix(errOut, "AVISO: «revisor sincronizar --defecto lee-la-frase» es una versión rota a propósito, la de la lección 7 (la frase que se mueve, S15)")) {
				t.Errorf("código %d, stderr %q", codigo, errOut)
			}
			compararLineas(t, out, c.want)
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
		accion decision.Accion
		motivo string
	}{
		{201, `{"detail":"no existe"}`, decision.Seguir, "salió bien"},
		{299, `basura`, decision.Seguir, "salió bien"},
		{404, `{"detail":"no existe el servicio 9"}`, decision.Rendirse, "no existe el servicio 9"},
		{409, `{"detail":"ya existe un servicio llamado nomina2 (no existe aún)"}`, decision.Rendirse, "ya existe un servicio llamado nomina2 (no existe aún)"},
		{409, `{"detail":"YA EXISTE"}`, decision.Reconciliar, "YA EXISTE"},
		{403, `{"detail":"tu Credencial solo puede leer"}`, decision.Reautenticar, "tu Credencial solo puede leer"},
		{422, `{"detail":"2 dato(s) no se pueden cumplir"}`, decision.Corregir, "2 dato(s) no se pueden cumplir"},
		{422, `{"detail":"el revisor no se conecta ahí"}`, decision.Corregir, "el revisor no se conecta ahí"},
		{422, `{"detail":"destino prohibido: 169.254.169.254:80: dirección privada o reservada"}`, decision.Rendirse, "destino prohibido: 169.254.169.254:80: dirección privada o reservada"},
		// Without the u flag only ASCII letters fold: «ſ» is not «s», the Kelvin sign is not «k».
		{409, `{"detail":"ya exiſte"}`, decision.Rendirse, "ya exiſte"},
		{503, `{"detail":503}`, decision.Rendirse, "503"},
		{503, `{"detail":["ya","existe"]}`, decision.Rendirse, "ya,existe"},
		{503, `{"detail":["ya existe"]}`, decision.Reconciliar, "ya existe"},
		{503, `{"detail":{"a":"ya existe"}}`, decision.Rendirse, "[object Object]"},
		{503, `{"detail":null}`, decision.Rendirse, ""},
		{503, `null`, decision.Rendirse, ""},
		{503, `"ya existe"`, decision.Rendirse, ""},
		{503, `no es JSON`, decision.Rendirse, ""},
		{503, "\ufeff{\"detail\":\"ya existe\"}", decision.Reconciliar, "ya existe"},
	} {
		d := decidirPorLaFrase(respuesta{codigo: c.codigo, cabeceras: http.Header{}, cuerpo: []byte(c.cuerpo)})
		if d.Accion != c.accion || d.Motivo != c.motivo || d.Reintenta || d.EsperaS != nil {
			t.Errorf("%d %s: %+v; se esperaba %s %q", c.codigo, c.cuerpo, d, c.accion, c.motivo)
		}
	}
}

// S17 [lesson L3066-L3074]: decidir(c, null, null) for 413, 418 and 451, with the course's table and
// with exercise 2's.
func TestDecidirCodigos(t *testing.T) {
	t.Parallel()
	out, errOut, c := ejecutar(t, "decidir", "413", "418", "451")
	compararLineas(t, out, `413 corregir no reintenta - el 413 no está en la tabla: se trata como un 400 (la petición no se puede leer)
418 corregir no reintenta - el 418 no está en la tabla: se trata como un 400 (la petición no se puede leer)
451 corregir no reintenta - el 451 no está en la tabla: se trata como un 400 (la petición no se puede leer)
`)
	if c != 0 || errOut != "" {
		t.Errorf("código %d, stderr %q", c, errOut)
	}
	out, errOut, c = ejecutar(t, "decidir", "--ejercicio", "2", "413", "418", "451")
	compararLineas(t, out, `413 corregir no reintenta - el cuerpo pasa del tope: manda menos
418 corregir no reintenta - el 418 no está en la tabla: se trata como un 400 (la petición no se puede leer)
451 corregir no reintenta - el 451 no está en la tabla: se trata como un 400 (la petición no se puede leer)
`)
	if c != 0 || errOut != "" {
		t.Errorf("--ejercicio 2: código %d, stderr %q", c, errOut)
	}
	out, _, _ = ejecutar(t, "decidir", "409", "503", "--type", curso.Problemas+"llave-en-curso")
	compararLineas(t, out, `409 esperar reintenta - la petición original sigue en curso: espera y repite con la misma llave
503 esperar reintenta - la petición original sigue en curso: espera y repite con la misma llave
`)
}
