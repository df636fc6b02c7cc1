package programas

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// S1 of lesson 7, verbatim [lesson L305-L329].
const salidaTabla23 = `CÓDIGO  ACCIÓN        REINTENTA  ESPERA  MOTIVO
200     seguir        no         —       salió bien
201     seguir        no         —       se creó; la dirección viene en Location
202     seguir        no         —       se aceptó; el seguimiento viene en Location
204     seguir        no         —       salió bien y no hay nada que leer
301     corregir      no         —       la dirección cambió para siempre: actualiza la configuración
304     seguir        no         —       no cambió: usa la copia que ya tienes
308     corregir      no         —       la dirección cambió para siempre: actualiza la configuración
400     corregir      no         —       la petición no se puede leer
401     reautenticar  no         —       falta una credencial válida
403     rendirse      no         —       la credencial no tiene permiso: lo resuelve una persona
404     rendirse      no         —       no existe (o no te lo muestran)
405     corregir      no         —       ese método no se admite: mira Allow
409     reconciliar   no         —       choca con el estado actual: relee y decide
410     rendirse      no         —       se retiró y no va a volver: dalo de baja
412     reconciliar   no         —       tu etiqueta ya no es la vigente: relee y vuelve a aplicar tu cambio
415     corregir      no         —       el formato no se admite: mira Accept
422     corregir      no         —       se entendió, pero los datos no se pueden cumplir
428     corregir      no         —       falta la condición: manda If-Match
429     esperar       sí         30 s    demasiadas peticiones: espera lo que diga Retry-After
500     rendirse      no         —       falla del servidor: repórtala con su instance
502     esperar       sí         —       falló lo que está detrás: reintenta solo si la operación es idempotente
503     esperar       sí         120 s   no está disponible: espera lo que diga Retry-After
504     esperar       sí         —       lo de atrás no respondió a tiempo: reintenta solo si es idempotente
`

// S6 of lesson 7, verbatim [lesson L556-L570].
const salidaFueraDeTabla = `CÓDIGO  ACCIÓN        REINTENTA  MOTIVO
206     seguir        no         el 206 no está en la tabla: se trata como un 200 (salió bien)
299     seguir        no         el 299 no está en la tabla: se trata como un 200 (salió bien)
302     corregir      no         redirección temporal: el cliente no la sigue solo; revisa la dirección de Location
307     corregir      no         redirección temporal que conserva el método: el cliente no la sigue solo; revisa Location
408     esperar       sí         el servidor no recibió la petición completa a tiempo: repítela tal cual, en una conexión nueva (RFC 9110, 15.5.9)
418     corregir      no         el 418 no está en la tabla: se trata como un 400 (la petición no se puede leer)
425     esperar       sí         el servidor no quiso procesar datos tempranos: repite la petición, esta vez sin ellos (RFC 8470, 5.2)
451     corregir      no         el 451 no está en la tabla: se trata como un 400 (la petición no se puede leer)
501     rendirse      no         el 501 no está en la tabla: se trata como un 500 (falla del servidor: repórtala con su instance)
507     rendirse      no         el 507 no está en la tabla: se trata como un 500 (falla del servidor: repórtala con su instance)
599     rendirse      no         el 599 no está en la tabla: se trata como un 500 (falla del servidor: repórtala con su instance)
600     rendirse      no         600 no es un código de HTTP (el RFC 9110 admite de 100 a 599): se procesa como un 5xx
799     rendirse      no         799 no es un código de HTTP (el RFC 9110 admite de 100 a 599): se procesa como un 5xx
`

func TestTabla23ContraElLaboratorio(t *testing.T) {
	t.Parallel()
	lab, registro := laboratorioDePrueba(t)
	var out bytes.Buffer
	e := entornoDePrueba(&out)
	e.Laboratorio = lab
	if c := Tabla23(context.Background(), e); c != 0 {
		t.Fatalf("código de salida %d, se esperaba 0:\n%s", c, out.String())
	}
	compararLineas(t, out.String(), salidaTabla23)
	// One GET per code and nothing else: 301 and 308 were not followed.
	if n := strings.Count(registro.String(), "GET /codigo/"); n != len(codigosDelCurso) {
		t.Errorf("el laboratorio vio %d peticiones, se esperaban %d:\n%s", n, len(codigosDelCurso), registro)
	}
}

func TestFueraDeTablaContraElLaboratorio(t *testing.T) {
	t.Parallel()
	lab, _ := laboratorioDePrueba(t)
	var out bytes.Buffer
	e := entornoDePrueba(&out)
	e.Laboratorio = lab
	if c := FueraDeTabla(context.Background(), e); c != 0 {
		t.Fatalf("código de salida %d:\n%s", c, out.String())
	}
	compararLineas(t, out.String(), salidaFueraDeTabla)
}

func TestTabla23SinLaboratorioSaleConUno(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	e := entornoDePrueba(&out)
	e.Laboratorio = "http://127.0.0.1:1" // nothing listens on port 1
	if c := Tabla23(context.Background(), e); c != 1 {
		t.Fatalf("código de salida %d, se esperaba 1", c)
	}
	if !strings.HasPrefix(out.String(), "CÓDIGO  ACCIÓN") || !strings.Contains(out.String(), "tabla23: ") {
		t.Errorf("salida inesperada:\n%s", out.String())
	}
}

// Ctrl+C ends the program quietly with 130, as a shell expects, not with an error sentence.
func TestInterrumpidoSaleCon130(t *testing.T) {
	t.Parallel()
	lab, _ := laboratorioDePrueba(t)
	ctx, cancelar := context.WithCancel(context.Background())
	cancelar()
	var out, errOut bytes.Buffer
	e := Entorno{Out: &out, Err: &errOut, Laboratorio: lab}
	if c := Tabla23(ctx, e); c != 130 {
		t.Fatalf("código de salida %d, se esperaba 130", c)
	}
	if errOut.Len() != 0 {
		t.Errorf("errores: %q", errOut.String())
	}
}
