package revisor

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"cursohttp/internal/nodejs"
	"cursohttp/pkg/almacen"
	"cursohttp/pkg/problema"
	"cursohttp/pkg/respuesta"
	"cursohttp/pkg/topes"
	"cursohttp/pkg/variantes"
)

// contexto is what a handler gets once the gate let the request through.
type contexto struct {
	w          http.ResponseWriter
	r          *http.Request
	parametro  string // the route's number ({id}), "" in a route without one
	credencial Credencial
	limite     *limite // the route's limit, when the handler is the one to count it
}

type manejador func(rv *Revisor, c *contexto)

// metodo says which handler serves a method, whether it writes (a lector may not), for the
// routes that make the revisor go out to the network the limit the gate applies, and what the
// OpenAPI document says of it: one entry, so a method cannot be served undocumented.
type metodo struct {
	nombre  string
	atiende manejador
	escribe bool
	limite  *limite
	doc     operacionDoc // set by documentado; TestCadaMetodoTieneSuOperacion fails without it
}

// limite is a quota per credential and window. The gate counts a request against it once it knows
// who asks and that they may, and before the handler looks anything up: the 404s of someone trying
// ids one after another count too, and one credential's use is not another's.
type limite struct {
	politica string // its name in RateLimit-Policy and RateLimit
	cuota    int    // requests per ventana
	ventana  time.Duration
	problema problema.Clave // the 429 it answers
	que      string         // what was asked too often, as the 429's detail says it
	// porServicio: counted per service by the handler once it found the service, not per
	// credential by the gate (Lesson 4 exercise 3's broken variant; see pedirRevision).
	porServicio bool
	lim         almacen.Contador // one per limite and revisor, built by Nuevo
}

// enLaAyuda is the limit as the route list of --help says it, from the limit itself so the help
// cannot go on saying an old quota.
func (l *limite) enLaAyuda() string {
	return strconv.Itoa(l.cuota) + " por " + ventanaEnPalabras(l.ventana) + " y credencial"
}

// ventanaEnPalabras is a window as the help reads it: «minuto» for the course's, else its duration.
func ventanaEnPalabras(d time.Duration) string {
	if d == time.Minute {
		return "minuto"
	}
	return d.String()
}

type ruta struct {
	patron  patron
	ayuda   ayudaRuta
	metodos []metodo // in the course's order, which is the order of Allow
	permite string   // the Allow value, GET bringing HEAD along
}

// ayudaRuta is a route's line in the route list of «revisor --help» (AyudaRutas).
type ayudaRuta struct {
	// puesto is the line's place in the list, which follows the course's story (a check is asked
	// for, then read; the admin's switch last) rather than the order routes are matched in. Equal
	// places keep the table's order.
	puesto   int
	etiqueta string // what the list names; "" for the route's own path, {id} for its number
	texto    string // what its methods do, each named; a "\n" goes on under the text's column
	plegada  bool   // said by the previous entry's etiqueta and texto: no line of its own
}

// patron is a route's path: a literal, or a literal, a number (one or more ASCII digits, the
// route's parameter) and a literal. Matching it is a comparison, not a regular expression: it runs
// for every request.
type patron struct {
	prefijo   string
	conNumero bool
	sufijo    string
}

// literal and conNumero build the two shapes: "/mantenimiento", "/servicios/{id}/salud".
func literal(camino string) patron { return patron{prefijo: camino} }

func conNumero(prefijo, sufijo string) patron {
	return patron{prefijo: prefijo, conNumero: true, sufijo: sufijo}
}

// encontrar says whether camino is p's, and its number.
func (p patron) encontrar(camino string) (numero string, ok bool) {
	if !p.conNumero {
		return "", camino == p.prefijo
	}
	if !strings.HasPrefix(camino, p.prefijo) || !strings.HasSuffix(camino, p.sufijo) ||
		len(camino) <= len(p.prefijo)+len(p.sufijo) {
		return "", false
	}
	numero = camino[len(p.prefijo) : len(camino)-len(p.sufijo)]
	for i := 0; i < len(numero); i++ {
		if numero[i] < '0' || numero[i] > '9' {
			return "", false
		}
	}
	return numero, true
}

func lee(nombre string, m manejador) metodo     { return metodo{nombre: nombre, atiende: m} }
func escribe(nombre string, m manejador) metodo { e := lee(nombre, m); e.escribe = true; return e }

