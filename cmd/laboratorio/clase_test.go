package main

import (
	"context"
	"encoding/csv"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"cursohttp/internal/prueba"
	"cursohttp/pkg/clase"
	"cursohttp/pkg/datosclase"
	"cursohttp/pkg/examen"
	"cursohttp/pkg/matricula"
	"cursohttp/pkg/pizarra"
)

// claseDePrueba is a class lab in this process, on SQLite in the instructor's folder, with the
// board as «revisor clase» serves it: what the instructor's orders talk to.
type claseDePrueba struct {
	dir, url string
	mat      matricula.Almacen
	cl       *clase.Clase
	creds    map[string]string // the roster's first credentials, by name
}

const tokenDeClase = "token-del-profesor"

func nuevaClaseDePrueba(t *testing.T, nombres ...string) *claseDePrueba {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	mat, err := datosclase.Abrir(ctx, filepath.Join(dir, pizarra.ArchivoMatricula))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mat.Cerrar() })
	c := &claseDePrueba{dir: dir, mat: mat, creds: map[string]string{}}
	if len(nombres) > 0 {
		creds, err := mat.Agregar(ctx, nombres)
		if err != nil {
			t.Fatal(err)
		}
		for _, cr := range creds {
			c.creds[cr.Alumno] = cr.Secreto
		}
	}
	if err := os.WriteFile(filepath.Join(dir, pizarra.ArchivoTokenClase), []byte(tokenDeClase+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if c.cl, err = clase.Nueva(clase.Opciones{Matricula: mat, Token: tokenDeClase, Log: zerolog.Nop()}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.cl.Cerrar)
	var columnas []pizarra.Columna
	for _, ch := range examen.Checks {
		columnas = append(columnas, pizarra.Columna{ID: ch.ID, Premisa: ch.Premisa, Autodeclarada: clase.Autodeclarada(ch.ID)})
	}
	tablero := pizarra.NuevoTablero(pizarra.OpcionesTablero{Almacen: mat, Columnas: columnas, Instructor: c.cl.Instructor})
	srv := httptest.NewServer(c.cl.Sitio(tablero))
	t.Cleanup(srv.Close)
	c.url = srv.URL
	return c
}

// laboratorio runs «laboratorio clase ORDEN…» against the class, from the instructor's folder.
func (c *claseDePrueba) laboratorio(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return prueba.Correr(t, run, append([]string{"clase", "--dir", c.dir, "--clase", c.url}, args...)...)
}

// nombres is the roster as the store has it.
func (c *claseDePrueba) nombres(t *testing.T) []string {
	t.Helper()
	l, err := c.mat.Alumnos(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var n []string
	for _, a := range l {
		n = append(n, a.Nombre)
	}
	return n
}

// «laboratorio clase agregar "Eva Pérez"», as docs/comprobar.md writes it, adds her and says her
// credential; several names at once, and --lista, too.
func TestClaseAgregar(t *testing.T) {
	t.Parallel()
	c := nuevaClaseDePrueba(t, "Ana")
	codigo, out, errOut := c.laboratorio(t, "agregar", "Eva Pérez")
	if codigo != 0 || errOut != "" || !strings.HasPrefix(out, "Eva Pérez\tcl-") {
		t.Fatalf("agregar \"Eva Pérez\": %d %q\n%s", codigo, errOut, out)
	}
	lista := filepath.Join(t.TempDir(), "alumnos.txt")
	if err := os.WriteFile(lista, []byte("# segundo grupo\nLuis\n\nMaría José\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if codigo, out, errOut := c.laboratorio(t, "agregar", "Óscar", "Iker", "--lista", lista); codigo != 0 || errOut != "" || strings.Count(out, "\tcl-") != 4 {
		t.Fatalf("agregar dos nombres y una lista: %d %q\n%s", codigo, errOut, out)
	}
	if got, quiere := strings.Join(c.nombres(t), ", "), "Ana, Eva Pérez, Óscar, Iker, Luis, María José"; got != quiere {
		t.Errorf("la lista: %s; se esperaba %s", got, quiere)
	}
	// A name that reads as one in the list: one line naming it, nothing added.
	c.laboratorio(t, "agregar", "Ana García")
	for _, n := range []string{"Ana Garc\u0131\u0301a", "Ana Garcia", "ana garcía", "ANA GARCÍA", "Ana García."} {
		quiere := "la clase respondió 409: «" + n + "» se lee igual que «Ana García», que ya está en la lista\n"
		if codigo, out, errOut := c.laboratorio(t, "agregar", n); codigo != 1 || out != "" || errOut != quiere {
			t.Errorf("agregar %q: %d %q %q; se esperaba 1 y %q", n, codigo, out, errOut, quiere)
		}
	}
	if n := len(c.nombres(t)); n != 7 {
		t.Errorf("la lista tiene %d nombres; se esperaban 7", n)
	}
	if codigo, out, errOut := c.laboratorio(t, "agregar"); codigo != 2 || out != "" || !strings.Contains(errOut, "¿a quién?") {
		t.Errorf("agregar sin nombres: %d %q %q", codigo, out, errOut)
	}
}

// credencialesEnArchivo reads credenciales.txt as lines, checking it is the instructor's only.
func (c *claseDePrueba) credencialesEnArchivo(t *testing.T) []string {
	t.Helper()
	ruta := filepath.Join(c.dir, pizarra.ArchivoCredenciales)
	b, err := os.ReadFile(ruta)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(ruta); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("credenciales.txt: modo %v (%v); se esperaba 0600", fi.Mode().Perm(), err)
	}
	// Nothing left beside it of a rewrite.
	if quedan, _ := filepath.Glob(filepath.Join(c.dir, ".credenciales*")); len(quedan) > 0 {
		t.Errorf("quedan archivos a medias: %q", quedan)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// vigentes checks that the file holds each current student's current credential exactly once:
// one line per student of the roster whose credential lives, each identifying its student.
func (c *claseDePrueba) vigentes(t *testing.T, cuando string, quiere ...string) map[string]string {
	t.Helper()
	lineas := c.credencialesEnArchivo(t)
	m := map[string]string{}
	var nombres []string
	for _, l := range lineas {
		nombre, cred, ok := strings.Cut(l, "\t")
		if !ok {
			t.Errorf("%s: una línea sin credencial: %q", cuando, l)
			continue
		}
		if _, ya := m[nombre]; ya {
			t.Errorf("%s: %s está dos veces", cuando, nombre)
		}
		m[nombre] = cred
		nombres = append(nombres, nombre)
		if quien, ok, err := c.mat.Identificar(context.Background(), cred); err != nil || !ok || quien != nombre {
			t.Errorf("%s: la credencial de %s en el archivo no vale (es de %q, %v, %v)", cuando, nombre, quien, ok, err)
		}
	}
	if got, want := strings.Join(nombres, ", "), strings.Join(quiere, ", "); got != want {
		t.Errorf("%s: credenciales.txt nombra a %s; se esperaba %s", cuando, got, want)
	}
	return m
}

// credencialDicha is the credential of nombre in an order's output.
func credencialDicha(out, nombre string) string {
	for _, l := range strings.Split(out, "\n") {
		if n, c, ok := strings.Cut(l, "\t"); ok && n == nombre {
			return c
		}
	}
	return ""
}

// credenciales.txt holds each current student's current credential once, whatever changed them
// (agregar, renovar, rotar, quitar, revocar; a row removed from the board's page, at the next
// order), rewritten whole, 0600; a renewed credential is said to the terminal that asked for it.
func TestClaseCredencialesTxt(t *testing.T) {
	t.Parallel()
	c := nuevaClaseDePrueba(t)
	// An older lab's list, appended to: Ana twice, a student no longer in the class.
	vieja := "Ana\tcl-vieja\nZoe\tcl-de-zoe\n"
	if err := os.WriteFile(filepath.Join(c.dir, pizarra.ArchivoCredenciales), []byte(vieja), 0o644); err != nil {
		t.Fatal(err)
	}
	codigo, out, errOut := c.laboratorio(t, "agregar", "Ana", "Beto")
	if codigo != 0 || errOut != "" || !strings.HasSuffix(out, "(2 credenciales, también en "+filepath.Join(c.dir, pizarra.ArchivoCredenciales)+", que solo tú puedes leer)\n") {
		t.Fatalf("agregar: %d %q\n%s", codigo, errOut, out)
	}
	primera := c.vigentes(t, "tras agregar", "Ana", "Beto")
	codigo, out, errOut = c.laboratorio(t, "agregar", "Eva Pérez")
	if codigo != 0 || !strings.HasSuffix(out, "(1 credencial, también en "+filepath.Join(c.dir, pizarra.ArchivoCredenciales)+", que solo tú puedes leer)\n") {
		t.Fatalf("agregar a una: %d %q\n%s", codigo, errOut, out)
	}
	c.vigentes(t, "tras agregar a Eva", "Ana", "Beto", "Eva Pérez")

	codigo, out, errOut = c.laboratorio(t, "renovar", "Ana")
	nueva := credencialDicha(out, "Ana")
	if codigo != 0 || errOut != "" || nueva == "" || nueva == primera["Ana"] {
		t.Fatalf("renovar: %d %q\n%s", codigo, errOut, out)
	}
	if m := c.vigentes(t, "tras renovar", "Ana", "Beto", "Eva Pérez"); m["Ana"] != nueva {
		t.Errorf("tras renovar, el archivo tiene %q para Ana; se dijo %q", m["Ana"], nueva)
	}

	if codigo, out, errOut := c.laboratorio(t, "revocar", "Beto"); codigo != 0 || out != "la credencial de Beto ya no vale\n" || errOut != "" {
		t.Errorf("revocar: %d %q %q", codigo, out, errOut)
	}
	c.vigentes(t, "tras revocar", "Ana", "Eva Pérez")
	if codigo, out, errOut := c.laboratorio(t, "rotar"); codigo != 0 || errOut != "" || strings.Count(out, "\tcl-") != 2 {
		t.Errorf("rotar: %d %q\n%s", codigo, errOut, out)
	}
	c.vigentes(t, "tras rotar (Beto sigue revocado)", "Ana", "Eva Pérez")
	if codigo, out, _ := c.laboratorio(t, "renovar", "Beto"); codigo != 0 || credencialDicha(out, "Beto") == "" {
		t.Errorf("renovar a Beto: %d\n%s", codigo, out)
	}
	c.vigentes(t, "tras renovar a Beto", "Ana", "Beto", "Eva Pérez")

	if codigo, out, errOut := c.laboratorio(t, "quitar", "Eva  Pérez"); codigo != 0 || out != "Eva  Pérez ya no está en la clase\n" || errOut != "" {
		t.Errorf("quitar: %d %q %q", codigo, out, errOut)
	}
	c.vigentes(t, "tras quitar", "Ana", "Beto")
	// Removed from the board's page (this board knows no folder): the next order drops the line.
	if err := c.mat.Quitar(context.Background(), "Beto"); err != nil {
		t.Fatal(err)
	}
	if codigo, _, _ := c.laboratorio(t, "agregar", "Iker"); codigo != 0 {
		t.Fatal("agregar a Iker")
	}
	c.vigentes(t, "tras quitar a Beto desde la página", "Ana", "Iker")
}

// «laboratorio clase entrar» says a one-time link on stdout, and that it is one-time and the
// instructor's on stderr; the link opens one session once.
func TestClaseEntrar(t *testing.T) {
	t.Parallel()
	c := nuevaClaseDePrueba(t, "Ana")
	codigo, out, errOut := c.laboratorio(t, "entrar")
	enlace := strings.TrimSuffix(out, "\n")
	if codigo != 0 || !strings.HasPrefix(enlace, c.url+"/entrar?codigo=") || strings.Contains(enlace, "\n") ||
		!strings.Contains(errOut, "un enlace de una vez, solo para ti (el profesor)") || strings.Contains(out+errOut, tokenDeClase) {
		t.Fatalf("entrar: %d %q %q", codigo, out, errOut)
	}
	sinSeguir := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for i, quiere := range []int{http.StatusSeeOther, http.StatusForbidden} {
		resp, err := sinSeguir.Get(enlace)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != quiere || (i == 0) != (resp.Header.Get("Set-Cookie") != "") {
			t.Errorf("el enlace, vez %d: %d %q; se esperaba %d", i+1, resp.StatusCode, resp.Header.Get("Set-Cookie"), quiere)
		}
	}
	if codigo, _, errOut := c.laboratorio(t, "enlace"); codigo != 2 || !strings.Contains(errOut, "no existe la orden «enlace»") {
		t.Errorf("la orden vieja: %d %q", codigo, errOut)
	}
}

// «laboratorio clase exportar» writes the board as CSV a gradebook imports, read back here with
// encoding/csv: the names as typed (accents, an apostrophe, a dash; a comma, a quote or a line end
// never get into a name), each check's state, the last grading's time; to a file (0600) or to
// stdout; «exportar predicciones» the answers, with its header even when there are none.
func TestClaseExportar(t *testing.T) {
	t.Parallel()
	c := nuevaClaseDePrueba(t, "María-José O'Neill", "Ana García")
	// What cannot be a name is refused, or split at the line end.
	for _, n := range []string{"Pérez, Ana", `Ana "la" García`} {
		if codigo, _, errOut := c.laboratorio(t, "agregar", n); codigo != 1 || !strings.Contains(errOut, "la clase respondió 422") {
			t.Errorf("agregar %q: %d %q", n, codigo, errOut)
		}
	}
	if codigo, _, errOut := c.laboratorio(t, "agregar", "Luis\nBeto"); codigo != 0 {
		t.Fatalf("agregar con un salto de línea: %d %q", codigo, errOut)
	}
	fin := time.Date(2026, 3, 9, 10, 35, 2, 0, time.UTC)
	var vs []matricula.Veredicto
	for i, ch := range examen.Checks {
		vs = append(vs, matricula.Veredicto{ID: ch.ID, Estado: []string{"paso", "fallo", "no-juzgada"}[i%3]})
	}
	if err := c.mat.Anotar(context.Background(), matricula.Calificacion{ID: "g1", Alumno: "María-José O'Neill", Inicio: fin.Add(-time.Minute), Fin: fin, Comprobaciones: vs}); err != nil {
		t.Fatal(err)
	}

	salida := filepath.Join(t.TempDir(), "notas.csv")
	codigo, out, errOut := c.laboratorio(t, "exportar", "--salida", salida)
	if codigo != 0 || errOut != "" || out != salida+": 4 filas de alumnos y la cabecera\n" {
		t.Fatalf("exportar --salida: %d %q %q", codigo, out, errOut)
	}
	if fi, err := os.Stat(salida); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("notas.csv: %v %v", fi.Mode().Perm(), err)
	}
	a, err := os.Open(salida)
	if err != nil {
		t.Fatal(err)
	}
	filas, err := csv.NewReader(a).ReadAll()
	a.Close()
	if err != nil {
		t.Fatal(err)
	}
	cabecera := []string{"alumno", "ultima_calificacion", "pasaron", "juzgadas"}
	for _, ch := range examen.Checks {
		cabecera = append(cabecera, ch.ID)
	}
	if !slices.Equal(filas[0], cabecera) {
		t.Errorf("la cabecera: %q", filas[0])
	}
	var nombres []string
	for _, f := range filas[1:] {
		nombres = append(nombres, f[0])
	}
	if !slices.Equal(nombres, []string{"María-José O'Neill", "Ana García", "Luis", "Beto"}) {
		t.Errorf("los nombres: %q", nombres)
	}
	maria := filas[1]
	if cuando, err := time.Parse(time.RFC3339, maria[1]); err != nil || !cuando.Equal(fin) {
		t.Errorf("la hora de María José: %q (%v)", maria[1], err)
	}
	for i, v := range vs {
		if maria[4+i] != v.Estado {
			t.Errorf("María José, %s: %q; se esperaba %q", v.ID, maria[4+i], v.Estado)
		}
	}
	if ana := filas[2]; ana[1] != "" || ana[4] != "pendiente" {
		t.Errorf("Ana, que no calificó: %q", ana)
	}

	// To stdout, the same bytes.
	guardado, _ := os.ReadFile(salida)
	if codigo, out, errOut := c.laboratorio(t, "exportar"); codigo != 0 || errOut != "" || out != string(guardado) {
		t.Errorf("exportar a stdout: %d %q\n%s", codigo, errOut, out)
	}
	codigo, out, errOut = c.laboratorio(t, "exportar", "predicciones")
	if codigo != 0 || errOut != "" || out != "ejercicio,abierta,pregunta,alumno,respuesta,respondida,real,acierto\r\n" {
		t.Errorf("exportar predicciones sin ninguna: %d %q %q", codigo, out, errOut)
	}
	// With a token that is not the class's, nothing is written.
	os.WriteFile(filepath.Join(c.dir, pizarra.ArchivoTokenClase), []byte("otro\n"), 0o600) //nolint:errcheck // checked by the order
	otra := filepath.Join(t.TempDir(), "otra.csv")
	if codigo, out, errOut := c.laboratorio(t, "exportar", "--salida", otra); codigo != 1 || out != "" || !strings.HasPrefix(errOut, "la clase respondió 401") {
		t.Errorf("exportar con otro token: %d %q %q", codigo, out, errOut)
	}
	if _, err := os.Stat(otra); err == nil {
		t.Error("con otro token se escribió el archivo")
	}
}
