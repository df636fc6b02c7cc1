package limitador

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The RateLimit-Policy and RateLimit fields of draft-ietf-httpapi-ratelimit-headers-11: each is
// a Structured Fields List (RFC 9651) whose items are the policy name as an sf-string, with
// parameters q and w (policy) or r and t (current state). The course's revisor does not send them
// (the draft is not a standard); these helpers exist for the programs that want to show them.

// ValorRateLimitPolicy formats the RateLimit-Policy value of p under the caller's name, e.g.
// `"revisiones";q=3;w=60`. The draft has no sub-second windows, so w is rounded up to whole
// seconds (a 1500 ms window is announced as 2 s, which promises no more than it allows).
func ValorRateLimitPolicy(nombre string, p Politica) string {
	return fmt.Sprintf("%s;q=%d;w=%d", cadenaSF(nombre), p.Cuota, segundosArriba(p.Ventana))
}

// ValorRateLimit formats the RateLimit value of v under the caller's name, e.g.
// `"revisiones";r=2;t=45`. t is rounded up like Retry-After, so a refused response carries the
// same number in both fields and a client that waits t seconds is not early.
func ValorRateLimit(nombre string, v Veredicto) string {
	return formatearLimite(Limite{Politica: nombre, Restantes: int64(v.Restantes), Reinicio: v.Reinicio, ConReinicio: true})
}

func formatearLimite(l Limite) string {
	var b strings.Builder
	b.WriteString(cadenaSF(l.Politica))
	b.WriteString(";r=")
	b.WriteString(strconv.FormatInt(l.Restantes, 10))
	if l.ConReinicio {
		t := int64(0)
		if l.Reinicio > 0 {
			t = segundosArriba(l.Reinicio)
		}
		b.WriteString(";t=")
		b.WriteString(strconv.FormatInt(t, 10))
	}
	return b.String()
}

