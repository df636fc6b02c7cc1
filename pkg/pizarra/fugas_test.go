package pizarra

import (
	"os"
	"testing"

	"cursohttp/internal/prueba"
)

// Every server, connection and timer the tests start ends with them.
func TestMain(m *testing.M) { os.Exit(prueba.SinFugas(m, (*testing.M).Run)) }
