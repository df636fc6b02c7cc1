// Package navegador drives a real headless Chromium from a test, through the DevTools protocol over
// the pipe Chromium opens with --remote-debugging-pipe (file descriptors 3 and 4, one JSON message
// per NUL-terminated frame). A pipe needs no port and no websocket, so a few calls (open a page,
// evaluate JavaScript, take a screenshot) are a small amount of code rather than a dependency.
package navegador

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"time"
)

// Banderas are the flags that start Chromium quietly on a machine without network or display
// (/work/.library/env/machines/go.md): no sandbox (root in CI), no GPU, no background traffic.
var Banderas = []string{
	"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
	"--disable-background-networking", "--disable-component-update", "--disable-sync",
	"--disable-extensions", "--disable-dev-shm-usage", "--hide-scrollbars", "--mute-audio",
}

// Programas are the names Chromium goes by, Debian's first.
var Programas = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// Navegador is a running Chromium.
type Navegador struct {
	cmd      *exec.Cmd
	escribir *os.File
	mu       sync.Mutex // one writer at a time
	id       int
	esperan  map[int]chan respuesta
	muEsp    sync.Mutex
	fin      chan struct{}
	salida   bytes.Buffer
	muSalida sync.Mutex
}

type respuesta struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// ErrSinNavegador means Chromium is not installed or could not start.
var ErrSinNavegador = errors.New("no se pudo arrancar Chromium")

// Abrir starts Chromium with a fresh profile in dir and waits until it answers.
func Abrir(dir string, ancho, alto int) (*Navegador, error) {
	var ruta string
	for _, p := range Programas {
		if r, err := exec.LookPath(p); err == nil {
			ruta = r
			break
		}
	}
	if ruta == "" {
		return nil, fmt.Errorf("%w: no está instalado (apt-get install chromium)", ErrSinNavegador)
	}
	// fd 3: what Chromium reads (our commands); fd 4: what it writes (answers and events).
	ordenesR, ordenesW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	respR, respW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	args := append(append([]string{}, Banderas...), "--remote-debugging-pipe", "--user-data-dir="+dir,
		fmt.Sprintf("--window-size=%d,%d", ancho, alto), "about:blank")
	n := &Navegador{cmd: exec.Command(ruta, args...), escribir: ordenesW, esperan: map[int]chan respuesta{}, fin: make(chan struct{})}
	n.cmd.ExtraFiles = []*os.File{ordenesR, respW}
	n.cmd.Stdout, n.cmd.Stderr = n, n
	if err := n.cmd.Start(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrSinNavegador, err)
	}
	ordenesR.Close()
	respW.Close()
	go n.leer(respR)
	go func() {
		n.cmd.Wait()
		close(n.fin)
	}()
	ctx, cancelar := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancelar()
	if _, err := n.Llamar(ctx, "", "Browser.getVersion", nil); err != nil {
		n.Cerrar()
		return nil, fmt.Errorf("%w: %v; dijo: %s", ErrSinNavegador, err, n.Salida())
	}
	return n, nil
}

// Write keeps what Chromium prints, to explain a failure.
func (n *Navegador) Write(p []byte) (int, error) {
	n.muSalida.Lock()
	defer n.muSalida.Unlock()
	if n.salida.Len() < 64<<10 {
		n.salida.Write(p)
	}
	return len(p), nil
}

// Salida is what Chromium printed so far.
func (n *Navegador) Salida() string {
	n.muSalida.Lock()
	defer n.muSalida.Unlock()
	return n.salida.String()
}

func (n *Navegador) leer(r *os.File) {
	defer r.Close()
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		msg, err := br.ReadBytes(0)
		if err != nil {
			return
		}
		var m struct {
			ID int `json:"id"`
			respuesta
		}
		if json.Unmarshal(msg[:len(msg)-1], &m) != nil || m.ID == 0 {
			continue // an event: nothing here waits for them
		}
		n.muEsp.Lock()
		c := n.esperan[m.ID]
		delete(n.esperan, m.ID)
		n.muEsp.Unlock()
		if c != nil {
			c <- m.respuesta
		}
	}
}

// Llamar sends one DevTools command (to the page of sesion, or to the browser when empty) and
// returns its result.
func (n *Navegador) Llamar(ctx context.Context, sesion, metodo string, params any) (json.RawMessage, error) {
	n.mu.Lock()
	n.id++
	id := n.id
	c := make(chan respuesta, 1)
	n.muEsp.Lock()
	n.esperan[id] = c
	n.muEsp.Unlock()
	orden := map[string]any{"id": id, "method": metodo}
	if params != nil {
		orden["params"] = params
	}
	if sesion != "" {
		orden["sessionId"] = sesion
	}
	b, _ := json.Marshal(orden)
	_, err := n.escribir.Write(append(b, 0))
	n.mu.Unlock()
	if err != nil {
		return nil, err
	}
	select {
	case r := <-c:
		if r.Error != nil {
			return nil, fmt.Errorf("%s: %s", metodo, r.Error.Message)
		}
		return r.Result, nil
	case <-n.fin:
		return nil, fmt.Errorf("%s: Chromium terminó", metodo)
	case <-ctx.Done():
		return nil, fmt.Errorf("%s: %w", metodo, ctx.Err())
	}
}

