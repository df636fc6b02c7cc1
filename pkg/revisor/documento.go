package revisor

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"cursohttp/internal/nodejs"
	"cursohttp/pkg/curso"
	"cursohttp/pkg/problema"
	"cursohttp/pkg/topes"
	"cursohttp/pkg/variantes"
)

// The OpenAPI 3.1 document of the revisor (issue 26). It is built from the route table (rutas: the
// paths, the methods, which write, which are limited and by what, and each method's operationDoc:
// what its handler answers beyond the gate) and the problem catalogue (every type's URI, title and
// status). The tests prove both directions against the real revisor: every response validates
// against the document, and every status and type it lists is reached.

// VersionAPI is info.version: the revisor's API as the course's last lesson leaves it.
const VersionAPI = "7"

// PaginaProblema is where the panel serves the page behind a type (RFC 9457 §3.1.1: a type URI
// should lead a person to its documentation; revisor.example is not a real host, the lab's panel is).
func PaginaProblema(clave problema.Clave) string {
	return curso.URLPanel + "/problemas/" + string(clave)
}

// exitoDoc is a success a handler answers.
type exitoDoc struct {
	codigo      int
	descripcion string
	esquema     string   // components/schemas name of the body; "" for a body-less answer
	cabeceras   []string // components/headers names, required
	opcionales  []string // components/headers names that come only sometimes
}

// operacionDoc is what the document says of one handler, on its method's entry in rutas.
type operacionDoc struct {
	id, resumen, descripcion string
	etiqueta                 string
	cuerpo                   string   // components/schemas name of the request body; "" without one
	parametros               []string // components/parameters names besides the path's id
	exitos                   []exitoDoc
	problemas                []problema.Clave // the handler's own, the gate's are added from rutas
	soloLeccion6             []problema.Clave // of problemas, those Lesson 4's program never answers
	obsoleta                 bool
}

var (
	conETag           = []string{"ETag"}
	avisos            = []string{"Deprecation", "Sunset", "Link"}
	leerJSONProblemas = []problema.Clave{problema.TipoNoAdmitido, problema.CuerpoDemasiadoGrande, problema.CuerpoIlegible}
	datosProblemas    = []problema.Clave{problema.DatosInvalidos, problema.DestinoProhibido}
	buscarProblemas   = []problema.Clave{problema.ServicioInexistente, problema.ServicioRetirado}
)

// fueraDeLasRutas says, by status, which of components/responses the gate answers to a request
// the paths do not describe: a path no route has, or a method a route does not take.
var fueraDeLasRutas = o(
	"ruta", o("301", "MovidoViejo", "308", "MovidoApi", "404", "RutaInexistente", "410", "VersionRetirada",
		"500", "ErrorInterno", "503", "EnMantenimiento"),
	"metodo", o("405", "MetodoNoAdmitido", "500", "ErrorInterno", "503", "EnMantenimiento"),
)

// Documento is the OpenAPI 3.1 document of the revisor p is (its lesson's program: Lesson 4's
// answers errors as a line of text and has no Idempotency-Key; the broken versions and exercises
// are documented as their lesson's program), as indented JSON with a final newline.
func Documento(p variantes.Eleccion) []byte {
	d := &documentador{leccion4: p.EnLeccion4()}
	return append(nodejs.CodificarJSONSangria(d.documento(p), "  "), '\n')
}

type documentador struct{ leccion4 bool }

func o(pares ...any) nodejs.Objeto {
	obj := make(nodejs.Objeto, 0, len(pares)/2)
	for i := 0; i+1 < len(pares); i += 2 {
		obj = append(obj, nodejs.Campo{Nombre: pares[i].(string), Valor: pares[i+1]})
	}
	return obj
}

func ref(seccion, nombre string) nodejs.Objeto {
	return o("$ref", "#/components/"+seccion+"/"+nombre)
}

// rutaOpenAPI writes a patron as an OpenAPI path: its number is {id}.
func rutaOpenAPI(p patron) string {
	if !p.conNumero {
		return p.prefijo
	}
	return p.prefijo + "{id}" + p.sufijo
}

