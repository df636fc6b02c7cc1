// Package contrato checks recorded exchanges (pkg/grabacion) against an OpenAPI document with
// pb33f/libopenapi-validator, and tallies which of the document's answers they reached: the two
// directions of "the document is true" (issue 26). It knows nothing of the revisor; the document
// is given as bytes.
//
// What the paths do not describe (a path no route has, a method a route does not take) the
// document lists in x-fuera-de-las-rutas as components/responses by status; Nuevo turns those
// lists into two paths of a copy of the document that only the validator sees, so those answers
// are checked by the same library as every other.
package contrato

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/pb33f/libopenapi-validator/config"
	"github.com/pb33f/libopenapi-validator/paths"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"

	"cursohttp/pkg/grabacion"
	"cursohttp/pkg/respuesta"
)

// The two kinds of request outside the paths, and the validator's paths for them.
const (
	FueraRuta   = "ruta"
	FueraMetodo = "metodo"
	prefijo     = "/x-fuera-de-las-rutas/"
)

// metodosOpenAPI are the Path Item's operations in OpenAPI 3.1.
var metodosOpenAPI = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// Respuesta is one answer of the document: an operation ("GET /servicios/{id}", or "fuera:ruta"
// and "fuera:metodo"), a status and, for Problem Details, the type ("" otherwise).
type Respuesta struct {
	Operacion string
	Codigo    int
	Tipo      string
}

func (r Respuesta) String() string {
	s := r.Operacion + " → " + strconv.Itoa(r.Codigo)
	if r.Tipo != "" {
		s += " " + r.Tipo
	}
	return s
}

// Contrato is a loaded document, safe for concurrent use.
type Contrato struct {
	v3           *v3.Document
	validador    validator.Validator
	opciones     *config.ValidationOptions
	documentadas []Respuesta
	mu           sync.Mutex // the validator's caches are safe; this guards nothing of theirs
}

// Nuevo loads documento (OpenAPI 3.1 JSON) and checks it against the OpenAPI meta-schema.
func Nuevo(documento []byte) (*Contrato, error) {
	var crudo map[string]any
	if err := json.Unmarshal(documento, &crudo); err != nil {
		return nil, fmt.Errorf("el documento no es JSON: %w", err)
	}
	documentadas, err := respuestasDe(crudo)
	if err != nil {
		return nil, err
	}
	if err := agregarFuera(crudo); err != nil {
		return nil, err
	}
	ampliado, err := json.Marshal(crudo)
	if err != nil {
		return nil, err
	}
	doc, err := libopenapi.NewDocument(ampliado)
	if err != nil {
		return nil, fmt.Errorf("libopenapi no lee el documento: %w", err)
	}
	modelo, err := doc.BuildV3Model()
	if err != nil {
		return nil, fmt.Errorf("libopenapi no construye el modelo: %w", err)
	}
	v, errs := validator.NewValidator(doc)
	if len(errs) > 0 {
		return nil, fmt.Errorf("libopenapi-validator: %w", errors.Join(errs...))
	}
	if ok, verrs := v.ValidateDocument(); !ok {
		var partes []string
		for _, e := range verrs {
			partes = append(partes, e.Error())
		}
		return nil, fmt.Errorf("el documento no cumple el esquema de OpenAPI: %s", strings.Join(partes, "; "))
	}
	return &Contrato{v3: &modelo.Model, validador: v, opciones: config.NewValidationOptions(),
		documentadas: documentadas}, nil
}

// Documentadas are every answer the document lists, in its order.
func (c *Contrato) Documentadas() []Respuesta { return slices.Clone(c.documentadas) }

