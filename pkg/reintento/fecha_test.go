package reintento

import (
	"math"
	"strings"
	"testing"
	"time"
)

// The "now" of lesson 4's series L: the date 13:20:57 is 60.7 s away.
var ahoraSerieL = time.Date(2026, time.October, 21, 13, 19, 56, 300_000_000, time.UTC)

func TestSegundosDeEsperaLecturasDelCurso(t *testing.T) {
	t.Parallel()
	// fig04_03.ts (lesson 4, series E), with a real now.
	ahora := time.Now()
	dentroDe90 := ahora.Add(90 * time.Second).UTC().Format("Mon, 02 Jan 2006 15:04:05 GMT")
	casos := []struct {
		valor string
		want  int64
		ok    bool
	}{
		{"120", 120, true},
		{"0", 0, true},
		{dentroDe90, 90, true},
		{"Wed, 21 Oct 2015 07:28:00 GMT", 0, true},
		{"mañana", 0, false},
		{"", 0, false}, // no header: Go gives "" and the course null
	}
	for _, c := range casos {
		got, ok := SegundosDeEspera(c.valor, ahora)
		if got != c.want || ok != c.ok {
			t.Errorf("SegundosDeEspera(%q) = %d, %v; quiero %d, %v", c.valor, got, ok, c.want, c.ok)
		}
	}
}

func TestSegundosDeEspera(t *testing.T) {
	t.Parallel()
	casos := []struct {
		nombre string
		valor  string
		want   int64
		ok     bool
	}{
		// delay-seconds = 1*DIGIT
		{"segundos", "120", 120, true},
		{"cero", "0", 0, true},
		{"ceros a la izquierda", "007", 7, true},
		{"el mayor int64", "9223372036854775807", math.MaxInt64, true},
		{"se satura, no desborda", "9223372036854775808", math.MaxInt64, true},
		{"se satura con muchas cifras", strings.Repeat("9", 400), math.MaxInt64, true},
		{"cifras y luego basura", strings.Repeat("9", 30) + "x", 0, false},
		// Lesson 4's series L: the revisor's column.
		{"decimal", "1.5", 0, false},
		{"negativo", "-1", 0, false},
		{"dos números", "12 30", 0, false},
		{"día de la semana inventado", "Xyz, 21 Oct 2026 10:00:00 GMT", 0, false},
		{"32 de octubre", "Wed, 32 Oct 2026 10:00:00 GMT", 0, false},
		{"IMF-fixdate", "Wed, 21 Oct 2026 13:20:57 GMT", 61, true},
		{"RFC 850", "Wednesday, 21-Oct-26 13:20:57 GMT", 61, true},
		{"asctime, en GMT aunque no lo diga", "Wed Oct 21 13:20:57 2026", 61, true},
		// More accepted forms.
		{"fecha pasada", "Wed, 21 Oct 2015 07:28:00 GMT", 0, true},
		{"ejemplo del RFC, IMF", "Sun, 06 Nov 1994 08:49:37 GMT", 0, true},
		{"ejemplo del RFC, RFC 850", "Sunday, 06-Nov-94 08:49:37 GMT", 0, true},
		{"ejemplo del RFC, asctime", "Sun Nov  6 08:49:37 1994", 0, true},
		{"asctime con día de dos cifras", "Sun Nov 06 08:49:37 1994", 0, true},
		{"justo ahora", "Wed, 21 Oct 2026 13:19:56 GMT", 0, true},
		{"un segundo después", "Wed, 21 Oct 2026 13:19:57 GMT", 1, true},
		{"el día de la semana no se coteja", "Mon, 21 Oct 2026 13:20:57 GMT", 61, true},
		{"29 de febrero bisiesto", "Sat, 29 Feb 2028 00:00:00 GMT", 42806404, true},
		{"año 9999", "Fri, 31 Dec 9999 23:59:59 GMT", 253402300799 - 1792588796, true},
		// Other things that are not Retry-After.
		{"vacío", "", 0, false},
		{"signo más", "+1", 0, false},
		{"espacio delante", " 1", 0, false},
		{"espacio detrás", "1 ", 0, false},
		{"cifras no ASCII", "١٢٠", 0, false},
		{"hexadecimal", "0x10", 0, false},
		{"exponente", "1e3", 0, false},
		{"unidades", "2m", 0, false},
		{"palabra", "mañana", 0, false},
		{"25:00", "Wed, 21 Oct 2026 25:00:00 GMT", 0, false},
		{"24:00", "Wed, 21 Oct 2026 24:00:00 GMT", 0, false},
		{"minuto 60", "Wed, 21 Oct 2026 13:60:00 GMT", 0, false},
		{"segundo 60", "Wed, 21 Oct 2026 23:59:60 GMT", 0, false},
		{"30 de febrero", "Mon, 30 Feb 2026 10:00:00 GMT", 0, false},
		{"29 de febrero no bisiesto", "Sun, 29 Feb 2026 10:00:00 GMT", 0, false},
		{"día 00", "Wed, 00 Oct 2026 10:00:00 GMT", 0, false},
		{"31 de abril", "Thu, 31 Apr 2026 10:00:00 GMT", 0, false},
		{"minúsculas en el día", "wed, 21 Oct 2026 13:20:57 GMT", 0, false},
		{"minúsculas en el mes", "Wed, 21 oct 2026 13:20:57 GMT", 0, false},
		{"GMT en minúsculas", "Wed, 21 Oct 2026 13:20:57 gmt", 0, false},
		{"UTC en vez de GMT", "Wed, 21 Oct 2026 13:20:57 UTC", 0, false},
		{"desplazamiento numérico", "Wed, 21 Oct 2026 13:20:57 +0000", 0, false},
		{"sin zona", "Wed, 21 Oct 2026 13:20:57", 0, false},
		{"dos espacios", "Wed,  21 Oct 2026 13:20:57 GMT", 0, false},
		{"espacio final", "Wed, 21 Oct 2026 13:20:57 GMT ", 0, false},
		{"salto de línea final", "Wed, 21 Oct 2026 13:20:57 GMT\n", 0, false},
		{"espacio inicial", " Wed, 21 Oct 2026 13:20:57 GMT", 0, false},
		{"día de una cifra en IMF", "Wed, 1 Oct 2026 13:20:57 GMT", 0, false},
		{"año de dos cifras en IMF", "Wed, 21 Oct 26 13:20:57 GMT", 0, false},
		{"día largo en IMF", "Wednesday, 21 Oct 2026 13:20:57 GMT", 0, false},
		{"mes largo", "Wed, 21 October 2026 13:20:57 GMT", 0, false},
		{"hora de una cifra", "Wed, 21 Oct 2026 3:20:57 GMT", 0, false},
		{"día corto en RFC 850", "Wed, 21-Oct-26 13:20:57 GMT", 0, false},
		{"año de cuatro cifras en RFC 850", "Wednesday, 21-Oct-2026 13:20:57 GMT", 0, false},
		{"RFC 850 sin GMT", "Wednesday, 21-Oct-26 13:20:57", 0, false},
		{"RFC 850 con otra zona", "Wednesday, 21-Oct-26 13:20:57 EST", 0, false},
		{"asctime sin relleno", "Wed Oct 1 13:20:57 2026", 0, false},
		{"asctime con GMT", "Wed Oct 21 13:20:57 2026 GMT", 0, false},
		{"asctime con coma", "Wed, Oct 21 13:20:57 2026", 0, false},
		{"asctime con año corto", "Wed Oct 21 13:20:57 26", 0, false},
		{"asctime 32 de octubre", "Wed Oct 32 13:20:57 2026", 0, false},
		{"ISO 8601", "2026-10-21T13:20:57Z", 0, false},
	}
	for _, c := range casos {
		got, ok := SegundosDeEspera(c.valor, ahoraSerieL)
		if got != c.want || ok != c.ok {
			t.Errorf("%s: SegundosDeEspera(%q) = %d, %v; quiero %d, %v", c.nombre, c.valor, got, ok, c.want, c.ok)
		}
	}
}