// problemas are what an operation can answer besides its successes, in the gate's order and then
// the handler's.
func (d *documentador) problemas(rt ruta, m metodo) []problema.Clave {
	var ps []problema.Clave
	if rt.patron != literal("/mantenimiento") {
		ps = append(ps, problema.EnMantenimiento)
	}
	ps = append(ps, problema.CredencialInvalida)
	if m.escribe {
		ps = append(ps, problema.PermisoInsuficiente)
	}
	if m.limite != nil {
		ps = append(ps, m.limite.problema)
	}
	for _, c := range m.doc.problemas {
		if d.leccion4 && slices.Contains(m.doc.soloLeccion6, c) {
			continue
		}
		if !slices.Contains(ps, c) {
			ps = append(ps, c)
		}
	}
	// Whatever the store fails, and the safety net: every operation can answer 500.
	return append(ps, problema.ErrorInterno)
}

func (d *documentador) documento(p variantes.Eleccion) nodejs.Objeto {
	rs, _ := rutas(p)
	paths := nodejs.Objeto{}
	for _, rt := range rs {
		ruta := rutaOpenAPI(rt.patron)
		item := nodejs.Objeto{}
		if rt.patron.conNumero {
			item = append(item, nodejs.Campo{Nombre: "parameters", Valor: []any{ref("parameters", "id")}})
		}
		for _, m := range rt.metodos {
			item = append(item, nodejs.Campo{Nombre: strings.ToLower(m.nombre), Valor: d.operacion(rt, m, false)})
			if m.nombre == http.MethodGet {
				item = append(item, nodejs.Campo{Nombre: "head", Valor: d.operacion(rt, m, true)})
			}
		}
		paths = append(paths, nodejs.Campo{Nombre: ruta, Valor: item})
	}
	programa := "el revisor final (el de las lecciones 6 y 7)"
	if d.leccion4 {
		programa = "el revisor de la lección 4 (revisor --leccion 4)"
	}
	return o(
		"openapi", "3.1.1",
		"info", o(
			"title", "revisor",
			"version", VersionAPI,
			"summary", "La API del curso: los servicios que observa cada equipo, sus revisiones y su salud.",
			"description", d.descripcion(programa),
			"license", o("name", "MIT", "identifier", "MIT"),
		),
		"servers", []any{o("url", curso.URLRevisor, "description", "el revisor del laboratorio")},
		"security", []any{o("credencial", []string{})},
		"tags", []any{
			o("name", "servicios", "description", "Los servicios que observa cada equipo."),
			o("name", "revisiones", "description", "Las revisiones de un servicio, que corren en segundo plano."),
			o("name", "operación", "description", "Lo que hace quien opera el revisor."),
			o("name", "v1", "description", "La versión anterior, obsoleta: solo lectura, con sus avisos."),
		},
		"paths", paths,
		"components", d.componentes(),
		"x-fuera-de-las-rutas", append(o(
			"description", "Lo que la puerta responde a una petición que las rutas no describen: una ruta que no "+
				"existe (o cuyo {id} no es un número) y un método que la ruta no admite; por código, uno de "+
				"components/responses."), fueraDeLasRutas...),
	)
}

func (d *documentador) descripcion(programa string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Este documento describe %s.\n\n", programa)
	b.WriteString("La puerta hace las preguntas del curso en su orden: ¿existe la ruta? (404), ¿admite el método? " +
		"(405, con Allow), ¿quién eres? (401, con WWW-Authenticate), ¿puedes? (403), ¿dentro de tu límite? (429, solo " +
		"en las rutas que salen a la red). Antes de todo, con el modo mantenimiento encendido, todo salvo " +
		"/mantenimiento responde 503 con Retry-After.\n\n")
	b.WriteString("Fuera de las rutas: /viejo/servicios… responde 301 y /api/servicios… 308, con Location a la " +
		"dirección nueva; /v0 y lo que cuelga de ella, 410 version-retirada (se retiró el 31 de enero de 2026); " +
		"cualquier otra ruta, 404. Lo dice x-fuera-de-las-rutas.\n\n")
	if d.leccion4 {
		b.WriteString("Los errores son una línea de texto (text/plain; charset=utf-8), como en la lección 4: " +
			"la lección 5 los convierte en Problem Details. No hay Idempotency-Key (llega en la lección 6). " +
			"Cada respuesta de error dice qué caso es; el documento del revisor final (revisor openapi) da su type.\n")
	} else {
		b.WriteString("Los errores son Problem Details (RFC 9457, application/problem+json, Content-Language: es): " +
			"un cliente decide por status y type, nunca por title ni detail, que son para personas. Cada type lleva " +
			"a su página en el panel del laboratorio (" + curso.URLPanel + "/problemas/…). " +
			"El revisor de la lección 4 (revisor --leccion 4) difiere: revisor openapi --leccion 4.\n")
	}
	return b.String()
}

