//go:build unix

// Command bench is `make bench`: it starts the built servers, loads each with the suite's own
// generator (pkg/carga) and prints, for each path, req/s, p50, p99 and the CPU one request costs
// the servers, beside two limits measured in the same run: a trivial net/http handler writing the
// same body as GET /servicios/1, and a stock httputil.ReverseProxy on net/http's Transport in front
// of a revisor like the gateway's. CPU per request depends far less than req/s on what else the
// shared machine runs, so the targets are ratios of it; and each path is loaded at the same time as
// its limit, round after round, so that whatever else runs weighs on both, and a ratio is the
// median of the rounds'. Then start-up, resident memory
// and a 50 MB upload, and which targets hold. It never fails on a target: it reports (CI runs
// --corto). It drives the binaries from outside, as a student's terminal would, so it measures
// what ships. With --perfiles it writes each scenario's CPU profiles instead (make perfiles).
//
// It reads /proc and getrusage: it measures the Linux machines the suite's targets are set on.
package main

import (
	"bytes"
	"context"
	"cursohttp/internal/proc"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"cursohttp/pkg/carga"
	"cursohttp/pkg/cli"
	"cursohttp/pkg/curso"
	"cursohttp/pkg/pasarela"
	"cursohttp/pkg/topes"
)

// configuracion is one run's setup, printed in the table's header so a figure is never read
// without the conditions it was measured under.
type configuracion struct {
	bin          string
	duracion     time.Duration
	calentar     time.Duration
	trabajadores int
	cpuGenerador int
	bitacora     string
	arranques    int
	rondas       int
	perfiles     string
}

func main() {
	trivial := flag.Bool("trivial", false, "serve the trivial JSON server on --puerto (used by the bench itself)")
	proxy := flag.String("proxy-estandar", "", "serve a stock httputil.ReverseProxy to this URL on --puerto (used by the bench itself)")
	puerto := flag.Int("puerto", 0, "port for --trivial and --proxy-estandar")
	var c configuracion
	flag.StringVar(&c.bin, "bin", "bin", "folder with the built programs")
	flag.DurationVar(&c.duracion, "duracion", 8*time.Second, "how long each scenario is measured, all rounds together")
	flag.DurationVar(&c.calentar, "calentar", 200*time.Millisecond, "unmeasured load before each scenario (connections, caches)")
	flag.IntVar(&c.trabajadores, "trabajadores", 32, "concurrent keep-alive workers, the same for every scenario")
	flag.IntVar(&c.cpuGenerador, "cpu-generador", 0, "GOMAXPROCS of the load generator; 0 keeps the default (every core). With 1 the generator, not the server, limits the rate")
	flag.StringVar(&c.bitacora, "bitacora", "archivo", "where the servers' log goes: archivo (a file, as make lab-up), tubo (a pipe this process drains, as make lab), nula (/dev/null)")
	flag.IntVar(&c.rondas, "rondas", 8, "rounds; each scenario runs duracion/rondas per round, the scenarios interleaved; a ratio is the median of the rounds'")
	flag.IntVar(&c.arranques, "arranques", 5, "start-ups per server; the median is shown")
	flag.StringVar(&c.perfiles, "perfiles", "", "instead of the table: a CPU profile (pprof) of each scenario's servers in this folder, and their top functions")
	corto := flag.Bool("corto", false, "the short form CI runs: 3 rounds of 0.5 s, 3 start-ups (it only reports)")
	flag.Parse()
	if *trivial || *proxy != "" {
		cli.Main(func(ctx context.Context, _ []string, _ io.Reader, stdout, stderr io.Writer) int {
			return servirLimite(ctx, *puerto, *proxy, stderr)
		})
	}
	if *corto {
		puestas := map[string]bool{}
		flag.Visit(func(f *flag.Flag) { puestas[f.Name] = true })
		if !puestas["duracion"] {
			c.duracion = 1500 * time.Millisecond
		}
		if !puestas["rondas"] {
			c.rondas = 3
		}
		if !puestas["arranques"] {
			c.arranques = 3
		}
	}
	if c.cpuGenerador > 0 {
		runtime.GOMAXPROCS(c.cpuGenerador)
	}
	switch c.bitacora {
	case "archivo", "tubo", "nula":
	default:
		fmt.Fprintln(os.Stderr, "bench: --bitacora es archivo, tubo o nula")
		os.Exit(2)
	}
	if err := correr(c); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// cuerpoTrivial is the bytes GET /servicios/1 answers on a fresh revisor: the trivial server
// writes the same body, so the two differ only in what the revisor does to get there.
var cuerpoTrivial = []byte(`{"id":1,"nombre":"catalogo","url":"` + curso.URLLaboratorio + `/codigo/200","limite_ms":2000}` + "\n")

// servirLimite serves one of the bench's two limits on puerto until ctx ends: with destino empty,
// the trivial handler, the fastest a Go HTTP server answers that body on this machine; otherwise a
// stock httputil.ReverseProxy to destino on net/http's Transport, pooled as the gateway's
// (pasarela.NuevoTransporte). Neither logs: they are the floor.
func servirLimite(ctx context.Context, puerto int, destino string, stderr io.Writer) int {
	var h http.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(cuerpoTrivial)))
		w.Write(cuerpoTrivial)
	})
	if destino != "" {
		u, err := url.Parse(destino)
		if err != nil {
			fmt.Fprintln(stderr, "bench:", err)
			return 2
		}
		rp := httputil.NewSingleHostReverseProxy(u)
		rp.Transport = pasarela.NuevoTransporte()
		h = rp
	}
	// The limit keeps the timeouts every server must set (the suite's: pkg/topes): a server without
	// them is not one anybody may ship, so its CPU is no floor for ours. They cost a request three
	// deadline changes (runtime timers), which the suite's servers pay too.
	srv := &http.Server{Addr: "127.0.0.1:" + strconv.Itoa(puerto), Handler: h,
		ReadHeaderTimeout: topes.EsperaCabeceras, ReadTimeout: topes.EsperaLectura, IdleTimeout: topes.EsperaOciosa}
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()
	select {
	case err := <-errc:
		fmt.Fprintln(stderr, "bench:", err)
		return 1
	case <-ctx.Done():
		srv.Close()
		return 0
	}
}

