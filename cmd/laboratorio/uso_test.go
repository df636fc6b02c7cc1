package main

import (
	"io"
	"testing"

	"cursohttp/internal/prueba"
	"cursohttp/pkg/cli"
)

// Every command takes the arguments its Use line names (issue 40, item 2: «laboratorio clase
// iniciar --lista …» and «laboratorio clase agregar "Eva Pérez"» answered «sobra …»).
func TestCadaOrdenTomaLoQueDiceSuUso(t *testing.T) {
	t.Parallel()
	raiz := nuevaRaiz(flujos{in: nil, out: io.Discard, err: io.Discard})
	cli.Preparar(raiz)
	prueba.ArgumentosDelUso(t, raiz)
}