// Validar checks one exchange and says which of the document's answers it is. An error says why
// the response is outside the document.
func (c *Contrato) Validar(i grabacion.Intercambio) (Respuesta, error) {
	if i.Cortado || i.Truncado {
		return Respuesta{}, fmt.Errorf("%s %s: la respuesta no está entera (cortada o más larga que lo grabado)", i.Metodo, i.Ruta)
	}
	req, err := http.NewRequest(i.Metodo, "http://revisor"+rutaDe(i.Ruta), nil)
	if err != nil {
		return Respuesta{}, fmt.Errorf("%s %s: %w", i.Metodo, i.Ruta, err)
	}
	resp := &http.Response{StatusCode: i.Codigo, Header: http.Header{}, Request: req,
		Body: io.NopCloser(bytes.NewReader(i.Cuerpo)), ContentLength: int64(len(i.Cuerpo))}
	for k, vs := range i.Cabeceras {
		// The revisor writes names as the course does (ETag); the validator looks them up canonically.
		resp.Header[http.CanonicalHeaderKey(k)] = append(resp.Header[http.CanonicalHeaderKey(k)], vs...)
	}
	operacion, fuera := c.operacion(req)
	if fuera != "" {
		operacion = "fuera:" + fuera
		m := strings.ToLower(i.Metodo)
		if !slices.Contains(metodosOpenAPI, m) {
			m = "get" // a method OpenAPI 3.1 cannot name (FOO) gets the same answers
		}
		req, err = http.NewRequest(strings.ToUpper(m), "http://revisor"+prefijo+fuera, nil)
		if err != nil {
			return Respuesta{}, err
		}
		resp.Request = req
	}
	r := Respuesta{Operacion: operacion, Codigo: i.Codigo, Tipo: tipoDe(i)}
	c.mu.Lock()
	ok, errs := c.validador.ValidateHttpResponse(req, resp)
	c.mu.Unlock()
	if !ok {
		var partes []string
		for _, e := range errs {
			p := e.Message
			if e.Reason != "" {
				p += ": " + e.Reason
			}
			for _, s := range e.SchemaValidationErrors {
				p += " [" + s.FieldPath + ": " + s.Reason + "]"
			}
			partes = append(partes, p)
		}
		return r, fmt.Errorf("%s %s → %d fuera del documento (%s): %s", i.Metodo, i.Ruta, i.Codigo, operacion, strings.Join(partes, "; "))
	}
	if r.Tipo == "" && fuera != "" && i.Metodo == http.MethodHead {
		// A HEAD has no body to tell its type; outside the paths each status has one.
		for _, d := range c.documentadas {
			if d.Operacion == r.Operacion && d.Codigo == r.Codigo {
				r.Tipo = d.Tipo
			}
		}
	}
	if !slices.Contains(c.documentadas, r) {
		// The schema admitted it but the tally does not know it: a document whose lists disagree.
		return r, fmt.Errorf("%s %s → %v valida, pero no está entre las respuestas del documento", i.Metodo, i.Ruta, r)
	}
	return r, nil
}

// operacion finds the operation of req ("GET /servicios/{id}"), or which kind of outside it is.
func (c *Contrato) operacion(req *http.Request) (operacion, fuera string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	item, errs, ruta := paths.FindPath(req, c.v3, c.opciones)
	if item == nil {
		return "", FueraRuta
	}
	// The path's parameters must match their schemas ({id} is a number): /servicios/abc is no route.
	if ok, _ := c.validador.GetParameterValidator().ValidatePathParamsWithPathItem(req, item, ruta); !ok {
		return "", FueraRuta
	}
	// A template matches /servicios/ too when it strips the slash; the revisor's routes do not.
	if strings.Count(strings.TrimSuffix(req.URL.Path, "/"), "/") != strings.Count(ruta, "/") || strings.HasSuffix(req.URL.Path, "/") && ruta != "/" {
		return "", FueraRuta
	}
	if len(errs) > 0 {
		return "", FueraMetodo
	}
	return req.Method + " " + ruta, ""
}

// rutaDe is the path the server matched its routes against: the request target as a WHATWG URL
// parser reads it (dot segments resolved, the query dropped), as the revisor does.
func rutaDe(objetivo string) string {
	ruta := respuesta.RutaDe(objetivo)
	if u, err := url.ParseRequestURI(ruta); err == nil {
		return u.EscapedPath()
	}
	return "/" + url.PathEscape(strings.TrimPrefix(ruta, "/"))
}

// tipoDe is a Problem Details body's type, "" for any other body.
func tipoDe(i grabacion.Intercambio) string {
	var ct string
	for k, vs := range i.Cabeceras {
		if strings.EqualFold(k, "Content-Type") && len(vs) > 0 {
			ct = vs[0]
		}
	}
	if !strings.HasPrefix(ct, "application/problem+json") {
		return ""
	}
	var p struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(i.Cuerpo, &p) != nil {
		return ""
	}
	return p.Type
}