// proceso is one started server.
type proceso struct {
	nombre   string
	cmd      *exec.Cmd
	url      string
	arranque time.Duration
	log      *os.File // the log file, with --bitacora archivo
}

// libre returns a free local port. The programs would print their real address with port 0, but the
// gateway needs the revisor's port before it starts.
func libre() int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// arrancar starts a program and waits for its first answer; the time until then is its start-up.
func arrancar(c configuracion, dir, nombre, ruta string, puerto int, entorno []string, args ...string) (*proceso, error) {
	if _, err := os.Stat(ruta); err != nil {
		return nil, fmt.Errorf("%s no está construido (%s): make build", nombre, ruta)
	}
	url := "http://127.0.0.1:" + strconv.Itoa(puerto)
	cmd := exec.Command(ruta, append([]string{"--puerto", strconv.Itoa(puerto)}, args...)...)
	// The servers get the machine's default GOMAXPROCS whatever the generator uses.
	cmd.Env = append(slices.DeleteFunc(os.Environ(), func(s string) bool { return strings.HasPrefix(s, "GOMAXPROCS=") }), entorno...)
	p := &proceso{nombre: nombre, cmd: cmd, url: url}
	switch c.bitacora {
	case "archivo":
		f, err := os.Create(filepath.Join(dir, nombre+".log"))
		if err != nil {
			return nil, err
		}
		cmd.Stdout, cmd.Stderr, p.log = f, f, f
	case "tubo":
		// os/exec copies a non-file writer through a pipe in this process, like `make lab`'s prefixer.
		cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	}
	inicio := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	cliente := &http.Client{Timeout: 200 * time.Millisecond, Transport: &http.Transport{DisableKeepAlives: true}}
	for time.Since(inicio) < 5*time.Second {
		res, err := cliente.Get(url + "/")
		if err == nil {
			res.Body.Close()
			p.arranque = time.Since(inicio)
			return p, nil
		}
		time.Sleep(200 * time.Microsecond)
	}
	p.parar()
	return nil, fmt.Errorf("%s no respondió en 5 s", nombre)
}

func (p *proceso) parar() {
	p.cmd.Process.Signal(os.Interrupt)
	hecho := make(chan struct{})
	go func() { p.cmd.Wait(); close(hecho) }()
	select {
	case <-hecho:
	case <-time.After(3 * time.Second):
		p.cmd.Process.Kill()
		<-hecho
	}
	if p.log != nil {
		p.log.Close()
	}
}

// medianaDeArranque starts the program n times on fresh ports and returns the median start-up.
func medianaDeArranque(c configuracion, dir, nombre, ruta string, args func(puerto int) []string) (time.Duration, error) {
	var tiempos []time.Duration
	for range max(c.arranques, 1) {
		pu := libre()
		p, err := arrancar(c, dir, nombre+"-arranque", ruta, pu, nil, args(pu)...)
		if err != nil {
			return 0, err
		}
		tiempos = append(tiempos, p.arranque)
		p.parar()
	}
	slices.Sort(tiempos)
	return tiempos[len(tiempos)/2], nil
}

// estadoDe reads a field of /proc/PID/status as a number (kB for Vm* fields).
func estadoDe(pid int, campo string) int64 { return max(proc.Estado(pid, campo), 0) }

// rss is the resident memory of a process in bytes.
func rss(pid int) int64 { return estadoDe(pid, "VmRSS") * 1024 }

