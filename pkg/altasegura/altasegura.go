// Package altasegura is the lesson-6 client that registers a service through the gateway and
// retries without duplicating it: one Idempotency-Key per intent, reused by every attempt.
package altasegura

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/rs/zerolog"

	"cursohttp/internal/nodejs"
	"cursohttp/pkg/curso"
	"cursohttp/pkg/eventos"
	"cursohttp/pkg/reintento"
	"cursohttp/pkg/traza"
)

// The course's values.
const (
	CredencialPorOmision = "escritura-a"
	Uso                  = "uso: alta-segura <nombre> <url> [--sin-llave]"
)

// Opciones are one run's inputs. Everything after SinLlave has a course default when left zero.
type Opciones struct {
	Nombre, URL string
	SinLlave    bool
	// LlavePorIntento is Lesson 6's broken client (defectos/llave-por-intento, Series K), wrong on
	// purpose: a new key on every attempt instead of one per intent. Every attempt is then a new
	// request for the gateway and the revisor, and the program's own lines lie as the lesson's do
	// (each wait still says «con la misma llave», the last line names the last attempt's key).
	LlavePorIntento bool
	Pasarela        string        // base URL of the gateway
	Credencial      string        // Bearer token
	Limite          time.Duration // per attempt; see LimiteDeEntorno
	LimiteTexto     string        // how the limit is printed ("2000"); derived from Limite when empty
	// Politica is the retry policy, its jitter draw and sleep included; the zero value means
	// reintento.PoliticaAlta(). What the program prints about its waits comes from it.
	Politica reintento.Politica

	Salida  io.Writer
	Cliente *http.Client
	Llave   func() string    // a fresh key; uuid.NewString when nil
	Ahora   func() time.Time // for Retry-After dates; time.Now when nil

	// Simular is the X-Simular the attempts carry; "perder-primera", the course's, when empty.
	Simular string
	// Log, when set (--log-json), receives each line the program says as a JSON event carrying
	// the intent's trace (an attempt's line, the attempt's span); nothing then goes to Salida.
	Log *zerolog.Logger
	// Panel receives an event per attempt and one for the intent (--panel).
	Panel *eventos.Emisor
}

// LimiteDeEntorno reads ALTA_LIMITE_MS as the course does (`Number(x) > 0`, else 2000): it returns
// the limit and the number as JavaScript would print it in "tiempo agotado: N ms".
func LimiteDeEntorno(valor string, hay bool) (time.Duration, string) {
	if hay {
		// Below 1e12: Infinity, which the course would take, is no limit at all; the program needs one.
		if n, ok := nodejs.LeerNumero(valor); ok && n > 0 && n < 1e12 {
			return time.Duration(n * float64(time.Millisecond)), nodejs.Numero(n)
		}
	}
	return reintento.LimiteIntentoAlta, "2000"
}

// Intento is the outcome of one attempt: an answer, or why there was none.
type Intento struct {
	Codigo        int
	Cuerpo        string // trimmed, as printed
	ReintentarEn  int64  // Retry-After in seconds, when HayReintentar
	HayReintentar bool
	SinRespuesta  string // non-empty when no answer arrived: "ECONNREFUSED", "tiempo agotado: 2000 ms"…

	traza  traza.Contexto // the attempt's span, child of the intent's
	inicio time.Time
	dur    time.Duration
}

// resultado is what the retry policy sees of an attempt. The type is read from every answer's body
// (the policy wants it of a 409: the same status is "still in progress" or "that name exists").
func (i Intento) resultado() reintento.Resultado {
	if i.SinRespuesta != "" {
		return reintento.Resultado{}
	}
	return reintento.Resultado{Respondio: true, Codigo: i.Codigo, Type: TypeDelCuerpo(i.Cuerpo),
		RetryAfter: i.ReintentarEn, HayRetryAfter: i.HayReintentar}
}

// TypeDelCuerpo is JSON.parse(cuerpo).type when the body is a JSON object whose type is a string,
// whatever the Content-Type says (the course reads it that way).
func TypeDelCuerpo(cuerpo string) string {
	v, err := nodejs.DecodificarJSON([]byte(cuerpo))
	if err != nil {
		return ""
	}
	o, ok := v.(nodejs.Objeto)
	if !ok {
		return ""
	}
	t, _ := o.Texto("type")
	return t
}

// Cuerpo is the registration's body, the same bytes on every attempt: JSON.stringify({nombre, url}).
func Cuerpo(nombre, url string) []byte {
	return nodejs.CodificarJSON(nodejs.Objeto{{Nombre: "nombre", Valor: nombre}, {Nombre: "url", Valor: url}})
}

