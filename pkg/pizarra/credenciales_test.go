package pizarra

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cursohttp/internal/prueba/servidortest"
	"cursohttp/pkg/matricula"
)

func leerArchivo(t *testing.T, dir string) string {
	t.Helper()
	ruta := filepath.Join(dir, ArchivoCredenciales)
	b, err := os.ReadFile(ruta)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(ruta); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("modo %v (%v); se esperaba 0600", fi.Mode().Perm(), err)
	}
	if otros, _ := filepath.Glob(filepath.Join(dir, ".*")); len(otros) > 0 {
		t.Errorf("quedan archivos de la reescritura: %q", otros)
	}
	return string(b)
}

// Each change rewrites the list whole: a new credential replaces its student's line, a rotation
// is the whole list, a student removed or revoked leaves it, the roster prunes and orders it; an
// older list appended to (a name twice, a file 0644) comes out right.
func TestActualizarCredenciales(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cred := func(pares ...string) []matricula.Credencial {
		var l []matricula.Credencial
		for i := 0; i+1 < len(pares); i += 2 {
			l = append(l, matricula.Credencial{Alumno: pares[i], Secreto: pares[i+1]})
		}
		return l
	}
	if err := os.WriteFile(filepath.Join(dir, ArchivoCredenciales), []byte("Ana\tcl-1\nBeto\tcl-2\nAna\tcl-3\nsin tabulador\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		que    string
		cambio CambioDeCredenciales
		quiere string
	}{
		{"una lista vieja, leída", CambioDeCredenciales{}, "Beto\tcl-2\nAna\tcl-3\n"},
		{"agregar", CambioDeCredenciales{Nuevas: cred("Eva Pérez", "cl-4", "Óscar", "cl-5")}, "Beto\tcl-2\nAna\tcl-3\nEva Pérez\tcl-4\nÓscar\tcl-5\n"},
		{"renovar (un nombre descompuesto es el mismo)", CambioDeCredenciales{Nuevas: cred("O\u0301scar", "cl-6")}, "Beto\tcl-2\nAna\tcl-3\nEva Pérez\tcl-4\nÓscar\tcl-6\n"},
		{"quitar (con espacios de más)", CambioDeCredenciales{Quitar: []string{" Eva   Pérez "}}, "Beto\tcl-2\nAna\tcl-3\nÓscar\tcl-6\n"},
		{"la lista ordena y poda", CambioDeCredenciales{Lista: []string{"Óscar", "Ana", "Iker"}}, "Óscar\tcl-6\nAna\tcl-3\n"},
		{"rotar", CambioDeCredenciales{Nuevas: cred("Ana", "cl-7", "Óscar", "cl-8"), Todas: true}, "Ana\tcl-7\nÓscar\tcl-8\n"},
		{"revocar a todos", CambioDeCredenciales{Quitar: []string{"Ana", "Óscar"}}, ""},
	} {
		ruta, err := ActualizarCredenciales(dir, c.cambio)
		if err != nil || ruta != filepath.Join(dir, ArchivoCredenciales) {
			t.Fatalf("%s: %s, %v", c.que, ruta, err)
		}
		if got := leerArchivo(t, dir); got != c.quiere {
			t.Errorf("%s: %q; se esperaba %q", c.que, got, c.quiere)
		}
	}
	// A folder that is not there yet is made (0700).
	nueva := filepath.Join(t.TempDir(), "lab", "clase")
	if _, err := ActualizarCredenciales(nueva, CambioDeCredenciales{Nuevas: cred("Ana", "cl-9")}); err != nil || leerArchivo(t, nueva) != "Ana\tcl-9\n" {
		t.Errorf("en una carpeta nueva: %v", err)
	}
}

// One credential is «1 credencial»; the plural from two.
func TestDecirCredenciales(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	DecirCredenciales(&b, []matricula.Credencial{{Alumno: "Ana", Secreto: "cl-1"}}, "lab/clase/credenciales.txt")
	if want := "Ana\tcl-1\n(1 credencial, también en lab/clase/credenciales.txt, que solo tú puedes leer)\n"; b.String() != want {
		t.Errorf("%q", b.String())
	}
	b.Reset()
	DecirCredenciales(&b, []matricula.Credencial{{Alumno: "Ana", Secreto: "cl-1"}, {Alumno: "Eva", Secreto: "cl-2"}}, "x")
	if !strings.HasSuffix(b.String(), "\n(2 credenciales, también en x, que solo tú puedes leer)\n") {
		t.Errorf("%q", b.String())
	}
	b.Reset()
	if DecirCredenciales(&b, nil, "x"); b.Len() != 0 {
		t.Errorf("sin credenciales: %q", b.String())
	}
}

// A student removed from the board's page leaves the instructor's list at once when the board
// knows the class's folder.
func TestQuitarDesdeLaPaginaReescribeLaLista(t *testing.T) {
	t.Parallel()
	a := almacenDePrueba(t)
	creds, err := a.Agregar(context.Background(), []string{"Ana", "Eva"})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := ActualizarCredenciales(dir, CambioDeCredenciales{Nuevas: creds}); err != nil {
		t.Fatal(err)
	}
	srv := servidortest.Nuevo(t, NuevoTablero(OpcionesTablero{Almacen: a, Columnas: columnasDePrueba, Instructor: delProfesorDePrueba, Dir: dir}))
	if resp, cuerpo := pedir(t, http.MethodDelete, srv.URL+"/clase/alumnos/Ana", "", "Authorization", "Bearer profe"); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("quitar a Ana: %d %s", resp.StatusCode, cuerpo)
	}
	if got := leerArchivo(t, dir); got != "Eva\t"+creds[1].Secreto+"\n" {
		t.Errorf("tras quitar a Ana desde la página: %q", got)
	}
}
