package nodejs

import (
	"math"
	"strings"
	"time"
)

// LeerFecha reads texto as JavaScript's Date.parse does in Node (V8), the lenient reader Lesson 4's
// exercise 2 warns against: ECMAScript's ISO 8601 form or, failing that, V8's "legacy" reading,
// which skips words it does not know before the first number, takes any word that starts like a
// month for that month, reads numbers as month-day-year in whatever order fits, defaults the year
// to 2001 and, without a zone, reads the date in local (the machine's local time in Node). ok is
// false where Date.parse gives NaN. texto is a header's value as it arrived: bytes that JavaScript
// holds as latin1 characters, one a byte, as Node's fetch hands them over. Never use it to read a header: reintento.SegundosDeEspera reads
// RFC 9110's grammar.
func LeerFecha(texto string, local *time.Location) (t time.Time, ok bool) {
	l := &lectorFecha{texto: texto}
	l.siguiente = l.leer()
	var d componedorDia
	var h componedorHora
	z := componedorZona{hora: sinValor, minuto: sinValor}
	tok, valido := iso(l, &d, &h, &z)
	if !valido {
		return time.Time{}, false
	}
	leido := d.n > 0
	for ; tok.tipo != tFin; tok = l.tomar() {
		switch {
		case tok.tipo == tNumero:
			leido = true
			n := tok.valor
			switch {
			case l.saltar(':'):
				if l.saltar(':') { // n + "::"
					if h.n > 0 {
						return time.Time{}, false
					}
					h.agregar(n)
					h.agregar(0)
				} else {
					if !h.agregar(n) {
						return time.Time{}, false
					}
					if l.siguiente.esSimbolo('.') {
						l.tomar()
					}
				}
			case l.saltar('.') && h.espera(n):
				h.agregar(n)
				if l.siguiente.tipo != tNumero {
					return time.Time{}, false
				}
				h.agregarFinal(fraccionDeSegundo(l.tomar()))
			case z.espera(n):
				z.minuto = n
			case h.espera(n):
				h.agregarFinal(n)
				// Only the end, a space, "Z" or a sign may follow a finished time.
				p := l.siguiente
				if p.tipo != tFin && p.tipo != tEspacio && !p.esZ() && !p.esSigno() {
					return time.Time{}, false
				}
			default:
				if !d.agregar(n) {
					return time.Time{}, false
				}
				l.saltar('-')
			}
		case tok.tipo == tPalabra:
			switch {
			case tok.clase == pAmPm && h.n > 0:
				h.desfase, h.conAmPm = tok.valor, true
			case tok.clase == pMes:
				d.mes = tok.valor
				l.saltar('-')
			case tok.clase == pZona && leido:
				z.fijar(tok.valor)
			default:
				// An unknown word is garbage once a number was read, and must not touch one.
				if leido || l.siguiente.tipo == tNumero {
					return time.Time{}, false
				}
			}
		case tok.esSigno() && (z.esUTC() || h.n > 0):
			// An offset, only after UTC or a time: +hh, +hhmm or +hh:.
			z.signo = tok.valor
			n, largo := 0, 0
			if l.siguiente.tipo == tNumero {
				t := l.tomar()
				n, largo = t.valor, t.largo
			}
			leido = true
			switch {
			case l.siguiente.esSimbolo(':'):
				z.hora, z.minuto = n, sinValor
			case largo == 1 || largo == 2:
				z.hora, z.minuto = n, 0
			case largo == 3 || largo == 4:
				z.hora, z.minuto = n/100, n%100
			default:
				return time.Time{}, false
			}
		case (tok.esSigno() || tok.esSimbolo(')')) && leido:
			return time.Time{}, false
		}
	}
	var c [8]float64
	if !d.escribir(c[:]) || !h.escribir(c[:]) || !z.escribir(c[:]) {
		return time.Time{}, false
	}
	return hacerFecha(c, local)
}

// hacerFecha builds the instant as JavaScript's MakeDate does from the components (an overflowing
// day or hour carries over), in local time when there is no offset.
func hacerFecha(c [8]float64, local *time.Location) (time.Time, bool) {
	const (
		anio = iota
		mes
		dia
		hora
		minuto
		segundo
		milisegundo
		desfase
	)
	zona := local
	if !math.IsNaN(c[desfase]) {
		zona = time.FixedZone("", int(c[desfase]))
	}
	t := time.Date(int(c[anio]), time.Month(int(c[mes])+1), int(c[dia]), int(c[hora]), int(c[minuto]), int(c[segundo]),
		int(c[milisegundo])*int(time.Millisecond), zona)
	// A Date holds at most 8.64e15 ms either side of 1970.
	if ms := t.UnixMilli(); ms > 8.64e15 || ms < -8.64e15 {
		return time.Time{}, false
	}
	return t, true
}

