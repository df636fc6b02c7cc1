// Package problema is the suite's one way to write RFC 9457 Problem Details: the revisor's errors
// from one catalogue, written as the course writes them (Escribir), and the other programs' own
// answers, the gateway's and the bench's (Propio).
package problema

import (
	"bytes"
	"cmp"
	"net/http"
	"slices"
	"strconv"

	"cursohttp/internal/nodejs"
	"cursohttp/pkg/curso"
	"cursohttp/pkg/respuesta"
)

// TipoMedio is the Problem Details media type (RFC 9457 §3).
const TipoMedio = "application/problem+json"

// Clave names an entry of the catalogue.
type Clave string

// The catalogue's keys, as the course names them.
const (
	RutaInexistente       Clave = "ruta-inexistente"
	MetodoNoAdmitido      Clave = "metodo-no-admitido"
	TipoNoAdmitido        Clave = "tipo-no-admitido"
	CuerpoDemasiadoGrande Clave = "cuerpo-demasiado-grande"
	CuerpoIlegible        Clave = "cuerpo-ilegible"
	CredencialInvalida    Clave = "credencial-invalida"
	PermisoInsuficiente   Clave = "permiso-insuficiente"
	ServicioInexistente   Clave = "servicio-inexistente"
	RevisionInexistente   Clave = "revision-inexistente"
	NombreRepetido        Clave = "nombre-repetido"
	DemasiadosServicios   Clave = "demasiados-servicios"
	ServicioRetirado      Clave = "servicio-retirado"
	VersionRetirada       Clave = "version-retirada"
	EtiquetaVencida       Clave = "etiqueta-vencida"
	DestinoProhibido      Clave = "destino-prohibido"
	DatosInvalidos        Clave = "datos-invalidos"
	LlaveEnCurso          Clave = "llave-en-curso"
	LlaveReutilizada      Clave = "llave-reutilizada"
	AltasEnCurso          Clave = "demasiadas-altas-en-curso"
	FaltaCondicion        Clave = "falta-condicion"
	DemasiadasRevisiones  Clave = "demasiadas-revisiones"
	DemasiadasConsultas   Clave = "demasiadas-consultas"
	ErrorInterno          Clave = "error-interno"
	RespuestaInvalida     Clave = "respuesta-invalida"
	EnMantenimiento       Clave = "en-mantenimiento"
	ServicioLento         Clave = "servicio-lento"
)

// Tipo is one catalogue entry. Type is the stable identifier; Title is the type's short name, the
// part a translation changes; with about:blank the title is the code's phrase (RFC 9457 §4.2.1).
type Tipo struct {
	Type   string
	Title  string
	Status int
}

// entrada is one problem type: its key and what it is on the wire.
type entrada struct {
	clave Clave
	Tipo
}

