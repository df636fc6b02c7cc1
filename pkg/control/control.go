package control

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"cursohttp/pkg/anuncio"
	"cursohttp/pkg/curso"
)

// Servidor is one of the lab's servers: the program (the binary's name in Control.Bin), the port
// it listens on, and the arguments it is started with. Nombre, when the program runs more than
// one of them (laboratorio and laboratorio panel), names its state file, its log and its lines.
type Servidor struct {
	Programa string
	Puerto   int
	Args     []string
	Nombre   string
}

// Etiqueta is how the lab calls s: Nombre, or its program.
func (s Servidor) Etiqueta() string {
	if s.Nombre != "" {
		return s.Nombre
	}
	return s.Programa
}

// Puertos are where the lab's servers listen.
type Puertos struct{ Revisor, Laboratorio, Pasarela, Panel int }

// PuertosDelCurso are the course's ports, and the panel's 18084.
func PuertosDelCurso() Puertos {
	return Puertos{Revisor: curso.PuertoRevisor, Laboratorio: curso.PuertoLaboratorio, Pasarela: curso.PuertoPasarela, Panel: curso.PuertoPanel}
}

// Servidores are the lab's servers on p, in the order they start, each told where the others are
// when they are not on the course's ports. With panel, the timeline page (laboratorio panel) starts
// first and the three send it their events (--panel). On the course's ports without the panel these
// are the course's three servers in the order they start (the bench, the revisor, then the gateway
// in front of it) with no arguments at all, as before the panel.
func (p Puertos) Servidores(panel bool) []Servidor {
	delCurso := PuertosDelCurso()
	host := curso.Host
	var lab, rev, pas []string
	if p.Laboratorio != delCurso.Laboratorio {
		lab = append(lab, "--puerto", strconv.Itoa(p.Laboratorio))
		rev = append(rev, "--destinos", net.JoinHostPort(host, strconv.Itoa(p.Laboratorio)))
	}
	if p.Revisor != delCurso.Revisor {
		rev = append(rev, "--puerto", strconv.Itoa(p.Revisor))
		pas = append(pas, "--destino", "http://"+net.JoinHostPort(host, strconv.Itoa(p.Revisor)))
	}
	if p.Pasarela != delCurso.Pasarela {
		pas = append(pas, "--puerto", strconv.Itoa(p.Pasarela))
	}
	var r []Servidor
	if panel {
		pan := []string{"panel"}
		if p.Panel != delCurso.Panel {
			pan = append(pan, "--puerto", strconv.Itoa(p.Panel))
		}
		if p.Pasarela != delCurso.Pasarela {
			pan = append(pan, "--pasarela", "http://"+net.JoinHostPort(host, strconv.Itoa(p.Pasarela)))
		}
		r = append(r, Servidor{Programa: "laboratorio", Nombre: "panel", Puerto: p.Panel, Args: pan})
		url := "--panel=http://" + net.JoinHostPort(host, strconv.Itoa(p.Panel))
		lab, rev, pas = append(lab, url), append(rev, url), append(pas, url)
	}
	return append(r,
		Servidor{Programa: "laboratorio", Puerto: p.Laboratorio, Args: lab},
		Servidor{Programa: "revisor", Puerto: p.Revisor, Args: rev},
		Servidor{Programa: "pasarela", Puerto: p.Pasarela, Args: pas},
	)
}

// panel is the timeline page among the servers, if there.
func panelEn(servidores []Servidor) (Servidor, bool) {
	for _, s := range servidores {
		if s.Etiqueta() == "panel" {
			return s, true
		}
	}
	return Servidor{}, false
}