// cpuDe is the CPU time a process has used so far (user + system, every thread, from
// /proc/PID/stat, in USER_HZ ticks of 10 ms).
func cpuDe(pid int) time.Duration {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0
	}
	// The command name may hold spaces; the fields after its closing parenthesis do not.
	campos := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(campos) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(campos[11], 10, 64)
	s, _ := strconv.ParseInt(campos[12], 10, 64)
	return time.Duration(u+s) * 10 * time.Millisecond
}

type escenario struct {
	clave, nombre string
	p             carga.Peticion
	propios       []*proceso // whose CPU is the scenario's own cost
	detras        []*proceso // the server behind a proxy: reported apart
	// limite is the limit measured at the same time as the scenario (trivial or proxy); "" for a
	// limit itself.
	limite string
	// frente, when set, is the scenario the ratio is against instead of the limit: both are
	// measured against the same limit, and the ratio is the quotient of their ratios.
	frente string
	factor float64 // the target: the ratio at most factor; 0 = none
}

type fila struct {
	escenario
	r            carga.Resultado
	propia, tras time.Duration // CPU per request: the scenario's servers, the one behind them
	// porRonda and limiteRonda are, round by round, the scenario's own CPU per request and its
	// limit's, measured at the same time.
	porRonda, limiteRonda []time.Duration
}

func bearer(cred string) http.Header { return http.Header{"Authorization": {"Bearer " + cred}} }

// montaje is every server of one run: the two limits (the trivial handler and the stock reverse
// proxy, both this same program) and the suite's three, the proxy and the gateway in front of the
// same revisor.
type montaje struct {
	trivial, proxy, lab, rev, pas *proceso
	revSQL                        *proceso // the same revisor with its data in an embedded SQLite file (--datos)
	pasDir                        *proceso // the gateway on its own transport instead of net/http's (--transporte directo)
	revProxy                      *proceso // a revisor like rev for the stock proxy alone: the two proxies run at once
	revGo                         *proceso // the revisor with net/http's head (--cabeceras go): what the course's order costs
}

func (m *montaje) todos() []*proceso {
	return slices.DeleteFunc([]*proceso{m.pas, m.pasDir, m.proxy, m.rev, m.revProxy, m.revSQL, m.revGo, m.lab, m.trivial}, func(p *proceso) bool { return p == nil })
}

func (m *montaje) parar() {
	for _, p := range m.todos() {
		p.parar()
	}
}

// montar starts every server; perfil, when set, names each one's CPU profile file.
func montar(c configuracion, dir string, perfil func(nombre string) string) (*montaje, error) {
	yo, err := os.Executable()
	if err != nil {
		return nil, err
	}
	binario := func(n string) string { return filepath.Join(c.bin, n) }
	entorno := func(n string) []string {
		if perfil == nil {
			return nil
		}
		return []string{cli.VariablePerfil + "=" + perfil(n)}
	}
	m := &montaje{}
	arr := func(destino **proceso, nombre, ruta string, args ...string) error {
		if err != nil {
			return err
		}
		*destino, err = arrancar(c, dir, nombre, ruta, libre(), entorno(nombre), args...)
		return err
	}
	arr(&m.trivial, "trivial", yo, "--trivial")
	arr(&m.lab, "laboratorio", binario("laboratorio"))
	arr(&m.rev, "revisor", binario("revisor"))
	arr(&m.revProxy, "revisor-proxy", binario("revisor"))
	arr(&m.revSQL, "revisor-sqlite", binario("revisor"), "--datos", filepath.Join(dir, "revisor.db"))
	arr(&m.revGo, "revisor-cabeceras-go", binario("revisor"), "--cabeceras", "go")
	if err == nil {
		arr(&m.proxy, "proxy", yo, "--proxy-estandar", m.revProxy.url)
		arr(&m.pas, "pasarela", binario("pasarela"), "--destino", m.rev.url, "--transporte", "estandar")
		arr(&m.pasDir, "pasarela-directo", binario("pasarela"), "--destino", m.rev.url, "--transporte", "directo")
	}
	if err != nil {
		m.parar()
		return nil, err
	}
	return m, nil
}

