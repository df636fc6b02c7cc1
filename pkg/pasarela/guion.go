package pasarela

import (
	"net/http"
	"strconv"

	"cursohttp/pkg/problema"
	"cursohttp/pkg/respuesta"
)

// Guion is a fault schedule written by a program rather than by the request: given as
// Opciones.Guion, it alone picks each request's fault (nil: none) and X-Simular and --simular are
// ignored. The grader (revisor comprobar cliente) scripts each intent's attempts with it, so a
// client cannot choose its own faults.
type Guion func(r *http.Request) Falla

// Cuerpo is the request's body as the gateway holds it before forwarding, when it holds it whole
// (completo false: larger than topes.Retenido, or chunked past it). A script's fault reads it to tell
// whose request this is.
func (q *Peticion) Cuerpo() (cuerpo []byte, completo bool) { return q.retenido, q.completo }

// Llego says whether the request went on to the revisor.
func (q *Peticion) Llego() bool { return q.reenviada }

// Cliente is the status the client got, once the fault answered; 0 when it got none.
func (q *Peticion) Cliente() int { return q.cliente }

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

func (f Responder) Aplicar(q *Peticion) {
	t := problema.Buscar(f.Clave)
	q.decir("pasarela: respondo " + strconv.Itoa(t.Status) + " " + string(f.Clave) + " sin reenviar la petición; el revisor no la ve")
	q.cliente, q.resultado = t.Status, "nunca llegó al revisor"
	var opts []problema.Opcion
	for _, c := range f.Cabeceras {
		opts = append(opts, problema.ConCabecera(c.Nombre, c.Valor))
	}
	responder(q.w, nil, func() { problema.Escribir(q.w, q.r, f.Clave, f.Detail, opts...) })
}

// Colgar is a fault for scripts: the gateway does not forward and closes the connection with a
// reset, without a byte of answer, as when nothing is listening any more: nobody answers at all.
type Colgar struct{}

func (Colgar) String() string { return "colgar" }

func (Colgar) Aplicar(q *Peticion) {
	q.decir("pasarela: cuelgo sin reenviar ni responder; el revisor no la ve")
	q.resultado = "nunca llegó al revisor"
	c, _, err := http.NewResponseController(q.w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	Reiniciar(c)
}

// Respuesta is the revisor's answer body as the gateway holds it (its first topes.Respuesta bytes);
// nil before Reenviar or when none came.
func (q *Peticion) Respuesta() []byte { return q.leido }
