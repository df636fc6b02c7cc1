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
	leidas, err := documentoapi.Recorrer(doc)
	if err != nil {
		return nil, err
	}
	var ops []operacionLegible
	for _, l := range leidas {
		var op struct {
			Summary     string                `json:"summary"`
			Description string                `json:"description"`
			Deprecated  bool                  `json:"deprecated"`
			Security    []map[string][]string `json:"security"`
		}
		if err := json.Unmarshal(l.Objeto, &op); err != nil {
			return nil, err
		}
		o := operacionLegible{Metodo: l.Metodo, Ruta: l.Ruta, Resumen: op.Summary, Descripcion: op.Description, Obsoleta: op.Deprecated}
		for _, s := range op.Security {
			for _, alcances := range s {
				o.Alcance = strings.Join(alcances, ", ")
			}
		}
		for _, r := range l.Respuestas {
			var resp struct {
				Description string `json:"description"`
			}
			json.Unmarshal(r.Cuerpo, &resp)
			o.Respuestas = append(o.Respuestas, respuestaLegible{Codigo: r.Codigo, Descripcion: resp.Description, Problemas: documentoapi.ProblemasDe(r.Cuerpo)})
		}
		ops = append(ops, o)
	}
	return ops, nil
}
