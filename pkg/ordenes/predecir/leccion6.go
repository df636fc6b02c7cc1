package predecir

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"cursohttp/pkg/almacen"
	"cursohttp/pkg/altasegura"
	"cursohttp/pkg/curso"
	"cursohttp/pkg/reintento"
)

// How alta-segura's run ends, by its last line (Lesson 6, §6.5.2-§6.5.4).
const (
	finAgotados    = "agotados"      // «se agotaron los 4 intentos…»
	finNoArregla   = "no-lo-arregla" // «el servidor respondió N: repetir lo mismo no lo arregla»
	finEsperaLarga = "espera-larga"  // «el servidor pidió esperar N s (Retry-After), más de…»
	finHecha       = "hecha"         // a 2xx: nothing more is printed
)

var finales = []string{finAgotados, finNoArregla, finEsperaLarga, finHecha}

// alta is what one run of alta-segura showed.
type alta struct {
	salida   int
	intentos int
	techos   []string // «espero entre 0 y N ms»: N of each jittered wait
	esperas  []string // «el servidor pide esperar N s»: N of each Retry-After wait
	fin      string
	primera  string // its first attempt's line
	ultima   string // its last line
}

var (
	reIntento = regexp.MustCompile(`^intento \d+: `)
	reTecho   = regexp.MustCompile(`^  espero entre 0 y (\d+) ms`)
	reEspera  = regexp.MustCompile(`^  el servidor pide esperar (\d+) s`)
)

// correrAlta runs alta-segura (pkg/altasegura, the binary's own code) against a gateway.
func correrAlta(ctx context.Context, c Corrida, o altasegura.Opciones) (alta, error) {
	var out bytes.Buffer
	o.Salida = &out
	o.Politica = reintento.PoliticaAlta()
	o.Politica.Dormir = c.Dormir
	prefijo := ""
	if o.Limite > 0 {
		prefijo = "ALTA_LIMITE_MS=" + strconv.FormatInt(o.Limite.Milliseconds(), 10) + " "
	}
	sin := ""
	if o.SinLlave {
		sin = " --sin-llave"
	}
	c.decir("%salta-segura %s %s%s", prefijo, o.Nombre, o.URL, sin)
	a := alta{salida: altasegura.Correr(ctx, o)}
	if a.salida == curso.Interrumpido {
		return a, context.Cause(ctx)
	}
	for _, l := range strings.Split(strings.TrimRight(out.String(), "\n"), "\n") {
		a.ultima = l
		switch {
		case reIntento.MatchString(l):
			a.intentos++
			if a.intentos == 1 {
				a.primera = recortar(l)
			}
		case reTecho.MatchString(l):
			a.techos = append(a.techos, reTecho.FindStringSubmatch(l)[1])
		case reEspera.MatchString(l):
			a.esperas = append(a.esperas, reEspera.FindStringSubmatch(l)[1])
		}
	}
	switch {
	case a.salida == 0:
		a.fin = finHecha
	case strings.HasPrefix(a.ultima, "se agotaron"):
		a.fin = finAgotados
	case strings.Contains(a.ultima, "no lo arregla"):
		a.fin = finNoArregla
	case strings.Contains(a.ultima, "pidió esperar"):
		a.fin = finEsperaLarga
	default:
		return a, fmt.Errorf("alta-segura terminó con %d y una última línea que no conozco: %s", a.salida, a.ultima)
	}
	return a, nil
}

func (a alta) porque() string {
	if a.fin == finHecha {
		return fmt.Sprintf("alta-segura salió con %d tras %s («%s»): el alta se hizo", a.salida, contar(a.intentos, "intento", "intentos"), a.primera)
	}
	return fmt.Sprintf("alta-segura salió con %d tras %s: «%s»", a.salida, contar(a.intentos, "intento", "intentos"), a.ultima)
}

// guionMentira is one run of alta-segura against fig06_04.ts's fake gateway.
type guionMentira struct {
	nombre     string // the questions' prefix, and the service alta-segura registers
	alta       string // the service's name when nombre is no name (the lesson gives none)
	respuestas []string
	limite     time.Duration // ALTA_LIMITE_MS
}

