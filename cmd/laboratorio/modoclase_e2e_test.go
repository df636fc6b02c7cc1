//go:build unix

package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"cursohttp/internal/prueba"
	"cursohttp/pkg/datosclase"
	"cursohttp/pkg/pgefimero"
)

// claseBin builds the programs classroom mode runs, once per test.
func claseBin(t *testing.T) string {
	t.Helper()
	bin := t.TempDir()
	if out, err := exec.Command("go", "build", "-o", bin+string(filepath.Separator),
		"cursohttp/cmd/revisor", "cursohttp/cmd/alta-segura", "cursohttp/cmd/laboratorio").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// alumnoCalifica runs «revisor comprobar cliente --clase» as a student would: its exit code, its
// report and its stderr.
func alumnoCalifica(ctx context.Context, t *testing.T, bin, url, credencial string, cliente ...string) (int, string, string) {
	t.Helper()
	cmd := exec.CommandContext(ctx, filepath.Join(bin, "revisor"), append([]string{"comprobar", "cliente", "--clase", url, "--puertos-libres", "--json", "--"}, cliente...)...)
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "CURSOHTTP_CREDENCIAL="+credencial)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var salida *exec.ExitError
	switch {
	case errors.As(err, &salida):
		return salida.ExitCode(), out.String(), errOut.String()
	case err != nil:
		t.Fatalf("revisor comprobar cliente --clase: %v", err)
	}
	return 0, out.String(), errOut.String()
}

func leerCreds(t *testing.T, dir string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "credenciales.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(filepath.Join(dir, "credenciales.txt")); fi.Mode().Perm() != 0o600 {
		t.Errorf("credenciales.txt tiene modo %v; se esperaba 0600", fi.Mode().Perm())
	}
	m := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if n, c, ok := strings.Cut(l, "\t"); ok {
			m[n] = c
		}
	}
	return m
}

