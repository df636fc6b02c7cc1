// Package bitacora is a program's log: the course's lines in a terminal, one JSON object per line
// with --log-json (the time to the microsecond and the request's trace), errors to stderr and the
// rest to stdout, and the request line every server prints. Servers and clients both use it.
package bitacora

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"time"

	"github.com/rs/zerolog"

	"cursohttp/pkg/traza"
)

// NuevoLogger builds the log a server writes: in a terminal, only the message, as the lessons show
// it; with json, one JSON object per line, with the time to the microsecond and, for a line about
// a request (logged with Ctx(r.Context())), the trace and span it belongs to. Errors go to errOut,
// the rest to out, like the course's console.error and console.log.
func NuevoLogger(out, errOut io.Writer, json bool) zerolog.Logger {
	if !json {
		// Only the message is printed: nothing else is worth computing.
		return zerolog.New(porNivel{soloMensaje{out}, soloMensaje{errOut}})
	}
	return zerolog.New(porNivel{out, errOut}).Hook(marcas{})
}

// FormatoHora is the JSON log's time: RFC 3339 with microseconds, so lines from the four programs
// sort into one timeline.
const FormatoHora = "2006-01-02T15:04:05.000000Z07:00"

// marcas adds the time and the request's trace to each JSON line. It formats into a buffer on the
// stack and writes raw JSON, so a line costs no allocation more than before.
type marcas struct{}

func (marcas) Run(e *zerolog.Event, _ zerolog.Level, _ string) {
	var b [48]byte
	hora := append(time.Now().AppendFormat(append(b[:0], '"'), FormatoHora), '"')
	e.RawJSON("time", hora)
	if c := traza.DeContexto(e.GetCtx()); c != nil {
		e.Hex("traza", c.Traza[:]).Hex("tramo", c.Tramo[:])
		if !c.Padre.Vacio() {
			e.Hex("padre", c.Padre[:])
		}
	}
}

// soloMensaje writes the message of each event and nothing else. zerolog always puts the message
// last, so it is found without parsing the whole event.
type soloMensaje struct{ w io.Writer }

func (s soloMensaje) Write(p []byte) (int, error) {
	i := bytes.LastIndex(p, []byte(`"message":`))
	if i < 0 {
		return len(p), nil
	}
	fin := bytes.LastIndexByte(p, '}')
	if fin < i {
		return len(p), nil
	}
	valor := p[i+len(`"message":`) : fin]
	var linea []byte
	if len(valor) >= 2 && valor[0] == '"' && valor[len(valor)-1] == '"' && bytes.IndexByte(valor, '\\') < 0 {
		// No escapes (the usual request line): the JSON string's bytes are the message. This runs
		// once per request, so it skips the decoder.
		linea = append(append(make([]byte, 0, len(valor)), valor[1:len(valor)-1]...), '\n')
	} else {
		var msg string
		if json.Unmarshal(valor, &msg) != nil {
			return len(p), nil
		}
		linea = []byte(msg + "\n")
	}
	// One write per line, so lines from concurrent requests never interleave.
	if _, err := s.w.Write(linea); err != nil {
		return 0, err
	}
	return len(p), nil
}

// porNivel sends errors to one writer and the rest to another.
type porNivel struct{ normal, errores io.Writer }

func (p porNivel) Write(b []byte) (int, error) { return p.normal.Write(b) }

func (p porNivel) WriteLevel(l zerolog.Level, b []byte) (int, error) {
	if l >= zerolog.ErrorLevel {
		return p.errores.Write(b)
	}
	return p.normal.Write(b)
}

// Registrar logs each request when it arrives, before any decision, as `METHOD URL` (the raw target).
func Registrar(log zerolog.Logger, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.Info().Ctx(r.Context()).Str("metodo", r.Method).Str("url", r.RequestURI).Str("remoto", r.RemoteAddr).
			Msg(r.Method + " " + r.RequestURI)
		h.ServeHTTP(w, r)
	})
}
