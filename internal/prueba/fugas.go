package prueba

import (
	"fmt"
	"net/http"
	"os"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// SinFugas runs a package's tests with correr (m.Run, or pgtest.Main, which also stops the
// package's PostgreSQL) and, if they passed, fails the run when a goroutine they started is still
// running: a server, connection, timer or child process left behind by the code under test or by a
// test. A goroutine still winding down gets PlazoDeEspera to end. ignorar names goroutines that are
// not ours to end (each caller says whose they are). From TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(prueba.SinFugas(m, (*testing.M).Run)) }
func SinFugas(m *testing.M, correr func(*testing.M) int, ignorar ...goleak.Option) int {
	codigo := correr(m)
	if codigo != 0 {
		return codigo
	}
	// Tests that ask with http.Get leave the default client's keep-alive connections idle (for up to
	// 90 s): closing them is the client's own clean-up, not a leak of the servers'.
	http.DefaultTransport.(*http.Transport).CloseIdleConnections()
	limite := time.Now().Add(PlazoDeEspera)
	for {
		err := goleak.Find(ignorar...) // each call retries for about a second
		if err == nil {
			return 0
		}
		if time.Now().After(limite) {
			fmt.Fprintf(os.Stderr, "goroutines que siguen vivas %v después de las pruebas: %v\n", PlazoDeEspera, err)
			return 1
		}
	}
}
