// Package decision es la tabla de decisión del cliente (lección 7): con el
// código, el Retry-After y el type de una respuesta dice qué hacer, sin leer
// nunca el title ni el detail, que son para personas.
package decision

import (
	"fmt"
	"strconv"

	"cursohttp/pkg/curso"
)

// Accion es una de las seis salidas de la tabla; solo Esperar reintenta.
type Accion string

const (
	Seguir       Accion = "seguir"
	Corregir     Accion = "corregir"
	Reautenticar Accion = "reautenticar"
	Esperar      Accion = "esperar"
	Reconciliar  Accion = "reconciliar"
	Rendirse     Accion = "rendirse"
)

// Decision es lo que la tabla contesta. EsperaS es nil cuando no hay número
// que dar (el curso lo imprime «—» y en JSON null): la tabla no inventa
// esperas, y solo la lleva cuando la acción es Esperar.
type Decision struct {
	Accion    Accion `json:"accion"`
	Motivo    string `json:"motivo"`
	EsperaS   *int64 `json:"esperaS"`
	Reintenta bool   `json:"reintenta"`
}

// EsperaTexto es la columna ESPERA de los programas del curso: «<n> s» o «—».
func (d Decision) EsperaTexto() string {
	if d.EsperaS == nil {
		return "—"
	}
	return strconv.FormatInt(*d.EsperaS, 10) + " s"
}

// ReintentaTexto es la columna REINTENTA: «sí» o «no».
func (d Decision) ReintentaTexto() string {
	if d.Reintenta {
		return "sí"
	}
	return "no"
}

// Tipos de fallo sin respuesta HTTP (lección 6): también hay que decidir.
const (
	TiempoAgotado     = "tiempo-agotado"
	SinConexion       = "sin-conexion"
	RespuestaInvalida = "respuesta-invalida"
	DestinoProhibido  = "destino-prohibido"
)

type entrada struct {
	accion Accion
	motivo string
}

// porCodigo: lo que no está aquí se trata como el x00 de su familia (RFC 9110,
// §15). Un switch y no un mapa: la tabla no se puede modificar por accidente.
func porCodigo(codigo int) (entrada, bool) {
	switch codigo {
	case 200:
		return entrada{Seguir, "salió bien"}, true
	case 201:
		return entrada{Seguir, "se creó; la dirección viene en Location"}, true
	case 202:
		return entrada{Seguir, "se aceptó; el seguimiento viene en Location"}, true
	case 204:
		return entrada{Seguir, "salió bien y no hay nada que leer"}, true
	case 300:
		return entrada{Corregir, "hay varias opciones: elige una dirección"}, true
	case 301, 308:
		return entrada{Corregir, "la dirección cambió para siempre: actualiza la configuración"}, true
	case 302:
		return entrada{Corregir, "redirección temporal: el cliente no la sigue solo; revisa la dirección de Location"}, true
	case 303:
		return entrada{Corregir, "redirección a otro recurso: el cliente no la sigue solo; revisa la dirección de Location"}, true
	case 304:
		return entrada{Seguir, "no cambió: usa la copia que ya tienes"}, true
	case 307:
		return entrada{Corregir, "redirección temporal que conserva el método: el cliente no la sigue solo; revisa Location"}, true
	case 400:
		return entrada{Corregir, "la petición no se puede leer"}, true
	case 401:
		return entrada{Reautenticar, "falta una credencial válida"}, true
	case 403:
		return entrada{Rendirse, "la credencial no tiene permiso: lo resuelve una persona"}, true
	case 404:
		return entrada{Rendirse, "no existe (o no te lo muestran)"}, true
	case 405:
		return entrada{Corregir, "ese método no se admite: mira Allow"}, true
	case 408:
		return entrada{Esperar, "el servidor no recibió la petición completa a tiempo: repítela tal cual, en una conexión nueva (RFC 9110, 15.5.9)"}, true
	case 409:
		return entrada{Reconciliar, "choca con el estado actual: relee y decide"}, true
	case 410:
		return entrada{Rendirse, "se retiró y no va a volver: dalo de baja"}, true
	case 412:
		return entrada{Reconciliar, "tu etiqueta ya no es la vigente: relee y vuelve a aplicar tu cambio"}, true
	case 415:
		return entrada{Corregir, "el formato no se admite: mira Accept"}, true
	case 422:
		return entrada{Corregir, "se entendió, pero los datos no se pueden cumplir"}, true
	case 425:
		return entrada{Esperar, "el servidor no quiso procesar datos tempranos: repite la petición, esta vez sin ellos (RFC 8470, 5.2)"}, true
	case 428:
		return entrada{Corregir, "falta la condición: manda If-Match"}, true
	case 429:
		return entrada{Esperar, "demasiadas peticiones: espera lo que diga Retry-After"}, true
	case 500:
		return entrada{Rendirse, "falla del servidor: repórtala con su instance"}, true
	case 502:
		return entrada{Esperar, "falló lo que está detrás: reintenta solo si la operación es idempotente"}, true
	case 503:
		return entrada{Esperar, "no está disponible: espera lo que diga Retry-After"}, true
	case 504:
		return entrada{Esperar, "lo de atrás no respondió a tiempo: reintenta solo si es idempotente"}, true
	}
	return entrada{}, false
}

