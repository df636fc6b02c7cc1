// Package observacion is what a server shows of each request beyond the course's lines: the trace
// in its JSON log, a detailed line when the request ends (--log-detalle), an event for the timeline
// page (--panel). It is middleware around a handler, and knows nothing of how the server listens.
package observacion

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"cursohttp/pkg/encabezado"
	"cursohttp/pkg/eventos"
	"cursohttp/pkg/traza"
)

// Observador is what one server observes. All of it is off by default, and then Envolver leaves the
// handler as it is: the course's servers, byte for byte and at the same cost.
type Observador struct {
	Programa string
	Log      zerolog.Logger
	JSON     bool            // the log is JSON: its lines carry the request's trace
	Detalle  bool            // one readable line per request when it ends
	Panel    *eventos.Emisor // where events go; nil: nowhere
}

// Activa says whether anything is observed.
func (o Observador) Activa() bool { return o.JSON || o.Detalle || o.Panel != nil }

// Registro is one request as the server saw it. Envolver puts it in the request's context; a
// handler that knows more (the gateway: what the revisor answered and which fault it applied) adds
// it through RegistroDe.
type Registro struct {
	traza.Contexto
	Inicio time.Time
	Metodo string
	Ruta   string
	Llave  string
	// Codigo is the status written to the client; 0 if none was (the connection was cut or taken over).
	Codigo int

	// Pasarela marks a gateway's request: the detailed line then says what the revisor did.
	Pasarela bool
	// Llego: the request reached the revisor. Revisor: its answer's status, 0 when none came.
	Llego   bool
	Revisor int
	// Falla is the gateway's fault mode applied to the request.
	Falla string
	// Resultado says what the status cannot: «respuesta perdida», «respuesta repetida»…
	Resultado string
	// Desenlace is the gateway's outcome of the request as its client lived it (eventos.Entregada…).
	Desenlace string
	// Escritura: the revisor did a write; Exito: the client got a 2xx to a write (the gateway's
	// ledger, pkg/pasarela).
	Escritura, Exito bool
	// Propia: the request is the server's own business (the gateway's /_pasarela/ routes), part of
	// nobody's journey: no detailed line, no event.
	Propia bool
}

type claveRegistro struct{}

// RegistroDe is the request's record, or nil when nothing is observed.
func RegistroDe(ctx context.Context) *Registro {
	r, _ := ctx.Value(claveRegistro{}).(*Registro)
	return r
}

// Envolver observes every request h serves: it continues the caller's trace (or starts one) and
// puts it in the request's context, then, when the request ends, writes the detailed line and
// sends the event.
func (o Observador) Envolver(h http.Handler) http.Handler {
	if !o.Activa() {
		return h
	}
	medir := o.Detalle || o.Panel != nil
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reg := &Registro{Contexto: traza.Continuar(r), Inicio: time.Now(), Metodo: r.Method, Ruta: r.RequestURI}
		if v := r.Header.Values("Idempotency-Key"); len(v) > 0 {
			reg.Llave = strings.Join(v, ", ")
		}
		ctx := context.WithValue(traza.EnContexto(r.Context(), &reg.Contexto), claveRegistro{}, reg)
		r = r.WithContext(ctx)
		if !medir {
			h.ServeHTTP(w, r)
			return
		}
		// Deferred: a handler that cuts the connection (panic(http.ErrAbortHandler)) is still told.
		defer o.terminar(ctx, reg)
		h.ServeHTTP(&medidor{ResponseWriter: w, reg: reg}, r)
	})
}

