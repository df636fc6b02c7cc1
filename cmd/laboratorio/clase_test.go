package main

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
	if codigo, out, errOut := c.laboratorio(t, "agregar"); codigo != 2 || out != "" || !strings.Contains(errOut, "¿a quién?") {
		t.Errorf("agregar sin nombres: %d %q %q", codigo, out, errOut)
	}
}
