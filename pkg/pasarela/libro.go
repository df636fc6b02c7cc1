package pasarela

import (
	"container/list"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"cursohttp/pkg/bitacora"
	"cursohttp/pkg/eventos"
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

// Asiento is one request as the gateway saw it.
type Asiento struct {
	Hora   time.Time
	Traza  traza.ID // zero when the request carried no trace and the gateway observes nothing
	Metodo string
	Ruta   string
	Llave  string
	Falla  string
	// Llego: the request went on to the revisor. Revisor: its answer's status, 0 when none came.
	Llego   bool
	Revisor int
	// Cliente is the status the client got; 0 when it got no answer (cut, reset, it left).
	Cliente   int
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

// asiento is what q's request leaves in the ledger.
func (q *Peticion) asiento() (Asiento, string) {
	a := Asiento{Hora: q.inicio, Metodo: recortar(q.r.Method), Ruta: recortar(q.r.RequestURI), Llego: q.reenviada, Revisor: q.Codigo(),
		Cliente: q.cliente, Resultado: q.resultado, Desenlace: q.desenlace}
	if a.Desenlace == "" {
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
	if v := q.r.Header["Idempotency-Key"]; len(v) > 0 {
		a.Llave = recortar(strings.Join(v, ", "))
	}
	if q.falla != nil {
		a.Falla = q.falla.String()
	}
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
	j := asientoJSON{Hora: a.Hora.Format(bitacora.FormatoHora), Metodo: a.Metodo, Ruta: a.Ruta, Llave: a.Llave, Falla: a.Falla,
		Llego: a.Llego, Revisor: a.Revisor, Cliente: a.Cliente, Resultado: a.Resultado, Desenlace: a.Desenlace, Escritura: a.Escritura,
		Repetida: a.Repetida, Exito: a.Exito}
	if a.Traza != (traza.ID{}) {
		j.Traza = hex.EncodeToString(a.Traza[:])
	}
	return j
}