// escenarios are the paths measured, each against its limit (the issue-17 targets).
func (m *montaje) escenarios(cliente *http.Client) ([]escenario, error) {
	etag, cuerpo, err := etiquetaDe(cliente, m.rev.url+"/servicios/1")
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(cuerpo, cuerpoTrivial) {
		return nil, fmt.Errorf("GET /servicios/1 ya no responde lo que escribe el servidor trivial: %q", cuerpo)
	}
	alta := carga.Peticion{
		Metodo: "POST", URL: m.rev.url + "/servicios",
		Cabeceras: http.Header{
			"Authorization": {"Bearer escritura-a"}, "Content-Type": {"application/json"},
			"Idempotency-Key": {"bench-una-llave"},
		},
		Cuerpo: []byte(`{"nombre":"bench","url":"` + curso.URLLaboratorio + `/codigo/200"}`),
	}
	altaSQL := alta
	altaSQL.URL = m.revSQL.url + "/servicios"
	// The first one registers (201 after the course's 500 ms save); every later one is a replay.
	for _, a := range []carga.Peticion{alta, altaSQL} {
		if res, err := hacer(cliente, a); err != nil || res != http.StatusCreated {
			return nil, fmt.Errorf("el alta inicial en %s dio %d %v, se esperaba 201", a.URL, res, err)
		}
	}
	conEtiqueta := bearer("lectura-a")
	conEtiqueta.Set("If-None-Match", etag)
	rev := []*proceso{m.rev}
	obtener := func(url string) carga.Peticion {
		return carga.Peticion{Metodo: "GET", URL: url + "/servicios/1", Cabeceras: bearer("lectura-a")}
	}
	return []escenario{
		{clave: "trivial", nombre: "trivial net/http (límite)", p: carga.Peticion{Metodo: "GET", URL: m.trivial.url + "/"}, propios: []*proceso{m.trivial}},
		// 1.3, not 1.2 since the standard machinery is the default (docs/rendimiento.md): one write
		// system call per log line and a write deadline per answer, about 1 µs of the ~12.
		{clave: "get", nombre: nGet, p: obtener(m.rev.url), propios: rev, limite: "trivial", factor: 1.3},
		{clave: "304", nombre: "revisor GET If-None-Match (304)", p: carga.Peticion{Metodo: "GET", URL: m.rev.url + "/servicios/1", Cabeceras: conEtiqueta}, propios: rev, limite: "trivial", factor: 1.3},
		{clave: "404", nombre: "revisor ruta inexistente (404)", p: carga.Peticion{Metodo: "GET", URL: m.rev.url + "/no-existe"}, propios: rev, limite: "trivial", factor: 1.3},
		// 1.5× a GET: a repeated registration writes two log lines (its request line and the lesson's
		// «idempotencia: … repito su respuesta»), each one write of its own (docs/rendimiento.md).
		{clave: "post", nombre: "revisor POST repetido (misma llave)", p: alta, propios: rev, limite: "trivial", frente: "get", factor: 1.5},
		{clave: "proxy", nombre: "ReverseProxy estándar → revisor (límite)", p: obtener(m.proxy.url), propios: []*proceso{m.proxy}, detras: []*proceso{m.revProxy}},
		{clave: "pasarela", nombre: "pasarela → revisor GET /servicios/1", p: obtener(m.pas.url), propios: []*proceso{m.pas}, detras: rev, limite: "proxy", factor: 1},
		// The gateway's own transport (pasarela.Directo, CURSOHTTP_RAPIDO=1) against net/http's, the
		// default, in the same gateway.
		{clave: "pasdir", nombre: "pasarela (pasarela.Directo) → revisor", p: obtener(m.pasDir.url), propios: []*proceso{m.pasDir}, detras: rev, limite: "proxy"},
		// The store in SQLite against the one in memory (issue 13).
		{clave: "getsql", nombre: "revisor --datos (SQLite) GET", p: obtener(m.revSQL.url), propios: []*proceso{m.revSQL}, limite: "trivial", frente: "get", factor: 2},
		{clave: "postsql", nombre: "revisor --datos (SQLite) POST rep.", p: altaSQL, propios: []*proceso{m.revSQL}, limite: "trivial", frente: "post"},
		// The head in the course's order (pkg/encabezado) against net/http's own, in the same revisor.
		{clave: "getgo", nombre: "revisor GET (--cabeceras go)", p: obtener(m.revGo.url), propios: []*proceso{m.revGo}, limite: "trivial"},
		{clave: "lab", nombre: "laboratorio GET /codigo/200", p: carga.Peticion{Metodo: "GET", URL: m.lab.url + "/codigo/200"}, propios: []*proceso{m.lab}, limite: "trivial"},
	}, nil
}

const nGet = "revisor GET /servicios/1"

func cpuDeTodos(ps []*proceso) (t time.Duration) {
	for _, p := range ps {
		t += cpuDe(p.cmd.Process.Pid)
	}
	return t
}

// lado is what one side of a pair used during one measurement.
type lado struct {
	r            carga.Resultado
	propia, tras time.Duration
}

// aPar loads e and its limit l at the same time, half the workers each, for d, and returns what
// each used: whatever else the machine does meanwhile weighs on both.
func aPar(ctx context.Context, c configuracion, cliente *http.Client, e, l escenario, d time.Duration) (le, ll lado) {
	mitad := max(c.trabajadores/2, 1)
	e0, et0, l0, lt0 := cpuDeTodos(e.propios), cpuDeTodos(e.detras), cpuDeTodos(l.propios), cpuDeTodos(l.detras)
	var wg sync.WaitGroup
	wg.Go(func() { le.r = carga.Medir(ctx, cliente, e.p, mitad, d) })
	wg.Go(func() { ll.r = carga.Medir(ctx, cliente, l.p, mitad, d) })
	wg.Wait()
	le.propia, le.tras = cpuDeTodos(e.propios)-e0, cpuDeTodos(e.detras)-et0
	ll.propia, ll.tras = cpuDeTodos(l.propios)-l0, cpuDeTodos(l.detras)-lt0
	return le, ll
}