func TestFechaHTTPMeses(t *testing.T) {
	t.Parallel()
	for m := time.January; m <= time.December; m++ {
		want := time.Date(2026, m, 1, 12, 0, 0, 0, time.UTC)
		for _, formato := range []string{
			"Mon, 02 Jan 2006 15:04:05 GMT",
			"Monday, 02-Jan-06 15:04:05 GMT",
			"Mon Jan _2 15:04:05 2006",
		} {
			s := want.Format(formato)
			got, ok := FechaHTTP(s, ahoraSerieL)
			if !ok || !got.Equal(want) {
				t.Errorf("FechaHTTP(%q) = %v, %v; quiero %v", s, got, ok, want)
			}
		}
	}
}

// RFC 9110, §5.6.7: a two-digit year more than 50 years in the future is in the previous century.
func TestFechaHTTPAnioDeDosCifras(t *testing.T) {
	t.Parallel()
	en2080 := time.Date(2080, time.January, 1, 0, 0, 0, 0, time.UTC)
	casos := []struct {
		valor string
		ahora time.Time
		anio  int
		ok    bool
	}{
		{"Sunday, 06-Nov-94 08:49:37 GMT", ahoraSerieL, 1994, true},
		{"Saturday, 01-Jan-00 00:00:00 GMT", ahoraSerieL, 2000, true},
		{"Saturday, 21-Oct-75 00:00:00 GMT", ahoraSerieL, 2075, true},
		// 2076-10-21 13:19:56 is exactly the 50-year limit.
		{"Wednesday, 21-Oct-76 13:19:56 GMT", ahoraSerieL, 2076, true},
		{"Wednesday, 21-Oct-76 13:19:57 GMT", ahoraSerieL, 1976, true},
		{"Thursday, 22-Oct-76 00:00:00 GMT", ahoraSerieL, 1976, true},
		{"Friday, 01-Jan-77 00:00:00 GMT", ahoraSerieL, 1977, true},
		{"Friday, 31-Dec-99 23:59:59 GMT", ahoraSerieL, 1999, true},
		// February 29th is checked with the year already chosen.
		{"Tuesday, 29-Feb-00 12:00:00 GMT", ahoraSerieL, 2000, true},
		{"Tuesday, 29-Feb-00 12:00:00 GMT", time.Date(2060, 1, 1, 0, 0, 0, 0, time.UTC), 0, false},
		// Later in the century the window slides.
		{"Monday, 01-Jan-01 00:00:00 GMT", en2080, 2101, true},
		{"Monday, 01-Jan-31 00:00:00 GMT", en2080, 2031, true},
		{"Monday, 01-Jan-79 00:00:00 GMT", en2080, 2079, true},
	}
	for _, c := range casos {
		got, ok := FechaHTTP(c.valor, c.ahora)
		if ok != c.ok || (ok && got.Year() != c.anio) {
			t.Errorf("FechaHTTP(%q, %v) = %v, %v; quiero año %d, %v", c.valor, c.ahora, got, ok, c.anio, c.ok)
		}
	}
}

