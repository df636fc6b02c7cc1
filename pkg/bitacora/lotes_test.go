package bitacora

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"cursohttp/internal/prueba"
)

// registro is a terminal where stdout and stderr meet, as in a student's window or a log file
// (2>&1): it keeps every write in order with its stream.
type registro struct {
	mu       sync.Mutex
	texto    bytes.Buffer
	errores  bytes.Buffer
	escritos int
	lento    time.Duration
}

type flujoDe struct {
	r   *registro
	err bool
}

func (f flujoDe) Write(p []byte) (int, error) {
	if f.r.lento > 0 {
		time.Sleep(f.r.lento)
	}
	f.r.mu.Lock()
	defer f.r.mu.Unlock()
	f.r.texto.Write(p)
	if f.err {
		f.r.errores.Write(p)
	}
	f.r.escritos++
	return len(p), nil
}

func (r *registro) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.texto.String()
}

func (r *registro) Errores() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.errores.String()
}

func (r *registro) bitacora(ctx context.Context) *Lotes {
	return EnLotes(ctx, flujoDe{r, false}, flujoDe{r, true})
}

// Under load from many goroutines, every line arrives once, whole, byte for byte as the direct
// writer (NuevoLogger) writes it, each goroutine's lines in the order it logged them and each error
// on stderr; in the terminal and in JSON.
func TestBitacoraBajoCargaNoPierdeNiDesordena(t *testing.T) {
	t.Parallel()
	for _, json := range []bool{false, true} {
		t.Run(fmt.Sprintf("json=%v", json), func(t *testing.T) {
			t.Parallel()
			const goroutinas, lineas = 16, 2000
			r := &registro{}
			b := r.bitacora(context.Background())
			log := b.Logger(json)
			// What the direct writer writes for the same events: the bytes to expect.
			type esperada struct {
				texto string
				error bool
			}
			esperadas := make([][]esperada, goroutinas)
			var out, errOut bytes.Buffer
			directo := NuevoLogger(&out, &errOut, json)
			for g := range goroutinas {
				for i := range lineas {
					out.Reset()
					errOut.Reset()
					msg := fmt.Sprintf("GET /no-existe/%d/%d", g, i)
					if i%97 == 0 {
						directo.Error().Int("g", g).Msg("error " + msg + ": falla\n    at algo")
						esperadas[g] = append(esperadas[g], esperada{sinHora(errOut.String()), true})
					} else {
						directo.Info().Str("url", msg).Msg(msg)
						esperadas[g] = append(esperadas[g], esperada{sinHora(out.String()), false})
					}
				}
			}
			linea := func(g, i int) (string, bool) { return esperadas[g][i].texto, esperadas[g][i].error }
			var wg sync.WaitGroup
			for g := range goroutinas {
				wg.Go(func() {
					for i := range lineas {
						msg := fmt.Sprintf("GET /no-existe/%d/%d", g, i)
						if i%97 == 0 {
							log.Error().Int("g", g).Msg("error " + msg + ": falla\n    at algo")
						} else {
							log.Info().Str("url", msg).Msg(msg)
						}
					}
				})
			}
			wg.Wait()
			b.Cerrar()
			texto, errores := sinHora(r.String()), sinHora(r.Errores())
			// Each goroutine's lines, in its order, make up the whole text once the others' are set
			// aside: nothing lost, duplicated, cut or reordered.
			siguiente := make([]int, goroutinas)
			var quiereErrores int
			resto := texto
			for resto != "" {
				g := -1
				for cand := range goroutinas {
					if siguiente[cand] == lineas {
						continue
					}
					if quiere, _ := linea(cand, siguiente[cand]); strings.HasPrefix(resto, quiere) {
						g = cand
						break
					}
				}
				if g < 0 {
					t.Fatalf("una línea que no es la siguiente de ninguna goroutina: %q", resto[:min(len(resto), 200)])
				}
				quiere, esError := linea(g, siguiente[g])
				if esError {
					quiereErrores += len(quiere)
				}
				resto = resto[len(quiere):]
				siguiente[g]++
			}
			for g, n := range siguiente {
				if n != lineas {
					t.Errorf("goroutina %d: %d de %d líneas", g, n, lineas)
				}
			}
			if len(errores) != quiereErrores {
				t.Errorf("stderr tiene %d bytes, se esperaban %d (las líneas de error)", len(errores), quiereErrores)
			}
			t.Logf("%d líneas en %d escrituras", goroutinas*lineas, r.escritos)
		})
	}
}

// sinHora blanks the JSON log's time, the one field two writes of one event do not share.
func sinHora(s string) string { return hora.ReplaceAllString(s, `"time":"-"`) }

var hora = regexp.MustCompile(`"time":"[^"]*"`)

