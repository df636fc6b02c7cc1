package pasarela

import (
	"bytes"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"

	"cursohttp/pkg/respuesta"
	"cursohttp/pkg/token"
)

// RutaPropia is where the gateway answers for itself instead of forwarding. The revisor's API has
// no path that starts with «/_», so nothing a student sends to the revisor through the gateway
// ends up here.
const RutaPropia = "/_pasarela/"

// The gateway's own routes.
const (
	RutaLibro   = RutaPropia + "libro"   // GET: the ledger, JSON
	RutaResumen = RutaPropia + "resumen" // GET: the ledger's summary, two lines of text
	RutaSimular = RutaPropia + "simular" // GET: the process-wide fault; PUT, with the lab's token: change it (MODO[@PROB], empty: none)
)

// topeSimular bounds a PUT's body: a mode is a few bytes.
const topeSimular = 1 << 10

// detalleToken says, after a refused PUT, where the token comes from.
const detalleToken = ": la pasarela lo toma de --token o de CURSOHTTP_TOKEN (el laboratorio se lo da: «laboratorio lab token» lo muestra)"

// rutasPropias are the gateway's own routes on the standard mux: each route with its methods (a
// GET pattern takes HEAD too); the same path without a method, a less specific pattern, answers the
// other methods with the gateway's 405 and the methods it takes; anything else under RutaPropia,
// its 404 naming the routes it has.
func (p *Pasarela) rutasPropias() *http.ServeMux {
	m := http.NewServeMux()
	m.HandleFunc("GET "+RutaLibro, p.servirLibro)
	m.HandleFunc("GET "+RutaResumen, func(w http.ResponseWriter, r *http.Request) {
		resumen, _ := p.libro.leer()
		respuesta.Bytes(w, r, http.StatusOK, "text/plain; charset=utf-8", []byte(TextoResumen(resumen)))
	})
	m.HandleFunc("GET "+RutaSimular, func(w http.ResponseWriter, r *http.Request) {
		respuesta.Bytes(w, r, http.StatusOK, "text/plain; charset=utf-8", []byte(LineaDeSimulacion(p.Simulando())+"\n"))
	})
	m.HandleFunc("PUT "+RutaSimular, func(w http.ResponseWriter, r *http.Request) {
		if codigo, motivo := p.puerta.Comprobar(r, token.Instructor); codigo != 0 {
			if fuente, _, _ := net.SplitHostPort(r.RemoteAddr); p.rechazos.Anotar(fuente, motivo) {
				p.log.Warn().Ctx(r.Context()).Int("codigo", codigo).Msg("pasarela: rechazo el cambio de falla: " + motivo)
			}
			if codigo == token.SinPermiso {
				w.Header()["WWW-Authenticate"] = []string{token.Desafio}
				motivo += detalleToken
			}
			problemaPropio(w, r, codigo, motivo)
			return
		}
		p.cambiarSimulacion(w, r)
	})
	for ruta, metodos := range map[string]string{RutaLibro: "GET, HEAD", RutaResumen: "GET, HEAD", RutaSimular: "GET, HEAD, PUT"} {
		m.HandleFunc(ruta, func(w http.ResponseWriter, r *http.Request) {
			w.Header()["Allow"] = []string{metodos}
			problemaPropio(w, r, http.StatusMethodNotAllowed, r.Method+" no se admite en "+r.URL.Path+": "+metodos)
		})
	}
	m.HandleFunc(RutaPropia, func(w http.ResponseWriter, r *http.Request) {
		problemaPropio(w, r, http.StatusNotFound, "la pasarela no tiene «"+r.URL.Path+"»: tiene "+RutaLibro+", "+RutaResumen+" y "+RutaSimular)
	})
	return m
}

// servirLibro is GET /_pasarela/libro: the summary and the last requests, JSON.
func (p *Pasarela) servirLibro(w http.ResponseWriter, r *http.Request) {
	resumen, asientos := p.libro.leer()
	lista := make([]asientoJSON, len(asientos))
	for i, a := range asientos {
		lista[i] = a.json()
	}
	// Without HTML escaping: a «<» is one byte, not six (\u003c), in a body nobody embeds in HTML.
	var cuerpo bytes.Buffer
	enc := json.NewEncoder(&cuerpo)
	enc.SetEscapeHTML(false)
	enc.Encode(struct {
		Resumen    resumenJSON   `json:"resumen"`
		Peticiones []asientoJSON `json:"peticiones"`
	}{resumenJSON{resumen, resumen.Frase()}, lista})
	respuesta.Bytes(w, r, http.StatusOK, "application/json", cuerpo.Bytes())
}

type resumenJSON struct {
	Resumen
	Frase string `json:"frase"`
}

// TextoResumen is GET /_pasarela/resumen: the lesson's question answered, then the counts.
func TextoResumen(r Resumen) string {
	return r.Frase() + "\n" +
		"peticiones " + strconv.Itoa(r.Peticiones) + ": al revisor " + strconv.Itoa(r.AlRevisor) +
		" (sin respuesta " + strconv.Itoa(r.SinRespuesta) + "), nunca llegaron " + strconv.Itoa(r.NuncaLlegaron) +
		"; respuestas perdidas " + strconv.Itoa(r.Perdidas) + ", repetidas " + strconv.Itoa(r.Repetidas) + "\n"
}

// cambiarSimulacion is PUT /_pasarela/simular: the body is what --simular takes (empty or
// «ninguna»: none), ?semilla=N the seed (else the one in force, else one at random).
func (p *Pasarela) cambiarSimulacion(w http.ResponseWriter, r *http.Request) {
	b, err := io.ReadAll(io.LimitReader(r.Body, topeSimular+1))
	if err != nil || len(b) > topeSimular {
		problemaPropio(w, r, http.StatusBadRequest, "el cuerpo debe ser un modo, como los de --simular (perder@0.3)")
		return
	}
	texto := strings.TrimSpace(string(b))
	var s *Simulacion
	if texto != "" && texto != "ninguna" {
		semilla := rand.Uint64()
		if actual := p.Simulando(); actual != nil {
			semilla = actual.Semilla
		}
		if v := r.URL.Query().Get("semilla"); v != "" {
			if semilla, err = strconv.ParseUint(v, 10, 64); err != nil {
				problemaPropio(w, r, http.StatusBadRequest, "?semilla= lleva un número entero no negativo, no «"+v+"»")
				return
			}
		}
		if s, err = LeerSimulacion(texto, semilla); err != nil {
			problemaPropio(w, r, http.StatusBadRequest, err.Error())
			return
		}
	}
	p.Simular(s)
	linea := LineaDeSimulacion(s)
	p.log.Info().Ctx(r.Context()).Msg(linea)
	respuesta.Bytes(w, r, http.StatusOK, "text/plain; charset=utf-8", []byte(linea+"\n"))
}
