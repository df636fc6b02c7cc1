package pasarela

import (
	"crypto/sha256"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"cursohttp/internal/nodejs"
	"cursohttp/pkg/eventos"
	"cursohttp/pkg/observacion"
	"cursohttp/pkg/servidor"
	"cursohttp/pkg/tabladecision"
	"cursohttp/pkg/topes"
)

// Peticion is one request in the gateway's hands, as a fault (Falla) sees it: it may send it on to
// the revisor (Reenviar) or not, and then hand the revisor's answer over (Devolver), lose it
// (Perder), or answer in its own way; each of these returns what it made of the request (a
// Desenlace), which the fault returns in turn. The gateway alone writes the request's record from
// it (Asiento): the ledger's, the detailed log's, the panel's and a script's (Paso.Anotar).
type Peticion struct {
	w        http.ResponseWriter
	r        *http.Request
	p        *Pasarela
	retenido []byte
	completo bool
	falla    Falla
	inicio   time.Time

	cuerpo *cuerpoVisto   // the body on its way to the revisor; nil before Reenviar
	resp   *http.Response // the revisor's answer; nil until one came
	leido  []byte         // its body, held whole (or as much as topes.Respuesta and the budget allow)
	resto  io.Reader      // the rest of an answer too large to hold; nil otherwise
	// retenidos is what leido takes of the gateway's budget (Pasarela.retenidas), given back
	// when the request ends.
	retenidos int64

	// reenviada: the request went out to the revisor.
	reenviada bool
	// anotar, when a script asked for it, gets the request's record when it ends (Paso.Anotar).
	anotar func(Asiento)
}

// Desenlace is what a fault made of one request, as it returns it: what the client got, which the
// gateway cannot see for itself once an answer left. The gateway builds the request's record
// (Asiento) from it and from what it saw (the revisor's answer, the times, the client that hung
// up); nothing else writes the record.
type Desenlace struct {
	// Cliente is the status the client got whole; 0 when it got none (a cut, a reset, nothing).
	Cliente int
	// Resultado is what the status does not say («respuesta perdida»).
	Resultado string
	// Tipo is what became of the request as the client lived it (eventos.Entregada…); "" lets the
	// gateway derive it from the statuses.
	Tipo string
	// RetryAfter is the seconds the answer the client got asked it to wait; 0 none.
	RetryAfter int
	// Type is the Problem Details type of a 4xx the client got.
	Type string
	// Abortar: the gateway cuts the connection once the record is written (an answer half sent).
	Abortar bool
}

// Reenviar sends the request to the revisor and holds its answer whole, as the course's gateway
// does: a revisor that dies mid-body still gets a clean 502, and a lost answer is lost only once
// the revisor finished it. Only an unusually large answer is streamed. If no answer comes, the
// client gets the gateway's 502 (or the parser's 400 when it was the client's body that failed)
// and Reenviar returns false with that outcome.
//
// With several revisors it sends each request to the next in turn. One that refuses the connection
// got nothing, so the request goes to the one after it (a body the gateway holds whole can be sent
// again; a streamed one cannot); any other failure is the 502 as with one revisor: the request may
// have been served, and only the client's retry with its key can settle that.
func (q *Peticion) Reenviar() (Desenlace, bool) {
	destinos := q.p.destinos
	primero := q.p.primero()
	var resp *http.Response
	var err error
	for i := range destinos {
		destino := destinos[(primero+i)%len(destinos)]
		salida, cuerpo, ok := q.p.peticion(destino, q.r, q.retenido, q.completo)
		if !ok {
			return q.sinRespuesta(), false
		}
		q.cuerpo, q.reenviada = cuerpo, true
		resp, err = q.p.transporte.RoundTrip(salida)
		if err == nil || i+1 == len(destinos) || !q.completo || !nodejs.Rechazada(err) {
			break
		}
		q.p.log.Info().Ctx(q.r.Context()).Str("revisor", destino.Host).
			Msg("pasarela: " + destino.Host + " rechaza la conexión; la petición va al siguiente revisor")
	}
	if err != nil {
		if _, falla := q.cuerpo.estado(); falla != nil {
			// The streamed part of the body failed: the transport let the revisor go at once.
			servidor.PeticionIlegible(q.w)
			return Desenlace{Cliente: http.StatusBadRequest, Resultado: "cuerpo ilegible", Tipo: eventos.NuncaLlego}, false
		}
		return q.sinRespuesta(), false
	}
	leido, entera, err := q.retenerRespuesta(resp.Body, resp.ContentLength)
	if err != nil {
		resp.Body.Close()
		return q.sinRespuesta(), false
	}
	if !entera {
		q.resto = resp.Body
	} else {
		// Done with the revisor: this also stops the rest of an upload it answered early.
		resp.Body.Close()
	}
	q.resp, q.leido = resp, leido
	return Desenlace{}, true
}

