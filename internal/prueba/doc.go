// Package prueba holds what the suite's tests share and the programs never link: a buffer the
// server's goroutines write while the test reads it, a clock the test moves, and running a command
// in-process (its exit code and streams, a server until its start-up line). It imports nothing of
// the suite's, so any package's own tests can use it; the HTTP server with the suite's settings is
// in servidortest. Only _test.go files import these packages: `go list -deps ./cmd/...` shows no
// "testing" (make check asserts it).
package prueba