func (o Observador) terminar(ctx context.Context, reg *Registro) {
	if reg.Propia {
		return
	}
	dur := time.Since(reg.Inicio)
	if o.Detalle {
		e := o.Log.Info().Ctx(ctx).Str("metodo", reg.Metodo).Str("url", reg.Ruta).Int("codigo", reg.Codigo).
			Float64("ms", eventos.Milisegundos(dur))
		if reg.Llave != "" {
			e.Str("llave", reg.Llave)
		}
		if reg.Pasarela {
			e.Bool("llego", reg.Llego)
			if reg.Revisor != 0 {
				e.Int("revisor", reg.Revisor)
			}
		}
		if reg.Falla != "" {
			e.Str("falla", reg.Falla)
		}
		if reg.Resultado != "" {
			e.Str("resultado", reg.Resultado)
		}
		e.Msg(LineaDetalle(reg, dur))
	}
	if o.Panel != nil {
		ev := eventos.Evento{
			Programa: o.Programa, Tipo: eventos.Peticion, Inicio: reg.Inicio, Ms: eventos.Milisegundos(dur),
			Metodo: reg.Metodo, Ruta: reg.Ruta, Llave: reg.Llave, Codigo: reg.Codigo,
			Revisor: reg.Revisor, Falla: reg.Falla, Resultado: reg.Resultado, Desenlace: reg.Desenlace, Escritura: reg.Escritura, Exito: reg.Exito,
		}
		if reg.Pasarela && !reg.Llego && ev.Resultado == "" {
			ev.Resultado = "nunca llegó al revisor"
		}
		ev.EnTraza(reg.Contexto)
		o.Panel.Enviar(ev)
	}
}

// LineaDetalle is the readable line --log-detalle writes when a request ends:
//
//	detalle: POST /servicios → 201 Created en 503 ms · llave alta-1 · traza 4bf92f35…
//	detalle: POST /servicios → revisor 201 Created · cliente 502 Bad Gateway (perder-primera: respuesta perdida) en 505 ms · …
func LineaDetalle(reg *Registro, dur time.Duration) string {
	var b strings.Builder
	b.WriteString("detalle: ")
	b.WriteString(reg.Metodo)
	b.WriteByte(' ')
	b.WriteString(reg.Ruta)
	b.WriteString(" → ")
	if reg.Pasarela {
		switch {
		case !reg.Llego:
			b.WriteString("el revisor no la vio · cliente ")
		case reg.Revisor == 0:
			b.WriteString("el revisor no respondió · cliente ")
		default:
			b.WriteString("revisor ")
			escribirCodigo(&b, reg.Revisor)
			b.WriteString(" · cliente ")
		}
	}
	if reg.Codigo == 0 {
		b.WriteString("sin respuesta")
	} else {
		escribirCodigo(&b, reg.Codigo)
	}
	switch {
	case reg.Falla != "" && reg.Resultado != "":
		b.WriteString(" (" + reg.Falla + ": " + reg.Resultado + ")")
	case reg.Falla != "":
		b.WriteString(" (" + reg.Falla + ")")
	case reg.Resultado != "":
		b.WriteString(" (" + reg.Resultado + ")")
	}
	b.WriteString(" en ")
	b.WriteString(Duracion(dur))
	if reg.Llave != "" {
		b.WriteString(" · llave ")
		b.WriteString(reg.Llave)
	}
	b.WriteString(" · traza ")
	b.WriteString(reg.Traza.String())
	return b.String()
}

func escribirCodigo(b *strings.Builder, codigo int) {
	b.WriteString(strconv.Itoa(codigo))
	b.WriteByte(' ')
	b.WriteString(encabezado.Frase(codigo))
}

// Duracion writes a request's time as a person reads it: «503 ms», «0.42 ms», «2.1 s».
func Duracion(d time.Duration) string {
	ms := eventos.Milisegundos(d)
	switch {
	case ms < 10:
		return strconv.FormatFloat(ms, 'f', 2, 64) + " ms"
	case ms < 10000:
		return strconv.FormatFloat(ms, 'f', 0, 64) + " ms"
	}
	return strconv.FormatFloat(ms/1000, 'f', 1, 64) + " s"
}

// medidor notes the status a handler writes. Unwrap lets http.ResponseController reach the
// connection underneath (flush, deadlines, hijack).
type medidor struct {
	http.ResponseWriter
	reg *Registro
}

func (m *medidor) WriteHeader(codigo int) {
	if m.reg.Codigo == 0 && codigo >= 200 {
		m.reg.Codigo = codigo
	}
	m.ResponseWriter.WriteHeader(codigo)
}

func (m *medidor) Write(p []byte) (int, error) {
	if m.reg.Codigo == 0 {
		m.reg.Codigo = http.StatusOK
	}
	return m.ResponseWriter.Write(p)
}

func (m *medidor) Unwrap() http.ResponseWriter { return m.ResponseWriter }
