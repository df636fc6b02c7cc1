//go:build unix

// Command bench is `make bench`: it starts the built servers, loads each with the suite's own
// generator (pkg/carga) next to a trivial Go server that marks this machine's practical limit, and
// prints req/s, p50, p99 and each ratio, start-up times and resident memory, then which of the
// suite's targets hold. It drives the binaries from outside, as a student's terminal would, so it
// measures what ships.
//
// It reads /proc and getrusage: it measures the Linux machines the suite's targets are set on.
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"cursohttp/pkg/carga"
	"cursohttp/pkg/curso"
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
}

func main() {
	trivial := flag.Bool("trivial", false, "serve the trivial JSON server on --puerto (used by the bench itself)")
	puerto := flag.Int("puerto", 0, "port for --trivial")
	var c configuracion
	flag.StringVar(&c.bin, "bin", "bin", "folder with the built programs")
	flag.DurationVar(&c.duracion, "duracion", 6*time.Second, "how long each scenario is measured, all rounds together")
	flag.DurationVar(&c.calentar, "calentar", 300*time.Millisecond, "unmeasured load before each scenario (connections, caches)")
	flag.IntVar(&c.trabajadores, "trabajadores", 32, "concurrent keep-alive workers, the same for every scenario")
	flag.IntVar(&c.cpuGenerador, "cpu-generador", 0, "GOMAXPROCS of the load generator; 0 keeps the default (every core). With 1 the generator, not the server, limits the rate")
	flag.StringVar(&c.bitacora, "bitacora", "archivo", "where the servers' log goes: archivo (a file, as make lab-up), tubo (a pipe this process drains, as make lab), nula (/dev/null)")
	flag.IntVar(&c.rondas, "rondas", 3, "rounds; each scenario runs duracion/rondas per round, the scenarios interleaved")
	flag.IntVar(&c.arranques, "arranques", 5, "start-ups per server; the median is shown")
	flag.Parse()
	if *trivial {
		servirTrivial(*puerto)
		return
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

// servirTrivial answers a fixed JSON body: the fastest a Go HTTP server can be on this machine.
func servirTrivial(puerto int) {
	cuerpo := []byte(`{"id":1,"nombre":"catalogo","url":"` + curso.URLLaboratorio + `/codigo/200","limite_ms":2000}` + "\n")
	srv := &http.Server{Addr: "127.0.0.1:" + strconv.Itoa(puerto), Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(cuerpo)))
		w.Write(cuerpo)
	})}
	fmt.Printf("trivial en http://%s\n", srv.Addr)
	srv.ListenAndServe()
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
func arrancar(c configuracion, dir, nombre, ruta string, puerto int, args ...string) (*proceso, error) {
	if _, err := os.Stat(ruta); err != nil {
		return nil, fmt.Errorf("%s no está construido (%s): make build", nombre, ruta)
	}
	url := "http://127.0.0.1:" + strconv.Itoa(puerto)
	cmd := exec.Command(ruta, append([]string{"--puerto", strconv.Itoa(puerto)}, args...)...)
	// The servers get the machine's default GOMAXPROCS whatever the generator uses.
	cmd.Env = slices.DeleteFunc(os.Environ(), func(s string) bool { return strings.HasPrefix(s, "GOMAXPROCS=") })
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
		p, err := arrancar(c, dir, nombre+"-arranque", ruta, pu, args(pu)...)
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
func estadoDe(pid int, campo string) int64 {
	f, err := os.Open(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return 0
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if campos := strings.Fields(s.Text()); len(campos) >= 2 && campos[0] == campo+":" {
			n, _ := strconv.ParseInt(campos[1], 10, 64)
			return n
		}
	}
	return 0
}

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

// cpuPropia is the CPU time this process (the generator) has used so far.
func cpuPropia() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

type escenario struct {
	nombre string
	p      carga.Peticion
	base   string     // the scenario whose req/s this one is compared with ("" = the trivial server)
	quien  []*proceso // the servers that work for this scenario (the gateway and the revisor behind it)
}

type fila struct {
	escenario
	r                 carga.Resultado
	servidor, general time.Duration // CPU per request: the servers', the generator's
}

// capacidad is the req/s the machine would give this scenario with nothing else running: its cores
// divided by the CPU one request costs, generator included. Other programs on the machine slow the
// measured req/s; they do not change what a request costs.
func (f fila) capacidad() float64 {
	por := f.servidor + f.general
	if por <= 0 {
		return 0
	}
	return float64(runtime.NumCPU()) / por.Seconds()
}

func bearer(cred string) http.Header { return http.Header{"Authorization": {"Bearer " + cred}} }

const (
	nTrivial  = "servidor trivial (límite)"
	nGet      = "revisor GET /servicios/1"
	n304      = "revisor GET If-None-Match (304)"
	n404      = "revisor ruta inexistente (404)"
	nPost     = "revisor POST repetido (misma llave)"
	nPasarela = "pasarela GET /servicios/1"
	nGetSQL   = "revisor --datos (SQLite) GET"
	nPostSQL  = "revisor --datos (SQLite) POST rep."
	nLab      = "laboratorio GET /codigo/200"
)

func correr(c configuracion) error {
	ctx := context.Background()
	yo, err := os.Executable()
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "bench-bitacoras-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	binario := func(n string) string { return filepath.Join(c.bin, n) }

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
		d, err := medianaDeArranque(c, dir, s.nombre, binario(s.nombre), s.args)
		if err != nil {
			return err
		}
		arranques[s.nombre] = d
	}

	trivial, err := arrancar(c, dir, "trivial", yo, libre(), "--trivial")
	if err != nil {
		return err
	}
	defer trivial.parar()
	lab, err := arrancar(c, dir, "laboratorio", binario("laboratorio"), libre())
	if err != nil {
		return err
	}
	defer lab.parar()
	rev, err := arrancar(c, dir, "revisor", binario("revisor"), libre())
	if err != nil {
		return err
	}
	defer rev.parar()
	pas, err := arrancar(c, dir, "pasarela", binario("pasarela"), libre(), "--destino", rev.url)
	if err != nil {
		return err
	}
	defer pas.parar()
	servidores := []*proceso{lab, rev, pas}
	// The same revisor with its data in an embedded SQLite file (--datos), in the bench's folder.
	revSQL, err := arrancar(c, dir, "revisor-sqlite", binario("revisor"), libre(), "--datos", filepath.Join(dir, "revisor.db"))
	if err != nil {
		return err
	}
	defer revSQL.parar()

	cliente := carga.NuevoCliente(c.trabajadores)
	etag, err := etiquetaDe(cliente, rev.url+"/servicios/1")
	if err != nil {
		return err
	}
	alta := carga.Peticion{
		Metodo: "POST", URL: rev.url + "/servicios",
		Cabeceras: http.Header{
			"Authorization": {"Bearer escritura-a"}, "Content-Type": {"application/json"},
			"Idempotency-Key": {"bench-una-llave"},
		},
		Cuerpo: []byte(`{"nombre":"bench","url":"` + curso.URLLaboratorio + `/codigo/200"}`),
	}
	altaSQL := alta
	altaSQL.URL = revSQL.url + "/servicios"
	for _, a := range []carga.Peticion{alta, altaSQL} {
		if res, err := hacer(cliente, a); err != nil || res != http.StatusCreated {
			return fmt.Errorf("el alta inicial en %s dio %d %v, se esperaba 201", a.URL, res, err)
		}
	}
	conEtiqueta := bearer("lectura-a")
	conEtiqueta.Set("If-None-Match", etag)
	yoMismo := []*proceso{trivial}
	escenarios := []escenario{
		{nTrivial, carga.Peticion{Metodo: "GET", URL: trivial.url + "/"}, "", yoMismo},
		{nGet, carga.Peticion{Metodo: "GET", URL: rev.url + "/servicios/1", Cabeceras: bearer("lectura-a")}, "", []*proceso{rev}},
		{n304, carga.Peticion{Metodo: "GET", URL: rev.url + "/servicios/1", Cabeceras: conEtiqueta}, "", []*proceso{rev}},
		{n404, carga.Peticion{Metodo: "GET", URL: rev.url + "/no-existe"}, "", []*proceso{rev}},
		{nPost, alta, "", []*proceso{rev}},
		{nPasarela, carga.Peticion{Metodo: "GET", URL: pas.url + "/servicios/1", Cabeceras: bearer("lectura-a")}, nGet, []*proceso{pas, rev}},
		{nGetSQL, carga.Peticion{Metodo: "GET", URL: revSQL.url + "/servicios/1", Cabeceras: bearer("lectura-a")}, nGet, []*proceso{revSQL}},
		{nPostSQL, altaSQL, nPost, []*proceso{revSQL}},
		{nLab, carga.Peticion{Metodo: "GET", URL: lab.url + "/codigo/200"}, "", []*proceso{lab}},
	}
	// Rounds: every scenario runs once per round, in the same order, so each one and the trivial
	// server share whatever else the machine was doing at the time.
	type acumulado struct {
		res        carga.Resultado
		cpuS, cpuG time.Duration
		p50, p99   []time.Duration
	}
	acum := make([]acumulado, len(escenarios))
	porRonda := c.duracion / time.Duration(max(c.rondas, 1))
	for range max(c.rondas, 1) {
		for i, e := range escenarios {
			if c.calentar > 0 {
				carga.Medir(ctx, cliente, e.p, c.trabajadores, c.calentar)
			}
			cpuServidores := func() (t time.Duration) {
				for _, p := range e.quien {
					t += cpuDe(p.cmd.Process.Pid)
				}
				return t
			}
			s0, g0 := cpuServidores(), cpuPropia()
			r := carga.Medir(ctx, cliente, e.p, c.trabajadores, porRonda)
			a := &acum[i]
			a.cpuS += cpuServidores() - s0
			a.cpuG += cpuPropia() - g0
			a.res.Peticiones += r.Peticiones
			a.res.Errores += r.Errores
			a.res.Duracion += r.Duracion
			if a.res.Codigos == nil {
				a.res.Codigos = map[int]int{}
			}
			for k, v := range r.Codigos {
				a.res.Codigos[k] += v
			}
			a.p50 = append(a.p50, r.P50)
			a.p99 = append(a.p99, r.P99)
		}
	}
	filas := make([]fila, 0, len(escenarios))
	porNombre := map[string]fila{}
	for i, e := range escenarios {
		a := acum[i]
		f := fila{escenario: e, r: a.res}
		f.r.P50, f.r.P99 = mediana(a.p50), mediana(a.p99)
		if n := time.Duration(a.res.Peticiones); n > 0 {
			f.servidor, f.general = a.cpuS/n, a.cpuG/n
		}
		filas = append(filas, f)
		porNombre[e.nombre] = f
	}
	base := func(f fila) (fila, string) {
		if f.base != "" {
			return porNombre[f.base], "directo"
		}
		return porNombre[nTrivial], "trivial"
	}

	generador := strconv.Itoa(runtime.GOMAXPROCS(0))
	fmt.Printf("Montaje: %d núcleos compartidos por el generador y los servidores. Generador en este proceso con\n", runtime.NumCPU())
	fmt.Printf("GOMAXPROCS=%s; %d trabajadores keep-alive (los mismos en cada escenario); %d rondas alternando los\n",
		generador, c.trabajadores, max(c.rondas, 1))
	fmt.Printf("escenarios, en cada una %s de calentamiento y %s medidos (p50 y p99: mediana de las rondas).\n", c.calentar, porRonda)
	fmt.Printf("Servidores con GOMAXPROCS por omisión; bitácora %s.\n", descripcionBitacora(c.bitacora))
	fmt.Printf("req/s y razón: lo medido, frente al servidor trivial (un cuerpo JSON fijo: el límite práctico de\n")
	fmt.Printf("esta máquina) o frente al GET directo. µs/pet: CPU por petición de los servidores del escenario\n")
	fmt.Printf("(/proc/PID/stat) y del generador. capacidad = núcleos / CPU por petición: lo que daría la máquina sin\n")
	fmt.Printf("otros programas; su razón no depende de lo que más corra en la máquina y es la que juzga los objetivos.\n\n")
	fmt.Printf("%-36s %7s %8s %8s %12s %9s %9s %9s %12s  %s\n", "escenario", "req/s", "p50", "p99", "razón", "µs/pet", "µs/gen", "capacidad", "razón cap.", "códigos")
	for _, f := range filas {
		b, contra := base(f)
		fmt.Printf("%-36s %7.0f %8s %8s %4.2f %-7s %9.1f %9.1f %9.0f %4.2f %-7s  %s\n", f.nombre, f.r.PorSegundo(), ms(f.r.P50), ms(f.r.P99),
			razon(f.r.PorSegundo(), b.r.PorSegundo()), contra, us(f.servidor), us(f.general), f.capacidad(), razon(f.capacidad(), b.capacidad()), contra, codigos(f.r))
	}

	fmt.Println()
	for _, n := range []string{"laboratorio", "revisor", "pasarela"} {
		fmt.Printf("arranque de %-12s %6.1f ms (hasta la primera respuesta, mediana de %d)\n", n, float64(arranques[n].Microseconds())/1000, max(c.arranques, 1))
	}
	fmt.Println()
	despues := map[string]int64{}
	for _, p := range servidores {
		despues[p.nombre] = rss(p.cmd.Process.Pid)
		fmt.Printf("memoria residente de %-12s tras la carga: %5.1f MB, %d hilos\n", p.nombre, mb(despues[p.nombre]), estadoDe(p.cmd.Process.Pid, "Threads"))
	}
	fmt.Printf("memoria residente de %-12s tras la carga: %5.1f MB, %d hilos (con --datos)\n", "revisor", mb(rss(revSQL.cmd.Process.Pid)), estadoDe(revSQL.cmd.Process.Pid, "Threads"))
	// The 50 MB upload: the revisor must refuse it without holding it, the laboratory must not read it
	// into memory, the gateway must stream it to the revisor and pass the refusal back.
	crece := map[string]int64{}
	for _, s := range []struct {
		p    *proceso
		ruta string
	}{{lab, "/codigo/200"}, {rev, "/servicios"}, {pas, "/servicios"}} {
		antes := rss(s.p.cmd.Process.Pid)
		codigo, err := postGrande(s.p.url+s.ruta, 50<<20)
		time.Sleep(300 * time.Millisecond)
		tras := rss(s.p.cmd.Process.Pid)
		crece[s.p.nombre] = tras - antes
		fmt.Printf("POST de 50 MB por partes a %-12s %-11s → %3d %s; memoria %5.1f → %5.1f MB (crece %4.1f MB)\n",
			s.p.nombre, s.ruta, codigo, errTexto(err), mb(antes), mb(tras), mb(tras-antes))
	}

	fmt.Println()
	limite := porNombre[nTrivial].capacidad()
	get, post, vpas := porNombre[nGet].capacidad(), porNombre[nPost].capacidad(), porNombre[nPasarela].capacidad()
	maxArranque := max(arranques["laboratorio"], arranques["revisor"], arranques["pasarela"])
	maxMem := max(despues["laboratorio"], despues["revisor"], despues["pasarela"])
	maxCrece := max(crece["laboratorio"], crece["revisor"], crece["pasarela"])
	objetivos := []struct {
		nombre string
		ok     bool
		valor  string
	}{
		{"revisor GET ≥ 0.7 del trivial", get >= 0.7*limite, fmt.Sprintf("%.2f", razon(get, limite))},
		{"POST repetido ≥ 0.5 del trivial", post >= 0.5*limite, fmt.Sprintf("%.2f", razon(post, limite))},
		{"pasarela GET ≥ 0.4 del GET directo", vpas >= 0.4*get, fmt.Sprintf("%.2f", razon(vpas, get))},
		// CPU per request of the revisor alone, SQLite against memory.
		{"GET con --datos ≤ 2× CPU del de memoria", porNombre[nGetSQL].servidor <= 2*porNombre[nGet].servidor,
			fmt.Sprintf("%.2f×", razon(float64(porNombre[nGetSQL].servidor), float64(porNombre[nGet].servidor)))},
		{"arranque ≤ 50 ms (los tres)", maxArranque <= 50*time.Millisecond, ms(maxArranque)},
		{"memoria tras la carga ≤ 30 MB (los tres)", maxMem <= 30<<20, fmt.Sprintf("%.1f MB", mb(maxMem))},
		{"POST de 50 MB crece ≤ 2 MB (los tres)", maxCrece <= 2<<20, fmt.Sprintf("%.1f MB", mb(maxCrece))},
	}
	cumplen := 0
	for _, o := range objetivos {
		marca := "cumple"
		if o.ok {
			cumplen++
		} else {
			marca = "NO cumple"
		}
		fmt.Printf("%-42s %-10s %s\n", o.nombre, o.valor, marca)
	}
	fmt.Printf("\n%d de %d objetivos se cumplen.\n", cumplen, len(objetivos))
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

func razon(a, b float64) float64 {
	if b <= 0 {
		return 0
	}
	return a / b
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

func etiquetaDe(c *http.Client, url string) (string, error) {
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Authorization", "Bearer lectura-a")
	res, err := c.Do(req)
	if err != nil {
		return "", err
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if e := res.Header.Get("ETag"); e != "" {
		return e, nil
	}
	return "", errors.New("GET /servicios/1 no trajo ETag")
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