// medir runs, round after round, every scenario at the same time as its limit (see aPar), and adds
// up the rounds; a limit's own row adds up every pair it was in.
func medir(ctx context.Context, c configuracion, cliente *http.Client, escenarios []escenario) []fila {
	type acumulado struct {
		res                   carga.Resultado
		propia, tras          time.Duration
		p50, p99              []time.Duration
		porRonda, limiteRonda []time.Duration
	}
	acum := make([]acumulado, len(escenarios))
	sumar := func(a *acumulado, l lado) {
		a.propia += l.propia
		a.tras += l.tras
		a.res.Peticiones += l.r.Peticiones
		a.res.Errores += l.r.Errores
		a.res.Duracion += l.r.Duracion
		if a.res.Codigos == nil {
			a.res.Codigos = map[int]int{}
		}
		for k, v := range l.r.Codigos {
			a.res.Codigos[k] += v
		}
		a.p50 = append(a.p50, l.r.P50)
		a.p99 = append(a.p99, l.r.P99)
	}
	porPeticion := func(l lado) time.Duration {
		if l.r.Peticiones == 0 {
			return 0
		}
		return l.propia / time.Duration(l.r.Peticiones)
	}
	indice := func(clave string) int {
		return slices.IndexFunc(escenarios, func(e escenario) bool { return e.clave == clave })
	}
	porRonda := c.duracion / time.Duration(max(c.rondas, 1))
	for range max(c.rondas, 1) {
		for i, e := range escenarios {
			if e.limite == "" {
				continue
			}
			j := indice(e.limite)
			if c.calentar > 0 {
				aPar(ctx, c, cliente, e, escenarios[j], c.calentar)
			}
			le, ll := aPar(ctx, c, cliente, e, escenarios[j], porRonda)
			sumar(&acum[i], le)
			sumar(&acum[j], ll)
			acum[i].porRonda = append(acum[i].porRonda, porPeticion(le))
			acum[i].limiteRonda = append(acum[i].limiteRonda, porPeticion(ll))
		}
	}
	filas := make([]fila, len(escenarios))
	for i, e := range escenarios {
		a := acum[i]
		f := fila{escenario: e, r: a.res, porRonda: a.porRonda, limiteRonda: a.limiteRonda}
		// Pairs ran at once: the throughput is each side's requests over its own time.
		f.r.Duracion = a.res.Duracion
		f.r.P50, f.r.P99 = mediana(a.p50), mediana(a.p99)
		if n := time.Duration(a.res.Peticiones); n > 0 {
			f.propia, f.tras = a.propia/n, a.tras/n
		}
		filas[i] = f
	}
	return filas
}

