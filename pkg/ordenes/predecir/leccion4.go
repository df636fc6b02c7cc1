package predecir

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"cursohttp/pkg/almacen"
	"cursohttp/pkg/ordenes/entorno"
	"cursohttp/pkg/ordenes/retryafter"
	"cursohttp/pkg/variantes"
)

// Who is at fault, by the status that came back (Lesson 4, §4.2).
const (
	culpaNadie    = "nadie"
	culpaCliente  = "el cliente"
	culpaRevisor  = "el revisor"
	culpaServicio = "el servicio observado"
)

var culpas = []string{culpaNadie, culpaCliente, culpaRevisor, culpaServicio}

func culpaDe(codigo int) string {
	switch {
	case codigo < 400:
		return culpaNadie
	case codigo < 500:
		return culpaCliente
	case codigo == 502 || codigo == 504:
		return culpaServicio
	}
	return culpaRevisor
}

// peticion is one of a lesson's curl commands, with the lab's address in its URL.
type peticion struct {
	metodo, ruta, credencial string
	cuerpo                   string
	cabeceras                map[string]string
}

func (p peticion) String() string {
	s := "curl"
	if p.metodo != "GET" {
		s += " -X " + p.metodo
	}
	s += " …" + p.ruta + " (" + p.credencial + ")"
	if p.cuerpo != "" {
		s += " -d '" + p.cuerpo + "'"
	}
	return s
}

func (p peticion) hacer(ctx context.Context, c Corrida, l *Lab) (entorno.Respuesta, error) {
	c.decir("%s", p)
	h := map[string]string{"Authorization": "Bearer " + p.credencial}
	var cuerpo []byte
	if p.cuerpo != "" {
		h["Content-Type"] = "application/json"
		cuerpo = []byte(l.URL(p.cuerpo))
	}
	for k, v := range p.cabeceras {
		h[k] = v
	}
	return entorno.Entorno{}.Pedir(ctx, p.metodo, l.Revisor+p.ruta, h, cuerpo)
}

// conLab runs f on a fresh lab of o and closes it afterwards.
func conLab(o OpcionesLab, f func(*Lab) (map[string]Real, error)) (map[string]Real, error) {
	l, err := NuevoLab(o)
	if err != nil {
		return nil, err
	}
	defer l.Cerrar()
	return f(l)
}

var leccion4Pedido = variantes.Pedido{Leccion: 4, LeccionDada: true}

var ejercicio1L4 = []peticion{
	{metodo: "GET", ruta: "/servicios/3/salud", credencial: "lectura-a"},
	{metodo: "GET", ruta: "/servicios/4/informe", credencial: "lectura-a"},
	{metodo: "POST", ruta: "/servicios/5/revisiones", credencial: "lectura-a"},
	{metodo: "GET", ruta: "/servicios/5/salud", credencial: "escritura-a"},
	{metodo: "GET", ruta: "/servicios/2/salud", credencial: "escritura-a"},
	{metodo: "PUT", ruta: "/mantenimiento", credencial: "admin", cuerpo: `{"activo":"si"}`},
}

