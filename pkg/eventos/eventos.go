// Package eventos is what the four programs tell the timeline page (laboratorio panel) when started
// with --panel URL: one event per request, attempt, probe or intent, sent in the background so a
// request never waits for the page, and dropped rather than queued without end if the page is gone.
package eventos

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"cursohttp/pkg/traza"
)

// The kinds of event.
const (
	Intencion = "intencion" // alta-segura: one registration, all its attempts (the trace's root)
	Intento   = "intento"   // alta-segura: one attempt
	Peticion  = "peticion"  // a server: one request it answered (or did not)
	Sonda     = "sonda"     // the revisor: one probe of a watched service
	Simular   = "simular"   // the gateway: its process-wide fault mode changed
)

// The outcomes of a request at the gateway (Evento.Desenlace), as its client lived them. Codigo is
// then the status the client got whole: 0 for Cortada, Reiniciada and Abandonada.
const (
	Entregada    = "entregada"     // the client got the revisor's answer whole (late, with lento:MS)
	Perdida      = "perdida"       // the revisor answered; the client got the gateway's 502 instead
	NuncaLlego   = "nunca-llego"   // the gateway answered itself (rechazar, codigo:NNN): the revisor never saw it
	SinRespuesta = "sin-respuesta" // the revisor gave no answer; the client got the gateway's 502
	Cortada      = "cortada"       // the client got the head and part of the body, then the connection closed
	Reiniciada   = "reiniciada"    // the client's connection was reset: it got nothing
	Abandonada   = "abandonada"    // the client left before the answer came
)

// Desenlace is an outcome as the panel's page draws it: its mark, the border of its cell (a class
// of panel.css), and what the client lived when the gateway's cell alone does not say it.
type Desenlace struct {
	ID      string `json:"id"`
	Marca   string `json:"marca"`
	Bien    bool   `json:"bien,omitempty"`
	Borde   string `json:"borde,omitempty"`
	Cliente string `json:"cliente,omitempty"`
}

// Desenlaces are the outcomes, in the order above, with their marks: the one table the panel's page
// draws from (pkg/panel puts it in the page; panel.js has no list of its own).
var Desenlaces = []Desenlace{
	{ID: Entregada, Marca: "✔ entregada", Bien: true},
	{ID: Perdida, Marca: "✘ respuesta perdida", Borde: "perdida"},
	{ID: NuncaLlego, Marca: "⊘ nunca llegó al revisor", Borde: "nunca"},
	{ID: SinRespuesta, Marca: "✘ sin respuesta del revisor", Borde: "perdida"},
	{ID: Cortada, Marca: "✘ cortada: sin respuesta", Borde: "perdida", Cliente: "cliente: cortada a mitad"},
	{ID: Reiniciada, Marca: "✘ reiniciada: sin respuesta", Borde: "perdida", Cliente: "cliente: conexión reiniciada"},
	{ID: Abandonada, Marca: "✘ el cliente se fue antes", Borde: "perdida", Cliente: "cliente: se fue"},
}

// Evento is one thing that happened, placed in its trace. Zero fields are left out of the JSON.
type Evento struct {
	Programa string    `json:"programa"`
	Tipo     string    `json:"tipo"`
	Traza    string    `json:"traza,omitempty"`
	Tramo    string    `json:"tramo,omitempty"`
	Padre    string    `json:"padre,omitempty"`
	Inicio   time.Time `json:"inicio"`
	Ms       float64   `json:"ms"`
	Metodo   string    `json:"metodo,omitempty"`
	Ruta     string    `json:"ruta,omitempty"`
	Llave    string    `json:"llave,omitempty"`
	// Codigo is the status this program's caller got; 0 when it got none.
	Codigo int `json:"codigo,omitempty"`
	// Revisor is, for the gateway, what the revisor answered; 0 when it never saw the request or
	// gave no answer (Resultado says which).
	Revisor int `json:"revisor,omitempty"`
	// Falla is the gateway's fault mode applied to this request.
	Falla string `json:"falla,omitempty"`
	// Resultado says in words what the status cannot: «perdida», «nunca llegó al revisor»,
	// «sin respuesta (ECONNRESET)», «respuesta repetida»… It is for people: the panel draws its
	// marks from Desenlace.
	Resultado string `json:"resultado,omitempty"`
	// Desenlace is, for the gateway, what became of the request as its client lived it: one of
	// Entregada, Perdida, NuncaLlego, SinRespuesta, Cortada, Reiniciada, Abandonada.
	Desenlace string `json:"desenlace,omitempty"`
	// Escritura and Exito are the gateway ledger's: the revisor did a write; the client got a 2xx
	// to a write.
	Escritura bool   `json:"escritura,omitempty"`
	Exito     bool   `json:"exito,omitempty"`
	Intento   int    `json:"intento,omitempty"`
	Nombre    string `json:"nombre,omitempty"`
	Detalle   string `json:"detalle,omitempty"`
}