// respuestasDe lists the document's answers: each operation's statuses, each with the types its
// Problem Details schema fixes (oneOf of the catalogue's schemas), and those of x-fuera-de-las-rutas.
func respuestasDe(d map[string]any) ([]Respuesta, error) {
	var rs []Respuesta
	componentes, _ := d["components"].(map[string]any)
	esquemas, _ := componentes["schemas"].(map[string]any)
	respuestasComp, _ := componentes["responses"].(map[string]any)
	porRespuesta := func(operacion, codigo string, r map[string]any) error {
		if ref, ok := r["$ref"].(string); ok {
			r, _ = respuestasComp[strings.TrimPrefix(ref, "#/components/responses/")].(map[string]any)
			if r == nil {
				return fmt.Errorf("%s %s: no encuentro %s", operacion, codigo, ref)
			}
		}
		n, err := strconv.Atoi(codigo)
		if err != nil {
			return fmt.Errorf("%s: el código %q no es un número", operacion, codigo)
		}
		tipos := tiposDe(r, esquemas)
		if len(tipos) == 0 {
			tipos = []string{""}
		}
		for _, t := range tipos {
			rs = append(rs, Respuesta{operacion, n, t})
		}
		return nil
	}
	caminos, _ := d["paths"].(map[string]any)
	for _, ruta := range ordenDe(caminos) {
		item, _ := caminos[ruta].(map[string]any)
		for _, m := range metodosOpenAPI {
			op, ok := item[m].(map[string]any)
			if !ok {
				continue
			}
			respuestas, _ := op["responses"].(map[string]any)
			for _, codigo := range ordenDe(respuestas) {
				r, _ := respuestas[codigo].(map[string]any)
				if err := porRespuesta(strings.ToUpper(m)+" "+ruta, codigo, r); err != nil {
					return nil, err
				}
			}
		}
	}
	fuera, _ := d["x-fuera-de-las-rutas"].(map[string]any)
	for _, clase := range []string{FueraRuta, FueraMetodo} {
		porCodigo, _ := fuera[clase].(map[string]any)
		if len(porCodigo) == 0 {
			return nil, fmt.Errorf("x-fuera-de-las-rutas no dice qué responde la puerta a un(a) %s fuera de las rutas", clase)
		}
		for _, codigo := range ordenDe(porCodigo) {
			nombre, _ := porCodigo[codigo].(string)
			if err := porRespuesta("fuera:"+clase, codigo, map[string]any{"$ref": "#/components/responses/" + nombre}); err != nil {
				return nil, err
			}
		}
	}
	return rs, nil
}

// tiposDe are the Problem Details types a Response Object's problem+json schema fixes.
func tiposDe(r map[string]any, esquemas map[string]any) []string {
	contenido, _ := r["content"].(map[string]any)
	mt, _ := contenido["application/problem+json"].(map[string]any)
	esquema, _ := mt["schema"].(map[string]any)
	var refs []any
	if uno, ok := esquema["oneOf"].([]any); ok {
		refs = uno
	} else if esquema != nil {
		refs = []any{esquema}
	}
	var tipos []string
	for _, x := range refs {
		ref, _ := x.(map[string]any)["$ref"].(string)
		e, _ := esquemas[strings.TrimPrefix(ref, "#/components/schemas/")].(map[string]any)
		props, _ := e["properties"].(map[string]any)
		tipo, _ := props["type"].(map[string]any)
		if t, ok := tipo["const"].(string); ok {
			tipos = append(tipos, t)
		}
	}
	return tipos
}

// agregarFuera adds to the validator's copy one path per kind of outside request, every method
// answering the statuses x-fuera-de-las-rutas lists (HEAD without bodies).
func agregarFuera(d map[string]any) error {
	fuera, _ := d["x-fuera-de-las-rutas"].(map[string]any)
	caminos, _ := d["paths"].(map[string]any)
	componentes, _ := d["components"].(map[string]any)
	respuestasComp, _ := componentes["responses"].(map[string]any)
	for _, clase := range []string{FueraRuta, FueraMetodo} {
		porCodigo, _ := fuera[clase].(map[string]any)
		item := map[string]any{}
		for _, m := range metodosOpenAPI {
			respuestas := map[string]any{}
			for codigo, v := range porCodigo {
				nombre, _ := v.(string)
				r, ok := respuestasComp[nombre].(map[string]any)
				if !ok {
					return fmt.Errorf("x-fuera-de-las-rutas nombra %q, que no está en components/responses", nombre)
				}
				if m == "head" {
					sin := map[string]any{}
					for k, x := range r {
						if k != "content" {
							sin[k] = x
						}
					}
					r = sin
				}
				respuestas[codigo] = r
			}
			item[m] = map[string]any{"operationId": "fuera-" + clase + "-" + m, "responses": respuestas, "security": []any{}}
		}
		caminos[prefijo+clase] = item
	}
	return nil
}

// ordenDe is a JSON object's keys in a stable order (encoding/json's maps forget the document's).
func ordenDe(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// Cobertura tallies the answers reached, safe for concurrent use.
type Cobertura struct {
	mu     sync.Mutex
	vistas map[Respuesta]int
}

// Anotar counts r.
func (c *Cobertura) Anotar(r Respuesta) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.vistas == nil {
		c.vistas = map[Respuesta]int{}
	}
	c.vistas[r]++
}

// Faltan are the documented answers not reached yet.
func (c *Cobertura) Faltan(documentadas []Respuesta) []Respuesta {
	c.mu.Lock()
	defer c.mu.Unlock()
	var faltan []Respuesta
	for _, r := range documentadas {
		if c.vistas[r] == 0 {
			faltan = append(faltan, r)
		}
	}
	return faltan
}