// Pagina is one tab.
type Pagina struct {
	n      *Navegador
	sesion string
}

// Abrir opens url in a new tab of ancho×alto CSS pixels.
func (n *Navegador) Abrir(ctx context.Context, url string, ancho, alto int) (*Pagina, error) {
	r, err := n.Llamar(ctx, "", "Target.createTarget", map[string]any{"url": "about:blank"})
	if err != nil {
		return nil, err
	}
	var objetivo struct{ TargetID string }
	json.Unmarshal(r, &objetivo)
	r, err = n.Llamar(ctx, "", "Target.attachToTarget", map[string]any{"targetId": objetivo.TargetID, "flatten": true})
	if err != nil {
		return nil, err
	}
	var sesion struct{ SessionID string }
	json.Unmarshal(r, &sesion)
	p := &Pagina{n: n, sesion: sesion.SessionID}
	if _, err := n.Llamar(ctx, p.sesion, "Emulation.setDeviceMetricsOverride",
		map[string]any{"width": ancho, "height": alto, "deviceScaleFactor": 1, "mobile": false}); err != nil {
		return nil, err
	}
	if _, err := n.Llamar(ctx, p.sesion, "Page.navigate", map[string]any{"url": url}); err != nil {
		return nil, err
	}
	return p, nil
}

// AlFrente brings the tab to the front, focused as the window a user looks at: a tab behind
// others gets no focus events, so what a page does on focus (Tab) is tested with it in front.
func (p *Pagina) AlFrente(ctx context.Context) error {
	if _, err := p.n.Llamar(ctx, p.sesion, "Page.bringToFront", nil); err != nil {
		return err
	}
	_, err := p.n.Llamar(ctx, p.sesion, "Emulation.setFocusEmulationEnabled", map[string]any{"enabled": true})
	return err
}

// Evaluar runs a JavaScript expression in the page and decodes its value (JSON) into v.
func (p *Pagina) Evaluar(ctx context.Context, expresion string, v any) error {
	r, err := p.n.Llamar(ctx, p.sesion, "Runtime.evaluate", map[string]any{"expression": expresion, "returnByValue": true, "awaitPromise": true})
	if err != nil {
		return err
	}
	var res struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	if err := json.Unmarshal(r, &res); err != nil {
		return err
	}
	if res.ExceptionDetails != nil {
		return fmt.Errorf("JavaScript: %s %s", res.ExceptionDetails.Text, res.ExceptionDetails.Exception.Description)
	}
	if v == nil || len(res.Result.Value) == 0 {
		return nil
	}
	return json.Unmarshal(res.Result.Value, v)
}

// Esperar evaluates expresion until it is true, or ctx ends.
func (p *Pagina) Esperar(ctx context.Context, expresion string) error {
	for {
		var ok bool
		err := p.Evaluar(ctx, "Boolean("+expresion+")", &ok)
		if err == nil && ok {
			return nil
		}
		select {
		case <-ctx.Done():
			if err != nil {
				return fmt.Errorf("%w (%v)", ctx.Err(), err)
			}
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// Metricas are the page's run-time counters (DevTools' Performance.getMetrics), by name: among
// them TaskDuration, ScriptDuration, LayoutDuration and RecalcStyleDuration, the main thread's
// seconds in each since the first call (which starts them).
func (p *Pagina) Metricas(ctx context.Context) (map[string]float64, error) {
	if _, err := p.n.Llamar(ctx, p.sesion, "Performance.enable", nil); err != nil {
		return nil, err
	}
	r, err := p.n.Llamar(ctx, p.sesion, "Performance.getMetrics", nil)
	if err != nil {
		return nil, err
	}
	var m struct {
		Metrics []struct {
			Name  string  `json:"name"`
			Value float64 `json:"value"`
		} `json:"metrics"`
	}
	if err := json.Unmarshal(r, &m); err != nil {
		return nil, err
	}
	res := make(map[string]float64, len(m.Metrics))
	for _, x := range m.Metrics {
		res[x.Name] = x.Value
	}
	return res, nil
}

// Captura is a PNG of the whole page.
func (p *Pagina) Captura(ctx context.Context) ([]byte, error) {
	r, err := p.n.Llamar(ctx, p.sesion, "Page.captureScreenshot", map[string]any{"format": "png", "captureBeyondViewport": true})
	if err != nil {
		return nil, err
	}
	var c struct{ Data string }
	if err := json.Unmarshal(r, &c); err != nil {
		return nil, err
	}
	return base64.StdEncoding.DecodeString(c.Data)
}

// Cerrar ends Chromium and waits for it.
func (n *Navegador) Cerrar() {
	ctx, cancelar := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancelar()
	n.Llamar(ctx, "", "Browser.close", nil)
	select {
	case <-n.fin:
	case <-time.After(5 * time.Second):
		n.cmd.Process.Kill()
		<-n.fin
	}
	n.escribir.Close()
}