func leccion4() []Ejercicio {
	var ej1 []Pregunta
	for i, p := range ejercicio1L4 {
		n := strconv.Itoa(i + 1)
		ej1 = append(ej1,
			Pregunta{ID: n + "-codigo", Tipo: Codigo, Texto: fmt.Sprintf("Petición %s, %s: ¿qué código responde?", n, p)},
			Pregunta{ID: n + "-culpa", Tipo: Opcion, Opciones: culpas, Texto: fmt.Sprintf("Petición %s: ¿de quién es la culpa (y quién lo arregla)?", n)})
	}
	enumerador := []Pregunta{
		{ID: "escritura-b", Tipo: Codigos, Texto: "escritura-b pide revisiones de los ids 1 a 10, una tras otra: ¿qué diez códigos recibe?"},
		{ID: "escritura-a", Tipo: Codigos, Texto: "Luego escritura-a pide tres revisiones del servicio 2: ¿qué tres códigos recibe?"},
		{ID: "admin", Tipo: Codigo, Texto: "Y enseguida admin pide una del mismo servicio 2: ¿qué código recibe?"},
	}
	ej2 := []Pregunta{}
	for i, v := range retryAfterValores {
		n := strconv.Itoa(i + 1)
		ej2 = append(ej2,
			Pregunta{ID: n + "-valido", Tipo: SiNo, Texto: fmt.Sprintf("Valor %s, %s: ¿es un Retry-After válido según la gramática de RFC 9110?", n, v)},
			Pregunta{ID: n + "-date-parse", Tipo: Numero, Nada: "null", Margen: 1,
				Texto: fmt.Sprintf("Valor %s: ¿qué devuelve segundosConDateParse (segundos, o null)?", n)})
	}
	return []Ejercicio{
		{
			ID: "4.ejercicio-1", Leccion: 4, Seccion: "ejercicio 1", Titulo: "¿De quién es la culpa?",
			Enunciado: "Predice el código de cada una de estas seis peticiones y, para cada una, de quién es la culpa y quién puede arreglarlo. Cuidado: no todas son errores del servidor. (Laboratorio y revisor de la lección 4, recién arrancados.)",
			Preguntas: ej1,
			Correr: func(ctx context.Context, c Corrida) (map[string]Real, error) {
				return conLab(OpcionesLab{Pedido: leccion4Pedido}, func(l *Lab) (map[string]Real, error) {
					r := map[string]Real{}
					for i, p := range ejercicio1L4 {
						res, err := p.hacer(ctx, c, l)
						if err != nil {
							return nil, err
						}
						n := strconv.Itoa(i + 1)
						porque := porRespuesta(res)
						r[n+"-codigo"] = Real{strconv.Itoa(res.Codigo), porque}
						r[n+"-culpa"] = Real{culpaDe(res.Codigo), fmt.Sprintf("un %d: %s (lección 4, §4.2)", res.Codigo, explicarCulpa(res.Codigo))}
					}
					return r, nil
				})
			},
		},
		{
			ID: "4.ejercicio-2", Leccion: 4, Seccion: "ejercicio 2", Titulo: "Un Retry-After que no es válido",
			Enunciado: "Antes de ejecutar nada, decide cuáles de estos nueve valores son Retry-After válidos según la gramática de RFC 9110 y predice qué devuelve cada versión: la ingenua, segundosConDateParse (dígitos, y todo lo demás a Date.parse), y la del revisor, segundosDeEspera (un valor es válido cuando la del revisor da un número). Las tres fechas válidas son el mismo instante, dentro de un minuto.",
			Preguntas: ej2,
			Correr:    correrRetryAfter,
		},
		{
			ID: "4.ejercicio-3", Leccion: 4, Seccion: "ejercicio 3", Titulo: "El enumerador contra el límite",
			Enunciado: "Con el laboratorio y el revisor de la lección 4 recién arrancados, predice qué códigos recibe escritura-b al pedir revisiones de los ids 1 a 10, una tras otra. Luego escritura-a pide tres revisiones del servicio 2, y justo después admin pide una del mismo servicio: ¿qué recibe admin?",
			Preguntas: enumerador,
			Correr: func(ctx context.Context, c Corrida) (map[string]Real, error) {
				return correrEnumerador(ctx, c, leccion4Pedido)
			},
		},
		{
			ID: "4.ejercicio-3-por-servicio", Leccion: 4, Seccion: "ejercicio 3", Titulo: "El enumerador contra el límite por servicio",
			Enunciado: "Ahora con la copia cuyo límite cuenta por servicio y se pregunta después de encontrar (revisor --leccion 4 --ejercicio 3): repite las mismas peticiones y predice otra vez. ¿Cuál de las dos versiones detiene al enumerador? ¿Cuál castiga a admin por lo que hizo escritura-a?",
			Preguntas: append(append([]Pregunta{}, enumerador...),
				Pregunta{ID: "detiene", Tipo: Opcion, Opciones: versionesL4, Texto: "¿Cuál de las dos versiones detiene al enumerador (le responde 429)?"},
				Pregunta{ID: "castiga", Tipo: Opcion, Opciones: versionesL4, Texto: "¿Cuál castiga a admin (429) por lo que hizo escritura-a?"}),
			Correr: correrPorServicio,
		},
		{
			ID: "4.ejercicio-4", Leccion: 4, Seccion: "ejercicio 4", Titulo: "Sin el laboratorio",
			Enunciado: "Detén el laboratorio (Ctrl+C en su terminal) y deja el revisor de la lección 4 corriendo. Predice qué responden estas peticiones y cuánto tarda la segunda. El servicio 5 dio 504 en 4.4.3: ¿sigue dando 504?",
			Preguntas: []Pregunta{
				{ID: "salud-1", Tipo: Codigo, Texto: "curl …/servicios/1/salud (lectura-a): ¿qué código?"},
				{ID: "salud-5", Tipo: Codigo, Texto: "curl …/servicios/5/salud (lectura-a): ¿qué código? (en 4.4.3 dio 504)"},
				{ID: "salud-5-lenta", Tipo: SiNo, Texto: "¿Tarda esa segunda petición un segundo o más (el límite del servicio 5)?"},
				{ID: "revision", Tipo: Codigo, Texto: "curl -X POST …/servicios/1/revisiones (escritura-a): ¿qué código?"},
				{ID: "estado", Tipo: Opcion, Opciones: []string{almacen.Arriba, almacen.Lento, almacen.Caido}, Texto: "sleep 2; curl …/revisiones/1: ¿con qué estado termina la revisión?"},
			},
			Correr: correrSinLaboratorio,
		},
	}
}