// operacion builds one Operation Object; cabeza is its HEAD twin (the same answers without body).
func (d *documentador) operacion(rt ruta, m metodo, cabeza bool) nodejs.Objeto {
	op := m.doc
	id, resumen := op.id, op.resumen
	if cabeza {
		id, resumen = op.id+"Cabeza", resumen+" (solo la cabeza)"
	}
	obj := o("tags", []string{op.etiqueta}, "summary", resumen, "description", op.descripcion, "operationId", id)
	if op.obsoleta {
		obj = append(obj, nodejs.Campo{Nombre: "deprecated", Valor: true})
	}
	var parametros []any
	for _, p := range op.parametros {
		if p == "IdempotencyKey" && d.leccion4 {
			continue
		}
		parametros = append(parametros, ref("parameters", p))
	}
	if len(parametros) > 0 {
		obj = append(obj, nodejs.Campo{Nombre: "parameters", Valor: parametros})
	}
	if op.cuerpo != "" {
		obj = append(obj, nodejs.Campo{Nombre: "requestBody", Valor: o("required", true,
			"content", o("application/json", o("schema", ref("schemas", op.cuerpo))))})
	}
	alcance := "lectura"
	switch {
	case rt.patron == literal("/mantenimiento"):
		alcance = "admin"
	case m.escribe:
		alcance = "escritura"
	}
	obj = append(obj, nodejs.Campo{Nombre: "security", Valor: []any{o("credencial", []string{alcance})}})

	respuestas := nodejs.Objeto{}
	limitada := m.limite != nil
	for _, e := range op.exitos {
		r := o("description", e.descripcion)
		cab := nodejs.Objeto{}
		for _, c := range e.cabeceras {
			cab = append(cab, nodejs.Campo{Nombre: c, Valor: cabeceraRequerida(c)})
		}
		for _, c := range e.opcionales {
			cab = append(cab, nodejs.Campo{Nombre: c, Valor: cabeceraOpcional(c)})
		}
		if limitada {
			cab = append(cab, cabecerasRateLimit()...)
		}
		if len(cab) > 0 {
			r = append(r, nodejs.Campo{Nombre: "headers", Valor: cab})
		}
		if e.esquema != "" && !cabeza {
			r = append(r, nodejs.Campo{Nombre: "content", Valor: o("application/json", o("schema", ref("schemas", e.esquema)))})
		}
		respuestas = append(respuestas, nodejs.Campo{Nombre: strconv.Itoa(e.codigo), Valor: r})
	}
	porCodigo := map[int][]problema.Clave{}
	var codigos []int
	for _, c := range d.problemas(rt, m) {
		s := problema.Buscar(c).Status
		if _, hay := porCodigo[s]; !hay {
			codigos = append(codigos, s)
		}
		porCodigo[s] = append(porCodigo[s], c)
	}
	slices.Sort(codigos)
	for _, s := range codigos {
		// The gate's own answers before counting (401, 403, 503) carry no RateLimit.
		contado := limitada && s != 401 && s != 403 && s != 503
		var r nodejs.Objeto
		if comun, ok := respuestasComunes[porCodigo[s][0]]; ok && len(porCodigo[s]) == 1 && !contado && !cabeza {
			r = ref("responses", comun)
		} else {
			r = d.respuestaProblemas(porCodigo[s], contado, cabeza)
		}
		respuestas = append(respuestas, nodejs.Campo{Nombre: strconv.Itoa(s), Valor: r})
	}
	return append(obj, nodejs.Campo{Nombre: "responses", Valor: respuestas})
}

// cabeceraRequerida is a header the response always carries: components/headers holds those with
// required: true, so a reference says it all.
// respuestasComunes are the answers every operation shares, written once in components/responses.
var respuestasComunes = map[problema.Clave]string{problema.EnMantenimiento: "EnMantenimiento", problema.ErrorInterno: "ErrorInterno"}

func cabeceraRequerida(nombre string) nodejs.Objeto {
	if v, _ := componenteCabecera(nombre).Valor("required"); v != true {
		panic("revisor: la cabecera " + nombre + " no es requerida en components/headers")
	}
	return ref("headers", nombre)
}