// catalogo is every problem type, one row each, in the order the revisor can answer them: the
// gate's, then the handlers' (the order of the problem pages and of the OpenAPI document's
// schemas). A new type is a Clave above and its row here.
var catalogo = []entrada{
	{RutaInexistente, Tipo{"about:blank", "Not Found", 404}},
	{MetodoNoAdmitido, Tipo{"about:blank", "Method Not Allowed", 405}},
	{CredencialInvalida, Tipo{curso.Problemas + "credencial-invalida", "Falta una credencial válida", 401}},
	{PermisoInsuficiente, Tipo{curso.Problemas + "permiso-insuficiente", "La credencial no tiene permiso", 403}},
	{EnMantenimiento, Tipo{curso.Problemas + "en-mantenimiento", "El revisor está en mantenimiento", 503}},
	{VersionRetirada, Tipo{curso.Problemas + "version-retirada", "Esa versión de la API se retiró", 410}},
	{TipoNoAdmitido, Tipo{"about:blank", "Unsupported Media Type", 415}},
	{CuerpoDemasiadoGrande, Tipo{"about:blank", "Content Too Large", 413}},
	{CuerpoIlegible, Tipo{curso.Problemas + "cuerpo-ilegible", "El cuerpo no se puede leer", 400}},
	{DatosInvalidos, Tipo{curso.Problemas + "datos-invalidos", "Los datos no se pueden cumplir", 422}},
	{DestinoProhibido, Tipo{curso.Problemas + "destino-prohibido", "El revisor no se conecta a ese destino", 422}},
	{ServicioInexistente, Tipo{curso.Problemas + "servicio-inexistente", "El servicio no existe", 404}},
	{ServicioRetirado, Tipo{curso.Problemas + "servicio-retirado", "El servicio se retiró", 410}},
	{RevisionInexistente, Tipo{curso.Problemas + "revision-inexistente", "La revisión no existe", 404}},
	{NombreRepetido, Tipo{curso.Problemas + "nombre-repetido", "Ya existe un servicio con ese nombre", 409}},
	{DemasiadosServicios, Tipo{curso.Problemas + "demasiados-servicios", "El equipo llegó a su tope de servicios", 409}},
	{LlaveEnCurso, Tipo{curso.Problemas + "llave-en-curso", "Esa Idempotency-Key sigue en curso", 409}},
	{LlaveReutilizada, Tipo{curso.Problemas + "llave-reutilizada", "Esa Idempotency-Key ya se usó con otra petición", 422}},
	{AltasEnCurso, Tipo{curso.Problemas + "demasiadas-altas-en-curso", "Demasiadas altas en curso", 429}},
	{FaltaCondicion, Tipo{curso.Problemas + "falta-condicion", "Falta la condición If-Match", 428}},
	{EtiquetaVencida, Tipo{curso.Problemas + "etiqueta-vencida", "Tu etiqueta ya no es la vigente", 412}},
	{DemasiadasRevisiones, Tipo{curso.Problemas + "demasiadas-revisiones", "Demasiadas revisiones seguidas", 429}},
	{DemasiadasConsultas, Tipo{curso.Problemas + "demasiadas-consultas", "Demasiadas consultas en vivo seguidas", 429}},
	{ErrorInterno, Tipo{curso.Problemas + "error-interno", "Error interno del revisor", 500}},
	{RespuestaInvalida, Tipo{curso.Problemas + "respuesta-invalida", "El servicio no dio una respuesta HTTP válida", 502}},
	{ServicioLento, Tipo{curso.Problemas + "servicio-lento", "El servicio no respondió a tiempo", 504}},
}

// porClave finds a row by its key, on every error the revisor answers.
var porClave = func() map[Clave]Tipo {
	m := make(map[Clave]Tipo, len(catalogo))
	for _, e := range catalogo {
		m[e.clave] = e.Tipo
	}
	return m
}()

// Buscar returns the catalogue's entry for clave (the zero Tipo if there is none).
func Buscar(clave Clave) Tipo { return porClave[clave] }

// Claves are the catalogue's keys, sorted by status and then by key.
func Claves() []Clave {
	claves := DelRevisor()
	slices.SortFunc(claves, func(a, b Clave) int {
		return cmp.Or(cmp.Compare(porClave[a].Status, porClave[b].Status), cmp.Compare(a, b))
	})
	return claves
}

// DelRevisor is every problem type of the revisor's catalogue, in its order: the gate's and then
// the handlers' (the order of the problem pages and of the OpenAPI document's schemas). Which
// operation answers each, the route table says (documentoapi.Operaciones); a type just added
// answers nowhere until a handler writes it.
func DelRevisor() []Clave {
	claves := make([]Clave, len(catalogo))
	for i, e := range catalogo {
		claves[i] = e.clave
	}
	return claves
}

// Opcion adjusts one problem response.
type Opcion func(*opciones)

type opciones struct {
	cabeceras   []respuesta.Cabecera
	extensiones nodejs.Objeto
	instance    *string
}

// ConCabecera adds a response header (Allow, Retry-After, WWW-Authenticate…).
func ConCabecera(nombre, valor string) Opcion {
	return func(o *opciones) { o.cabeceras = append(o.cabeceras, respuesta.Cabecera{Nombre: nombre, Valor: valor}) }
}

// ConExtension adds an extension member after the five standard ones (errors, existente…).
// A standard member's name is refused: it would silently replace what the catalogue says.
func ConExtension(nombre string, valor any) Opcion {
	switch nombre {
	case "type", "title", "status", "detail", "instance":
		panic("problema: la extensión " + nombre + " usa un nombre reservado")
	}
	return func(o *opciones) { o.extensiones = append(o.extensiones, nodejs.Campo{Nombre: nombre, Valor: valor}) }
}

