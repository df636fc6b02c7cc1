//go:build unix

package main

import (
	"cursohttp/internal/prueba"
	"cursohttp/internal/saltos"

	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The test binary doubles as a tiny server, so the runner's start, log and
// stop can be tested without the suite's programs and off the course's ports.
func TestMain(m *testing.M) {
	// A child of reproducirEnParalelo: its one server is the fake below, on the port the test chose.
	if modo := os.Getenv(variableHija); modo != "" {
		puerto, _ := strconv.Atoi(os.Getenv("ESCENAS_SERVIDOR_FALSO"))
		os.Exit(Hija(context.Background(), modo, os.Args[1:], os.Stdout,
			map[string]Programa{"falso": {Binario: "falso", Puerto: puerto}}, []int{puerto}))
	}
	if puerto := os.Getenv("ESCENAS_SERVIDOR_FALSO"); puerto != "" {
		servidorFalso(puerto)
		return
	}
	os.Exit(m.Run())
}

func servidorFalso(puerto string) {
	// As the suite's servers do: SIGTERM is handled from the start, and everything the start
	// prints is out before the port opens (the replayer may stop it as soon as it answers).
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGTERM)
	fmt.Printf("falso en http://127.0.0.1:%s\n", puerto)
	if len(os.Args) > 1 {
		fmt.Printf("argumentos: %s\n", strings.Join(os.Args[1:], " "))
	}
	if v, hay := os.LookupEnv("CURSO_LECCION"); hay {
		fmt.Printf("CURSO_LECCION=%s\n", v)
	}
	l, err := net.Listen("tcp", "127.0.0.1:"+puerto)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Printf("%s %s\n", r.Method, r.URL.RequestURI())
		fmt.Fprintf(w, "hola desde %s\n", r.URL.Path)
	})}
	go func() {
		<-c
		srv.Close()
	}()
	_ = srv.Serve(l)
}

// reproductorDePrueba replays scenes whose only server, "falso", is the test
// binary on an ephemeral port.
func reproductorDePrueba(t *testing.T) (*Reproductor, int) {
	t.Helper()
	bin := t.TempDir()
	yo, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(yo, filepath.Join(bin, "falso")); err != nil {
		t.Fatal(err)
	}
	puerto := prueba.PuertosLibres(t, 1)[0]
	t.Setenv("ESCENAS_SERVIDOR_FALSO", strconv.Itoa(puerto))
	return &Reproductor{
		Bin:            bin,
		Programas:      map[string]Programa{"falso": {Binario: "falso", Puerto: puerto}},
		Puertos:        []int{puerto},
		Entrada:        bufio.NewReader(strings.NewReader("")),
		LimiteComando:  20 * time.Second,
		EsperaBitacora: time.Second,
	}, puerto
}

func escenaDeTexto(t *testing.T, texto string) *Escena {
	t.Helper()
	return escenaLlamada(t, "9.9-prueba", texto)
}