// cabeceraOpcional is a header the response carries only sometimes: a required component is
// written in place without its required (a Reference Object takes no required beside $ref).
func cabeceraOpcional(nombre string) nodejs.Objeto {
	c := componenteCabecera(nombre)
	if v, _ := c.Valor("required"); v != true {
		return ref("headers", nombre)
	}
	var sin nodejs.Objeto
	for _, campo := range c {
		if campo.Nombre != "required" {
			sin = append(sin, campo)
		}
	}
	return sin
}

func componenteCabecera(nombre string) nodejs.Objeto {
	v, _ := cabecerasDoc.Valor(nombre)
	c, ok := v.(nodejs.Objeto)
	if !ok {
		panic("revisor: la cabecera " + nombre + " no está en components/headers")
	}
	return c
}

// cabecerasRateLimit: with revisor --cabeceras-ratelimit, every response the limiter counted.
func cabecerasRateLimit() nodejs.Objeto {
	return nodejs.Objeto{
		{Nombre: "RateLimit-Policy", Valor: ref("headers", "RateLimit-Policy")},
		{Nombre: "RateLimit", Valor: ref("headers", "RateLimit")},
	}
}

// cabecerasDe are the headers a problem always carries (the gate and handlers add them).
func cabecerasDe(c problema.Clave) []string {
	switch c {
	case problema.CredencialInvalida:
		return []string{"WWW-Authenticate"}
	case problema.MetodoNoAdmitido:
		return []string{"Allow"}
	case problema.TipoNoAdmitido:
		return []string{"Accept"}
	case problema.EnMantenimiento, problema.DemasiadasRevisiones, problema.DemasiadasConsultas, problema.AltasEnCurso:
		return []string{"Retry-After"}
	}
	return nil
}

// respuestaProblemas is the Response Object of one status that answers the types cs.
func (d *documentador) respuestaProblemas(cs []problema.Clave, contado, cabeza bool) nodejs.Objeto {
	var partes []string
	var esquemas []any
	cab := nodejs.Objeto{}
	vistas := map[string]bool{}
	for _, c := range cs {
		t := problema.Buscar(c)
		partes = append(partes, string(c)+" ("+t.Title+")")
		esquemas = append(esquemas, ref("schemas", NombreEsquema(c)))
		for _, h := range cabecerasDe(c) {
			if vistas[h] {
				continue
			}
			vistas[h] = true
			if len(cs) == 1 || todasLaLlevan(cs, h) {
				cab = append(cab, nodejs.Campo{Nombre: h, Valor: cabeceraRequerida(h)})
			} else {
				cab = append(cab, nodejs.Campo{Nombre: h, Valor: cabeceraOpcional(h)})
			}
		}
	}
	if !d.leccion4 {
		cab = append(cab, nodejs.Campo{Nombre: "Content-Language", Valor: cabeceraRequerida("Content-Language")})
	}
	if contado {
		cab = append(cab, cabecerasRateLimit()...)
	}
	r := o("description", strings.Join(partes, "; o "))
	if len(cab) > 0 {
		r = append(r, nodejs.Campo{Nombre: "headers", Valor: cab})
	}
	if cabeza {
		return r
	}
	if d.leccion4 {
		return append(r, nodejs.Campo{Nombre: "content", Valor: o(problema.TipoTexto, o("schema", ref("schemas", "LineaDeError")))})
	}
	var esquema nodejs.Objeto
	if len(esquemas) == 1 {
		esquema = esquemas[0].(nodejs.Objeto)
	} else {
		esquema = o("oneOf", esquemas)
	}
	return append(r, nodejs.Campo{Nombre: "content", Valor: o(problema.TipoMedio, o("schema", esquema))})
}

func todasLaLlevan(cs []problema.Clave, h string) bool {
	for _, c := range cs {
		if !slices.Contains(cabecerasDe(c), h) {
			return false
		}
	}
	return true
}

// NombreEsquema is a type's schema in components/schemas.
func NombreEsquema(c problema.Clave) string { return "problema-" + string(c) }

