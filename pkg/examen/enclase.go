package examen

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	"cursohttp/pkg/curso"
	"cursohttp/pkg/montaje"
	"cursohttp/pkg/reintento"
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

// CorridaDeClase is a grading the class lab made: its id, the class gateway, the pase that binds
// a connection to this grading there (pkg/montaje: the student's machine opens every connection
// with it), the seed, each run's limit and the intents, in groups (EjecutarGrupos' order).
type CorridaDeClase struct {
	ID       string      `json:"id"`
	Pasarela string      `json:"pasarela"`
	Pase     string      `json:"pase"`
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

// The class lab marks what it answers a grader: CabeceraClase on every answer (so a URL that is
// not a class lab's is told apart at once), and CabeceraRepetir on one that throws the grading
// away whole (the lab lost it, or its own store or revisor failed during it): the grader repeats
// it from the start, and nothing of it counts.
const (
	CabeceraClase   = "Cursohttp-Clase"
	CabeceraRepetir = "Cursohttp-Repetir"
)

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
	// PuertosLibres: the class gateway is served to the client on a free port of 127.0.0.1 (its
	// PASARELA_URL says which) instead of the course's 18082.
	PuertosLibres bool
	// Desde, when set, is the local address this machine's connections to the class gateway leave
	// from (a load generator's students, each a machine of its own).
	Desde string
	// Cortada, when not nil, is told why a grading is thrown away before it is repeated.
	Cortada func(motivo string)
}

// ErrorClase is the class lab's refusal, or why it could not be reached: one line.
type ErrorClase struct {
	Codigo  int // the lab's status; 0 when it did not answer
	Texto   string
	Repetir bool // the lab threw the grading away: repeat it whole (CabeceraRepetir)
	deClase bool // the answer is the class lab's (CabeceraClase)
}

func (e *ErrorClase) Error() string { return e.Texto }

// RepeticionesClase: a grading the lab throws away (it restarted, its store failed) is repeated
// this many times at most.
const RepeticionesClase = 3

// CorrerEnClase grades the client in a class: the class lab makes the run and judges it; this
// machine serves the class gateway to the client where the contract says the gateway is
// (montaje.Relevo: 127.0.0.1:18082, or a free port), runs the client once per intent and says when
// each run starts and ends. A grading the lab throws away is repeated, from the start.
func CorrerEnClase(ctx context.Context, o OpcionesClase) (*VeredictoDeClase, error) {
	lanzar, err := lanzadorDe(o.Lanzador, o.Orden, o.Entorno, "falta la orden del cliente: revisor comprobar cliente --clase URL --credencial C -- ORDEN [ARGUMENTOS…]")
	if err != nil {
		return nil, err
	}
	if o.Cliente == nil {
		o.Cliente = &http.Client{Timeout: esperaClase}
	}
	// The board's own URL (…:18084/clase) is the same lab: only scheme and host count.
	if u, err := url.Parse(o.URL); err == nil && u.Scheme != "" && u.Host != "" {
		o.URL = u.Scheme + "://" + u.Host
	}
	o.URL = strings.TrimRight(o.URL, "/")
	puertos := montaje.Puertos{Pasarela: curso.PuertoPasarela}
	if o.PuertosLibres {
		puertos.Pasarela = 0
	}
	puerta, err := montaje.Nuevo(montaje.Opciones{Relevo: &montaje.Relevo{Desde: o.Desde}, Puertos: puertos})
	if err != nil {
		return nil, errorDeMontaje(err)
	}
	defer puerta.Cerrar()
	for vez := 0; ; vez++ {
		v, err := correrUnaEnClase(ctx, o, lanzar, puerta, vez == 0)
		var ec *ErrorClase
		if errors.As(err, &ec) && ec.Repetir && vez+1 < RepeticionesClase && ctx.Err() == nil {
			if o.Cortada != nil {
				o.Cortada(ec.Texto)
			}
			// A lab whose store failed may need a moment: the repeat waits a little more each time.
			if reintento.Dormir(ctx, time.Duration(vez+1)*time.Second) != nil {
				return nil, ctx.Err()
			}
			continue
		}
		return v, err
	}
}

// esperaClase bounds each request to the class lab, the verdict too (its judge waits for the run's last attempts and the store).
const esperaClase = 2 * time.Minute

