//go:build unix

package e2e

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"cursohttp/internal/nodejs"
	"cursohttp/internal/prueba"
	"cursohttp/pkg/altasegura"
)

// duracionSoak is SOAK_DURACION (a Go duration) or 45 s: long enough for thousands of intents, short
// enough for CI.
func duracionSoak(t *testing.T) time.Duration {
	if v := os.Getenv("SOAK_DURACION"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			t.Fatalf("SOAK_DURACION=%q no es una duración", v)
		}
		return d
	}
	return 45 * time.Second
}

// URLServicio is the laboratory's address every registration names (allowed by default; nothing
// connects to it at registration).
const URLServicio = "http://127.0.0.1:18081/codigo/200"

type intento struct {
	nombre, llave string
	codigo        int // alta-segura's exit code
	salida        string
}

// TestSoakAltasPorLaPasarela sends registrations through the gateway from many goroutines for a
// bounded time, each asking the gateway to lose its first answer and each retried with its key by
// alta-segura's own logic. At the end the revisor holds exactly one service per intent, and the
// servers' memory, threads and connections did not grow with the load.
func TestSoakAltasPorLaPasarela(t *testing.T) {
	largo(t)
	t.Parallel()
	duracion := duracionSoak(t)
	rev := arrancar(t, "revisor")
	pas := arrancar(t, "pasarela", "--destino", rev.url())
	revInicio, pasInicio := medir(rev), medir(pas)

	transporte := &http.Transport{MaxIdleConnsPerHost: 64}
	cliente := &http.Client{Transport: transporte}
	const goroutinas = 32
	var (
		mu       sync.Mutex
		intentos []intento
		wg       sync.WaitGroup
	)
	ctx := context.Background()
	fin := time.Now().Add(duracion)
	// Closed when the first goroutine has seen the end and stopped: the others are still at work.
	acabando := make(chan struct{})
	var primera sync.Once
	for g := range goroutinas {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer primera.Do(func() { close(acabando) })
			for i := 0; time.Now().Before(fin); i++ {
				in := intento{nombre: fmt.Sprintf("soak-%d-%d", g, i), llave: uuid.NewString()}
				var out bytes.Buffer
				in.codigo = altasegura.Correr(ctx, altasegura.Opciones{
					Nombre: in.nombre, URL: URLServicio, Pasarela: pas.url(), Salida: &out,
					Cliente: cliente, Llave: func() string { return in.llave },
				})
				in.salida = out.String()
				mu.Lock()
				intentos = append(intentos, in)
				mu.Unlock()
			}
		}()
	}

	// Footprints once the load is steady (a third in) and again at its end, still under load. The
	// soak is defined by its duration: the third is a moment in time.
	time.Sleep(duracion / 3)
	revA, pasA := medir(rev), medir(pas)
	<-acabando
	revB, pasB := medir(rev), medir(pas)
	wg.Wait()
	transporte.CloseIdleConnections()

	// An intent alta-segura reported as not done must be safe to repeat with its key: it becomes
	// done, once.
	noHechos := 0
	for _, in := range intentos {
		if in.codigo == 0 {
			continue
		}
		noHechos++
		if !strings.Contains(in.salida, "repetir más tarde con la llave "+in.llave+" es seguro") {
			t.Errorf("%s no terminó y no lo dijo como el curso:\n%s", in.nombre, in.salida)
		}
		if c := altaDirecta(t, pas.url(), in.nombre, in.llave); c != http.StatusCreated {
			t.Errorf("%s repetido con su llave: %d", in.nombre, c)
		}
	}

	cuenta := nombresEnElRevisor(t, rev.url())
	soak := 0
	for nombre := range cuenta {
		if strings.HasPrefix(nombre, "soak-") {
			soak++
		}
	}
	for _, in := range intentos {
		if n := cuenta[in.nombre]; n != 1 {
			t.Errorf("%s está %d veces en el revisor\n%s", in.nombre, n, in.salida)
		}
	}
	if soak != len(intentos) {
		t.Errorf("%d intenciones y %d servicios soak- en el revisor", len(intentos), soak)
	}

	// After the load the connections are gone (the gateway's idle ones to the revisor after
	// pasarela.OciosaMaxima): nothing kept a connection, or the goroutine serving it.
	var revC, pasC medida
	prueba.Esperar(t, "en reposo, el revisor y la pasarela tienen los descriptores del arranque", func() bool {
		revC, pasC = medir(rev), medir(pas)
		return revC.fds <= revInicio.fds && pasC.fds <= pasInicio.fds
	})
	t.Logf("%s: %d intenciones (%d no hechas a la primera y repetidas con su llave), %d servicios soak- en el revisor",
		duracion, len(intentos), noHechos, soak)
	t.Logf("revisor:  al empezar %s; a un tercio %s; al final %s; en reposo %s", revInicio, revA, revB, revC)
	t.Logf("pasarela: al empezar %s; a un tercio %s; al final %s; en reposo %s", pasInicio, pasA, pasB, pasC)
	if len(intentos) < goroutinas {
		t.Fatalf("sólo %d intenciones en %s", len(intentos), duracion)
	}
	for _, c := range []struct {
		nombre     string
		i, a, b, c medida
	}{{"revisor", revInicio, revA, revB, revC}, {"pasarela", pasInicio, pasA, pasB, pasC}} {
		// The revisor legitimately keeps every service and every key's answer (a few hundred bytes
		// each); a leak of connections or goroutines per request would cost far more.
		if crece := c.b.rssKB - c.a.rssKB; crece > 12<<10 {
			t.Errorf("%s: la memoria creció %d kB bajo carga constante (%s → %s)", c.nombre, crece, c.a, c.b)
		}
		if c.b.hilos > c.a.hilos+4 {
			t.Errorf("%s: los hilos pasaron de %d a %d", c.nombre, c.a.hilos, c.b.hilos)
		}
		// At rest it holds what it held before the first request.
		if c.c.fds > c.i.fds {
			t.Errorf("%s: %d descriptores en reposo, %d al arrancar", c.nombre, c.c.fds, c.i.fds)
		}
	}
}

