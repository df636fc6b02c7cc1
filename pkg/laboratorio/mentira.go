package laboratorio

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/rs/zerolog"

	"cursohttp/internal/nodejs"
	"cursohttp/pkg/encabezado"
	"cursohttp/pkg/problema"
	"cursohttp/pkg/respuesta"
)

// Muda is the scripted answer that accepts the request and never answers.
const Muda = "mudo"

// EnCurso is the extra that turns a 409 into the revisor's "key in progress" 409.
const EnCurso = "en-curso"

// TituloMentira is the title of every error the fake gateway sends, unless it is asked for real ones.
const TituloMentira = "respuesta de mentira"

// Respuesta is one scripted answer of the fake gateway: "mudo", or CODE[:extra].
type Respuesta struct {
	Texto    string // as written on the command line, for the log line
	Muda     bool
	Codigo   int
	Extra    string
	ConExtra bool
}

// ErrRespuesta is wrapped by every error LeerRespuesta returns.
var ErrRespuesta = errors.New("respuesta inválida")

// LeerRespuesta reads one scripted answer. CODE is three digits from 200 to 999: the course's
// program would accept anything Number() reads (" 201", "0x1F5") and crash on the first request for
// what writeHead refuses ("abc", "99"), and would send a 1xx as if it were final; here both are
// refused before listening. After the first colon comes the extra, up to the next colon, as the
// course reads it: for an error it is the Retry-After value, unless it is "en-curso".
func LeerRespuesta(s string) (Respuesta, error) {
	if s == Muda {
		return Respuesta{Texto: s, Muda: true}, nil
	}
	partes := strings.Split(s, ":")
	cifras := partes[0]
	if len(cifras) != 3 || !soloCifras(cifras) {
		return Respuesta{}, fmt.Errorf("%w «%s»: se espera mudo o CÓDIGO[:extra], con un código de tres cifras", ErrRespuesta, s)
	}
	codigo, _ := strconv.Atoi(cifras)
	if codigo < 200 {
		return Respuesta{}, fmt.Errorf("%w «%s»: el código va de 200 a 999 (un %d no puede ser la última respuesta)", ErrRespuesta, s, codigo)
	}
	r := Respuesta{Texto: s, Codigo: codigo}
	if len(partes) > 1 {
		r.Extra, r.ConExtra = partes[1], true
		for _, c := range []byte(r.Extra) {
			if (c < 0x20 && c != '\t') || c == 0x7f {
				return Respuesta{}, fmt.Errorf("%w «%s»: el extra no puede llevar caracteres de control", ErrRespuesta, s)
			}
		}
	}
	return r, nil
}

// OpcionesMentira adjust the fake gateway.
type OpcionesMentira struct {
	// TitulosReales: each error carries the title a real server would write instead of TituloMentira:
	// the code's reason phrase for about:blank (RFC 9457 §4.2.1), and the revisor's own title for
	// its «key in progress» 409. Lesson 6's one-line servers of S-I37 and S-I38 answer that way.
	TitulosReales bool
}

// Mentira is the fake gateway on port 18082: each request gets the next scripted answer, and the
// last one repeats.
type Mentira struct {
	respuestas []Respuesta
	log        zerolog.Logger
	opciones   OpcionesMentira

	mu         sync.Mutex // keeps the count and its log line in the same order
	peticiones int

	fin     chan struct{}
	cerrada sync.Once
}

// NuevaMentira reads the script. It needs at least one answer.
func NuevaMentira(pedidas []string, log zerolog.Logger, o OpcionesMentira) (*Mentira, error) {
	if len(pedidas) == 0 {
		return nil, fmt.Errorf("%w: hace falta al menos una", ErrRespuesta)
	}
	m := &Mentira{log: log, opciones: o, fin: make(chan struct{})}
	for _, p := range pedidas {
		r, err := LeerRespuesta(p)
		if err != nil {
			return nil, err
		}
		m.respuestas = append(m.respuestas, r)
	}
	return m, nil
}

// Cerrar lets go the requests that "mudo" is holding, cutting their connections without an answer,
// so that a graceful shutdown does not wait for them.
func (m *Mentira) Cerrar() {
	m.cerrada.Do(func() { close(m.fin) })
}

// Peticiones is how many requests arrived.
func (m *Mentira) Peticiones() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.peticiones
}

func (m *Mentira) siguiente() (int, Respuesta) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.peticiones++
	r := m.respuestas[min(m.peticiones, len(m.respuestas))-1]
	m.log.Info().Int("peticion", m.peticiones).Str("respuesta", r.Texto).
		Msg("petición " + strconv.Itoa(m.peticiones) + ": " + r.Texto)
	return m.peticiones, r
}

func (m *Mentira) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, p := m.siguiente()
	// Read the body to the end, as the course's program does; it also lets net/http notice a client
	// that leaves while "mudo" holds it.
	io.Copy(io.Discard, r.Body)
	if p.Muda {
		select {
		case <-r.Context().Done():
		case <-m.fin:
		}
		// Close the connection without an answer.
		panic(http.ErrAbortHandler)
	}
	// The course's program: writeHead(codigo, {Content-Type, [Retry-After]}), then end(body).
	bien := p.Codigo < 300
	tipo := problema.TipoMedio
	if bien {
		tipo = "application/json"
	}
	cabeceras := []respuesta.Cabecera{{Nombre: "Content-Type", Valor: tipo}}
	if !bien && p.ConExtra && p.Extra != EnCurso {
		cabeceras = append(cabeceras, respuesta.Cabecera{Nombre: "Retry-After", Valor: p.Extra})
	}
	switch p.Codigo {
	case http.StatusNoContent, http.StatusResetContent, http.StatusNotModified:
		// No body, but the course's Content-Type all the same (net/http drops it from a 304).
		respuesta.Terminar(w, r, p.Codigo, nil, cabeceras...)
		return
	}
	if bien {
		respuesta.Terminar(w, r, p.Codigo, append(nodejs.CodificarJSON(nodejs.Objeto{{Nombre: "id", Valor: 99}}), '\n'), cabeceras...)
		return
	}
	titulo := TituloMentira
	tipo = "about:blank"
	if m.opciones.TitulosReales {
		titulo = encabezado.Frase(p.Codigo)
	}
	if p.Codigo == http.StatusConflict && p.ConExtra && p.Extra == EnCurso {
		t := problema.Buscar(problema.LlaveEnCurso)
		tipo = t.Type
		if m.opciones.TitulosReales {
			titulo = t.Title
		}
	}
	respuesta.Terminar(w, r, p.Codigo, append(nodejs.CodificarJSON(problema.NuevoPropio(tipo, titulo, p.Codigo).Objeto()), '\n'), cabeceras...)
}
