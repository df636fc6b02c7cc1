package decision

import (
	"strconv"
	"strings"
	"testing"

	"cursohttp/pkg/curso"
)

func ptr[T any](v T) *T { return &v }

// Salida de tabla23.ts (lección 7, S1), tal cual. El laboratorio manda
// Retry-After: 30 con el 429 y 120 con el 503, y ningún type.
const s1 = `CÓDIGO  ACCIÓN        REINTENTA  ESPERA  MOTIVO
200     seguir        no         —       salió bien
201     seguir        no         —       se creó; la dirección viene en Location
202     seguir        no         —       se aceptó; el seguimiento viene en Location
204     seguir        no         —       salió bien y no hay nada que leer
301     corregir      no         —       la dirección cambió para siempre: actualiza la configuración
304     seguir        no         —       no cambió: usa la copia que ya tienes
308     corregir      no         —       la dirección cambió para siempre: actualiza la configuración
400     corregir      no         —       la petición no se puede leer
401     reautenticar  no         —       falta una credencial válida
403     rendirse      no         —       la credencial no tiene permiso: lo resuelve una persona
404     rendirse      no         —       no existe (o no te lo muestran)
405     corregir      no         —       ese método no se admite: mira Allow
409     reconciliar   no         —       choca con el estado actual: relee y decide
410     rendirse      no         —       se retiró y no va a volver: dalo de baja
412     reconciliar   no         —       tu etiqueta ya no es la vigente: relee y vuelve a aplicar tu cambio
415     corregir      no         —       el formato no se admite: mira Accept
422     corregir      no         —       se entendió, pero los datos no se pueden cumplir
428     corregir      no         —       falta la condición: manda If-Match
429     esperar       sí         30 s    demasiadas peticiones: espera lo que diga Retry-After
500     rendirse      no         —       falla del servidor: repórtala con su instance
502     esperar       sí         —       falló lo que está detrás: reintenta solo si la operación es idempotente
503     esperar       sí         120 s   no está disponible: espera lo que diga Retry-After
504     esperar       sí         —       lo de atrás no respondió a tiempo: reintenta solo si es idempotente
`

// Salida de fig07_06.ts (lección 7, S6): códigos fuera de la tabla y los que
// tienen fila propia a propósito.
const s6 = `CÓDIGO  ACCIÓN        REINTENTA  MOTIVO
206     seguir        no         el 206 no está en la tabla: se trata como un 200 (salió bien)
299     seguir        no         el 299 no está en la tabla: se trata como un 200 (salió bien)
302     corregir      no         redirección temporal: el cliente no la sigue solo; revisa la dirección de Location
307     corregir      no         redirección temporal que conserva el método: el cliente no la sigue solo; revisa Location
408     esperar       sí         el servidor no recibió la petición completa a tiempo: repítela tal cual, en una conexión nueva (RFC 9110, 15.5.9)
418     corregir      no         el 418 no está en la tabla: se trata como un 400 (la petición no se puede leer)
425     esperar       sí         el servidor no quiso procesar datos tempranos: repite la petición, esta vez sin ellos (RFC 8470, 5.2)
451     corregir      no         el 451 no está en la tabla: se trata como un 400 (la petición no se puede leer)
501     rendirse      no         el 501 no está en la tabla: se trata como un 500 (falla del servidor: repórtala con su instance)
507     rendirse      no         el 507 no está en la tabla: se trata como un 500 (falla del servidor: repórtala con su instance)
599     rendirse      no         el 599 no está en la tabla: se trata como un 500 (falla del servidor: repórtala con su instance)
600     rendirse      no         600 no es un código de HTTP (el RFC 9110 admite de 100 a 599): se procesa como un 5xx
799     rendirse      no         799 no es un código de HTTP (el RFC 9110 admite de 100 a 599): se procesa como un 5xx
`

// linea rellena como padEnd de JS: por caracteres, no por bytes.
func linea(anchos []int, campos ...string) string {
	var b strings.Builder
	for i, c := range campos {
		b.WriteString(c)
		if i < len(anchos) {
			b.WriteString(strings.Repeat(" ", max(0, anchos[i]-len([]rune(c)))))
		}
	}
	return b.String()
}

func retryAfterDelLaboratorio(codigo int) *int64 {
	switch codigo {
	case 429:
		return ptr[int64](30)
	case 503:
		return ptr[int64](120)
	}
	return nil
}

func TestTabla23(t *testing.T) {
	t.Parallel()
	codigos := []int{200, 201, 202, 204, 301, 304, 308, 400, 401, 403, 404, 405, 409, 410, 412, 415, 422, 428, 429, 500, 502, 503, 504}
	lineas := []string{"CÓDIGO  ACCIÓN        REINTENTA  ESPERA  MOTIVO"}
	for _, c := range codigos {
		d := Decidir(c, retryAfterDelLaboratorio(c), nil)
		lineas = append(lineas, linea([]int{8, 14, 11, 8}, strconv.Itoa(c), string(d.Accion), d.ReintentaTexto(), d.EsperaTexto(), d.Motivo))
	}
	if got := strings.Join(lineas, "\n") + "\n"; got != s1 {
		t.Errorf("tabla de los 23 códigos distinta de S1:\n%s", diferencia(got, s1))
	}
}

