package main

import (
	"io"
	"strings"
	"testing"

	"cursohttp/internal/prueba"
	"cursohttp/pkg/cli"
	"cursohttp/pkg/ordenes/entorno"
	"cursohttp/pkg/servidor"
)

func TestUsoIncorrecto(t *testing.T) {
	t.Parallel()
	prueba.UsosIncorrectos(t, run, map[string]string{
		"--x":                         "revisor: no existe la opción --x; «revisor --help» muestra las opciones\n",
		"servir -x":                   "revisor servir: no existe la opción -x; «revisor servir --help» muestra las opciones\n",
		"--puerto":                    "revisor: la opción --puerto necesita un valor; «revisor --help» muestra las opciones\n",
		"--puerto abc":                "revisor: la opción --puerto espera un número entero, no «abc»; «revisor --help» muestra las opciones\n",
		"--puerto 70000":              "revisor: --puerto va de 0 a 65535 (0: uno libre), no 70000\n",
		"servir --puerto=-1":          "revisor servir: --puerto va de 0 a 65535 (0: uno libre), no -1\n",
		"--log-json=tal":              "revisor: la opción --log-json espera true o false, no «tal»; «revisor --help» muestra las opciones\n",
		"--vigencia-llaves 0s":        "revisor: la opción --vigencia-llaves no acepta «0s»: se espera una duración positiva (24h, 5s, 1500ms); «revisor --help» muestra las opciones\n",
		"--limitador cubo --puerto 0": "revisor: --limitador: algoritmo desconocido «cubo»: usa ventana, deslizante o cubeta\n",
		"servir --destinos laboratorio:18081 --puerto 0": "revisor servir: destinos permitidos que no son ip:puerto: «laboratorio:18081»\n",
		"--leccion 5 --puerto 0":                         "revisor: --leccion: «revisor» tiene versiones de las lecciones 4, 6 y 7, no de «5»\n",
		"--leccion 7 --defecto pila":                     "revisor: --defecto pila es una versión rota del programa de la lección 4, no de la 7\n",
		"servir --defecto rota":                          "revisor servir: --defecto: «revisor» no tiene la versión rota «rota»; las que hay: pila, sin-pasarela, sin-huella, llaves-en-memoria\n",
		"--ejercicio 1":                                  "revisor: --ejercicio: no hay un ejercicio 1 de la lección 7 que cambie «revisor»; los que hay: --leccion 4 --ejercicio 3; --leccion 7 --ejercicio 3\n",
		"--ejercicio 3 --puerto 0":                       "revisor: --ejercicio 3 sin --leccion es ambiguo: «revisor» tiene el de la lección 4 (serie M) y el de la lección 7 (S18); di cuál: --leccion 4 --ejercicio 3 o --leccion 7 --ejercicio 3\n",
		"--leccion 4 --defecto sin-huella":               "revisor: --defecto sin-huella es una versión rota del programa de la lección 6, no de la 4\n",
		"sincronizar --defecto sin-huella":               "revisor sincronizar: --defecto: «revisor sincronizar» no tiene la versión rota «sin-huella»; las que hay: lee-la-frase\n",
		"comprobar tabla --ejercicio 2":                  "revisor comprobar tabla: no existe la opción --ejercicio; «revisor comprobar tabla --help» muestra las opciones\n",
		"decidir":                                        "revisor decidir: falta al menos un código; «revisor decidir --help» muestra cómo se usa\n",
		"decidir 2xx":                                    "revisor decidir: «2xx» no es un código de estado (un número entero)\n",
		"decidir --ejercicio 3 413":                      "revisor decidir: --ejercicio: no hay un ejercicio 3 que cambie «revisor decidir»; los que hay: --ejercicio 2\n",
		"otra":                                           "revisor: sobra «otra»; «revisor --help» muestra cómo se usa\n",
		"help":                                           "revisor: sobra «help»; «revisor --help» muestra cómo se usa\n",
		"revisa":                                         "revisor: no existe la orden «revisa»; ¿querías decir «revisar»? «revisor --help» muestra las órdenes\n",
		"servir de-mas":                                  "revisor servir: sobra «de-mas»; «revisor servir --help» muestra cómo se usa\n",
		"tabla23 de-mas":                                 "revisor tabla23: sobra «de-mas»; «revisor tabla23 --help» muestra cómo se usa\n",
		"agente uno dos":                                 "revisor agente: sobra «dos»; «revisor agente --help» muestra cómo se usa\n",
		"tabla23 --laboratorio":                          "revisor tabla23: la opción --laboratorio necesita un valor; «revisor tabla23 --help» muestra las opciones\n",
		"comprobar tabla --puerto-hostil x":              "revisor comprobar tabla: la opción --puerto-hostil espera un número entero, no «x»; «revisor comprobar tabla --help» muestra las opciones\n",
		"comprobar otra":                                 "revisor comprobar: no existe la orden «otra»; «revisor comprobar --help» muestra las órdenes\n",
		"rafaga --tope 5":                                "revisor rafaga: la opción --tope espera una duración (como 90s o 1m30s), no «5»; «revisor rafaga --help» muestra las opciones\n",
		"rafaga x":                                       "rafaga: N debe ser un entero positivo, no «x»\n",
	})
}