// limitado puts the method under l.
func (m metodo) limitado(l *limite) metodo { m.limite = l; return m }

// documentado gives the method its operation in the OpenAPI document (documento.go): what its
// handler answers beyond the gate.
func (m metodo) documentado(op operacionDoc) metodo { m.doc = op; return m }

// rutas is the API of a revisor, matched against the request's WHATWG path, and the one table the
// OpenAPI document is built from: each method carries its operation. Every lesson's program has
// the same routes and order; a variant changes a handler or a limit here (p), and the limits it
// returns are those Nuevo builds a limiter for.
func rutas(p variantes.Eleccion) ([]ruta, []*limite) {
	revisiones := &limite{politica: "revisiones", cuota: topes.Revisiones, ventana: Ventana, problema: problema.DemasiadasRevisiones, que: "revisiones"}
	consultas := &limite{politica: "consultas", cuota: topes.Revisiones, ventana: Ventana, problema: problema.DemasiadasConsultas, que: "consultas en vivo"}
	if p.EsEjercicio(4, 3) {
		revisiones.porServicio, revisiones.que = true, "revisiones de este servicio"
	}
	salud := (*Revisor).salud
	if p.EsDefecto(variantes.SinPasarela) {
		salud = (*Revisor).saludSinPasarela
	}
	rs := []ruta{
		{
			patron: literal("/servicios"),
			ayuda: ayudaRuta{puesto: 1, texto: "GET la lista de la credencial; POST da de alta un servicio\n" +
				"(con Idempotency-Key, un reintento no lo duplica)"},
			metodos: []metodo{
				lee("GET", (*Revisor).listar).documentado(operacionDoc{
					id: "listarServicios", etiqueta: "servicios", resumen: "Los servicios de la credencial",
					descripcion: "Los servicios vivos del equipo de la credencial; admin ve los de todos.",
					exitos:      []exitoDoc{{codigo: 200, descripcion: "La lista, en el orden del alta.", esquema: "ListaDeServicios"}},
				}),
				escribe("POST", (*Revisor).darDeAlta).documentado(operacionDoc{
					id: "darDeAlta", etiqueta: "servicios", resumen: "Da de alta un servicio",
					descripcion: "Con Idempotency-Key, la misma petición repetida recibe la misma respuesta y no crea otro " +
						"servicio (lección 6, §6.6). El nombre es único en todo el revisor.",
					cuerpo: "DatosDeServicio", parametros: []string{"IdempotencyKey"},
					exitos: []exitoDoc{{codigo: 201, descripcion: "Se creó (o, con la misma Idempotency-Key y el mismo cuerpo, " +
						"se repite la respuesta de cuando se creó, byte a byte).", esquema: "Servicio", cabeceras: []string{"Location", "ETag"}}},
					problemas: append(slices.Clone(leerJSONProblemas), problema.LlaveEnCurso, problema.LlaveReutilizada,
						problema.AltasEnCurso, problema.DatosInvalidos, problema.DestinoProhibido, problema.NombreRepetido, problema.DemasiadosServicios),
					soloLeccion6: []problema.Clave{problema.LlaveEnCurso, problema.LlaveReutilizada, problema.AltasEnCurso},
				}),
			},
		},
		{
			patron: conNumero("/servicios/", ""),
			ayuda:  ayudaRuta{puesto: 2, texto: "GET, PUT (con If-Match) y DELETE"},
			metodos: []metodo{
				lee("GET", (*Revisor).consultar).documentado(operacionDoc{
					id: "consultarServicio", etiqueta: "servicios", resumen: "Un servicio, con su ETag",
					descripcion: "Con If-None-Match y la etiqueta vigente responde 304 sin cuerpo.",
					parametros:  []string{"IfNoneMatch"},
					exitos: []exitoDoc{
						{codigo: 200, descripcion: "El servicio.", esquema: "Servicio", cabeceras: conETag},
						{codigo: 304, descripcion: "No cambió desde la etiqueta de If-None-Match: usa tu copia.", cabeceras: conETag},
					},
					problemas: buscarProblemas,
				}),
				escribe("PUT", (*Revisor).cambiar).documentado(operacionDoc{
					id: "cambiarServicio", etiqueta: "servicios", resumen: "Cambia un servicio sin pisar el cambio de otro",
					descripcion: "Pide If-Match con la ETag vigente, comparada en fuerte (RFC 9110 §13.1.1). Primero el formato " +
						"(415), después la condición (428, 412), después la lectura del cuerpo (413, 400) y los datos (422).",
					cuerpo: "DatosDeServicio", parametros: []string{"IfMatch"},
					exitos:    []exitoDoc{{codigo: 200, descripcion: "El servicio cambiado, con su nueva ETag.", esquema: "Servicio", cabeceras: conETag}},
					problemas: append(append(append(slices.Clone(buscarProblemas), leerJSONProblemas...), problema.FaltaCondicion, problema.EtiquetaVencida, problema.NombreRepetido), datosProblemas...),
				}),
				escribe("DELETE", (*Revisor).retirar).documentado(operacionDoc{
					id: "retirarServicio", etiqueta: "servicios", resumen: "Retira un servicio",
					descripcion: "Un servicio retirado no vuelve: después responde 410.",
					exitos:      []exitoDoc{{codigo: 204, descripcion: "Se retiró."}},
					problemas:   buscarProblemas,
				}),
			},
		},
		{
			patron: conNumero("/servicios/", "/revisiones"),
			ayuda:  ayudaRuta{puesto: 3, texto: "POST pide una revisión: " + revisiones.enLaAyuda()},
			metodos: []metodo{
				escribe("POST", (*Revisor).pedirRevision).limitado(revisiones).documentado(operacionDoc{
					id: "pedirRevision", etiqueta: "revisiones", resumen: "Pide una revisión del servicio",
					descripcion: "La revisión corre en segundo plano; su dirección viene en Location. Sale a la red, así que tiene " +
						"límite por credencial (lección 4, §4.6.3).",
					exitos:    []exitoDoc{{codigo: 202, descripcion: "Se aceptó: la revisión queda pendiente.", esquema: "Revision", cabeceras: []string{"Location"}}},
					problemas: buscarProblemas,
				}),
			},
		},
		{
			patron: conNumero("/servicios/", "/salud"),
			ayuda:  ayudaRuta{puesto: 5, texto: "GET consulta el servicio en vivo: " + consultas.enLaAyuda()},
			metodos: []metodo{
				lee("GET", salud).limitado(consultas).documentado(operacionDoc{
					id: "consultarSalud", etiqueta: "servicios", resumen: "Consulta el servicio en vivo",
					descripcion: "El revisor hace de pasarela: cualquier respuesta del servicio es un 200 suyo, con el código que " +
						"dio; sin respuesta, 504 si no respondió a tiempo y 502 si lo que volvió no es HTTP o nadie respondió " +
						"(lección 4, §4.4). Tiene límite por credencial.",
					exitos:    []exitoDoc{{codigo: 200, descripcion: "El servicio respondió (con el código que sea).", esquema: "Salud"}},
					problemas: append(slices.Clone(buscarProblemas), problema.DestinoProhibido, problema.RespuestaInvalida, problema.ServicioLento),
				}),
			},
		},
		{
			patron: conNumero("/servicios/", "/informe"),
			ayuda:  ayudaRuta{puesto: 6, texto: "GET el resumen de sus revisiones"},
			metodos: []metodo{
				lee("GET", (*Revisor).informe).documentado(operacionDoc{
					id: "informeDelServicio", etiqueta: "revisiones", resumen: "El resumen de las revisiones del servicio",
					descripcion: "Defecto sembrado de la lección 4, a propósito: sin ninguna revisión terminada responde 500 con " +
						"una referencia (§4.3.2).",
					exitos:    []exitoDoc{{codigo: 200, descripcion: "El resumen.", esquema: "Informe"}},
					problemas: buscarProblemas,
				}),
			},
		},
		{
			patron: conNumero("/revisiones/", ""),
			ayuda:  ayudaRuta{puesto: 4, texto: "GET una revisión (pendiente: con Retry-After)"},
			metodos: []metodo{
				lee("GET", (*Revisor).consultarRevision).documentado(operacionDoc{
					id: "consultarRevision", etiqueta: "revisiones", resumen: "Una revisión",
					descripcion: "Mientras está pendiente lleva Retry-After: 1.",
					exitos:      []exitoDoc{{codigo: 200, descripcion: "La revisión.", esquema: "Revision", opcionales: []string{"Retry-After"}}},
					problemas:   []problema.Clave{problema.RevisionInexistente},
				}),
			},
		},
		{
			patron: literal("/mantenimiento"),
			ayuda:  ayudaRuta{puesto: 8, texto: `PUT {"activo":true} (admin): todo lo demás responde 503`},
			metodos: []metodo{
				escribe("PUT", (*Revisor).cambiarMantenimiento).documentado(operacionDoc{
					id: "cambiarMantenimiento", etiqueta: "operación", resumen: "Enciende o apaga el modo mantenimiento",
					descripcion: "Solo la credencial admin. Encendido, todo lo demás responde 503 con Retry-After (lección 4, §4.5.2).",
					cuerpo:      "Mantenimiento",
					exitos:      []exitoDoc{{codigo: 204, descripcion: "Quedó como se pidió."}},
					problemas:   append(slices.Clone(leerJSONProblemas), problema.DatosInvalidos),
				}),
			},
		},
		// The previous version, deprecated: read only, with its notices.
		{
			patron: literal("/v1/servicios"),
			ayuda:  ayudaRuta{puesto: 7, etiqueta: "/v1/servicios, /v1/servicios/{id}", texto: "GET la versión anterior, obsoleta (Deprecation, Sunset)"},
			metodos: []metodo{
				lee("GET", (*Revisor).listarV1).documentado(operacionDoc{
					id: "listarServiciosV1", etiqueta: "v1", resumen: "Los servicios, como los daba la versión 1",
					descripcion: "Obsoleta: Deprecation (RFC 9745) dice desde cuándo, Sunset (RFC 8594) cuándo dejará de responder " +
						"y Link adónde migrar. Usa /servicios.",
					exitos:   []exitoDoc{{codigo: 200, descripcion: "La lista en la forma de la versión 1.", esquema: "ListaDeServiciosV1", cabeceras: avisos}},
					obsoleta: true,
				}),
			},
		},
		{
			patron: conNumero("/v1/servicios/", ""),
			ayuda:  ayudaRuta{plegada: true},
			metodos: []metodo{
				lee("GET", (*Revisor).consultarV1).documentado(operacionDoc{
					id: "consultarServicioV1", etiqueta: "v1", resumen: "Un servicio, como lo daba la versión 1",
					descripcion: "Obsoleta, con los mismos avisos que /v1/servicios. Usa /servicios/{id}.",
					exitos:      []exitoDoc{{codigo: 200, descripcion: "El servicio en la forma de la versión 1.", esquema: "ServicioV1", cabeceras: avisos}},
					problemas:   buscarProblemas,
					obsoleta:    true,
				}),
			},
		},
	}
	var limites []*limite
	for i := range rs {
		var nombres []string
		for _, m := range rs[i].metodos {
			nombres = append(nombres, m.nombre)
			if m.nombre == "GET" {
				nombres = append(nombres, "HEAD")
			}
			if m.limite != nil {
				limites = append(limites, m.limite)
			}
		}
		rs[i].permite = strings.Join(nombres, ", ")
	}
	return rs, limites
}

