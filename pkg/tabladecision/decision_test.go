package tabladecision

import (
	"slices"
	"testing"

	"cursohttp/internal/prueba/leccion7"
	"cursohttp/pkg/curso"
)

func ptr[T any](v T) *T { return &v }

func retryAfterDelLaboratorio(codigo int) *int64 {
	switch codigo {
	case 429:
		return ptr[int64](30)
	case 503:
		return ptr[int64](120)
	}
	return nil
}

// Each row of S1 and S6 is the table's decision for its code, field by field (pkg/ordenes/tabla23
// and pkg/ordenes/fueradetabla check the printed layout). In S1 the laboratory sends Retry-After:
// 30 with the 429 and 120 with the 503, and no type; S6 has no wait column.
func TestFilasDeLaLeccion(t *testing.T) {
	t.Parallel()
	for _, tabla := range []struct {
		nombre string
		filas  []leccion7.Fila
	}{{"S1", leccion7.Filas(leccion7.Tabla23)}, {"S6", leccion7.Filas(leccion7.FueraDeTabla)}} {
		for _, f := range tabla.filas {
			d := Decidir(f.Codigo, retryAfterDelLaboratorio(f.Codigo), nil)
			got := leccion7.Fila{Codigo: f.Codigo, Accion: string(d.Accion), Reintenta: d.ReintentaTexto(), Motivo: d.Motivo}
			if f.Espera != "" {
				got.Espera = d.EsperaTexto()
			}
			if got != f {
				t.Errorf("%s, %d:\n obtenido %+v\n esperado %+v", tabla.nombre, f.Codigo, got, f)
			}
		}
	}
}

func TestDecidirFilasYFamilias(t *testing.T) {
	t.Parallel()
	casos := []struct {
		codigo int
		accion Accion
		motivo string
	}{
		// The six rows that are not among the course's 23 codes.
		{300, Corregir, "hay varias opciones: elige una dirección"},
		{303, Corregir, "redirección a otro recurso: el cliente no la sigue solo; revisa la dirección de Location"},
		// Exercise 2: the 413 inherits from the 400.
		{413, Corregir, "el 413 no está en la tabla: se trata como un 400 (la petición no se puede leer)"},
		{305, Corregir, "el 305 no está en la tabla: se trata como un 300 (hay varias opciones: elige una dirección)"},
		// 1xx: there is no row 100.
		{100, Rendirse, "código desconocido"},
		{101, Rendirse, "código desconocido"},
		{103, Rendirse, "código desconocido"},
		{199, Rendirse, "código desconocido"},
		// Outside 100-599.
		{99, Rendirse, "99 no es un código de HTTP (el RFC 9110 admite de 100 a 599): se procesa como un 5xx"},
		{0, Rendirse, "0 no es un código de HTTP (el RFC 9110 admite de 100 a 599): se procesa como un 5xx"},
		{-1, Rendirse, "-1 no es un código de HTTP (el RFC 9110 admite de 100 a 599): se procesa como un 5xx"},
		{1000, Rendirse, "1000 no es un código de HTTP (el RFC 9110 admite de 100 a 599): se procesa como un 5xx"},
	}
	for _, c := range casos {
		d := Decidir(c.codigo, ptr[int64](7), nil)
		if d.Accion != c.accion || d.Motivo != c.motivo || d.Reintenta || d.EsperaS != nil {
			t.Errorf("Decidir(%d) = %+v; quiero %s, %q", c.codigo, d, c.accion, c.motivo)
		}
	}
}

func TestDecidirEspera(t *testing.T) {
	t.Parallel()
	// The table puts no cap on the wait (S1 shows 120 s) and invents no numbers (502 without the header: —).
	if d := Decidir(503, ptr[int64](120), nil); d.EsperaS == nil || *d.EsperaS != 120 || d.EsperaTexto() != "120 s" {
		t.Errorf("503 con 120: %+v", d)
	}
	if d := Decidir(502, nil, nil); d.EsperaS != nil || d.EsperaTexto() != "—" || !d.Reintenta {
		t.Errorf("502 sin Retry-After: %+v", d)
	}
	// For the other actions the seconds mean nothing.
	if d := Decidir(404, ptr[int64](30), nil); d.EsperaS != nil {
		t.Errorf("404 con Retry-After: %+v", d)
	}
	// The decision does not share the caller's pointer.
	ra := int64(3)
	d := Decidir(429, &ra, nil)
	ra = 99
	if *d.EsperaS != 3 {
		t.Errorf("la espera cambió con la variable de quien llama: %d", *d.EsperaS)
	}
}