func (g guionMentira) correr(ctx context.Context, c Corrida, l *Lab) (alta, int, error) {
	c.decir("laboratorio mentira %s", strings.Join(g.respuestas, " "))
	m, base, err := l.Mentira(g.respuestas...)
	if err != nil {
		return alta{}, 0, err
	}
	nombre := g.nombre
	if g.alta != "" {
		nombre = g.alta
	}
	a, err := correrAlta(ctx, c, altasegura.Opciones{Nombre: nombre, URL: l.Laboratorio + "/codigo/200", Pasarela: base, Limite: g.limite})
	return a, m.Peticiones(), err
}

func sinLab(f func(*Lab) (map[string]Real, error)) (map[string]Real, error) {
	return conLab(OpcionesLab{}, f)
}

// Lesson 6 exercise 1's operations, each with what shows its effect after it ran.
type operacion struct {
	peticion
	nombre string
	efecto func(ctx context.Context, c Corrida, l *Lab, r []byte, location string) (string, error)
}

func estadoDe(ruta string) func(context.Context, Corrida, *Lab, []byte, string) (string, error) {
	return func(ctx context.Context, c Corrida, l *Lab, _ []byte, _ string) (string, error) {
		res, err := peticion{metodo: "GET", ruta: ruta, credencial: "escritura-a"}.hacer(ctx, Corrida{}, l)
		if err != nil {
			return "", err
		}
		cuerpo := strings.TrimSpace(string(res.Cuerpo))
		if res.Codigo != 200 {
			return "GET " + ruta + " responde " + strconv.Itoa(res.Codigo), nil
		}
		return "GET " + ruta + " da " + strings.ReplaceAll(cuerpo, l.Laboratorio, curso.URLLaboratorio), nil
	}
}

// modoMantenimiento reads the mode as a client sees it: on, every other request answers 503.
func modoMantenimiento(ctx context.Context, c Corrida, l *Lab, _ []byte, _ string) (string, error) {
	res, err := peticion{metodo: "GET", ruta: "/servicios/2", credencial: "escritura-a"}.hacer(ctx, Corrida{}, l)
	if err != nil {
		return "", err
	}
	if res.Codigo == 503 {
		return "el modo de mantenimiento encendido (GET /servicios/2 responde 503)", nil
	}
	return fmt.Sprintf("el modo de mantenimiento apagado (GET /servicios/2 responde %d)", res.Codigo), nil
}

func creado(_ context.Context, _ Corrida, _ *Lab, _ []byte, location string) (string, error) {
	return "Location: " + location, nil
}

var operacionesL6 = []operacion{
	{peticion{metodo: "GET", ruta: "/servicios/1", credencial: "escritura-a"}, "GET /servicios/1", estadoDe("/servicios/1")},
	{peticion{metodo: "PUT", ruta: "/servicios/1", credencial: "escritura-a", cabeceras: map[string]string{"If-Match": "*"},
		cuerpo: `{"nombre":"catalogo","url":"` + curso.URLLaboratorio + `/codigo/200","limite_ms":1500}`},
		`PUT /servicios/1 con If-Match: * y {"nombre":"catalogo",…,"limite_ms":1500}`, estadoDe("/servicios/1")},
	{peticion{metodo: "PUT", ruta: "/mantenimiento", credencial: "admin", cuerpo: `{"activo":false}`},
		`PUT /mantenimiento con admin y {"activo":false}`, modoMantenimiento},
	{peticion{metodo: "POST", ruta: "/servicios/1/revisiones", credencial: "escritura-a"}, "POST /servicios/1/revisiones", creado},
	{peticion{metodo: "DELETE", ruta: "/servicios/1", credencial: "escritura-a"}, "DELETE /servicios/1", estadoDe("/servicios/1")},
	{peticion{metodo: "POST", ruta: "/servicios", credencial: "escritura-a", cabeceras: map[string]string{"Idempotency-Key": "ejercicio-1"},
		cuerpo: `{"nombre":"avisos","url":"` + curso.URLLaboratorio + `/codigo/200"}`},
		`POST /servicios con Idempotency-Key: ejercicio-1 y {"nombre":"avisos",…}`, creado},
}