func (d *documentador) componentes() nodejs.Objeto {
	esquemas := o(
		"Servicio", o("type", "object", "required", []string{"id", "nombre", "url", "limite_ms"},
			"additionalProperties", false,
			"properties", o(
				"id", o("type", "integer", "minimum", 1),
				"nombre", o("type", "string", "minLength", 1, "maxLength", NombreMaximo, "description", "De 1 a 40 caracteres (unidades UTF-16, como cuenta JavaScript), único en el revisor."),
				"url", o("type", "string", "description", "Una dirección http o https, de hasta "+strconv.Itoa(topes.URL)+" caracteres."),
				"limite_ms", o("type", "integer", "minimum", LimiteMinimoMs, "maximum", LimiteMaximoMs),
			)),
		"DatosDeServicio", o("type", "object", "required", []string{"nombre", "url"},
			"description", "Lo que un alta o un cambio fija. El revisor responde 422 datos-invalidos con todos los campos que no se pueden cumplir.",
			"properties", o(
				"nombre", o("type", "string", "minLength", 1, "maxLength", NombreMaximo),
				"url", o("type", "string", "maxLength", topes.URL, "examples", []string{curso.URLLaboratorio + "/codigo/200"}),
				"limite_ms", o("type", "integer", "minimum", LimiteMinimoMs, "maximum", LimiteMaximoMs, "default", LimitePorOmision),
			)),
		"ListaDeServicios", o("type", "object", "required", []string{"servicios"}, "additionalProperties", false,
			"properties", o("servicios", o("type", "array", "items", ref("schemas", "Servicio")))),
		"ServicioV1", o("type", "object", "required", []string{"id", "nombre", "direccion", "limite"}, "additionalProperties", false,
			"properties", o(
				"id", o("type", "integer", "minimum", 1),
				"nombre", o("type", "string"),
				"direccion", o("type", "string", "description", "La url de la versión actual."),
				"limite", o("type", "number", "description", "El límite en segundos (limite_ms / 1000)."),
			)),
		"ListaDeServiciosV1", o("type", "object", "required", []string{"servicios"}, "additionalProperties", false,
			"properties", o("servicios", o("type", "array", "items", ref("schemas", "ServicioV1")))),
		"Revision", o("type", "object", "required", []string{"id", "servicio", "estado", "resultado"}, "additionalProperties", false,
			"properties", o(
				"id", o("type", "integer", "minimum", 1),
				"servicio", o("type", "integer", "minimum", 1),
				"estado", o("enum", []string{"pendiente", "terminada"}),
				"resultado", o("oneOf", []any{o("type", "null"), ref("schemas", "Resultado")}),
			)),
		"Resultado", o("type", "object", "required", []string{"estado", "codigo", "ms", "detalle"}, "additionalProperties", false,
			"properties", o(
				"estado", o("enum", []string{"ARRIBA", "LENTO", "CAIDO"}),
				"codigo", o("type", []string{"integer", "null"}, "description", "null sin respuesta HTTP."),
				"ms", o("type", []string{"integer", "null"}),
				"detalle", o("type", "string"),
			)),
		"Salud", o("type", "object", "required", []string{"servicio", "codigo", "ms"}, "additionalProperties", false,
			"properties", o(
				"servicio", o("type", "integer"),
				"codigo", o("type", "integer", "description", "El código que respondió el servicio, el que sea."),
				"ms", o("type", "integer"),
			)),
		"Informe", o("type", "object", "required", []string{"servicio", "revisiones", "ultimo_estado"}, "additionalProperties", false,
			"properties", o(
				"servicio", o("type", "integer"),
				"revisiones", o("type", "integer"),
				"ultimo_estado", o("enum", []string{"ARRIBA", "LENTO", "CAIDO"}),
			)),
		"Mantenimiento", o("type", "object", "required", []string{"activo"},
			"properties", o("activo", o("type", "boolean"))),
	)
	if d.leccion4 {
		esquemas = append(esquemas, nodejs.Campo{Nombre: "LineaDeError", Valor: o("type", "string",
			"description", "El detalle del error en una línea (en 422 datos-invalidos, una línea «campo: detalle» por campo).")})
	} else {
		esquemas = append(esquemas, nodejs.Campo{Nombre: "Problema", Valor: o("type", "object",
			"description", "Problem Details (RFC 9457): los cinco miembros estándar y, después, las extensiones del type.",
			"required", []string{"type", "title", "status", "detail", "instance"},
			"properties", o(
				"type", o("type", "string", "description", "Identifica el problema: el cliente decide por él."),
				"title", o("type", "string", "description", "El nombre corto del type, para personas."),
				"status", o("type", "integer"),
				"detail", o("type", "string", "description", "Esta ocurrencia, para personas: no se interpreta."),
				"instance", o("type", "string", "description", "La ruta pedida, o urn:uuid:… con la referencia de un 500."),
			))})
		for _, c := range problema.DelRevisor() {
			esquemas = append(esquemas, nodejs.Campo{Nombre: NombreEsquema(c), Valor: esquemaProblema(c)})
		}
	}

	parametros := o(
		"id", o("name", "id", "in", "path", "required", true, "description", "Un número: otra cosa no es esta ruta (404 ruta-inexistente).",
			"schema", o("type", "string", "pattern", "^[0-9]+$")),
		"IfMatch", o("name", "If-Match", "in", "header", "required", true,
			"description", "La ETag vigente, comparada en fuerte (W/ no sirve), o *. Sin ella, 428 falta-condicion; con otra, 412 etiqueta-vencida.",
			"schema", o("type", "string")),
		"IfNoneMatch", o("name", "If-None-Match", "in", "header",
			"description", "Una o varias ETag (o *), comparadas en débil: si una coincide, 304.",
			"schema", o("type", "string")),
		"IdempotencyKey", o("name", "Idempotency-Key", "in", "header",
			"description", "draft-ietf-httpapi-idempotency-key-header-07: un Item de Structured Fields cuyo valor es una "+
				"sf-string, una llave única por intención (un UUID, por ejemplo). El revisor compara el valor del campo tal "+
				"como llega, byte a byte y por credencial: \"alta-1\" (con comillas, como pide el borrador) y alta-1 (como "+
				"la mandan los programas del curso) son dos llaves distintas. La misma llave con el mismo cuerpo repite la "+
				"respuesta; con otro cuerpo, 422 llave-reutilizada; mientras la primera sigue, 409 llave-en-curso.",
			"schema", o("type", "string", "minLength", 1),
			"examples", o(
				"sf-string", o("summary", "como pide el borrador", "value", `"8e03978e-40d5-43e8-bc93-6894a57f9324"`),
				"curso", o("summary", "como la mandan los programas del curso", "value", "alta-avisos-1"),
			)),
	)
	respuestas := o(
		"RutaInexistente", d.respuestaProblemas([]problema.Clave{problema.RutaInexistente}, false, false),
		"MetodoNoAdmitido", d.respuestaProblemas([]problema.Clave{problema.MetodoNoAdmitido}, false, false),
		"VersionRetirada", d.respuestaProblemas([]problema.Clave{problema.VersionRetirada}, false, false),
		"EnMantenimiento", d.respuestaProblemas([]problema.Clave{problema.EnMantenimiento}, false, false),
		"ErrorInterno", d.respuestaProblemas([]problema.Clave{problema.ErrorInterno}, false, false),
		"MovidoViejo", o("description", "/viejo/servicios… se mudó para siempre: Location es la misma ruta sin /viejo, con la misma consulta.",
			"headers", o("Location", cabeceraRequerida("Location"))),
		"MovidoApi", o("description", "/api/servicios… se mudó para siempre y el método se conserva: Location es la misma ruta sin /api.",
			"headers", o("Location", cabeceraRequerida("Location"))),
	)
	return o(
		"securitySchemes", o("credencial", o("type", "http", "scheme", "bearer",
			"description", "Authorization: Bearer <credencial>. Las de práctica del curso: lectura-a (alcance lectura, "+
				"equipo a), escritura-a y escritura-b (lectura y escritura, equipos a y b) y admin (lectura, escritura y "+
				"admin; ve todos los equipos). Cada operación dice en security el alcance que pide: sin credencial válida, "+
				"401; con una que no alcanza, 403 permiso-insuficiente. Un servicio de otro equipo responde 404, como uno que no existe.")),
		"schemas", esquemas,
		"headers", cabecerasDoc,
		"parameters", parametros,
		"responses", respuestas,
	)
}

