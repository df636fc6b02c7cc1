package explicaciones

import "cursohttp/pkg/problema"

// texto is what only a person can write about a type: what happened, the key's case when the
// general rule does not say it, and the lessons. The action comes from pkg/tabladecision, the
// operations from the route table, the example from a real response.
type texto struct {
	que   string
	llave string // "" takes the general rule (Paginas)
	citas []Cita
}

// Sections the lessons in this repository's materials have (lessons 4, 6 and 7); lessons 1 to 3
// and 5 are cited as a whole.
var (
	l2Puerta    = Cita{2, "", "la puerta del revisor: qué existe, quién eres, qué puedes"}
	l3Estado    = Cita{3, "", "los errores de estado del cliente: el conflicto, la regla de negocio, la precondición, la versión retirada"}
	l5Problemas = Cita{5, "", "los errores como Problem Details: type estable, title y detail para personas"}
	l7Type      = Cita{7, "7.3.1", "Primero el type"}
	l7Tabla     = Cita{7, "7.4.1", "El archivo entero (decisiones.ts)"}
	l6Demas     = Cita{6, "6.8.4", "Lo demás sigue funcionando"}
	l4Pasarela  = Cita{4, "4.4.4", "500 frente a 502 frente a 504"}
	l4Consulta  = Cita{4, "4.4.3", "La consulta de salud"}
	l6Llave     = Cita{6, "6.6.4", "Una misma llave, tres desenlaces"}
	l6Revisor   = Cita{6, "6.2.2", "Verlo en el revisor"}
)