// ConInstance replaces the default instance (the request's path).
func ConInstance(instance string) Opcion {
	return func(o *opciones) { o.instance = &instance }
}

// prefijo is a body's beginning, the same for every problem of a type: {"type":…,"title":…,"status":N
func prefijo(t Tipo) string {
	var b bytes.Buffer
	b.WriteString(`{"type":`)
	nodejs.EscribirTextoJSON(&b, t.Type)
	b.WriteString(`,"title":`)
	nodejs.EscribirTextoJSON(&b, t.Title)
	b.WriteString(`,"status":`)
	b.WriteString(strconv.Itoa(t.Status))
	return b.String()
}

// prefijos are the catalogue's, written once.
var prefijos = func() map[Clave]string {
	m := make(map[Clave]string, len(catalogo))
	for _, e := range catalogo {
		clave, t := e.clave, e.Tipo
		m[clave] = prefijo(t)
	}
	return m
}()

// cuerpo builds the body: {type, title, status, detail, instance, …extensions} and a newline, the
// bytes nodejs.CodificarJSON writes for that object, from its prefijo. Written member by member into one
// buffer sized for it: every error answer builds one.
func cuerpo(prefijo, detail, instance string, extensiones nodejs.Objeto) []byte {
	b := bytes.NewBuffer(make([]byte, 0, 40+len(prefijo)+len(detail)+len(instance)+32*len(extensiones)))
	b.WriteString(prefijo)
	b.WriteString(`,"detail":`)
	nodejs.EscribirTextoJSON(b, detail)
	b.WriteString(`,"instance":`)
	nodejs.EscribirTextoJSON(b, instance)
	for _, c := range extensiones {
		b.WriteByte(',')
		nodejs.EscribirTextoJSON(b, c.Nombre)
		b.WriteByte(':')
		nodejs.AgregarJSON(b, c.Valor)
	}
	b.WriteString("}\n")
	return b.Bytes()
}

// Escritor is how a program writes its errors: Escribir (Problem Details, Lesson 5 on) or
// EscribirTexto (Lesson 4's line of text).
type Escritor func(w http.ResponseWriter, r *http.Request, clave Clave, detail string, opts ...Opcion)

// Escribir answers r with the problem clave: its status, application/problem+json,
// Content-Language: es, and the body cuerpo builds. An unknown clave is a programming error.
func Escribir(w http.ResponseWriter, r *http.Request, clave Clave, detail string, opts ...Opcion) {
	t, o := leer(clave, opts)
	instance := respuesta.Ruta(r)
	if o.instance != nil {
		instance = *o.instance
	}
	cabeceras := tipoEIdioma
	if len(o.cabeceras) > 0 {
		cabeceras = append(o.cabeceras, tipoEIdioma...)
	}
	respuesta.Bytes(w, r, t.Status, TipoMedio, cuerpo(prefijos[clave], detail, instance, o.extensiones), cabeceras...)
}

// tipoEIdioma go after the option's headers, in the course's order (its fallar sets Content-Type,
// Content-Language, Content-Length): the catalogue's titles and the revisor's details are Spanish.
var tipoEIdioma = []respuesta.Cabecera{{Nombre: "Content-Type", Valor: TipoMedio}, {Nombre: "Content-Language", Valor: "es"}}

// TipoTexto is the media type of Lesson 4's errors.
const TipoTexto = "text/plain; charset=utf-8"

// EscribirTexto answers r as Lesson 4's revisor did before Problem Details (its fallar): the
// status of clave, the option's headers, text/plain and the detail as one line. Extensions and
// instance have no place in a line of text and are left out.
func EscribirTexto(w http.ResponseWriter, r *http.Request, clave Clave, detail string, opts ...Opcion) {
	t, o := leer(clave, opts)
	respuesta.Bytes(w, r, t.Status, TipoTexto, []byte(detail+"\n"), o.cabeceras...)
}

func leer(clave Clave, opts []Opcion) (Tipo, opciones) {
	t, ok := porClave[clave]
	if !ok {
		panic("problema: clave desconocida " + string(clave))
	}
	if len(opts) == 0 {
		return t, opciones{} // the usual error: nothing to gather, nothing allocated
	}
	o := new(opciones)
	for _, opt := range opts {
		opt(o)
	}
	return t, *o
}