// Control starts, stops and looks at the lab's servers. The zero value of a field is the course's
// choice (see its comments).
type Control struct {
	Dir        string     // state files and logs; "lab"
	Bin        string     // where the programs are; the folder of this program
	Host       string     // where they listen; 127.0.0.1
	Servidores []Servidor // Escuchan.Servidores(Panel)
	Out        io.Writer  // what the controller says
	Espera     time.Duration
	Apagado    time.Duration // how long a stopped server may finish its requests before it is killed
	// Panel: also the timeline page (laboratorio panel, 18084), first, with the three servers
	// sending it their events. Only with the course's servers (Servidores nil).
	Panel bool
	// Escuchan: where the course's servers listen when Servidores is nil; the zero value is the
	// course's ports.
	Escuchan Puertos
	// Datos is the revisor's --datos: a file or a postgres:// URL where what it knows outlives a
	// restart of the lab. "": in memory, as the course.
	Datos string
	// Detenerlo is how the user stops the lab, said in the words they started it with ("make
	// lab-down", "./laboratorio lab detener"); "" is «laboratorio lab detener».
	Detenerlo string
	// Token is the token a new lab runs with (token.go); "": a new one.
	Token string

	mu    sync.Mutex
	hijos map[int]<-chan struct{} // the servers this controller started, by pid: closed when each ends
}

func (c *Control) puertos() Puertos {
	if c.Escuchan == (Puertos{}) {
		return PuertosDelCurso()
	}
	return c.Escuchan
}

// ErrFallo is the error of a run that did not do all it had to; the controller already said why.
var ErrFallo = errors.New("laboratorio lab: no todo salió bien")

const (
	esperaArranque = 10 * time.Second
	esperaApagado  = 15 * time.Second // the servers give requests in flight 10 s
	sondeo         = 20 * time.Millisecond
)

func (c *Control) dir() string {
	if c.Dir == "" {
		return "lab"
	}
	return c.Dir
}

func (c *Control) host() string {
	if c.Host == "" {
		return curso.Host
	}
	return c.Host
}

// servidores are the ones to start, the revisor with Datos.
func (c *Control) servidores() []Servidor {
	servidores := c.Servidores
	if servidores == nil {
		servidores = c.puertos().Servidores(c.Panel)
	}
	if c.Datos == "" {
		return servidores
	}
	con := make([]Servidor, len(servidores))
	for i, s := range servidores {
		if s.Programa == "revisor" {
			s.Args = append(append([]string{}, s.Args...), "--datos", c.Datos)
		}
		con[i] = s
	}
	return con
}

// conocidos are the ones to stop and look at: with the course's servers, the panel too, whether
// or not it was asked for this time (a «make lab-down» after «make lab-up PANEL=1»).
func (c *Control) conocidos() []Servidor {
	if c.Servidores == nil {
		return c.puertos().Servidores(true)
	}
	return c.Servidores
}

func (c *Control) binario(programa string) string {
	if runtime.GOOS == "windows" {
		programa += ".exe"
	}
	return filepath.Join(c.Bin, programa)
}

func (c *Control) rutaEstado(s Servidor) string {
	return filepath.Join(c.dir(), s.Etiqueta()+".estado")
}

func (c *Control) rutaBitacora(s Servidor) string {
	return filepath.Join(c.dir(), s.Etiqueta()+".log")
}

func (c *Control) url(s Servidor) string {
	return "http://" + net.JoinHostPort(c.host(), strconv.Itoa(s.Puerto))
}

func (c *Control) decir(formato string, a ...any) {
	if c.Out != nil {
		fmt.Fprintf(c.Out, formato+"\n", a...)
	}
}

// vivo reads a server's state file and waits a moment if the server is still writing it.
func (c *Control) vivo(s Servidor) (anuncio.Estado, bool, error) {
	for i := 0; ; i++ {
		e, vivo, err := anuncio.Leer(c.rutaEstado(s))
		if !errors.Is(err, anuncio.ErrArrancando) || i == 50 {
			return e, vivo, err
		}
		time.Sleep(sondeo)
	}
}

