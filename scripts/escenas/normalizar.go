//go:build unix

package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Clonar copies the numbering, so a comparison that is retried (a server's
// terminal polled until it settles) does not leave placeholders behind.
func (n *Numerador) Clonar() *Numerador {
	c := NuevoNumerador()
	for clase, m := range n.vistos {
		c.vistos[clase] = map[string]int{}
		for v, k := range m {
			c.vistos[clase][v] = k
		}
	}
	return c
}

// Numerador gives each distinct random value a stable placeholder in order of
// appearance, so "the same UUID twice" and "a new ETag after a restart" are
// still checked while the values themselves are not. One per side per scene.
type Numerador struct {
	vistos map[string]map[string]int
}

// NuevoNumerador returns an empty numbering.
func NuevoNumerador() *Numerador {
	return &Numerador{vistos: map[string]map[string]int{}}
}

func (n *Numerador) numero(clase, valor string) int {
	m := n.vistos[clase]
	if m == nil {
		m = map[string]int{}
		n.vistos[clase] = m
	}
	if k, ok := m[valor]; ok {
		return k
	}
	m[valor] = len(m) + 1
	return m[valor]
}

// Regla is one thing the course says changes from run to run.
type Regla struct {
	Nombre string
	Patron *regexp.Regexp
	// Cambiar rewrites one match (submatches in m); nil means Reemplazo.
	Cambiar   func(m []string, n *Numerador) string
	Reemplazo string
}

// Reglas is the whole normalisation: every line of both sides goes through
// it. Nothing else is forgiven; if a scene differs in anything not listed
// here, the difference is real and goes to whoever owns the program.
var Reglas = []Regla{
	{
		// Every response is stamped with the moment it left (L4 §0.6, L6 §0.1, L7 §0.3).
		Nombre: "fecha", Patron: regexp.MustCompile(`^(?i:date): .*$`),
		Reemplazo: "Date: <fecha>",
	},
	{
		// The revisor draws the ETag's last 8 hex digits at each start: "7-1-6db25d01".
		// Numbered, so a restart must still change them (L6 S-I42).
		Nombre: "etiqueta", Patron: regexp.MustCompile(`"(\d+-\d+-)([0-9a-f]{8})"`),
		Cambiar: func(m []string, n *Numerador) string {
			return fmt.Sprintf(`"%s<etiqueta-%d>"`, m[1], n.numero("etiqueta", m[2]))
		},
	},
	{
		// The reference of each 500 and alta-segura's key are random v4 UUIDs
		// (L4 §0.6, L6 §0.1). Numbered, so the log still names the client's one.
		Nombre:  "uuid",
		Patron:  regexp.MustCompile(`\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`),
		Cambiar: func(m []string, n *Numerador) string { return fmt.Sprintf("<uuid-%d>", n.numero("uuid", m[0])) },
	},
	{
		// RateLimit's t is the time left in the window (or until the bucket refills): it counts
		// down, as the note on Idempotency-Key and rate limits says of reset, and as the 429's
		// Retry-After does (L4 §0.6).
		Nombre: "RateLimit t", Patron: regexp.MustCompile(`^((?i:ratelimit): .*;t=)\d+$`),
		Reemplazo: "${1}<segundos que quedan>",
	},
	{
		// Measured milliseconds of a health query or a check (L4 §0.6, L6 §0.1).
		Nombre: "ms medidos", Patron: regexp.MustCompile(`"ms":\d+`),
		Reemplazo: `"ms":<ms>`,
	},
	{
		// curl's own clock: -w 'tardó %{time_total} s' (L4 C4, C5).
		Nombre: "tardó", Patron: regexp.MustCompile(`tardó \d+(\.\d+)? s`),
		Reemplazo: "tardó <s> s",
	},
	{
		// curl's timeout message says how long it measured: 1000 or 1001 ms (L4 A2).
		Nombre: "curl 28", Patron: regexp.MustCompile(`timed out after \d+ milliseconds`),
		Reemplazo: "timed out after <ms> milliseconds",
	},
	{
		// "The wording of curl's message depends on its version" (L4 Series O, L6 Series P).
		Nombre: "curl 7", Patron: regexp.MustCompile(`^curl: \(7\) .*$`),
		Reemplazo: "curl: (7) <no se pudo conectar>",
	},
	{
		// revisor revisar: "200 en 6 ms" padded to 19 columns, so the padding
		// shrinks as the measured number grows (L7 S2).
		Nombre: "revisar ms", Patron: regexp.MustCompile(`\b(\d{3}) en \d+ ms +(\S)`),
		Reemplazo: "$1 en <ms> ms $2",
	},
	{
		// revisor ventana: the real times of the planned 0, 950, 960… ms (L4 Series G).
		Nombre: "ventana ms", Patron: regexp.MustCompile(`^ *\d+ ms  (permitida|rechazada)`),
		Reemplazo: "<ms> ms  $1",
	},
	{
		// revisor ventana: the first and last allowed times after 900 ms (L4 Series G).
		Nombre: "ventana entre", Patron: regexp.MustCompile(`^permitidas entre \d+ y \d+ ms: `),
		Reemplazo: "permitidas entre <ms> y <ms> ms: ",
	},
	{
		// revisor retry-after: the third value is now + 90 s as an IMF-fixdate (L4 Series E).
		Nombre:    "ahora + 90 s",
		Patron:    regexp.MustCompile(`^"(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT"( +)→ 90$`),
		Reemplazo: `"<ahora + 90 s>" → 90`,
	},
	{
		// revisor retry-after --ejercicio 2: the last three values are now + 60 s rounded up to the
		// second, as IMF-fixdate, RFC 850 and asctime, padded to 36 columns (L4 Series L). The two
		// columns after them are compared.
		Nombre: "ahora + 60 s",
		Patron: regexp.MustCompile(`^"(?:` +
			`(?P<imf>(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (?:0[1-9]|[12]\d|3[01]) [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT)|` +
			`(?P<rfc850>(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (?:0[1-9]|[12]\d|3[01])-[A-Z][a-z]{2}-\d\d \d\d:\d\d:\d\d GMT)|` +
			`(?P<asctime>(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) [A-Z][a-z]{2} (?: [1-9]|[12]\d|3[01]) \d\d:\d\d:\d\d \d{4})` +
			`)" +(\d+|null) +(\d+|null)$`),
		Cambiar: func(m []string, _ *Numerador) string {
			forma := "IMF-fixdate"
			switch {
			case m[2] != "":
				forma = "RFC 850"
			case m[3] != "":
				forma = "asctime"
			}
			return `"<ahora + 60 s, ` + forma + `>" ` + m[4] + " " + m[5]
		},
	},
	{
		// revisor retroceso: five jitter draws per attempt. Only "each draw lies
		// between 0 and the ceiling" is fixed; a draw above it stays visible (L6 Series B).
		Nombre: "sorteos", Patron: regexp.MustCompile(`^( {6}\d  +(\d+))  (\d+(?:, \d+)*)$`),
		Cambiar: func(m []string, _ *Numerador) string {
			techo, _ := strconv.Atoi(m[2])
			var sorteos []string
			for _, s := range strings.Split(m[3], ", ") {
				if v, err := strconv.Atoi(s); err == nil && v >= 0 && v <= techo {
					s = "<sorteo>"
				}
				sorteos = append(sorteos, s)
			}
			return m[1] + "  " + strings.Join(sorteos, ", ")
		},
	},
	{
		// revisor retroceso: the "con jitter" column counts random draws (L6 Series B).
		Nombre:    "ventanas con jitter",
		Patron:    regexp.MustCompile(`^(0-99|100-199|200-299|300-399|400-499|500 o más) +(\d+) +\d+$`),
		Reemplazo: "$1 $2 <con jitter>",
	},
	{
		Nombre: "ventana más cargada", Patron: regexp.MustCompile(`^la ventana más cargada: (\d+) sin jitter, \d+ con jitter$`),
		Reemplazo: "la ventana más cargada: $1 sin jitter, <n> con jitter",
	},
}

// NormalizarLinea applies every rule to one line.
func NormalizarLinea(linea string, n *Numerador) string {
	linea = strings.TrimSuffix(linea, "\r")
	for _, r := range Reglas {
		if r.Cambiar == nil {
			linea = r.Patron.ReplaceAllString(linea, r.Reemplazo)
			continue
		}
		linea = r.Patron.ReplaceAllStringFunc(linea, func(s string) string {
			return r.Cambiar(r.Patron.FindStringSubmatch(s), n)
		})
	}
	return linea
}

var lineaDeEstado = regexp.MustCompile(`^HTTP/\d(\.\d)? \d{3}`)

var msEnCuerpo = regexp.MustCompile(`"ms":\d+`)

// Normalizar prepares the lines of one side of a comparison: CRLF to LF, the
// Content-Length of a body whose size follows a measured number and the
// Retry-After of a 429 in `curl -i` header blocks, then every rule of Reglas.
// Header blocks keep their lines and their order: the suite writes them as
// the course's programs do, Connection and Keep-Alive included.
// origen[k] is the index in lineas of the k-th line kept.
func Normalizar(lineas []string, n *Numerador) (fuera []string, origen []int) {
	fuera = make([]string, 0, len(lineas))
	for i := 0; i < len(lineas); i++ {
		linea := strings.TrimSuffix(lineas[i], "\r")
		fuera = append(fuera, linea)
		origen = append(origen, i)
		if !lineaDeEstado.MatchString(linea) {
			continue
		}
		// The header block of a `curl -i`: up to the blank line.
		j := i + 1
		for j < len(lineas) && strings.TrimSuffix(lineas[j], "\r") != "" {
			j++
		}
		var cuerpo string
		if j+1 < len(lineas) {
			cuerpo = strings.TrimSuffix(lineas[j+1], "\r")
		}
		es429 := strings.Contains(linea, " 429")
		for k, h := range lineas[i+1 : j] {
			h = strings.TrimSuffix(h, "\r")
			nombre, valor, _ := strings.Cut(h, ":")
			valor = strings.TrimSpace(valor)
			// {"servicio":2,"codigo":503,"ms":5} is 35 bytes and "ms":15 makes
			// it 36 (L4 §0.6): a length that matches its own body is forgiven.
			if strings.EqualFold(nombre, "content-length") && msEnCuerpo.MatchString(cuerpo) &&
				valor == strconv.Itoa(len(cuerpo)+1) {
				h = nombre + ": <largo del cuerpo>"
			}
			// "The Retry-After of a 429 depends on how long ago the window
			// started" (L4 §0.6): 60 at once, 58 three seconds later.
			if es429 && strings.EqualFold(nombre, "retry-after") {
				h = nombre + ": <segundos que quedan>"
			}
			fuera = append(fuera, h)
			origen = append(origen, i+1+k)
		}
		i = j - 1
	}
	for i := range fuera {
		fuera[i] = NormalizarLinea(fuera[i], n)
	}
	return fuera, origen
}