// sinReuso is the tests' client for single requests: it leaves no idle connection behind to be
// mistaken for a leak.
var sinReuso = &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 10 * time.Second}

// altaDirecta repeats a registration through the gateway with its key, without asking for a loss.
func altaDirecta(t *testing.T, pasarela, nombre, llave string) int {
	t.Helper()
	req, _ := http.NewRequest("POST", pasarela+"/servicios", bytes.NewReader(altasegura.Cuerpo(nombre, URLServicio)))
	req.Header.Set("Authorization", "Bearer "+altasegura.CredencialPorOmision)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", llave)
	res, err := sinReuso.Do(req)
	if err != nil {
		t.Errorf("alta de %s: %v", nombre, err)
		return 0
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode
}

// nombresEnElRevisor counts the services of the soak's team by name (GET /servicios, directly).
func nombresEnElRevisor(t *testing.T, revisor string) map[string]int {
	t.Helper()
	lista := serviciosDelRevisor(t, revisor)
	cuenta := map[string]int{}
	for _, s := range lista {
		cuenta[s.nombre]++
	}
	return cuenta
}

type servicio struct {
	id     float64
	nombre string
}

func serviciosDelRevisor(t *testing.T, revisor string) []servicio {
	t.Helper()
	req, _ := http.NewRequest("GET", revisor+"/servicios", nil)
	req.Header.Set("Authorization", "Bearer "+altasegura.CredencialPorOmision)
	res, err := sinReuso.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	cuerpo, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET /servicios: %d %s", res.StatusCode, cuerpo)
	}
	v, err := nodejs.DecodificarJSON(cuerpo)
	if err != nil {
		t.Fatalf("GET /servicios: %v", err)
	}
	raiz, _ := v.(nodejs.Objeto)
	arr, _ := raiz.Valor("servicios")
	elementos, _ := arr.([]any)
	var lista []servicio
	for _, e := range elementos {
		o, _ := e.(nodejs.Objeto)
		nombre, _ := o.Texto("nombre")
		id, _ := o.Valor("id")
		n, _ := id.(float64)
		lista = append(lista, servicio{n, nombre})
	}
	return lista
}