// TestAyudaDeTodoElArbol walks every command of the program, the client programs included.
func TestAyudaDeTodoElArbol(t *testing.T) {
	t.Parallel()
	raiz := nuevaRaiz(entorno.NuevaFabrica(io.Discard, io.Discard))
	rutas := prueba.Rutas(raiz)
	if len(rutas) < 15 {
		t.Fatalf("solo %d órdenes: %q", len(rutas), rutas)
	}
	prueba.Ayudas(t, run, raiz, "\nUso:\n  revisor", "  -h, --help", "muestra esta ayuda")
	for _, c := range raiz.Commands() {
		if c.IsAvailableCommand() && (c.Name() == "help" || c.Name() == "completion") {
			t.Errorf("queda la orden %s", c.Name())
		}
	}
	// The server's own help says what it is for, where, how to stop it, with examples.
	for _, ruta := range [][]string{{"--help"}, {"servir", "--help"}} {
		_, out, _ := prueba.Correr(t, run, ruta...)
		for _, s := range []string{"http://127.0.0.1:18080", "Ctrl+C", "Ejemplos:\n", "(si no se dice: 18080)",
			"--leccion 4 ", "--defecto pila ", "--defecto sin-pasarela ", "--leccion 4 --ejercicio 3 ", "(si no se dice: CURSO_LECCION o 7)",
			"--defecto sin-huella ", "--leccion 7 --ejercicio 3 ",
			"--vigencia-llaves DURACIÓN", "(si no se dice: REVISOR_DESTINOS o 127.0.0.1:18081)"} {
			if !strings.Contains(out, s) {
				t.Errorf("%v: la ayuda no dice %q:\n%s", ruta, s, out)
			}
		}
	}
}

func TestProgramaClienteDaSuCodigo(t *testing.T) {
	t.Parallel()
	codigo, out, errOut := prueba.Correr(t, run, "retry-after")
	if codigo != 0 || errOut != "" || !strings.HasPrefix(out, `"120"`) {
		t.Errorf("retry-after: salida %d, stderr %q, stdout %q", codigo, errOut, out)
	}
	// Nobody on port 1: the checks fail and the exit code says so.
	codigo, out, _ = prueba.Correr(t, run, "comprobar", "tabla", "--laboratorio", "http://127.0.0.1:1", "--puerto-hostil", "0")
	if codigo != cli.SalidaFallo || !strings.Contains(out, "4 de 7 comprobaciones") {
		t.Errorf("comprobar tabla sin laboratorio: salida %d:\n%s", codigo, out)
	}
}

// TestPuertoOcupadoUnaLinea: one sentence, exit 1, no usage, for the root and for servir.
func TestPuertoOcupadoUnaLinea(t *testing.T) {
	t.Parallel()
	puerto := prueba.PuertoOcupado(t)
	want := (&servidor.PuertoOcupado{Programa: "revisor", Addr: "127.0.0.1:" + puerto}).Error() + "\n"
	for _, args := range [][]string{{"--puerto", puerto}, {"servir", "--puerto", puerto}} {
		codigo, out, errOut := prueba.Correr(t, run, args...)
		if codigo != cli.SalidaFallo || out != "" || errOut != want {
			t.Errorf("%v: salida %d, stdout %q, stderr %q; se esperaba 1 y %q", args, codigo, out, errOut, want)
		}
	}
}
