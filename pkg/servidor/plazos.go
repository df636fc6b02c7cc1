package servidor

import (
	"time"
)

// Read deadlines, kept cheaply. net/http sets a connection's read deadline three times per request
// to enforce EsperaCabeceras, EsperaLectura and EsperaOciosa, and each real deadline is a runtime
// timer added, moved or removed: make perfiles measured those timers at about a tenth of the
// revisor's CPU per request, more than anything else it adds to net/http. A counted connection
// (conexionTope) keeps such a deadline in a field instead, and a keeper goroutine per listener
// looks at the open connections every cadaPlazo: one whose deadline has passed gets a deadline in
// the past, so its pending or next read fails with a timeout, exactly as at the deadline itself.
// net/http decides every deadline as before; only its enforcement is up to cadaPlazo late. A
// deadline closer than that (or already past, as net/http sets to interrupt a read) goes to the
// connection underneath at once.
const cadaPlazo = 100 * time.Millisecond

// haceMucho is a deadline in the past: a read fails at once.
var haceMucho = time.Unix(1, 0)

// plazoDeLectura is SetReadDeadline for a counted connection.
func (c *conexionTope) plazoDeLectura(d time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if d.IsZero() {
		c.plazo.Store(0)
		if !c.aplicado {
			return nil // the usual case: nothing to undo underneath
		}
		c.aplicado = false
		return c.Conn.SetReadDeadline(d)
	}
	n := d.UnixNano()
	if n-c.t.ahora.Load() < 2*int64(cadaPlazo) {
		// Near or past: the connection's own timer, to the nanosecond.
		c.plazo.Store(0)
		c.aplicado = true
		return c.Conn.SetReadDeadline(d)
	}
	c.plazo.Store(n)
	if c.aplicado {
		c.aplicado = false
		return c.Conn.SetReadDeadline(time.Time{})
	}
	return nil
}

// vencer applies c's deadline if it has passed by ahora.
func (c *conexionTope) vencer(ahora int64) {
	if p := c.plazo.Load(); p == 0 || p > ahora {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if p := c.plazo.Load(); p != 0 && p <= ahora {
		c.plazo.Store(0)
		c.aplicado = true
		c.Conn.SetReadDeadline(haceMucho)
	}
}

// vigilar is the keeper: while the listener has connections, every cadaPlazo it applies the
// deadlines that have passed. contar starts it with the first connection; it ends with the last.
func (t *topes) vigilar() {
	tic := time.NewTicker(cadaPlazo)
	defer tic.Stop()
	var vencibles []*conexionTope
	for range tic.C {
		ahora := time.Now().UnixNano()
		t.ahora.Store(ahora)
		t.mu.Lock()
		if len(t.abiertas) == 0 {
			t.vigilando = false
			t.mu.Unlock()
			return
		}
		vencibles = vencibles[:0]
		for ct := range t.abiertas {
			if p := ct.plazo.Load(); p != 0 && p <= ahora {
				vencibles = append(vencibles, ct)
			}
		}
		t.mu.Unlock()
		for _, ct := range vencibles {
			ct.vencer(ahora)
		}
		clear(vencibles)
	}
}