// porType: el mismo código puede pedir cosas distintas según el type. El type
// llega de un cuerpo ajeno; con un switch solo encuentra lo que está escrito
// aquí («constructor» o «__proto__» no encuentran nada y decide el código).
// Compara URIs completas (curso.Problemas + clave), no su último tramo.
func porType(tipo string) (entrada, bool) {
	switch tipo {
	case curso.Problemas + "llave-en-curso":
		return entrada{Esperar, "la petición original sigue en curso: espera y repite con la misma llave"}, true
	case curso.Problemas + "nombre-repetido":
		return entrada{Reconciliar, "ya existe: mira el miembro existente antes de crear otro"}, true
	case curso.Problemas + "llave-reutilizada":
		return entrada{Corregir, "usa una llave nueva para una petición nueva"}, true
	case curso.Problemas + "destino-prohibido":
		return entrada{Corregir, "el revisor no se conecta a esa dirección: usa otra"}, true
	case curso.Problemas + "servicio-retirado":
		return entrada{Rendirse, "el servicio se retiró: dalo de baja de tu lista"}, true
	case curso.Problemas + "en-mantenimiento":
		return entrada{Esperar, "el revisor está en mantenimiento: espera lo que diga Retry-After"}, true
	}
	return entrada{}, false
}

// Decidir aplica las tres capas en orden: un type conocido, el código, el x00
// de su familia. retryAfterS y tipo pueden ser nil (no hubo cabecera, no es
// Problem Details). No pone tope a la espera ni sabe del método: eso es de
// quien llama.
func Decidir(codigo int, retryAfterS *int64, tipo *string) Decision {
	e, ok := entrada{}, false
	if tipo != nil {
		e, ok = porType(*tipo)
	}
	if !ok {
		e, ok = porCodigo(codigo)
	}
	if !ok {
		e = porFamilia(codigo)
	}
	d := Decision{Accion: e.accion, Motivo: e.motivo, Reintenta: e.accion == Esperar}
	if d.Reintenta && retryAfterS != nil {
		s := *retryAfterS // copia: la decisión no comparte memoria con quien llama
		d.EsperaS = &s
	}
	return d
}

// porFamilia trata un código que la tabla no lista como el x00 de su clase
// (RFC 9110, §15), y lo dice en el motivo para que nadie lea la frase del x00
// como si fuera la del código que llegó. Fuera de 100-599 no es HTTP y se
// procesa como un 5xx.
func porFamilia(codigo int) entrada {
	if codigo < 100 || codigo > 599 {
		return entrada{Rendirse, fmt.Sprintf("%d no es un código de HTTP (el RFC 9110 admite de 100 a 599): se procesa como un 5xx", codigo)}
	}
	familia := codigo / 100 * 100
	x00, ok := porCodigo(familia)
	if !ok { // solo 1xx: no hay fila 100
		return entrada{Rendirse, "código desconocido"}
	}
	return entrada{x00.accion, fmt.Sprintf("el %d no está en la tabla: se trata como un %d (%s)", codigo, familia, x00.motivo)}
}

// DecidirSinRespuesta decide cuando no hubo respuesta HTTP. Un destino
// prohibido no cambia solo: se corrige la dirección. Lo demás se trata como un
// 502 (puede arreglarse solo); lo que impide esperar para siempre es el número
// de intentos de quien llama.
func DecidirSinRespuesta(tipo string) Decision {
	if tipo == DestinoProhibido {
		return Decision{Accion: Corregir, Motivo: "destino prohibido"}
	}
	return Decision{Accion: Esperar, Motivo: tipo, Reintenta: true}
}