func correr(c configuracion) error {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "bench-bitacoras-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if c.perfiles != "" {
		return perfilar(ctx, c, dir)
	}
	carga0 := cargaDelSistema()

	// Start-up first, before any load heats the machine: time to the first answer, median of n.
	arranques := map[string]time.Duration{}
	for _, s := range []struct {
		nombre string
		args   func(int) []string
	}{
		{"laboratorio", func(int) []string { return nil }},
		{"revisor", func(int) []string { return nil }},
		{"pasarela", func(int) []string { return []string{"--destino", "http://127.0.0.1:" + strconv.Itoa(libre())} }},
	} {
		d, err := medianaDeArranque(c, dir, s.nombre, filepath.Join(c.bin, s.nombre), s.args)
		if err != nil {
			return err
		}
		arranques[s.nombre] = d
	}

	m, err := montar(c, dir, nil)
	if err != nil {
		return err
	}
	defer m.parar()
	cliente := carga.NuevoCliente(c.trabajadores)
	escenarios, err := m.escenarios(cliente)
	if err != nil {
		return err
	}
	filas := medir(ctx, c, cliente, escenarios)
	porClave := map[string]fila{}
	for _, f := range filas {
		porClave[f.clave] = f
	}

	fmt.Printf("Montaje: %d núcleos compartidos por el generador y los servidores (carga del sistema al empezar: %s).\n", runtime.NumCPU(), carga0)
	fmt.Printf("Generador en este proceso con GOMAXPROCS=%d. Cada escenario corre a la vez que su límite, con %d\n", runtime.GOMAXPROCS(0), max(c.trabajadores/2, 1))
	fmt.Printf("trabajadores keep-alive cada uno, así que lo demás que corra en la máquina pesa sobre los dos; %d ronda(s)\n", max(c.rondas, 1))
	fmt.Printf("alternando los escenarios, en cada una %s de calentamiento y %s medidos (p50 y p99: mediana de las\n",
		c.calentar, c.duracion/time.Duration(max(c.rondas, 1)))
	fmt.Printf("rondas; la fila de un límite suma todas sus parejas). Servidores con GOMAXPROCS por omisión; bitácora %s.\n", descripcionBitacora(c.bitacora))
	fmt.Printf("µs CPU/pet: tiempo de CPU (usuario + sistema, /proc/PID/stat) de los servidores del escenario entre\n")
	fmt.Printf("las peticiones servidas; el de un proxy es solo el suyo, y «detrás» el del revisor al que reenvía\n")
	fmt.Printf("(el ReverseProxy tiene un revisor igual para él solo, para poder medirlo a la vez que la pasarela).\n")
	fmt.Printf("razón: esa CPU frente a la de su límite en la misma ronda (el trivial escribe el mismo cuerpo que\n")
	fmt.Printf("GET /servicios/1; el ReverseProxy es httputil con el Transport de net/http), o frente a la de otro\n")
	fmt.Printf("escenario como cociente de sus razones con el mismo límite: la mediana de las rondas, entre\n")
	fmt.Printf("paréntesis la menor y la mayor.\n\n")
	fmt.Printf("%-42s %7s %8s %8s %10s %8s  %-36s %s\n", "escenario", "req/s", "p50", "p99", "µs CPU/pet", "detrás", "razón", "códigos")
	for _, f := range filas {
		detras := ""
		if len(f.detras) > 0 {
			detras = fmt.Sprintf("%.1f", us(f.tras))
		}
		fmt.Printf("%-42s %7.0f %8s %8s %10.1f %8s  %-36s %s\n", f.nombre, f.r.PorSegundo(), ms(f.r.P50), ms(f.r.P99),
			us(f.propia), detras, textoRazon(f, porClave), codigos(f.r))
	}

	fmt.Println()
	for _, n := range []string{"laboratorio", "revisor", "pasarela"} {
		fmt.Printf("arranque de %-12s %6.1f ms (hasta la primera respuesta, mediana de %d)\n", n, float64(arranques[n].Microseconds())/1000, max(c.arranques, 1))
	}
	fmt.Println()
	servidores := []*proceso{m.lab, m.rev, m.pas}
	// The target is on anonymous memory, what the server itself holds (heap, stacks): the pages of
	// its binary are the system's page cache, shared and dropped under pressure, and counting them
	// once took a madvise hack (MADV_DONTNEED on the binary) that bought nothing but the figure.
	despues := map[string]int64{}
	for _, p := range servidores {
		pid := p.cmd.Process.Pid
		despues[p.nombre] = estadoDe(pid, "RssAnon") * 1024
		fmt.Printf("memoria residente de %-12s tras la carga: %5.1f MB (anónima %4.1f, del binario %4.1f), %d hilos\n", p.nombre,
			mb(rss(pid)), mb(despues[p.nombre]), mb(estadoDe(pid, "RssFile")*1024), estadoDe(pid, "Threads"))
	}
	fmt.Printf("memoria residente de %-12s tras la carga: %5.1f MB, %d hilos (con --datos)\n", "revisor", mb(rss(m.revSQL.cmd.Process.Pid)), estadoDe(m.revSQL.cmd.Process.Pid, "Threads"))
	// The 50 MB upload: the revisor must refuse it without holding it, the laboratory must not read it
	// into memory, the gateway must stream it to the revisor and pass the refusal back.
	crece := map[string]int64{}
	for _, s := range []struct {
		p    *proceso
		ruta string
	}{{m.lab, "/codigo/200"}, {m.rev, "/servicios"}, {m.pas, "/servicios"}} {
		antes := rss(s.p.cmd.Process.Pid)
		codigo, err := postGrande(s.p.url+s.ruta, 50<<20)
		time.Sleep(300 * time.Millisecond)
		tras := rss(s.p.cmd.Process.Pid)
		crece[s.p.nombre] = tras - antes
		fmt.Printf("POST de 50 MB por partes a %-12s %-11s → %3d %s; memoria %5.1f → %5.1f MB (crece %4.1f MB)\n",
			s.p.nombre, s.ruta, codigo, errTexto(err), mb(antes), mb(tras), mb(tras-antes))
	}

	fmt.Println()
	maxArranque := max(arranques["laboratorio"], arranques["revisor"], arranques["pasarela"])
	maxMem := max(despues["laboratorio"], despues["revisor"], despues["pasarela"])
	maxCrece := max(crece["laboratorio"], crece["revisor"], crece["pasarela"])
	type objetivo struct {
		nombre string
		ok     bool
		valor  string
	}
	var objetivos []objetivo
	for _, f := range filas {
		if f.factor == 0 {
			continue
		}
		r := razonCPU(f, porClave)
		objetivos = append(objetivos, objetivo{
			fmt.Sprintf("%s ≤ %.1f× %s", f.nombre, f.factor, contra(f, porClave)), r > 0 && r <= f.factor, fmt.Sprintf("%.2f×", r),
		})
	}
	// Directo stays only while it buys at least a tenth of the gateway's CPU against net/http's
	// Transport in the same gateway (the team's rule for a hand-written replacement).
	directo := porClave["pasdir"]
	directo.frente = "pasarela"
	r := razonCPU(directo, porClave)
	// What writing the head in the course's order costs a GET, against net/http's head: reported
	// beside the targets, not one of them (net/http cannot write that head at all).
	cabeza := porClave["get"]
	cabeza.frente, cabeza.factor = "getgo", 0
	fmt.Printf("cabeceras en el orden del curso (pkg/encabezado): GET /servicios/1 cuesta %s\n\n", textoRazon(cabeza, porClave))
	objetivos = append(objetivos,
		objetivo{"pasarela.Directo ≤ 0.9× el Transport de net/http", r > 0 && r <= 0.9, fmt.Sprintf("%.2f×", r)},
		objetivo{"arranque < 20 ms (los tres)", maxArranque < 20*time.Millisecond, ms(maxArranque)},
		objetivo{"memoria anónima tras la carga ≤ 12 MB (los tres)", maxMem <= 12<<20, fmt.Sprintf("%.1f MB", mb(maxMem))},
		objetivo{"POST de 50 MB crece ≤ 2 MB (los tres)", maxCrece <= 2<<20, fmt.Sprintf("%.1f MB", mb(maxCrece))},
	)
	cumplen := 0
	for _, o := range objetivos {
		marca := "cumple"
		if o.ok {
			cumplen++
		} else {
			marca = "NO cumple"
		}
		fmt.Printf("%-62s %-9s %s\n", o.nombre, o.valor, marca)
	}
	fmt.Printf("\n%d de %d objetivos se cumplen (carga del sistema al terminar: %s).\n", cumplen, len(objetivos), cargaDelSistema())
	return nil
}

