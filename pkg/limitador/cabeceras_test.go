package limitador

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestValoresDeCabecera(t *testing.T) {
	t.Parallel()
	minuto := Politica{Nombre: AlgoritmoVentana, Cuota: 3, Ventana: time.Minute}
	casos := []struct {
		nombre string
		got    string
		quiere string
	}{
		{"política del revisor", ValorRateLimitPolicy("revisiones", minuto), `"revisiones";q=3;w=60`},
		{"ventana de fig04_02", ValorRateLimitPolicy("demo", Politica{Cuota: 3, Ventana: time.Second}), `"demo";q=3;w=1`},
		{"ventana no entera, hacia arriba", ValorRateLimitPolicy("x", Politica{Cuota: 5, Ventana: 1500 * time.Millisecond}), `"x";q=5;w=2`},
		{"nombre con comillas", ValorRateLimitPolicy(`a"b\c`, minuto), `"a\"b\\c";q=3;w=60`},
		{"nombre no ASCII", ValorRateLimitPolicy("versión", minuto), `"versi??n";q=3;w=60`},
		{"permitida", ValorRateLimit("revisiones", Veredicto{Permitido: true, Restantes: 2, Reinicio: 45 * time.Second}), `"revisiones";r=2;t=45`},
		{"t hacia arriba", ValorRateLimit("salud", Veredicto{Permitido: true, Restantes: 1, Reinicio: 44*time.Second + time.Millisecond}), `"salud";r=1;t=45`},
		{"rechazada: t igual a Retry-After", ValorRateLimit("revisiones", rechazo(59700*time.Millisecond)), `"revisiones";r=0;t=60`},
	}
	for _, c := range casos {
		if c.got != c.quiere {
			t.Errorf("%s: %s, quiere %s", c.nombre, c.got, c.quiere)
		}
	}
}

// What the limiter says and what the header says agree, end to end.
func TestCabeceraDeUnVeredicto(t *testing.T) {
	t.Parallel()
	l := NuevaVentanaFija(3, time.Minute)
	l.Permitir("revisiones:escritura-a", origen)
	v := l.Permitir("revisiones:escritura-a", origen.Add(15*time.Second))
	valor := ValorRateLimit("revisiones", v)
	if valor != `"revisiones";r=1;t=45` {
		t.Fatalf("RateLimit: %s", valor)
	}
	leidos, err := LeerRateLimit(valor)
	if err != nil || len(leidos) != 1 || leidos[0].Restantes != 1 || leidos[0].Reinicio != 45*time.Second {
		t.Fatalf("LeerRateLimit(%s) = %+v, %v", valor, leidos, err)
	}
}