var versionesL4 = []string{"la de fig04_01", "la copia por servicio", "las dos", "ninguna"}

func explicarCulpa(codigo int) string {
	switch culpaDe(codigo) {
	case culpaNadie:
		return "no es un error: nadie tiene que arreglar nada"
	case culpaCliente:
		return "un 4xx dice que el cliente debe cambiar la petición"
	case culpaServicio:
		return "la pasarela (el revisor) no obtuvo una respuesta del servicio observado; lo arregla quien lo opera"
	}
	return "un 5xx del propio revisor: lo arregla quien lo opera"
}

var retryAfterValores = []string{`"120"`, `"1.5"`, `"-1"`, `"12 30"`, `"Xyz, 21 Oct 2026 10:00:00 GMT"`, `"Wed, 32 Oct 2026 10:00:00 GMT"`,
	"la fecha preferida (IMF-fixdate)", "la fecha de RFC 850", "la fecha de asctime"}

// correrRetryAfter runs «revisor retry-after --ejercicio 2» and reads its table.
func correrRetryAfter(_ context.Context, c Corrida) (map[string]Real, error) {
	c.decir("revisor retry-after --ejercicio 2")
	var out bytes.Buffer
	if retryafter.RetryAfterIngenuo(entorno.Entorno{Out: &out}, time.Local) != 0 {
		return nil, fmt.Errorf("retry-after --ejercicio 2 no terminó bien:\n%s", out.String())
	}
	lineas := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lineas) != len(retryAfterValores)+1 {
		return nil, fmt.Errorf("retry-after --ejercicio 2 dio %d líneas:\n%s", len(lineas), out.String())
	}
	r := map[string]Real{}
	for i, linea := range lineas[1:] {
		campos := strings.Fields(linea)
		ingenua, revisor := campos[len(campos)-2], campos[len(campos)-1]
		n := strconv.Itoa(i + 1)
		valor := strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(linea, revisor), " "))
		valor = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(valor), ingenua))
		valido := "sí"
		porque := "segundosDeEspera da " + revisor + " s para " + valor
		if revisor == "null" {
			valido = "no"
			porque = "segundosDeEspera da null para " + valor + ": ni delay-seconds (solo dígitos) ni una fecha HTTP (RFC 9110, §10.2.3); lección 4, §4.5.3"
		}
		r[n+"-valido"] = Real{valido, porque}
		r[n+"-date-parse"] = Real{ingenua, "segundosConDateParse da " + ingenua + " para " + valor + ": Date.parse acepta lo que la gramática no, y lee una fecha sin zona en la hora local"}
	}
	return r, nil
}

