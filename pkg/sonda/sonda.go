// Package sonda is the revisor's outbound probe: one GET to a watched service that ends in exactly
// one of five outcomes, with the course's classification (ARRIBA/LENTO/CAIDO) and its retries on top.
package sonda

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"cursohttp/internal/nodejs"
	"cursohttp/pkg/almacen"
	"cursohttp/pkg/destinos"
	"cursohttp/pkg/reintento"
	"cursohttp/pkg/traza"
)

// Tipo is what happened to one probe.
type Tipo string

// The five outcomes (lesson 4 §4.4.2).
const (
	Respuesta         Tipo = "respuesta"          // an HTTP response came back, whatever its code
	TiempoAgotado     Tipo = "tiempo-agotado"     // nothing within the service's limit
	SinConexion       Tipo = "sin-conexion"       // refused, unreachable or a name that does not resolve
	RespuestaInvalida Tipo = "respuesta-invalida" // cut connection or bytes that are not HTTP
	DestinoProhibido  Tipo = "destino-prohibido"  // the SSRF rules refused the destination
)

// Consulta is one probe's outcome. Codigo, Ms and ReintentarEn only mean something for Respuesta;
// Motivo is the SSRF reason for DestinoProhibido (shown to the client) and, for RespuestaInvalida,
// the internal error text, which is for logs only and never goes into a body.
type Consulta struct {
	Tipo            Tipo
	Codigo          int
	Ms              int
	ReintentarEn    int64
	HayReintentarEn bool
	Motivo          string
}

// Sonda probes services. It is safe for concurrent use.
type Sonda struct {
	verificador *destinos.Verificador
	cliente     *http.Client
	politica    reintento.Politica
	ahora       func() time.Time
	observar    Observador
}

// Observador is told of each probe before it goes out: it may return a context carrying the
// probe's own span (the request then carries it in traceparent) and a function to call with the
// outcome. nil, the default, observes nothing.
type Observador func(ctx context.Context, url string) (context.Context, func(Consulta))

// Opciones configure a Sonda; zero fields take the course's values.
type Opciones struct {
	// Politica of RevisarConReintentos (its sleep included); the zero value means
	// reintento.PoliticaRevision(): 3 attempts, full jitter base 250 ms cap 2 s, Retry-After obeyed
	// up to 5 s.
	Politica reintento.Politica
	// Ahora reads the clock for Retry-After dates; nil is time.Now.
	Ahora func() time.Time
	// Observar, when set, sees every probe (the revisor's --log-detalle and --panel).
	Observar Observador
}

