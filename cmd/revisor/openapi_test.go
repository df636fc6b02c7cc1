package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"cursohttp/pkg/documentoapi"
	"cursohttp/pkg/revisor"
	"cursohttp/pkg/variantes"
)

// revisor openapi prints the final revisor's document, --leccion 4 Lesson 4's, and refuses a
// lesson the revisor has no version of.
func TestOrdenOpenAPI(t *testing.T) {
	t.Parallel()
	for args, want := range map[string][]byte{"openapi": documentoapi.Documento(), "openapi --leccion 6": documentoapi.Documento(), "openapi --leccion 4": revisor.Documento(variantes.Eleccion{Leccion: 4})} {
		var out, errs bytes.Buffer
		if codigo := run(context.Background(), strings.Fields(args), strings.NewReader(""), &out, &errs); codigo != 0 || !bytes.Equal(out.Bytes(), want) {
			t.Errorf("revisor %s: código %d, %d bytes (se esperaban %d) %s", args, codigo, out.Len(), len(want), errs.String())
		}
	}
	var out, errs bytes.Buffer
	if codigo := run(context.Background(), []string{"openapi", "--leccion", "5"}, strings.NewReader(""), &out, &errs); codigo != 2 ||
		errs.String() != "revisor openapi: --leccion: el revisor tiene versiones de las lecciones 4, 6 y 7, no de «5»\n" {
		t.Errorf("revisor openapi --leccion 5: código %d, %q", codigo, errs.String())
	}
}