// sinValor marks a component not given, as V8's kNone.
const sinValor = math.MaxInt32

type tipoToken int

const (
	tInvalido tipoToken = iota
	tDesconocido
	tEspacio
	tNumero
	tSimbolo
	tFin
	tPalabra
)

type clasePalabra int

const (
	pNinguna clasePalabra = iota
	pMes
	pZona
	pSeparador // the "T" between date and time
	pAmPm
)

type token struct {
	tipo  tipoToken
	clase clasePalabra
	valor int // the number, the symbol, or the word's value (month 1-12, zone hours, AM/PM offset)
	largo int
}

func (t token) esSimbolo(c byte) bool { return t.tipo == tSimbolo && t.valor == int(c) }
func (t token) esSigno() bool         { return t.esSimbolo('+') || t.esSimbolo('-') }
func (t token) esZ() bool {
	return t.tipo == tPalabra && t.clase == pZona && t.largo == 1 && t.valor == 0
}
func (t token) numeroDe(largo int) bool {
	return t.tipo == tNumero && t.largo == largo
}

// palabras are the words V8 knows by their first three letters: months (a longer word that starts
// like one is that month), zones, AM/PM and the ISO separator.
var palabras = []struct {
	prefijo string
	clase   clasePalabra
	valor   int
}{
	{"jan", pMes, 1}, {"feb", pMes, 2}, {"mar", pMes, 3}, {"apr", pMes, 4}, {"may", pMes, 5}, {"jun", pMes, 6},
	{"jul", pMes, 7}, {"aug", pMes, 8}, {"sep", pMes, 9}, {"oct", pMes, 10}, {"nov", pMes, 11}, {"dec", pMes, 12},
	{"am", pAmPm, 0}, {"pm", pAmPm, 12}, {"ut", pZona, 0}, {"utc", pZona, 0}, {"z", pZona, 0}, {"gmt", pZona, 0},
	{"cdt", pZona, -5}, {"cst", pZona, -6}, {"edt", pZona, -4}, {"est", pZona, -5},
	{"mdt", pZona, -6}, {"mst", pZona, -7}, {"pdt", pZona, -7}, {"pst", pZona, -8},
	{"t", pSeparador, 0},
}

// lectorFecha splits texto into Date.parse's tokens, one token ahead.
type lectorFecha struct {
	texto     string
	i         int
	siguiente token
}

func (l *lectorFecha) tomar() token {
	t := l.siguiente
	l.siguiente = l.leer()
	return t
}

func (l *lectorFecha) saltar(c byte) bool {
	if l.siguiente.esSimbolo(c) {
		l.siguiente = l.leer()
		return true
	}
	return false
}

func (l *lectorFecha) leer() token {
	if l.i >= len(l.texto) {
		return token{tipo: tFin}
	}
	c := l.texto[l.i]
	switch {
	case c >= '0' && c <= '9':
		inicio, n := l.i, 0
		for l.i < len(l.texto) && l.texto[l.i] == '0' { // leading zeros are not significant
			l.i++
		}
		for cifras := 0; l.i < len(l.texto) && l.texto[l.i] >= '0' && l.texto[l.i] <= '9'; l.i, cifras = l.i+1, cifras+1 {
			if cifras < 9 { // significant digits past the ninth are read and ignored
				n = n*10 + int(l.texto[l.i]-'0')
			}
		}
		return token{tipo: tNumero, valor: n, largo: l.i - inicio}
	case c == ':' || c == '-' || c == '+' || c == '.' || c == ')':
		l.i++
		return token{tipo: tSimbolo, valor: int(c), largo: 1}
	case c >= 'A' && !espacioLatin1(c):
		inicio := l.i
		for l.i < len(l.texto) && l.texto[l.i] >= 'A' && !espacioLatin1(l.texto[l.i]) {
			l.i++
		}
		palabra := strings.ToLower(l.texto[inicio:l.i])
		largo := len(palabra) // one character a byte (latin1)
		for _, p := range palabras {
			if strings.HasPrefix(palabra, p.prefijo) && (len(p.prefijo) == 3 || largo == len(p.prefijo)) &&
				(largo <= 3 || p.clase == pMes) {
				return token{tipo: tPalabra, clase: p.clase, valor: p.valor, largo: largo}
			}
		}
		return token{tipo: tPalabra, clase: pNinguna, largo: largo}
	case espacioLatin1(c):
		l.i++
		return token{tipo: tEspacio, largo: 1}
	case c == '(':
		for profundidad := 0; l.i < len(l.texto); {
			switch l.texto[l.i] {
			case '(':
				profundidad++
			case ')':
				profundidad--
			}
			l.i++
			if profundidad == 0 {
				break
			}
		}
		return token{tipo: tDesconocido, largo: 1}
	}
	l.i++
	return token{tipo: tDesconocido, largo: 1}
}

