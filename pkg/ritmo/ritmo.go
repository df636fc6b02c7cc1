// Package ritmo lets a client pace itself by the server's RateLimit fields, so that it waits before
// it would be refused instead of collecting 429s, and backs off with jitter when it is refused anyway.
package ritmo

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"cursohttp/pkg/limitador"
	"cursohttp/pkg/reintento"
)

// Opciones configures a Marcapasos. Zero fields take the course's numbers and the real clock.
type Opciones struct {
	// Tope is the longest wait the client accepts, as the course caps Retry-After at 5 s: when the
	// server asks for more, Esperar does not sleep and returns *EsperaExcesiva. 0 means
	// reintento.TopeRetryAfter.
	Tope time.Duration
	// Base and TopeJitter shape the full jitter added after a 429 (ceiling min(TopeJitter,
	// Base·2^n) for the n-th 429 in a row). 0 means reintento.BaseRetroceso and TopeRetroceso.
	Base, TopeJitter time.Duration

	Ahora  func() time.Time                           // nil: time.Now
	Dormir func(context.Context, time.Duration) error // nil: a timer that ctx can cancel
	Azar   func() float64                             // values in [0, 1); nil: math/rand/v2
}

// Marcapasos remembers what the last responses said about the quota and says how long to wait
// before the next request. Call Esperar before each request and Anotar after each response. It is
// safe for concurrent use, though its pacing assumes one request at a time.
type Marcapasos struct {
	o Opciones

	mu sync.Mutex
	// conocido: restantes and hasta come from the server. Until hasta, no more than restantes
	// requests fit (the draft's r and t); after it, nothing is known and the client just goes.
	conocido  bool
	restantes int64
	hasta     time.Time
	holgura   time.Duration // jitter drawn at the last 429, added to the wait for hasta
	seguidos  int           // 429s in a row, for the jitter's ceiling
}

// Nuevo builds a Marcapasos that has seen no response yet.
func Nuevo(o Opciones) *Marcapasos {
	if o.Tope <= 0 {
		o.Tope = reintento.TopeRetryAfter
	}
	if o.Base <= 0 {
		o.Base = reintento.BaseRetroceso
	}
	if o.TopeJitter <= 0 {
		o.TopeJitter = reintento.TopeRetroceso
	}
	if o.Ahora == nil {
		o.Ahora = time.Now
	}
	if o.Dormir == nil {
		o.Dormir = reintento.Dormir
	}
	return &Marcapasos{o: o}
}

// EsperaExcesiva says the server asked for a longer wait than the client's cap. The request was not
// sent: going early would only earn another 429, so, as the course does with a long Retry-After,
// the client reports it and the caller decides.
type EsperaExcesiva struct {
	Pide, Tope time.Duration
}

func (e *EsperaExcesiva) Error() string {
	// What is asked is what is left of the server's whole seconds, so it is rounded up as the
	// server rounded it; the cap is the client's own number and is written as given.
	pide := (e.Pide + time.Second - 1) / time.Second
	return fmt.Sprintf("el servidor pide esperar %d s y el tope es %s s", pide, strconv.FormatFloat(e.Tope.Seconds(), 'f', -1, 64))
}

