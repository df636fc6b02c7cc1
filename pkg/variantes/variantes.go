// Package variantes is the one list of the course's programs that are not a lesson's main program:
// the lessons' own versions of a server (--leccion), the broken versions each lesson runs in «El
// error que vas a ver» (--defecto NOMBRE, named as the course's defectos/ folders) and the exercise
// solutions that change a program (--ejercicio N). Commands declare their flags, build their help
// and print the warning of a broken version from it, so adding a variant is one entry here plus the
// behaviour in the program that carries it.
package variantes

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Programa is the command that carries a variant, as its command path reads ("revisor",
// "revisor retry-after", "alta-segura").
type Programa string

// The programs that carry variants today.
const (
	Revisor               Programa = "revisor"
	Laboratorio           Programa = "laboratorio"
	RevisorRetryAfter     Programa = "revisor retry-after"
	RevisorSincronizar    Programa = "revisor sincronizar"
	RevisorComprobarTabla Programa = "revisor comprobar tabla"
	RevisorDecidir        Programa = "revisor decidir"
	AltaSegura            Programa = "alta-segura"
	LeccionPorOmision              = 7
	VariableLeccion                = "CURSO_LECCION"
	descripcionDefecto             = "versión rota a propósito"
)

// The broken versions, by the name of the course's folder.
const (
	Pila            = "pila"              // Lesson 4, Series I
	SinPasarela     = "sin-pasarela"      // Lesson 4, Series J
	LlavePorIntento = "llave-por-intento" // Lesson 6, Series K
	SinHuella       = "sin-huella"        // Lesson 6, Series L
	LlavesEnMemoria = "llaves-en-memoria" // Lesson 6, §6.7.4 (S-G12's limit, described, not run)
	LeeLaFrase      = "lee-la-frase"      // Lesson 7, S15
	SinHasOwn       = "sin-hasown"        // Lesson 7, S16
)

// Tipo tells a broken version from an exercise's solution.
type Tipo int

const (
	Defecto Tipo = iota + 1
	Ejercicio
)

// Variante is one program of the course that is not a lesson's main program.
type Variante struct {
	Tipo     Tipo
	Nombre   string // --defecto's value; empty for an exercise
	Numero   int    // --ejercicio's value; 0 for a broken version
	Programa Programa
	Leccion  int
	// Seccion is where the lesson runs it, as a student looks for it.
	Seccion string
	// Carpeta is the course's folder or file holding its code.
	Carpeta string
	// Descripcion says in one line what it does differently.
	Descripcion string
	// Rota: it is not the course's program and must not pass for it, so it warns on its first line
	// every time it starts. Every broken version is; an exercise's solution may be.
	Rota bool
}

// Catalogo lists every variant, in the lessons' order.
var Catalogo = []Variante{
	{Tipo: Defecto, Nombre: Pila, Programa: Revisor, Leccion: 4,
		Seccion: "§4.7, la pila que viaja, serie I", Carpeta: "defectos/pila/servidor.ts",
		Descripcion: "el 500 lleva la pila entera en el cuerpo y la terminal solo «error en GET …», sin referencia", Rota: true},
	{Tipo: Defecto, Nombre: SinPasarela, Programa: Revisor, Leccion: 4,
		Seccion: "§4.7, todo es 500, serie J", Carpeta: "defectos/sin-pasarela/servicios.ts",
		Descripcion: "salud consulta directo y no clasifica: un servicio lento o que responde basura da 500, no 504 ni 502", Rota: true},
	{Tipo: Ejercicio, Numero: 2, Programa: RevisorRetryAfter, Leccion: 4,
		Seccion: "ejercicio 2, serie L", Carpeta: "ejercicios/ej2.ts",
		Descripcion: "nueve valores de Retry-After: una lectura ingenua, como Date.parse, contra la del revisor"},
	{Tipo: Ejercicio, Numero: 3, Programa: Revisor, Leccion: 4,
		Seccion: "ejercicio 3, serie M", Carpeta: "ejercicios/ej3/servicios.ts",
		Descripcion: "el límite de revisiones por servicio y después de buscarlo: no para al enumerador y castiga a admin", Rota: true},
	{Tipo: Defecto, Nombre: LlavePorIntento, Programa: AltaSegura, Leccion: 6,
		Seccion: "la llave que cambia en cada intento, serie K", Carpeta: "defectos/llave-por-intento/alta-segura.ts",
		Descripcion: "inventa una llave en cada intento, no una por intención: cuatro 502 por la pasarela aunque el alta se hizo", Rota: true},
	{Tipo: Defecto, Nombre: SinHuella, Programa: Revisor, Leccion: 6,
		Seccion: "la huella que nadie compara, serie L", Carpeta: "defectos/sin-huella/idempotencia.ts",
		Descripcion: "guarda la Idempotency-Key sin la huella del cuerpo: otro cuerpo con la misma llave recibe el 201 del primero y no se crea nada", Rota: true},
	{Tipo: Defecto, Nombre: LlavesEnMemoria, Programa: Revisor, Leccion: 6,
		Seccion: "§6.7.4, el reinicio que olvida las llaves", Carpeta: "ninguna: la lección lo describe sin correrlo (S-G12)",
		Descripcion: "con --datos, los servicios quedan en la base y las llaves en memoria, en dos pasos: tras reiniciar, un reintento con la misma llave ya no se reconoce", Rota: true},
	{Tipo: Defecto, Nombre: LeeLaFrase, Programa: RevisorSincronizar, Leccion: 7,
		Seccion: "la frase que se mueve, S15", Carpeta: "defectos/lee-la-frase/fig07_02.ts",
		Descripcion: "decide leyendo la frase del detail, no el type ni el código: tres de las ocho decisiones cambian", Rota: true},
	{Tipo: Defecto, Nombre: SinHasOwn, Programa: RevisorComprobarTabla, Leccion: 7,
		Seccion: "un type llamado constructor, S16", Carpeta: "defectos/sin-hasown/decisiones.ts",
		Descripcion: "imita un tropiezo de JavaScript: la tabla busca el type sin Object.hasOwn, y un type «constructor» encuentra una función heredada de Object.prototype en vez de una decisión", Rota: true},
	{Tipo: Ejercicio, Numero: 2, Programa: RevisorDecidir, Leccion: 7,
		Seccion: "ejercicio 2, S17", Carpeta: "ejercicios/ej2/decisiones.ts",
		Descripcion: "la tabla con una fila más: el 413 es corregir, «el cuerpo pasa del tope: manda menos»"},
	{Tipo: Ejercicio, Numero: 3, Programa: Revisor, Leccion: 7,
		Seccion: "ejercicio 3, S18", Carpeta: "ejercicios/ej3/servicios.ts",
		Descripcion: "el detail del 409 nombre-repetido en inglés («a service named X already exists»): el guion que decide con la tabla no cambia, el que lee la frase sí"},
}

// Version is one lesson's own program of a server, for --leccion.
type Version struct {
	Programa    Programa
	Lecciones   []int // the lessons that run this same program
	Figura      string
	Descripcion string
}

// Versiones are the lessons' programs of the servers that change between lessons. A program
// listed here takes --leccion; the last version of each is its default.
var Versiones = []Version{
	{Programa: Revisor, Lecciones: []int{4}, Figura: "fig04_01",
		Descripcion: "los errores en una línea de texto; sin Idempotency-Key ni pausa al guardar; revisiones sin reintentos"},
	{Programa: Revisor, Lecciones: []int{6, 7}, Figura: "fig06_01, fig07_01",
		Descripcion: "el revisor final: errores en Problem Details, Idempotency-Key, revisiones con reintentos"},
	// The bench did not change after Lesson 4: the flag is there so each lesson's commands read alike.
	{Programa: Laboratorio, Lecciones: []int{4}, Figura: "fig04_01/laboratorio.ts",
		Descripcion: "el mismo banco que el de las lecciones 6 y 7"},
	{Programa: Laboratorio, Lecciones: []int{6, 7}, Figura: "fig07_01/laboratorio.ts",
		Descripcion: "el banco con /lento, /cortar y /basura"},
}

// Lecciones returns the lessons p has a program of, in order, or nil if it takes no --leccion.
func Lecciones(p Programa) []int {
	var ls []int
	for _, v := range Versiones {
		if v.Programa == p {
			ls = append(ls, v.Lecciones...)
		}
	}
	return ls
}

// De returns p's variants of one type, in the catalogue's order.
func De(p Programa, t Tipo) []Variante {
	var vs []Variante
	for _, v := range Catalogo {
		if v.Programa == p && v.Tipo == t {
			vs = append(vs, v)
		}
	}
	return vs
}

// Eleccion is what a command line chose: a lesson's program and at most one variant of it. The zero
// value is the final program (Lesson 7's, which Lesson 6's equals).
type Eleccion struct {
	Leccion  int       // 4, 6 or 7; 0 is 7
	Variante *Variante // nil: the lesson's own program
}

// EnLeccion4 tells whether the program is Lesson 4's (a variant of it included).
func (e Eleccion) EnLeccion4() bool { return e.Leccion == 4 }

// EsDefecto tells whether e is the broken version nombre.
func (e Eleccion) EsDefecto(nombre string) bool {
	return e.Variante != nil && e.Variante.Tipo == Defecto && e.Variante.Nombre == nombre
}

// EsEjercicio tells whether e is the solution of exercise numero of leccion.
func (e Eleccion) EsEjercicio(leccion, numero int) bool {
	return e.Variante != nil && e.Variante.Tipo == Ejercicio && e.Variante.Leccion == leccion && e.Variante.Numero == numero
}

// Opcion is how a command line asks for v: "--defecto pila", "--leccion 4 --ejercicio 3".
func (v Variante) Opcion() string {
	if v.Tipo == Defecto {
		return "--defecto " + v.Nombre
	}
	o := "--ejercicio " + strconv.Itoa(v.Numero)
	if len(Lecciones(v.Programa)) > 0 {
		o = "--leccion " + strconv.Itoa(v.Leccion) + " " + o
	}
	return o
}

// Aviso is the line a variant that is not the course's program prints first, on stderr, every time
// it starts; "" for the lesson's own program and for solutions that are not broken.
func (e Eleccion) Aviso() string {
	v := e.Variante
	if v == nil || !v.Rota {
		return ""
	}
	que := descripcionDefecto
	if v.Tipo == Ejercicio {
		que = "variante rota a propósito"
	}
	return fmt.Sprintf("AVISO: «%s %s» es una %s, la de la lección %d (%s): %s. No es el programa del curso.",
		v.Programa, v.Opcion(), que, v.Leccion, v.Seccion, v.Descripcion)
}

// Ayuda is the part of p's --help that lists its versions and variants, grouped and wrapped like
// the rest of the help; "" if it has none.
func Ayuda(p Programa) string {
	type fila struct{ opcion, texto string }
	var grupos [3][]fila
	for _, v := range Versiones {
		if v.Programa != p {
			continue
		}
		nums := make([]string, len(v.Lecciones))
		for i, l := range v.Lecciones {
			nums[i] = strconv.Itoa(l)
		}
		quien := "lección " + nums[0]
		if len(nums) > 1 {
			quien = "lecciones " + lista(v.Lecciones)
		}
		grupos[0] = append(grupos[0], fila{"--leccion " + strings.Join(nums, "|"), quien + " (" + v.Figura + "): " + v.Descripcion})
	}
	for _, v := range Catalogo {
		if v.Programa != p {
			continue
		}
		g := 1
		if v.Tipo == Ejercicio {
			g = 2
		}
		texto := fmt.Sprintf("lección %d, %s: %s", v.Leccion, v.Seccion, v.Descripcion)
		if v.Tipo == Ejercicio && v.Rota {
			texto += " (rota a propósito: arranca con un aviso)"
		}
		grupos[g] = append(grupos[g], fila{v.Opcion(), texto})
	}
	titulos := [3]string{
		"Versiones del curso (sin --leccion, la de la lección %d; " + VariableLeccion + "=N la elige también):",
		"Versiones rotas a propósito, de «El error que vas a ver» (arrancan con un aviso):",
		"Soluciones de ejercicios que cambian el programa:",
	}
	ancho := 0
	for _, g := range grupos {
		for _, f := range g {
			ancho = max(ancho, len([]rune(f.opcion)))
		}
	}
	var b strings.Builder
	for i, g := range grupos {
		if len(g) == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		titulo := titulos[i]
		if i == 0 {
			ls := Lecciones(p)
			titulo = fmt.Sprintf(titulo, ls[len(ls)-1])
		}
		b.WriteString(titulo + "\n")
		for _, f := range g {
			for k, linea := range partir(f.texto, anchoAyuda-4-ancho) {
				opcion := ""
				if k == 0 {
					opcion = f.opcion
				}
				fmt.Fprintf(&b, "  %-*s  %s\n", ancho, opcion, linea)
			}
		}
	}
	return b.String()
}

// anchoAyuda is the width the help's lines keep to.
const anchoAyuda = 100

// partir breaks texto into lines of at most ancho characters, at spaces.
func partir(texto string, ancho int) []string {
	var lineas []string
	linea := ""
	for _, palabra := range strings.Fields(texto) {
		if linea != "" && len([]rune(linea))+1+len([]rune(palabra)) > ancho {
			lineas = append(lineas, linea)
			linea = ""
		}
		if linea != "" {
			linea += " "
		}
		linea += palabra
	}
	return append(lineas, linea)
}

// Pedido is what the command line said, before Resolver checks it against the catalogue.
type Pedido struct {
	Leccion       int  // --leccion's value
	LeccionDada   bool // --leccion was given
	Defecto       string
	Ejercicio     int
	EjercicioDado bool
	// Entorno reads CURSO_LECCION, the default lesson when --leccion is not given; nil reads nothing.
	Entorno func(string) (string, bool)
}

// Resolver checks pedido for p and returns the chosen program. A broken version implies its
// lesson's program (an explicit --leccion that contradicts it is an error; CURSO_LECCION gives way
// to it). An exercise is looked up among those of the lesson in force, since two lessons may number
// an exercise alike. Errors are one Spanish sentence, without the command's name.
func Resolver(p Programa, pedido Pedido) (Eleccion, error) {
	lecciones := Lecciones(p)
	leccion, origen := 0, ""
	switch {
	case pedido.LeccionDada:
		leccion, origen = pedido.Leccion, "--leccion"
	case len(lecciones) > 0 && pedido.Entorno != nil:
		if texto, hay := pedido.Entorno(VariableLeccion); hay && texto != "" {
			n, err := strconv.Atoi(strings.TrimSpace(texto))
			if err != nil {
				n = -1
			}
			leccion, origen = n, VariableLeccion
		}
	}
	if origen != "" && !slices.Contains(lecciones, leccion) {
		return Eleccion{}, fmt.Errorf("%s: «%s» tiene versiones de las lecciones %s, no de «%s»", origen, p, lista(lecciones), valorDe(origen, leccion, pedido))
	}
	if pedido.Defecto != "" && pedido.EjercicioDado {
		return Eleccion{}, fmt.Errorf("--defecto y --ejercicio no van juntos: cada uno es otro programa")
	}
	switch {
	case pedido.Defecto != "":
		i := slices.IndexFunc(Catalogo, func(v Variante) bool {
			return v.Programa == p && v.Tipo == Defecto && v.Nombre == pedido.Defecto
		})
		if i < 0 {
			return Eleccion{}, fmt.Errorf("--defecto: «%s» no tiene la versión rota «%s»; las que hay: %s", p, pedido.Defecto, nombres(De(p, Defecto)))
		}
		v := &Catalogo[i]
		if origen == "--leccion" && !mismoPrograma(p, leccion, v.Leccion) {
			return Eleccion{}, fmt.Errorf("--defecto %s es una versión rota del programa de la lección %d, no de la %d", v.Nombre, v.Leccion, leccion)
		}
		return Eleccion{Leccion: v.Leccion, Variante: v}, nil
	case pedido.EjercicioDado:
		en := leccion
		if en == 0 && len(lecciones) > 0 {
			en = lecciones[len(lecciones)-1]
		}
		var candidatos []*Variante
		for i, v := range Catalogo {
			if v.Programa == p && v.Tipo == Ejercicio && v.Numero == pedido.Ejercicio {
				candidatos = append(candidatos, &Catalogo[i])
			}
		}
		if origen == "" && len(candidatos) > 1 && !mismoPrograma(p, candidatos[0].Leccion, candidatos[len(candidatos)-1].Leccion) {
			// Two lessons number an exercise alike: without a lesson said, a student of one would
			// silently get the other's.
			return Eleccion{}, ambiguo(p, pedido.Ejercicio, candidatos)
		}
		for _, v := range candidatos {
			if en == 0 || mismoPrograma(p, en, v.Leccion) {
				return Eleccion{Leccion: v.Leccion, Variante: v}, nil
			}
		}
		hay := De(p, Ejercicio)
		if len(hay) == 0 {
			return Eleccion{}, fmt.Errorf("--ejercicio: ninguna solución de ejercicio cambia «%s»", p)
		}
		donde := ""
		if en != 0 {
			donde = " de la lección " + strconv.Itoa(en)
		}
		return Eleccion{}, fmt.Errorf("--ejercicio: no hay un ejercicio %d%s que cambie «%s»; los que hay: %s", pedido.Ejercicio, donde, p, opciones(hay))
	}
	if leccion == 0 && len(lecciones) > 0 {
		leccion = lecciones[len(lecciones)-1]
	}
	return Eleccion{Leccion: leccion}, nil
}

// ambiguo is the error for an exercise number that two lessons' programs of p have.
func ambiguo(p Programa, numero int, candidatos []*Variante) error {
	var de, elegir []string
	for _, v := range candidatos {
		donde := "la lección " + strconv.Itoa(v.Leccion)
		if _, sec, ok := strings.Cut(v.Seccion, ", "); ok {
			donde += " (" + sec + ")"
		}
		de = append(de, donde)
		elegir = append(elegir, "--leccion "+strconv.Itoa(v.Leccion)+" --ejercicio "+strconv.Itoa(numero))
	}
	return fmt.Errorf("--ejercicio %d sin --leccion es ambiguo: «%s» tiene el de %s; di cuál: %s",
		numero, p, strings.Join(de, " y el de "), strings.Join(elegir, " o "))
}

// mismoPrograma tells whether lessons a and b run the same program of p (6 and 7 do).
func mismoPrograma(p Programa, a, b int) bool {
	if a == b {
		return true
	}
	for _, v := range Versiones {
		if v.Programa == p && slices.Contains(v.Lecciones, a) && slices.Contains(v.Lecciones, b) {
			return true
		}
	}
	return false
}

func valorDe(origen string, leccion int, pedido Pedido) string {
	if origen == VariableLeccion && pedido.Entorno != nil {
		texto, _ := pedido.Entorno(VariableLeccion)
		return texto
	}
	return strconv.Itoa(leccion)
}

func lista(ns []int) string {
	t := make([]string, len(ns))
	for i, n := range ns {
		t[i] = strconv.Itoa(n)
	}
	if len(t) < 2 {
		return strings.Join(t, "")
	}
	return strings.Join(t[:len(t)-1], ", ") + " y " + t[len(t)-1]
}

func nombres(vs []Variante) string {
	if len(vs) == 0 {
		return "ninguna"
	}
	t := make([]string, len(vs))
	for i, v := range vs {
		t[i] = v.Nombre
	}
	return strings.Join(t, ", ")
}

func opciones(vs []Variante) string {
	t := make([]string, len(vs))
	for i, v := range vs {
		t[i] = v.Opcion()
	}
	return strings.Join(t, "; ")
}

func itoa(n int) string { return strconv.Itoa(n) }
