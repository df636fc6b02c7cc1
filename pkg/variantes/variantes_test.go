package variantes

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func entorno(v string) func(string) (string, bool) {
	return func(n string) (string, bool) {
		if n == VariableLeccion {
			return v, true
		}
		return "", false
	}
}

// What each command line starts, and the one sentence a wrong one gets.
func TestResolver(t *testing.T) {
	t.Parallel()
	casos := []struct {
		nombre  string
		p       Programa
		pedido  Pedido
		leccion int
		quien   string // Opcion of the variant, "" for the lesson's program
		err     string
	}{
		{"sin opciones", Revisor, Pedido{}, 7, "", ""},
		{"lección 4", Revisor, Pedido{Leccion: 4, LeccionDada: true}, 4, "", ""},
		{"lección 6 es la final", Revisor, Pedido{Leccion: 6, LeccionDada: true}, 6, "", ""},
		{"lección 5 no existe", Revisor, Pedido{Leccion: 5, LeccionDada: true}, 0, "", "--leccion: «revisor» tiene versiones de las lecciones 4, 6 y 7, no de «5»"},
		{"la variable elige", Revisor, Pedido{Entorno: entorno("4")}, 4, "", ""},
		{"la variable vacía no dice nada", Revisor, Pedido{Entorno: entorno("")}, 7, "", ""},
		{"la variable mal", Revisor, Pedido{Entorno: entorno("cuatro")}, 0, "", "CURSO_LECCION: «revisor» tiene versiones de las lecciones 4, 6 y 7, no de «cuatro»"},
		{"la opción gana a la variable", Revisor, Pedido{Leccion: 7, LeccionDada: true, Entorno: entorno("4")}, 7, "", ""},
		{"un defecto implica su lección", Revisor, Pedido{Defecto: Pila}, 4, "--defecto pila", ""},
		{"y gana a la variable", Revisor, Pedido{Defecto: SinPasarela, Entorno: entorno("7")}, 4, "--defecto sin-pasarela", ""},
		{"con su lección dicha", Revisor, Pedido{Defecto: Pila, Leccion: 4, LeccionDada: true}, 4, "--defecto pila", ""},
		{"con otra lección dicha", Revisor, Pedido{Defecto: Pila, Leccion: 7, LeccionDada: true}, 0, "", "--defecto pila es una versión rota del programa de la lección 4, no de la 7"},
		{"defecto desconocido", Revisor, Pedido{Defecto: "otro"}, 0, "", "--defecto: «revisor» no tiene la versión rota «otro»; las que hay: pila, sin-pasarela, sin-huella, llaves-en-memoria"},
		{"un defecto de la lección 6", Revisor, Pedido{Defecto: SinHuella}, 6, "--defecto sin-huella", ""},
		{"en el programa de la 7, que es el mismo", Revisor, Pedido{Defecto: SinHuella, Leccion: 7, LeccionDada: true}, 6, "--defecto sin-huella", ""},
		{"pero no en el de la 4", Revisor, Pedido{Defecto: SinHuella, Leccion: 4, LeccionDada: true}, 0, "", "--defecto sin-huella es una versión rota del programa de la lección 6, no de la 4"},
		{"el defecto de un cliente", AltaSegura, Pedido{Defecto: LlavePorIntento}, 6, "--defecto llave-por-intento", ""},
		{"el defecto de otro programa", AltaSegura, Pedido{Defecto: SinHuella}, 0, "", "--defecto: «alta-segura» no tiene la versión rota «sin-huella»; las que hay: llave-por-intento"},
		{"el defecto de una orden", RevisorComprobarTabla, Pedido{Defecto: SinHasOwn}, 7, "--defecto sin-hasown", ""},
		{"ejercicio en su lección", Revisor, Pedido{Leccion: 4, LeccionDada: true, Ejercicio: 3, EjercicioDado: true}, 4, "--leccion 4 --ejercicio 3", ""},
		{"ejercicio con la variable", Revisor, Pedido{Ejercicio: 3, EjercicioDado: true, Entorno: entorno("4")}, 4, "--leccion 4 --ejercicio 3", ""},
		{"el mismo número en dos lecciones, sin decir cuál", Revisor, Pedido{Ejercicio: 3, EjercicioDado: true}, 0, "",
			"--ejercicio 3 sin --leccion es ambiguo: «revisor» tiene el de la lección 4 (serie M) y el de la lección 7 (S18); di cuál: --leccion 4 --ejercicio 3 o --leccion 7 --ejercicio 3"},
		{"la lección 7 dicha", Revisor, Pedido{Leccion: 7, LeccionDada: true, Ejercicio: 3, EjercicioDado: true}, 7, "--leccion 7 --ejercicio 3", ""},
		{"y en la 6, que es el mismo programa", Revisor, Pedido{Leccion: 6, LeccionDada: true, Ejercicio: 3, EjercicioDado: true}, 7, "--leccion 7 --ejercicio 3", ""},
		{"la variable elige entre los dos", Revisor, Pedido{Ejercicio: 3, EjercicioDado: true, Entorno: entorno("4")}, 4, "--leccion 4 --ejercicio 3", ""},
		{"ejercicio que no cambia el programa", Revisor, Pedido{Ejercicio: 1, EjercicioDado: true}, 0, "", "--ejercicio: no hay un ejercicio 1 de la lección 7 que cambie «revisor»; los que hay: --leccion 4 --ejercicio 3; --leccion 7 --ejercicio 3"},
		{"ejercicio de otra lección", Revisor, Pedido{Leccion: 4, LeccionDada: true, Ejercicio: 2, EjercicioDado: true}, 0, "", "--ejercicio: no hay un ejercicio 2 de la lección 4 que cambie «revisor»; los que hay: --leccion 4 --ejercicio 3; --leccion 7 --ejercicio 3"},
		{"defecto y ejercicio", Revisor, Pedido{Defecto: Pila, Ejercicio: 3, EjercicioDado: true}, 0, "", "--defecto y --ejercicio no van juntos: cada uno es otro programa"},
		{"cliente con ejercicio", RevisorRetryAfter, Pedido{Ejercicio: 2, EjercicioDado: true}, 4, "--ejercicio 2", ""},
		{"cliente sin ese ejercicio", RevisorRetryAfter, Pedido{Ejercicio: 3, EjercicioDado: true}, 0, "", "--ejercicio: no hay un ejercicio 3 que cambie «revisor retry-after»; los que hay: --ejercicio 2"},
		{"el laboratorio de la lección 4", Laboratorio, Pedido{Leccion: 4, LeccionDada: true}, 4, "", ""},
	}
	for _, c := range casos {
		e, err := Resolver(c.p, c.pedido)
		msg := ""
		if err != nil {
			msg = err.Error()
		}
		quien := ""
		if e.Variante != nil {
			quien = e.Variante.Opcion()
		}
		if msg != c.err || (err == nil && (e.Leccion != c.leccion || quien != c.quien)) {
			t.Errorf("%s: %+v %q %q; se esperaba %d %q %q", c.nombre, e, quien, msg, c.leccion, c.quien, c.err)
		}
	}
}

