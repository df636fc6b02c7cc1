// Package paginas is the documentation the panel serves beside the timeline (issue 26): the
// revisor's OpenAPI document, a page to read it, and the page behind every problem type, so that
// a type URI leads a person somewhere (RFC 9457 §3.1.1). It reads them from leaves
// (pkg/documentoapi, pkg/explicaciones): whoever mounts it links no revisor.
package paginas

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/json"
	"html/template"
	"net/http"
	"slices"
	"strings"

	"cursohttp/pkg/documentoapi"
	"cursohttp/pkg/explicaciones"
	"cursohttp/pkg/servidor"
)

// The documentation's routes.
const (
	RutaOpenAPI      = "/openapi.json"
	RutaLeerOpenAPI  = "/openapi"
	RutaProblemas    = "/problemas"
	prefijoProblemas = RutaProblemas + "/"
)

//go:embed documentacion/pagina.html
var documentacionFS embed.FS

var plantilla = template.Must(template.ParseFS(documentacionFS, "documentacion/pagina.html"))

// politicaDocumentacion is the timeline page's Content-Security-Policy, with the one inline
// <style> of pagina.html allowed by its hash: nothing else inline runs or applies.
var politicaDocumentacion = func() string {
	b, _ := documentacionFS.ReadFile("documentacion/pagina.html")
	_, estilo, _ := bytes.Cut(b, []byte("<style>"))
	estilo, _, _ = bytes.Cut(estilo, []byte("</style>"))
	suma := sha256.Sum256(estilo)
	return "default-src 'self'; style-src 'sha256-" + base64.StdEncoding.EncodeToString(suma[:]) +
		"'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
}()

// Montar puts the documentation's routes on mux, GET (and so HEAD) only: whoever mounts it answers
// the other methods.
func Montar(mux *http.ServeMux) {
	mux.HandleFunc("GET "+RutaOpenAPI, conCabeceras(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", documentoapi.TipoMedio)
		w.Write(documentoapi.Documento())
	}))
	mux.HandleFunc("GET "+RutaLeerOpenAPI, conCabeceras(func(w http.ResponseWriter, r *http.Request) {
		ops, err := operacionesDe(documentoapi.Documento())
		if err != nil {
			http.Error(w, "el documento OpenAPI no se pudo leer: "+err.Error(), http.StatusInternalServerError)
			return
		}
		escribirPagina(w, datosPagina{Titulo: "La API del revisor", Operaciones: ops})
	}))
	indice := conCabeceras(func(w http.ResponseWriter, r *http.Request) {
		escribirPagina(w, datosPagina{Titulo: "Los problemas del revisor", Paginas: explicaciones.Paginas()})
	})
	mux.HandleFunc("GET "+RutaProblemas, indice)
	mux.HandleFunc("GET "+prefijoProblemas+"{$}", indice)
	// Everything under it, "/problemas/a/b" too: a type the revisor has not is this 404.
	mux.HandleFunc("GET "+prefijoProblemas+"{nombre...}", conCabeceras(func(w http.ResponseWriter, r *http.Request) {
		nombre := r.PathValue("nombre")
		for _, p := range explicaciones.Paginas() {
			if p.Nombre() == nombre {
				escribirPagina(w, datosPagina{Titulo: nombre + " — los problemas del revisor", Pagina: &p})
				return
			}
		}
		http.Error(w, "el revisor no tiene el type «"+nombre+"»: la lista está en /problemas", http.StatusNotFound)
	}))
}

// conCabeceras gives a documentation page the panel's timeline page's headers (issue 34, item 5): never
// framed, nothing loaded from elsewhere, not sniffed; the documents change with the binary, so a
// cache asks again.
func conCabeceras(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		servidor.ProtegerPagina(w)
		c := w.Header()
		// The pages' policy, with the one inline <style> of pagina.html allowed by its hash.
		c.Set("Content-Security-Policy", politicaDocumentacion)
		c.Set("Referrer-Policy", "no-referrer")
		c.Set("Cache-Control", "no-cache")
		h(w, r)
	}
}

type datosPagina struct {
	Titulo      string
	Pagina      *explicaciones.Pagina
	Paginas     []explicaciones.Pagina
	Operaciones []operacionLegible
}

func escribirPagina(w http.ResponseWriter, d datosPagina) {
	var b bytes.Buffer
	if err := plantilla.Execute(&b, d); err != nil {
		http.Error(w, "no pude armar la página: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(b.Bytes())
}

// operacionLegible is one operation of the document as the reading page shows it.
type operacionLegible struct {
	Metodo, Ruta, Resumen, Descripcion, Alcance string
	Obsoleta                                    bool
	Respuestas                                  []respuestaLegible
}

type respuestaLegible struct {
	Codigo      string
	Descripcion string
	Problemas   []string // the types' page names
}

// operacionesDe reads the document's operations (HEAD left out: it answers as GET) in its order.
func operacionesDe(doc []byte) ([]operacionLegible, error) {
	var d struct {
		Paths      ordenado `json:"paths"`
		Components struct {
			Responses map[string]json.RawMessage `json:"responses"`
		} `json:"components"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil, err
	}
	var ops []operacionLegible
	for _, camino := range d.Paths {
		var item ordenado
		if err := json.Unmarshal(camino.valor, &item); err != nil {
			return nil, err
		}
		for _, m := range item {
			if m.clave == "parameters" || m.clave == "head" {
				continue
			}
			var op struct {
				Summary     string                `json:"summary"`
				Description string                `json:"description"`
				Deprecated  bool                  `json:"deprecated"`
				Security    []map[string][]string `json:"security"`
				Responses   ordenado              `json:"responses"`
			}
			if err := json.Unmarshal(m.valor, &op); err != nil {
				return nil, err
			}
			o := operacionLegible{Metodo: strings.ToUpper(m.clave), Ruta: camino.clave, Resumen: op.Summary,
				Descripcion: op.Description, Obsoleta: op.Deprecated}
			for _, s := range op.Security {
				for _, alcances := range s {
					o.Alcance = strings.Join(alcances, ", ")
				}
			}
			for _, r := range op.Responses {
				cuerpo := r.valor
				var referencia struct {
					Ref string `json:"$ref"`
				}
				if json.Unmarshal(cuerpo, &referencia) == nil && referencia.Ref != "" {
					cuerpo = d.Components.Responses[strings.TrimPrefix(referencia.Ref, "#/components/responses/")]
				}
				var resp struct {
					Description string `json:"description"`
				}
				json.Unmarshal(cuerpo, &resp)
				o.Respuestas = append(o.Respuestas, respuestaLegible{Codigo: r.clave, Descripcion: resp.Description, Problemas: problemasDe(cuerpo)})
			}
			ops = append(ops, o)
		}
	}
	return ops, nil
}

// problemasDe are the types a response's schema names (its $refs to problema-<nombre>).
func problemasDe(respuesta []byte) []string {
	var nombres []string
	const prefijo = `"#/components/schemas/problema-`
	texto := string(respuesta)
	for {
		i := strings.Index(texto, prefijo)
		if i < 0 {
			break
		}
		texto = texto[i+len(prefijo):]
		if j := strings.IndexByte(texto, '"'); j >= 0 && !slices.Contains(nombres, texto[:j]) {
			nombres = append(nombres, texto[:j])
		}
	}
	return nombres
}

// ordenado is a JSON object read in its order (encoding/json's maps forget it).
type ordenado []struct {
	clave string
	valor json.RawMessage
}

func (o *ordenado) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil {
		return err
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
		*o = append(*o, struct {
			clave string
			valor json.RawMessage
		}{t.(string), v})
	}
	return nil
}
