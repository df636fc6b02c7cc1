package servidor

import (
	"context"
	"fmt"
	"io"
	"net/http"

	"github.com/rs/zerolog"

	"cursohttp/pkg/bitacora"
	"cursohttp/pkg/observacion"
)

// Programa is one server as its start-up needs it: the three servers' commands and the bench's
// subcommands (mentira, hostil, panel) each fill one and call Correr.
type Programa struct {
	// Nombre is how its lines call it: «revisor», «laboratorio mentira» (the busy port's sentence,
	// the caps' lines, the lab's state file).
	Nombre   string
	Opciones Opciones
	Out, Err io.Writer
	// Peticiones logs each request's line («GET /servicios») before anything is decided, as the
	// revisor and the bench do; the course's gateway, fake gateway and hostile service print none.
	Peticiones bool
	// Observar applies --log-json's trace, --log-detalle and --panel (the lab's three servers).
	Observar bool
	// Armar builds the handler with the server's log and observation, before the socket is opened,
	// so that a usage error comes before a busy port. cerrar, when not nil, runs once the server
	// stopped serving.
	Armar func(log zerolog.Logger, obs observacion.Observador) (h http.Handler, cerrar func(), err error)
	// Inicio writes the start-up line, and any line that must follow it, once the socket listens
	// on addr.
	Inicio func(log zerolog.Logger, addr string)
}

// Correr is every server's start-up and life: the log, the handler, listening (with the caps and,
// under the lab controller, its state file), the start-up line, serving until ctx ends (Ctrl+C,
// SIGTERM), and a graceful shutdown. Every line is written before it returns. Its error is one
// line: a busy port says what to do (PuertoOcupado).
func Correr(ctx context.Context, p Programa) error {
	o := p.Opciones
	// One write per line, as a terminal expects: batching the log bought about 5 % of a request's
	// CPU, below the 10 % a hand-written mechanism must buy to stay (docs/rendimiento.md).
	log := bitacora.NuevoLogger(p.Out, p.Err, o.LogJSON)
	o.Log = log
	var obs observacion.Observador
	if p.Observar {
		var soltar func()
		obs, soltar = o.Observar(p.Nombre, log)
		defer soltar()
	}
	h, cerrar, err := p.Armar(log, obs)
	if err != nil {
		return err
	}
	if cerrar != nil {
		defer cerrar()
	}
	if p.Peticiones {
		h = bitacora.Registrar(log, h)
	}
	if p.Observar {
		h = obs.Envolver(h)
	}
	ln, err := Escuchar(p.Nombre, o)
	if err != nil {
		return err
	}
	p.Inicio(log, ln.Addr().String())
	if err := Servir(ctx, ln, Nuevo(h), log); err != nil {
		return fmt.Errorf("%s: %w", p.Nombre, err)
	}
	return nil
}
