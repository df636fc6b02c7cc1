package prueba

import (
	"context"
	"sync"
	"time"
)

// Reloj is a clock that moves only when the test says so or when someone sleeps on it: Dormir moves
// it on at once and records the sleep, so minutes of waiting or pacing take no real time and timing
// programs print exact numbers. Safe for concurrent use.
type Reloj struct {
	mu       sync.Mutex
	ahora    time.Time
	dormidas []time.Duration
}

// NuevoReloj is a clock standing at t.
func NuevoReloj(t time.Time) *Reloj { return &Reloj{ahora: t} }

// Ahora is the clock's time; it fits every Reloj/Ahora option of the suite.
func (r *Reloj) Ahora() time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ahora
}

// Avanzar moves the clock on by d.
func (r *Reloj) Avanzar(d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ahora = r.ahora.Add(d)
}

// Dormir "sleeps" d: unless ctx has ended, it records d and moves the clock on by it (a negative d
// by nothing). It returns ctx's error, as a real sleep cut short would.
func (r *Reloj) Dormir(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.dormidas = append(r.dormidas, d)
	r.ahora = r.ahora.Add(max(d, 0))
	return nil
}

// Dormidas lists every sleep asked of Dormir, in order.
func (r *Reloj) Dormidas() []time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]time.Duration(nil), r.dormidas...)
}
