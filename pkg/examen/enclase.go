package examen

import (
	"bytes"
	"context"
	"cursohttp/pkg/reintento"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
)

// The wire between a student's grader (revisor comprobar cliente --clase) and the class lab
// (pkg/clase): the lab makes the run and judges it; the student's machine runs the client and
// says when each run of it starts and ends. Nothing here carries a verdict to the lab.

// Routes of the class lab for a student's grader, with the student's credential.
const (
	RutaCorridas  = "/clase/corridas"                // POST PedidoCorrida → 201 CorridaDeClase
	RutaEmpieza   = "/clase/corridas/{id}/empieza"   // POST AvisoDeAlta → 204
	RutaTermina   = "/clase/corridas/{id}/termina"   // POST AvisoDeAlta (with Resultado) → 204
	RutaVeredicto = "/clase/corridas/{id}/veredicto" // POST → 200 Veredicto
)

// PedidoCorrida asks for a grading: the seed (nil draws one), and the client's command as the
// report names it.
type PedidoCorrida struct {
	Semilla *uint64 `json:"semilla,omitempty"`
	Orden   string  `json:"orden"`
}

// CorridaDeClase is a grading the class lab made: its id, the gateway the client must use, the
// seed, each run's limit and the intents, in groups (EjecutarGrupos' order).
type CorridaDeClase struct {
	ID       string      `json:"id"`
	Pasarela string      `json:"pasarela"`
	Semilla  uint64      `json:"semilla"`
	LimiteMS int64       `json:"limite_ms"`
	Grupos   [][]Encargo `json:"grupos"`
}

// AvisoDeAlta says that one run of the client (Grupo, Vez) starts, or how it ended.
type AvisoDeAlta struct {
	Grupo     int        `json:"grupo"`
	Vez       int        `json:"vez"`
	Resultado *Resultado `json:"resultado,omitempty"`
}

// VeredictoDeClase is the class lab's judgement, as the student's grader prints it.
type VeredictoDeClase struct {
	Texto  string          `json:"texto"`  // the report as Informe.Escribir writes it
	JSON   json.RawMessage `json:"json"`   // as Informe.JSON writes it
	Codigo int             `json:"codigo"` // Informe.Codigo
}

// OpcionesClase are a grading in a class: the class lab's URL and the student's credential, the
// client as for a local grading.
type OpcionesClase struct {
	URL, Credencial string
	Orden           []string
	Entorno         []string // nil is this process's
	Semilla         *uint64
	Paralelo        int
	Lanzador        Lanzador // nil runs Orden's program
	Cliente         *http.Client
	// Cortada, when not nil, is told that the lab lost the run (it restarted) before it is
	// repeated.
	Cortada func(motivo string)
}

// ErrorClase is the class lab's refusal, or why it could not be reached: one line.
type ErrorClase struct {
	Codigo int // the lab's status; 0 when it did not answer
	Texto  string
}

func (e *ErrorClase) Error() string { return e.Texto }

// RepeticionesClase: a grading cut by a restart of the class lab is repeated this many times.
const RepeticionesClase = 2

// CorrerEnClase grades the client in a class: the class lab makes the run and judges it; this
// machine runs the client once per intent against the class's gateway and says when each run
// starts and ends. A run the lab lost (it restarted) is repeated, from the start.
func CorrerEnClase(ctx context.Context, o OpcionesClase) (*VeredictoDeClase, error) {
	lanzar, err := lanzadorDe(o.Lanzador, o.Orden, o.Entorno, "falta la orden del cliente: revisor comprobar cliente --clase URL --credencial C -- ORDEN [ARGUMENTOS…]")
	if err != nil {
		return nil, err
	}
	if o.Cliente == nil {
		o.Cliente = &http.Client{Timeout: esperaClase}
	}
	o.URL = strings.TrimRight(o.URL, "/")
	for vez := 0; ; vez++ {
		v, err := correrUnaEnClase(ctx, o, lanzar)
		var ec *ErrorClase
		if errors.As(err, &ec) && ec.Codigo == http.StatusNotFound && vez+1 < RepeticionesClase && ctx.Err() == nil {
			if o.Cortada != nil {
				o.Cortada(ec.Texto)
			}
			continue
		}
		return v, err
	}
}

// esperaClase bounds each request to the class lab, the verdict too (its judge waits for the run's last attempts and the store).
const esperaClase = 2 * time.Minute

