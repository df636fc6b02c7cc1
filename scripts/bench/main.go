// Command bench is `make bench`: it starts the built servers, loads each with the suite's own
// generator (pkg/carga) next to a trivial Go server that marks this machine's practical limit, and
// prints req/s, p50, p99 and each ratio, start-up times and resident memory. It drives the binaries
// from outside, as a student's terminal would, so it measures what ships.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"cursohttp/pkg/carga"
)

func main() {
	trivial := flag.Bool("trivial", false, "serve the trivial JSON server on --puerto (used by the bench itself)")
	puerto := flag.Int("puerto", 0, "port for --trivial")
	bin := flag.String("bin", "bin", "folder with the built programs")
	duracion := flag.Duration("duracion", 5*time.Second, "how long each scenario runs")
	trabajadores := flag.Int("trabajadores", 32, "concurrent keep-alive workers")
	flag.Parse()
	if *trivial {
		servirTrivial(*puerto)
		return
	}
	if err := correr(*bin, *duracion, *trabajadores); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// servirTrivial answers a fixed JSON body: the fastest a Go HTTP server can be on this machine.
func servirTrivial(puerto int) {
	cuerpo := []byte(`{"id":1,"nombre":"catalogo","url":"http://127.0.0.1:18081/codigo/200","limite_ms":2000}` + "\n")
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

func arrancar(nombre, ruta string, puerto int, args ...string) (*proceso, error) {
	if _, err := os.Stat(ruta); err != nil {
		return nil, fmt.Errorf("%s no está construido (%s): make build", nombre, ruta)
	}
	url := "http://127.0.0.1:" + strconv.Itoa(puerto)
	cmd := exec.Command(ruta, append([]string{"--puerto", strconv.Itoa(puerto)}, args...)...)
	cmd.Stdout = io.Discard
	cmd.Stderr = io.Discard
	inicio := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	cliente := &http.Client{Timeout: 200 * time.Millisecond}
	for time.Since(inicio) < 5*time.Second {
		res, err := cliente.Get(url + "/")
		if err == nil {
			res.Body.Close()
			return &proceso{nombre: nombre, cmd: cmd, url: url, arranque: time.Since(inicio)}, nil
		}
		time.Sleep(time.Millisecond)
	}
	cmd.Process.Kill()
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
}

// rss reads the resident memory of a process in bytes.
func rss(pid int) int64 {
	f, err := os.Open(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return 0
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if campos := strings.Fields(s.Text()); len(campos) >= 2 && campos[0] == "VmRSS:" {
			kb, _ := strconv.ParseInt(campos[1], 10, 64)
			return kb * 1024
		}
	}
	return 0
}

type escenario struct {
	nombre string
	p      carga.Peticion
	base   string // the scenario whose req/s this one is compared with ("" = the trivial server)
}

type fila struct {
	escenario
	r carga.Resultado
}

func bearer(cred string) http.Header { return http.Header{"Authorization": {"Bearer " + cred}} }

func correr(bin string, duracion time.Duration, n int) error {
	ctx := context.Background()
	yo, err := os.Executable()
	if err != nil {
		return err
	}
	pt, pl, pr, pp := libre(), libre(), libre(), libre()
	trivial, err := arrancar("trivial", yo, pt, "--trivial")
	if err != nil {
		return err
	}
	defer trivial.parar()
	lab, err := arrancar("laboratorio", filepath.Join(bin, "laboratorio"), pl)
	if err != nil {
		return err
	}
	defer lab.parar()
	rev, err := arrancar("revisor", filepath.Join(bin, "revisor"), pr)
	if err != nil {
		return err
	}
	defer rev.parar()
	pas, err := arrancar("pasarela", filepath.Join(bin, "pasarela"), pp, "--destino", rev.url)
	if err != nil {
		return err
	}
	defer pas.parar()

	cliente := carga.NuevoCliente(n)
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
		Cuerpo: []byte(`{"nombre":"bench","url":"http://127.0.0.1:18081/codigo/200"}`),
	}
	if res, err := hacer(cliente, alta); err != nil || res != http.StatusCreated {
		return fmt.Errorf("el alta inicial dio %d %v, se esperaba 201", res, err)
	}
	conEtiqueta := bearer("lectura-a")
	conEtiqueta.Set("If-None-Match", etag)
	escenarios := []escenario{
		{"servidor trivial (límite)", carga.Peticion{Metodo: "GET", URL: trivial.url + "/"}, ""},
		{"revisor GET /servicios/1", carga.Peticion{Metodo: "GET", URL: rev.url + "/servicios/1", Cabeceras: bearer("lectura-a")}, ""},
		{"revisor GET If-None-Match (304)", carga.Peticion{Metodo: "GET", URL: rev.url + "/servicios/1", Cabeceras: conEtiqueta}, ""},
		{"revisor ruta inexistente (404)", carga.Peticion{Metodo: "GET", URL: rev.url + "/no-existe"}, ""},
		{"revisor POST repetido (misma llave)", alta, ""},
		{"pasarela GET /servicios/1", carga.Peticion{Metodo: "GET", URL: pas.url + "/servicios/1", Cabeceras: bearer("lectura-a")}, "revisor GET /servicios/1"},
		{"laboratorio GET /codigo/200", carga.Peticion{Metodo: "GET", URL: lab.url + "/codigo/200"}, ""},
	}
	filas := make([]fila, 0, len(escenarios))
	for _, e := range escenarios {
		medir := carga.Medir(ctx, cliente, e.p, n, duracion)
		filas = append(filas, fila{e, medir})
	}
	porNombre := map[string]carga.Resultado{}
	for _, f := range filas {
		porNombre[f.nombre] = f.r
	}
	limite := porNombre["servidor trivial (límite)"].PorSegundo()
	fmt.Printf("%d trabajadores keep-alive, %s por escenario, %d núcleos\n\n", n, duracion, runtime.NumCPU())
	fmt.Printf("%-38s %10s %9s %9s %8s  %s\n", "escenario", "req/s", "p50", "p99", "razón", "códigos")
	for _, f := range filas {
		base, contra := limite, "trivial"
		if f.base != "" {
			base, contra = porNombre[f.base].PorSegundo(), "revisor"
		}
		razon := 0.0
		if base > 0 {
			razon = f.r.PorSegundo() / base
		}
		fmt.Printf("%-38s %10.0f %9s %9s %5.2f/%s  %v errores=%d\n", f.nombre, f.r.PorSegundo(), ms(f.r.P50), ms(f.r.P99), razon, contra, f.r.Codigos, f.r.Errores)
	}

	fmt.Println()
	for _, p := range []*proceso{lab, rev, pas} {
		fmt.Printf("arranque de %-12s %6.1f ms (hasta la primera respuesta)\n", p.nombre, float64(p.arranque.Microseconds())/1000)
	}
	fmt.Println()
	despues := map[string]int64{}
	for _, p := range []*proceso{lab, rev, pas} {
		despues[p.nombre] = rss(p.cmd.Process.Pid)
		fmt.Printf("memoria residente de %-12s tras la carga: %5.1f MB\n", p.nombre, mb(despues[p.nombre]))
	}
	antes := rss(rev.cmd.Process.Pid)
	codigo, err := postGrande(rev.url+"/servicios", 50<<20)
	time.Sleep(300 * time.Millisecond)
	tras := rss(rev.cmd.Process.Pid)
	fmt.Printf("POST de 50 MB por partes al revisor: %d %v; memoria %5.1f → %5.1f MB (crece %4.1f MB)\n", codigo, errTexto(err), mb(antes), mb(tras), mb(tras-antes))

	fmt.Println()
	objetivos := []struct {
		nombre string
		ok     bool
		valor  string
	}{
		{"revisor GET ≥ 0.7 del trivial", porNombre["revisor GET /servicios/1"].PorSegundo() >= 0.7*limite, fmt.Sprintf("%.2f", porNombre["revisor GET /servicios/1"].PorSegundo()/limite)},
		{"POST repetido ≥ 0.5 del trivial", porNombre["revisor POST repetido (misma llave)"].PorSegundo() >= 0.5*limite, fmt.Sprintf("%.2f", porNombre["revisor POST repetido (misma llave)"].PorSegundo()/limite)},
		{"pasarela GET ≥ 0.4 del GET directo", porNombre["pasarela GET /servicios/1"].PorSegundo() >= 0.4*porNombre["revisor GET /servicios/1"].PorSegundo(), fmt.Sprintf("%.2f", porNombre["pasarela GET /servicios/1"].PorSegundo()/porNombre["revisor GET /servicios/1"].PorSegundo())},
		{"arranque ≤ 50 ms (los tres)", max(lab.arranque, rev.arranque, pas.arranque) <= 50*time.Millisecond, ms(max(lab.arranque, rev.arranque, pas.arranque))},
		{"memoria tras la carga ≤ 30 MB (los tres)", max(despues["laboratorio"], despues["revisor"], despues["pasarela"]) <= 30<<20, fmt.Sprintf("%.1f MB", mb(max(despues["laboratorio"], despues["revisor"], despues["pasarela"])))},
		{"POST de 50 MB crece ≤ 2 MB", tras-antes <= 2<<20, fmt.Sprintf("%.1f MB", mb(tras-antes))},
	}
	for _, o := range objetivos {
		marca := "cumple"
		if !o.ok {
			marca = "NO cumple"
		}
		fmt.Printf("%-42s %-10s %s\n", o.nombre, o.valor, marca)
	}
	return nil
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

// ceros is an endless body of JSON-looking bytes.
type ceros struct{}

func (ceros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	return len(p), nil
}

// postGrande sends n bytes chunked (no Content-Length) and returns the status the client received.
func postGrande(url string, n int64) (int, error) {
	req, err := http.NewRequest("POST", url, io.LimitReader(ceros{}, n))
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

func ms(d time.Duration) string { return fmt.Sprintf("%.2fms", float64(d.Microseconds())/1000) }
func mb(b int64) float64        { return float64(b) / (1 << 20) }
func errTexto(err error) string {
	if err == nil {
		return ""
	}
	return "(" + err.Error() + ")"
}