// EnTraza fills the event's trace fields from c.
func (e *Evento) EnTraza(c traza.Contexto) {
	e.Traza, e.Tramo = c.Traza.String(), c.Tramo.String()
	if !c.Padre.Vacio() {
		e.Padre = c.Padre.String()
	}
}

// Milisegundos is d in milliseconds with microsecond precision, as events and detailed logs give it.
func Milisegundos(d time.Duration) float64 {
	return float64(d.Microseconds()) / 1000
}

// Ruta is where a panel at base receives events.
func Ruta(base string) string { return strings.TrimSuffix(base, "/") + "/eventos" }

// Tipo is the media type of a batch: one JSON event per line.
const Tipo = "application/x-ndjson"

// Emisor sends events to a panel in the background. Enviar never blocks: when the queue is full
// (the page is slower than the programs), the event is dropped and counted.
type Emisor struct {
	url      string
	token    string // the lab's token, which the panel asks of every batch; "" sends none
	cliente  *http.Client
	cola     chan Evento
	cerrar   chan struct{}
	hecho    chan struct{}
	once     sync.Once
	avisar   func(string)
	perdidos atomic.Int64
}

// TopeCola is how many events wait to be sent before new ones are dropped.
const TopeCola = 4096

// NuevoEmisor starts sending to the panel at base (its root URL) with the lab's token (the panel
// refuses events without it; pkg/token). avisar, when not nil, is told in one line when the panel
// stops answering or refuses them, and again when it takes them after that.
func NuevoEmisor(base, token string, avisar func(string)) *Emisor {
	e := &Emisor{
		url:   Ruta(base),
		token: token,
		// Its own transport: a panel that hangs must not hold the program's other connections.
		cliente: &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{Proxy: nil, MaxIdleConnsPerHost: 2}},
		cola:    make(chan Evento, TopeCola),
		cerrar:  make(chan struct{}),
		hecho:   make(chan struct{}),
		avisar:  avisar,
	}
	go e.correr()
	return e
}

// Enviar queues ev for the panel.
func (e *Emisor) Enviar(ev Evento) {
	if e == nil {
		return
	}
	select {
	case e.cola <- ev:
	default:
		e.perdidos.Add(1)
	}
}

// Perdidos is how many events were dropped because the queue was full or the panel did not take them.
func (e *Emisor) Perdidos() int64 { return e.perdidos.Load() }

// Cerrar sends what is queued (waiting at most espera) and stops.
func (e *Emisor) Cerrar(espera time.Duration) {
	if e == nil {
		return
	}
	e.once.Do(func() { close(e.cerrar) })
	t := time.NewTimer(espera)
	defer t.Stop()
	select {
	case <-e.hecho:
	case <-t.C:
	}
	e.cliente.CloseIdleConnections()
}

func (e *Emisor) correr() {
	defer close(e.hecho)
	var lote []Evento
	caido := false
	for {
		select {
		case ev := <-e.cola:
			lote = append(lote[:0], ev)
		case <-e.cerrar:
			// Whatever is still queued goes in one last batch.
			if lote = e.juntar(lote[:0], TopeCola); len(lote) > 0 {
				e.mandar(lote, &caido)
			}
			return
		}
		// Whatever else is already waiting goes in the same request.
		e.mandar(e.juntar(lote, 256), &caido)
	}
}

// juntar adds to lote the events already queued, up to tope in all, without waiting.
func (e *Emisor) juntar(lote []Evento, tope int) []Evento {
	for len(lote) < tope {
		select {
		case ev := <-e.cola:
			lote = append(lote, ev)
		default:
			return lote
		}
	}
	return lote
}

func (e *Emisor) mandar(lote []Evento, caido *bool) {
	var cuerpo bytes.Buffer
	enc := json.NewEncoder(&cuerpo)
	enc.SetEscapeHTML(false)
	for i := range lote {
		enc.Encode(&lote[i])
	}
	ctx, cancelar := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancelar()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, e.url, &cuerpo)
	req.Header["Content-Type"] = []string{Tipo}
	if e.token != "" {
		req.Header["Authorization"] = []string{"Bearer " + e.token}
	}
	resp, err := e.cliente.Do(req)
	if err == nil {
		resp.Body.Close()
		switch {
		case resp.StatusCode == http.StatusUnauthorized && e.token == "":
			err = errStatus(resp.Status + ": falta el token del laboratorio, --token o CURSOHTTP_TOKEN")
		case resp.StatusCode == http.StatusUnauthorized:
			err = errStatus(resp.Status + ": no es el token del laboratorio")
		case resp.StatusCode >= 300:
			err = errStatus(resp.Status)
		}
	}
	if err != nil {
		e.perdidos.Add(int64(len(lote)))
		if !*caido && e.avisar != nil {
			e.avisar("panel: no pude mandar eventos a " + e.url + " (" + err.Error() + "); sigo sin él")
		}
		*caido = true
		return
	}
	if *caido && e.avisar != nil {
		e.avisar("panel: " + e.url + " vuelve a recibir eventos")
	}
	*caido = false
}

type errStatus string

func (e errStatus) Error() string { return "respondió " + string(e) }