// escenaLlamada is the scene texto (tabs dropped, so tests can indent it) in a file nombre.escena.
func escenaLlamada(t *testing.T, nombre, texto string) *Escena {
	t.Helper()
	ruta := filepath.Join(t.TempDir(), nombre+Extension)
	texto = strings.ReplaceAll(texto, "\t", "")
	if err := os.WriteFile(ruta, []byte(texto), 0o644); err != nil {
		t.Fatal(err)
	}
	e, err := LeerEscena(ruta)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// Not parallel: t.Setenv and a server on a port of its own.
// The fake server is plain net/http: its head, in net/http's order, is what the scene expects.
func TestUnaEscenaConServidor(t *testing.T) {
	r, puerto := reproductorDePrueba(t)
	p := strconv.Itoa(puerto)
	e := escenaDeTexto(t, `# 9.9 — prueba
# servidores: falso
$ curl -i http://127.0.0.1:`+p+`/uno
HTTP/1.1 200 OK
Date: Wed, 21 Oct 2026 13:19:06 GMT
Content-Length: 16
Content-Type: text/plain; charset=utf-8

hola desde /uno

# Las variables pasan de un comando al siguiente, como en una terminal.
$ ID=/dos; echo "ID=$ID"
ID=/dos
$ curl http://127.0.0.1:`+p+`$ID
hola desde /dos
# detener: falso
# sale: 7
$ curl http://127.0.0.1:`+p+`/tres
curl: (7) Failed to connect to 127.0.0.1 port `+p+` after 0 ms: Couldn't connect to server
# arrancar: falso
$ curl http://127.0.0.1:`+p+`/cuatro
hola desde /cuatro
# bitácora: falso
falso en http://127.0.0.1:`+p+`
GET /uno
GET /dos
falso en http://127.0.0.1:`+p+`
GET /cuatro
`)
	res := r.Reproducir(context.Background(), e)
	if !res.Bien() {
		t.Fatalf("la escena debería pasar: err=%v\n%s", res.Err, strings.Join(res.Diferencias, "\n"))
	}
	if PuertoOcupado(puerto) {
		t.Errorf("el servidor sigue escuchando en %d después de la escena", puerto)
	}
}

// "# lección: 4" starts a server that has a program per lesson with --leccion 4, and a restart
// repeats the arguments of its last start, as the up arrow in the student's terminal does.
func TestLeccionYReinicio(t *testing.T) {
	r, puerto := reproductorDePrueba(t)
	r.Programas["falso"] = Programa{Binario: "falso", Puerto: puerto, PorLeccion: true}
	p := strconv.Itoa(puerto)
	e := escenaDeTexto(t, `# 9.9 — prueba
# lección: 4
# servidores: falso
# reiniciar: falso
# detener: falso
# arrancar: falso --defecto pila
# reiniciar: falso
# bitácora: falso
falso en http://127.0.0.1:`+p+`
argumentos: --leccion 4
falso en http://127.0.0.1:`+p+`
argumentos: --leccion 4
falso en http://127.0.0.1:`+p+`
argumentos: --leccion 4 --defecto pila
falso en http://127.0.0.1:`+p+`
argumentos: --leccion 4 --defecto pila
`)
	t.Setenv("CURSO_LECCION", "7") // a student's shell must not change the scene
	if res := r.Reproducir(context.Background(), e); !res.Bien() {
		t.Fatalf("err=%v\n%s", res.Err, strings.Join(res.Diferencias, "\n"))
	}
}

// Changing one expected line makes the scene fail with a diff that points at
// that line of the transcript.
func TestUnaLineaCambiadaApuntaASuLinea(t *testing.T) {
	r, puerto := reproductorDePrueba(t)
	p := strconv.Itoa(puerto)
	e := escenaDeTexto(t, `# 9.9 — prueba
# servidores: falso
$ curl http://127.0.0.1:`+p+`/uno
hola desde /uno
$ printf 'a\nb\nc\n'
a
B
c
# bitácora: falso
falso en http://127.0.0.1:`+p+`
GET /uno
GET /cinco
`)
	res := r.Reproducir(context.Background(), e)
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if len(res.Diferencias) != 2 {
		t.Fatalf("se esperaban 2 diferencias (la salida y la bitácora), hubo %d:\n%s", len(res.Diferencias), strings.Join(res.Diferencias, "\n"))
	}
	for i, linea := range []int{7, 12} {
		d := res.Diferencias[i]
		if !strings.Contains(d, fmt.Sprintf("9.9-prueba.escena:%d\n", linea)) {
			t.Errorf("la diferencia %d debería apuntar a la línea %d:\n%s", i, linea, d)
		}
	}
	if !strings.Contains(res.Diferencias[0], "-B\n+b\n") {
		t.Errorf("el diff debería mostrar la línea de la escena y la obtenida:\n%s", res.Diferencias[0])
	}
}

func TestElCodigoDeSalida(t *testing.T) {
	r, _ := reproductorDePrueba(t)
	e := escenaDeTexto(t, `# 9.9 — prueba
# sale: 3
$ echo hola; exit 2
hola
`)
	res := r.Reproducir(context.Background(), e)
	if len(res.Diferencias) != 1 || !strings.Contains(res.Diferencias[0], "salió con 2; la escena espera 3") {
		t.Errorf("se esperaba la diferencia del código de salida: %q", res.Diferencias)
	}
}

func TestUnPuertoOcupadoSeDiceClaro(t *testing.T) {
	r, puerto := reproductorDePrueba(t)
	l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(puerto))
	if err != nil {
		t.Skip("no pude ocupar el puerto:", err)
	}
	defer l.Close()
	res := r.Reproducir(context.Background(), escenaDeTexto(t, "# 9.9 — prueba\n# servidores: falso\n$ true\n"))
	if res.Err == nil || !strings.Contains(res.Err.Error(), strconv.Itoa(puerto)) || !strings.Contains(res.Err.Error(), "otra copia") {
		t.Errorf("se esperaba un error que nombre el puerto y la otra copia: %v", res.Err)
	}
}