var textos = map[problema.Clave]texto{
	problema.RutaInexistente: {
		que:   "La ruta pedida no es ninguna de la API, o su {id} no es un número. El type es about:blank: el 404 lo dice todo.",
		citas: []Cita{l2Puerta, l5Problemas},
	},
	problema.MetodoNoAdmitido: {
		que:   "La ruta existe, pero no admite ese método. Allow dice los que admite (GET trae HEAD).",
		citas: []Cita{l2Puerta, l5Problemas},
	},
	problema.CredencialInvalida: {
		que: "Faltó la credencial, llegó con otro esquema (Basic) o es una credencial Bearer que el revisor no conoce. " +
			"WWW-Authenticate dice cuál espera.",
		citas: []Cita{l2Puerta, l6Demas,
			{7, "7.6.3", "Cuando el error es de la API"}},
	},
	problema.PermisoInsuficiente: {
		que: "La credencial es válida pero no alcanza: lectura-a no escribe, y solo admin cambia el mantenimiento. " +
			"Repetir no cambia nada: lo resuelve una persona con otra credencial.",
		citas: []Cita{l2Puerta, {4, "4.5.2", "Modo mantenimiento"}},
	},
	problema.EnMantenimiento: {
		que: "Quien opera el revisor lo puso en mantenimiento: todo salvo /mantenimiento responde 503, con Retry-After. " +
			"Nadie se equivocó; es una decisión, y pasa sola.",
		llave: "Sí: el mantenimiento responde antes que todo, la llave no quedó reservada; repite la misma petición, con la misma llave, después de Retry-After.",
		citas: []Cita{{4, "4.5.2", "Modo mantenimiento"}, {4, "4.5.3", "Retry-After, en sus dos formas"},
			{7, "7.6.3", "Cuando el error es de la API"}, l7Type},
	},
	problema.VersionRetirada: {
		que:   "La versión 0 de la API se retiró el 31 de enero de 2026 y no va a volver: usa /servicios.",
		citas: []Cita{l3Estado, l5Problemas},
	},
	problema.TipoNoAdmitido: {
		que:   "El cuerpo no se declaró application/json (o no se declaró). Accept dice el único formato que se admite.",
		llave: "La llave nunca se reservó (el formato se mira antes): corrige Content-Type y repite; con la misma llave se atiende como nueva.",
		citas: []Cita{l3Estado, l6Demas},
	},
	problema.CuerpoDemasiadoGrande: {
		que: "El cuerpo pasa de 16 KiB, el tope del revisor. Se responde sin leerlo entero, con Connection: close, " +
			"y la conexión se cierra por etapas para que el 413 llegue.",
		llave: "La llave nunca se reservó: manda menos y repite; con la misma llave se atiende como nueva.",
		citas: []Cita{l6Demas, {7, "", "ejercicio 2: una fila del 413 en la tabla de decisión"}},
	},
	problema.CuerpoIlegible: {
		que:   "El cuerpo se declaró JSON pero no es un objeto JSON que se pueda leer.",
		llave: "La llave nunca se reservó (no hay huella de lo que no se pudo leer): corrige el cuerpo y repite.",
		citas: []Cita{l3Estado, l6Demas},
	},
	problema.DatosInvalidos: {
		que: "Se entendió, pero los datos no se pueden cumplir: errors lista cada campo, con su detalle y su pointer " +
			"(nombre de 1 a 40 caracteres, url http o https, limite_ms entero entre 100 y 10000).",
		llave: "Sí: un alta que falla libera su llave; corrige los datos y repite, con la misma llave se atiende como nueva.",
		citas: []Cita{l3Estado, {6, "6.7.3", "Qué pasa si el alta falla"}, {6, "6.5.4", "Qué hace con lo que recibe"}},
	},
	problema.DestinoProhibido: {
		que: "El revisor no se conecta a esa dirección: es privada, de la propia máquina o de metadatos, o un nombre " +
			"que resuelve a una de ellas (SSRF). Se mira al dar de alta y otra vez antes de cada conexión.",
		llave: "Sí: un alta que falla libera su llave; con otra dirección, la misma llave se atiende como nueva.",
		citas: []Cita{{4, "4.4.2", "cliente.consultar: cuatro desenlaces y uno más"}, l6Demas, l7Type},
	},
	problema.ServicioInexistente: {
		que: "No existe un servicio con ese id, o es de otro equipo: el revisor responde lo mismo en los dos casos, " +
			"para que quien prueba ids uno tras otro no sepa cuáles existen.",
		citas: []Cita{l2Puerta, {4, "4.6.3", "En el revisor: tres por minuto, por credencial"}},
	},
	problema.ServicioRetirado: {
		que:   "El servicio existió en tu equipo y se retiró (DELETE): no va a volver. Dalo de baja de tu lista.",
		citas: []Cita{l3Estado, l6Revisor, l7Type},
	},
	problema.RevisionInexistente: {
		que:   "No existe una revisión con ese id, o es de un servicio de otro equipo.",
		citas: []Cita{l2Puerta},
	},
	problema.NombreRepetido: {
		que: "Ya existe un servicio con ese nombre; existente dice cuál. Es un conflicto con el estado actual: " +
			"puede ser tu propio alta de antes, que sí llegó.",
		llave: "Repetirla no sirve: la llave quedó libre y la repetición vuelve a chocar con el mismo nombre. Reconcilia: lee existente y decide.",
		citas: []Cita{l3Estado, l6Revisor,
			{7, "7.7.1", "por-type.ts"}},
	},
	problema.DemasiadosServicios: {
		que: "Tu equipo llegó a su tope de servicios vivos (10.000, más allá del curso, que no pone ninguno). " +
			"Retira alguno antes de dar de alta otro.",
		llave: "Repetirla no sirve: la llave quedó libre, pero el tope sigue ahí hasta que retires alguno.",
		citas: []Cita{l3Estado},
	},
	problema.LlaveEnCurso: {
		que: "Llegó una petición con una Idempotency-Key cuya petición original todavía no termina: el revisor no " +
			"empieza una segunda ejecución. Es un 409 que se resuelve esperando, no releyendo.",
		llave: "Sí, y es lo que hay que hacer: espera y repite con la misma llave y el mismo cuerpo; cuando la original termine, recibirás su misma respuesta, byte a byte.",
		citas: []Cita{l6Llave, {6, "6.5.4", "Qué hace con lo que recibe"}, l7Type,
			{7, "7.7.1", "por-type.ts"}},
	},
	problema.LlaveReutilizada: {
		que: "Esa Idempotency-Key ya se usó con un cuerpo distinto (se compara su huella, no su texto: el mismo JSON " +
			"con otros espacios es el mismo cuerpo).",
		llave: "No: esa llave ya es de otra petición. Una petición nueva lleva una llave nueva.",
		citas: []Cita{l6Llave, {6, "6.7.2", "Qué pasa si cambia el cuerpo"}, l7Tabla},
	},
	problema.AltasEnCurso: {
		que: "Tu credencial tiene demasiadas altas con Idempotency-Key en curso a la vez (32, más allá del curso): " +
			"espera a que termine alguna. Retry-After dice cuánto.",
		llave: "Sí: esta petición no reservó su llave; repítela igual, con la misma llave, después de Retry-After.",
		citas: []Cita{l6Llave, {4, "4.6.3", "En el revisor: tres por minuto, por credencial"}},
	},
	problema.FaltaCondicion: {
		que:   "Para cambiar un servicio hace falta If-Match con su ETag: sin ella, tu cambio podría pisar el de otro.",
		citas: []Cita{l3Estado, l6Demas},
	},
	problema.EtiquetaVencida: {
		que: "Tu etiqueta ya no es la vigente: el servicio cambió desde que lo leíste, o el revisor se reinició. " +
			"If-Match se compara en fuerte: una etiqueta W/ no sirve.",
		citas: []Cita{l3Estado, l6Revisor,
			l6Demas},
	},
	problema.DemasiadasRevisiones: {
		que: "Pediste más de 3 revisiones en el último minuto con esta credencial. El límite es por credencial y se " +
			"cuenta antes de buscar el servicio, así que frena también a quien prueba ids.",
		citas: []Cita{{4, "4.6.3", "En el revisor: tres por minuto, por credencial"}, {4, "4.6.5", "Recuadro de seguridad: el 429 como defensa"}},
	},
	problema.DemasiadasConsultas: {
		que:   "Pediste más de 3 consultas en vivo en el último minuto con esta credencial: cada una sale a la red.",
		citas: []Cita{{4, "4.6.3", "En el revisor: tres por minuto, por credencial"}},
	},
	problema.ErrorInterno: {
		que: "Algo que nadie esperaba falló dentro del revisor. La respuesta solo trae la referencia (instance, " +
			"urn:uuid:…); la pila queda en la bitácora de quien opera, con la misma referencia.",
		llave: "No se duplica nada: si el alta falló antes de crear, la llave quedó libre; si el almacén la guardó con el servicio, la repetición recibe su respuesta. Aun así la tabla dice rendirse: repórtalo con su instance.",
		citas: []Cita{{4, "4.3.2", "Provocarlo"}, {4, "4.3.4", "Recuadro de seguridad: lo que nunca se dice en un error"}},
	},
	problema.RespuestaInvalida: {
		que: "El revisor hizo de pasarela y lo de atrás falló: nadie respondió en esa dirección, o lo que volvió no es " +
			"HTTP. La culpa es de lo de atrás.",
		citas: []Cita{l4Consulta, l4Pasarela},
	},
	problema.ServicioLento: {
		que:   "El revisor hizo de pasarela y el servicio no respondió dentro de su limite_ms.",
		citas: []Cita{l4Consulta, l4Pasarela},
	},
}
