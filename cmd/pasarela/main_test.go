package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"testing"

	"cursohttp/internal/prueba"
	"cursohttp/pkg/cli"
	"cursohttp/pkg/servidor"
)

func TestUsoIncorrecto(t *testing.T) {
	t.Parallel()
	prueba.UsosIncorrectos(t, run, map[string]string{
		"--x":            "pasarela: no existe la opción --x; «pasarela --help» muestra las opciones\n",
		"-x":             "pasarela: no existe la opción -x; «pasarela --help» muestra las opciones\n",
		"--destino":      "pasarela: la opción --destino necesita un valor; «pasarela --help» muestra las opciones\n",
		"--puerto abc":   "pasarela: la opción --puerto espera un número entero, no «abc»; «pasarela --help» muestra las opciones\n",
		"--puerto 70000": "pasarela: --puerto va de 0 a 65535 (0: uno libre), no 70000\n",
		"--log-json=tal": "pasarela: la opción --log-json espera true o false, no «tal»; «pasarela --help» muestra las opciones\n",
		"--destino x":    "pasarela: --destino debe ser una dirección http, no «x»\n",
		"--destino ftp://127.0.0.1:18080 --puerto 0": "pasarela: --destino debe ser una dirección http, no «ftp://127.0.0.1:18080»\n",
		"--destino=http:// --puerto 0":               "pasarela: --destino debe ser una dirección http, no «http://»\n",
		"revisor":                                    "pasarela: sobra «revisor»; «pasarela --help» muestra cómo se usa\n",
		"--transporte otro --puerto 0":               "pasarela: --transporte es directo o estandar, no «otro»\n",
		"help":                                       "pasarela: sobra «help»; «pasarela --help» muestra cómo se usa\n",
		"completion":                                 "pasarela: sobra «completion»; «pasarela --help» muestra cómo se usa\n",
		"completion tcsh":                            "pasarela: sobra «completion»; «pasarela --help» muestra cómo se usa\n",
		"--simular perder@2 --puerto 0":              "pasarela: --simular «perder@2»: la probabilidad tras «@» va de 0 a 1 (0.3 es el 30 %)\n",
		"--simular perder-a-veces --puerto 0":        "pasarela: --simular «perder-a-veces»: modo de falla desconocido (pasarela --help los lista)\n",
		"--simular lento --puerto 0":                 "pasarela: --simular «lento»: lento lleva un número de 1 a 99999 (lento:N)\n",
		"--semilla 7 --puerto 0":                     "pasarela: --semilla sirve con --simular\n",
		"--simular perder --semilla -1":              "pasarela: la opción --semilla espera un número entero, no «-1»; «pasarela --help» muestra las opciones\n",
		"--panel 127.0.0.1:18084 --puerto 0":         "pasarela: --panel debe ser una dirección http, no «127.0.0.1:18084»\n",
	})
}

func TestAyuda(t *testing.T) {
	t.Parallel()
	prueba.Ayudas(t, run, nuevaRaiz(io.Discard, io.Discard), "http://127.0.0.1:18082", "X-Simular: MODO", "perder-primera",
		"rechazar", "--simular MODO@PROB", "--semilla",
		"Ctrl+C", "Ejemplos:\n", "Uso:\n  pasarela [opciones]\n", "--destino TEXTO", "(si no se dice: http://127.0.0.1:18080)",
		"--puerto NÚMERO", "(si no se dice: 18082)", "-h, --help", "muestra esta ayuda")
}

func TestPuertoOcupado(t *testing.T) {
	t.Parallel()
	puerto := prueba.PuertoOcupado(t)
	codigo, out, errOut := prueba.Correr(t, run, "--puerto", puerto)
	want := (&servidor.PuertoOcupado{Programa: "pasarela", Addr: "127.0.0.1:" + puerto}).Error() + "\n"
	if codigo != cli.SalidaFallo || out != "" || errOut != want {
		t.Errorf("salida %d, stdout %q, stderr %q; se esperaba 1 y %q", codigo, out, errOut, want)
	}
}

// TestReenviaYSeDetiene runs the gateway in-process in front of a fake revisor: the start-up line,
// one forwarded request, and exit 0 on Ctrl+C.
func TestReenviaYSeDetiene(t *testing.T) {
	t.Parallel()
	revisor := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"camino":"`+r.URL.Path+`"}`)
	}))
	defer revisor.Close()
	s := prueba.Arrancar(t, run, inicio, "--puerto", "0", "--destino", revisor.URL)
	if destino := inicio.FindStringSubmatch(s.Linea)[2]; destino != revisor.URL {
		t.Fatalf("línea de inicio %q", s.Linea)
	}
	addr := s.Addr
	resp, err := http.Get("http://" + addr + "/servicios")
	if err != nil {
		t.Fatal(err)
	}
	cuerpo, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(cuerpo) != `{"camino":"/servicios"}` {
		t.Errorf("%s %q", resp.Status, cuerpo)
	}
	if codigo := s.Parar(); codigo != cli.SalidaBien || s.Err.String() != "" {
		t.Errorf("salida %d tras Ctrl+C, stderr %q", codigo, s.Err.String())
	}
}

// inicio is the start-up line, «pasarela en http://ADDR → DESTINO».
var inicio = regexp.MustCompile(`^pasarela en http://(\S+) → (.*)$`)