func (o *Opciones) completar() {
	if o.Pasarela == "" {
		o.Pasarela = curso.URLPasarela
	}
	if o.Credencial == "" {
		o.Credencial = CredencialPorOmision
	}
	if o.Limite <= 0 {
		o.Limite, o.LimiteTexto = reintento.LimiteIntentoAlta, ""
	}
	if o.LimiteTexto == "" {
		o.LimiteTexto = nodejs.Numero(float64(o.Limite) / float64(time.Millisecond))
	}
	if o.Salida == nil {
		o.Salida = os.Stdout
	}
	if o.Cliente == nil {
		o.Cliente = &http.Client{}
	}
	if o.Llave == nil {
		o.Llave = uuid.NewString
	}
	if o.Politica.Intentos == 0 {
		o.Politica = reintento.PoliticaAlta()
	}
	if o.Ahora == nil {
		o.Ahora = time.Now
	}
	if o.Simular == "" {
		o.Simular = SimularPorOmision
	}
}

// SimularPorOmision is the X-Simular the course's program sends: the gateway loses the first answer.
const SimularPorOmision = "perder-primera"

// decir prints one of the program's lines, or, with Log, writes it as a JSON event in the trace
// ctx carries, with campos' fields.
func (o *Opciones) decir(ctx context.Context, campos func(*zerolog.Event), linea string) {
	if o.Log == nil {
		io.WriteString(o.Salida, linea+"\n")
		return
	}
	e := o.Log.Info().Ctx(ctx)
	if campos != nil {
		campos(e)
	}
	e.Msg(linea)
}

// Correr runs the registration and returns the exit code: 0 only when it was made (a 2xx), 1 when
// it was not or nobody knows, 130 when ctx ends first (Ctrl+C): it then stops quietly, as the
// course's program dies of the signal, without printing the attempt it cut short.
func Correr(ctx context.Context, o Opciones) int {
	o.completar()

	// One key per intent, not per attempt: every retry of this registration carries the same one.
	llave := ""
	como := "sin llave (podría duplicar)"
	if !o.SinLlave {
		llave = o.Llave()
		como = "con la misma llave"
	}
	cuerpo := Cuerpo(o.Nombre, o.URL)

	// One trace per intent: every attempt is a span of it, and the gateway, the revisor and the
	// bench continue it.
	intencion := traza.Nueva()
	ctxIntencion := traza.EnContexto(ctx, &intencion)
	inicio := time.Now()
	n := 0
	d, err := reintento.Correr(ctx, o.Politica, func(ctx context.Context) (Intento, reintento.Resultado) {
		if o.LlavePorIntento && !o.SinLlave {
			llave = o.Llave() // the defect: the key is invented again at every turn of the loop
		}
		n++
		i := o.intentar(ctx, llave, cuerpo, intencion.Hijo())
		return i, i.resultado()
	}, reintento.Avisos[Intento]{
		Intento: func(n int, i Intento) {
			o.avisarIntento(n, i, llave)
			campos := func(e *zerolog.Event) {
				e.Int("intento", n).Float64("ms", eventos.Milisegundos(i.dur))
				if i.SinRespuesta == "" {
					e.Int("codigo", i.Codigo)
				}
			}
			ctx := traza.EnContexto(ctx, &i.traza)
			if i.SinRespuesta != "" {
				o.decir(ctx, campos, fmt.Sprintf("intento %d: sin respuesta (%s)", n, i.SinRespuesta))
				return
			}
			o.decir(ctx, campos, fmt.Sprintf("intento %d: %d %s", n, i.Codigo, i.Cuerpo))
		},
		Espera: func(_ int, e reintento.Espera) {
			if e.PorRetryAfter {
				s := int64(e.Duracion / time.Second)
				o.decir(ctxIntencion, nil, fmt.Sprintf("  el servidor pide esperar %d s (Retry-After); espero %d s y reintento %s", s, s, como))
				return
			}
			o.decir(ctxIntencion, nil, fmt.Sprintf("  espero entre 0 y %d ms y reintento %s", e.Techo.Milliseconds(), como))
		},
	})
	if err != nil {
		o.avisarIntencion(intencion, inicio, llave, n, "interrumpida (Ctrl+C)")
		return curso.Interrumpido
	}

	pendiente := "no se sabe si el alta ocurrió"
	if !o.SinLlave {
		pendiente = "repetir más tarde con la llave " + llave + " es seguro"
	}
	ultimo := d.Ultimo
	codigo, resultado := 1, ""
	switch d.Fin {
	case reintento.Agotado:
		resultado = fmt.Sprintf("se agotaron los %d intentos sin una respuesta definitiva; %s", o.Politica.Intentos, pendiente)
	case reintento.SinInsistir:
		resultado = fmt.Sprintf("el servidor pidió esperar %d s (Retry-After), más de los %d s que este programa espera; no se reintenta; %s",
			ultimo.ReintentarEn, int64(o.Politica.TopeRetryAfter/time.Second), pendiente)
	case reintento.Definitivo:
		if ultimo.SinRespuesta == "" && ultimo.Codigo >= 200 && ultimo.Codigo < 300 {
			codigo = 0
			break
		}
		if ultimo.SinRespuesta == "" {
			duda := ""
			// Earlier attempts were all in doubt: one of them may have created what now exists.
			if o.SinLlave && d.Intentos > 1 {
				duda = "; sin llave no se sabe si lo que ya existe lo creó un intento anterior"
			}
			resultado = fmt.Sprintf("el servidor respondió %d: repetir lo mismo no lo arregla%s", ultimo.Codigo, duda)
		}
	}
	if resultado != "" {
		o.decir(ctxIntencion, nil, resultado)
	}
	if codigo == 0 {
		o.avisarIntencion(intencion, inicio, llave, d.Intentos, fmt.Sprintf("hecha: %d", ultimo.Codigo))
	} else {
		if resultado == "" {
			resultado = "sin respuesta definitiva"
		}
		o.avisarIntencion(intencion, inicio, llave, d.Intentos, resultado)
	}
	return codigo
}

