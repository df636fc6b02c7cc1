package prueba

import (
	"testing"
	"time"
)

// Hasta waits until cond holds, asking every few milliseconds, and fails the test if it still does
// not after plazo: for a test that waits for something it cannot be told about (a row a server
// wrote, a port another process opened), without a guessed sleep. que says what was awaited.
func Hasta(t testing.TB, plazo time.Duration, que string, cond func() bool) {
	t.Helper()
	limite := time.Now().Add(plazo)
	espera := time.Millisecond
	for !cond() {
		if time.Now().After(limite) {
			t.Fatalf("pasaron %s y no %s", plazo, que)
		}
		time.Sleep(espera)
		espera = min(2*espera, 50*time.Millisecond)
	}
}
