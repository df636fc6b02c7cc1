package pasarela

import (
	"container/list"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"cursohttp/pkg/bitacora"
	"cursohttp/pkg/eventos"
	"cursohttp/pkg/tabladecision"
	"cursohttp/pkg/topes"
	"cursohttp/pkg/traza"
)

// The ledger answers Lesson 6's question directly: a 502 does not say whether the write happened,
// but the gateway saw both sides. For each request it notes what the revisor answered (or that it
// never saw it) and what the client got; its summary says «el revisor hizo N escrituras; los
// clientes vieron M éxitos». It is kept always, at no allocation per request: the last topes.Libro
// requests in a ring of values, and counters since the start.

// The ledger keeps the newest topes.Libro requests; the counters cover all of them. It remembers
// at most topes.UbicacionesLibro Locations to tell a replayed 201 from a new write.

// Asiento is one request as the gateway saw it: the one record of a request, which the ledger
// keeps, the detailed log and the panel show, and a script takes for its own (Paso.Anotar: the
// grader's attempts). The gateway alone writes it (Peticion.terminar), from what it saw and what
// the fault made of the request (Desenlace).
type Asiento struct {
	// Inicio is when the request reached the gateway, Fin when the gateway was done with it.
	Inicio, Fin time.Time
	Traza       traza.ID // zero when the request carried no trace and the gateway observes nothing
	Metodo      string
	Ruta        string
	// Llave is the Idempotency-Key, its repeated fields joined (bounded: recortarLlave); Llaves is
	// how many such fields the request carried.
	Llave  string
	Llaves int
	Falla  string
	// Llego: the request went on to the revisor. Revisor: its answer's status, 0 when none came.
	Llego   bool
	Revisor int
	// Cliente is the status the client got; 0 when it got no answer (cut, reset, it left).
	Cliente int
	// RetryAfter is the seconds the answer the client got asked it to wait (0: none); Type the
	// Problem Details type of a 4xx it got.
	RetryAfter int
	Type       string
	// Abandonado: the client hung up before the gateway was done, so whatever it answered never
	// reached it (Cliente is then 0).
	Abandonado bool
	// Directo: the request reached the revisor without the gateway (RegistrarDirecto).
	Directo   bool
	Resultado string
	// Desenlace is what became of the request as the client lived it (eventos.Entregada…).
	Desenlace string
	// Escritura: the revisor did a write (a 2xx to POST, PUT, PATCH or DELETE that is not the replay
	// of an earlier one); Repetida: a 201 whose Location an earlier 201 already named, the revisor
	// repeating a recorded answer (Idempotency-Key).
	Escritura bool
	Repetida  bool
	// Exito: the client got a 2xx to a write.
	Exito bool
}

// Resumen are the ledger's counters since the gateway started.
type Resumen struct {
	Peticiones    int `json:"peticiones"`
	AlRevisor     int `json:"al_revisor"`
	NuncaLlegaron int `json:"nunca_llegaron"`
	SinRespuesta  int `json:"sin_respuesta_del_revisor"`
	Escrituras    int `json:"escrituras"`
	Repetidas     int `json:"respuestas_repetidas"`
	Exitos        int `json:"exitos_de_clientes"`
	// Perdidas: the revisor answered and the client did not get that answer (lost, cut, reset, or
	// it left before a slow one).
	Perdidas int `json:"respuestas_perdidas"`
}

// Frase is the summary in the lesson's words: «el revisor hizo 1 escritura; los clientes vieron 0 éxitos».
func (r Resumen) Frase() string {
	return "el revisor hizo " + contar(r.Escrituras, "escritura", "escrituras") +
		"; los clientes vieron " + contar(r.Exitos, "éxito", "éxitos")
}

func contar(n int, uno, varios string) string {
	if n == 1 {
		return "1 " + uno
	}
	return strconv.Itoa(n) + " " + varios
}

// libro is the ledger.
type libro struct {
	mu          sync.Mutex
	asientos    [topes.Libro]Asiento
	n           int // requests noted since the start
	resumen     Resumen
	ubicaciones map[string]*list.Element
	orden       *list.List
}

func nuevoLibro() *libro {
	return &libro{ubicaciones: make(map[string]*list.Element), orden: list.New()}
}