func TestDecidirPorType(t *testing.T) {
	t.Parallel()
	casos := []struct {
		codigo int
		tipo   string
		accion Accion
		motivo string
	}{
		{409, curso.Problemas + "llave-en-curso", Esperar, "la petición original sigue en curso: espera y repite con la misma llave"},
		{409, curso.Problemas + "nombre-repetido", Reconciliar, "ya existe: mira el miembro existente antes de crear otro"},
		{422, curso.Problemas + "llave-reutilizada", Corregir, "usa una llave nueva para una petición nueva"},
		{422, curso.Problemas + "destino-prohibido", Corregir, "el revisor no se conecta a esa dirección: usa otra"},
		{410, curso.Problemas + "servicio-retirado", Rendirse, "el servicio se retiró: dalo de baja de tu lista"},
		{503, curso.Problemas + "en-mantenimiento", Esperar, "el revisor está en mantenimiento: espera lo que diga Retry-After"},
		// A known type wins even when the status is not its catalogue's.
		{409, curso.Problemas + "en-mantenimiento", Esperar, "el revisor está en mantenimiento: espera lo que diga Retry-After"},
		{200, curso.Problemas + "servicio-retirado", Rendirse, "el servicio se retiró: dalo de baja de tu lista"},
		{799, curso.Problemas + "llave-en-curso", Esperar, "la petición original sigue en curso: espera y repite con la misma llave"},
		// An unknown type changes nothing: the status decides.
		{409, "https://otro.example/problemas/nuevo", Reconciliar, "choca con el estado actual: relee y decide"},
		{409, "llave-en-curso", Reconciliar, "choca con el estado actual: relee y decide"},
		{409, "HTTPS://REVISOR.EXAMPLE/PROBLEMAS/LLAVE-EN-CURSO", Reconciliar, "choca con el estado actual: relee y decide"},
		{409, curso.Problemas + "llave-en-curso ", Reconciliar, "choca con el estado actual: relee y decide"},
		{409, "about:blank", Reconciliar, "choca con el estado actual: relee y decide"},
		{409, "", Reconciliar, "choca con el estado actual: relee y decide"},
		{409, curso.Problemas + "datos-invalidos", Reconciliar, "choca con el estado actual: relee y decide"},
		// What JS inherits from Object.prototype does not exist here (S16, R-5).
		{409, "constructor", Reconciliar, "choca con el estado actual: relee y decide"},
		{409, "__proto__", Reconciliar, "choca con el estado actual: relee y decide"},
		{409, "toString", Reconciliar, "choca con el estado actual: relee y decide"},
		{409, "hasOwnProperty", Reconciliar, "choca con el estado actual: relee y decide"},
		{418, "constructor", Corregir, "el 418 no está en la tabla: se trata como un 400 (la petición no se puede leer)"},
	}
	for _, c := range casos {
		d := Decidir(c.codigo, ptr[int64](2), &c.tipo)
		if d.Accion != c.accion || d.Motivo != c.motivo || d.Reintenta != (c.accion == Esperar) || (d.EsperaS != nil) != (c.accion == Esperar) {
			t.Errorf("Decidir(%d, 2, %q) = %+v; quiero %s, %q", c.codigo, c.tipo, d, c.accion, c.motivo)
		}
	}
}

func TestDecidirSinRespuesta(t *testing.T) {
	t.Parallel()
	casos := []struct {
		tipo string
		want Decision
	}{
		{TiempoAgotado, Decision{Accion: Esperar, Motivo: "tiempo-agotado", Reintenta: true}},
		{SinConexion, Decision{Accion: Esperar, Motivo: "sin-conexion", Reintenta: true}},
		{RespuestaInvalida, Decision{Accion: Esperar, Motivo: "respuesta-invalida", Reintenta: true}},
		{DestinoProhibido, Decision{Accion: Corregir, Motivo: "destino prohibido"}},
	}
	for _, c := range casos {
		if got := DecidirSinRespuesta(c.tipo); got != c.want {
			t.Errorf("DecidirSinRespuesta(%q) = %+v; quiero %+v", c.tipo, got, c.want)
		}
	}
}

func FuzzDecidir(f *testing.F) {
	f.Add(409, int64(30), true, curso.Problemas+"llave-en-curso", true)
	f.Add(503, int64(120), true, "", false)
	f.Add(502, int64(0), false, "constructor", true)
	f.Add(101, int64(1), true, "", false)
	f.Add(-7, int64(-1), true, "__proto__", true)
	f.Add(800, int64(5), false, "about:blank", true)
	seis := map[Accion]bool{Seguir: true, Corregir: true, Reautenticar: true, Esperar: true, Reconciliar: true, Rendirse: true}
	f.Fuzz(func(t *testing.T, codigo int, ra int64, hayRA bool, tipo string, hayTipo bool) {
		var pra *int64
		if hayRA {
			pra = &ra
		}
		var ptipo *string
		if hayTipo {
			ptipo = &tipo
		}
		d := Decidir(codigo, pra, ptipo)
		if !seis[d.Accion] || d.Motivo == "" {
			t.Fatalf("Decidir(%d, %v, %q) = %+v: fuera de las seis acciones", codigo, hayRA, tipo, d)
		}
		if d.Reintenta != (d.Accion == Esperar) {
			t.Fatalf("reintenta sin esperar (o al revés): %+v", d)
		}
		if (d.EsperaS != nil) != (d.Accion == Esperar && hayRA) || (d.EsperaS != nil && *d.EsperaS != ra) {
			t.Fatalf("espera mal puesta: %+v con Retry-After %d, %v", d, ra, hayRA)
		}
		if _, conocido := porType(tipo); !hayTipo || !conocido {
			// Without a known type the status decides, as if there were no type.
			if sin := Decidir(codigo, pra, nil); sin.Accion != d.Accion || sin.Motivo != d.Motivo {
				t.Fatalf("un type desconocido %q cambió la decisión: %+v frente a %+v", tipo, d, sin)
			}
		}
	})
}

// The table's own rows: every code of the course's 23 and of fig07_06's four that have one, and
// none of those it decides by their class.
func TestCodigos(t *testing.T) {
	t.Parallel()
	codigos := Codigos()
	for _, c := range []int{200, 201, 202, 204, 301, 304, 308, 400, 401, 403, 404, 405, 409, 410, 412, 415, 422, 428, 429, 500, 502, 503, 504, 302, 307, 408, 425} {
		if !slices.Contains(codigos, c) {
			t.Errorf("falta el %d en %v", c, codigos)
		}
	}
	for _, c := range []int{100, 206, 299, 418, 451, 501, 507, 599} {
		if slices.Contains(codigos, c) {
			t.Errorf("el %d no tiene fila propia: %v", c, codigos)
		}
	}
	if !slices.IsSorted(codigos) {
		t.Errorf("desordenados: %v", codigos)
	}
}