// Arrancar starts, in the background, every server that is not running yet, each with its log in
// Dir, and waits until each listens. It starts all of them or none: before starting any it checks
// every port, and if one cannot start after all (it ends at start-up, it never listens), it stops
// the ones it started and says so. A failure is said with its reason and the result is ErrFallo.
// Servers that were already running are left as they were.
func (c *Control) Arrancar(ctx context.Context) error {
	if err := os.MkdirAll(c.dir(), 0o755); err != nil {
		return err
	}
	var pendientes []Servidor
	corrian, fallo := 0, false
	for _, s := range c.servidores() {
		e, vivo, err := c.vivo(s)
		switch {
		case err != nil:
			c.decir("%s no arrancó: %v", s.Etiqueta(), err)
			fallo = true
		case vivo:
			c.decir("%s ya corre (pid %d, %s)", s.Etiqueta(), e.PID, "http://"+e.Direccion)
			corrian++
		default:
			if err := c.libre(ctx, s); err != nil {
				c.decir("%s no arrancó: %v", s.Etiqueta(), err)
				fallo = true
				continue
			}
			pendientes = append(pendientes, s)
		}
	}
	if fallo {
		c.decir("no arrancó ninguno: el laboratorio arranca entero o nada%s", c.queCorria(corrian))
		return ErrFallo
	}
	if err := c.sinPanelYa(pendientes, corrian); err != nil {
		return err
	}
	tokens, err := c.tokensParaArrancar()
	if err != nil {
		return err
	}
	var arrancados []anuncio.Estado
	for _, s := range pendientes {
		e, err := c.arrancar(ctx, s, tokens)
		if err != nil {
			c.decir("%s no arrancó: %v", s.Etiqueta(), err)
			c.deshacer(ctx, pendientes, arrancados)
			c.decir("no quedó ninguno arrancado: el laboratorio arranca entero o nada%s", c.queCorria(corrian))
			return ErrFallo
		}
		arrancados = append(arrancados, e)
	}
	c.decir("token del laboratorio en %s: «laboratorio lab token» lo muestra (lo piden el control de la pasarela y el panel)",
		c.rutaToken(ArchivoToken))
	c.decirEnlace(c.servidores(), tokens, func(s string) { c.decir("%s", s) })
	c.decir("bitácoras en %s (tail -f %s); «%s» los detiene",
		c.dir()+string(filepath.Separator), filepath.Join(c.dir(), "*.log"), c.ordenDetener())
	return nil
}

// sinPanelYa refuses to start the panel beside servers that already run: they were started
// without --panel and would never send it an event, leaving a page that stays empty. The lab is
// restarted whole with the panel instead.
func (c *Control) sinPanelYa(pendientes []Servidor, corrian int) error {
	if _, panel := panelEn(pendientes); !panel || corrian == 0 {
		return nil
	}
	c.decir("el panel no arrancó: los servidores que ya corren arrancaron sin él y no le mandarían sus eventos; detenlos («%s») y arráncalos de nuevo con el panel", c.ordenDetener())
	return ErrFallo
}

// queCorria is what Arrancar adds when it leaves running the servers that already were.
func (c *Control) queCorria(n int) string {
	switch n {
	case 0:
		return ""
	case 1:
		return " (el que ya corría sigue en marcha)"
	}
	return " (los que ya corrían siguen en marcha)"
}

// deshacer stops the servers this run started (arrancados, of pendientes), the last one first.
func (c *Control) deshacer(ctx context.Context, pendientes []Servidor, arrancados []anuncio.Estado) {
	for i := len(arrancados) - 1; i >= 0; i-- {
		s, e := pendientes[i], arrancados[i]
		if err := c.detener(ctx, e); err != nil {
			c.decir("%s (pid %d) no se detuvo: %v", s.Etiqueta(), e.PID, err)
			continue
		}
		c.decir("%s (pid %d) se detuvo", s.Etiqueta(), e.PID)
	}
}

