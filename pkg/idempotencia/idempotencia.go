// Package idempotencia remembers, per credential and Idempotency-Key, which registration a key
// started and the response it got, so a repeated POST /servicios is answered without creating twice.
//
// Idempotency-Key is not a standard: it is an expired IETF draft
// (draft-ietf-httpapi-idempotency-key-header-07) that the revisor documents as its own behaviour.
//
// Lifetime and bounds, beyond the course (whose keys live as long as the process):
//   - a record expires Vigencia after its key was reserved (measured from the first use, strictly
//     greater than, as the course's exercise 3 does); an expired record is as if absent, so the
//     request is served as new. A record still in progress expires too.
//   - a reservation is a lease: it holds its key for Plazo at most, the longest a registration may
//     run (the revisor stops its work by then). A reservation past its Plazo created nothing and
//     never will, so it is as if released: its key is free and it no longer counts in progress. A
//     request that hung, a store that could not be told to release, a process that died: none
//     leaves a key reserved for longer than a registration can take.
//   - Tomar hands each reservation a Ficha, and Grabar and Soltar act only on the reservation they
//     name: a request whose reservation lapsed and was taken by a retry can neither record over the
//     retry's work nor release its key.
//   - each credential keeps at most TopePorCredencial records and the store at most Tope. When a
//     new key would pass either bound, expired records are dropped first; if still at a bound, the
//     credential's own oldest COMPLETED record is evicted (its key then behaves as if it had expired
//     early). One credential's keys never evict another's: a flood of keys from one credential
//     costs only that credential its older keys. Records in progress are never evicted; if the
//     credential has none completed to give up, the new key is refused with Lleno and nothing is
//     created. The defaults (4 credentials × 2,000 < 10,000) keep the course's credentials from
//     ever reaching Lleno.
//   - a credential holds at most EnCursoPorCredencial records in progress at once: one more is
//     refused with DemasiadasEnCurso, so requests hanging on a slow DNS lookup cannot pile up
//     reservations.
//   - the store keeps a SHA-256 of credential and key, not the key text, so a record costs the
//     recorded response plus a few dozen bytes however long the key header was.
//
// The three bounds are store semantics (a count per credential, a total, a count in progress per
// credential), so a database-backed store can keep them with the same answers.
package idempotencia

import (
	"bytes"
	"container/list"
	"crypto/sha256"
	"encoding/hex"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"cursohttp/internal/nodejs"
	"cursohttp/pkg/respuesta"
	"cursohttp/pkg/topes"
)

// The defaults for Opciones are pkg/topes' (topes.VigenciaLlaves, topes.Llaves,
// topes.LlavesPorCredencial, topes.LlavesEnCurso, topes.PlazoLlave). The key's lease: a
// registration runs for well under a second (the course's save pause is half of one); ten allow a
// slow DNS answer and a database that has to reconnect.

// Opciones configure a Registro. A bound larger than the one containing it is lowered to it.
type Opciones struct {
	Vigencia             time.Duration    // how long a key is remembered; 0 means topes.VigenciaLlaves
	Tope                 int              // records kept in all; 0 means topes.Llaves
	TopePorCredencial    int              // records kept per credential; 0 means topes.LlavesPorCredencial
	EnCursoPorCredencial int              // records in progress per credential; 0 means topes.LlavesEnCurso
	Plazo                time.Duration    // how long a reservation holds its key unanswered; 0 means topes.PlazoLlave
	Reloj                func() time.Time // time.Now when nil; tests pass a fake clock
}

// Grabada is a recorded response: what a repeat of the same request gets again, byte for byte.
type Grabada struct {
	Codigo    int
	Cabeceras []respuesta.Cabecera // Location and ETag, as they were when the work finished
	Cuerpo    []byte               // the body as sent, final newline included
}

// Tipo says what to do with a request that carries a key.
type Tipo int

