package pasarela

import (
	"net/http"
	"strconv"

	"cursohttp/pkg/problema"
	"cursohttp/pkg/respuesta"
)

// Guion is a fault schedule written by a program rather than by the request: given as
// Opciones.Guion, it alone picks every request's fault, and X-Simular and --simular are ignored.
// It gets the request and its body as the gateway holds it before forwarding (the first
// topes.Retenido bytes), and answers the request's Paso. The grader (revisor comprobar cliente)
// scripts each intent's attempts with it, so a client cannot choose its own faults, and takes each
// attempt's record from it.
type Guion func(r *http.Request, cuerpo []byte) Paso

// Paso is what a script makes of one request: its fault (nil forwards it untouched) and, when the
// script wants the request's record, where the gateway hands it once the request ended: the same
// record the ledger keeps, written once, by the gateway.
type Paso struct {
	Falla  Falla
	Anotar func(Asiento)
}

// Responder is a fault for scripts: the gateway answers the catalogue's problem Clave (its status,
// application/problem+json, the Spanish title) with Detail and the extra headers Cabeceras, as the
// revisor would, without forwarding: the revisor never sees the request. A 409 llave-en-curso, a
// 503 or 429 with Retry-After, a 400 that repeating cannot fix.
type Responder struct {
	Clave     problema.Clave
	Detail    string
	Cabeceras []respuesta.Cabecera
}

func (f Responder) String() string {
	return "responder:" + strconv.Itoa(problema.Buscar(f.Clave).Status) + ":" + string(f.Clave)
}

func (f Responder) Aplicar(q *Peticion) Desenlace {
	t := problema.Buscar(f.Clave)
	q.decir("pasarela: respondo " + strconv.Itoa(t.Status) + " " + string(f.Clave) + " sin reenviar la petición; el revisor no la ve")
	d := Desenlace{Cliente: t.Status, Resultado: "nunca llegó al revisor"}
	if t.Status >= 400 && t.Status < 500 {
		d.Type = t.Type
	}
	var opts []problema.Opcion
	for _, c := range f.Cabeceras {
		opts = append(opts, problema.ConCabecera(c.Nombre, c.Valor))
		if http.CanonicalHeaderKey(c.Nombre) == "Retry-After" {
			d.RetryAfter, _ = strconv.Atoi(c.Valor)
		}
	}
	responder(q.w, nil, func() { problema.Escribir(q.w, q.r, f.Clave, f.Detail, opts...) })
	return d
}

// Colgar is a fault for scripts: the gateway does not forward and closes the connection with a
// reset, without a byte of answer, as when nothing is listening any more: nobody answers at all.
type Colgar struct{}

func (Colgar) String() string { return "colgar" }

func (Colgar) Aplicar(q *Peticion) Desenlace {
	q.decir("pasarela: cuelgo sin reenviar ni responder; el revisor no la ve")
	return q.reiniciar(Desenlace{Resultado: "nunca llegó al revisor"})
}

// Respuesta is the revisor's answer body as the gateway holds it (its first topes.Respuesta bytes);
// nil before Reenviar or when none came.
func (q *Peticion) Respuesta() []byte { return q.leido }
