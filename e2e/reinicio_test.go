//go:build unix

package e2e

import (
	"bytes"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"cursohttp/internal/nodejs"
	"cursohttp/internal/prueba"
)

// altaSegura is one run of the built alta-segura.
type altaSegura struct {
	nombre         string
	inicio, final  time.Time
	codigo         int
	salida         string
	id             float64 // from the 201, when done
	llave          string  // from the closing line, when not done
	lineaFinal     string
	despuesDelUlti bool // started once the last revisor was already up
}

// correr runs the built alta-segura for this intent through the gateway at pasarela and keeps its
// output, its exit code (-1 when it could not run) and when it ended.
func (a *altaSegura) correr(pasarela string) {
	cmd := exec.Command(filepath.Join(binarios, "alta-segura"), a.nombre, URLServicio, "--pasarela", pasarela)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	a.final, a.salida = time.Now(), out.String()
	var salidaErr *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &salidaErr):
		a.codigo = salidaErr.ExitCode()
	default:
		a.codigo = -1
	}
}

var (
	linea201     = regexp.MustCompile(`(?m)^intento \d: 201 (.*)$`)
	lineaAgotado = regexp.MustCompile(`^se agotaron los 4 intentos sin una respuesta definitiva; repetir más tarde con la llave (\S+) es seguro$`)
)

// TestReinicioDelRevisorDuranteAltaSegura stops the revisor twice while alta-segura runs several
// intents through the gateway — once killed (a crash), once with SIGTERM and left down for five
// seconds — and shows that every intent ends done once or reported as not done with the course's
// sentence, and that the not-done ones are safe to repeat with the key they print.
func TestReinicioDelRevisorDuranteAltaSegura(t *testing.T) {
	largo(t)
	t.Parallel()
	rev := arrancar(t, "revisor")
	puerto := rev.addr[strings.LastIndexByte(rev.addr, ':')+1:]
	pas := arrancar(t, "pasarela", "--destino", rev.url())

	var (
		mu       sync.Mutex
		corridas []*altaSegura
		wg       sync.WaitGroup
		ultimo   time.Time // when the last revisor answered its start-up line
	)
	terminadas := make(chan *altaSegura, 1000) // each intent as it ends (four a second)
	lanzar := func(i int) {
		defer wg.Done()
		a := &altaSegura{nombre: fmt.Sprintf("reinicio-%d", i), inicio: time.Now()}
		mu.Lock()
		a.despuesDelUlti = !ultimo.IsZero()
		mu.Unlock()
		a.correr(pas.url())
		mu.Lock()
		corridas = append(corridas, a)
		mu.Unlock()
		terminadas <- a
	}
	// esperar waits for an intent that ends as cumple says.
	esperar := func(que string, cumple func(*altaSegura) bool) {
		t.Helper()
		for {
			select {
			case a := <-terminadas:
				if cumple(a) {
					return
				}
			case <-time.After(prueba.PlazoDeEspera):
				t.Fatalf("no pasó en %v: %s", prueba.PlazoDeEspera, que)
			}
		}
	}
	// One intent every 250 ms (the load's pace), while the revisor is crashed and restarted, then
	// stopped gracefully and kept down longer than alta-segura's 3.5 s of waits, then restarted; and
	// four more intents against that last revisor. Each step waits for what the intents lived.
	parar, listo := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(listo)
		paso := time.NewTicker(250 * time.Millisecond)
		defer paso.Stop()
		for i := 0; ; i++ {
			wg.Add(1)
			go lanzar(i)
			select {
			case <-paso.C:
			case <-parar:
				return
			}
		}
	}()
	esperar("una intención hecha con el primer revisor", func(a *altaSegura) bool { return a.codigo == 0 })
	const sinRevisor = "pasarela: el revisor no respondió"
	antes := strings.Count(pas.salida.String(), sinRevisor)
	rev.matar()
	caida := time.Now()
	// Down until an intent in flight met it down and will retry (the gateway's 502 for it).
	prueba.Esperar(t, "la pasarela no encuentra al revisor caído", func() bool {
		return strings.Count(pas.salida.String(), sinRevisor) > antes
	})
	rev = arrancar(t, "revisor", "--puerto", puerto)
	reinicio := time.Now()
	esperar("una intención hecha con el revisor reiniciado", func(a *altaSegura) bool {
		return a.codigo == 0 && a.final.After(reinicio)
	})
	rev.parar(t)
	parado := time.Now()
	// Down until an intent that started after the stop gave up: longer than its waits.
	esperar("una intención que empezó con el revisor parado se rinde", func(a *altaSegura) bool {
		return a.codigo == 1 && a.inicio.After(parado)
	})
	rev = arrancar(t, "revisor", "--puerto", puerto)
	mu.Lock()
	ultimo = time.Now()
	mu.Unlock()
	for range 4 {
		esperar("una intención empezada con el último revisor termina", func(a *altaSegura) bool { return a.despuesDelUlti })
	}
	close(parar)
	<-listo
	wg.Wait()
	t.Logf("el revisor estuvo caído %v la primera vez", reinicio.Sub(caida).Round(time.Millisecond))

	hechos, noHechos := desenlaces(t, corridas)
	if hechos == 0 || noHechos == 0 {
		t.Errorf("%d hechas y %d no hechas: la prueba debía producir de las dos", hechos, noHechos)
	}

	// Never duplicated: no name twice in the revisor that survived. A registration done before the
	// last restart died with that process (the revisor keeps everything in memory).
	cuenta := nombresEnElRevisor(t, rev.url())
	ids := map[string]float64{}
	for _, s := range serviciosDelRevisor(t, rev.url()) {
		ids[s.nombre] = s.id
	}
	for _, a := range corridas {
		if cuenta[a.nombre] > 1 {
			t.Errorf("%s está %d veces", a.nombre, cuenta[a.nombre])
		}
		if a.codigo == 0 && a.despuesDelUlti && (cuenta[a.nombre] != 1 || ids[a.nombre] != a.id) {
			t.Errorf("%s hecho contra el último revisor con id %v: está %d veces (id %v)", a.nombre, a.id, cuenta[a.nombre], ids[a.nombre])
		}
	}
	// Not done, reported with a key: repeating with that key later makes it exactly once.
	for _, a := range corridas {
		if a.codigo == 1 && a.llave != "" {
			if c := altaDirecta(t, pas.url(), a.nombre, a.llave); c != 201 {
				t.Errorf("%s repetido con su llave %s: %d", a.nombre, a.llave, c)
			}
			// Twice: the second is the replay, not a second service.
			if c := altaDirecta(t, pas.url(), a.nombre, a.llave); c != 201 {
				t.Errorf("%s repetido otra vez con su llave: %d", a.nombre, c)
			}
		}
	}
	cuenta = nombresEnElRevisor(t, rev.url())
	for _, a := range corridas {
		if a.codigo == 1 && cuenta[a.nombre] != 1 {
			t.Errorf("%s, no hecho y repetido con su llave, está %d veces", a.nombre, cuenta[a.nombre])
		}
	}
	t.Logf("%d intenciones: %d hechas, %d no hechas (dicho con la frase del curso y repetidas luego con su llave)", len(corridas), hechos, noHechos)
	for _, a := range corridas {
		if testing.Verbose() {
			t.Logf("  %-12s salida %d, %5.1f s: %s", a.nombre, a.codigo, a.final.Sub(a.inicio).Seconds(), a.lineaFinal)
		}
	}
}