func leccion6() []Ejercicio {
	var ej1 []Pregunta
	for i, o := range operacionesL6 {
		n := strconv.Itoa(i + 1)
		ej1 = append(ej1,
			Pregunta{ID: n + "-idempotente", Tipo: SiNo, Texto: fmt.Sprintf("Operación %s, %s: ¿es idempotente (dos veces dejan el mismo estado que una)?", n, o.nombre)},
			Pregunta{ID: n + "-segunda", Tipo: Codigo, Texto: fmt.Sprintf("Operación %s: ¿qué código responde la segunda vez?", n)})
	}
	alta502 := []Pregunta{
		{ID: "esperas", Tipo: Numero, Texto: "Si los cuatro intentos de alta-segura reciben 502, ¿cuántas veces espera?"},
		{ID: "techos", Tipo: Numeros, Texto: "¿Cuál es el techo de cada espera, en milisegundos y en orden?"},
		{ID: "maximo", Tipo: Numero, Texto: "¿Cuánto puede tardar como mucho en rendirse, en milisegundos, sin contar lo que tardan las peticiones?"},
		{ID: "final", Tipo: Opcion, Opciones: finales, Texto: "¿Qué imprime al final? (agotados: «se agotaron los intentos»; no-lo-arregla: «repetir lo mismo no lo arregla»; espera-larga: «el servidor pidió esperar…»; hecha: nada más, el alta se hizo)"},
		{ID: "salida", Tipo: Salida, Texto: "¿Con qué código de salida termina?"},
		{ID: "sin-llave-intentos", Tipo: Numero, Texto: "Con --sin-llave y los mismos 502: ¿cuántos intentos hace?"},
		{ID: "sin-llave-salida", Tipo: Salida, Texto: "Con --sin-llave: ¿con qué código de salida termina?"},
	}
	var fig0604 []Pregunta
	for _, g := range guionesEjercicio2 {
		r := strings.Join(g.respuestas, " ")
		fig0604 = append(fig0604,
			Pregunta{ID: g.nombre + "-salida", Tipo: Salida, Texto: fmt.Sprintf("fig06_04.ts %s: ¿con qué código de salida termina alta-segura?", r)},
			Pregunta{ID: g.nombre + "-peticiones", Tipo: Numero, Texto: fmt.Sprintf("fig06_04.ts %s: ¿cuántas peticiones ve el servidor de mentira?", r)})
	}
	es := []Ejercicio{
		{
			ID: "6.ejercicio-1", Leccion: 6, Seccion: "ejercicio 1", Titulo: "¿Se puede repetir?",
			Enunciado: "Para cada una de estas seis operaciones, predice si es idempotente y qué responde la segunda vez. Luego ejecuta cada una dos veces y compara el estado con lo esperado. (Laboratorio y revisor recién arrancados; cada operación con escritura-a salvo la de /mantenimiento.)",
			Preguntas: ej1,
			Correr:    correrRepetirDosVeces,
		},
		{
			ID: "6.ejercicio-2", Leccion: 6, Seccion: "ejercicio 2", Titulo: "Las esperas de alta-segura",
			Enunciado: "Sin ejecutar nada, responde: si los cuatro intentos de alta-segura reciben 502, ¿cuántas veces espera?, ¿cuál es el techo de cada espera?, ¿cuánto puede tardar como mucho en rendirse (sin contar el tiempo de las peticiones)?, ¿qué imprime al final y con qué código sale? Predice también qué cambia si el alta va con --sin-llave. (La corrida pone en el lugar de la pasarela un servidor de mentira que responde 502 siempre: laboratorio mentira 502.)",
			Preguntas: alta502,
			Correr:    correr502,
		},
		{
			ID: "6.ejercicio-2-fig06_04", Leccion: 6, Seccion: "ejercicio 2", Titulo: "Tres respuestas del servidor de mentira",
			Enunciado: "Para terminar el ejercicio 2, predice el código de salida de alta-segura y el número de peticiones que ve fig06_04.ts con cada una de estas tres respuestas, y compruébalo con 6.5.4: 422, 503:1 201 y 409:en-curso 201.",
			Preguntas: fig0604,
			Correr: func(ctx context.Context, c Corrida) (map[string]Real, error) {
				return sinLab(func(l *Lab) (map[string]Real, error) {
					r := map[string]Real{}
					for _, g := range guionesEjercicio2 {
						a, n, err := g.correr(ctx, c, l)
						if err != nil {
							return nil, err
						}
						r[g.nombre+"-salida"] = Real{strconv.Itoa(a.salida), a.porque()}
						r[g.nombre+"-peticiones"] = Real{strconv.Itoa(n), "el servidor de mentira contó " + contar(n, "petición", "peticiones") + " (lección 6, §6.5.4)"}
					}
					return r, nil
				})
			},
		},
		{
			ID: "6.ejercicio-3", Leccion: 6, Seccion: "ejercicio 3", Titulo: "La llave que vence",
			Enunciado: "Con el revisor del ejercicio 3 (sus llaves valen 5000 ms: revisor --vigencia-llaves 5s), manda el alta de avisos con Idempotency-Key: vence-1 dos veces seguidas, espera seis segundos y mándala una tercera: predice el código de cada una. Luego da de alta agenda con Idempotency-Key: vence-2, retírala (DELETE), espera seis segundos y repite el alta con la misma llave: predice el código y el id.",
			Preguntas: []Pregunta{
				{ID: "vence-1", Tipo: Codigos, Texto: "Las tres altas de avisos con vence-1 (la tercera tras sleep 6): ¿qué tres códigos?"},
				{ID: "vence-2-codigo", Tipo: Codigo, Texto: "El alta de agenda repetida con vence-2, tras retirarla y sleep 6: ¿qué código?"},
				{ID: "vence-2-id", Tipo: Numero, Texto: "¿Y qué id tiene la agenda que queda (el número de su Location)?"},
			},
			Correr: correrLlaveQueVence,
		},
		{
			ID: "6.ejercicio-4", Leccion: 6, Seccion: "ejercicio 4", Titulo: "¿Cuántas veces llama?",
			Enunciado: "Da de alta tres servicios del laboratorio, e-504 (/codigo/504), e-cortar (/cortar) y e-500 (/codigo/500), y pide una revisión de cada uno con escritura-a, más una de reportes (el servicio 5, /lento/3000 con límite de 1000 ms) con admin. Antes de mirar la terminal del laboratorio, predice cuántas veces aparece cada ruta y qué «detalle» tiene cada revisión (y con qué estado termina). Espera ocho segundos antes de pedir los resultados.",
			Preguntas: []Pregunta{
				{ID: "veces-504", Tipo: Numero, Texto: "¿Cuántas veces aparece GET /codigo/504 en la terminal del laboratorio?"},
				{ID: "veces-cortar", Tipo: Numero, Texto: "¿Cuántas veces aparece GET /cortar?"},
				{ID: "veces-500", Tipo: Numero, Texto: "¿Cuántas veces aparece GET /codigo/500?"},
				{ID: "veces-lento", Tipo: Numero, Texto: "¿Cuántas veces aparece GET /lento/3000?"},
				{ID: "estado-504", Tipo: Opcion, Opciones: estadosRevision, Texto: "¿Con qué estado termina la revisión de e-504?"},
				{ID: "estado-cortar", Tipo: Opcion, Opciones: estadosRevision, Texto: "¿Y la de e-cortar?"},
				{ID: "estado-500", Tipo: Opcion, Opciones: estadosRevision, Texto: "¿Y la de e-500?"},
				{ID: "estado-lento", Tipo: Opcion, Opciones: estadosRevision, Texto: "¿Y la de reportes?"},
				{ID: "detalle-504", Tipo: Opcion, Opciones: detalles, Texto: "¿Qué «detalle» tiene la revisión de e-504? (el código: el número que respondió)"},
				{ID: "detalle-cortar", Tipo: Opcion, Opciones: detalles, Texto: "¿Y la de e-cortar?"},
				{ID: "detalle-500", Tipo: Opcion, Opciones: detalles, Texto: "¿Y la de e-500?"},
				{ID: "detalle-lento", Tipo: Opcion, Opciones: detalles, Texto: "¿Y la de reportes?"},
			},
			Correr: correrCuantasVeces,
		},
	}
	return append(es, leccion654()...)
}

