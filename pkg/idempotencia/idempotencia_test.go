package idempotencia

import (
	"strconv"
	"sync"
	"testing"
	"time"

	"cursohttp/internal/prueba"
	"cursohttp/pkg/jsonjs"
	"cursohttp/pkg/respuesta"
)

func nuevoReloj() *prueba.Reloj {
	return prueba.NuevoReloj(time.Date(2026, 10, 21, 22, 26, 31, 0, time.UTC))
}

func huellaDe(t *testing.T, cuerpo string) string {
	t.Helper()
	v, err := jsonjs.Decodificar([]byte(cuerpo))
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

func TestTomar(t *testing.T) {
	t.Parallel()
	h1, h2 := "h1", "h2"
	type paso struct {
		accion     string // tomar, grabar, soltar
		credencial string
		llave      string
		huella     string
		quiere     Tipo
	}
	casos := []struct {
		nombre string
		pasos  []paso
	}{
		{"llave nueva", []paso{{"tomar", "escritura-a", "k", h1, Nueva}}},
		{"misma llave mientras sigue en curso", []paso{
			{"tomar", "escritura-a", "k", h1, Nueva},
			{"tomar", "escritura-a", "k", h1, EnCurso},
		}},
		{"otro cuerpo mientras sigue en curso: 422 antes que 409", []paso{
			{"tomar", "escritura-a", "k", h1, Nueva},
			{"tomar", "escritura-a", "k", h2, OtraPeticion},
		}},
		{"terminada: se repite", []paso{
			{"tomar", "escritura-a", "k", h1, Nueva},
			{"grabar", "escritura-a", "k", "", 0},
			{"tomar", "escritura-a", "k", h1, Repetir},
			{"tomar", "escritura-a", "k", h1, Repetir},
		}},
		{"terminada con otro cuerpo", []paso{
			{"tomar", "escritura-a", "k", h1, Nueva},
			{"grabar", "escritura-a", "k", "", 0},
			{"tomar", "escritura-a", "k", h2, OtraPeticion},
		}},
		{"una falla suelta la llave (S-G5, S-G6)", []paso{
			{"tomar", "escritura-a", "k", h1, Nueva},
			{"soltar", "escritura-a", "k", "", 0},
			{"tomar", "escritura-a", "k", h2, Nueva},
		}},
		{"soltar no borra una respuesta grabada", []paso{
			{"tomar", "escritura-a", "k", h1, Nueva},
			{"grabar", "escritura-a", "k", "", 0},
			{"soltar", "escritura-a", "k", "", 0},
			{"tomar", "escritura-a", "k", h1, Repetir},
		}},
		{"la llave es de quien la manda (S-G10)", []paso{
			{"tomar", "escritura-a", "alta-agenda-1", h1, Nueva},
			{"grabar", "escritura-a", "alta-agenda-1", "", 0},
			{"tomar", "escritura-b", "alta-agenda-1", h1, Nueva},
		}},
		{"las comillas son parte de la llave (S-G11)", []paso{
			{"tomar", "escritura-a", "alta-agenda-1", h1, Nueva},
			{"grabar", "escritura-a", "alta-agenda-1", "", 0},
			{"tomar", "escritura-a", `"alta-agenda-1"`, h1, Nueva},
		}},
		{"credencial y llave no se confunden al juntarlas", []paso{
			{"tomar", "a", "b:c", h1, Nueva},
			{"tomar", "a:b", "c", h1, Nueva},
		}},
	}
	for _, c := range casos {
		t.Run(c.nombre, func(t *testing.T) {
			t.Parallel()
			reg := Nuevo(Opciones{})
			for i, p := range c.pasos {
				switch p.accion {
				case "tomar":
					turno := reg.Tomar(p.credencial, p.llave, p.huella)
					if turno.Tipo != p.quiere {
						t.Fatalf("paso %d: Tomar = %v, se esperaba %v", i, turno.Tipo, p.quiere)
					}
					if turno.Tipo == Repetir && string(turno.Grabada.Cuerpo) != string(avisos201.Cuerpo) {
						t.Fatalf("paso %d: se repitió %q", i, turno.Grabada.Cuerpo)
					}
				case "grabar":
					reg.Grabar(p.credencial, p.llave, avisos201)
				case "soltar":
					reg.Soltar(p.credencial, p.llave)
				}
			}
		})
	}
}

// The recorded response is replayed exactly, and nobody can change it through a slice they hold.
func TestGrabadaNoCambia(t *testing.T) {
	t.Parallel()
	reg := Nuevo(Opciones{})
	g := Grabada{Codigo: 201, Cabeceras: append([]respuesta.Cabecera(nil), avisos201.Cabeceras...), Cuerpo: append([]byte(nil), avisos201.Cuerpo...)}
	reg.Tomar("escritura-a", "k", "h")
	reg.Grabar("escritura-a", "k", g)
	g.Cuerpo[0] = 'X'
	g.Cabeceras[0].Valor = "/otro"
	primera := reg.Tomar("escritura-a", "k", "h").Grabada
	primera.Cuerpo[0] = 'Y'
	segunda := reg.Tomar("escritura-a", "k", "h").Grabada
	if segunda.Codigo != 201 || string(segunda.Cuerpo) != string(avisos201.Cuerpo) ||
		len(segunda.Cabeceras) != 2 || segunda.Cabeceras[0] != avisos201.Cabeceras[0] || segunda.Cabeceras[1] != avisos201.Cabeceras[1] {
		t.Fatalf("la respuesta grabada cambió: %+v", segunda)
	}
}

// Exercise 3's rule, with a fake clock: validity counted from the reservation, strictly greater.
func TestVigencia(t *testing.T) {
	t.Parallel()
	reloj := nuevoReloj()
	reg := Nuevo(Opciones{Vigencia: 5 * time.Second, Reloj: reloj.Ahora})
	if got := reg.Tomar("escritura-a", "vence-1", "h1").Tipo; got != Nueva {
		t.Fatalf("primera: %v", got)
	}
	reloj.Avanzar(500 * time.Millisecond)
	reg.Grabar("escritura-a", "vence-1", avisos201)
	reloj.Avanzar(4500 * time.Millisecond) // exactly 5 s after the reservation: still valid
	if got := reg.Tomar("escritura-a", "vence-1", "h1").Tipo; got != Repetir {
		t.Fatalf("a los 5 s: %v, se esperaba repetir", got)
	}
	reloj.Avanzar(time.Millisecond)
	if got := reg.Tomar("escritura-a", "vence-1", "h1").Tipo; got != Nueva {
		t.Fatalf("pasados 5 s: %v, se esperaba nueva", got)
	}
	// An expired key with another body is new too (no 422).
	reg.Soltar("escritura-a", "vence-1")
	reg.Tomar("escritura-a", "vence-2", "h1")
	reg.Grabar("escritura-a", "vence-2", avisos201)
	reloj.Avanzar(6 * time.Second)
	if got := reg.Tomar("escritura-a", "vence-2", "otro").Tipo; got != Nueva {
		t.Fatalf("vencida con otro cuerpo: %v, se esperaba nueva", got)
	}
}

// A reservation older than the validity is forgotten even if it never finished (exercise 3's rule):
// a request leaked by a crash does not hold its key forever.
func TestEnCursoVence(t *testing.T) {
	t.Parallel()
	reloj := nuevoReloj()
	reg := Nuevo(Opciones{Vigencia: time.Second, Reloj: reloj.Ahora})
	reg.Tomar("escritura-a", "k", "h")
	reloj.Avanzar(time.Second)
	if got := reg.Tomar("escritura-a", "k", "h").Tipo; got != EnCurso {
		t.Fatalf("dentro de la vigencia: %v, se esperaba en-curso", got)
	}
	reloj.Avanzar(time.Millisecond)
	if got := reg.Tomar("escritura-a", "k", "h").Tipo; got != Nueva {
		t.Fatalf("pasada la vigencia: %v, se esperaba nueva", got)
	}
}

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

func TestTope(t *testing.T) {
	t.Parallel()
	t.Run("primero se van las vencidas", func(t *testing.T) {
		t.Parallel()
		reloj := nuevoReloj()
		reg := Nuevo(Opciones{Vigencia: time.Minute, Tope: 3, Reloj: reloj.Ahora})
		for _, k := range []string{"a", "b"} {
			reg.Tomar("c", k, "h")
			reg.Grabar("c", k, avisos201)
		}
		reloj.Avanzar(2 * time.Minute)
		reg.Tomar("c", "z", "h")
		reg.Grabar("c", "z", avisos201)
		if got := reg.Tomar("c", "nueva", "h").Tipo; got != Nueva {
			t.Fatalf("Tomar = %v", got)
		}
		if n := reg.Cuantos(); n != 2 {
			t.Fatalf("quedan %d registros, se esperaban 2 (z y nueva)", n)
		}
		if got := reg.Tomar("c", "z", "h").Tipo; got != Repetir {
			t.Fatalf("z, que no había vencido, debía seguir: %v", got)
		}
	})
	t.Run("luego la terminada más vieja, nunca una en curso", func(t *testing.T) {
		t.Parallel()
		reg := Nuevo(Opciones{Tope: 3})
		reg.Tomar("c", "en-curso", "h") // the oldest, but still running
		reg.Tomar("c", "vieja", "h")
		reg.Grabar("c", "vieja", avisos201)
		reg.Tomar("c", "reciente", "h")
		reg.Grabar("c", "reciente", avisos201)
		if got := reg.Tomar("c", "nueva", "h").Tipo; got != Nueva {
			t.Fatalf("Tomar = %v", got)
		}
		if n := reg.Cuantos(); n != 3 {
			t.Fatalf("hay %d registros, tope 3", n)
		}
		if got := reg.Tomar("c", "en-curso", "h").Tipo; got != EnCurso {
			t.Fatalf("la llave en curso se perdió: %v", got)
		}
		if got := reg.Tomar("c", "reciente", "h").Tipo; got != Repetir {
			t.Fatalf("se desalojó la reciente: %v", got)
		}
		// "vieja" was evicted, so it is served as new (and "reciente" makes room for it).
		if got := reg.Tomar("c", "vieja", "h").Tipo; got != Nueva {
			t.Fatalf("vieja: %v, se esperaba nueva (desalojada)", got)
		}
	})
	t.Run("todas en curso: lleno, y no se crea nada", func(t *testing.T) {
		t.Parallel()
		reg := Nuevo(Opciones{Tope: 2})
		reg.Tomar("c", "a", "h")
		reg.Tomar("c", "b", "h")
		if got := reg.Tomar("c", "c", "h").Tipo; got != Lleno {
			t.Fatalf("Tomar = %v, se esperaba lleno", got)
		}
		if n := reg.Cuantos(); n != 2 {
			t.Fatalf("hay %d registros", n)
		}
		reg.Soltar("c", "a")
		if got := reg.Tomar("c", "c", "h").Tipo; got != Nueva {
			t.Fatalf("tras soltar una: %v", got)
		}
	})
}

// Issue 16: one credential's keys never evict another's; each credential has its own bound, and its
// own bound on requests in progress.
func TestCuotasPorCredencial(t *testing.T) {
	t.Parallel()
	tomarYGrabar := func(reg *Registro, credencial, llave string) Tipo {
		tipo := reg.Tomar(credencial, llave, "h").Tipo
		if tipo == Nueva {
			reg.Grabar(credencial, llave, avisos201)
		}
		return tipo
	}
	t.Run("las llaves de otra credencial no desalojan la tuya", func(t *testing.T) {
		t.Parallel()
		reg := Nuevo(Opciones{Tope: 100})
		tomarYGrabar(reg, "escritura-a", "victima-1")
		for i := range 1000 {
			if tipo := tomarYGrabar(reg, "escritura-b", "k-"+strconv.Itoa(i)); tipo != Nueva {
				t.Fatalf("escritura-b, llave %d: %v", i, tipo)
			}
		}
		if got := reg.Tomar("escritura-a", "victima-1", "h"); got.Tipo != Repetir {
			t.Fatalf("tras 1000 llaves de escritura-b, la repetición de escritura-a dio %v; se esperaba repetir", got.Tipo)
		}
		if n := reg.Cuantos(); n > 100 {
			t.Fatalf("%d registros, tope 100", n)
		}
	})
	t.Run("cada credencial hasta su tope, y el total", func(t *testing.T) {
		t.Parallel()
		reg := Nuevo(Opciones{Tope: 10, TopePorCredencial: 4})
		for i := range 10 {
			tomarYGrabar(reg, "b", "b-"+strconv.Itoa(i))
		}
		// b keeps its 4 newest keys; its older ones were its own to give up.
		for i := 6; i < 10; i++ {
			if got := reg.Tomar("b", "b-"+strconv.Itoa(i), "h").Tipo; got != Repetir {
				t.Fatalf("b-%d: %v, se esperaba repetir", i, got)
			}
		}
		if n := reg.Cuantos(); n != 4 {
			t.Fatalf("b tiene %d registros, tope por credencial 4", n)
		}
		for _, k := range []string{"c-0", "c-1", "c-2", "c-3", "d-0", "d-1"} {
			if got := tomarYGrabar(reg, k[:1], k); got != Nueva {
				t.Fatalf("%s: %v", k, got)
			}
		}
		if n := reg.Cuantos(); n != 10 {
			t.Fatalf("%d registros, se esperaban 10 (4 de b, 4 de c, 2 de d)", n)
		}
		// The store is full: d's next key costs d its own oldest, never one of b's or c's.
		tomarYGrabar(reg, "d", "d-2")
		for _, k := range []string{"b-6", "b-7", "b-8", "b-9", "c-0", "c-1", "c-2", "c-3", "d-1", "d-2"} {
			if got := reg.Tomar(k[:1], k, "h").Tipo; got != Repetir {
				t.Fatalf("%s se perdió al llenarse el total: %v", k, got)
			}
		}
		if n := reg.Cuantos(); n != 10 {
			t.Fatalf("%d registros, tope 10", n)
		}
	})
	t.Run("en curso a la vez, por credencial", func(t *testing.T) {
		t.Parallel()
		reg := Nuevo(Opciones{EnCursoPorCredencial: 3})
		for i := range 3 {
			if got := reg.Tomar("b", "b-"+strconv.Itoa(i), "h").Tipo; got != Nueva {
				t.Fatalf("b-%d: %v", i, got)
			}
		}
		if got := reg.Tomar("b", "b-3", "h").Tipo; got != DemasiadasEnCurso {
			t.Fatalf("la cuarta en curso de b: %v, se esperaba demasiadas-en-curso", got)
		}
		if got := reg.Tomar("b", "b-0", "h").Tipo; got != EnCurso {
			t.Fatalf("repetir una en curso sigue siendo en curso: %v", got)
		}
		if got := reg.Tomar("a", "a-0", "h").Tipo; got != Nueva {
			t.Fatalf("las de b no cuentan para a: %v", got)
		}
		reg.Grabar("b", "b-0", avisos201)
		reg.Soltar("b", "b-1")
		for _, k := range []string{"b-3", "b-4"} {
			if got := reg.Tomar("b", k, "h").Tipo; got != Nueva {
				t.Fatalf("%s, con dos terminadas: %v", k, got)
			}
		}
		if n := reg.Cuantos(); n != 5 {
			t.Fatalf("%d registros, se esperaban 5", n)
		}
	})
	t.Run("lleno: nada propio que ceder", func(t *testing.T) {
		t.Parallel()
		reg := Nuevo(Opciones{Tope: 4, TopePorCredencial: 2})
		for _, c := range []string{"a", "b"} {
			tomarYGrabar(reg, c, c+"-0")
			tomarYGrabar(reg, c, c+"-1")
		}
		if got := reg.Tomar("c", "c-0", "h").Tipo; got != Lleno {
			t.Fatalf("c, con el total lleno por a y b: %v, se esperaba lleno", got)
		}
		if got := reg.Tomar("a", "a-0", "h").Tipo; got != Repetir {
			t.Fatalf("a-0 se perdió: %v", got)
		}
	})
}

// 100 goroutines with the same key and body: exactly one reserves it.
func TestCarrera(t *testing.T) {
	t.Parallel()
	reg := Nuevo(Opciones{})
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		cuenta = map[Tipo]int{}
	)
	inicio := make(chan struct{})
	for range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-inicio
			turno := reg.Tomar("escritura-a", "alta-correo-1", "h")
			mu.Lock()
			cuenta[turno.Tipo]++
			mu.Unlock()
		}()
	}
	close(inicio)
	wg.Wait()
	if cuenta[Nueva] != 1 || cuenta[EnCurso] != 99 {
		t.Fatalf("turnos: %v, se esperaba 1 nueva y 99 en curso", cuenta)
	}
}

// Many keys, reservations, recordings and releases at once, under -race, with a small bound.
func TestConcurrenciaMixta(t *testing.T) {
	t.Parallel()
	reg := Nuevo(Opciones{Tope: 50})
	var wg sync.WaitGroup
	for i := range 200 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			llave := string(rune('a' + i%26))
			switch reg.Tomar("c", llave, "h").Tipo {
			case Nueva:
				if i%3 == 0 {
					reg.Soltar("c", llave)
				} else {
					reg.Grabar("c", llave, avisos201)
				}
			}
		}()
	}
	wg.Wait()
	if n := reg.Cuantos(); n > 50 {
		t.Fatalf("%d registros, tope 50", n)
	}
}

func BenchmarkTomar(b *testing.B) {
	reg := Nuevo(Opciones{})
	reg.Tomar("escritura-a", "k", "h")
	reg.Grabar("escritura-a", "k", avisos201)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			reg.Tomar("escritura-a", "k", "h")
		}
	})
}