// AyudaRutas is the route list of «revisor --help», built from the route table: two spaces, the
// path (or its group's label) padded to a column, what its methods do.
func AyudaRutas() string {
	const columna = 28 // the label's width; a label with no room for two spaces after it goes on a line of its own
	rs, _ := rutas(variantes.Eleccion{})
	var lineas []ruta
	for _, rt := range rs {
		if !rt.ayuda.plegada {
			lineas = append(lineas, rt)
		}
	}
	slices.SortStableFunc(lineas, func(a, b ruta) int { return a.ayuda.puesto - b.ayuda.puesto })
	sangria := strings.Repeat(" ", 2+columna)
	var b strings.Builder
	for i, rt := range lineas {
		if i > 0 {
			b.WriteByte('\n')
		}
		etiqueta := rt.ayuda.etiqueta
		if etiqueta == "" {
			etiqueta = rutaOpenAPI(rt.patron)
		}
		if len(etiqueta) < columna-1 {
			b.WriteString("  " + etiqueta + strings.Repeat(" ", columna-len(etiqueta)))
		} else {
			b.WriteString("  " + etiqueta + "\n" + sangria)
		}
		b.WriteString(strings.ReplaceAll(rt.ayuda.texto, "\n", "\n"+sangria))
	}
	return b.String()
}