// enumerar is exercise 3's series on l: escritura-b over ids 1-10, escritura-a three times on 2,
// admin once.
func enumerar(ctx context.Context, c Corrida, l *Lab) (b, a []string, admin string, porque map[string]string, err error) {
	porque = map[string]string{}
	for id := 1; id <= 10; id++ {
		res, err := peticion{metodo: "POST", ruta: "/servicios/" + strconv.Itoa(id) + "/revisiones", credencial: "escritura-b"}.hacer(ctx, c, l)
		if err != nil {
			return nil, nil, "", nil, err
		}
		b = append(b, strconv.Itoa(res.Codigo))
		if _, ok := porque[strconv.Itoa(res.Codigo)]; !ok {
			porque[strconv.Itoa(res.Codigo)] = porRespuesta(res)
		}
	}
	for range 3 {
		res, err := peticion{metodo: "POST", ruta: "/servicios/2/revisiones", credencial: "escritura-a"}.hacer(ctx, c, l)
		if err != nil {
			return nil, nil, "", nil, err
		}
		a = append(a, strconv.Itoa(res.Codigo))
	}
	res, err := peticion{metodo: "POST", ruta: "/servicios/2/revisiones", credencial: "admin"}.hacer(ctx, c, l)
	if err != nil {
		return nil, nil, "", nil, err
	}
	porque["admin"] = porRespuesta(res)
	return b, a, strconv.Itoa(res.Codigo), porque, nil
}

func respuestasEnumerador(b, a []string, admin string, porque map[string]string, version string) map[string]Real {
	var motivos []string
	vistos := map[string]bool{}
	for _, cod := range b {
		if !vistos[cod] {
			vistos[cod] = true
			motivos = append(motivos, porque[cod])
		}
	}
	return map[string]Real{
		"escritura-b": {strings.Join(b, " "), version + ": " + strings.Join(motivos, "; ") + " (el límite de 3 por minuto: lección 4, §4.6)"},
		"escritura-a": {strings.Join(a, " "), version + ": escritura-a tiene su propia ventana de 3 por minuto"},
		"admin":       {admin, version + ": " + porque["admin"]},
	}
}

func correrEnumerador(ctx context.Context, c Corrida, pedido variantes.Pedido) (map[string]Real, error) {
	return conLab(OpcionesLab{Pedido: pedido}, func(l *Lab) (map[string]Real, error) {
		b, a, admin, porque, err := enumerar(ctx, c, l)
		if err != nil {
			return nil, err
		}
		return respuestasEnumerador(b, a, admin, porque, "con fig04_01 (por credencial, antes de encontrar)"), nil
	})
}