// esquemaProblema is a type's schema: the Problem with its type, title and status fixed, and its
// extensions.
func esquemaProblema(c problema.Clave) nodejs.Objeto {
	t := problema.Buscar(c)
	propiedades := o(
		"type", o("const", t.Type),
		"title", o("const", t.Title),
		"status", o("const", t.Status),
	)
	var requeridas []string
	switch c {
	case problema.DatosInvalidos:
		propiedades = append(propiedades, nodejs.Campo{Nombre: "errors", Valor: o("type", "array", "minItems", 1,
			"description", "Cada campo que no se puede cumplir (RFC 9457 §3: varios problemas de un type en una respuesta).",
			"items", o("type", "object", "required", []string{"detail", "pointer"}, "additionalProperties", false,
				"properties", o("detail", o("type", "string"), "pointer", o("type", "string", "description", "JSON Pointer (RFC 6901) del campo, como fragmento: #/nombre."))))})
		requeridas = append(requeridas, "errors")
	case problema.NombreRepetido:
		propiedades = append(propiedades, nodejs.Campo{Nombre: "existente", Valor: o("type", "string",
			"description", "La ruta del servicio que ya tiene ese nombre.", "pattern", "^/servicios/[0-9]+$")})
		requeridas = append(requeridas, "existente")
	case problema.ErrorInterno:
		propiedades = append(propiedades, nodejs.Campo{Nombre: "instance", Valor: o("type", "string",
			"description", "La referencia del error, que la bitácora del revisor también lleva.",
			"pattern", "^urn:uuid:[0-9a-f-]{36}$")})
	}
	descripcion := t.Title + "."
	if t.Type == "about:blank" {
		descripcion = t.Title + ": about:blank, el significado es el del código (RFC 9457 §4.2.1)."
	}
	esquema := o("description", descripcion, "allOf", []any{ref("schemas", "Problema")}, "properties", propiedades)
	if len(requeridas) > 0 {
		esquema = append(esquema, nodejs.Campo{Nombre: "required", Valor: requeridas})
	}
	return append(esquema, nodejs.Campo{Nombre: "externalDocs", Valor: o("description", "Qué pasó y qué hacer",
		"url", PaginaProblema(c))})
}

