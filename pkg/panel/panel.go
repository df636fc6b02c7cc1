// Package panel is the timeline page (laboratorio panel, 18084): the programs started with --panel
// send it their events (pkg/eventos), and it shows each trace live, one row per attempt across the
// lanes cliente → pasarela → revisor → laboratorio, where a response was lost and what the client
// got. Everything it serves is in the binary (embed): no build step, no CDN. It also carries a
// control for the gateway's process-wide fault (PUT /_pasarela/simular).
//
// What changes the page for everybody (the events, the control, «Limpiar») needs the lab's token
// (pkg/token) or, from the page itself, the instructor's session, and must not come from a page of
// another site. The page never carries the token: the instructor opens it once through a one-time
// link (RutaEnlace), which gives that browser a session cookie; without it the page only reads.
package panel

import (
	"bufio"
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"html"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/rs/zerolog"

	"cursohttp/pkg/eventos"
	"cursohttp/pkg/fallas"
	"cursohttp/pkg/paginas"
	"cursohttp/pkg/respuesta"
	"cursohttp/pkg/servidor"
	"cursohttp/pkg/token"
	"cursohttp/pkg/topes"
)

//go:embed web
var web embed.FS

// The page's routes.
const (
	RutaEventos = "/eventos"       // POST: the programs' events, one JSON per line (pkg/eventos)
	RutaFlujo   = "/flujo"         // GET: the events as server-sent events, the history first
	RutaSimular = "/simular"       // POST modo, prob, semilla: sets the gateway's process-wide fault
	RutaBorrar  = "/borrar"        // POST: forget the history (a new series)
	RutaEnlace  = token.RutaEnlace // GET ?codigo=: a one-time link, exchanged for the instructor's session cookie
	// RutaClase, and everything under it, is where the panel's class page of local mode was: it
	// took any student's word for anybody's row (issue 40, item 9). It answers 410 and says where
	// the class board is now, so an old bookmark or an old grader's post is told in one line.
	RutaClase = "/clase"
)

// ClaseQueSeFue is the panel's answer at RutaClase (410).
const ClaseQueSeFue = "la página de la clase ya no está en el panel: la pizarra de la clase es la del modo clase " +
	"(el profesor la arranca con «laboratorio clase iniciar»; cada alumno califica con " +
	"«revisor comprobar cliente --clase URL --credencial C»); a solas, «revisor comprobar historial» muestra tus calificaciones"

// The three POST routes change the page for everybody: each asks for the lab's token.

// Everything a stranger can grow is bounded in bytes as well as in count, by pkg/topes: the
// history (topes.Historia events, topes.HistoriaBytes bytes: the oldest go first past either), one
// POST of events (topes.LoteDeEventos) and one event's line (topes.Evento: a longer one refuses
// its batch, 413), each text field kept (topes.CampoDeEvento: cut past it), the pages open at once
// (topes.Flujos: one more gets 503 and tries again later). Each write to a page's stream is
// bounded by topes.EsperaEscritura: a page that takes nothing that long is dropped (a browser that
// reads reconnects and gets the history again), so pages that never read cannot hold the panel's
// connections.

// topeEspera is how many events wait for one slow page before it is dropped.
const topeEspera = 256

// Opciones configure a Panel.
type Opciones struct {
	Pasarela string         // the gateway whose fault the control sets; curso.URLPasarela in the command
	Log      zerolog.Logger // one line when the fault is changed, and one per refused request
	Cliente  *http.Client   // to reach the gateway; a 5 s client when nil
	// Token is the lab's token: the events, the control and «Limpiar» ask for it, and the control
	// sends it on to the gateway. When empty, one nobody knows: nothing changes the page.
	Token string
	// EsperaEscritura bounds each write to a page's stream; topes.EsperaEscritura when 0.
	EsperaEscritura time.Duration
	// Ahora is the clock the one-time links are checked against; time.Now when nil.
	Ahora func() time.Time
	// IntervaloRechazos is how often refusals past the first few of a source are summed up in
	// one line (token.Rechazos); token.IntervaloRechazos when 0.
	IntervaloRechazos time.Duration
}