func correrUnaEnClase(ctx context.Context, o OpcionesClase, lanzar Lanzador, puerta *montaje.Montaje, primera bool) (*VeredictoDeClase, error) {
	var cr CorridaDeClase
	espera := EsperaReconexion
	if primera {
		// A wrong URL is said at once, not after a wait meant for a lab that restarts.
		espera = EsperaPrimera
	}
	if err := pedirConEspera(ctx, o, RutaCorridas, PedidoCorrida{Semilla: o.Semilla, Orden: strings.Join(o.Orden, " ")}, &cr, espera); err != nil {
		if primera {
			return nil, primerContacto(o.URL, err)
		}
		return nil, err
	}
	gw, err := url.Parse(cr.Pasarela)
	if err != nil || gw.Host == "" {
		return nil, &ErrorClase{Texto: "la clase dio una pasarela que no entiendo: «" + Recortar(cr.Pasarela, 100) + "»"}
	}
	puerta.Apuntar(gw.Host, cr.Pase)
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
	// A report the lab refuses ends the run: the lab lost it or never will judge it.
	fallo := func(err error) {
		var ec *ErrorClase
		if !errors.As(err, &ec) {
			ec = &ErrorClase{Texto: err.Error()}
		}
		perdida.CompareAndSwap(nil, ec)
		cancelar()
	}
	Ejecutar(ctx, cr.Grupos, o.Paralelo, time.Duration(cr.LimiteMS)*time.Millisecond, puerta.Pasarela, lanzar, Avisos{
		Empieza: func(g, v int) error {
			err := pedirConEspera(ctx, o, base, AvisoDeAlta{Grupo: g, Vez: v}, nil, EsperaReconexion)
			if err != nil {
				fallo(err)
			}
			return err
		},
		Termina: func(g, v int, r Resultado) {
			if err := pedirConEspera(context.WithoutCancel(ctx), o, termina, AvisoDeAlta{Grupo: g, Vez: v, Resultado: &r}, nil, EsperaReconexion); err != nil {
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
	if err := pedirConEspera(ctx, o, ruta, nil, &v, EsperaReconexion); err != nil {
		return nil, err
	}
	return &v, nil
}

// primerContacto says what a first answer that is not the class lab's means.
func primerContacto(u string, err error) error {
	var ec *ErrorClase
	if !errors.As(err, &ec) || ec.deClase || ec.Codigo == 0 {
		return err
	}
	return &ErrorClase{Codigo: ec.Codigo, Texto: fmt.Sprintf("en %s no responde el laboratorio de la clase (%s): --clase lleva %s", u, ec.Texto, URLDeLaClase)}
}

// URLDeLaClase is what --clase takes, as a grader says it when it was given something else.
var URLDeLaClase = "la URL que dio el profesor, la de la pizarra de la clase (http://IP-DEL-PROFESOR:" + strconv.Itoa(curso.PuertoPanel) + ")"

// EsperaReconexion is how long a report waits for a class lab that stopped answering (a restart)
// before the grading gives up: a lab that comes back says whether it still has the run.
const EsperaReconexion = 30 * time.Second

// EsperaPrimera is how long the very first request waits for a class lab that does not answer: a
// mistyped port is said within it.
const EsperaPrimera = 2 * time.Second

// pedirConEspera POSTs to the class lab, again while it does not answer (it may be restarting) or
// answers that it is busy (503: its store restarting), for espera at most. Every request the lab
// takes is safe to repeat: a new grading replaces the student's last, a report says the same
// twice, and a verdict already given is given again.
func pedirConEspera(ctx context.Context, o OpcionesClase, ruta string, dentro, fuera any, espera time.Duration) error {
	limite := time.Now().Add(espera)
	pausa := 100 * time.Millisecond
	for {
		err := pedirAClase(ctx, o, http.MethodPost, ruta, dentro, fuera)
		var ec *ErrorClase
		if err == nil || !errors.As(err, &ec) || ec.Repetir || time.Now().After(limite) {
			return err
		}
		if ec.Codigo != 0 && !(ec.deClase && ec.Codigo == http.StatusServiceUnavailable) {
			return err
		}
		if reintento.Dormir(ctx, min(pausa, time.Until(limite))) != nil {
			return err
		}
		pausa = min(2*pausa, 2*time.Second)
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
		return &ErrorClase{Texto: fmt.Sprintf("no llego a la clase en %s (%v): --clase lleva %s", o.URL, err, URLDeLaClase)}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return &ErrorClase{Texto: "la clase cortó su respuesta: " + err.Error()}
	}
	deClase := resp.Header.Get(CabeceraClase) != ""
	linea := Recortar(strings.Join(strings.Fields(strings.ToValidUTF8(string(b), "")), " "), 300)
	switch {
	case !deClase:
		return &ErrorClase{Codigo: resp.StatusCode, Texto: fmt.Sprintf("respondió %d: %s", resp.StatusCode, linea)}
	case resp.StatusCode/100 != 2:
		return &ErrorClase{Codigo: resp.StatusCode, Texto: fmt.Sprintf("la clase respondió %d: %s", resp.StatusCode, linea),
			Repetir: resp.Header.Get(CabeceraRepetir) != "", deClase: true}
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