var estadosRevision = []string{almacen.Arriba, almacen.Lento, almacen.Caido}

// A check's «detalle» (pkg/sonda): the status code that came back, or why none did.
const detalleCodigo = "el código"

var detalles = []string{detalleCodigo, "tiempo agotado", "sin conexión", "respuesta inválida", "destino prohibido"}

// clase is the option a check's detalle falls in: «504» and «503 (reintentar en 120 s)» are codes.
func clase(detalle string) string {
	if detalle != "" && detalle[0] >= '0' && detalle[0] <= '9' {
		return detalleCodigo
	}
	for _, d := range detalles {
		if strings.HasPrefix(detalle, d) {
			return d
		}
	}
	return detalle
}

var guionesEjercicio2 = []guionMentira{
	{nombre: "422", alta: "agenda", respuestas: []string{"422"}},
	{nombre: "503-1-201", alta: "agenda", respuestas: []string{"503:1", "201"}},
	{nombre: "409-en-curso-201", alta: "agenda", respuestas: []string{"409:en-curso", "201"}},
}

func correr502(ctx context.Context, c Corrida) (map[string]Real, error) {
	return sinLab(func(l *Lab) (map[string]Real, error) {
		g := guionMentira{nombre: "agenda", respuestas: []string{"502"}}
		a, _, err := g.correr(ctx, c, l)
		if err != nil {
			return nil, err
		}
		_, base, err := l.Mentira("502")
		if err != nil {
			return nil, err
		}
		s, err := correrAlta(ctx, c, altasegura.Opciones{Nombre: "agenda", URL: l.Laboratorio + "/codigo/200", Pasarela: base, SinLlave: true})
		if err != nil {
			return nil, err
		}
		maximo := 0
		for _, t := range a.techos {
			n, _ := strconv.Atoi(t)
			maximo += n
		}
		politica := "la política de alta-segura (lección 6, §6.4.1 y §6.5.2): espera entre 0 y un techo que se dobla, y no espera tras el último intento"
		return map[string]Real{
			"esperas":            {strconv.Itoa(len(a.techos)), fmt.Sprintf("%d intentos y %d esperas: %s", a.intentos, len(a.techos), politica)},
			"techos":             {strings.Join(a.techos, " "), "«espero entre 0 y N ms» en cada espera: " + politica},
			"maximo":             {strconv.Itoa(maximo), "la suma de los techos, " + strings.Join(a.techos, " + ") + " ms, si cada sorteo saca el techo"},
			"final":              {a.fin, a.porque()},
			"salida":             {strconv.Itoa(a.salida), a.porque()},
			"sin-llave-intentos": {strconv.Itoa(s.intentos), "con --sin-llave: " + s.porque() + " (lección 6, §6.5.2)"},
			"sin-llave-salida":   {strconv.Itoa(s.salida), "con --sin-llave: " + s.porque()},
		}, nil
	})
}