// Panel is the page's http.Handler. Cerrar ends the open streams (on shutdown).
type Panel struct {
	pasarela string
	log      zerolog.Logger
	cliente  *http.Client
	archivos http.Handler
	puerta   token.Puerta
	sesiones *token.Sesiones // the instructor's sessions on the page
	rechazos *token.Rechazos // which refusals the log says in full, and the sums of the rest
	lectura  []byte          // index.html for a reader: it says so at its top
	profesor []byte          // index.html for the instructor's session: its control acts

	espera    time.Duration // EsperaEscritura
	flujos    atomic.Int32  // stream handlers running
	mu        sync.Mutex
	historia  [][]byte // each event's JSON, oldest first; historia[desde:] is the history
	desde     int      // events dropped from the front and not yet compacted away
	bytes     int      // bytes of historia[desde:]
	oyentes   map[*oyente]struct{}
	simulando string // the gateway's last known fault line
	cerrado   bool
	mux       *http.ServeMux
	fin       chan struct{}
}

// oyente is one open page.
type oyente struct {
	c chan mensaje
}

// mensaje is one server-sent event.
type mensaje struct {
	tipo string // event:
	dato []byte // data: (one line)
}

// Nuevo builds the panel.
func Nuevo(o Opciones) *Panel {
	if o.Cliente == nil {
		o.Cliente = &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{Proxy: nil}}
	}
	if o.Token == "" {
		o.Token = token.Nuevo()
	}
	if o.EsperaEscritura <= 0 {
		o.EsperaEscritura = topes.EsperaEscritura
	}
	rechazos := token.NuevosRechazos(o.IntervaloRechazos, func(s token.Suma) {
		o.Log.Warn().Int("rechazos", s.N).Str("fuente", s.Fuente).Msg(s.Texto("panel", o.IntervaloRechazos))
	})
	sub, _ := fs.Sub(web, "web")
	indice, _ := fs.ReadFile(web, "web/index.html")
	indice = bytes.Replace(indice, []byte(lugarDeModos), listaDeModos(), 1)
	indice = bytes.Replace(indice, []byte(lugarDeDesenlaces), listaDeDesenlaces(), 1)
	p := &Panel{pasarela: strings.TrimSuffix(o.Pasarela, "/"), log: o.Log, cliente: o.Cliente,
		archivos: http.FileServerFS(sub), oyentes: map[*oyente]struct{}{}, fin: make(chan struct{}),
		puerta: token.Puerta{Instructor: o.Token}, espera: o.EsperaEscritura,
		sesiones: token.NuevasSesiones(o.Token, o.Ahora), rechazos: rechazos,
		lectura:  bytes.Replace(indice, []byte(lugarDelAviso), []byte(`<p id="aviso-lectura" class="aviso-lectura" role="status">`+AvisoLectura+`</p>`), 1),
		profesor: bytes.Replace(bytes.Replace(indice, []byte(lugarDelAviso), nil, 1), []byte(lugarDelAcceso), []byte(`<meta name="acceso" content="profesor">`), 1)}
	p.mux = p.rutas()
	return p
}

// Where index.html says whom it was served to (for its scripts: «lectura» or «profesor»), and
// where a reader's page says, at its top, that it only reads.
const (
	lugarDelAcceso = `<meta name="acceso" content="lectura">`
	lugarDelAviso  = `<!-- aviso de solo lectura -->`
)

// AvisoLectura is the line a page opened without the instructor's session shows at its top.
const AvisoLectura = "Solo lectura: esta página muestra el viaje de cada petición, pero no cambia la falla ni limpia. " +
	"Para actuar, el profesor la abre con el enlace de una vez que dio «laboratorio lab arrancar --panel» o «laboratorio panel» " +
	"(«laboratorio lab enlace» da otro)."

// lugarDeDesenlaces is where index.html carries the gateway's outcomes for panel.js: a data block,
// which no browser runs (the page's Content-Security-Policy allows no inline script).
const lugarDeDesenlaces = `<script type="application/json" id="desenlaces"></script>`

// listaDeDesenlaces is the outcomes' table as JSON in its data block; encoding/json writes <, > and
// & as \u escapes, so nothing in it can end the block.
func listaDeDesenlaces() []byte {
	j, err := json.Marshal(eventos.Desenlaces)
	if err != nil {
		panic(err) // a table of strings
	}
	return []byte(`<script type="application/json" id="desenlaces">` + string(j) + `</script>`)
}

// lugarDeModos is the control's list of modes in index.html, filled from the gateway's own list.
const lugarDeModos = `<datalist id="modos"></datalist>`