// A broken version announces itself; the lesson's own programs and a solution that is not broken
// do not.
func TestAviso(t *testing.T) {
	t.Parallel()
	for _, v := range Catalogo {
		e, err := Resolver(v.Programa, Pedido{Defecto: v.Nombre, Ejercicio: v.Numero, EjercicioDado: v.Tipo == Ejercicio,
			Leccion: v.Leccion, LeccionDada: len(Lecciones(v.Programa)) > 0})
		if err != nil {
			t.Fatalf("%s: %v", v.Opcion(), err)
		}
		aviso := e.Aviso()
		if !v.Rota {
			if aviso != "" {
				t.Errorf("%s avisa %q", v.Opcion(), aviso)
			}
			continue
		}
		if !strings.HasPrefix(aviso, "AVISO: «"+string(v.Programa)+" "+v.Opcion()+"» es una ") || !strings.Contains(aviso, v.Seccion) ||
			strings.Contains(aviso, "\n") {
			t.Errorf("%s: aviso %q", v.Opcion(), aviso)
		}
	}
	if a := (Eleccion{Leccion: 4}).Aviso(); a != "" {
		t.Errorf("la lección 4 avisa %q", a)
	}
}

// The help lists every variant of the program with its lesson and section, within the width.
func TestAyuda(t *testing.T) {
	t.Parallel()
	for _, p := range []Programa{Revisor, Laboratorio, RevisorRetryAfter, RevisorSincronizar, RevisorComprobarTabla, RevisorDecidir, AltaSegura} {
		ayuda := Ayuda(p)
		plano := strings.Join(strings.Fields(ayuda), " ")
		for _, v := range Catalogo {
			if v.Programa != p {
				continue
			}
			for _, s := range []string{v.Opcion(), "lección " + itoa(v.Leccion) + ", " + v.Seccion} {
				if !strings.Contains(plano, s) {
					t.Errorf("%s: la ayuda no dice %q:\n%s", p, s, ayuda)
				}
			}
		}
		for _, l := range strings.Split(ayuda, "\n") {
			if n := len([]rune(l)); n > anchoAyuda {
				t.Errorf("%s: línea de %d caracteres: %q", p, n, l)
			}
		}
	}
	if Ayuda("pasarela") != "" {
		t.Error("un programa sin versiones tiene ayuda de versiones")
	}
}

