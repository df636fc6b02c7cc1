package main

import (
	"io"
	"testing"

	"cursohttp/internal/prueba"
	"cursohttp/pkg/cli"
	"cursohttp/pkg/ordenes/entorno"
)

// Every command takes the arguments its Use line names (issue 40, item 2).
func TestCadaOrdenTomaLoQueDiceSuUso(t *testing.T) {
	t.Parallel()
	raiz := nuevaRaiz(entorno.NuevaFabrica(io.Discard, io.Discard))
	cli.Preparar(raiz)
	prueba.ArgumentosDelUso(t, raiz)
}