func TestCodigosFueraDeLaTabla(t *testing.T) {
	t.Parallel()
	codigos := []int{206, 299, 302, 307, 408, 418, 425, 451, 501, 507, 599, 600, 799}
	lineas := []string{"CÓDIGO  ACCIÓN        REINTENTA  MOTIVO"}
	for _, c := range codigos {
		d := Decidir(c, nil, nil)
		lineas = append(lineas, linea([]int{8, 14, 11}, strconv.Itoa(c), string(d.Accion), d.ReintentaTexto(), d.Motivo))
	}
	if got := strings.Join(lineas, "\n") + "\n"; got != s6 {
		t.Errorf("códigos fuera de la tabla distintos de S6:\n%s", diferencia(got, s6))
	}
}

func TestDecidirFilasYFamilias(t *testing.T) {
	t.Parallel()
	casos := []struct {
		codigo int
		accion Accion
		motivo string
	}{
		// Las seis filas que no son de los 23 códigos del curso.
		{300, Corregir, "hay varias opciones: elige una dirección"},
		{303, Corregir, "redirección a otro recurso: el cliente no la sigue solo; revisa la dirección de Location"},
		// Ejercicio 2: el 413 hereda del 400.
		{413, Corregir, "el 413 no está en la tabla: se trata como un 400 (la petición no se puede leer)"},
		{305, Corregir, "el 305 no está en la tabla: se trata como un 300 (hay varias opciones: elige una dirección)"},
		// 1xx: no hay fila 100.
		{100, Rendirse, "código desconocido"},
		{101, Rendirse, "código desconocido"},
		{103, Rendirse, "código desconocido"},
		{199, Rendirse, "código desconocido"},
		// Fuera de 100-599.
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
	// La tabla no pone tope (S1 muestra 120 s) ni inventa números (502 sin cabecera: —).
	if d := Decidir(503, ptr[int64](120), nil); d.EsperaS == nil || *d.EsperaS != 120 || d.EsperaTexto() != "120 s" {
		t.Errorf("503 con 120: %+v", d)
	}
	if d := Decidir(502, nil, nil); d.EsperaS != nil || d.EsperaTexto() != "—" || !d.Reintenta {
		t.Errorf("502 sin Retry-After: %+v", d)
	}
	// Para las demás acciones los segundos no significan nada.
	if d := Decidir(404, ptr[int64](30), nil); d.EsperaS != nil {
		t.Errorf("404 con Retry-After: %+v", d)
	}
	// La decisión no comparte el puntero de quien llama.
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
		// Un type conocido gana aunque el código no sea el de su catálogo.
		{409, curso.Problemas + "en-mantenimiento", Esperar, "el revisor está en mantenimiento: espera lo que diga Retry-After"},
		{200, curso.Problemas + "servicio-retirado", Rendirse, "el servicio se retiró: dalo de baja de tu lista"},
		{799, curso.Problemas + "llave-en-curso", Esperar, "la petición original sigue en curso: espera y repite con la misma llave"},
		// Un type desconocido no cambia nada: decide el código.
		{409, "https://otro.example/problemas/nuevo", Reconciliar, "choca con el estado actual: relee y decide"},
		{409, "llave-en-curso", Reconciliar, "choca con el estado actual: relee y decide"},
		{409, "HTTPS://REVISOR.EXAMPLE/PROBLEMAS/LLAVE-EN-CURSO", Reconciliar, "choca con el estado actual: relee y decide"},
		{409, curso.Problemas + "llave-en-curso ", Reconciliar, "choca con el estado actual: relee y decide"},
		{409, "about:blank", Reconciliar, "choca con el estado actual: relee y decide"},
		{409, "", Reconciliar, "choca con el estado actual: relee y decide"},
		{409, curso.Problemas + "datos-invalidos", Reconciliar, "choca con el estado actual: relee y decide"},
		// Lo heredado de Object.prototype en JS aquí no existe (S16, R-5).
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
			// Sin type conocido decide el código, como si no hubiera type.
			if sin := Decidir(codigo, pra, nil); sin.Accion != d.Accion || sin.Motivo != d.Motivo {
				t.Fatalf("un type desconocido %q cambió la decisión: %+v frente a %+v", tipo, d, sin)
			}
		}
	})
}

// diferencia muestra las líneas que no coinciden.
func diferencia(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	var b strings.Builder
	for i := 0; i < max(len(g), len(w)); i++ {
		var x, y string
		if i < len(g) {
			x = g[i]
		}
		if i < len(w) {
			y = w[i]
		}
		if x != y {
			b.WriteString("obtenido: " + x + "\nesperado: " + y + "\n")
		}
	}
	return b.String()
}