// Every entry is complete and every name is used once per program.
func TestCatalogo(t *testing.T) {
	t.Parallel()
	vistos := map[string]bool{}
	for _, v := range Catalogo {
		clave := string(v.Programa) + " " + v.Opcion()
		if vistos[clave] {
			t.Errorf("%s dos veces", clave)
		}
		vistos[clave] = true
		if v.Seccion == "" || v.Carpeta == "" || v.Descripcion == "" || v.Leccion == 0 || (v.Tipo == Defecto) != (v.Nombre != "") ||
			(v.Tipo == Ejercicio) != (v.Numero > 0) || (v.Tipo == Defecto && !v.Rota) {
			t.Errorf("entrada incompleta: %+v", v)
		}
		if ls := Lecciones(v.Programa); len(ls) > 0 && !strings.Contains(" "+lista(ls)+" ", " "+itoa(v.Leccion)) {
			t.Errorf("%s: lección %d sin versión del programa", clave, v.Leccion)
		}
	}
}

// Every broken version and exercise of the catalogue is offered on Tab by the program that carries
// it, and a command finds its program from its path.
func TestValoresCompletanElCatalogo(t *testing.T) {
	t.Parallel()
	for _, v := range Catalogo {
		var vs []Valor
		texto := v.Nombre
		if v.Tipo == Defecto {
			vs = ValoresDefecto(v.Programa)
		} else {
			vs, texto = ValoresEjercicio(v.Programa, v.Leccion), strconv.Itoa(v.Numero)
		}
		want := Valor{texto, fmt.Sprintf("lección %d, %s", v.Leccion, v.Seccion)}
		if !slices.Contains(vs, want) {
			t.Errorf("%s %s: no se ofrece %+v en %+v", v.Programa, v.Opcion(), want, vs)
		}
	}
	for ruta, want := range map[string]Programa{"revisor": Revisor, "revisor servir": Revisor, "revisor retry-after": RevisorRetryAfter, "alta-segura": AltaSegura} {
		if p, ok := ProgramaDe(ruta); !ok || p != want {
			t.Errorf("ProgramaDe(%q) = %q, %v; se esperaba %q", ruta, p, ok, want)
		}
	}
	if p, ok := ProgramaDe("pasarela"); ok {
		t.Errorf("ProgramaDe(pasarela) = %q: no tiene variantes", p)
	}
}
