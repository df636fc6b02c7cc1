package token

import (
	"strconv"
	"sync"
	"time"
)

// Issue 34, item 3: every refusal was a log line of about 125 bytes, so one local client sending
// refusals as fast as it could wrote more than a gigabyte an hour. Refusals are summed up per
// source: the first few of an interval in full, then, at its end, one line with how many followed.
// At most TopeEnterasTotal full lines and TopeFuentes+1 sums per interval: about 3.5 MB an hour
// at 150 bytes a line, whatever the clients do.
const (
	// IntervaloRechazos is how often a source's refusals are summed up in one line.
	IntervaloRechazos = 10 * time.Second
	// TopeEnteras: refusals of one source written in full per interval (a person trying by hand
	// reads each of theirs); the rest are summed up.
	TopeEnteras = 8
	// TopeEnterasTotal: refusals written in full per interval, all sources together.
	TopeEnterasTotal = 32
	// TopeFuentes bounds the sources followed at once; the refusals of any other are summed up
	// together, so a client that changes its address (127.0.0.0/8 has 16 million) gains nothing.
	TopeFuentes = 32
)

// Rechazos decides which refusals a server writes in full and sums up the rest. Safe for
// concurrent use.
type Rechazos struct {
	intervalo time.Duration
	resumir   func(Suma)
	mu        sync.Mutex
	fuentes   map[string]*Suma // sources followed this interval
	otras     Suma             // refusals from sources past TopeFuentes
	enteras   int              // refusals written in full this interval
	reloj     *time.Timer
	parado    bool
}

// Suma is one source's refusals in an interval that were not written in full: how many, and the
// reason of the last. Fuente is "" for the sources past TopeFuentes.
type Suma struct {
	Fuente, Ultimo string
	N              int
	enteras        int // written in full this interval
}

// NuevosRechazos sums refusals up every intervalo (IntervaloRechazos when 0) through resumir,
// which is called from a timer's goroutine, one Suma at a time.
func NuevosRechazos(intervalo time.Duration, resumir func(Suma)) *Rechazos {
	if intervalo <= 0 {
		intervalo = IntervaloRechazos
	}
	return &Rechazos{intervalo: intervalo, resumir: resumir, fuentes: map[string]*Suma{}}
}

// Anotar counts one refusal from fuente (the client's address) for motivo; true when it is to be
// written in full: one of the first TopeEnteras of that source in the interval, within
// TopeEnterasTotal for all.
func (r *Rechazos) Anotar(fuente, motivo string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.reloj == nil && !r.parado {
		r.reloj = time.AfterFunc(r.intervalo, r.vaciar)
	}
	s, ok := r.fuentes[fuente]
	if !ok {
		if len(r.fuentes) >= TopeFuentes {
			r.otras.N++
			r.otras.Ultimo = motivo
			return false
		}
		s = &Suma{Fuente: fuente}
		r.fuentes[fuente] = s
	}
	if s.enteras < TopeEnteras && r.enteras < TopeEnterasTotal {
		s.enteras++
		r.enteras++
		return true
	}
	s.N++
	s.Ultimo = motivo
	return false
}

// vaciar writes the interval's sums and starts the next. A source quiet for a whole interval is
// forgotten, which makes room for another.
func (r *Rechazos) vaciar() {
	var sumas []Suma
	r.mu.Lock()
	for f, s := range r.fuentes {
		switch {
		case s.N == 0 && s.enteras == 0:
			delete(r.fuentes, f)
		case s.N > 0:
			sumas = append(sumas, *s)
		}
		s.N, s.enteras = 0, 0
	}
	r.enteras = 0
	if r.otras.N > 0 {
		sumas = append(sumas, r.otras)
		r.otras = Suma{}
	}
	r.reloj = nil
	if len(r.fuentes) > 0 && !r.parado {
		r.reloj = time.AfterFunc(r.intervalo, r.vaciar)
	}
	r.mu.Unlock()
	for _, s := range sumas {
		r.resumir(s)
	}
}

// Parar stops the sums (a server that stops): what was not summed up yet is not written.
func (r *Rechazos) Parar() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.parado = true
	if r.reloj != nil {
		r.reloj.Stop()
		r.reloj = nil
	}
}

// Texto is a Suma's line, after quien's name: «panel: 2499 rechazos más de 127.0.0.1 en 10 s (el
// último: …)».
func (s Suma) Texto(quien string, intervalo time.Duration) string {
	if intervalo <= 0 {
		intervalo = IntervaloRechazos
	}
	desde := "de " + s.Fuente
	if s.Fuente == "" {
		desde = "de otras fuentes"
	}
	return quien + ": " + strconv.Itoa(s.N) + " rechazos más " + desde + " en " + strconv.FormatFloat(intervalo.Seconds(), 'f', -1, 64) +
		" s (el último: " + s.Ultimo + ")"
}
