// Package reintento is the course's one retry engine (lessons 4 and 6): a policy value (how many
// attempts, what may fix itself, the full-jitter backoff and its ceiling, how far Retry-After is
// obeyed), the one loop the revisor's checks and alta-segura run under it, and a strict reader of
// Retry-After.
package reintento

import (
	"math"
	"regexp"
	"strings"
	"time"
)

// The three forms of HTTP-date (RFC 9110, §5.6.7). A recipient accepts all three; the grammar is
// required to the letter (literal GMT, exact spaces) because a lenient parser turns garbage into "a
// date in the past", which reads as "retry now". The day name is not checked against the date: the
// course does not check it either.
var (
	imfFixdate = regexp.MustCompile(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), ([0-9]{2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) ([0-9]{4}) ([0-9]{2}):([0-9]{2}):([0-9]{2}) GMT$`)
	rfc850     = regexp.MustCompile(`^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), ([0-9]{2})-(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-([0-9]{2}) ([0-9]{2}):([0-9]{2}):([0-9]{2}) GMT$`)
	asctime    = regexp.MustCompile(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) ( [0-9]|[0-9]{2}) ([0-9]{2}):([0-9]{2}):([0-9]{2}) ([0-9]{4})$`)
)

// mesDe translates the English abbreviation the regular expression already validated.
func mesDe(abrev string) time.Month {
	return time.Month(strings.Index("JanFebMarAprMayJunJulAugSepOctNovDec", abrev)/3 + 1)
}

// SegundosDeEspera reads a Retry-After (RFC 9110, §10.2.3): delay-seconds (1*DIGIT) or an
// HTTP-date. It returns ok=false when it is neither: a value nobody understands is no instruction,
// and the caller uses its default wait. A date gives max(0, ⌈date − now⌉) seconds; a number too
// large saturates instead of overflowing, so it still reads as "too much" and not as "nothing".
func SegundosDeEspera(valor string, ahora time.Time) (segundos int64, ok bool) {
	if n, ok := delaySeconds(valor); ok {
		return n, true
	}
	fecha, ok := FechaHTTP(valor, ahora)
	if !ok {
		return 0, false
	}
	// The date has no fraction of a second and Unix() rounds down, so this difference already is
	// the ceiling of the exact one. In Unix seconds nothing overflows, even in the year 9999.
	return max(0, fecha.Unix()-ahora.Unix()), true
}

func delaySeconds(valor string) (int64, bool) {
	if valor == "" {
		return 0, false
	}
	var n int64
	for i := 0; i < len(valor); i++ {
		c := valor[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		d := int64(c - '0')
		if n > (math.MaxInt64-d)/10 {
			n = math.MaxInt64
			continue // keep going: a non-digit further on still invalidates the whole value
		}
		n = n*10 + d
	}
	return n, true
}

// FechaHTTP reads an HTTP-date in any of its three forms, always in GMT (the asctime form carries
// no zone and still is GMT, never local time). It refuses impossible dates (October 32nd, 25:00,
// February 30th, second 60) instead of rolling them over to the next day. ahora is needed only for
// the two-digit year of the RFC 850 form.
func FechaHTTP(s string, ahora time.Time) (time.Time, bool) {
	var anio int
	var mes, dia, hh, mm, ss string
	if m := imfFixdate.FindStringSubmatch(s); m != nil {
		dia, mes, anio, hh, mm, ss = m[1], m[2], atoi(m[3]), m[4], m[5], m[6]
	} else if m := asctime.FindStringSubmatch(s); m != nil {
		dia, mes, anio, hh, mm, ss = m[2], m[1], atoi(m[6]), m[3], m[4], m[5]
		if dia[0] == ' ' {
			dia = dia[1:]
		}
	} else if m := rfc850.FindStringSubmatch(s); m != nil {
		dia, mes, hh, mm, ss = m[1], m[2], m[4], m[5], m[6]
		anio = anioDeDosCifras(atoi(m[3]), mesDe(mes), atoi(dia), atoi(hh), atoi(mm), atoi(ss), ahora)
	} else {
		return time.Time{}, false
	}
	return fechaExacta(anio, mesDe(mes), atoi(dia), atoi(hh), atoi(mm), atoi(ss))
}

// fechaExacta builds the date in UTC and refuses it if time.Date had to normalise it: that means
// some field was out of range.
func fechaExacta(anio int, mes time.Month, dia, hh, mm, ss int) (time.Time, bool) {
	t := time.Date(anio, mes, dia, hh, mm, ss, 0, time.UTC)
	if t.Year() != anio || t.Month() != mes || t.Day() != dia ||
		t.Hour() != hh || t.Minute() != mm || t.Second() != ss {
		return time.Time{}, false
	}
	return t, true
}

// anioDeDosCifras applies RFC 9110, §5.6.7: an RFC 850 date that appears to be more than 50 years
// in the future is in the previous century. It picks the latest year ending in yy that is not
// beyond now + 50 years.
func anioDeDosCifras(yy int, mes time.Month, dia, hh, mm, ss int, ahora time.Time) int {
	limite := ahora.UTC().AddDate(50, 0, 0)
	anio := ahora.UTC().Year()/100*100 + 100 + yy
	for despuesDe(anio, mes, dia, hh, mm, ss, limite) {
		anio -= 100
	}
	return anio
}

// despuesDe compares field by field (without normalising: the date may still be impossible, and is
// refused later with its final year).
func despuesDe(anio int, mes time.Month, dia, hh, mm, ss int, t time.Time) bool {
	a := [...]int{anio, int(mes), dia, hh, mm, ss}
	b := [...]int{t.Year(), int(t.Month()), t.Day(), t.Hour(), t.Minute(), t.Second()}
	for i := range a {
		if a[i] != b[i] {
			return a[i] > b[i]
		}
	}
	return false
}

// atoi reads ASCII digits the regular expression already validated.
func atoi(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}