// retenerRespuesta reads the revisor's answer to hold it whole, as the course's gateway does,
// taking its bytes from the gateway's budget for held answers (topes.Respuestas) as they come:
// entera is false when the answer is larger than topes.Respuesta or the budget ran out, and then
// the rest is streamed from body. largo is the answer's Content-Length, -1 when unknown.
func (q *Peticion) retenerRespuesta(body io.Reader, largo int64) (leido []byte, entera bool, err error) {
	const paso = 32 << 10
	hasta := 0 // bytes taken from the budget: leido may grow up to it
	defer func() {
		// What was taken and not filled goes back at once; the rest when the request ends.
		q.p.retenidas.soltar(int64(hasta - len(leido)))
		q.retenidos = int64(len(leido))
	}()
	for {
		if len(leido) > topes.Respuesta {
			return leido, false, nil
		}
		if len(leido) == hasta {
			crecer := paso
			if largo >= 0 && hasta == 0 {
				crecer = int(min(largo, topes.Respuesta)) + 1 // the whole answer, and a byte to see its end
			}
			crecer = min(crecer, topes.Respuesta+1-len(leido))
			if !q.p.retenidas.tomar(int64(crecer)) {
				return leido, false, nil
			}
			hasta += crecer
			leido = slices.Grow(leido, crecer)
		}
		n, err := body.Read(leido[len(leido):hasta])
		leido = leido[:len(leido)+n]
		if err == io.EOF {
			return leido, true, nil
		}
		if err != nil {
			return leido, false, err
		}
	}
}

// Codigo is the revisor's status; 0 before Reenviar or when none came.
func (q *Peticion) Codigo() int {
	if q.resp == nil {
		return 0
	}
	return q.resp.StatusCode
}

// Devolver passes the revisor's answer on: its status and reason phrase, the allowed headers in
// lower case, its body.
func (q *Peticion) Devolver() Desenlace {
	d := Desenlace{Cliente: q.resp.StatusCode, Tipo: eventos.Entregada}
	if v := q.resp.Header["Retry-After"]; len(v) > 0 {
		d.RetryAfter, _ = strconv.Atoi(v[0])
	}
	if d.Cliente >= 400 && d.Cliente < 500 {
		d.Type = tabladecision.TypeDelCuerpo(q.leido)
	}
	abortar := false
	responder(q.w, q.cuerpo, func() { abortar = !q.p.devolver(q.w, q.r, q.resp, q.leido, q.resto) })
	if abortar {
		// Headers are gone already: the only honest signal left is to cut the connection.
		return Desenlace{Resultado: "el revisor no respondió", Tipo: eventos.Cortada, Abortar: true}
	}
	return d
}