// listaDeModos is the control's list: «ninguna», then the gateway's modes (pkg/fallas, which the
// gateway's tests check against its parser), each with what it does.
func listaDeModos() []byte {
	var b bytes.Buffer
	b.WriteString(`<datalist id="modos">` + "\n")
	b.WriteString(`    <option value="ninguna" label="sin falla: solo fallan las peticiones con X-Simular">` + "\n")
	for _, m := range fallas.Modos {
		b.WriteString(`    <option value="` + html.EscapeString(m.Valor) + `" label="` + html.EscapeString(m.Descripcion) + `">` + "\n")
	}
	b.WriteString(`  </datalist>`)
	return b.Bytes()
}

// Cerrar ends every open stream, so a stopping server does not wait for the pages.
func (p *Panel) Cerrar() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.cerrado {
		p.cerrado = true
		close(p.fin)
		p.rechazos.Parar()
	}
}

// rutas is the panel's table on the standard mux. A GET pattern takes HEAD too, except where a
// HEAD pattern says otherwise; whatever no pattern takes (another method, a path the panel has not)
// goes to otra, so the mux never answers its own 404 or 405.
func (p *Panel) rutas() *http.ServeMux {
	m := http.NewServeMux()
	paginas.Montar(m)
	m.HandleFunc(RutaClase, claseQueSeFue)
	m.HandleFunc(RutaClase+"/", claseQueSeFue)
	m.HandleFunc("POST "+RutaEventos, func(w http.ResponseWriter, r *http.Request) {
		if p.exigir(w, r) {
			p.recibir(w, r)
		}
	})
	m.HandleFunc("GET "+RutaFlujo, p.fluir)
	m.HandleFunc("POST "+RutaSimular, func(w http.ResponseWriter, r *http.Request) {
		if p.exigir(w, r) {
			p.simular(w, r)
		}
	})
	m.HandleFunc("POST "+RutaBorrar, func(w http.ResponseWriter, r *http.Request) {
		if p.exigir(w, r) {
			p.borrar(w)
		}
	})
	m.HandleFunc("GET "+RutaEnlace, p.entrar)
	// The stream and the link are GET only: a HEAD of either is a page the panel has not.
	m.HandleFunc("HEAD "+RutaFlujo, otra)
	m.HandleFunc("HEAD "+RutaEnlace, otra)
	m.HandleFunc("GET /{$}", p.servirPagina)
	archivos := servidor.ArchivosDePagina(p.archivos)
	m.HandleFunc("GET /panel.js", archivos)
	m.HandleFunc("GET /panel.css", archivos)
	m.HandleFunc("/", otra)
	return m
}

// claseQueSeFue answers what the class page's routes were, whatever the method: 410 and where the
// class board is.
func claseQueSeFue(w http.ResponseWriter, r *http.Request) {
	servidor.AntesDelCuerpo(w, r, func() { servidor.Texto(w, r, http.StatusGone, ClaseQueSeFue) })
}

// otra answers what the panel has no route for: a page it has not, or a method a page does not take.
func otra(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		http.Error(w, "no existe: la página está en /", http.StatusNotFound)
		return
	}
	http.Error(w, "método no admitido", http.StatusMethodNotAllowed)
}

// ServeHTTP is the standard mux's: an unclean path ("/a/../b", "//x") is redirected to its clean
// form and an escaped slash stays inside its segment, as ServeMux does; the panel is no course
// program, so nothing a lesson shows depends on its answers to such paths.
func (p *Panel) ServeHTTP(w http.ResponseWriter, r *http.Request) { p.mux.ServeHTTP(w, r) }

// exigir lets r through if it may change the page for everybody (pkg/token: the lab's token, or
// the instructor's session); otherwise it answers the refusal, says it in the log, and returns
// false.
func (p *Panel) exigir(w http.ResponseWriter, r *http.Request) bool {
	// The page's own requests carry the instructor's session instead of the token; from another
	// site they are refused below whatever they carry (SameSite=Strict keeps the cookie home too).
	if token.MismoSitio(r) && p.sesiones.Valida(r) {
		return true
	}
	codigo, motivo := p.puerta.Comprobar(r, token.Instructor)
	if codigo == 0 {
		return true
	}
	if p.rechazos.Anotar(fuente(r), motivo) {
		p.log.Warn().Int("codigo", codigo).Str("metodo", r.Method).Str("ruta", r.URL.Path).
			Msg("panel: rechazo " + r.Method + " " + r.URL.Path + ": " + motivo)
	}
	if codigo == token.SinPermiso {
		w.Header().Set("WWW-Authenticate", token.Desafio)
		motivo += ": el panel lo toma de --token o de CURSOHTTP_TOKEN (el laboratorio se lo da: «laboratorio lab token» lo muestra); " +
			"en la página, ábrela con el enlace de una vez («laboratorio lab enlace»)"
	}
	servidor.AntesDelCuerpo(w, r, func() { respuesta.Bytes(w, r, codigo, "text/plain; charset=utf-8", []byte(motivo+"\n")) })
	return false
}

