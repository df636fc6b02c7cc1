package prueba

import (
	"testing"
	"time"
)

// PlazoDeEspera bounds Esperar: far longer than anything a test waits for takes on a loaded
// machine, so reaching it means the event never came.
const PlazoDeEspera = 30 * time.Second

// Esperar waits until cond holds, checking it again every few milliseconds, and fails the test
// naming que if it still does not after PlazoDeEspera. It is for an event the test cannot be told
// of directly (another process's state, a file, a count); where a channel, a log line or a port
// can say it, wait on that instead.
func Esperar(t testing.TB, que string, cond func() bool) {
	t.Helper()
	limite := time.Now().Add(PlazoDeEspera)
	for pausa := time.Millisecond; !cond(); pausa = min(2*pausa, 50*time.Millisecond) {
		if time.Now().After(limite) {
			t.Fatalf("no pasó en %v: %s", PlazoDeEspera, que)
		}
		time.Sleep(pausa)
	}
}