func correrRepetirDosVeces(ctx context.Context, c Corrida) (map[string]Real, error) {
	return sinLab(func(l *Lab) (map[string]Real, error) {
		r := map[string]Real{}
		for i, o := range operacionesL6 {
			var efectos [2]string
			var codigos [2]int
			for vez := range 2 {
				res, err := o.hacer(ctx, c, l)
				if err != nil {
					return nil, err
				}
				codigos[vez] = res.Codigo
				loc, _ := res.Cabecera("Location")
				if efectos[vez], err = o.efecto(ctx, c, l, res.Cuerpo, loc); err != nil {
					return nil, err
				}
				if vez == 1 {
					n := strconv.Itoa(i + 1)
					r[n+"-segunda"] = Real{strconv.Itoa(res.Codigo), fmt.Sprintf("%d la primera vez, %d la segunda; la segunda: %s", codigos[0], codigos[1], porRespuesta(res))}
				}
			}
			n := strconv.Itoa(i + 1)
			if efectos[0] == efectos[1] {
				r[n+"-idempotente"] = Real{"sí", "tras la primera y tras la segunda, lo mismo: " + recortar(efectos[1]) + " (RFC 9110, §9.2.2; lección 6, §6.2)"}
			} else {
				r[n+"-idempotente"] = Real{"no", "tras la primera, " + recortar(efectos[0]) + "; tras la segunda, " + recortar(efectos[1]) + ": cada vez crea algo nuevo (lección 6, §6.2)"}
			}
		}
		return r, nil
	})
}

