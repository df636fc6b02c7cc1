// Package tabladecision is the client's decision table (lesson 7): from a response's status,
// Retry-After and type it says what to do, never reading the title or the detail, which are for
// people.
package tabladecision

import (
	"fmt"
	"strconv"

	"cursohttp/internal/nodejs"
	"cursohttp/pkg/curso"
)

// Accion is one of the table's six outcomes; only Esperar retries.
type Accion string

const (
	Seguir       Accion = "seguir"
	Corregir     Accion = "corregir"
	Reautenticar Accion = "reautenticar"
	Esperar      Accion = "esperar"
	Reconciliar  Accion = "reconciliar"
	Rendirse     Accion = "rendirse"
)

// Decision is what the table answers. EsperaS is nil when there is no number to give (the course
// prints «—», and null in JSON): the table invents no waits, and carries one only when the action
// is Esperar.
type Decision struct {
	Accion    Accion `json:"accion"`
	Motivo    string `json:"motivo"`
	EsperaS   *int64 `json:"esperaS"`
	Reintenta bool   `json:"reintenta"`
}

// EsperaTexto is the ESPERA column of the course's programs: «<n> s» or «—».
func (d Decision) EsperaTexto() string {
	if d.EsperaS == nil {
		return "—"
	}
	return strconv.FormatInt(*d.EsperaS, 10) + " s"
}

// ReintentaTexto is the REINTENTA column: «sí» or «no».
func (d Decision) ReintentaTexto() string {
	if d.Reintenta {
		return "sí"
	}
	return "no"
}

// The kinds of failure without an HTTP response (lesson 6): they need a decision too.
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

// porCodigo: a status not here is treated as the x00 of its class (RFC 9110, §15). A switch and not
// a map: the table cannot be modified by accident.
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

// Codigos are the statuses the table has a row of their own for, in order (read from the table
// itself); any other is decided as the x00 of its class.
func Codigos() []int {
	var codigos []int
	for codigo := 100; codigo <= 599; codigo++ {
		if _, ok := porCodigo(codigo); ok {
			codigos = append(codigos, codigo)
		}
	}
	return codigos
}

// porType: the same status may ask for different things by its type. The type comes from someone
// else's body; with a switch it finds only what is written here («constructor» or «__proto__» find
// nothing, and the status decides). It compares whole URIs (curso.Problemas + key), not their last
// segment.
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

// Decidir applies the course's table (decisiones.ts) in three layers, in order: a known type, the
// status, the x00 of its class. retryAfterS and tipo may be nil (no header, not Problem Details).
// It puts no cap on the wait and knows nothing of the method: those are the caller's
// (pkg/reintento's policies).
func Decidir(codigo int, retryAfterS *int64, tipo *string) Decision {
	d, _ := Tabla{}.Decidir(codigo, retryAfterS, tipo) // the course's table never fails
	return d
}

// Tabla is one version of the decision table. The zero value is the course's; each field is one of
// the lessons' programs that change it.
type Tabla struct {
	// Con413 is Lesson 7 exercise 2's table (ejercicios/ej2/decisiones.ts): one more row, 413 is
	// corregir with its own reason instead of the 400's inherited one.
	Con413 bool
	// SinHasOwn imitates Lesson 7's broken table (defectos/sin-hasown, S16). The course looks the
	// type up in an object literal; without Object.hasOwn, a type naming one of Object.prototype's
	// members («constructor», «toString», «__proto__»…) finds that member instead of nothing, and
	// destructuring it as a row throws. Go has no prototype chain: the lookup here reports what
	// JavaScript would find and fails with V8's TypeError, as the student's program does.
	SinHasOwn bool
}

// Decidir is Decidir with this version of the table. Only SinHasOwn ever returns an error: the
// TypeError the broken table throws.
func (t Tabla) Decidir(codigo int, retryAfterS *int64, tipo *string) (Decision, error) {
	e, ok := entrada{}, false
	if tipo != nil {
		e, ok = porType(*tipo)
		if !ok && t.SinHasOwn {
			if typeof, heredado := nodejs.DeObjectPrototype(*tipo); heredado {
				return Decision{}, nodejs.NoIterable(typeof)
			}
		}
	}
	if !ok && t.Con413 && codigo == 413 {
		e, ok = entrada{Corregir, "el cuerpo pasa del tope: manda menos"}, true
	}
	if !ok {
		e, ok = porCodigo(codigo)
	}
	if !ok {
		e = porFamilia(codigo)
	}
	d := Decision{Accion: e.accion, Motivo: e.motivo, Reintenta: e.accion == Esperar}
	if d.Reintenta && retryAfterS != nil {
		s := *retryAfterS // a copy: the decision shares no memory with the caller
		d.EsperaS = &s
	}
	return d, nil
}

// porFamilia treats a status the table does not list as the x00 of its class (RFC 9110, §15), and
// says so in the reason, so nobody reads the x00's sentence as if it were the arriving status's.
// Outside 100-599 it is not HTTP, and it is processed as a 5xx.
func porFamilia(codigo int) entrada {
	if codigo < 100 || codigo > 599 {
		return entrada{Rendirse, fmt.Sprintf("%d no es un código de HTTP (el RFC 9110 admite de 100 a 599): se procesa como un 5xx", codigo)}
	}
	familia := codigo / 100 * 100
	x00, ok := porCodigo(familia)
	if !ok { // only 1xx: there is no row 100
		return entrada{Rendirse, "código desconocido"}
	}
	return entrada{x00.accion, fmt.Sprintf("el %d no está en la tabla: se trata como un %d (%s)", codigo, familia, x00.motivo)}
}

// DecidirSinRespuesta decides when no HTTP response came. A forbidden destination does not change
// by itself: the address is corrected. The rest is treated as a 502 (it may fix itself); what keeps
// a client from waiting forever is its number of attempts.
func DecidirSinRespuesta(tipo string) Decision {
	if tipo == DestinoProhibido {
		return Decision{Accion: Corregir, Motivo: "destino prohibido"}
	}
	return Decision{Accion: Esperar, Motivo: tipo, Reintenta: true}
}