const (
	// Nueva: the key was free (or expired) and is now reserved for this request; do the work,
	// then Grabar on success or Soltar if nothing was created.
	Nueva Tipo = iota
	// Repetir: the same request already finished; answer Turno.Grabada again.
	Repetir
	// OtraPeticion: the key was used with a different body (422 llave-reutilizada).
	OtraPeticion
	// EnCurso: the original request with this key is still running (409 llave-en-curso).
	EnCurso
	// Lleno: the store is at a bound and the credential has no completed record to give up for the
	// new key, which cannot be reserved. The revisor answers it as EnCurso (409 llave-en-curso),
	// which a client already knows to retry after a while.
	Lleno
	// DemasiadasEnCurso: the credential already has EnCursoPorCredencial requests in progress; the
	// key is not reserved (429 demasiadas-altas-en-curso).
	DemasiadasEnCurso
)

func (t Tipo) String() string {
	switch t {
	case Nueva:
		return "nueva"
	case Repetir:
		return "repetir"
	case OtraPeticion:
		return "otra-peticion"
	case EnCurso:
		return "en-curso"
	case Lleno:
		return "lleno"
	case DemasiadasEnCurso:
		return "demasiadas-en-curso"
	}
	return "desconocido"
}

// Turno is Tomar's answer. Grabada is set only for Repetir, Reserva only for Nueva.
type Turno struct {
	Tipo    Tipo
	Grabada Grabada
	Reserva Reserva
}

// Reserva names one reservation of a key, as Tomar handed it out with Nueva: what the request that
// holds it passes to Grabar or Soltar.
type Reserva struct {
	Credencial, Llave string
	// Ficha tells this reservation of the key from any later one.
	Ficha int64
	// Plazo is how long it holds the key: the request must have recorded or released it by then.
	Plazo time.Duration
}

type registro struct {
	id      [32]byte
	huella  string
	desde   time.Time
	ficha   int64
	grabada *Grabada // nil while in progress
	cuenta  *cuenta
	lugar   *list.Element // in cuenta.orden
}

// cuenta is one credential's records, by reservation time, oldest first.
type cuenta struct {
	nombre  string
	orden   list.List
	enCurso int
}

// Registro is the key store. The zero value is not usable: build it with Nuevo.
type Registro struct {
	vigencia          time.Duration
	tope              int
	topePorCredencial int
	enCursoMaximo     int
	plazo             time.Duration
	reloj             func() time.Time

	mu      sync.Mutex
	porId   map[[32]byte]*registro
	cuentas map[string]*cuenta
	fichas  int64
}

// Normalizadas returns o with every zero field at its default and every bound at most the one
// containing it: the values a store configured by o keeps.
func (o Opciones) Normalizadas() Opciones {
	if o.Vigencia <= 0 {
		o.Vigencia = topes.VigenciaLlaves
	}
	if o.Tope <= 0 {
		o.Tope = topes.Llaves
	}
	if o.TopePorCredencial <= 0 {
		o.TopePorCredencial = topes.LlavesPorCredencial
	}
	if o.EnCursoPorCredencial <= 0 {
		o.EnCursoPorCredencial = topes.LlavesEnCurso
	}
	if o.Plazo <= 0 {
		o.Plazo = topes.PlazoLlave
	}
	o.TopePorCredencial = min(o.TopePorCredencial, o.Tope)
	o.EnCursoPorCredencial = min(o.EnCursoPorCredencial, o.TopePorCredencial)
	if o.Reloj == nil {
		o.Reloj = time.Now
	}
	return o
}

// Nuevo builds an empty store.
func Nuevo(o Opciones) *Registro {
	o = o.Normalizadas()
	return &Registro{
		vigencia:          o.Vigencia,
		tope:              o.Tope,
		topePorCredencial: o.TopePorCredencial,
		enCursoMaximo:     o.EnCursoPorCredencial,
		plazo:             o.Plazo,
		reloj:             o.Reloj,
		porId:             make(map[[32]byte]*registro),
		cuentas:           make(map[string]*cuenta),
	}
}

// Vigencia returns how long a key is remembered.
func (r *Registro) Vigencia() time.Duration { return r.vigencia }

// Tope returns the most records the store keeps.
func (r *Registro) Tope() int { return r.tope }

// TopePorCredencial returns the most records one credential keeps.
func (r *Registro) TopePorCredencial() int { return r.topePorCredencial }

// EnCursoPorCredencial returns the most records one credential has in progress at once.
func (r *Registro) EnCursoPorCredencial() int { return r.enCursoMaximo }