// cabecerasDoc are components/headers: the headers that carry meaning, required where the
// responses that name them always carry them (cabeceraOpcional for the others).
var cabecerasDoc = o(
	"ETag", o("required", true, "description", "La etiqueta de esta versión del servicio, fuerte: mándala en If-Match para cambiarlo.",
		"schema", o("type", "string", "pattern", `^"[0-9]+-[0-9]+-[0-9a-z]+"$`)),
	"Location", o("required", true, "description", "La dirección del recurso creado, o la nueva de uno que se mudó.",
		"schema", o("type", "string")),
	"Retry-After", o("required", true, "description", "Segundos que hay que esperar antes de volver a pedir (RFC 9110 §10.2.3). El revisor da siempre segundos, nunca una fecha.",
		"schema", o("type", "string", "pattern", "^[0-9]+$")),
	"WWW-Authenticate", o("required", true, "description", "El reto Bearer (RFC 6750): error=\"invalid_token\" solo cuando llegó una credencial Bearer que no vale.",
		"schema", o("type", "string", "pattern", `^Bearer realm="revisor"(, error="invalid_token")?$`)),
	"Allow", o("required", true, "description", "Los métodos que la ruta admite (GET trae HEAD).",
		"schema", o("type", "string")),
	"Accept", o("required", true, "description", "El único formato de cuerpo que se admite.",
		"schema", o("const", "application/json")),
	"Content-Language", o("required", true, "description", "title y detail están en español.",
		"schema", o("const", "es")),
	"RateLimit-Policy", o("description", "La política de la ruta (draft-ietf-httpapi-ratelimit-headers-11): una lista de "+
		"Structured Fields (RFC 9651) con el nombre como sf-string, q (la cuota) y w (la ventana en segundos). Solo con "+
		"revisor --cabeceras-ratelimit; el curso no la manda.",
		"schema", o("type", "string", "pattern", `^"[!#-\[\]-~]*";q=[0-9]+;w=[0-9]+$`, "examples", []string{`"revisiones";q=3;w=60`})),
	"RateLimit", o("description", "Dónde estás en esa política (draft-11): r lo que te queda y t los segundos hasta que "+
		"la ventana se renueva (el mismo número que Retry-After en un 429). Solo con --cabeceras-ratelimit.",
		"schema", o("type", "string", "pattern", `^"[!#-\[\]-~]*";r=[0-9]+;t=[0-9]+$`, "examples", []string{`"revisiones";r=2;t=45`})),
	"Deprecation", o("required", true, "description", "Desde cuándo la versión 1 es obsoleta (RFC 9745): una fecha de Structured Fields, @segundos.",
		"schema", o("type", "string", "pattern", "^@[0-9]+$")),
	"Sunset", o("required", true, "description", "Cuándo dejará de responder, probablemente (RFC 8594): una fecha HTTP.",
		"schema", o("type", "string")),
	"Link", o("required", true, "description", "Adónde migrar: rel=\"deprecation\".",
		"schema", o("type", "string")),
)
