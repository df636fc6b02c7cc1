package idempotencia

import (
	"testing"
	"time"

	"cursohttp/internal/nodejs"
	"cursohttp/pkg/respuesta"
)

func huellaDe(t *testing.T, cuerpo string) string {
	t.Helper()
	v, err := nodejs.DecodificarJSON([]byte(cuerpo))
	if err != nil {
		t.Fatalf("Decodificar(%s): %v", cuerpo, err)
	}
	return Huella(v)
}

var avisos201 = Grabada{
	Codigo: 201,
	Cabeceras: []respuesta.Cabecera{
		{Nombre: "Location", Valor: "/servicios/7"},
		{Nombre: "ETag", Valor: `"7-1-0cabc364"`},
	},
	Cuerpo: []byte(`{"id":7,"nombre":"avisos","url":"http://127.0.0.1:18081/codigo/200","limite_ms":2000}` + "\n"),
}

// Series G1-G4: what counts as the same body.
func TestHuella(t *testing.T) {
	t.Parallel()
	original := `{"nombre":"avisos","url":"http://127.0.0.1:18081/codigo/200"}`
	casos := []struct {
		nombre, cuerpo string
		igual          bool
	}{
		{"el mismo", original, true},
		{"con espacios (S-G2)", `{ "nombre" : "avisos" ,  "url" : "http://127.0.0.1:18081/codigo/200" }`, true},
		{"otro orden (S-G3)", `{"url":"http://127.0.0.1:18081/codigo/200","nombre":"avisos"}`, false},
		{"con el valor por omisión (S-G4)", `{"nombre":"avisos","url":"http://127.0.0.1:18081/codigo/200","limite_ms":2000}`, false},
		{"escape equivalente", `{"nombre":"\u0061visos","url":"http://127.0.0.1:18081/codigo/200"}`, true},
		{"otro nombre", `{"nombre":"correo","url":"http://127.0.0.1:18081/codigo/200"}`, false},
	}
	base := huellaDe(t, original)
	if len(base) != 64 {
		t.Fatalf("la huella %q no es SHA-256 en hexadecimal", base)
	}
	for _, c := range casos {
		if got := huellaDe(t, c.cuerpo) == base; got != c.igual {
			t.Errorf("%s: igual = %v, se esperaba %v", c.nombre, got, c.igual)
		}
	}
	// Numbers are compared after parsing: 2000, 2000.0 and 2e3 are one number.
	a := huellaDe(t, `{"limite_ms":2000}`)
	for _, otro := range []string{`{"limite_ms":2000.0}`, `{"limite_ms":2e3}`} {
		if huellaDe(t, otro) != a {
			t.Errorf("%s debería tener la huella de {\"limite_ms\":2000}", otro)
		}
	}
}

// The recorded response is replayed exactly, and nobody can change it through a slice they hold.
// Exercise 3's rule, with a fake clock: validity counted from the reservation, strictly greater.
// A reservation older than the validity is forgotten even if it never finished (exercise 3's rule):
// a request leaked by a crash does not hold its key forever.
func TestVigenciaDeEntorno(t *testing.T) {
	t.Parallel()
	casos := []struct {
		valor string
		want  time.Duration
		ok    bool
	}{
		{"5000", 5 * time.Second, true},
		{"86400000", 24 * time.Hour, true},
		{" 1 ", time.Millisecond, true},
		{"0", 0, false},
		{"", 0, false},
		{"-1", 0, false},
		{"5s", 0, false},
		{"1.5", 0, false},
		{"99999999999999999999", 0, false},
	}
	for _, c := range casos {
		got, ok := VigenciaDeEntorno(c.valor)
		if got != c.want || ok != c.ok {
			t.Errorf("%q: %v %v, se esperaba %v %v", c.valor, got, ok, c.want, c.ok)
		}
	}
}

// Issue 16: one credential's keys never evict another's; each credential has its own bound, and its
// own bound on requests in progress.
// 100 goroutines with the same key and body: exactly one reserves it.
// Many keys, reservations, recordings and releases at once, under -race, with a small bound.
func BenchmarkTomar(b *testing.B) {
	reg := Nuevo(Opciones{})
	reg.Grabar(reg.Tomar("escritura-a", "k", "h").Reserva, avisos201)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			reg.Tomar("escritura-a", "k", "h")
		}
	})
}