// avisarIntento sends the panel one attempt's event.
func (o *Opciones) avisarIntento(n int, i Intento, llave string) {
	if o.Panel == nil {
		return
	}
	ev := eventos.Evento{Programa: Programa, Tipo: eventos.Intento, Inicio: i.inicio, Ms: eventos.Milisegundos(i.dur),
		Metodo: http.MethodPost, Ruta: "/servicios", Llave: llave, Codigo: i.Codigo, Intento: n, Falla: o.Simular}
	if i.SinRespuesta != "" {
		ev.Resultado = "sin respuesta (" + i.SinRespuesta + ")"
	}
	ev.EnTraza(i.traza)
	o.Panel.Enviar(ev)
}

// avisarIntencion sends the panel the intent's event: the trace's root, with how it ended.
func (o *Opciones) avisarIntencion(tc traza.Contexto, inicio time.Time, llave string, intentos int, resultado string) {
	if o.Panel == nil {
		return
	}
	ev := eventos.Evento{Programa: Programa, Tipo: eventos.Intencion, Inicio: inicio, Ms: eventos.Milisegundos(time.Since(inicio)),
		Metodo: http.MethodPost, Ruta: "/servicios", Llave: llave, Nombre: o.Nombre, Intento: intentos, Resultado: resultado}
	ev.EnTraza(tc)
	o.Panel.Enviar(ev)
}

// Programa is the name the program's events carry.
const Programa = "alta-segura"

// intentar makes one attempt as span tc, bounded as a whole (connection, headers and body) by the
// limit.
func (o *Opciones) intentar(ctx context.Context, llave string, cuerpo []byte, tc traza.Contexto) Intento {
	inicio := time.Now()
	i := o.intentarUnaVez(ctx, llave, cuerpo, tc)
	i.traza, i.inicio, i.dur = tc, inicio, time.Since(inicio)
	return i
}

func (o *Opciones) intentarUnaVez(ctx context.Context, llave string, cuerpo []byte, tc traza.Contexto) Intento {
	ctx, cancelar := context.WithTimeoutCause(ctx, o.Limite, errTiempoAgotado)
	defer cancelar()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimSuffix(o.Pasarela, "/")+"/servicios", bytes.NewReader(cuerpo))
	if err != nil {
		return Intento{SinRespuesta: "TypeError: fetch failed"}
	}
	// Not rewindable: Go's Transport would otherwise re-send a request carrying Idempotency-Key by
	// itself on a dead kept-alive connection, and one printed attempt would be two requests.
	req.GetBody = nil
	req.Header["Authorization"] = []string{"Bearer " + o.Credencial}
	req.Header["Content-Type"] = []string{"application/json"}
	req.Header["X-Simular"] = []string{o.Simular}
	req.Header[traza.Cabecera] = []string{tc.Valor()}
	if llave != "" {
		req.Header["Idempotency-Key"] = []string{llave}
	}
	resp, err := o.Cliente.Do(req)
	if err != nil {
		return o.sinRespuesta(ctx, err)
	}
	defer resp.Body.Close()
	datos, err := io.ReadAll(resp.Body)
	if err != nil {
		return o.sinRespuesta(ctx, err)
	}
	i := Intento{Codigo: resp.StatusCode, Cuerpo: nodejs.Recortar(nodejs.Texto(datos))}
	if v := resp.Header.Values("Retry-After"); len(v) > 0 {
		i.ReintentarEn, i.HayReintentar = reintento.SegundosDeEspera(strings.Join(v, ", "), o.Ahora())
	}
	return i
}

var errTiempoAgotado = errors.New("tiempo agotado")

func (o *Opciones) sinRespuesta(ctx context.Context, err error) Intento {
	if errors.Is(context.Cause(ctx), errTiempoAgotado) {
		return Intento{SinRespuesta: "tiempo agotado: " + o.LimiteTexto + " ms"}
	}
	return Intento{SinRespuesta: nodejs.CodigoDeError(err)}
}