// iso reads as much of an ECMAScript date-time string ([±yy]yyyy[-MM[-DD]][THH:mm[:ss[.sss]][Z|±hh:mm]])
// as there is, and returns the token the lenient reader goes on with; ok is false when a string
// that started as one cannot be a date at all.
func iso(l *lectorFecha, d *componedorDia, h *componedorHora, z *componedorZona) (token, bool) {
	switch p := l.siguiente; {
	case p.esSigno():
		signo := l.tomar()
		if !l.siguiente.numeroDe(6) {
			return signo, true
		}
		anio := l.tomar().valor
		if signo.valor == '-' && anio == 0 {
			return signo, true
		}
		if signo.valor == '-' {
			anio = -anio
		}
		d.agregar(anio)
	case p.numeroDe(4):
		d.agregar(l.tomar().valor)
	default:
		return l.tomar(), true
	}
	if l.saltar('-') {
		if !l.siguiente.numeroDe(2) || !esMes(l.siguiente.valor) {
			return l.tomar(), true
		}
		d.agregar(l.tomar().valor)
		if l.saltar('-') {
			if !l.siguiente.numeroDe(2) || !esDia(l.siguiente.valor) {
				return l.tomar(), true
			}
			d.agregar(l.tomar().valor)
		}
	}
	if !(l.siguiente.tipo == tPalabra && l.siguiente.clase == pSeparador) {
		if l.siguiente.tipo != tFin {
			return l.tomar(), true
		}
	} else {
		l.tomar()
		if !l.siguiente.numeroDe(2) || l.siguiente.valor > 24 {
			return token{}, false
		}
		hora24 := l.siguiente.valor == 24
		h.agregar(l.tomar().valor)
		if !l.saltar(':') || !l.siguiente.numeroDe(2) || l.siguiente.valor > 59 || (hora24 && l.siguiente.valor > 0) {
			return token{}, false
		}
		h.agregar(l.tomar().valor)
		if l.saltar(':') {
			if !l.siguiente.numeroDe(2) || l.siguiente.valor > 59 || (hora24 && l.siguiente.valor > 0) {
				return token{}, false
			}
			h.agregar(l.tomar().valor)
			if l.saltar('.') {
				if l.siguiente.tipo != tNumero || (hora24 && l.siguiente.valor > 0) {
					return token{}, false
				}
				h.agregar(fraccionDeSegundo(l.tomar()))
			}
		}
		switch p := l.siguiente; {
		case p.esZ():
			l.tomar()
			z.fijar(0)
		case p.esSigno():
			z.signo = l.tomar().valor
			if l.siguiente.numeroDe(4) {
				hm := l.tomar().valor
				if hm/100 > 23 || hm%100 > 59 {
					return token{}, false
				}
				z.hora, z.minuto = hm/100, hm%100
			} else {
				if !l.siguiente.numeroDe(2) || l.siguiente.valor > 23 {
					return token{}, false
				}
				z.hora = l.tomar().valor
				if !l.saltar(':') || !l.siguiente.numeroDe(2) || l.siguiente.valor > 59 {
					return token{}, false
				}
				z.minuto = l.tomar().valor
			}
		}
		if l.siguiente.tipo != tFin {
			return token{}, false
		}
	}
	// A date alone is UTC; a date with a time and no zone is local time.
	if z.hora == sinValor && h.n == 0 {
		z.fijar(0)
	}
	d.iso = true
	return token{tipo: tFin}, true
}

// fraccionDeSegundo keeps the first three significant digits of a fraction of a second.
func fraccionDeSegundo(t token) int {
	n, largo := t.valor, min(t.largo, 9)
	switch {
	case largo == 1:
		return n * 100
	case largo == 2:
		return n * 10
	}
	for ; largo > 3; largo-- {
		n /= 10
	}
	return n
}

