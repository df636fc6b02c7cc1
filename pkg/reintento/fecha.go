// Package reintento decide cuánto esperar antes de repetir una petición:
// lee Retry-After con rigor y calcula el retroceso exponencial con jitter
// completo que usan el revisor y sus clientes (lecciones 4 y 6).
package reintento

import (
	"math"
	"regexp"
	"strings"
	"time"
)

// Las tres formas de HTTP-date (RFC 9110, §5.6.7). Quien recibe acepta las
// tres; se exige la gramática al pie de la letra (GMT literal, espacios
// exactos) porque un parser indulgente convierte basura en «fecha pasada» y
// eso se lee como «reintenta ya». El nombre del día no se coteja con la fecha:
// el curso tampoco lo hace.
var (
	imfFixdate = regexp.MustCompile(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), ([0-9]{2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) ([0-9]{4}) ([0-9]{2}):([0-9]{2}):([0-9]{2}) GMT$`)
	rfc850     = regexp.MustCompile(`^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), ([0-9]{2})-(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-([0-9]{2}) ([0-9]{2}):([0-9]{2}):([0-9]{2}) GMT$`)
	asctime    = regexp.MustCompile(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) ( [0-9]|[0-9]{2}) ([0-9]{2}):([0-9]{2}):([0-9]{2}) ([0-9]{4})$`)
)

// mesDe traduce la abreviatura inglesa que la expresión regular ya validó.
func mesDe(abrev string) time.Month {
	return time.Month(strings.Index("JanFebMarAprMayJunJulAugSepOctNovDec", abrev)/3 + 1)
}

// SegundosDeEspera lee un Retry-After (RFC 9110, §10.2.3): delay-seconds
// (1*DIGIT) o una HTTP-date. Devuelve ok=false si no es ninguna de las dos: un
// valor que no se entiende no es una instrucción, y quien llama usa su espera
// por omisión. Una fecha da max(0, ⌈fecha − ahora⌉) segundos; una cifra
// demasiado grande se satura en vez de desbordar, para que siga pareciendo
// «demasiado» y no «nada».
func SegundosDeEspera(valor string, ahora time.Time) (segundos int64, ok bool) {
	if n, ok := delaySeconds(valor); ok {
		return n, true
	}
	fecha, ok := FechaHTTP(valor, ahora)
	if !ok {
		return 0, false
	}
	// La fecha no tiene fracción de segundo y Unix() redondea hacia abajo, así
	// que esta resta ya es el techo de la diferencia exacta. Con segundos Unix
	// no hay desborde aunque la fecha esté en el año 9999.
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
			continue // se sigue recorriendo: un carácter no cifra más adelante invalida todo
		}
		n = n*10 + d
	}
	return n, true
}

// FechaHTTP lee una HTTP-date en cualquiera de sus tres formas, siempre en
// GMT (la forma asctime no trae zona y aun así es GMT, nunca la hora local).
// Rechaza fechas imposibles (32 de octubre, 25:00, 30 de febrero, segundo 60)
// en vez de pasarlas al día siguiente. ahora solo hace falta para el año de
// dos cifras de la forma RFC 850.
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

// fechaExacta construye la fecha en UTC y la rechaza si time.Date tuvo que
// normalizarla: eso significa que algún campo estaba fuera de rango.
func fechaExacta(anio int, mes time.Month, dia, hh, mm, ss int) (time.Time, bool) {
	t := time.Date(anio, mes, dia, hh, mm, ss, 0, time.UTC)
	if t.Year() != anio || t.Month() != mes || t.Day() != dia ||
		t.Hour() != hh || t.Minute() != mm || t.Second() != ss {
		return time.Time{}, false
	}
	return t, true
}

// anioDeDosCifras aplica RFC 9110, §5.6.7: una fecha RFC 850 que parezca
// estar a más de 50 años en el futuro es del siglo anterior. Se elige el año
// más reciente terminado en yy que no quede más allá de ahora + 50 años.
func anioDeDosCifras(yy int, mes time.Month, dia, hh, mm, ss int, ahora time.Time) int {
	limite := ahora.UTC().AddDate(50, 0, 0)
	anio := ahora.UTC().Year()/100*100 + 100 + yy
	for despuesDe(anio, mes, dia, hh, mm, ss, limite) {
		anio -= 100
	}
	return anio
}

// despuesDe compara campo a campo (sin normalizar: la fecha aún puede ser
// imposible y se rechazará después con su año definitivo).
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

// atoi lee cifras ASCII que la expresión regular ya validó.
func atoi(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}