// The scene's commands share one terminal, as the student's: a server started in the background
// with & outlives its line, what it prints shows among the next commands' lines, a function
// defined once is there later, and «kill $F; wait $F» stops it (docs/comandos.md's one-line
// servers, issue 42).
func TestUnaTerminalParaTodaLaEscena(t *testing.T) {
	r, puerto := reproductorDePrueba(t)
	p := strconv.Itoa(puerto)
	e := escenaDeTexto(t, `# 9.9 — prueba
$ esperar() { until (exec 3<>/dev/tcp/127.0.0.1/$1) 2>/dev/null; do sleep 0.02; done; }
$ falso & F=$!; esperar `+p+`
falso en http://127.0.0.1:`+p+`
$ curl http://127.0.0.1:`+p+`/uno
GET /uno
hola desde /uno
$ kill $F; wait $F 2>/dev/null; echo detenido
detenido
# sale: 7
$ curl http://127.0.0.1:`+p+`/dos
curl: (7) Failed to connect to 127.0.0.1 port `+p+` after 0 ms: Couldn't connect to server
`)
	if res := r.Reproducir(context.Background(), e); !res.Bien() {
		t.Fatalf("err=%v\n%s", res.Err, strings.Join(res.Diferencias, "\n"))
	}
}

// What a scene leaves running in the background is stopped when the scene ends, as closing the
// terminal does: a job still asleep never gets to act, and a server typed with & frees its port.
func TestNadaQuedaCorriendoTrasLaEscena(t *testing.T) {
	r, puerto := reproductorDePrueba(t)
	p := strconv.Itoa(puerto)
	dir := t.TempDir()
	marca, pid := filepath.Join(dir, "vivo"), filepath.Join(dir, "pid")
	e := escenaDeTexto(t, `# 9.9 — prueba
$ (sleep 30; touch `+marca+`) & echo $! > `+pid+`; echo lanzado
lanzado
$ falso & until (exec 3<>/dev/tcp/127.0.0.1/`+p+`) 2>/dev/null; do sleep 0.02; done
falso en http://127.0.0.1:`+p+`
`)
	if res := r.Reproducir(context.Background(), e); !res.Bien() {
		t.Fatalf("%v %q", res.Err, res.Diferencias)
	}
	if PuertoOcupado(puerto) {
		t.Errorf("el servidor en segundo plano sigue escuchando en %d después de la escena", puerto)
	}
	texto, err := os.ReadFile(pid)
	if err != nil {
		t.Fatal(err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(texto)))
	if err != nil {
		t.Fatal(err)
	}
	prueba.Esperar(t, "el proceso en segundo plano termina", func() bool {
		return syscall.Kill(n, 0) == syscall.ESRCH
	})
	if _, err := os.Stat(marca); err == nil {
		t.Errorf("un proceso en segundo plano sobrevivió a la escena")
	}
}