// cadenaSF writes s as an sf-string. Only printable ASCII may appear in one, so anything else
// becomes '?': the name is the server's own label, never worth a malformed field.
func cadenaSF(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c > 0x7e:
			b.WriteByte('?')
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// Limite is one item of a RateLimit field as a client reads it.
type Limite struct {
	Politica    string        // the policy name
	Restantes   int64         // r: quota available
	Reinicio    time.Duration // t, in whole seconds: within it no more than Restantes
	ConReinicio bool          // whether t was present (it is optional)
}

// PoliticaAnunciada is one item of a RateLimit-Policy field as a client reads it.
type PoliticaAnunciada struct {
	Nombre     string
	Cuota      int64         // q
	Ventana    time.Duration // w, in whole seconds
	ConVentana bool          // whether w was present (it is optional)
}

// ErrRateLimit marks a field that must be ignored: the draft says a malformed field is ignored
// as a whole, so one bad item spoils the lot.
var ErrRateLimit = errors.New("cabecera RateLimit mal formada")

// LeerRateLimit parses a RateLimit field value (several field lines may be joined with ", "). Items
// and parameters may come in any order; unknown parameters (pk, vendor ones) are skipped; the name
// may be an sf-string, as the draft asks, or, leniently, a token. r is required and, like t,
// must be a non-negative integer; otherwise the whole field is rejected with ErrRateLimit.
func LeerRateLimit(valor string) ([]Limite, error) {
	elementos, err := leerListaSF(valor)
	if err != nil {
		return nil, err
	}
	limites := make([]Limite, 0, len(elementos))
	for _, e := range elementos {
		l := Limite{Politica: e.nombre}
		r, ok := e.entero("r")
		if !ok {
			return nil, fmt.Errorf("%w: «%s» no trae r, un entero no negativo", ErrRateLimit, e.nombre)
		}
		l.Restantes = r
		if _, esta := e.parametros["t"]; esta {
			t, ok := e.entero("t")
			if !ok {
				return nil, fmt.Errorf("%w: el t de «%s» no es un entero no negativo", ErrRateLimit, e.nombre)
			}
			l.Reinicio, l.ConReinicio = segundos(t), true
		}
		limites = append(limites, l)
	}
	return limites, nil
}

// LeerRateLimitPolicy parses a RateLimit-Policy field value with the same rules: q is required,
// w optional and positive.
func LeerRateLimitPolicy(valor string) ([]PoliticaAnunciada, error) {
	elementos, err := leerListaSF(valor)
	if err != nil {
		return nil, err
	}
	politicas := make([]PoliticaAnunciada, 0, len(elementos))
	for _, e := range elementos {
		p := PoliticaAnunciada{Nombre: e.nombre}
		q, ok := e.entero("q")
		if !ok {
			return nil, fmt.Errorf("%w: «%s» no trae q, un entero no negativo", ErrRateLimit, e.nombre)
		}
		p.Cuota = q
		if _, esta := e.parametros["w"]; esta {
			w, ok := e.entero("w")
			if !ok || w == 0 {
				return nil, fmt.Errorf("%w: el w de «%s» no es un entero positivo", ErrRateLimit, e.nombre)
			}
			p.Ventana, p.ConVentana = segundos(w), true
		}
		politicas = append(politicas, p)
	}
	return politicas, nil
}

// segundos converts without overflowing: sf-integers go up to 15 digits.
func segundos(s int64) time.Duration {
	const tope = int64(1<<63-1) / int64(time.Second)
	return time.Duration(min(s, tope)) * time.Second
}

// elementoSF is a list member whose bare item is a string or token (the name); parameter values
// are kept as parsed: int64, string, bool, or otroSF for kinds these fields never use.
type elementoSF struct {
	nombre     string
	parametros map[string]any
}

type otroSF struct{}

func (e elementoSF) entero(clave string) (int64, bool) {
	n, ok := e.parametros[clave].(int64)
	return n, ok && n >= 0
}

// lectorSF follows the parsing algorithm of RFC 9651 section 4.2 for the parts these fields use.
type lectorSF struct {
	s string
	i int
}

func (l *lectorSF) fin() bool  { return l.i >= len(l.s) }
func (l *lectorSF) ver() byte  { return l.s[l.i] }
func (l *lectorSF) saltarSP()  { l.saltar(" ") }
func (l *lectorSF) saltarOWS() { l.saltar(" \t") }
func (l *lectorSF) saltar(cuales string) {
	for !l.fin() && strings.IndexByte(cuales, l.ver()) >= 0 {
		l.i++
	}
}

func (l *lectorSF) fallo(que string) error {
	return fmt.Errorf("%w: %s en la posición %d", ErrRateLimit, que, l.i)
}

func leerListaSF(valor string) ([]elementoSF, error) {
	l := &lectorSF{s: strings.Trim(valor, " ")}
	if l.fin() {
		return nil, fmt.Errorf("%w: está vacía", ErrRateLimit)
	}
	var lista []elementoSF
	for {
		e, err := l.elemento()
		if err != nil {
			return nil, err
		}
		lista = append(lista, e)
		l.saltarOWS()
		if l.fin() {
			return lista, nil
		}
		if l.ver() != ',' {
			return nil, l.fallo("se esperaba una coma")
		}
		l.i++
		l.saltarOWS()
		if l.fin() {
			return nil, l.fallo("sobra la coma final")
		}
	}
}

func (l *lectorSF) elemento() (elementoSF, error) {
	if l.fin() {
		return elementoSF{}, l.fallo("falta un elemento")
	}
	var nombre string
	switch c := l.ver(); {
	case c == '"':
		s, err := l.cadena()
		if err != nil {
			return elementoSF{}, err
		}
		nombre = s
	case esAlfa(c) || c == '*':
		nombre = l.token()
	default:
		return elementoSF{}, l.fallo("el nombre de la política no es una cadena")
	}
	parametros, err := l.parametros()
	if err != nil {
		return elementoSF{}, err
	}
	return elementoSF{nombre: nombre, parametros: parametros}, nil
}

func (l *lectorSF) parametros() (map[string]any, error) {
	ps := map[string]any{}
	for !l.fin() && l.ver() == ';' {
		l.i++
		l.saltarSP()
		clave, err := l.clave()
		if err != nil {
			return nil, err
		}
		var valor any = true
		if !l.fin() && l.ver() == '=' {
			l.i++
			if valor, err = l.itemDesnudo(); err != nil {
				return nil, err
			}
		}
		ps[clave] = valor // a repeated key keeps the last value, as RFC 9651 says
	}
	return ps, nil
}

func (l *lectorSF) clave() (string, error) {
	if l.fin() || !(esMinuscula(l.ver()) || l.ver() == '*') {
		return "", l.fallo("clave de parámetro no válida")
	}
	inicio := l.i
	for !l.fin() {
		c := l.ver()
		if !(esMinuscula(c) || esDigito(c) || strings.IndexByte("_-.*", c) >= 0) {
			break
		}
		l.i++
	}
	return l.s[inicio:l.i], nil
}

func (l *lectorSF) itemDesnudo() (any, error) {
	if l.fin() {
		return nil, l.fallo("falta el valor")
	}
	switch c := l.ver(); {
	case c == '-' || esDigito(c):
		return l.numero()
	case c == '"':
		return l.cadena()
	case esAlfa(c) || c == '*':
		return l.token(), nil
	case c == '?':
		l.i++
		if !l.fin() && (l.ver() == '0' || l.ver() == '1') {
			l.i++
			return l.s[l.i-1] == '1', nil
		}
		return nil, l.fallo("booleano no válido")
	case c == ':':
		return l.bytes()
	case c == '@':
		l.i++
		if l.fin() || !(l.ver() == '-' || esDigito(l.ver())) {
			return nil, l.fallo("fecha no válida")
		}
		if n, err := l.numero(); err != nil {
			return nil, err
		} else if _, entero := n.(int64); !entero {
			return nil, l.fallo("fecha no válida")
		}
		return otroSF{}, nil
	case c == '%':
		return l.cadenaVisible()
	}
	return nil, l.fallo("valor no válido")
}

// numero reads an sf-integer (at most 15 digits) or an sf-decimal; only integers are useful here.
func (l *lectorSF) numero() (any, error) {
	inicio := l.i
	if l.ver() == '-' {
		l.i++
	}
	digitos, punto := 0, -1
	for !l.fin() {
		c := l.ver()
		if esDigito(c) {
			digitos++
		} else if c == '.' && punto < 0 {
			punto = digitos
		} else {
			break
		}
		l.i++
	}
	texto := l.s[inicio:l.i]
	switch {
	case digitos == 0:
		return nil, l.fallo("número sin cifras")
	case punto < 0 && digitos > 15:
		return nil, l.fallo("entero de más de 15 cifras")
	case punto < 0:
		n, err := strconv.ParseInt(texto, 10, 64)
		if err != nil {
			return nil, l.fallo("entero no válido")
		}
		return n, nil
	case punto == 0 || punto > 12 || digitos-punto == 0 || digitos-punto > 3:
		return nil, l.fallo("decimal no válido")
	}
	return otroSF{}, nil
}

func (l *lectorSF) cadena() (string, error) {
	l.i++ // the opening quote
	var b strings.Builder
	for !l.fin() {
		c := l.ver()
		l.i++
		switch {
		case c == '"':
			return b.String(), nil
		case c == '\\':
			if l.fin() || (l.ver() != '"' && l.ver() != '\\') {
				return "", l.fallo("escape no válido en la cadena")
			}
			b.WriteByte(l.ver())
			l.i++
		case c < 0x20 || c > 0x7e:
			return "", l.fallo("carácter no válido en la cadena")
		default:
			b.WriteByte(c)
		}
	}
	return "", l.fallo("cadena sin cerrar")
}

// cadenaVisible checks an sf-displaystring (%"…" with lowercase %xx escapes); its text is unused.
func (l *lectorSF) cadenaVisible() (any, error) {
	l.i++
	if l.fin() || l.ver() != '"' {
		return nil, l.fallo("cadena visible no válida")
	}
	l.i++
	for !l.fin() {
		c := l.ver()
		l.i++
		switch {
		case c == '"':
			return otroSF{}, nil
		case c == '%':
			if l.i+2 > len(l.s) || !esHexMinuscula(l.s[l.i]) || !esHexMinuscula(l.s[l.i+1]) {
				return nil, l.fallo("escape no válido en la cadena visible")
			}
			l.i += 2
		case c < 0x20 || c > 0x7e:
			return nil, l.fallo("carácter no válido en la cadena visible")
		}
	}
	return nil, l.fallo("cadena visible sin cerrar")
}

func (l *lectorSF) token() string {
	inicio := l.i
	l.i++
	for !l.fin() && (esTchar(l.ver()) || l.ver() == ':' || l.ver() == '/') {
		l.i++
	}
	return l.s[inicio:l.i]
}

func (l *lectorSF) bytes() (any, error) {
	l.i++
	for !l.fin() && l.ver() != ':' {
		c := l.ver()
		if !(esAlfa(c) || esDigito(c) || c == '+' || c == '/' || c == '=') {
			return nil, l.fallo("secuencia de bytes no válida")
		}
		l.i++
	}
	if l.fin() {
		return nil, l.fallo("secuencia de bytes sin cerrar")
	}
	l.i++
	return otroSF{}, nil
}

func esDigito(c byte) bool    { return c >= '0' && c <= '9' }
func esMinuscula(c byte) bool { return c >= 'a' && c <= 'z' }
func esAlfa(c byte) bool      { return esMinuscula(c) || (c >= 'A' && c <= 'Z') }
func esHexMinuscula(c byte) bool {
	return esDigito(c) || (c >= 'a' && c <= 'f')
}

// esTchar is RFC 9110's tchar.
func esTchar(c byte) bool {
	return esAlfa(c) || esDigito(c) || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}
