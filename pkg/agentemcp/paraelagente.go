package agentemcp

import (
	"context"
	"regexp"
	"strings"
	"unicode"

	"cursohttp/internal/nodejs"
	"cursohttp/pkg/ordenes/entorno"
	"cursohttp/pkg/tabladecision"
)

// ParaElAgente is what the tool layer of fig07_03.ts hands to an AI agent: fields, not phrases.
// The decision (Accion, Reintenta, EsperaS) comes from the table; text written by others travels
// only in TextoNoConfiable, cleaned and labelled. Pointers and nil slices mean "absent" for the
// optional members; a nil pointer in the always-present ones is JSON null.
type ParaElAgente struct {
	Estado           int
	Accion           tabladecision.Accion
	Reintenta        bool
	EsperaS          *int64 // the table's wait, uncapped; nil when there is no number
	Type             *string
	Instance         *string
	TextoNoConfiable *string
	Ubicacion        *string  // only /servicios/<digits>
	Existente        *string  // only /servicios/<digits>
	CamposInvalidos  []string // nil: absent; empty: [] (errors was an array with no valid pointer)
}

// Objeto lays the result out in the course's key order: the seven members that are always there,
// then ubicacion, existente and campos_invalidos when present.
func (p ParaElAgente) Objeto() nodejs.Objeto {
	o := nodejs.Objeto{
		{Nombre: "estado", Valor: p.Estado},
		{Nombre: "accion", Valor: string(p.Accion)},
		{Nombre: "reintenta", Valor: p.Reintenta},
		{Nombre: "espera_s", Valor: p.EsperaS},
		{Nombre: "type", Valor: p.Type},
		{Nombre: "instance", Valor: p.Instance},
		{Nombre: "texto_no_confiable", Valor: p.TextoNoConfiable},
	}
	if p.Ubicacion != nil {
		o = append(o, nodejs.Campo{Nombre: "ubicacion", Valor: *p.Ubicacion})
	}
	if p.Existente != nil {
		o = append(o, nodejs.Campo{Nombre: "existente", Valor: *p.Existente})
	}
	if p.CamposInvalidos != nil {
		o = append(o, nodejs.Campo{Nombre: "campos_invalidos", Valor: p.CamposInvalidos})
	}
	return o
}

// JSON is JSON.stringify(resultado, null, 2): two-space indentation, no HTML escaping.
func (p ParaElAgente) JSON() []byte {
	return nodejs.CodificarJSONSangria(p.Objeto(), "  ")
}

// MaxLimpio is how many code points of outside text reach the agent.
const MaxLimpio = 120

// prohibido: controls (line breaks, tabs), invisible format characters (zero width, direction
// marks and overrides, tag characters) and Unicode's line and paragraph separators.
func prohibido(r rune) bool {
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp)
}

// Limpiar makes text from outside safe to show on one line: every run of control, format and
// line/paragraph separator characters becomes one space (not deleted, so words do not glue
// together), then it is cut at 120 code points, never inside a character. It does not stop clean
// text from saying something misleading; that is the label's job. Invalid UTF-8 becomes U+FFFD.
func Limpiar(texto string) string {
	texto = nodejs.Valido(texto)
	var b strings.Builder
	n, enRacha := 0, false
	for _, r := range texto {
		if prohibido(r) {
			if enRacha {
				continue
			}
			enRacha, r = true, ' '
		} else {
			enRacha = false
		}
		if n == MaxLimpio {
			break
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// limpiarValor is limpiar(texto: unknown): only a string survives, cleaned.
func limpiarValor(v any, hay bool) *string {
	s, ok := v.(string)
	if !hay || !ok {
		return nil
	}
	l := Limpiar(s)
	return &l
}

var (
	formaDeType  = regexp.MustCompile(`^https://revisor\.example/problemas/[a-z-]{1,60}$`)
	formaDeRuta  = regexp.MustCompile(`^/servicios/\d+$`)
	formaDeCampo = regexp.MustCompile(`^#/[a-z_]+$`)
)

// TipoDesconocido replaces a type that does not have the revisor's shape.
const TipoDesconocido = "desconocido"

// TipoConocido passes a type only when it has the revisor's shape (an allowlist of shape, not of
// the table's six entries): the type too comes from another service's body.
func TipoConocido(t string) string {
	if t == "about:blank" || formaDeType.MatchString(t) {
		return t
	}
	return TipoDesconocido
}

// rutaDeServicio keeps a value only if it is exactly /servicios/<digits>.
func rutaDeServicio(v any, hay bool) *string {
	s, ok := v.(string)
	if !hay || !ok || !formaDeRuta.MatchString(s) {
		return nil
	}
	return &s
}

// paraElAgenteDe builds the agent's object from a response to an alta.
func paraElAgenteDe(e entorno.Entorno, r entorno.Respuesta) ParaElAgente {
	tipo, esProblema := entorno.TypeDe(r)
	var t *string
	if esProblema {
		t = &tipo
	}
	// The table decides with the raw type; what the agent sees of it is filtered below.
	d := tabladecision.Decidir(r.Codigo, r.RetryAfter(e.Hora()), t)
	p := ParaElAgente{
		Estado:    r.Codigo,
		Accion:    d.Accion,
		Reintenta: d.Reintenta,
		EsperaS:   d.EsperaS,
	}
	if loc, hay := r.Cabecera("Location"); hay {
		p.Ubicacion = rutaDeServicio(loc, true)
	}
	if !esProblema {
		return p
	}
	conocido := TipoConocido(tipo)
	p.Type = &conocido
	valor, err := nodejs.DecodificarJSON([]byte(nodejs.Texto(r.Cuerpo)))
	if err != nil {
		return p // the type reader accepted it, so this does not happen; without fields, nothing to pass
	}
	problema, _ := valor.(nodejs.Objeto) // a JSON array, string or number has none of these members
	p.Instance = limpiarValor(problema.Valor("instance"))
	p.TextoNoConfiable = limpiarValor(problema.Valor("detail"))
	p.Existente = rutaDeServicio(problema.Valor("existente"))
	if errores, ok := valorDe(problema, "errors").([]any); ok {
		p.CamposInvalidos = []string{}
		for _, falla := range errores {
			f, _ := falla.(nodejs.Objeto)
			if puntero, ok := f.Texto("pointer"); ok && formaDeCampo.MatchString(puntero) {
				p.CamposInvalidos = append(p.CamposInvalidos, puntero)
			}
		}
	}
	return p
}

func valorDe(o nodejs.Objeto, nombre string) any {
	v, _ := o.Valor(nombre)
	return v
}

// AltaParaElAgente is the tool an agent would call: register a service in revisor and get back
// fields. One fresh Idempotency-Key per call ("one key per intention"), so a repeated tool call
// after a 502 does not register twice.
func AltaParaElAgente(ctx context.Context, e entorno.Entorno, nombre, url string) (ParaElAgente, error) {
	r, err := e.Alta(ctx, "escritura-a", e.Llave(), nombre, url)
	if err != nil {
		return ParaElAgente{}, err
	}
	return paraElAgenteDe(e, r), nil
}