// A line for stderr (a request that crashed) is written, with everything logged before it, before
// its Msg returns: nothing is left waiting if the process dies next.
func TestBitacoraUnErrorSaleAntesDeVolver(t *testing.T) {
	t.Parallel()
	r := &registro{}
	b := r.bitacora(context.Background())
	defer b.Cerrar()
	log := b.Logger(false)
	for i := range 50 {
		log.Info().Msg(fmt.Sprintf("GET /%d", i))
		log.Error().Msg(fmt.Sprintf("error en GET /%d", i))
		quiere := ""
		for j := range i + 1 {
			quiere += fmt.Sprintf("GET /%d\nerror en GET /%d\n", j, j)
		}
		if got := r.String(); got != quiere {
			t.Fatalf("al volver del error %d:\n%q\nse esperaba\n%q", i, got, quiere)
		}
	}
}

// Once the server's context ends (Ctrl+C: it is shutting down, and a second one exits at once),
// what was queued is written and every later line is written before its Msg returns.
func TestBitacoraDirectaAlTerminarElContexto(t *testing.T) {
	t.Parallel()
	ctx, cancelar := context.WithCancel(context.Background())
	r := &registro{lento: time.Millisecond}
	b := r.bitacora(ctx)
	defer b.Cerrar()
	log := b.Logger(false)
	for i := range 200 {
		log.Info().Msg(fmt.Sprintf("GET /%d", i))
	}
	cancelar()
	log.Warn().Msg("esperando a que termine 1 petición en curso")
	if got := r.String(); strings.Count(got, "\n") != 201 || !strings.HasSuffix(got, "GET /199\nesperando a que termine 1 petición en curso\n") {
		t.Fatalf("tras cancelar el contexto: %d líneas, termina en %q", strings.Count(got, "\n"), got[max(0, len(got)-80):])
	}
}

// Cerrar writes what is queued, and a line logged afterwards (a deferred one) still goes out.
// A slow terminal makes the queue pass its limit: the goroutine logging waits, nothing is dropped.
func TestBitacoraCerrarYTerminalLenta(t *testing.T) {
	t.Parallel()
	r := &registro{lento: 200 * time.Microsecond}
	b := r.bitacora(context.Background())
	log := b.Logger(false)
	relleno := strings.Repeat("x", 300)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 400 {
				log.Info().Msg(fmt.Sprintf("GET /%d/%d/%s", g, i, relleno))
			}
		})
	}
	wg.Wait()
	b.Cerrar()
	b.Cerrar()
	log.Info().Msg("después de cerrar")
	got := r.String()
	if n := strings.Count(got, "\n"); n != 8*400+1 || !strings.HasSuffix(got, "\ndespués de cerrar\n") {
		t.Fatalf("%d líneas; final %q", n, got[max(0, len(got)-40):])
	}
	for g := range 8 {
		anterior := -1
		for _, l := range strings.Split(got, "\n") {
			var gg, i int
			if n, _ := fmt.Sscanf(l, "GET /%d/%d/", &gg, &i); n == 2 && gg == g {
				if i != anterior+1 {
					t.Fatalf("goroutina %d: %d después de %d", g, i, anterior)
				}
				anterior = i
			}
		}
	}
}

// What a server prints beside its log (Salida, Errores) keeps its place among the log's lines.
func TestBitacoraSalidaEnOrdenConElLog(t *testing.T) {
	t.Parallel()
	r := &registro{}
	b := r.bitacora(context.Background())
	log := b.Logger(false)
	log.Info().Msg("uno")
	fmt.Fprintln(b.Salida(), "dos")
	log.Info().Msg("tres")
	fmt.Fprintln(b.Errores(), "cuatro")
	log.Info().Msg("cinco")
	b.Cerrar()
	if got := r.String(); got != "uno\ndos\ntres\ncuatro\ncinco\n" {
		t.Errorf("%q", got)
	}
}

// The request line the Lotes writes straight into its queue is the one Registrar writes through
// the terminal's logger, byte for byte, whatever the target holds.
func FuzzRegistrarDirecto(f *testing.F) {
	for _, s := range []string{"/servicios/1", "/a?b=\"c\"", "/a\\b", "/\xff\xfe", "/ñ?x=☃", "/\x01\x7f", "*", "http://x/y"} {
		f.Add("GET", s)
	}
	f.Fuzz(func(t *testing.T, metodo, url string) {
		r := &http.Request{Method: metodo, RequestURI: url}
		var directo, esperado prueba.Buffer
		b := EnLotes(context.Background(), &directo, &directo)
		b.Registrar(false, http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})).ServeHTTP(nil, r)
		b.Cerrar()
		Registrar(NuevoLogger(&esperado, &esperado, false), http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})).ServeHTTP(nil, r)
		if directo.String() != esperado.String() {
			t.Fatalf("%q %q: la bitácora escribió %q, el logger %q", metodo, url, directo.String(), esperado.String())
		}
	})
}

// BenchmarkRegistrarBitacora is the per-request line as the servers write it (Lotes.Registrar).
func BenchmarkRegistrarBitacora(b *testing.B) {
	bit := EnLotes(context.Background(), io.Discard, io.Discard)
	defer bit.Cerrar()
	h := bit.Registrar(false, http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	r, _ := http.NewRequest("GET", "/servicios/1", nil)
	r.RequestURI = "/servicios/1"
	b.ReportAllocs()
	for b.Loop() {
		h.ServeHTTP(nil, r)
	}
}
