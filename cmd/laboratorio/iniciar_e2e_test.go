//go:build unix

package main

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"cursohttp/internal/prueba"
)

// The README's «laboratorio clase iniciar --lista alumnos.txt --direccion …» with the real
// revisor: the class lab starts with the roster (each name on the board, each credential in
// credenciales.txt) and a Ctrl+C stops both programs with 0. (On 127.0.0.1: a test listens on no
// other interface.)
func TestClaseIniciarDeVerdad(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("compila el revisor y arranca un laboratorio de la clase; se salta con -short")
	}
	bin := t.TempDir()
	if out, err := exec.Command("go", "build", "-o", bin+string(filepath.Separator), "cursohttp/cmd/revisor").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	carpeta := t.TempDir()
	dir := filepath.Join(carpeta, "clase")
	lista := filepath.Join(carpeta, "alumnos.txt")
	if err := os.WriteFile(lista, []byte("Ana García\nEva Pérez\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	puertos := prueba.PuertosLibres(t, 2)
	ctx, cancelar := context.WithCancel(context.Background())
	defer cancelar()
	var out, errOut prueba.Buffer
	fin := make(chan int, 1)
	go func() {
		fin <- run(ctx, []string{"clase", "iniciar", "--bin", bin, "--dir", dir, "--lista", lista, "--direccion", "127.0.0.1",
			"--puerto", strconv.Itoa(puertos[0]), "--puerto-pasarela", strconv.Itoa(puertos[1])}, strings.NewReader(""), &out, &errOut)
	}()
	url := "http://127.0.0.1:" + strconv.Itoa(puertos[0])
	prueba.Esperar(t, "la línea de arranque del laboratorio de la clase", func() bool {
		select {
		case c := <-fin:
			t.Fatalf("terminó con %d antes de arrancar:\n%s\n%s", c, out.String(), errOut.String())
		default:
		}
		return strings.Contains(out.String(), "clase: la pizarra en "+url+"/clase") && strings.Contains(out.String(), "en el puerto "+strconv.Itoa(puertos[1]))
	})
	resp, err := http.Get(url + "/clase/estado")
	if err != nil {
		t.Fatal(err)
	}
	var estado struct {
		Alumnos []struct{ Nombre string } `json:"alumnos"`
	}
	err = json.NewDecoder(resp.Body).Decode(&estado)
	resp.Body.Close()
	if err != nil || len(estado.Alumnos) != 2 || estado.Alumnos[0].Nombre != "Ana García" || estado.Alumnos[1].Nombre != "Eva Pérez" {
		t.Errorf("la pizarra: %+v (%v)", estado, err)
	}
	creds, err := os.ReadFile(filepath.Join(dir, "credenciales.txt"))
	if err != nil || !strings.HasPrefix(string(creds), "Ana García\tcl-") || strings.Count(string(creds), "\n") != 2 {
		t.Errorf("credenciales.txt: %q (%v)", creds, err)
	}
	cancelar()
	if c := <-fin; c != 0 {
		t.Errorf("tras Ctrl+C salió con %d\n%s", c, errOut.String())
	}
}
