package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"cursohttp/pkg/problema"
)

// The acceptance, in the terminal: what the 409 llave-en-curso means, what to do, and
// where the lesson teaches it; a code gives every type of that code; a name the revisor has not
// is a usage error.
func TestOrdenExplicar(t *testing.T) {
	t.Parallel()
	var out, errs bytes.Buffer
	if codigo := run(context.Background(), []string{"explicar", "llave-en-curso"}, strings.NewReader(""), &out, &errs); codigo != 0 {
		t.Fatalf("código %d: %s", codigo, errs.String())
	}
	for _, want := range []string{"llave-en-curso — 409 Esa Idempotency-Key sigue en curso\n", "Qué pasó\n", "Qué hacer\nLa tabla de decisión (lección 7): esperar",
		"¿Repetir con la misma Idempotency-Key? Sí", "  HTTP/1.1 409 Conflict\n", "  lección 6, §6.6.4 «Una misma llave, tres desenlaces»\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("revisor explicar llave-en-curso no dice %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	de409 := 0
	for _, c := range problema.DelRevisor() {
		if problema.Buscar(c).Status == 409 {
			de409++
		}
	}
	if codigo := run(context.Background(), []string{"explicar", "409"}, strings.NewReader(""), &out, &errs); codigo != 0 ||
		strings.Count(out.String(), " — 409 ") != de409 || de409 < 3 {
		t.Errorf("revisor explicar 409: código %d\n%s", codigo, out.String())
	}
	errs.Reset()
	if codigo := run(context.Background(), []string{"explicar", "constructor"}, strings.NewReader(""), &out, &errs); codigo != 2 ||
		errs.String() != "revisor explicar: el revisor no tiene el type «constructor»; «revisor explicar --lista» los muestra\n" {
		t.Errorf("revisor explicar constructor: código %d, %q", codigo, errs.String())
	}
	// A mistyped name gets the closest ones, as a mistyped order does (issue 42).
	errs.Reset()
	if codigo := run(context.Background(), []string{"explicar", "llave-en-cursoo"}, strings.NewReader(""), &out, &errs); codigo != 2 ||
		errs.String() != "revisor explicar: el revisor no tiene el type «llave-en-cursoo»; ¿querías decir «llave-en-curso»? «revisor explicar --lista» los muestra\n" {
		t.Errorf("revisor explicar llave-en-cursoo: código %d, %q", codigo, errs.String())
	}
	errs.Reset()
	if codigo := run(context.Background(), []string{"--puero", "1"}, strings.NewReader(""), &out, &errs); codigo != 2 ||
		errs.String() != "revisor: no existe la opción --puero; ¿querías decir --puerto? «revisor --help» muestra las opciones\n" {
		t.Errorf("revisor --puero: código %d, %q", codigo, errs.String())
	}
}