// Anotar reads one response. A 429 means no quota until its Retry-After (or, without one, the
// RateLimit t) plus full jitter, so that many refused clients do not come back together; Retry-After
// wins over RateLimit, as the draft says. Any other response with a well-formed RateLimit field
// replaces what was known; one without it (another route, a server that does not send it) changes
// nothing. A malformed field is ignored as a whole, as the draft asks.
func (m *Marcapasos) Anotar(codigo int, h http.Header) {
	ahora := m.o.Ahora()
	limites, hayLimites := leerLimites(h)
	m.mu.Lock()
	defer m.mu.Unlock()
	if codigo == http.StatusTooManyRequests {
		m.seguidos++
		espera, _ := reinicio(limites, h, 0)
		if v := valores(h, "Retry-After"); len(v) > 0 {
			if s, ok := reintento.SegundosDeEspera(strings.Join(v, ", "), ahora); ok {
				espera = time.Duration(s) * time.Second
			}
		}
		m.conocido, m.restantes, m.hasta = true, 0, ahora.Add(espera)
		m.holgura = reintento.EsperaConJitter(m.seguidos, m.o.Base, m.o.TopeJitter, m.o.Azar)
		return
	}
	m.seguidos, m.holgura = 0, 0
	if !hayLimites {
		return
	}
	// Several policies may apply at once (a burst and a daily one): the one with the least left binds
	// first, and until the latest of those binding ones comes back no more than that fits.
	r := limites[0].Restantes
	for _, l := range limites[1:] {
		r = min(r, l.Restantes)
	}
	t, ok := reinicio(limites, h, r)
	if !ok {
		// r without t (and no w to fall back on): nothing says when quota comes back; the next
		// 429's Retry-After will.
		m.conocido = false
		return
	}
	m.conocido, m.restantes, m.hasta = true, r, ahora.Add(t)
}

// valores finds a field whatever the case of its key: a client's headers come canonicalised
// ("Ratelimit"), but a header map built by hand or by a recorder may keep the draft's spelling.
func valores(h http.Header, nombre string) []string {
	if v := h.Values(nombre); len(v) > 0 {
		return v
	}
	for k, v := range h {
		if strings.EqualFold(k, nombre) {
			return v
		}
	}
	return nil
}

func leerLimites(h http.Header) ([]limitador.Limite, bool) {
	v := valores(h, "RateLimit")
	if len(v) == 0 {
		return nil, false
	}
	limites, err := limitador.LeerRateLimit(strings.Join(v, ", "))
	if err != nil || len(limites) == 0 {
		return nil, false
	}
	return limites, true
}

// reinicio is the latest t among the policies with r restantes. A policy without t falls back on
// its window w from RateLimit-Policy, which is safe for every algorithm: a whole window later the
// quota is back. ok=false if some binding policy says neither.
func reinicio(limites []limitador.Limite, h http.Header, r int64) (time.Duration, bool) {
	var ventanas map[string]time.Duration
	if v := valores(h, "RateLimit-Policy"); len(v) > 0 {
		if ps, err := limitador.LeerRateLimitPolicy(strings.Join(v, ", ")); err == nil {
			ventanas = make(map[string]time.Duration, len(ps))
			for _, p := range ps {
				if p.ConVentana {
					ventanas[p.Nombre] = p.Ventana
				}
			}
		}
	}
	var t time.Duration
	for _, l := range limites {
		if l.Restantes != r {
			continue
		}
		switch w, hayW := ventanas[l.Politica]; {
		case l.ConReinicio:
			t = max(t, l.Reinicio)
		case hayW:
			t = max(t, w)
		default:
			return 0, false
		}
	}
	return t, true
}

func (m *Marcapasos) espera(ahora time.Time) (time.Duration, bool) {
	fin := m.hasta.Add(m.holgura)
	if !m.conocido || m.restantes > 0 || !ahora.Before(fin) {
		return 0, true
	}
	pide := max(m.hasta.Sub(ahora), 0)
	if pide > m.o.Tope {
		return pide, false
	}
	// The jitter may be trimmed to stay within Tope, never below what the server asked.
	return min(fin.Sub(ahora), m.o.Tope), true
}

// Esperar takes a turn for the next request: it sleeps until the request would not be refused and
// returns how long it slept. If the server asked for more than Tope it does not sleep and returns
// *EsperaExcesiva; if ctx ends during the sleep it returns ctx's error.
func (m *Marcapasos) Esperar(ctx context.Context) (time.Duration, error) {
	m.mu.Lock()
	d, insistir := m.espera(m.o.Ahora())
	if !insistir {
		m.mu.Unlock()
		return 0, &EsperaExcesiva{Pide: d, Tope: m.o.Tope}
	}
	if d == 0 && m.conocido && m.restantes > 0 {
		m.restantes-- // this request spends one of the announced ones
	}
	m.mu.Unlock()
	if err := m.o.Dormir(ctx, d); err != nil {
		return d, err
	}
	return d, nil
}