// contar is «1 vez», «3 veces».
func contar(n int, una, varias string) string {
	if n == 1 {
		return "1 " + una
	}
	return strconv.Itoa(n) + " " + varias
}

func recortar(s string) string {
	if len(s) > 100 {
		return s[:100] + "…"
	}
	return s
}

func correrLlaveQueVence(ctx context.Context, c Corrida) (map[string]Real, error) {
	return conLab(OpcionesLab{Vigencia: 5 * time.Second}, func(l *Lab) (map[string]Real, error) {
		alta := func(nombre, llave string) peticion {
			return peticion{metodo: "POST", ruta: "/servicios", credencial: "escritura-a", cabeceras: map[string]string{"Idempotency-Key": llave},
				cuerpo: `{"nombre":"` + nombre + `","url":"` + curso.URLLaboratorio + `/codigo/200"}`}
		}
		var codigos, porque []string
		for vez := range 3 {
			if vez == 2 {
				c.decir("sleep 6")
				if err := c.dormir(ctx, 6*time.Second); err != nil {
					return nil, err
				}
			}
			res, err := alta("avisos", "vence-1").hacer(ctx, c, l)
			if err != nil {
				return nil, err
			}
			codigos = append(codigos, strconv.Itoa(res.Codigo))
			porque = append(porque, porRespuesta(res))
		}
		res, err := alta("agenda", "vence-2").hacer(ctx, c, l)
		if err != nil {
			return nil, err
		}
		loc, _ := res.Cabecera("Location")
		if _, err := (peticion{metodo: "DELETE", ruta: loc, credencial: "escritura-a"}).hacer(ctx, c, l); err != nil {
			return nil, err
		}
		c.decir("sleep 6")
		if err := c.dormir(ctx, 6*time.Second); err != nil {
			return nil, err
		}
		res, err = alta("agenda", "vence-2").hacer(ctx, c, l)
		if err != nil {
			return nil, err
		}
		loc2, _ := res.Cabecera("Location")
		id := strings.TrimPrefix(loc2, "/servicios/")
		if _, err := strconv.Atoi(id); err != nil {
			id = "0"
		}
		tercera := "la tercera, tras sleep 6, con la llave vencida (5 s): " + porque[2] + " (lección 6, §6.7.1)"
		vence2 := fmt.Sprintf("la primera alta fue %s, retirada; tras sleep 6, con la llave vencida: %s", loc, porRespuesta(res))
		return map[string]Real{
			"vence-1":        {strings.Join(codigos, " "), tercera},
			"vence-2-codigo": {strconv.Itoa(res.Codigo), vence2},
			"vence-2-id":     {id, vence2 + " y Location " + loc2},
		}, nil
	})
}