// nombreCorto names a limit in a target's line.
func (e escenario) nombreCorto() string {
	switch e.clave {
	case "trivial":
		return "trivial"
	case "proxy":
		return "ReverseProxy"
	case "get":
		return "GET"
	case "post":
		return "POST rep."
	}
	return e.nombre
}

// contraLimite are the scenario's own CPU per request over its limit's, round by round, each
// pair measured at the same time.
func contraLimite(f fila) []float64 {
	rs := make([]float64, len(f.porRonda))
	for k := range f.porRonda {
		if k < len(f.limiteRonda) && f.limiteRonda[k] > 0 {
			rs[k] = float64(f.porRonda[k]) / float64(f.limiteRonda[k])
		}
	}
	return rs
}

// razones are the ratios of the scenario's target, round by round and sorted: against its limit,
// or against frente as the quotient of the two scenarios' ratios to the same limit. nil for a limit.
func razones(f fila, porClave map[string]fila) []float64 {
	if f.limite == "" {
		return nil
	}
	rs := contraLimite(f)
	if f.frente != "" {
		otro := contraLimite(porClave[f.frente])
		for k := range rs {
			if k < len(otro) && otro[k] > 0 {
				rs[k] /= otro[k]
			} else {
				rs[k] = 0
			}
		}
	}
	rs = slices.DeleteFunc(rs, func(r float64) bool { return r <= 0 })
	slices.Sort(rs)
	return rs
}

// razonCPU is the median of razones: a burst of the machine's other work in one round moves it
// less than it moves a sum. 0 without a limit.
func razonCPU(f fila, porClave map[string]fila) float64 {
	rs := razones(f, porClave)
	if len(rs) == 0 {
		return 0
	}
	if n := len(rs); n%2 == 0 {
		return (rs[n/2-1] + rs[n/2]) / 2
	}
	return rs[len(rs)/2]
}

// contra names what the ratio is against.
func contra(f fila, porClave map[string]fila) string {
	if f.frente != "" {
		return porClave[f.frente].nombreCorto()
	}
	return porClave[f.limite].nombreCorto()
}

func textoRazon(f fila, porClave map[string]fila) string {
	if f.limite == "" {
		return "(límite)"
	}
	t := fmt.Sprintf("%.2f× %s", razonCPU(f, porClave), contra(f, porClave))
	if f.factor > 0 {
		t += fmt.Sprintf(" ≤%.1f", f.factor)
	}
	if rs := razones(f, porClave); len(rs) > 1 {
		t += fmt.Sprintf(" (%.2f–%.2f)", rs[0], rs[len(rs)-1])
	}
	return t
}

// cargaDelSistema is /proc/loadavg's first three fields: how busy the shared machine was.
func cargaDelSistema() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	campos := strings.Fields(string(b))
	if len(campos) < 3 {
		return "?"
	}
	return strings.Join(campos[:3], " ")
}