// A line that closes the terminal (exit) gives its code, and the next line gets a new terminal.
func TestUnExitCierraLaTerminal(t *testing.T) {
	r, _ := reproductorDePrueba(t)
	e := escenaDeTexto(t, `# 9.9 — prueba
# sale: 2
$ X=1; echo hola; exit 2
hola
$ echo "X=${X:-nada}"
X=nada
`)
	if res := r.Reproducir(context.Background(), e); !res.Bien() {
		t.Fatalf("%v %q", res.Err, res.Diferencias)
	}
}

func TestBuscarYElegir(t *testing.T) {
	t.Parallel()
	rutas, err := Buscar("..", []string{"4.4.3"})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rutas {
		if !strings.HasPrefix(filepath.Base(r), "4.4.3") {
			t.Errorf("%s no es de 4.4.3", r)
		}
	}
	if len(rutas) == 0 {
		t.Fatal("no encontré las escenas de 4.4.3")
	}
	todas, err := Buscar("..", []string{filepath.Join("..", "leccion-7")})
	if err != nil {
		t.Fatal(err)
	}
	una, err := Elegir(todas, "7.5.1-tabla23")
	if err != nil || len(una) != 1 {
		t.Fatalf("Elegir: %v %v", una, err)
	}
	if _, err := Elegir(todas, "no-existe"); err == nil {
		t.Errorf("se esperaba un error para una escena que no existe")
	}
}

func TestOrdenarPorSeccion(t *testing.T) {
	t.Parallel()
	rutas := []string{"7.final-x.escena", "7.14.1-a.escena", "7.ejercicio-4-b.escena", "7.2-c.escena", "7.10.3-d.escena", "7.2.1-e.escena"}
	ordenarPorSeccion(rutas)
	want := []string{"7.2-c.escena", "7.2.1-e.escena", "7.10.3-d.escena", "7.14.1-a.escena", "7.ejercicio-4-b.escena", "7.final-x.escena"}
	if strings.Join(rutas, " ") != strings.Join(want, " ") {
		t.Errorf("got %v\nwant %v", rutas, want)
	}
}

// A scene whose «# necesita» names a program not installed does not run: outside CI it is
// skipped with the reason, under CURSOHTTP_CI=1 (CI installs everything) it is an error. Without
// the colon, «# necesita …» is narration.
func TestUnaEscenaSinSuPrograma(t *testing.T) {
	r, _ := reproductorDePrueba(t)
	e := escenaDeTexto(t, "# 9.9 — prueba\n# necesita el laboratorio.\n# necesita: bash programa-que-no-hay\n$ programa-que-no-hay\n")
	if len(e.Necesita) != 2 || len(e.Comentario) != 2 {
		t.Fatalf("necesita %q, comentarios %d", e.Necesita, len(e.Comentario))
	}
	t.Setenv(saltos.Variable, "")
	t.Setenv("CURSOHTTP_CI", "")
	if res := r.Reproducir(context.Background(), e); res.Saltada != "programa-que-no-hay no está instalado" || res.Err != nil || res.Bien() {
		t.Errorf("fuera de CI: %+v", res)
	}
	t.Setenv("CURSOHTTP_CI", "1")
	if res := r.Reproducir(context.Background(), e); res.Saltada != "" || res.Err == nil || !strings.Contains(res.Err.Error(), "CURSOHTTP_CI=1") {
		t.Errorf("en CI: %+v", res)
	}
	if _, err := ParsearEscena(strings.NewReader("$ true\n# necesita: jq\n$ jq\n"), "x.escena"); err == nil {
		t.Errorf("«# necesita:» después del primer paso no es un error")
	}
}