// atender is the gate, written once and read top to bottom in the course's order (lesson 4 R17,
// lesson 6 §2.16, lesson 6 §6.8.1 for the limits). Each step either answers and returns or lets the
// request on.
func (rv *Revisor) atender(w http.ResponseWriter, r *http.Request) {
	camino := respuesta.Ruta(r)

	// Old addresses: moved for good. Before maintenance, because they deliver no data.
	if redirigir(w, r, camino) {
		return
	}
	// Maintenance: every path but /mantenimiento, so neither a 404 nor a 401 leaks what exists.
	if camino != "/mantenimiento" {
		activo, err := rv.almacen.Mantenimiento(r.Context())
		if err != nil {
			rv.averia(w, r, err)
			return
		}
		if activo {
			rv.fallar(w, r, problema.EnMantenimiento, "el revisor está en mantenimiento",
				problema.ConCabecera("Retry-After", VuelveEn))
			return
		}
	}
	// Version 0 is gone for everyone, whoever asks.
	if camino == "/v0" || strings.HasPrefix(camino, "/v0/") {
		rv.fallar(w, r, problema.VersionRetirada, "la versión 0 de la API se retiró el 31 de enero de 2026; usa /servicios")
		return
	}

	// 1. Does the route exist?
	var rt *ruta
	var parametro string
	for i := range rv.rutas {
		if n, ok := rv.rutas[i].patron.encontrar(camino); ok {
			rt, parametro = &rv.rutas[i], n
			break
		}
	}
	if rt == nil {
		rv.fallar(w, r, problema.RutaInexistente, "no existe esa ruta")
		return
	}

	// 2. Does it take this method? HEAD is served as GET.
	nombre := r.Method
	if nombre == http.MethodHead {
		nombre = http.MethodGet
	}
	var m *metodo
	for i := range rt.metodos {
		if rt.metodos[i].nombre == nombre {
			m = &rt.metodos[i]
			break
		}
	}
	if m == nil {
		rv.fallar(w, r, problema.MetodoNoAdmitido, r.Method+" no se admite en "+camino,
			problema.ConCabecera("Allow", rt.permite))
		return
	}

	// 3. Who are you?
	id, credencial := Identificar(r.Header, rv.credenciales)
	if id != Valida {
		rv.fallar(w, r, problema.CredencialInvalida, Motivo(id),
			problema.ConCabecera("WWW-Authenticate", Reto(id)))
		return
	}

	// 4. May you?
	if m.escribe && !credencial.puedeEscribir() {
		rv.fallar(w, r, problema.PermisoInsuficiente, "tu credencial solo puede leer; para escribir pide una con rol de escritor")
		return
	}

	// Within your limit? Only the routes that go out to the network have one; the course asks it
	// first thing in their handlers, which is here.
	var c *contexto
	if ew, ok := w.(*escritor); ok {
		c = &ew.c
	} else {
		c = new(contexto)
	}
	*c = contexto{w: w, r: r, parametro: parametro, credencial: credencial}
	if l := m.limite; l != nil {
		if l.porServicio {
			c.limite = l
		} else if !rv.dentroDelLimite(w, r, l, credencial.Nombre) {
			return
		}
	}

	// 5 to 7 (does the resource exist, what format, can it be read, can it be done) belong to each handler.
	m.atiende(rv, c)
}

// redirigir answers the two old prefixes with their permanent redirects, keeping the query.
func redirigir(w http.ResponseWriter, r *http.Request, camino string) bool {
	for _, viejo := range [...]struct {
		prefijo, base string // base: prefijo + "/servicios"
		codigo        int
	}{{"/viejo", "/viejo/servicios", http.StatusMovedPermanently}, {"/api", "/api/servicios", http.StatusPermanentRedirect}} {
		if resto, ok := strings.CutPrefix(camino, viejo.base); ok && (resto == "" || resto[0] == '/') {
			respuesta.Vacio(w, r, viejo.codigo, respuesta.Cabecera{Nombre: "Location", Valor: camino[len(viejo.prefijo):] + busqueda(r)})
			return true
		}
	}
	return false
}

// busqueda is the query as a URL parser's search gives it: "" when absent or empty, otherwise "?"
// and the query with the special-query percent-encode set applied.
func busqueda(r *http.Request) string {
	// The fragment ends the URL: a "?" after the first "#" belongs to the fragment.
	if _, q, _ := nodejs.Partir(r.RequestURI); q != "" {
		return "?" + nodejs.Escapar(q, nodejs.EnConsulta)
	}
	return ""
}