func esMes(n int) bool { return n >= 1 && n <= 12 }
func esDia(n int) bool { return n >= 1 && n <= 31 }

// componedorDia gathers up to three date numbers and a named month, and decides their order.
type componedorDia struct {
	c   [3]int
	n   int
	mes int // a named month, 0 if none
	iso bool
}

func (d *componedorDia) agregar(v int) bool {
	if d.n == len(d.c) {
		return false
	}
	d.c[d.n] = v
	d.n++
	return true
}

func (d *componedorDia) escribir(c []float64) bool {
	if d.n < 1 {
		return false
	}
	for d.n < len(d.c) { // a missing day or month is 1, and so is a missing year: 2001
		d.c[d.n] = 1
		d.n++
	}
	anio, mes, dia := 0, 0, 0
	switch {
	case d.mes == 0 && (d.iso || !esDia(d.c[0])):
		anio, mes, dia = d.c[0], d.c[1], d.c[2]
	case d.mes == 0:
		mes, dia, anio = d.c[0], d.c[1], d.c[2]
	case !esDia(d.c[0]):
		mes, anio, dia = d.mes, d.c[0], d.c[1]
	default:
		mes, dia, anio = d.mes, d.c[0], d.c[1]
	}
	if !d.iso {
		switch {
		case anio >= 0 && anio <= 49:
			anio += 2000
		case anio >= 50 && anio <= 99:
			anio += 1900
		}
	}
	if !esMes(mes) || !esDia(dia) || anio > 1<<30 || anio < -(1<<30) {
		return false
	}
	c[0], c[1], c[2] = float64(anio), float64(mes-1), float64(dia)
	return true
}

// componedorHora gathers hour, minutes, seconds and milliseconds.
type componedorHora struct {
	c       [4]int
	n       int
	desfase int  // the hours PM adds: 0 for AM, 12 for PM
	conAmPm bool // AM or PM was given
}

func (h *componedorHora) agregar(v int) bool {
	if h.n == len(h.c) {
		return false
	}
	h.c[h.n] = v
	h.n++
	return true
}

func (h *componedorHora) agregarFinal(v int) bool {
	if !h.agregar(v) {
		return false
	}
	h.n = len(h.c)
	return true
}

// espera tells whether n fits the next slot after a "h:" already read.
func (h *componedorHora) espera(n int) bool {
	switch h.n {
	case 1, 2:
		return n >= 0 && n <= 59
	case 3:
		return n >= 0 && n <= 999
	}
	return false
}

func (h *componedorHora) escribir(c []float64) bool {
	// A slot never filled is 0.
	hora, minuto, segundo, ms := h.c[0], h.c[1], h.c[2], h.c[3]
	if h.conAmPm {
		if hora < 0 || hora > 12 {
			return false
		}
		hora = hora%12 + h.desfase
	}
	if hora < 0 || hora > 23 || minuto < 0 || minuto > 59 || segundo < 0 || segundo > 59 || ms < 0 || ms > 999 {
		if hora != 24 || minuto != 0 || segundo != 0 || ms != 0 {
			return false
		}
	}
	c[3], c[4], c[5], c[6] = float64(hora), float64(minuto), float64(segundo), float64(ms)
	return true
}

// componedorZona gathers an offset: a zone's name or a sign with hours and minutes.
type componedorZona struct {
	signo        int // '+' or '-', 0 if none
	hora, minuto int // sinValor until given
}

func (z *componedorZona) fijar(horas int) {
	z.signo = '+'
	if horas < 0 {
		z.signo, horas = '-', -horas
	}
	z.hora, z.minuto = horas, 0
}

func (z *componedorZona) espera(n int) bool {
	return z.hora != sinValor && z.minuto == sinValor && n >= 0 && n <= 59
}

func (z *componedorZona) esUTC() bool { return z.hora == 0 && z.minuto == 0 }

func (z *componedorZona) escribir(c []float64) bool {
	if z.signo == 0 {
		c[7] = math.NaN()
		return true
	}
	hora, minuto := z.hora, z.minuto
	if hora == sinValor {
		hora = 0
	}
	if minuto == sinValor {
		minuto = 0
	}
	s := hora*3600 + minuto*60
	if s < 0 || s > 1<<30 {
		return false
	}
	if z.signo == '-' {
		s = -s
	}
	c[7] = float64(s)
	return true
}

// espacioLatin1 reports whether the latin1 character c is JavaScript white space or a line
// terminator, which V8's date reader skips: the ASCII ones and the no-break space (0xA0).
func espacioLatin1(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r' || c == 0xa0
}