// ordenDetener is how the user stops the lab, in the words of the way they started it.
func (c *Control) ordenDetener() string {
	if c.Detenerlo == "" {
		return "laboratorio lab detener"
	}
	return c.Detenerlo
}

func (c *Control) arrancar(ctx context.Context, s Servidor, tokens Tokens) (anuncio.Estado, error) {
	bin := c.binario(s.Programa)
	if _, err := os.Stat(bin); err != nil {
		return anuncio.Estado{}, fmt.Errorf("falta %s (make build lo construye)", bin)
	}
	bitacora, err := os.Create(c.rutaBitacora(s))
	if err != nil {
		return anuncio.Estado{}, err
	}
	defer bitacora.Close()
	cmd := exec.Command(bin, append(append([]string{}, s.Args...), "--estado-lab", c.rutaEstado(s))...)
	cmd.Stdout, cmd.Stderr = bitacora, bitacora
	cmd.Env = tokens.entorno()
	separar(cmd)
	termino, err := c.lanzar(cmd)
	if err != nil {
		return anuncio.Estado{}, err
	}
	e, err := c.esperarArranque(ctx, s, cmd, termino, func() string { return leerTodo(c.rutaBitacora(s)) })
	if err != nil {
		return anuncio.Estado{}, err
	}
	linea := primeraLinea(c.rutaBitacora(s))
	c.decir("%s   (pid %d, bitácora %s)", linea, e.PID, c.rutaBitacora(s))
	return e, nil
}

// libre checks that nobody listens on the server's port, and names who does.
func (c *Control) libre(ctx context.Context, s Servidor) error {
	if !Ocupado(c.host(), s.Puerto) {
		return nil
	}
	if o, ok := QuienEscucha(ctx, s.Puerto); ok {
		return fmt.Errorf("el puerto %d ya está en uso (lo tiene %s); detenlo y vuelve a probar", s.Puerto, o)
	}
	return fmt.Errorf("el puerto %d ya está en uso por otro programa; detenlo y vuelve a probar", s.Puerto)
}

// lanzar starts cmd; the channel closes when it has ended. Its Wait also reaps it, so a server
// that ends never lingers as a zombie, and the controller remembers it as its own child: stopping
// it waits for that channel, the moment it ends.
func (c *Control) lanzar(cmd *exec.Cmd) (<-chan struct{}, error) {
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	termino := make(chan struct{})
	pid := cmd.Process.Pid
	c.mu.Lock()
	if c.hijos == nil {
		c.hijos = map[int]<-chan struct{}{}
	}
	c.hijos[pid] = termino
	c.mu.Unlock()
	go func() {
		cmd.Wait()
		close(termino)
	}()
	return termino, nil
}

// hijo is the channel of a server this controller started and that has not been waited for by a
// stop yet; nil if pid is not its child.
func (c *Control) hijo(pid int) <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hijos[pid]
}

// esperarArranque waits until the server says, through its state file, that it listens. If it
// ends first, the reason is the last thing it wrote (salida).
func (c *Control) esperarArranque(ctx context.Context, s Servidor, cmd *exec.Cmd, termino <-chan struct{}, salida func() string) (anuncio.Estado, error) {
	espera := c.Espera
	if espera == 0 {
		espera = esperaArranque
	}
	limite := time.NewTimer(espera)
	defer limite.Stop()
	tic := time.NewTicker(sondeo)
	defer tic.Stop()
	for {
		select {
		case <-termino:
			return anuncio.Estado{}, fmt.Errorf("%s", motivo(salida()))
		case <-limite.C:
			cmd.Process.Kill()
			<-termino
			return anuncio.Estado{}, fmt.Errorf("no escuchó en %s en %s", c.url(s), espera)
		case <-ctx.Done():
			cmd.Process.Kill()
			<-termino
			return anuncio.Estado{}, ctx.Err()
		case <-tic.C:
			if e, vivo, err := anuncio.Leer(c.rutaEstado(s)); err == nil && vivo && e.PID == cmd.Process.Pid {
				return e, nil
			}
		}
	}
}

