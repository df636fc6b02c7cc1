package comprobar

import (
	"bytes"
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"cursohttp/internal/prueba"
	"cursohttp/internal/prueba/ordenestest"
	"cursohttp/pkg/variantes"
)

// idemRevisor is our revisor, the program pedido asks for, saving in 300 ms: long enough for the
// third check to arrive while the original is in progress.
func idemRevisor(t *testing.T, pedido variantes.Pedido) string {
	t.Helper()
	base, _ := ordenestest.RevisorVariante(t, 300*time.Millisecond, pedido)
	return base
}

// S-J: the correct revisor passes the five checks.
func TestComprobarIdempotencia(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	if codigo := ComprobarIdempotencia(context.Background(), idemRevisor(t, variantes.Pedido{}), &out); codigo != 0 {
		t.Fatalf("código %d:\n%s", codigo, out.String())
	}
	want := `ok    misma llave y mismo cuerpo: la misma respuesta, un solo servicio
ok    misma llave con otro cuerpo: 422 llave-reutilizada, y no crea nada
ok    misma llave mientras la original sigue en curso: 409 llave-en-curso
ok    un alta que falla libera la llave: corregida, con la misma llave, 201
ok    dos llaves distintas con el mismo cuerpo: la segunda choca con el nombre (409 nombre-repetido)

5 de 5 comprobaciones de idempotencia pasaron
`
	if out.String() != want {
		t.Fatalf("salida:\n%s\nse esperaba:\n%s", out.String(), want)
	}
}

// S-L4: the revisor's defect "the fingerprint nobody compares" (--defecto sin-huella) fails exactly
// check 2, with the course's text (the replayed 201 has no type: «201 ,»).
func TestComprobarIdempotenciaSinHuella(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	if codigo := ComprobarIdempotencia(context.Background(), idemRevisor(t, variantes.Pedido{Defecto: variantes.SinHuella}), &out); codigo != 1 {
		t.Fatalf("código %d, se esperaba 1", codigo)
	}
	want := `ok    misma llave y mismo cuerpo: la misma respuesta, un solo servicio
FALLA misma llave con otro cuerpo: 422 llave-reutilizada, y no crea nada
      dio 201 , se esperaba 422 llave-reutilizada
ok    misma llave mientras la original sigue en curso: 409 llave-en-curso
ok    un alta que falla libera la llave: corregida, con la misma llave, 201
ok    dos llaves distintas con el mismo cuerpo: la segunda choca con el nombre (409 nombre-repetido)

4 de 5 comprobaciones de idempotencia pasaron
`
	if out.String() != want {
		t.Fatalf("salida:\n%s\nse esperaba:\n%s", out.String(), want)
	}
}

// Nobody listening: every check fails with the reason, no crash, exit 1.
func TestComprobarIdempotenciaSinRevisor(t *testing.T) {
	t.Parallel()
	base := "http://127.0.0.1:" + strconv.Itoa(prueba.PuertosLibres(t, 1)[0]) // nobody listens there
	var out bytes.Buffer
	if codigo := ComprobarIdempotencia(context.Background(), base, &out); codigo != 1 {
		t.Fatalf("código %d", codigo)
	}
	if n := len(regexp.MustCompile(`(?m)^      sin respuesta \(ECONNREFUSED\)$`).FindAllString(out.String(), -1)); n != 5 ||
		!strings.HasSuffix(out.String(), "\n0 de 5 comprobaciones de idempotencia pasaron\n") {
		t.Fatalf("salida:\n%s", out.String())
	}
}