// desenlaces reads how each run of alta-segura ended: exit 0 with the course's 201 line, whose id it
// keeps (the service must bear the run's name), or exit 1 with the closing line that names the key
// to repeat with, which it keeps; any other way of ending is an error. It counts the two.
func desenlaces(t *testing.T, corridas []*altaSegura) (hechos, noHechos int) {
	t.Helper()
	for _, a := range corridas {
		lineas := strings.Split(strings.TrimSpace(a.salida), "\n")
		a.lineaFinal = lineas[len(lineas)-1]
		switch a.codigo {
		case 0:
			hechos++
			m := linea201.FindStringSubmatch(a.salida)
			if m == nil {
				t.Errorf("%s salió con 0 sin un 201:\n%s", a.nombre, a.salida)
				continue
			}
			v, err := nodejs.DecodificarJSON([]byte(m[1]))
			o, _ := v.(nodejs.Objeto)
			id, _ := o.Valor("id")
			nombre, _ := o.Texto("nombre")
			if err != nil || nombre != a.nombre {
				t.Errorf("%s: 201 con %q", a.nombre, m[1])
			}
			a.id, _ = id.(float64)
		case 1:
			noHechos++
			m := lineaAgotado.FindStringSubmatch(a.lineaFinal)
			if m == nil {
				t.Errorf("%s salió con 1 sin la frase del curso:\n%s", a.nombre, a.salida)
				continue
			}
			a.llave = m[1]
		default:
			t.Errorf("%s salió con %d:\n%s", a.nombre, a.codigo, a.salida)
		}
	}
	return hechos, noHechos
}