// anotar classifies a and keeps it; it returns a as classified.
func (l *libro) anotar(a Asiento, ubicacion string) Asiento {
	escritura := a.Revisor >= 200 && a.Revisor < 300 && !esSeguro(a.Metodo)
	l.mu.Lock()
	defer l.mu.Unlock()
	if escritura && a.Revisor == http.StatusCreated && ubicacion != "" {
		if _, vista := l.ubicaciones[ubicacion]; vista {
			a.Repetida, escritura = true, false
		} else {
			if len(l.ubicaciones) >= topes.UbicacionesLibro {
				vieja := l.orden.Front()
				l.orden.Remove(vieja)
				delete(l.ubicaciones, vieja.Value.(string))
			}
			l.ubicaciones[ubicacion] = l.orden.PushBack(ubicacion)
		}
	}
	a.Escritura = escritura
	a.Exito = a.Cliente >= 200 && a.Cliente < 300 && !esSeguro(a.Metodo)
	r := &l.resumen
	r.Peticiones++
	switch {
	case !a.Llego:
		r.NuncaLlegaron++
	case a.Revisor == 0:
		r.AlRevisor++
		r.SinRespuesta++
	default:
		r.AlRevisor++
		if a.Cliente != a.Revisor {
			r.Perdidas++
		}
	}
	if a.Escritura {
		r.Escrituras++
	}
	if a.Repetida {
		r.Repetidas++
	}
	if a.Exito {
		r.Exitos++
	}
	l.asientos[l.n%topes.Libro] = a
	l.n++
	return a
}

// leer returns the counters and the requests kept, oldest first.
func (l *libro) leer() (Resumen, []Asiento) {
	l.mu.Lock()
	defer l.mu.Unlock()
	desde := max(0, l.n-topes.Libro)
	r := make([]Asiento, 0, l.n-desde)
	for i := desde; i < l.n; i++ {
		r = append(r, l.asientos[i%topes.Libro])
	}
	return l.resumen, r
}

// asiento is q's request's record, from d, what its fault made of it.
func (q *Peticion) asiento(d Desenlace) (Asiento, string) {
	a := nuevoAsiento(q.r, q.inicio, d)
	a.Llego, a.Revisor = q.reenviada, q.Codigo()
	if q.falla != nil {
		a.Falla = q.falla.String()
	}
	derivarDesenlace(&a)
	if tc := traza.DeContexto(q.r.Context()); tc != nil {
		a.Traza = tc.Traza
	} else if tc, ok := traza.DeCabecera(q.r.Header); ok {
		a.Traza = tc.Traza
	}
	ubicacion := ""
	if q.resp != nil {
		if v := q.resp.Header["Location"]; len(v) == 1 && len(v[0]) <= topes.CampoLibro {
			ubicacion = v[0]
		}
	}
	return a, ubicacion
}

// nuevoAsiento is what every record of a request starts from: its times, method, path and key,
// what the client got, and whether the client hung up meanwhile.
func nuevoAsiento(r *http.Request, inicio time.Time, d Desenlace) Asiento {
	a := Asiento{Inicio: inicio, Fin: time.Now(), Metodo: recortar(r.Method), Ruta: recortar(r.RequestURI),
		Cliente: d.Cliente, Resultado: d.Resultado, Desenlace: d.Tipo, RetryAfter: d.RetryAfter, Type: d.Type}
	if v := r.Header["Idempotency-Key"]; len(v) > 0 {
		a.Llave, a.Llaves = recortarLlave(strings.Join(v, ", ")), len(v)
	}
	if r.Context().Err() != nil {
		// The client had hung up (its own time limit) before the gateway was done: net/http sends
		// an answer when the handler returns, so a connection already closed never carried it.
		a.Abandonado = true
		a.Cliente, a.RetryAfter, a.Type = 0, 0, ""
		if a.Desenlace != eventos.Cortada && a.Desenlace != eventos.Reiniciada {
			a.Desenlace = eventos.Abandonada
		}
	}
	if a.Cliente < 400 || a.Cliente >= 500 {
		a.Type = ""
	}
	return a
}

// derivarDesenlace says what became of a request whose fault did not say it, from its statuses.
func derivarDesenlace(a *Asiento) {
	if a.Desenlace != "" {
		return
	}
	switch {
	case !a.Llego:
		a.Desenlace = eventos.NuncaLlego
	case a.Revisor == 0:
		a.Desenlace = eventos.SinRespuesta
	case a.Cliente == a.Revisor:
		a.Desenlace = eventos.Entregada
	default:
		a.Desenlace = eventos.Perdida
	}
}