// motivo is what a server that ended at start-up wrote, on one line.
func motivo(texto string) string {
	texto = strings.TrimSpace(texto)
	if texto == "" {
		return "terminó sin decir nada"
	}
	return strings.ReplaceAll(texto, "\n", "; ")
}

func leerTodo(ruta string) string {
	b, _ := os.ReadFile(ruta)
	return string(b)
}

// primeraLinea waits a moment for the server's start-up line: it writes its state file first.
func primeraLinea(ruta string) string {
	for i := 0; i < 50; i++ {
		if l, _, completa := strings.Cut(leerTodo(ruta), "\n"); completa {
			return l
		}
		time.Sleep(sondeo)
	}
	return strings.TrimSpace(leerTodo(ruta))
}

// Detener stops every server of the lab that is running, the last started first, and waits until
// each has ended. Only servers whose state file is held are touched: those are ours.
func (c *Control) Detener(ctx context.Context) error {
	servidores := c.conocidos()
	algo, fallo := false, false
	for i := len(servidores) - 1; i >= 0; i-- {
		s := servidores[i]
		e, vivo, err := c.vivo(s)
		if err != nil {
			c.decir("%s: %v", s.Etiqueta(), err)
			fallo = true
			continue
		}
		if !vivo {
			continue
		}
		algo = true
		if err := c.detener(ctx, e); err != nil {
			c.decir("%s (pid %d) no se detuvo: %v", s.Etiqueta(), e.PID, err)
			fallo = true
			continue
		}
		c.decir("%s (pid %d) se detuvo", s.Etiqueta(), e.PID)
	}
	if !algo && !fallo {
		c.decir("no había ningún servidor del laboratorio corriendo")
	}
	c.decirAjenos(ctx)
	if fallo {
		return ErrFallo
	}
	return nil
}

// decirAjenos names the lab's ports that programs it did not start still hold (a server started
// by hand, another lab), and who holds them when the system tells: «nothing was running» must not
// read as «the ports are free». It stops none of them.
func (c *Control) decirAjenos(ctx context.Context) {
	informes, err := c.Informes(ctx)
	if err != nil {
		return
	}
	for _, inf := range informes {
		if inf.Vivo || !inf.Ocupado {
			continue
		}
		quien := "otro programa"
		if o := inf.Ocupante.String(); o != "" {
			quien += " (" + o + ")"
		}
		c.decir("el puerto %d (%s) lo tiene %s, que no arrancó el laboratorio: no lo detengo (Ctrl+C en su terminal, o kill con su pid)", inf.Puerto, inf.Etiqueta(), quien)
	}
}

// detener asks the server to stop, waits for it, and kills it if it takes longer than Apagado.
func (c *Control) detener(ctx context.Context, e anuncio.Estado) error {
	if err := pedirQueTermine(e.PID); err != nil && existe(e.PID) {
		return err
	}
	apagado := c.Apagado
	if apagado == 0 {
		apagado = esperaApagado
	}
	if c.esperarFin(ctx, e.PID, apagado) {
		return nil
	}
	if err := matar(e.PID); err != nil && existe(e.PID) {
		return err
	}
	if c.esperarFin(ctx, e.PID, 5*time.Second) {
		return nil
	}
	return fmt.Errorf("sigue corriendo")
}

// esperarFin waits up to espera for the process to end. A child of this controller is waited for
// on its own channel; any other process through the system (esperarProceso), which sees it end
// even while its parent has not reaped it yet.
func (c *Control) esperarFin(ctx context.Context, pid int, espera time.Duration) bool {
	termino := c.hijo(pid)
	if termino == nil {
		return esperarProceso(ctx, pid, espera)
	}
	limite := time.NewTimer(espera)
	defer limite.Stop()
	select {
	case <-termino:
		return true
	case <-limite.C:
		return false
	case <-ctx.Done():
		return false
	}
}

