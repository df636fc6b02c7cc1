package revisor

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"cursohttp/internal/nodejs"
	"cursohttp/pkg/problema"
	"cursohttp/pkg/servidor"
	"cursohttp/pkg/topes"
)

// esJSON answers 415 unless the body is declared application/json. It is separate from leerJSON
// because PUT asks it before If-Match: a 415 is known without reading, and preconditions are not
// evaluated when the answer would not have been 2xx or 412 without them (RFC 9110 §13.2.1).
func (rv *Revisor) esJSON(c *contexto) bool {
	// As Node reads it: a value that is not UTF-8 is latin1 (so a trailing 0xA0 is a space trim removes).
	tipo, _, _ := strings.Cut(nodejs.Cabecera(c.r.Header.Get("Content-Type")), ";")
	tipo = strings.ToLower(nodejs.Recortar(tipo))
	if tipo == "application/json" {
		return true
	}
	mostrado := tipo
	if tipo == "" {
		mostrado = "(sin tipo)"
	}
	rv.fallar(c.w, c.r, problema.TipoNoAdmitido, "el cuerpo debe ser application/json, no "+mostrado,
		problema.ConCabecera("Accept", "application/json"))
	return false
}

// leerJSON: 415 if the body is not declared JSON, 413 if it is larger than topes.Cuerpo, 400 if it
// cannot be read as a JSON object (the course's policy: 400 = cannot be read).
func (rv *Revisor) leerJSON(c *contexto) (nodejs.Objeto, bool) {
	if !rv.esJSON(c) {
		return nil, false
	}
	cuerpo, demasiado, err := leerCuerpo(c.r)
	if demasiado {
		rv.rechazarGrande(c)
		return nil, false
	}
	if err == nil {
		// As the course reads it: the bytes decoded as Node decodes them, then JSON.parse.
		if v, err := nodejs.DecodificarCuerpoJSON(cuerpo); err == nil {
			if o, ok := v.(nodejs.Objeto); ok {
				return o, true
			}
		}
	}
	rv.fallar(c.w, c.r, problema.CuerpoIlegible, "el cuerpo no es un objeto JSON")
	return nil, false
}

// leerCuerpo never holds more than topes.Cuerpo+1 bytes: a declared Content-Length over the limit is
// refused without reading a byte, and a chunked (or lying) body stops being read one byte past it.
func leerCuerpo(r *http.Request) (cuerpo []byte, demasiado bool, err error) {
	if r.ContentLength > topes.Cuerpo {
		return nil, true, nil
	}
	if r.ContentLength >= 0 {
		// Its length is known (net/http ends the body there): read it into a buffer of that size.
		buf := make([]byte, r.ContentLength)
		if _, err := io.ReadFull(r.Body, buf); err != nil {
			return nil, false, err
		}
		return buf, false, nil
	}
	buf, err := io.ReadAll(io.LimitReader(r.Body, topes.Cuerpo+1))
	if err != nil {
		return nil, false, err
	}
	if len(buf) > topes.Cuerpo {
		return nil, true, nil
	}
	return buf, false, nil
}

// rechazarGrande answers 413 with "Connection: close" and then closes in stages
// (servidor.CerrarEnEtapas), so the client reads the 413 instead of a reset.
func (rv *Revisor) rechazarGrande(c *contexto) {
	rv.fallar(c.w, c.r, problema.CuerpoDemasiadoGrande, "el cuerpo pasa de "+strconv.Itoa(topes.Cuerpo)+" bytes",
		problema.ConCabecera("Connection", "close"))
	servidor.CerrarEnEtapas(c.w, time.Now().Add(rv.esperaCierre))
}
