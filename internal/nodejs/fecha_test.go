package nodejs

import (
	"strconv"
	"testing"
	"time"
	_ "time/tzdata" // the lesson's zone on any machine
)

// What Date.parse gives in Node 20 for each text, in milliseconds since 1970, on a machine in UTC
// and on one in Mexico City (UTC−6, the lesson's); "NaN" where it gives NaN. Recorded with
// `TZ=… node -e 'console.log(Date.parse(s))'`.
func TestLeerFechaComoDateParse(t *testing.T) {
	t.Parallel()
	mexico, err := time.LoadLocation("America/Mexico_City")
	if err != nil {
		t.Fatal(err)
	}
	casos := []struct {
		texto       string
		utc, mexico string
	}{
		{"1.5", "978652800000", "978674400000"},
		{"-1", "978307200000", "978328800000"},
		{"12 30", "1009670400000", "1009692000000"},
		{"Xyz, 21 Oct 2026 10:00:00 GMT", "1792576800000", "1792576800000"},
		{"Wed, 32 Oct 2026 10:00:00 GMT", "NaN", "NaN"},
		{"Wed, 21 Oct 2026 13:20:57 GMT", "1792588857000", "1792588857000"},
		{"Wednesday, 21-Oct-26 13:20:57 GMT", "1792588857000", "1792588857000"},
		{"Wed Oct 21 13:20:57 2026", "1792588857000", "1792610457000"},
		{"mañana", "NaN", "NaN"},
		{"2m", "NaN", "NaN"},
		{"12:30", "NaN", "NaN"},
		{"Oct 5", "1002240000000", "1002261600000"},
		{"5 Oct 99", "939081600000", "939099600000"},
		{"Oct 5, 1999 3:04 PM", "939135840000", "939153840000"},
		{"Mon, 01 Jan 2001 00:00:00 +0130", "978301800000", "978301800000"},
		{"Jan 1 2001 10:00 GMT-0500", "978361200000", "978361200000"},
		{"1/2/3", "1041465600000", "1041487200000"},
		{"31 Feb 2020", "1583107200000", "1583128800000"},
		{"2026-10-21", "1792540800000", "1792540800000"},
		{"2026-10-21 10:00", "1792576800000", "1792598400000"},
		{"(x) Jan 2 2000", "946771200000", "946792800000"},
		{"Jan 2 2000 (EST)", "946771200000", "946792800000"},
		{"Jan 2 2000 EST", "946789200000", "946789200000"},
		{"Jan 2 2000 10:00 EST", "946825200000", "946825200000"},
		{"24:00 Jan 1 2000", "946771200000", "946792800000"},
		{"Jan 1 2000 24:01", "NaN", "NaN"},
		{"x1", "NaN", "NaN"},
		{"Thu, 01 Jan 1970 00:00:00 GMT", "0", "0"},
		{"", "NaN", "NaN"},
		{"0", "946684800000", "946706400000"},
		{"1 2 3 4", "NaN", "NaN"},
		{"January 5 2000 12:00:00.5", "947073600500", "947095200500"},
		{"Sun Nov 6 08:49:37 1994", "784111777000", "784133377000"},
		{"Sunday, 06-Nov-94 08:49:37 GMT", "784111777000", "784111777000"},
		{"Jan 1 2000 12 AM", "NaN", "NaN"},
		{"Jan 1 2000 12:00 PM", "946728000000", "946749600000"},
		{"Jan 1 2000 13:00 PM", "NaN", "NaN"},
		{"+1 Jan 2000", "946684800000", "946706400000"},
		{"Jan 2000 -1", "NaN", "NaN"},
		{"2026-10-21T10:00:00Z", "1792576800000", "1792576800000"},
		{"2026-10-21T10:00:00.123+02:00", "1792569600123", "1792569600123"},
		{"2026-10-21T25:00", "NaN", "NaN"},
		{"+002026-10-21", "1792540800000", "1792540800000"},
	}
	ms := func(texto string, zona *time.Location) string {
		f, ok := LeerFecha(texto, zona)
		if !ok {
			return "NaN"
		}
		return strconv.FormatInt(f.UnixMilli(), 10)
	}
	for _, c := range casos {
		if got := ms(c.texto, time.UTC); got != c.utc {
			t.Errorf("%q en UTC: %s, Date.parse da %s", c.texto, got, c.utc)
		}
		if got := ms(c.texto, mexico); got != c.mexico {
			t.Errorf("%q en Ciudad de México: %s, Date.parse da %s", c.texto, got, c.mexico)
		}
	}
}