// Nueva builds a probe that connects only where v allows.
//
// The transport dials through v.DialContext, which resolves the name once, checks every address and
// connects to one it checked: a DNS answer that changes between the check and the connection (DNS
// rebinding) cannot take the probe to a private address. Keep-alive is off, so each attempt opens its
// own connection: net/http silently resends an idempotent request when a reused pooled connection
// turns out dead, which would hide a cut connection (/cortar) behind a second request and make the
// laboratory see calls the course does not make. Redirects are never followed (a 301 is reported as
// 301) and no proxy is used.
func Nueva(v *destinos.Verificador, o Opciones) *Sonda {
	if o.Politica.Intentos == 0 {
		o.Politica = reintento.PoliticaRevision()
	}
	if o.Ahora == nil {
		o.Ahora = time.Now
	}
	t := v.Transporte()
	t.DisableKeepAlives = true
	t.DisableCompression = true
	return &Sonda{
		verificador: v,
		cliente: &http.Client{
			Transport:     t,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
		politica: o.Politica,
		ahora:    o.Ahora,
		observar: o.Observar,
	}
}

// Consultar sends one GET to texto and waits at most limiteMs for the response headers; the body is
// never read. The destination is checked again before the connection: DNS may have changed since the
// service was registered. When ctx carries a trace (traza.EnContexto), the GET carries it onward.
func (s *Sonda) Consultar(ctx context.Context, texto string, limiteMs int) (c Consulta) {
	if s.observar != nil {
		var fin func(Consulta)
		if ctx, fin = s.observar(ctx, texto); fin != nil {
			defer func() { fin(c) }()
		}
	}
	return s.consultar(ctx, texto, limiteMs)
}

func (s *Sonda) consultar(ctx context.Context, texto string, limiteMs int) Consulta {
	veredicto := s.verificador.Revisar(ctx, texto)
	if !veredicto.Permitido {
		return Consulta{Tipo: DestinoProhibido, Motivo: veredicto.Motivo}
	}
	objetivo, err := pedido(texto)
	if err != nil {
		// fetch refuses such a URL before connecting (a URL with credentials), and the course files
		// every refusal it does not recognise under "respuesta-invalida".
		return Consulta{Tipo: RespuestaInvalida, Motivo: err.Error()}
	}
	limite, cancelar := context.WithTimeout(ctx, time.Duration(limiteMs)*time.Millisecond)
	defer cancelar()
	// The URL is set by hand: its Opaque carries the WHATWG path and query as they go on the wire.
	req, err := http.NewRequestWithContext(limite, http.MethodGet, "/", nil)
	if err != nil {
		return Consulta{Tipo: RespuestaInvalida, Motivo: err.Error()}
	}
	req.URL = objetivo
	req.Host = objetivo.Host
	if tc := traza.DeContexto(ctx); tc != nil {
		req.Header[traza.Cabecera] = []string{tc.Valor()}
	}
	inicio := time.Now()
	resp, err := s.cliente.Do(req)
	if err != nil {
		return clasificarError(ctx, limite, err)
	}
	resp.Body.Close()
	ms := int(time.Since(inicio).Round(time.Millisecond) / time.Millisecond)
	c := Consulta{Tipo: Respuesta, Codigo: resp.StatusCode, Ms: ms}
	// Like fetch's headers.get: several Retry-After fields read as one, joined by ", ".
	if valores, ok := resp.Header["Retry-After"]; ok {
		c.ReintentarEn, c.HayReintentarEn = reintento.SegundosDeEspera(strings.Join(valores, ", "), s.ahora())
	}
	return c
}

// pedido builds the request URL from the WHATWG reading of texto, so the probe goes where the SSRF
// check looked (Go's url.Parse and new URL() disagree on hosts like "0x7f.1" and on backslashes).
func pedido(texto string) (*url.URL, error) {
	u, err := nodejs.LeerURL(texto)
	if err != nil {
		return nil, err
	}
	if u.ConCredenciales {
		return nil, errors.New("la URL trae credenciales")
	}
	host := u.Host
	if u.IP.IsValid() && u.IP.Is6() {
		host = "[" + host + "]"
	}
	if u.Puerto != "" {
		host += ":" + u.Puerto
	}
	ruta := u.Ruta
	if ruta == "" {
		ruta = "/"
	}
	return &url.URL{Scheme: strings.TrimSuffix(u.Esquema, ":"), Host: host, Opaque: ruta}, nil
}

// clasificarError maps what net/http returns to the course's buckets. Anything not recognised is
// blamed on the service (respuesta-invalida), never on the revisor.
func clasificarError(padre, limite context.Context, err error) Consulta {
	if p, ok := destinos.EsProhibido(err); ok {
		return Consulta{Tipo: DestinoProhibido, Motivo: p.Motivo}
	}
	if padre.Err() == nil && errors.Is(limite.Err(), context.DeadlineExceeded) {
		return Consulta{Tipo: TiempoAgotado}
	}
	// Nobody there, no route, no such name: named as Node names them, so Windows's own error
	// numbers count too.
	switch nodejs.CodigoDeError(err) {
	case "ECONNREFUSED", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN":
		return Consulta{Tipo: SinConexion, Motivo: err.Error()}
	}
	return Consulta{Tipo: RespuestaInvalida, Motivo: err.Error()}
}

// Clasificar turns one probe into a stored result (lesson 4 §4.4.2).
func Clasificar(c Consulta, limiteMs int) almacen.Resultado {
	switch c.Tipo {
	case TiempoAgotado:
		return almacen.Resultado{Estado: almacen.Caido, Detalle: "tiempo agotado"}
	case SinConexion:
		return almacen.Resultado{Estado: almacen.Caido, Detalle: "sin conexión"}
	case DestinoProhibido:
		return almacen.Resultado{Estado: almacen.Caido, Detalle: "destino prohibido: " + c.Motivo}
	case Respuesta:
		codigo, ms := c.Codigo, c.Ms
		if codigo >= 400 {
			detalle := strconv.Itoa(codigo)
			if c.HayReintentarEn {
				detalle += " (reintentar en " + strconv.FormatInt(c.ReintentarEn, 10) + " s)"
			}
			return almacen.Resultado{Estado: almacen.Caido, Codigo: &codigo, Ms: &ms, Detalle: detalle}
		}
		estado := almacen.Arriba
		if float64(ms) >= float64(limiteMs)/2 {
			estado = almacen.Lento
		}
		return almacen.Resultado{Estado: estado, Codigo: &codigo, Ms: &ms, Detalle: strconv.Itoa(codigo)}
	}
	return almacen.Resultado{Estado: almacen.Caido, Detalle: "respuesta inválida"}
}

// Revisar probes once and classifies (lesson 4).
func (s *Sonda) Revisar(ctx context.Context, texto string, limiteMs int) almacen.Resultado {
	return Clasificar(s.Consultar(ctx, texto, limiteMs), limiteMs)
}

// resultado is what the retry policy sees of a probe. A forbidden destination is a missing answer
// that waiting cannot bring; the probe never reads a body, so there is no type.
func (c Consulta) resultado() reintento.Resultado {
	if c.Tipo != Respuesta {
		return reintento.Resultado{Definitivo: c.Tipo == DestinoProhibido}
	}
	return reintento.Resultado{Respondio: true, Codigo: c.Codigo, RetryAfter: c.ReintentarEn, HayRetryAfter: c.HayReintentarEn}
}

// RevisarConReintentos is a check (lesson 6 §6.4.4): the probe under the policy's loop (by default
// up to three attempts, only while the outcome may fix itself, waiting exactly what Retry-After asks
// when it asks 5 s or less, not insisting at all when it asks more, and full jitter otherwise).
// Only the last attempt is classified. If ctx ends (the revisor is shutting down) it returns early
// with ok=false and nothing should be stored.
func (s *Sonda) RevisarConReintentos(ctx context.Context, texto string, limiteMs int) (res almacen.Resultado, ok bool) {
	d, err := reintento.Correr(ctx, s.politica, func(ctx context.Context) (Consulta, reintento.Resultado) {
		c := s.Consultar(ctx, texto, limiteMs)
		return c, c.resultado()
	}, reintento.Avisos[Consulta]{})
	if err != nil {
		return almacen.Resultado{}, false
	}
	return Clasificar(d.Ultimo, limiteMs), true
}
