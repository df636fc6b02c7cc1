package main

import (
	"os"
	"testing"

	"cursohttp/internal/prueba"
)

// Every server, connection and timer the tests start ends with them. Run on another machine of a
// class network by TestClaseEnLaRed, this binary is the intruder instead (intrusoSiLoEs).
func TestMain(m *testing.M) {
	intrusoSiLoEs()
	os.Exit(prueba.SinFugas(m, (*testing.M).Run))
}