// esperarSondeando asks every moment whether the process still exists: where the system has no
// way to be told when a process ends.
func esperarSondeando(ctx context.Context, pid int, espera time.Duration) bool {
	limite := time.Now().Add(espera)
	for existe(pid) {
		if time.Now().After(limite) || ctx.Err() != nil {
			return false
		}
		time.Sleep(sondeo)
	}
	return true
}

// Reiniciar stops the lab and starts it again: the lessons want fresh servers before each series.
// A panel that was running comes back too, still wired.
func (c *Control) Reiniciar(ctx context.Context) error {
	if p, ok := panelEn(c.conocidos()); ok && c.Servidores == nil && !c.Panel {
		if _, vivo, _ := c.vivo(p); vivo {
			c.Panel = true
			defer func() { c.Panel = false }()
		}
	}
	if err := c.Detener(ctx); err != nil {
		return err
	}
	return c.Arrancar(ctx)
}

// Vaciar stops the lab, erases the revisor's data (Datos) and starts the lab again: a clean start
// for a lab that keeps its data. Without Datos it is Reiniciar: memory starts clean.
func (c *Control) Vaciar(ctx context.Context) error {
	if err := c.Detener(ctx); err != nil {
		return err
	}
	if c.Datos != "" {
		if err := c.borrarDatos(ctx); err != nil {
			c.decir("no se pudieron borrar los datos de %s: %v", c.Datos, err)
			return ErrFallo
		}
		c.decir("datos del revisor borrados: %s", c.Datos)
	}
	return c.Arrancar(ctx)
}

// borrarDatos asks the revisor's program to erase its store («revisor borrar-datos»): it is the
// one that links SQLite and PostgreSQL's driver, so the controller (in laboratorio) links neither.
func (c *Control) borrarDatos(ctx context.Context) error {
	bin := c.binario("revisor")
	if _, err := os.Stat(bin); err != nil {
		return fmt.Errorf("falta %s (make build lo construye)", bin)
	}
	out, err := exec.CommandContext(ctx, bin, "borrar-datos", "--datos", c.Datos).CombinedOutput()
	if err != nil {
		if texto := strings.TrimSpace(string(out)); texto != "" {
			return errors.New(strings.ReplaceAll(texto, "\n", "; "))
		}
		return err
	}
	return nil
}

// Informe is what Estado tells about one server.
type Informe struct {
	Servidor
	Vivo     bool
	Estado   anuncio.Estado // when Vivo
	Ocupado  bool           // not ours, but something listens on its port
	Ocupante Ocupante       // who, if the system said
	Bitacora string
}

// Informes looks at every server: running (ours, with pid and log), stopped, or stopped with its
// port held by another program.
func (c *Control) Informes(ctx context.Context) ([]Informe, error) {
	var r []Informe
	pedidos := c.servidores()
	for _, s := range c.conocidos() {
		inf := Informe{Servidor: s}
		e, vivo, err := c.vivo(s)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.Etiqueta(), err)
		}
		if _, pedido := panelEn(pedidos); s.Etiqueta() == "panel" && !vivo && !pedido {
			continue // not asked for and not running: nothing to say about it
		}
		if vivo {
			inf.Vivo, inf.Estado, inf.Bitacora = true, e, c.rutaBitacora(s)
			if _, err := os.Stat(inf.Bitacora); err != nil {
				inf.Bitacora = "" // a foreground server (make lab) writes to its terminal
			}
		} else if Ocupado(c.host(), s.Puerto) {
			inf.Ocupado = true
			inf.Ocupante, _ = QuienEscucha(ctx, s.Puerto)
		}
		r = append(r, inf)
	}
	return r, nil
}