func TestFechaHTTPDevuelveUTC(t *testing.T) {
	t.Parallel()
	ahora := ahoraSerieL.In(time.FixedZone("UTC-6", -6*3600))
	got, ok := FechaHTTP("Wed Oct 21 13:20:57 2026", ahora)
	want := time.Date(2026, time.October, 21, 13, 20, 57, 0, time.UTC)
	if !ok || !got.Equal(want) || got.Location() != time.UTC {
		t.Fatalf("asctime = %v, %v; quiero %v en UTC", got, ok, want)
	}
	if s, ok := SegundosDeEspera("Wed Oct 21 13:20:57 2026", ahora); s != 61 || !ok {
		t.Fatalf("la zona de quien llama no cambia la espera: %d, %v", s, ok)
	}
}

func FuzzSegundosDeEspera(f *testing.F) {
	for _, s := range []string{"120", "0", "1.5", "-1", "12 30", "mañana", "", strings.Repeat("9", 30),
		"Wed, 21 Oct 2026 13:20:57 GMT", "Wednesday, 21-Oct-26 13:20:57 GMT", "Wed Oct 21 13:20:57 2026",
		"Wed, 32 Oct 2026 10:00:00 GMT", "Sun Nov  6 08:49:37 1994"} {
		f.Add(s, ahoraSerieL.Unix())
	}
	f.Fuzz(func(t *testing.T, valor string, unix int64) {
		ahora := time.Unix(unix%(1<<40), 0) // reasonable years, positive and negative
		s, ok := SegundosDeEspera(valor, ahora)
		if !ok {
			if s != 0 {
				t.Fatalf("rechazado con %d", s)
			}
			return
		}
		if s < 0 {
			t.Fatalf("SegundosDeEspera(%q) = %d < 0", valor, s)
		}
		if _, esFecha := FechaHTTP(valor, ahora); !esFecha && strings.Trim(valor, "0123456789") != "" {
			t.Fatalf("aceptó %q sin ser cifras ni fecha", valor)
		}
	})
}

func FuzzFechaHTTP(f *testing.F) {
	for _, s := range []string{"Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT",
		"Sun Nov  6 08:49:37 1994", "Sun Nov 06 08:49:37 1994", "Tue, 29 Feb 2028 23:59:59 GMT",
		"Wed, 32 Oct 2026 10:00:00 GMT", "Wed, 21 Oct 2026 25:00:00 GMT", "Tuesday, 29-Feb-00 12:00:00 GMT",
		"Mon, 00 Jan 0000 00:00:00 GMT", "Fri, 31 Dec 9999 23:59:59 GMT", "basura"} {
		f.Add(s, ahoraSerieL.Unix())
	}
	formatos := []string{"Mon, 02 Jan 2006 15:04:05 GMT", "Monday, 02-Jan-06 15:04:05 GMT", "Mon Jan _2 15:04:05 2006"}
	f.Fuzz(func(t *testing.T, s string, unix int64) {
		ahora := time.Unix(unix%(1<<40), 0)
		fecha, ok := FechaHTTP(s, ahora)
		if !ok {
			return
		}
		if fecha.Location() != time.UTC || fecha.Nanosecond() != 0 {
			t.Fatalf("FechaHTTP(%q) = %v: no es UTC en segundos enteros", s, fecha)
		}
		// An accepted date, written again in any of the three forms, reads the same.
		for _, formato := range formatos {
			otra := fecha.Format(formato)
			if formato == formatos[1] && !rfc850.MatchString(s) {
				continue // RFC 850 loses the century: it only comes back the same if it came that way
			}
			de, ok := FechaHTTP(otra, ahora)
			if !ok || !de.Equal(fecha) {
				t.Fatalf("FechaHTTP(%q) = %v, pero %q se lee %v, %v", s, fecha, otra, de, ok)
			}
		}
	})
}