// Perder throws the revisor's answer away and answers the course's 502: the revisor did the work,
// the client cannot know it. The log says so in the course's words.
func (q *Peticion) Perder() Desenlace {
	if d, ok := q.tirarResto(); !ok {
		return d
	}
	q.decir("pasarela: el revisor respondió " + strconv.Itoa(q.resp.StatusCode) + ", pero la respuesta se pierde")
	responder(q.w, q.cuerpo, func() { MalaPuerta(q.w, q.r, DetallePerdida) })
	return Desenlace{Cliente: http.StatusBadGateway, Resultado: "respuesta perdida", Tipo: eventos.Perdida}
}

// tirarResto reads the rest of a streamed answer to its end, so that the revisor's work is done
// before anything is decided; if that fails, the client gets the 502 of no answer, and tirarResto
// returns false with that outcome.
func (q *Peticion) tirarResto() (Desenlace, bool) {
	if q.resto == nil {
		return Desenlace{}, true
	}
	if _, err := io.Copy(io.Discard, q.resto); err != nil {
		return q.sinRespuesta(), false
	}
	q.resto = nil
	return Desenlace{}, true
}

// sinRespuesta is the gateway's 502 when the revisor gave no answer.
func (q *Peticion) sinRespuesta() Desenlace {
	q.p.log.Info().Ctx(q.r.Context()).Msg("pasarela: el revisor no respondió")
	d := Desenlace{Cliente: http.StatusBadGateway, Tipo: eventos.NuncaLlego}
	if q.reenviada {
		d.Resultado, d.Tipo = "el revisor no respondió", eventos.SinRespuesta
	}
	responder(q.w, q.cuerpo, func() { MalaPuerta(q.w, q.r, DetalleSinRevisor) })
	return d
}

// decir writes one of the gateway's lines about this request.
func (q *Peticion) decir(linea string) {
	e := q.p.log.Info().Ctx(q.r.Context())
	if c := q.Codigo(); c != 0 {
		e.Int("codigo", c)
	}
	if q.falla != nil {
		e.Str("falla", q.falla.String())
	}
	e.Msg(linea)
}

// Identidad is how the gateway recognises "the same request": its Idempotency-Key, otherwise the
// SHA-256 of the body bytes (not of the parsed JSON). Call it after Reenviar.
func (q *Peticion) Identidad() [32]byte {
	if v := q.r.Header.Values("Idempotency-Key"); len(v) > 0 {
		return sha256.Sum256([]byte("llave\x00" + strings.Join(v, ", ")))
	}
	var id [32]byte
	if q.cuerpo != nil {
		select {
		case <-q.cuerpo.hecho:
			id = q.cuerpo.huella()
		case <-time.After(time.Second):
			// The Transport always closes the body; this only guards against a bug turning into a hang.
		}
	}
	return sha256.Sum256(append([]byte("cuerpo\x00"), id[:]...))
}

// terminar closes what the request still holds of the revisor and writes the request's record
// from d, what the fault made of it: in the ledger, in the detailed log and the panel's event
// (--log-detalle, --panel), and for a script that asked for it (Paso.Anotar).
func (q *Peticion) terminar(d Desenlace) {
	if q.resp != nil {
		q.resp.Body.Close()
	}
	q.p.retenidas.soltar(q.retenidos)
	q.retenidos = 0
	a := q.p.libro.anotar(q.asiento(d))
	if q.anotar != nil {
		q.anotar(a)
	}
	if reg := observacion.RegistroDe(q.r.Context()); reg != nil {
		reg.Pasarela, reg.Llego, reg.Revisor, reg.Falla = true, a.Llego, a.Revisor, a.Falla
		reg.Escritura, reg.Exito = a.Escritura, a.Exito
		reg.Resultado, reg.Desenlace = a.Resultado, a.Desenlace
		if a.Desenlace == eventos.Cortada {
			// A status line and half a body are no answer: what the client got whole is nothing.
			reg.Codigo = 0
		}
		if a.Repetida && reg.Resultado == "" {
			reg.Resultado = "respuesta repetida"
		}
	}
}