func correrCuantasVeces(ctx context.Context, c Corrida) (map[string]Real, error) {
	return sinLab(func(l *Lab) (map[string]Real, error) {
		var ids []string
		for _, ruta := range []string{"codigo/504", "cortar", "codigo/500"} {
			nombre := "e-" + ruta[strings.Index(ruta, "/")+1:]
			res, err := peticion{metodo: "POST", ruta: "/servicios", credencial: "escritura-a",
				cuerpo: `{"nombre":"` + nombre + `","url":"` + curso.URLLaboratorio + "/" + ruta + `"}`}.hacer(ctx, c, l)
			if err != nil {
				return nil, err
			}
			loc, _ := res.Cabecera("Location")
			ids = append(ids, loc)
		}
		var revisiones []string
		pedir := func(servicio, credencial string) error {
			res, err := peticion{metodo: "POST", ruta: servicio + "/revisiones", credencial: credencial}.hacer(ctx, c, l)
			if err != nil {
				return err
			}
			loc, _ := res.Cabecera("Location")
			revisiones = append(revisiones, loc)
			return nil
		}
		for _, id := range ids {
			if err := pedir(id, "escritura-a"); err != nil {
				return nil, err
			}
		}
		if err := pedir("/servicios/5", "admin"); err != nil {
			return nil, err
		}
		c.decir("sleep 8")
		if err := c.dormir(ctx, 8*time.Second); err != nil {
			return nil, err
		}
		r := map[string]Real{}
		nombres := []string{"504", "cortar", "500", "lento"}
		rutas := []string{"/codigo/504", "/cortar", "/codigo/500", "/lento/3000"}
		for i, rev := range revisiones {
			res, err := peticion{metodo: "GET", ruta: rev, credencial: "admin"}.hacer(ctx, c, l)
			if err != nil {
				return nil, err
			}
			var v struct {
				Resultado *struct {
					Estado  string `json:"estado"`
					Detalle string `json:"detalle"`
				} `json:"resultado"`
			}
			if json.Unmarshal(res.Cuerpo, &v) != nil || v.Resultado == nil {
				return nil, fmt.Errorf("la revisión %s no terminó en ocho segundos: %s", rev, res.Cuerpo)
			}
			veces := l.Veces(rutas[i])
			r["veces-"+nombres[i]] = Real{strconv.Itoa(veces), fmt.Sprintf("GET %s llegó %s al laboratorio: el revisor repite solo lo que puede arreglarse solo (502, 503, 504, sin respuesta), hasta 3 intentos (lección 6, §6.3.2 y §6.4.4)", rutas[i], contar(veces, "vez", "veces"))}
			termino := "terminó " + v.Resultado.Estado + " con «detalle»: «" + v.Resultado.Detalle + "» (lección 6, ejercicio 4 y su solución)"
			r["estado-"+nombres[i]] = Real{v.Resultado.Estado, termino}
			r["detalle-"+nombres[i]] = Real{clase(v.Resultado.Detalle), termino}
		}
		return r, nil
	})
}