// Estado prints one line per server; the result is ErrFallo when any of them is not running, so
// a script (or make) can tell a whole lab from a broken one.
func (c *Control) Estado(ctx context.Context) error {
	informes, err := c.Informes(ctx)
	if err != nil {
		return err
	}
	entero := true
	for _, inf := range informes {
		entero = entero && inf.Vivo
		switch {
		case inf.Vivo:
			linea := fmt.Sprintf("%-12s en marcha  pid %-7d http://%s", inf.Etiqueta(), inf.Estado.PID, inf.Estado.Direccion)
			if inf.Bitacora != "" {
				linea += "  bitácora " + inf.Bitacora
			}
			c.decir("%s", linea)
		case inf.Ocupado && inf.Ocupante.String() != "":
			c.decir("%-12s detenido   el puerto %d lo tiene otro programa (%s)", inf.Etiqueta(), inf.Puerto, inf.Ocupante)
		case inf.Ocupado:
			c.decir("%-12s detenido   el puerto %d lo tiene otro programa", inf.Etiqueta(), inf.Puerto)
		default:
			c.decir("%-12s detenido", inf.Etiqueta())
		}
	}
	if !entero {
		return ErrFallo
	}
	return nil
}

// puertosDelCurso are the ports a scene on the machine's own network needs free.
var puertosDelCurso = []int{curso.PuertoRevisor, curso.PuertoLaboratorio, curso.PuertoPasarela, curso.PuertoHostil}

// Puertos checks that the course's ports (18080-18083) are free, as the scenes need them. If not,
// it says in one line who holds them and what to do, and returns ErrFallo.
func (c *Control) Puertos(ctx context.Context) error {
	nuestros := map[int]anuncio.Estado{}
	for _, s := range c.servidores() {
		if e, vivo, err := c.vivo(s); err == nil && vivo {
			nuestros[s.Puerto] = e
		}
	}
	var ocupados []string
	delLab, ajenos := 0, 0
	for _, p := range puertosDelCurso {
		if !Ocupado(c.host(), p) {
			continue
		}
		if e, ok := nuestros[p]; ok {
			ocupados = append(ocupados, fmt.Sprintf("%d (%s del laboratorio, pid %d)", p, e.Programa, e.PID))
			delLab++
			continue
		}
		ajenos++
		if o, ok := QuienEscucha(ctx, p); ok {
			ocupados = append(ocupados, fmt.Sprintf("%d (%s)", p, o))
		} else {
			ocupados = append(ocupados, fmt.Sprintf("%d (otro programa)", p))
		}
	}
	if len(ocupados) == 0 {
		return nil
	}
	que := "detenlos y vuelve a probar"
	switch {
	case ajenos == 0:
		que = "«" + c.ordenDetener() + "» los detiene"
	case delLab > 0:
		que = "«" + c.ordenDetener() + "» detiene los del laboratorio; detén los demás y vuelve a probar"
	}
	quien, aparte := quienNecesitaLosPuertos(runtime.GOOS)
	c.decir("%s necesitan libres los puertos %d-%d y están ocupados: %s; %s%s",
		quien, curso.PuertoRevisor, curso.PuertoHostil, strings.Join(ocupados, ", "), que, aparte)
	return ErrFallo
}

// quienNecesitaLosPuertos says, for the system goos, which scenes use the machine's own ports: on
// Linux make escenas and make test give each scene a network of its own (scripts/escenas), so
// only a scene replayed at the keyboard (PASO=1) needs them; elsewhere every scene does.
func quienNecesitaLosPuertos(goos string) (quien, aparte string) {
	if goos == "linux" {
		return "las escenas paso a paso (make escena E=… PASO=1)",
			" (make escenas y make test no los necesitan: en Linux cada escena corre en su propia red)"
	}
	return "las escenas (make escenas, make test, make escena)", ""
}

