package revisor

import (
	"math"
	"strconv"

	"cursohttp/internal/nodejs"
	"cursohttp/pkg/almacen"
	"cursohttp/pkg/topes"
)

// The course's limits for a service (lesson 3; servicios.ts validar).
const (
	NombreMaximo     = 40  // UTF-16 code units, as JavaScript's length counts
	LimiteMinimoMs   = 100 // limite_ms range, inclusive
	LimiteMaximoMs   = 10000
	LimitePorOmision = 2000
)

// A service's URL is bounded by topes.URL, in the same UTF-16 units and in UTF-8 bytes (beyond the
// course, which takes any URL that fits in its 16 KiB body). Browsers and servers commonly handle
// URLs of a few thousand characters; the course's are under 60.

// CampoInvalido is one field that cannot be fulfilled; it becomes {detail, pointer: "#/<campo>"} in
// the errors of a datos-invalidos answer.
type CampoInvalido struct {
	Campo   string
	Detalle string
}

// Validar checks a registration or a PUT body the way the course's JavaScript does — typeof,
// String.prototype.trim, length in UTF-16 units, Number.isInteger, new URL() — and lists every
// failing field, in the order nombre, url, limite_ms, not only the first.
func Validar(datos nodejs.Objeto) (almacen.Datos, []CampoInvalido) {
	var fallas []CampoInvalido
	nombre, esTexto := valor(datos, "nombre").(string)
	if !esTexto || nodejs.Recortar(nombre) == "" || nodejs.Largo(nombre) > NombreMaximo {
		fallas = append(fallas, CampoInvalido{"nombre", "debe ser un texto de 1 a 40 caracteres"})
	}
	url, urlEsTexto := valor(datos, "url").(string)
	switch {
	case urlEsTexto && nodejs.Largo(url) > topes.URL:
		fallas = append(fallas, CampoInvalido{"url", "debe tener como mucho " + strconv.Itoa(topes.URL) + " caracteres"})
	case urlEsTexto && len(url) > topes.URL:
		// Bytes too, so that what a URL makes the revisor hold does not triple with characters
		// outside ASCII (3 teams × 10,000 services once reached 460 MB that way).
		fallas = append(fallas, CampoInvalido{"url", "debe ocupar como mucho " + strconv.Itoa(topes.URL) + " bytes en UTF-8"})
	case !urlEsTexto || !esHTTP(url):
		fallas = append(fallas, CampoInvalido{"url", "debe ser una dirección http o https"})
	}
	limite := LimitePorOmision
	if v, presente := datos.Valor("limite_ms"); presente {
		n, esNumero := v.(float64)
		if !esNumero || n != math.Trunc(n) || math.IsInf(n, 0) || n < LimiteMinimoMs || n > LimiteMaximoMs {
			fallas = append(fallas, CampoInvalido{"limite_ms", "debe ser un entero entre 100 y 10000"})
		} else {
			limite = int(n)
		}
	}
	if len(fallas) > 0 {
		return almacen.Datos{}, fallas
	}
	return almacen.Datos{Nombre: nombre, URL: url, LimiteMs: limite}, nil
}

func esHTTP(url string) bool {
	u, err := nodejs.LeerURL(url)
	return err == nil && u.EsHTTP()
}

// valor reads a member; an absent one is JavaScript's undefined (nil here, which no type check passes).
func valor(o nodejs.Objeto, nombre string) any {
	v, _ := o.Valor(nombre)
	return v
}