// leccion654 are §6.5.4's runs: what alta-segura does with what it gets.
func leccion654() []Ejercicio {
	preguntas := func(que string, extra ...Pregunta) []Pregunta {
		return append([]Pregunta{
			{ID: "intentos", Tipo: Numero, Texto: que + ": ¿cuántos intentos hace alta-segura?"},
			{ID: "final", Tipo: Opcion, Opciones: finales, Texto: "¿Cómo termina? (agotados, no-lo-arregla, espera-larga o hecha)"},
			{ID: "salida", Tipo: Salida, Texto: "¿Con qué código de salida?"},
		}, extra...)
	}
	respuestas := func(a alta) map[string]Real {
		return map[string]Real{
			"intentos": {strconv.Itoa(a.intentos), a.porque()},
			"final":    {a.fin, a.porque()},
			"salida":   {strconv.Itoa(a.salida), a.porque()},
		}
	}
	mentira := func(g guionMentira) func(context.Context, Corrida) (map[string]Real, error) {
		return func(ctx context.Context, c Corrida) (map[string]Real, error) {
			return sinLab(func(l *Lab) (map[string]Real, error) {
				a, n, err := g.correr(ctx, c, l)
				if err != nil {
					return nil, err
				}
				r := respuestas(a)
				r["peticiones"] = Real{strconv.Itoa(n), "la terminal del servidor de mentira muestra " + contar(n, "petición", "peticiones")}
				if len(a.esperas) > 0 {
					r["espera"] = Real{a.esperas[0], "«el servidor pide esperar " + a.esperas[0] + " s (Retry-After)»: Retry-After manda, bajo el tope de 5 s"}
				} else {
					r["espera"] = Real{"nada", "no esperó ningún Retry-After"}
				}
				return r, nil
			})
		}
	}
	peticiones := Pregunta{ID: "peticiones", Tipo: Numero, Texto: "¿Cuántas peticiones ve el servidor de mentira?"}
	enunciado := "Predice qué hace alta-segura con lo que recibe y compruébalo: "
	return []Ejercicio{
		{
			ID: "6.5.4-4xx", Leccion: 6, Seccion: "6.5.4", Titulo: "Un 4xx no se reintenta",
			Enunciado: enunciado + "con la pasarela y el revisor recién arrancados, alta-segura invalida ftp://archivos (una dirección que no es http ni https).",
			Preguntas: preguntas("alta-segura invalida ftp://archivos"),
			Correr: func(ctx context.Context, c Corrida) (map[string]Real, error) {
				return conLab(OpcionesLab{Pasarela: true}, func(l *Lab) (map[string]Real, error) {
					a, err := correrAlta(ctx, c, altasegura.Opciones{Nombre: "invalida", URL: "ftp://archivos", Pasarela: l.Pasarela})
					if err != nil {
						return nil, err
					}
					return respuestas(a), nil
				})
			},
		},
		{
			ID: "6.5.4-retry-after-largo", Leccion: 6, Seccion: "6.5.4", Titulo: "Un Retry-After largo",
			Enunciado: enunciado + "con el revisor en mantenimiento (PUT /mantenimiento {\"activo\":true} con admin), alta-segura enmantenimiento " + curso.URLLaboratorio + "/codigo/200 por la pasarela.",
			Preguntas: preguntas("alta-segura enmantenimiento …"),
			Correr: func(ctx context.Context, c Corrida) (map[string]Real, error) {
				return conLab(OpcionesLab{Pasarela: true}, func(l *Lab) (map[string]Real, error) {
					if _, err := (peticion{metodo: "PUT", ruta: "/mantenimiento", credencial: "admin", cuerpo: `{"activo":true}`}).hacer(ctx, c, l); err != nil {
						return nil, err
					}
					a, err := correrAlta(ctx, c, altasegura.Opciones{Nombre: "enmantenimiento", URL: l.Laboratorio + "/codigo/200", Pasarela: l.Pasarela})
					if err != nil {
						return nil, err
					}
					return respuestas(a), nil
				})
			},
		},
		{
			ID: "6.5.4-retry-after-corto", Leccion: 6, Seccion: "6.5.4", Titulo: "Un Retry-After corto",
			Enunciado: enunciado + "fig06_04.ts 503:2 201 en el lugar de la pasarela (laboratorio mentira 503:2 201), y alta-segura paciente.",
			Preguntas: preguntas("fig06_04.ts 503:2 201", peticiones,
				Pregunta{ID: "espera", Tipo: Numero, Nada: "nada", Texto: "¿Cuántos segundos espera antes del segundo intento (o «nada»)?"}),
			Correr: mentira(guionMentira{nombre: "paciente", respuestas: []string{"503:2", "201"}}),
		},
		{
			ID: "6.5.4-409-en-curso", Leccion: 6, Seccion: "6.5.4", Titulo: "El 409 de la llave en curso",
			Enunciado: enunciado + "fig06_04.ts 409:en-curso 201, y alta-segura en-curso.",
			Preguntas: preguntas("fig06_04.ts 409:en-curso 201", peticiones),
			Correr:    mentira(guionMentira{nombre: "en-curso", respuestas: []string{"409:en-curso", "201"}}),
		},
		{
			ID: "6.5.4-409", Leccion: 6, Seccion: "6.5.4", Titulo: "El otro 409",
			Enunciado: enunciado + "fig06_04.ts 409 (un 409 con otro type), y alta-segura repetida.",
			Preguntas: preguntas("fig06_04.ts 409", peticiones),
			Correr:    mentira(guionMentira{nombre: "repetida", respuestas: []string{"409"}}),
		},
		{
			ID: "6.5.4-mudo", Leccion: 6, Seccion: "6.5.4", Titulo: "Un servidor que no contesta",
			Enunciado: enunciado + "fig06_04.ts mudo (acepta la conexión y no contesta nunca), y ALTA_LIMITE_MS=300 alta-segura muda.",
			Preguntas: preguntas("fig06_04.ts mudo", peticiones),
			Correr:    mentira(guionMentira{nombre: "muda", respuestas: []string{"mudo"}, limite: 300 * time.Millisecond}),
		},
	}
}