func TestLeerRateLimit(t *testing.T) {
	t.Parallel()
	lim := func(nombre string, r int64, t ...int64) Limite {
		l := Limite{Politica: nombre, Restantes: r}
		if len(t) > 0 {
			l.Reinicio, l.ConReinicio = time.Duration(t[0])*time.Second, true
		}
		return l
	}
	casos := []struct {
		valor  string
		quiere []Limite
	}{
		{`"default";r=50;t=30`, []Limite{lim("default", 50, 30)}},
		{`"revisiones";t=45;r=2`, []Limite{lim("revisiones", 2, 45)}},
		{`"default";r=999;pk=:dHJpYWwxMjEzMjM=:`, []Limite{lim("default", 999)}},
		{`"default";r=300000000;t=60;pk=:QXBwLTk5OQ==:`, []Limite{lim("default", 300000000, 60)}},
		{`"problemPolicy";r=0;t=10`, []Limite{lim("problemPolicy", 0, 10)}},
		{`"burst";r=1;t=7, "daily";r=900;t=86400`, []Limite{lim("burst", 1, 7), lim("daily", 900, 86400)}},
		{"\"a\";r=1,\t\"b\";r=2", []Limite{lim("a", 1), lim("b", 2)}},
		{`  "a";r=1  `, []Limite{lim("a", 1)}},
		{`"a"; r=1; t=2`, []Limite{lim("a", 1, 2)}},
		{`"con \"comillas\" y \\";r=1`, []Limite{lim(`con "comillas" y \`, 1)}},
		{`"";r=0`, []Limite{lim("", 0)}},
		{`default;r=5`, []Limite{lim("default", 5)}}, // a token name, leniently
		{`"a";r=1;acme-burst=?1;acme-x=1.5;acme-d=@1700000000;acme-s=%"caf%c3%a9";acme-t=tok/1`, []Limite{lim("a", 1)}},
		{`"a";r=1;r=3`, []Limite{lim("a", 3)}}, // RFC 9651: the last one wins
		{`"a";r=999999999999999`, []Limite{lim("a", 999999999999999)}},
		{`"a";r=1;t=999999999999999`, []Limite{{Politica: "a", Restantes: 1, Reinicio: time.Duration(1<<63 - 1 - (1<<63-1)%int64(time.Second)), ConReinicio: true}}},
	}
	for _, c := range casos {
		got, err := LeerRateLimit(c.valor)
		if err != nil {
			t.Errorf("LeerRateLimit(%q): %v", c.valor, err)
			continue
		}
		if !reflect.DeepEqual(got, c.quiere) {
			t.Errorf("LeerRateLimit(%q) = %+v, quiere %+v", c.valor, got, c.quiere)
		}
	}
}

// The draft: a malformed field is ignored as a whole.
func TestLeerRateLimitMalFormada(t *testing.T) {
	t.Parallel()
	for _, valor := range []string{
		``, `   `,
		`"a"`,                        // no r
		`"a";t=5`,                    // no r
		`"a";r=-1`,                   // negative
		`"a";r=1.5`,                  // not an integer
		`"a";r="2"`,                  // not an integer
		`"a";r=1;t=-3`,               // negative t
		`"a";r=1;t=?1`,               // t as a boolean
		`"a";r=1,`,                   // trailing comma
		`,"a";r=1`,                   // leading comma
		`"a";r=1,,"b";r=2`,           // empty member
		`"a";r=1 "b";r=2`,            // no comma
		`"a" ;r=1`,                   // space before a parameter
		`"a";R=1`,                    // keys are lowercase
		`"a";r=1;t=1000000000000000`, // 16 digits
		`"sin cerrar;r=1`,
		`"mal \n escape";r=1`,
		"\"tab\tdentro\";r=1",
		"\"ñ\";r=1",
		`("a" "b");r=1`,    // an inner list is not a policy
		`1;r=1`,            // a name must be a string
		`"a";r=1;x=:abc`,   // unclosed bytes
		`"a";r=1;x=%"%C3"`, // display-string escapes are lowercase
		`"a";r=1;x=@1.5`,   // a date is an integer
		`"a";r=`,
		`"a";r=1;`,
		`limit=100, remaining=0, reset=2`, // the old drafts' syntax
	} {
		if got, err := LeerRateLimit(valor); err == nil || !errors.Is(err, ErrRateLimit) {
			t.Errorf("LeerRateLimit(%q) = %+v, %v; quiere ErrRateLimit", valor, got, err)
		}
	}
}

func TestLeerRateLimitPolicy(t *testing.T) {
	t.Parallel()
	got, err := LeerRateLimitPolicy(`"burst";q=100;w=60,"daily";q=1000;w=86400, "peruser";q=65535;qu="content-bytes";w=10;pk=:sdfjLJUOUH==:, "sin";q=7`)
	quiere := []PoliticaAnunciada{
		{Nombre: "burst", Cuota: 100, Ventana: time.Minute, ConVentana: true},
		{Nombre: "daily", Cuota: 1000, Ventana: 24 * time.Hour, ConVentana: true},
		{Nombre: "peruser", Cuota: 65535, Ventana: 10 * time.Second, ConVentana: true},
		{Nombre: "sin", Cuota: 7},
	}
	if err != nil || !reflect.DeepEqual(got, quiere) {
		t.Fatalf("LeerRateLimitPolicy = %+v, %v", got, err)
	}
	for _, valor := range []string{`"a";w=60`, `"a";q=3;w=0`, `"a";q=-3;w=60`, `"a";q=3;w="60"`} {
		if _, err := LeerRateLimitPolicy(valor); !errors.Is(err, ErrRateLimit) {
			t.Errorf("LeerRateLimitPolicy(%q): %v; quiere ErrRateLimit", valor, err)
		}
	}
	p := Politica{Cuota: 3, Ventana: time.Minute}
	if got, err := LeerRateLimitPolicy(ValorRateLimitPolicy("revisiones", p)); err != nil || got[0] != (PoliticaAnunciada{"revisiones", 3, time.Minute, true}) {
		t.Errorf("ida y vuelta: %+v, %v", got, err)
	}
}

func FuzzLeerRateLimit(f *testing.F) {
	for _, semilla := range []string{
		`"default";r=50;t=30`,
		`"revisiones";t=45;r=2`,
		`"burst";r=1;t=7, "daily";r=900;t=86400`,
		`"a";r=1;acme-s=%"caf%c3%a9";pk=:QXBwLTk5OQ==:`,
		`"con \"comillas\"";r=0`,
		`limit=100, remaining=0, reset=2`,
		`("a" "b");r=1`,
		`"a";r=1;t=999999999999999`,
	} {
		f.Add(semilla)
	}
	f.Fuzz(func(t *testing.T, valor string) {
		limites, err := LeerRateLimit(valor)
		if err != nil {
			if !errors.Is(err, ErrRateLimit) || limites != nil {
				t.Fatalf("error sin ErrRateLimit o con resultado: %v, %+v", err, limites)
			}
			return
		}
		if len(limites) == 0 {
			t.Fatal("sin error y sin elementos")
		}
		// What was read can be written back and read again the same: nothing was invented.
		partes := make([]string, len(limites))
		for i, l := range limites {
			if l.Restantes < 0 || l.Reinicio < 0 || (!l.ConReinicio && l.Reinicio != 0) {
				t.Fatalf("valor imposible: %+v", l)
			}
			if strings.ContainsFunc(l.Politica, func(r rune) bool { return r < 0x20 || r > 0x7e }) {
				t.Fatalf("nombre con caracteres que una sf-string no admite: %q", l.Politica)
			}
			partes[i] = formatearLimite(l)
		}
		otra, err := LeerRateLimit(strings.Join(partes, ", "))
		if err != nil || !reflect.DeepEqual(otra, limites) {
			t.Fatalf("ida y vuelta de %q: %+v, %v; quiere %+v", valor, otra, err, limites)
		}
	})
}