// perfilar is --perfiles: each scenario on servers of its own started with a CPU profile, so every
// profile holds one kind of request; then pprof's top functions of each.
func perfilar(ctx context.Context, c configuracion, dir string) error {
	if err := os.MkdirAll(c.perfiles, 0o755); err != nil {
		return err
	}
	yo, _ := os.Executable()
	binarios := map[string]string{
		"trivial": yo, "proxy": yo, "laboratorio": filepath.Join(c.bin, "laboratorio"),
		"revisor": filepath.Join(c.bin, "revisor"), "pasarela": filepath.Join(c.bin, "pasarela"),
	}
	for _, clave := range []string{"trivial", "get", "304", "404", "post", "proxy", "pasarela", "pasdir"} {
		ruta := func(n string) string { return filepath.Join(c.perfiles, clave+"-"+n+".pprof") }
		m, err := montar(c, dir, ruta)
		if err != nil {
			return err
		}
		cliente := carga.NuevoCliente(c.trabajadores)
		escenarios, err := m.escenarios(cliente)
		if err != nil {
			m.parar()
			return err
		}
		i := slices.IndexFunc(escenarios, func(e escenario) bool { return e.clave == clave })
		e := escenarios[i]
		todos := append(slices.Clone(e.propios), e.detras...)
		antes := make([]time.Duration, len(todos))
		for j, p := range todos {
			antes[j] = cpuDe(p.cmd.Process.Pid)
		}
		r := carga.Medir(ctx, cliente, e.p, c.trabajadores, c.duracion)
		var cuentas []string
		for j, p := range todos {
			if r.Peticiones > 0 {
				cuentas = append(cuentas, fmt.Sprintf("%s %.1f µs CPU/pet", p.nombre, us((cpuDe(p.cmd.Process.Pid)-antes[j])/time.Duration(r.Peticiones))))
			}
		}
		cliente.CloseIdleConnections()
		m.parar()
		fmt.Printf("##### %s: %d peticiones en %s (%.0f/s; %s)\n\n", e.nombre, r.Peticiones, c.duracion, r.PorSegundo(), strings.Join(cuentas, ", "))
		usados := map[string]bool{}
		for _, p := range todos {
			usados[p.nombre] = true
		}
		for _, p := range m.todos() {
			if !usados[p.nombre] {
				os.Remove(ruta(p.nombre))
				continue
			}
			fmt.Printf("=== %s: %s (%s)\n", e.nombre, p.nombre, ruta(p.nombre))
			top := exec.Command("go", "tool", "pprof", "-top", "-nodecount=25", binarios[p.nombre], ruta(p.nombre))
			top.Stdout, top.Stderr = os.Stdout, os.Stderr
			if err := top.Run(); err != nil {
				return fmt.Errorf("go tool pprof: %w", err)
			}
			fmt.Println()
		}
	}
	return nil
}

func descripcionBitacora(modo string) string {
	switch modo {
	case "archivo":
		return "a un archivo, como make lab-up"
	case "tubo":
		return "a un tubo que este proceso vacía, como make lab"
	}
	return "/dev/null"
}

func codigos(r carga.Resultado) string {
	var partes []string
	for _, c := range slices.Sorted(maps.Keys(r.Codigos)) {
		partes = append(partes, fmt.Sprintf("%d×%d", r.Codigos[c], c))
	}
	if r.Errores > 0 {
		partes = append(partes, fmt.Sprintf("%d errores", r.Errores))
	}
	return strings.Join(partes, " ")
}

func hacer(c *http.Client, p carga.Peticion) (int, error) {
	req, err := http.NewRequest(p.Metodo, p.URL, strings.NewReader(string(p.Cuerpo)))
	if err != nil {
		return 0, err
	}
	req.Header = p.Cabeceras.Clone()
	res, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode, nil
}

// etiquetaDe reads url as lectura-a and returns its ETag and body.
func etiquetaDe(c *http.Client, url string) (string, []byte, error) {
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Authorization", "Bearer lectura-a")
	res, err := c.Do(req)
	if err != nil {
		return "", nil, err
	}
	cuerpo, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		return "", nil, err
	}
	if e := res.Header.Get("ETag"); e != "" {
		return e, cuerpo, nil
	}
	return "", nil, errors.New("GET /servicios/1 no trajo ETag")
}

// espacios is an endless body of JSON whitespace.
type espacios struct{}

func (espacios) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	return len(p), nil
}

// postGrande sends n bytes chunked (no Content-Length) and returns the status the client received.
// A server may answer and close before the body is sent; the status still counts.
func postGrande(url string, n int64) (int, error) {
	req, err := http.NewRequest("POST", url, io.LimitReader(espacios{}, n))
	if err != nil {
		return 0, err
	}
	req.ContentLength = -1
	req.Header.Set("Authorization", "Bearer escritura-a")
	req.Header.Set("Content-Type", "application/json")
	res, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		return 0, err
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode, nil
}

func mediana(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	ds = slices.Clone(ds)
	slices.Sort(ds)
	return ds[len(ds)/2]
}

func us(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1000 }
func ms(d time.Duration) string  { return fmt.Sprintf("%.2fms", float64(d.Microseconds())/1000) }
func mb(b int64) float64         { return float64(b) / (1 << 20) }
func errTexto(err error) string {
	if err == nil {
		return ""
	}
	return "(" + err.Error() + ")"
}