// Plazo returns how long a reservation holds its key.
func (r *Registro) Plazo() time.Duration { return r.plazo }

// Huella is the fingerprint of a parsed request body: the SHA-256 hex of JSON.stringify(valor).
// Whitespace does not count, member order does (valor comes from nodejs.DecodificarJSON, which keeps
// it), and a member added with its default value makes another fingerprint — as in the course.
func Huella(valor any) string {
	b := bytes.NewBuffer(make([]byte, 0, 256)) // a registration's body fits: one allocation
	nodejs.AgregarJSON(b, valor)
	suma := sha256.Sum256(b.Bytes())
	return hex.EncodeToString(suma[:])
}

// Identidad is what a store keeps of credential and key: the SHA-256 of both joined by a NUL, which
// cannot appear in a credential name or a header value, so two different pairs never give the same
// text.
func Identidad(credencial, llave string) [32]byte {
	h := sha256.New()
	h.Write([]byte(credencial))
	h.Write([]byte{0})
	h.Write([]byte(llave))
	var id [32]byte
	h.Sum(id[:0])
	return id
}

// vencido says whether reg is as if absent: expired, or a reservation past its Plazo.
func (r *Registro) vencido(reg *registro, ahora time.Time) bool {
	edad := ahora.Sub(reg.desde)
	return edad > r.vigencia || (reg.grabada == nil && edad > r.plazo)
}

func (r *Registro) quitar(reg *registro) {
	c := reg.cuenta
	c.orden.Remove(reg.lugar)
	if reg.grabada == nil {
		c.enCurso--
	}
	if c.orden.Len() == 0 {
		delete(r.cuentas, c.nombre)
	}
	delete(r.porId, reg.id)
}

// Olvidar forgets every record of the credentials whose name ends in sufijo (a class team's,
// «@EQUIPO»), in progress or recorded, and returns how many went.
func (r *Registro) Olvidar(sufijo string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for nombre, c := range r.cuentas {
		if !strings.HasSuffix(nombre, sufijo) {
			continue
		}
		for e := c.orden.Front(); e != nil; {
			sig := e.Next()
			r.quitar(e.Value.(*registro))
			n++
			e = sig
		}
	}
	return n
}

// Tomar decides what to do with a request carrying llave and a body with fingerprint huella.
// Lookup and reservation happen under one lock: of many simultaneous requests with a free key,
// exactly one gets Nueva.
func (r *Registro) Tomar(credencial, llave, huella string) Turno {
	id := Identidad(credencial, llave)
	r.mu.Lock()
	defer r.mu.Unlock()
	ahora := r.reloj()
	if reg, ok := r.porId[id]; ok {
		if !r.vencido(reg, ahora) {
			switch {
			case reg.huella != huella:
				return Turno{Tipo: OtraPeticion}
			case reg.grabada == nil:
				return Turno{Tipo: EnCurso}
			default:
				return Turno{Tipo: Repetir, Grabada: copiar(*reg.grabada)}
			}
		}
		// An expired key is forgotten: the request is served as new.
		r.quitar(reg)
	}
	if r.alTope(r.cuentas[credencial]) {
		r.quitarVencidos(ahora)
		if c := r.cuentas[credencial]; r.alTope(c) && !r.cederLaMasVieja(c) {
			return Turno{Tipo: Lleno}
		}
	}
	if c := r.cuentas[credencial]; c != nil && c.enCurso >= r.enCursoMaximo {
		r.quitarCaducadas(c, ahora)
	}
	// Dropping records may have dropped the credential's entry with its last one.
	c := r.cuentas[credencial]
	if c != nil && c.enCurso >= r.enCursoMaximo {
		return Turno{Tipo: DemasiadasEnCurso}
	}
	if c == nil {
		c = &cuenta{nombre: credencial}
		r.cuentas[credencial] = c
	}
	r.fichas++
	reg := &registro{id: id, huella: huella, desde: ahora, ficha: r.fichas, cuenta: c}
	reg.lugar = c.orden.PushBack(reg)
	c.enCurso++
	r.porId[id] = reg
	return Turno{Tipo: Nueva, Reserva: Reserva{Credencial: credencial, Llave: llave, Ficha: reg.ficha, Plazo: r.plazo}}
}

