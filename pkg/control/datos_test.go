package control

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
)

// With Datos the revisor keeps what it knows across a restart of the lab (make lab-up
// DATOS=lab/revisor.db), and Vaciar (make lab-reset) starts it clean.
func TestDatosEntreArranques(t *testing.T) {
	t.Parallel()
	c, out := nuevoControl(t)
	c.Datos = filepath.Join(c.Dir, "revisor.db")
	ctx := context.Background()
	revisor := fmt.Sprintf("http://127.0.0.1:%d", c.Servidores[1].Puerto)
	pedir := func(metodo, ruta, cuerpo string) int {
		t.Helper()
		req, _ := http.NewRequest(metodo, revisor+ruta, strings.NewReader(cuerpo))
		req.Header.Set("Authorization", "Bearer escritura-a")
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	if err := c.Arrancar(ctx); err != nil {
		t.Fatalf("Arrancar: %v\n%s", err, out)
	}
	if got := pedir("POST", "/servicios", `{"nombre":"agenda","url":"http://127.0.0.1:18081/codigo/200"}`); got != 201 {
		t.Fatalf("alta: %d", got)
	}
	if err := c.Reiniciar(ctx); err != nil {
		t.Fatalf("Reiniciar: %v\n%s", err, out)
	}
	if got := pedir("GET", "/servicios/7", ""); got != 200 {
		t.Errorf("tras reiniciar el laboratorio con sus datos, la 7: %d", got)
	}
	if err := c.Vaciar(ctx); err != nil {
		t.Fatalf("Vaciar: %v\n%s", err, out)
	}
	if got := pedir("GET", "/servicios/7", ""); got != 404 {
		t.Errorf("tras vaciar, la 7: %d; se esperaba 404", got)
	}
	if !strings.Contains(out.String(), "datos del revisor borrados: "+c.Datos) {
		t.Errorf("Vaciar no lo dijo:\n%s", out)
	}
}
