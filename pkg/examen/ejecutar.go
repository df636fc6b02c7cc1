package examen

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"cursohttp/pkg/topes"
)

// Encargo is one run of the client: the intent's name and URL (its two arguments) and the mark its
// processes carry (VariableCorrida).
type Encargo struct {
	Nombre string `json:"nombre"`
	URL    string `json:"url"`
	Marca  string `json:"-"`
}

// Resultado is how one run of the client ended, as the machine that ran it saw it.
type Resultado struct {
	Salida   int    `json:"salida"`             // its exit code, when it exited by itself
	Detenido bool   `json:"detenido,omitempty"` // it did not end within the limit and was stopped
	Arranque string `json:"no_arranco,omitempty"`
	Texto    []byte `json:"texto,omitempty"` // the first topes.SalidaCliente bytes of its output
}

// Lanzador runs the client once for an intent against the gateway at pasarela, within ctx (which
// ends at the intent's limit), and says how it ended.
type Lanzador func(ctx context.Context, pasarela string, e Encargo) Resultado

// Proceso is the Lanzador of a client program: orden and its first arguments, with NOMBRE and URL
// appended, in entorno (made the client's: entornoCliente), its process group stopped at the
// limit and whatever it left behind swept.
func Proceso(ruta string, orden, entorno []string) Lanzador {
	return func(ctx context.Context, pasarela string, e Encargo) Resultado {
		args := append(append([]string{}, orden[1:]...), e.Nombre, e.URL)
		cmd := exec.CommandContext(ctx, ruta, args...)
		cmd.Args[0] = orden[0]
		cmd.Env = entornoCliente(entorno, pasarela, e.Marca)
		salida := &acotada{}
		cmd.Stdout, cmd.Stderr = salida, salida
		var detenido bool
		adoptar()
		agrupar(cmd)
		cmd.Cancel = func() error {
			detenido = true
			return matarGrupo(cmd)
		}
		// A grandchild that keeps the output open does not keep the grader waiting.
		cmd.WaitDelay = time.Second
		err := arrancar(cmd, e.Marca)
		if err == nil {
			err = cmd.Wait()
			clientes.Lock()
			delete(clientes.vivos, cmd.Process.Pid)
			clientes.Unlock()
			// What the client left behind (a background child, one that detached with setsid, one
			// that also cleared its environment) goes with it.
			matarGrupo(cmd) //nolint:errcheck // a group already gone is the usual case
			barrer(cmd.Process.Pid, e.Marca)
		}
		if cmd.ProcessState == nil {
			// It did not start (the program vanished, or is not an executable): the same as no attempt.
			return Resultado{Arranque: err.Error(), Texto: salida.b}
		}
		return Resultado{Salida: cmd.ProcessState.ExitCode(), Detenido: detenido, Texto: salida.b}
	}
}

// clientes are the client processes running now in this process (every grading's), by pid, with
// their marks: the sweep after one run (barrer) spares the others' and what they started. The
// lock also covers a start and its entry, so a sweep never sees a client not yet written down.
var clientes = struct {
	sync.Mutex
	vivos map[int]string
}{vivos: map[int]string{}}

// arrancar starts the client and writes it down among the running ones.
func arrancar(cmd *exec.Cmd, marca string) error {
	clientes.Lock()
	defer clientes.Unlock()
	if err := cmd.Start(); err != nil {
		return err
	}
	clientes.vivos[cmd.Process.Pid] = marca
	return nil
}

// Avisos are told when each run of the client starts and ends (a class lab hears them through the
// student's machine).
type Avisos struct {
	Empieza func(grupo, vez int) error
	Termina func(grupo, vez int, r Resultado)
}