// alTope says whether one more record for the credential of c (nil: none yet) would pass a bound.
func (r *Registro) alTope(c *cuenta) bool {
	return len(r.porId) >= r.tope || (c != nil && c.orden.Len() >= r.topePorCredencial)
}

// quitarVencidos drops every expired record and every reservation past its Plazo.
func (r *Registro) quitarVencidos(ahora time.Time) {
	for _, c := range r.cuentas {
		// Oldest first: the expired ones end at the first that is not.
		for e := c.orden.Front(); e != nil; {
			reg := e.Value.(*registro)
			if ahora.Sub(reg.desde) <= r.vigencia {
				break
			}
			e = e.Next()
			r.quitar(reg)
		}
		r.quitarCaducadas(c, ahora)
	}
}

// quitarCaducadas drops c's reservations past their Plazo: they hold a bound that their requests,
// gone or stopped, no longer need. Only a credential at a bound pays for the walk.
func (r *Registro) quitarCaducadas(c *cuenta, ahora time.Time) {
	for e := c.orden.Front(); e != nil && c.enCurso > 0; {
		reg := e.Value.(*registro)
		e = e.Next()
		if reg.grabada == nil && ahora.Sub(reg.desde) > r.plazo {
			r.quitar(reg)
		}
	}
}

// cederLaMasVieja evicts c's oldest completed record, and says whether there was one.
func (r *Registro) cederLaMasVieja(c *cuenta) bool {
	if c == nil {
		return false
	}
	for e := c.orden.Front(); e != nil; e = e.Next() {
		if reg := e.Value.(*registro); reg.grabada != nil {
			r.quitar(reg)
			return true
		}
	}
	return false
}

// Grabar records g as the response of reservation res; later repeats get it back. It says whether
// res still held its key (false: nothing is recorded).
func (r *Registro) Grabar(res Reserva, g Grabada) bool {
	return r.Concluir(res, func() Grabada { return g })
}

// Concluir runs obra and records the response it returns for reservation res, in one step, if res
// still holds its key; otherwise obra does not run. It says whether it ran. A store that creates
// something with the key (almacen.Memoria) does it inside obra, so nothing is created under a
// reservation that lapsed and may already be another request's.
func (r *Registro) Concluir(res Reserva, obra func() Grabada) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	reg := r.reservada(res)
	if reg == nil {
		return false
	}
	g := copiar(obra())
	reg.grabada = &g
	reg.cuenta.enCurso--
	return true
}

// reservada returns the record of res if res is still in progress and holds its key. Call with mu
// held. A reservation past its Plazo that nobody has taken still holds it: its request may finish
// late, as long as no other has started.
func (r *Registro) reservada(res Reserva) *registro {
	reg, ok := r.porId[Identidad(res.Credencial, res.Llave)]
	if !ok || reg.grabada != nil || reg.ficha != res.Ficha {
		return nil
	}
	return reg
}

// Soltar forgets reservation res, whose request failed without creating anything, so a corrected
// retry with the same key can try again. A recorded response, or a later reservation of the key,
// stays.
func (r *Registro) Soltar(res Reserva) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if reg := r.reservada(res); reg != nil {
		r.quitar(reg)
	}
}

// VigenciaDeEntorno reads REVISOR_VIGENCIA_MS (milliseconds, a positive integer). ok=false for
// anything else, so a typo is reported instead of silently meaning "forever" (the course's NaN) or
// "never" (the course's empty value, 0 ms: a key that lasts nothing protects nothing).
func VigenciaDeEntorno(valor string) (time.Duration, bool) {
	ms, err := strconv.ParseInt(strings.TrimSpace(valor), 10, 64)
	if err != nil || ms <= 0 || ms > int64(math.MaxInt64/time.Millisecond) {
		return 0, false
	}
	return time.Duration(ms) * time.Millisecond, true
}

// Cuantos returns how many records the store holds (expired ones not yet dropped included).
func (r *Registro) Cuantos() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.porId)
}

// copiar keeps recorded responses immutable whatever callers do with the slices they hold.
func copiar(g Grabada) Grabada {
	g.Cabeceras = append([]respuesta.Cabecera(nil), g.Cabeceras...)
	g.Cuerpo = append([]byte(nil), g.Cuerpo...)
	return g
}