func correrUnaEnClase(ctx context.Context, o OpcionesClase, lanzar Lanzador) (*VeredictoDeClase, error) {
	var cr CorridaDeClase
	if err := pedirConEspera(ctx, o, RutaCorridas, PedidoCorrida{Semilla: o.Semilla, Orden: strings.Join(o.Orden, " ")}, &cr); err != nil {
		return nil, err
	}
	// Each run's processes carry a mark of this machine's own (the lab's secret stays in the URLs):
	// the sweep after a run kills what that run left, and nothing of the runs beside it.
	propia := strings.ReplaceAll(uuid.NewString(), "-", "")[:16]
	for _, g := range cr.Grupos {
		for i := range g {
			g[i].Marca = propia + "-" + g[i].Nombre
		}
	}
	base := strings.Replace(RutaEmpieza, "{id}", url.PathEscape(cr.ID), 1)
	termina := strings.Replace(RutaTermina, "{id}", url.PathEscape(cr.ID), 1)
	ctx, cancelar := context.WithCancel(ctx)
	defer cancelar()
	var perdida atomic.Pointer[ErrorClase]
	// A report the lab refuses ends the run: the lab lost it (404) or never will judge it.
	fallo := func(err error) {
		var ec *ErrorClase
		if !errors.As(err, &ec) {
			ec = &ErrorClase{Texto: err.Error()}
		}
		perdida.CompareAndSwap(nil, ec)
		cancelar()
	}
	Ejecutar(ctx, cr.Grupos, o.Paralelo, time.Duration(cr.LimiteMS)*time.Millisecond, cr.Pasarela, lanzar, Avisos{
		Empieza: func(g, v int) error {
			err := pedirConEspera(ctx, o, base, AvisoDeAlta{Grupo: g, Vez: v}, nil)
			if err != nil {
				fallo(err)
			}
			return err
		},
		Termina: func(g, v int, r Resultado) {
			if err := pedirConEspera(context.WithoutCancel(ctx), o, termina, AvisoDeAlta{Grupo: g, Vez: v, Resultado: &r}, nil); err != nil {
				fallo(err)
			}
		},
	})
	if ec := perdida.Load(); ec != nil {
		return nil, ec
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var v VeredictoDeClase
	ruta := strings.Replace(RutaVeredicto, "{id}", url.PathEscape(cr.ID), 1)
	if err := pedirConEspera(ctx, o, ruta, nil, &v); err != nil {
		return nil, err
	}
	return &v, nil
}

// EsperaReconexion is how long a report waits for a class lab that stopped answering (a restart)
// before the grading gives up: a lab that comes back says whether it still has the run.
const EsperaReconexion = 30 * time.Second

// pedirConEspera POSTs to the class lab, again while it does not answer (it may be restarting),
// for EsperaReconexion at most. Every request the lab takes is safe to repeat: a new grading
// replaces the student's last, a report says the same twice, and a verdict already given is
// given again.
func pedirConEspera(ctx context.Context, o OpcionesClase, ruta string, dentro, fuera any) error {
	limite := time.Now().Add(EsperaReconexion)
	espera := 100 * time.Millisecond
	for {
		err := pedirAClase(ctx, o, http.MethodPost, ruta, dentro, fuera)
		var ec *ErrorClase
		if err == nil || !errors.As(err, &ec) || ec.Codigo != 0 || time.Now().After(limite) {
			return err
		}
		if reintento.Dormir(ctx, espera) != nil {
			return err
		}
		espera = min(2*espera, 2*time.Second)
	}
}

// pedirAClase sends one request to the class lab with the student's credential; a 2xx's JSON goes
// to fuera; anything else is an *ErrorClase with the lab's own line.
func pedirAClase(ctx context.Context, o OpcionesClase, metodo, ruta string, dentro, fuera any) error {
	var cuerpo io.Reader
	if dentro != nil {
		b, err := json.Marshal(dentro)
		if err != nil {
			return err
		}
		cuerpo = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, metodo, o.URL+ruta, cuerpo)
	if err != nil {
		return &ErrorClase{Texto: "la URL de la clase no vale: " + err.Error()}
	}
	req.Header.Set("Authorization", "Bearer "+o.Credencial)
	// Safe to repeat (pedirConEspera): with a key, net/http also repeats it by itself on a kept-alive
	// connection the lab closed (a restart), instead of failing with EOF.
	req.Header.Set("Idempotency-Key", uuid.NewString())
	if dentro != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := o.Cliente.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return &ErrorClase{Texto: fmt.Sprintf("no llego a la clase en %s (%v): ¿es esa la URL que dio el profesor?", o.URL, err)}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return &ErrorClase{Texto: "la clase cortó su respuesta: " + err.Error()}
	}
	if resp.StatusCode/100 != 2 {
		linea := strings.Join(strings.Fields(strings.ToValidUTF8(string(b), "")), " ")
		return &ErrorClase{Codigo: resp.StatusCode, Texto: fmt.Sprintf("la clase respondió %d: %s", resp.StatusCode, Recortar(linea, 300))}
	}
	if fuera != nil {
		if err := json.Unmarshal(b, fuera); err != nil {
			return &ErrorClase{Texto: "la clase respondió algo que no entiendo: " + err.Error()}
		}
	}
	return nil
}

// Recortar cuts s to its first n bytes (never in the middle of a character) and marks the cut with
// «…»: what a class lab or a grader keeps or shows of a text someone else sent.
func Recortar(s string, n int) string {
	if len(s) > n {
		return strings.ToValidUTF8(s[:n], "") + "…"
	}
	return s
}