// RegistrarDirecto serves r with h (a revisor that r reached without the gateway: a client that
// skipped it) and hands anotar that request's record, written as the gateway writes its own:
// marked Directo, the revisor's answer being what the client got.
func RegistrarDirecto(w http.ResponseWriter, r *http.Request, h http.Handler, anotar func(Asiento)) {
	inicio := time.Now()
	rw := &registro{ResponseWriter: w}
	h.ServeHTTP(rw, r)
	d := Desenlace{Cliente: rw.codigo}
	if v := rw.Header()["Retry-After"]; len(v) > 0 {
		d.RetryAfter, _ = strconv.Atoi(v[0])
	}
	if d.Cliente >= 400 && d.Cliente < 500 {
		d.Type = tabladecision.TypeDelCuerpo(rw.cuerpo)
	}
	a := nuevoAsiento(r, inicio, d)
	a.Llego, a.Revisor, a.Directo = true, rw.codigo, true
	derivarDesenlace(&a)
	anotar(a)
}

// registro keeps the status and the first bytes of an answer a revisor gives directly.
type registro struct {
	http.ResponseWriter
	codigo int
	cuerpo []byte
}

func (r *registro) WriteHeader(c int) {
	if r.codigo == 0 {
		r.codigo = c
	}
	r.ResponseWriter.WriteHeader(c)
}

func (r *registro) Write(b []byte) (int, error) {
	if r.codigo == 0 {
		r.codigo = http.StatusOK
	}
	if falta := 4096 - len(r.cuerpo); falta > 0 {
		r.cuerpo = append(r.cuerpo, b[:min(falta, len(b))]...)
	}
	return r.ResponseWriter.Write(b)
}

func (r *registro) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// recortarLlave is a key as the record keeps it: whole up to topes.CampoLibro bytes; a longer one
// cut as recortar cuts it, followed by a digest of the whole key, so two long keys that differ
// only past the cut still read as two keys (the grader compares them).
func recortarLlave(s string) string {
	if len(s) <= topes.CampoLibro {
		return s
	}
	h := sha256.Sum256([]byte(s))
	huella := hex.EncodeToString(h[:8])
	corte := topes.CampoLibro - len("…") - len(huella)
	for corte > 0 && !utf8.RuneStart(s[corte]) {
		corte--
	}
	return s[:corte] + "…" + huella
}

// recortar keeps at most topes.CampoLibro bytes of what a client sent (a path, a key, a method),
// cut at a character's start and marked with «…»: the ledger keeps topes.Libro entries, so its
// bytes are bounded, not only its entries (1,000 requests with 6 KB paths and keys once made 16
// reads of /_pasarela/libro take 1.86 GB).
func recortar(s string) string {
	if len(s) <= topes.CampoLibro {
		return s
	}
	corte := topes.CampoLibro - len("…")
	for corte > 0 && !utf8.RuneStart(s[corte]) {
		corte--
	}
	return s[:corte] + "…"
}

// asientoJSON is an entry as GET /_pasarela/libro shows it.
type asientoJSON struct {
	Hora      string `json:"hora"`
	Traza     string `json:"traza,omitempty"`
	Metodo    string `json:"metodo"`
	Ruta      string `json:"ruta"`
	Llave     string `json:"llave,omitempty"`
	Falla     string `json:"falla,omitempty"`
	Llego     bool   `json:"llego_al_revisor"`
	Revisor   int    `json:"revisor,omitempty"`
	Cliente   int    `json:"cliente,omitempty"`
	Resultado string `json:"resultado,omitempty"`
	Desenlace string `json:"desenlace"`
	Escritura bool   `json:"escritura,omitempty"`
	Repetida  bool   `json:"repetida,omitempty"`
	Exito     bool   `json:"exito,omitempty"`
}

func (a Asiento) json() asientoJSON {
	j := asientoJSON{Hora: a.Inicio.Format(bitacora.FormatoHora), Metodo: a.Metodo, Ruta: a.Ruta, Llave: a.Llave, Falla: a.Falla,
		Llego: a.Llego, Revisor: a.Revisor, Cliente: a.Cliente, Resultado: a.Resultado, Desenlace: a.Desenlace, Escritura: a.Escritura,
		Repetida: a.Repetida, Exito: a.Exito}
	if a.Traza != (traza.ID{}) {
		j.Traza = hex.EncodeToString(a.Traza[:])
	}
	return j
}
