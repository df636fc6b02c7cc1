package revisor

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"cursohttp/internal/nodejs"
	"cursohttp/pkg/topes"
)

// FuzzLeerJSON feeds the body reader and the validator whatever a stranger may send to POST or PUT
// /servicios: any Content-Type, any bytes, with or without Content-Length. The reader either hands
// over a JSON object and writes nothing, or answers one of its three refusals as a problem; the
// validator either lists failing fields or returns data within the course's limits.
func FuzzLeerJSON(f *testing.F) {
	for _, s := range []struct {
		tipo, cuerpo string
		porPartes    bool
	}{
		{"application/json", `{"nombre":"catalogo","url":"http://127.0.0.1:18081/codigo/200"}`, false},
		{"Application/JSON; charset=utf-8", `{"nombre":" a ","url":"HTTPS://x:443/","limite_ms":1e4}`, true},
		{"application/json", `{"nombre":"\u00a0","url":"http://[::ffff:169.254.169.254]/","limite_ms":100.5}`, false},
		{"application/json", `{"__proto__":{"nombre":"x"},"nombre":"x","nombre":"y","url":"http://x"}`, false},
		{"application/json", `[1,2]`, false},
		{"application/json", "\ufeff{}", false},
		{"text/plain", `{}`, false},
		{"", ``, true},
		{"application/json", `{"nombre":"` + strings.Repeat("😀", 21) + `","url":"javascript:x","limite_ms":"9"}`, false},
	} {
		f.Add(s.tipo, []byte(s.cuerpo), s.porPartes)
	}
	rv := Nuevo(Opciones{Log: zerolog.Nop()})
	f.Cleanup(rv.Cerrar)
	f.Fuzz(func(t *testing.T, tipo string, cuerpo []byte, porPartes bool) {
		r := httptest.NewRequest("POST", "/servicios", bytes.NewReader(cuerpo))
		r.Header.Set("Content-Type", tipo)
		if porPartes {
			r.ContentLength = -1
		}
		w := httptest.NewRecorder()
		o, ok := rv.leerJSON(&contexto{w: w, r: r})
		if ok {
			if w.Code != http.StatusOK || w.Body.Len() != 0 || len(w.Header()) != 0 {
				t.Fatalf("leerJSON aceptó y además respondió %d %q", w.Code, w.Body)
			}
			if len(cuerpo) > topes.Cuerpo {
				t.Fatalf("aceptó %d bytes, el tope es %d", len(cuerpo), topes.Cuerpo)
			}
			validado(t, o)
			return
		}
		switch w.Code {
		case http.StatusBadRequest, http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType:
		default:
			t.Fatalf("leerJSON rechazó con %d", w.Code)
		}
		if len(cuerpo) > topes.Cuerpo && esTipoJSON(tipo) && w.Code != http.StatusRequestEntityTooLarge {
			t.Fatalf("%d bytes dieron %d, no 413", len(cuerpo), w.Code)
		}
		v, err := nodejs.DecodificarJSON(w.Body.Bytes())
		p, esObjeto := v.(nodejs.Objeto)
		if err != nil || !esObjeto {
			t.Fatalf("el problema no es un objeto JSON: %q", w.Body)
		}
		if estado, _ := p.Valor("status"); estado != float64(w.Code) {
			t.Fatalf("status %v en un %d", estado, w.Code)
		}
		if ct := w.Header().Get("Content-Type"); ct != "application/problem+json" {
			t.Fatalf("Content-Type %q", ct)
		}
	})
}

func esTipoJSON(tipo string) bool {
	base, _, _ := strings.Cut(tipo, ";")
	return strings.ToLower(nodejs.Recortar(base)) == "application/json"
}

// validado checks Validar's promise on an object the reader accepted.
func validado(t *testing.T, o nodejs.Objeto) {
	t.Helper()
	datos, fallas := Validar(o)
	if len(fallas) > 0 {
		visto := map[string]bool{}
		for _, f := range fallas {
			if visto[f.Campo] || f.Detalle == "" {
				t.Fatalf("fallas %+v", fallas)
			}
			visto[f.Campo] = true
		}
		return
	}
	if nodejs.Recortar(datos.Nombre) == "" || nodejs.Largo(datos.Nombre) > NombreMaximo {
		t.Fatalf("nombre %q aceptado", datos.Nombre)
	}
	if datos.LimiteMs < LimiteMinimoMs || datos.LimiteMs > LimiteMaximoMs {
		t.Fatalf("limite_ms %d aceptado", datos.LimiteMs)
	}
	if u, err := nodejs.LeerURL(datos.URL); err != nil || !u.EsHTTP() {
		t.Fatalf("url %q aceptada", datos.URL)
	}
}