// Ejecutar runs every group's intents, paralelo groups at a time and one after another within a
// group, each within limite: a group that starts late on a small machine would otherwise starve
// (twenty interpreters starting at once, a JVM, Node). An Empieza that fails skips that intent.
func Ejecutar(ctx context.Context, grupos [][]Encargo, paralelo int, limite time.Duration, pasarela string, lanzar Lanzador, a Avisos) {
	if paralelo <= 0 {
		paralelo = ParaleloPorOmision
	}
	cola := make(chan int, len(grupos))
	for i := range grupos {
		cola <- i
	}
	close(cola)
	var todos sync.WaitGroup
	for range min(paralelo, len(grupos)) {
		todos.Add(1)
		go func() {
			defer todos.Done()
			for g := range cola {
				for v, e := range grupos[g] {
					if ctx.Err() != nil {
						return
					}
					if a.Empieza != nil && a.Empieza(g, v) != nil {
						continue
					}
					ctxI, cancelar := context.WithTimeout(ctx, limite)
					r := lanzar(ctxI, pasarela, e)
					if ctxI.Err() == context.DeadlineExceeded && ctx.Err() == nil {
						r.Detenido = true
					}
					cancelar()
					if a.Termina != nil {
						a.Termina(g, v, r)
					}
				}
			}
		}()
	}
	todos.Wait()
}

// Encargos are the run's groups as a Lanzador takes them.
func (c *Corrida) Encargos() [][]Encargo {
	var l [][]Encargo
	for _, g := range c.grupos {
		var eg []Encargo
		for _, in := range g {
			eg = append(eg, Encargo{Nombre: in.Nombre, URL: in.URL, Marca: c.secreto + "-" + in.Nombre})
		}
		l = append(l, eg)
	}
	return l
}

// VariablePasarela is the environment variable that tells the client the gateway's base URL.
const VariablePasarela = "PASARELA_URL"

// VariableCorrida marks every process a client run starts (pkg/examen's cleanup finds them by it
// on Linux, however they detached); its value is the run's secret and the intent's name.
const VariableCorrida = "COMPROBAR_CORRIDA"

// entornoCliente is the client's environment: what the grader's own had, without the lab's
// variables (CURSOHTTP_*: its token, the class token) nor a PASARELA_URL of its own, plus the
// contract's PASARELA_URL and the run's mark.
func entornoCliente(base []string, urlPasarela, marca string) []string {
	var e []string
	for _, v := range base {
		nombre, _, _ := strings.Cut(v, "=")
		if strings.HasPrefix(strings.ToUpper(nombre), "CURSOHTTP_") || nombre == VariablePasarela || nombre == VariableCorrida {
			continue
		}
		e = append(e, v)
	}
	return append(e, VariablePasarela+"="+urlPasarela, VariableCorrida+"="+marca)
}

// acotada keeps the first topes.SalidaCliente bytes written to it (for nothing but --json's tail)
// and counts the rest, read and thrown away, so a client that prints megabytes costs nothing.
type acotada struct {
	mu    sync.Mutex
	b     []byte
	total int64
}

func (a *acotada) Write(p []byte) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.total += int64(len(p))
	if falta := topes.SalidaCliente - len(a.b); falta > 0 {
		a.b = append(a.b, p[:min(falta, len(p))]...)
	}
	return len(p), nil
}

// lanzadorDe is lanzar, or, without one, what runs orden as a process of its own with entorno
// (this process's when nil); falta is the line for a missing command, which names the grading's
// own flags.
func lanzadorDe(lanzar Lanzador, orden, entorno []string, falta string) (Lanzador, error) {
	if lanzar != nil {
		return lanzar, nil
	}
	if len(orden) == 0 {
		return nil, &Error{Texto: falta, Uso: true}
	}
	ruta, err := exec.LookPath(orden[0])
	if err != nil {
		return nil, &Error{Texto: fmt.Sprintf("no encuentro la orden «%s»: %s", orden[0], causaDeRuta(err)), Uso: true}
	}
	if entorno == nil {
		entorno = os.Environ()
	}
	return Proceso(ruta, orden, entorno), nil
}