// PrimerPlano runs the lab in the foreground: every line a server writes goes to Out behind its
// program's name. Each signal received on senales is passed on once to every server, so the first
// Ctrl+C (or SIGTERM) lets them finish their requests and the second stops them at once; a third
// kills what is left. It returns when all have ended; if one cannot start, the ones already started
// are stopped and the result is ErrFallo.
func (c *Control) PrimerPlano(senales <-chan os.Signal) error {
	if err := os.MkdirAll(c.dir(), 0o755); err != nil {
		return err
	}
	var mu sync.Mutex // one line at a time on Out
	linea := func(texto string) {
		mu.Lock()
		defer mu.Unlock()
		if c.Out != nil {
			io.WriteString(c.Out, texto+"\n")
		}
	}
	type hijo struct {
		cmd     *exec.Cmd
		termino <-chan struct{}
		leido   chan struct{} // its output was read to the end
	}
	var hijos []*hijo
	parar := func() {
		for _, h := range hijos {
			h.cmd.Process.Kill()
			<-h.termino
			<-h.leido
		}
	}
	ancho := 0
	for _, s := range c.servidores() {
		ancho = max(ancho, len(s.Etiqueta()))
	}
	tokens, err := c.tokensParaArrancar()
	if err != nil {
		return err
	}
	linea(fmt.Sprintf("token del laboratorio en %s: «laboratorio lab token» lo muestra (lo piden el control de la pasarela y el panel)",
		c.rutaToken(ArchivoToken)))
	c.decirEnlace(c.servidores(), tokens, linea)
	for _, s := range c.servidores() {
		if e, vivo, _ := c.vivo(s); vivo {
			linea(fmt.Sprintf("%s ya corre en segundo plano (pid %d): «%s» lo detiene", s.Etiqueta(), e.PID, c.ordenDetener()))
			parar()
			return ErrFallo
		}
		if err := c.libre(context.Background(), s); err != nil {
			linea(fmt.Sprintf("%s no arrancó: %v", s.Etiqueta(), err))
			parar()
			return ErrFallo
		}
		lector, escritor, err := os.Pipe()
		if err != nil {
			parar()
			return err
		}
		cmd := exec.Command(c.binario(s.Programa), append(append([]string{}, s.Args...), "--estado-lab", c.rutaEstado(s))...)
		cmd.Stdout, cmd.Stderr = escritor, escritor
		cmd.Env = tokens.entorno()
		agrupar(cmd)
		termino, err := c.lanzar(cmd)
		escritor.Close() // the child has its copy: the reader ends when the child does
		if err != nil {
			lector.Close()
			parar()
			return err
		}
		h := &hijo{cmd: cmd, termino: termino, leido: make(chan struct{})}
		prefijo := fmt.Sprintf("%-*s | ", ancho, s.Etiqueta())
		var visto strings.Builder // what it wrote, the reason if it ends at start-up
		go func() {
			defer close(h.leido)
			defer lector.Close()
			sc := bufio.NewScanner(lector)
			for sc.Scan() {
				visto.WriteString(sc.Text() + "\n")
				linea(prefijo + sc.Text())
			}
		}()
		_, err = c.esperarArranque(context.Background(), s, cmd, termino, func() string {
			<-h.leido
			return visto.String() // written only by the reader, which has ended
		})
		if err != nil {
			<-h.leido
			linea(fmt.Sprintf("%s no arrancó: %v", s.Etiqueta(), err))
			parar()
			return ErrFallo
		}
		hijos = append(hijos, h)
	}
	todos := make(chan struct{})
	go func() {
		for _, h := range hijos {
			<-h.termino
			<-h.leido
		}
		close(todos)
	}()
	for recibidas := 1; ; recibidas++ {
		select {
		case <-todos:
			return nil
		case s := <-senales:
			for _, h := range hijos {
				reenviar(h.cmd.Process, s)
			}
			if recibidas >= 3 {
				for _, h := range hijos {
					h.cmd.Process.Kill()
				}
			}
		}
	}
}
