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

	"cursohttp/pkg/curso"
	"cursohttp/pkg/jsonjs"
	"cursohttp/pkg/nodejs"
	"cursohttp/pkg/reintento"
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
	v, err := jsonjs.Decodificar([]byte(cuerpo))
	if err != nil {
		return ""
	}
	o, ok := v.(jsonjs.Objeto)
	if !ok {
		return ""
	}
	t, _ := o.Texto("type")
	return t
}

// Cuerpo is the registration's body, the same bytes on every attempt: JSON.stringify({nombre, url}).
func Cuerpo(nombre, url string) []byte {
	return jsonjs.Codificar(jsonjs.Objeto{{Nombre: "nombre", Valor: nombre}, {Nombre: "url", Valor: url}})
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

	d, err := reintento.Correr(ctx, o.Politica, func(ctx context.Context) (Intento, reintento.Resultado) {
		if o.LlavePorIntento && !o.SinLlave {
			llave = o.Llave() // the defect: the key is invented again at every turn of the loop
		}
		i := o.intentar(ctx, llave, cuerpo)
		return i, i.resultado()
	}, reintento.Avisos[Intento]{
		Intento: func(n int, i Intento) {
			if i.SinRespuesta != "" {
				fmt.Fprintf(o.Salida, "intento %d: sin respuesta (%s)\n", n, i.SinRespuesta)
				return
			}
			fmt.Fprintf(o.Salida, "intento %d: %d %s\n", n, i.Codigo, i.Cuerpo)
		},
		Espera: func(_ int, e reintento.Espera) {
			if e.PorRetryAfter {
				s := int64(e.Duracion / time.Second)
				fmt.Fprintf(o.Salida, "  el servidor pide esperar %d s (Retry-After); espero %d s y reintento %s\n", s, s, como)
				return
			}
			fmt.Fprintf(o.Salida, "  espero entre 0 y %d ms y reintento %s\n", e.Techo.Milliseconds(), como)
		},
	})
	if err != nil {
		return curso.Interrumpido
	}

	pendiente := "no se sabe si el alta ocurrió"
	if !o.SinLlave {
		pendiente = "repetir más tarde con la llave " + llave + " es seguro"
	}
	ultimo := d.Ultimo
	switch d.Fin {
	case reintento.Agotado:
		fmt.Fprintf(o.Salida, "se agotaron los %d intentos sin una respuesta definitiva; %s\n", o.Politica.Intentos, pendiente)
	case reintento.SinInsistir:
		fmt.Fprintf(o.Salida, "el servidor pidió esperar %d s (Retry-After), más de los %d s que este programa espera; no se reintenta; %s\n",
			ultimo.ReintentarEn, int64(o.Politica.TopeRetryAfter/time.Second), pendiente)
	case reintento.Definitivo:
		if ultimo.SinRespuesta == "" && ultimo.Codigo >= 200 && ultimo.Codigo < 300 {
			return 0
		}
		if ultimo.SinRespuesta == "" {
			duda := ""
			// Earlier attempts were all in doubt: one of them may have created what now exists.
			if o.SinLlave && d.Intentos > 1 {
				duda = "; sin llave no se sabe si lo que ya existe lo creó un intento anterior"
			}
			fmt.Fprintf(o.Salida, "el servidor respondió %d: repetir lo mismo no lo arregla%s\n", ultimo.Codigo, duda)
		}
	}
	return 1
}

// intentar makes one attempt, bounded as a whole (connection, headers and body) by the limit.
func (o *Opciones) intentar(ctx context.Context, llave string, cuerpo []byte) Intento {
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
	req.Header["X-Simular"] = []string{"perder-primera"}
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