// correrPorServicio runs the series on the per-service copy, and on fig04_01 to compare them.
func correrPorServicio(ctx context.Context, c Corrida) (map[string]Real, error) {
	var original, copia map[string]Real
	var err error
	if original, err = correrEnumerador(ctx, c, leccion4Pedido); err != nil {
		return nil, err
	}
	copia, err = conLab(OpcionesLab{Pedido: variantes.Pedido{Leccion: 4, LeccionDada: true, Ejercicio: 3, EjercicioDado: true}}, func(l *Lab) (map[string]Real, error) {
		b, a, admin, porque, err := enumerar(ctx, c, l)
		if err != nil {
			return nil, err
		}
		return respuestasEnumerador(b, a, admin, porque, "con la copia (por servicio, después de encontrar)"), nil
	})
	if err != nil {
		return nil, err
	}
	cual := func(pregunta string, si func(Real) bool) Real {
		o, cp := si(original[pregunta]), si(copia[pregunta])
		v := versionesL4[3]
		switch {
		case o && cp:
			v = versionesL4[2]
		case o:
			v = versionesL4[0]
		case cp:
			v = versionesL4[1]
		}
		return Real{v, fmt.Sprintf("%s recibe %s con fig04_01 y %s con la copia", pregunta, original[pregunta].Valor, copia[pregunta].Valor)}
	}
	hay429 := func(r Real) bool { return strings.Contains(" "+r.Valor+" ", " 429 ") }
	copia["detiene"] = cual("escritura-b", hay429)
	copia["castiga"] = cual("admin", hay429)
	return copia, nil
}

func correrSinLaboratorio(ctx context.Context, c Corrida) (map[string]Real, error) {
	return conLab(OpcionesLab{Pedido: leccion4Pedido}, func(l *Lab) (map[string]Real, error) {
		c.decir("Ctrl+C en el laboratorio")
		l.PararLaboratorio()
		r := map[string]Real{}
		res, err := peticion{metodo: "GET", ruta: "/servicios/1/salud", credencial: "lectura-a"}.hacer(ctx, c, l)
		if err != nil {
			return nil, err
		}
		r["salud-1"] = Real{strconv.Itoa(res.Codigo), porRespuesta(res)}
		inicio := time.Now()
		res, err = peticion{metodo: "GET", ruta: "/servicios/5/salud", credencial: "lectura-a"}.hacer(ctx, c, l)
		if err != nil {
			return nil, err
		}
		tardo := time.Since(inicio)
		porque := porRespuesta(res)
		if res.Codigo == 502 {
			porque += ": nadie acepta la conexión, así que no hay 504 (que pide alguien que acepte y no conteste; lección 4, §4.4.4)"
		}
		r["salud-5"] = Real{strconv.Itoa(res.Codigo), porque}
		lenta, porque := "no", fmt.Sprintf("tardó %.3f s", tardo.Seconds())
		if tardo >= time.Second {
			lenta = "sí"
		} else if res.Codigo == 502 {
			porque += ": la conexión rechazada termina el intento al instante, sin esperar el límite"
		}
		r["salud-5-lenta"] = Real{lenta, porque}
		res, err = peticion{metodo: "POST", ruta: "/servicios/1/revisiones", credencial: "escritura-a"}.hacer(ctx, c, l)
		if err != nil {
			return nil, err
		}
		porque = porRespuesta(res)
		if res.Codigo == 202 {
			porque += ": la revisión se acepta y se hace después, con el laboratorio o sin él"
		}
		r["revision"] = Real{strconv.Itoa(res.Codigo), porque}
		c.decir("sleep 2")
		if err := c.dormir(ctx, 2*time.Second); err != nil {
			return nil, err
		}
		res, err = peticion{metodo: "GET", ruta: "/revisiones/1", credencial: "lectura-a"}.hacer(ctx, c, l)
		if err != nil {
			return nil, err
		}
		var rev struct {
			Estado    string `json:"estado"`
			Resultado *struct {
				Estado  string `json:"estado"`
				Detalle string `json:"detalle"`
			} `json:"resultado"`
		}
		if err := json.Unmarshal(res.Cuerpo, &rev); err != nil || rev.Resultado == nil {
			return nil, fmt.Errorf("la revisión 1 no terminó (%d): %s", res.Codigo, res.Cuerpo)
		}
		r["estado"] = Real{rev.Resultado.Estado, "la revisión terminó " + rev.Resultado.Estado + " con «detalle»: «" + rev.Resultado.Detalle + "» (lección 4, ejercicio 4 y su solución)"}
		return r, nil
	})
}