// A class lab killed with SIGKILL in the middle of a grading: the verdict recorded before is
// still there after a restart, and the student whose grading was cut is told so and graded again
// from the start, with the verdict a correct client earns; nothing of the cut grading counts.
func TestClaseSobreviveKill9(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("califica clientes reales contra un laboratorio de la clase que se mata; se salta con -short")
	}
	bin := claseBin(t)
	ctx, cancelar := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancelar()
	carpeta := t.TempDir()
	dir := filepath.Join(carpeta, "clase")
	lista := filepath.Join(carpeta, "alumnos.txt")
	if err := os.WriteFile(lista, []byte("Ana\nEva\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	puertos := prueba.PuertosLibres(t, 2)
	args := []string{"clase", "--dir", dir, "--lista", lista, "--puerto", strconv.Itoa(puertos[0]), "--puerto-pasarela", strconv.Itoa(puertos[1])}
	lab := arrancarPrograma(ctx, t, filepath.Join(bin, "revisor"), carpeta, nil, "clase: la pizarra en http://", args...)
	url := "http://127.0.0.1:" + strconv.Itoa(puertos[0])
	creds := leerCreds(t, dir)

	if codigo, out, errOut := alumnoCalifica(ctx, t, bin, url, creds["Ana"], "alta-segura"); codigo != 0 {
		t.Fatalf("Ana con alta-segura: salió con %d\n%s\n%s", codigo, out, errOut)
	}
	// Eva starts; once her client's attempts reach the class gateway (its lines follow the lab's
	// «empieza»), the lab is killed and started again.
	hecho := make(chan struct{})
	var codigo int
	var out, errOut string
	go func() {
		defer close(hecho)
		codigo, out, errOut = alumnoCalifica(ctx, t, bin, url, creds["Eva"], "alta-segura")
	}()
	if err := lab.esperar(ctx, func(l []string) bool {
		i := slices.IndexFunc(l, func(x string) bool { return strings.HasPrefix(x, "clase: Eva empieza una calificación") })
		return i >= 0 && contar(l[i:], "pasarela: ") > 3
	}); err != nil {
		t.Fatalf("los intentos de Eva no llegaron: %v\n%s", err, lab.todo())
	}
	lab.cmd.Process.Signal(syscall.SIGKILL)
	lab.cmd.Wait()
	arrancarPrograma(ctx, t, filepath.Join(bin, "revisor"), carpeta, nil, "clase: la pizarra en http://", args...)
	<-hecho
	if codigo != 0 || !strings.Contains(errOut, "la calificación se cortó") {
		t.Fatalf("Eva tras el kill -9: salió con %d; se esperaba 0 y el aviso del corte\nstderr: %s\n%s", codigo, errOut, out)
	}

	mat, err := datosclase.Abrir(ctx, filepath.Join(dir, "clase.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer mat.Cerrar()
	ultimas, err := mat.Ultimas(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []string{"Ana", "Eva"} {
		h, err := mat.Historial(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		if len(h) != 1 {
			t.Errorf("%s tiene %d calificaciones anotadas; se esperaba 1 (la cortada no cuenta)", a, len(h))
		}
		for _, v := range ultimas[a].Comprobaciones {
			if v.Estado != "paso" {
				t.Errorf("%s: %s=%s", a, v.ID, v.Estado)
			}
		}
	}
}

// A class on PostgreSQL with two revisors behind the class gateway: the database restarts while
// a student is being graded; the verdict recorded before survives, and the grading in progress
// ends with a verdict recorded once.
func TestClaseSobreviveReinicioDePostgres(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("arranca PostgreSQL y califica clientes reales; se salta con -short")
	}
	ctx, cancelar := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancelar()
	srv, err := pgefimero.Arrancar(ctx, "")
	if err != nil {
		if os.Getenv(EnvCI) != "" {
			t.Fatalf("%s está puesta y PostgreSQL no arranca: %v", EnvCI, err)
		}
		t.Skip(strings.SplitN(err.Error(), "\n", 2)[0])
	}
	t.Cleanup(func() { srv.Detener() })
	pg, err := srv.CrearBase(ctx, "clase")
	if err != nil {
		t.Fatal(err)
	}
	bin := claseBin(t)
	carpeta := t.TempDir()
	dir := filepath.Join(carpeta, "clase")
	lista := filepath.Join(carpeta, "alumnos.txt")
	if err := os.WriteFile(lista, []byte("Ana\nLuis\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	puertos := prueba.PuertosLibres(t, 2)
	lab := arrancarPrograma(ctx, t, filepath.Join(bin, "revisor"), carpeta, nil, "clase: la pizarra en http://", "clase", "--dir", dir, "--lista", lista,
		"--datos", pg, "--revisores", "2", "--puerto", strconv.Itoa(puertos[0]), "--puerto-pasarela", strconv.Itoa(puertos[1]))
	url := "http://127.0.0.1:" + strconv.Itoa(puertos[0])
	creds := leerCreds(t, dir)
	if codigo, out, errOut := alumnoCalifica(ctx, t, bin, url, creds["Ana"], "alta-segura"); codigo != 0 {
		t.Fatalf("Ana con alta-segura: salió con %d\n%s\n%s\n%s", codigo, out, errOut, lab.todo())
	}
	hecho := make(chan struct{})
	var codigo int
	var out, errOut string
	go func() {
		defer close(hecho)
		codigo, out, errOut = alumnoCalifica(ctx, t, bin, url, creds["Luis"], "alta-segura", "--defecto", "llave-por-intento")
	}()
	if err := lab.esperar(ctx, func(l []string) bool { return contar(l, "clase: Luis empieza una calificación") > 0 }); err != nil {
		t.Fatalf("Luis no empezó: %v\n%s", err, lab.todo())
	}
	if err := srv.Parar(); err != nil {
		t.Fatal(err)
	}
	if err := srv.Reanudar(ctx); err != nil {
		t.Fatal(err)
	}
	<-hecho
	if codigo == 0 || !strings.Contains(out, `"comprobaciones"`) {
		t.Fatalf("Luis (llave por intento) tras el reinicio: salió con %d, sin informe\n%s\n%s\n%s", codigo, out, errOut, lab.todo())
	}
	mat, err := datosclase.Abrir(ctx, pg)
	if err != nil {
		t.Fatal(err)
	}
	defer mat.Cerrar()
	for _, a := range []string{"Ana", "Luis"} {
		h, err := mat.Historial(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		if len(h) != 1 {
			t.Errorf("%s tiene %d calificaciones anotadas; se esperaba 1", a, len(h))
		}
	}
}