// fuente is the address a request came from, without its port: what refusals are summed up by.
func fuente(r *http.Request) string {
	if h, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		return h
	}
	return r.RemoteAddr
}

// servirPagina serves index.html: the instructor's, whose control acts, to a browser with the
// instructor's session; to anybody else a page that only reads and says so. The page never
// carries a token (issue 34, item 1): whoever can ask for it — another user of the machine, a
// student on the class network — could read it.
func (p *Panel) servirPagina(w http.ResponseWriter, r *http.Request) {
	servidor.ProtegerPagina(w)
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	// Whom the page is for depends on the cookie: never kept by a cache, never sent on as a Referer.
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	pagina := p.lectura
	if p.sesiones.Valida(r) {
		pagina = p.profesor
	}
	h.Set("Content-Length", strconv.Itoa(len(pagina)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(pagina)
	}
}

// entrar exchanges a one-time link for the instructor's session: a cookie with a random value
// (never the token), HttpOnly and SameSite=Strict, then back to the page. A link opened twice, too
// late, or made with another token is refused, and the page it leads to only reads.
func (p *Panel) entrar(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Referrer-Policy", "no-referrer")
	valor, ok := "", false
	if token.MismoSitio(r) {
		valor, ok = p.sesiones.Canjear(r.URL.Query().Get("codigo"))
	}
	if !ok {
		const motivo = "un enlace de una vez usado, vencido o ajeno"
		if p.rechazos.Anotar(fuente(r), motivo) {
			p.log.Warn().Int("codigo", http.StatusForbidden).Str("metodo", r.Method).Str("ruta", r.URL.Path).
				Msg("panel: rechazo " + motivo)
		}
		servidor.Texto(w, r, http.StatusForbidden, "ese enlace ya se usó, venció (sirve "+strconv.Itoa(int(token.VigenciaEnlace/time.Minute))+
			" minutos) o no es de este panel: «laboratorio lab enlace» da otro; "+token.SinEnlace)
		return
	}
	http.SetCookie(w, token.GalletaDeSesion(valor))
	p.log.Info().Msg("panel: el profesor abrió la página con un enlace de una vez")
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// recibir takes a batch of events and passes each to the open pages.
func (p *Panel) recibir(w http.ResponseWriter, r *http.Request) {
	sc := bufio.NewScanner(http.MaxBytesReader(w, r.Body, topes.LoteDeEventos))
	sc.Buffer(make([]byte, 16<<10), topes.Evento)
	var lote [][]byte
	for sc.Scan() {
		linea := bytes.TrimSpace(sc.Bytes())
		if len(linea) == 0 {
			continue
		}
		var ev eventos.Evento
		if err := json.Unmarshal(linea, &ev); err != nil || ev.Programa == "" || ev.Tipo == "" {
			servidor.AntesDelCuerpo(w, r, func() {
				servidor.Texto(w, r, http.StatusBadRequest, "cada línea debe ser un evento en JSON con programa y tipo")
			})
			return
		}
		// Re-encoded: what reaches the pages is exactly an Evento, one line, its texts cut short.
		recortar(&ev)
		b, _ := json.Marshal(&ev)
		lote = append(lote, b)
	}
	var grande *http.MaxBytesError
	switch err := sc.Err(); {
	case errors.Is(err, bufio.ErrTooLong):
		servidor.AntesDelCuerpo(w, r, func() {
			servidor.Texto(w, r, http.StatusRequestEntityTooLarge, "un evento pasa de "+strconv.Itoa(topes.Evento>>10)+" KiB: no tomo el lote")
		})
		return
	case errors.As(err, &grande):
		servidor.AntesDelCuerpo(w, r, func() {
			servidor.Texto(w, r, http.StatusRequestEntityTooLarge, "un lote pasa de "+strconv.Itoa(topes.LoteDeEventos>>20)+" MiB: no lo tomo")
		})
		return
	case err != nil:
		http.Error(w, "no pude leer los eventos: "+err.Error(), http.StatusBadRequest)
		return
	}
	p.difundir("evento", lote...)
	w.WriteHeader(http.StatusNoContent)
}

// recortar cuts an event's texts to topes.CampoDeEvento bytes (on a character's boundary, with
// «…»): a page on a projector shows no 16 KB route, and the history's budget goes to events, not
// to padding.
func recortar(ev *eventos.Evento) {
	for _, c := range []*string{&ev.Programa, &ev.Tipo, &ev.Traza, &ev.Tramo, &ev.Padre, &ev.Metodo, &ev.Ruta,
		&ev.Llave, &ev.Falla, &ev.Resultado, &ev.Desenlace, &ev.Nombre, &ev.Detalle} {
		if len(*c) > topes.CampoDeEvento {
			corte := topes.CampoDeEvento
			for corte > 0 && !utf8.RuneStart((*c)[corte]) {
				corte--
			}
			*c = strings.ToValidUTF8((*c)[:corte], "") + "…"
		}
	}
}

// guardar adds events to the history and drops the oldest past topes.Historia events or
// topes.HistoriaBytes bytes. Called with p.mu held. The slices handed to open streams are never
// written again: a dropped front is only skipped (desde), and compacted into a new array once it
// is as long as what is kept.
func (p *Panel) guardar(datos [][]byte) {
	for _, d := range datos {
		p.historia = append(p.historia, d)
		p.bytes += len(d)
	}
	for len(p.historia)-p.desde > topes.Historia || p.bytes > topes.HistoriaBytes {
		p.bytes -= len(p.historia[p.desde])
		p.desde++
	}
	if p.desde > 0 && p.desde >= len(p.historia)-p.desde {
		p.historia = append([][]byte(nil), p.historia[p.desde:]...)
		p.desde = 0
	}
}

// difundir keeps events in the history and sends them to every open page; a page too slow to
// take them is dropped (it reconnects and gets the history again).
func (p *Panel) difundir(tipo string, datos ...[]byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if tipo == "evento" {
		p.guardar(datos)
	}
	for o := range p.oyentes {
	enviar:
		for _, d := range datos {
			select {
			case o.c <- mensaje{tipo, d}:
			default:
				delete(p.oyentes, o)
				close(o.c)
				break enviar
			}
		}
	}
}

// fluir is the page's stream: the current fault, the history, then every event as it comes. Each
// write has its own deadline (espera): a page that takes nothing that long is dropped, so pages
// that never read cannot hold the panel, whatever the server's own timeouts are.
func (p *Panel) fluir(w http.ResponseWriter, r *http.Request) {
	p.flujos.Add(1)
	defer p.flujos.Add(-1)
	rc := http.NewResponseController(w)
	o := &oyente{c: make(chan mensaje, topeEspera)}
	p.mu.Lock()
	if p.cerrado {
		p.mu.Unlock()
		return
	}
	if len(p.oyentes) >= topes.Flujos {
		p.mu.Unlock()
		// EventSource gives up on a 503; the page tries again by itself (panel.js).
		w.Header().Set("Retry-After", "5")
		http.Error(w, "hay "+strconv.Itoa(topes.Flujos)+" páginas abiertas, el tope: vuelve a probar en unos segundos", http.StatusServiceUnavailable)
		return
	}
	historia := p.historia[p.desde:len(p.historia):len(p.historia)]
	simulando := p.simulando
	p.oyentes[o] = struct{}{}
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		if _, sigue := p.oyentes[o]; sigue {
			delete(p.oyentes, o)
			close(o.c)
		}
		p.mu.Unlock()
	}()
	// No read deadline: the stream stays open as long as the page does.
	rc.SetReadDeadline(time.Time{})
	if simulando == "" {
		simulando = p.consultarSimulacion(r.Context())
	}
	var b bytes.Buffer
	escribir := func(m mensaje) bool {
		b.Reset()
		b.WriteString("event: " + m.tipo + "\ndata: ")
		b.Write(m.dato)
		b.WriteString("\n\n")
		rc.SetWriteDeadline(time.Now().Add(p.espera))
		_, err := w.Write(b.Bytes())
		return err == nil
	}
	enviar := func() bool {
		rc.SetWriteDeadline(time.Now().Add(p.espera))
		return rc.Flush() == nil
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	rc.SetWriteDeadline(time.Now().Add(p.espera))
	w.WriteHeader(http.StatusOK)
	// «inicio» tells a page that reconnects to start again: the history follows.
	if !escribir(mensaje{"inicio", []byte(`""`)}) || !escribir(mensaje{"simular", []byte(strconv.Quote(simulando))}) {
		return
	}
	for _, d := range historia {
		if !escribir(mensaje{"evento", d}) {
			return
		}
	}
	if !enviar() {
		return
	}
	latido := time.NewTicker(15 * time.Second)
	defer latido.Stop()
	for {
		select {
		case m, ok := <-o.c:
			if !ok {
				return
			}
			if !escribir(m) {
				return
			}
			// Whatever else is waiting goes in the same write.
			for hay := true; hay; {
				select {
				case m, ok := <-o.c:
					if !ok || !escribir(m) {
						return
					}
				default:
					hay = false
				}
			}
			if !enviar() {
				return
			}
		case <-latido.C:
			// A comment keeps proxies and the browser from closing a quiet stream.
			rc.SetWriteDeadline(time.Now().Add(p.espera))
			if _, err := io.WriteString(w, ": latido\n\n"); err != nil || !enviar() {
				return
			}
		case <-r.Context().Done():
			return
		case <-p.fin:
			return
		}
	}
}

// Paginas is how many pages' streams the panel is serving (a stalled one counts until its write
// deadline drops it).
func (p *Panel) Paginas() int { return int(p.flujos.Load()) }

// borrar forgets the history: the pages clear their timeline.
func (p *Panel) borrar(w http.ResponseWriter) {
	p.mu.Lock()
	p.historia, p.desde, p.bytes = nil, 0, 0
	p.mu.Unlock()
	p.difundir("borrar", []byte(`""`))
	w.WriteHeader(http.StatusNoContent)
}

// simular sets the gateway's process-wide fault from the page's form (modo, prob, semilla).
func (p *Panel) simular(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 4<<10)
	if err := r.ParseForm(); err != nil {
		http.Error(w, "formulario ilegible", http.StatusBadRequest)
		return
	}
	modo := strings.TrimSpace(r.PostForm.Get("modo"))
	if prob := strings.TrimSpace(r.PostForm.Get("prob")); modo != "" && modo != "ninguna" && prob != "" && prob != "1" {
		modo += "@" + prob
	}
	destino := p.pasarela + "/_pasarela/simular"
	if s := strings.TrimSpace(r.PostForm.Get("semilla")); s != "" {
		destino += "?semilla=" + url.QueryEscape(s)
	}
	req, err := http.NewRequestWithContext(r.Context(), http.MethodPut, destino, strings.NewReader(modo))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req.Header.Set("Content-Type", "text/plain; charset=utf-8")
	req.Header.Set("Authorization", "Bearer "+p.puerta.Instructor)
	resp, err := p.cliente.Do(req)
	if err != nil {
		respuesta.Bytes(w, r, http.StatusBadGateway, "text/plain; charset=utf-8", []byte("la pasarela no responde en "+p.pasarela+"\n"))
		return
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
	if resp.StatusCode == http.StatusUnauthorized {
		respuesta.Bytes(w, r, http.StatusBadGateway, "text/plain; charset=utf-8", []byte("la pasarela de "+p.pasarela+
			" no acepta el token de este panel: arráncalos con el mismo (--token o CURSOHTTP_TOKEN; «laboratorio lab arrancar --panel» ya lo hace)\n"))
		return
	}
	if resp.StatusCode != http.StatusOK {
		// The gateway's Problem Details: its detail is the sentence to show.
		var problema struct{ Detail string }
		if json.Unmarshal(b, &problema) == nil && problema.Detail != "" {
			b = []byte(problema.Detail + "\n")
		}
		respuesta.Bytes(w, r, http.StatusBadRequest, "text/plain; charset=utf-8", b)
		return
	}
	linea := strings.TrimSpace(string(b))
	p.mu.Lock()
	p.simulando = linea
	p.mu.Unlock()
	p.log.Info().Str("simular", modo).Msg("panel: " + linea)
	p.difundir("simular", []byte(strconv.Quote(linea)))
	respuesta.Bytes(w, r, http.StatusOK, "text/plain; charset=utf-8", []byte(linea+"\n"))
}

// consultarSimulacion asks the gateway which fault is in force.
func (p *Panel) consultarSimulacion(ctx context.Context) string {
	ctx, cancelar := context.WithTimeout(ctx, 2*time.Second)
	defer cancelar()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, p.pasarela+"/_pasarela/simular", nil)
	resp, err := p.cliente.Do(req)
	if err != nil {
		return "la pasarela no responde en " + p.pasarela
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
	if resp.StatusCode != http.StatusOK {
		return "la pasarela de " + p.pasarela + " no dice qué falla simula"
	}
	linea := strings.TrimSpace(string(b))
	p.mu.Lock()
	p.simulando = linea
	p.mu.Unlock()
	return linea
}
