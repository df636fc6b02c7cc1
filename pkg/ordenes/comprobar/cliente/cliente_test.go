package cliente

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/spf13/cobra"

	"cursohttp/pkg/cli"
	"cursohttp/pkg/examen"
	"cursohttp/pkg/ordenes/entorno"
	"cursohttp/pkg/panel"
	"cursohttp/pkg/pizarra"
)

// ejecutar runs «revisor comprobar cliente args…» with a history of the test's own (never the
// tester's).
func ejecutar(t *testing.T, correr func(context.Context, examen.Opciones) (*examen.Informe, error), args ...string) (int, string, string) {
	t.Helper()
	return orden(t, correr, append([]string{"cliente", "--historial", filepath.Join(t.TempDir(), "h.jsonl")}, args...)...)
}

// orden runs «revisor comprobar args…» (cliente or historial) in-process.
func orden(t *testing.T, correr func(context.Context, examen.Opciones) (*examen.Informe, error), args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	raiz := &cobra.Command{Use: "revisor"}
	comprobar := &cobra.Command{Use: "comprobar"}
	f := entorno.NuevaFabrica(&out, &errOut)
	f.Variable = func(string) (string, bool) { return "", false } // no token from the tester's environment
	comprobar.AddCommand(NuevoCmd(f, correr), NuevoHistorialCmd(f))
	raiz.AddCommand(comprobar)
	codigo := cli.Ejecutar(context.Background(), raiz, append([]string{"comprobar"}, args...), nil, &out, &errOut)
	return codigo, out.String(), errOut.String()
}

// Usage errors are one line and exit 2; the client's own flags after its command are its own.
func TestOrdenCliente(t *testing.T) {
	t.Parallel()
	var vista examen.Opciones
	falso := func(_ context.Context, o examen.Opciones) (*examen.Informe, error) {
		vista = o
		in := &examen.Intencion{Escenario: &examen.Escenario{ID: "sin-falla", Espera: examen.Registra}, Nombre: "sin-falla-abc", Registrada: true}
		return &examen.Informe{Semilla: o.Semilla, Orden: strings.Join(o.Orden, " "), Intenciones: []*examen.Intencion{in},
			Comprobaciones: []examen.Comprobacion{{ID: "una-escritura", Paso: true, Linea: "bien"}, {ID: "misma-llave", Linea: "mal", Detalles: []string{"sin-falla: sin llave"}}}}, nil
	}
	codigo, out, _ := ejecutar(t, falso, "--semilla", "7", "python3", "c.py", "--defecto", "x")
	if codigo != 1 || strings.Join(vista.Orden, " ") != "python3 c.py --defecto x" || vista.Semilla != 7 {
		t.Fatalf("código %d, orden %q, semilla %d", codigo, vista.Orden, vista.Semilla)
	}
	quiero := "comprobar cliente: python3 c.py --defecto x, 1 altas con la semilla 7\n\n" +
		"ok    una-escritura        bien\nFALLA misma-llave          mal\n      sin-falla: sin llave\n\n1 de 2 comprobaciones del cliente pasaron\n"
	if out != quiero {
		t.Errorf("informe:\n%s\nquiero:\n%s", out, quiero)
	}
	codigo, out, _ = ejecutar(t, falso, "--json", "--", "alta-segura")
	var v struct {
		Pasaron, Total int
		Comprobaciones []examen.Comprobacion
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || codigo != 1 || v.Pasaron != 1 || v.Total != 2 || v.Comprobaciones[1].ID != "misma-llave" || v.Comprobaciones[1].Paso {
		t.Errorf("--json: %v %d %s", err, codigo, out)
	}

	for args, linea := range map[string]string{
		"":                    "revisor comprobar cliente: falta la orden del cliente",
		"--semilla x a":       "revisor comprobar cliente: --semilla lleva un número entero no negativo, no «x»",
		"--semilla= a":        "revisor comprobar cliente: --semilla lleva un número entero no negativo, no «»",
		"--limite 1s a":       "revisor comprobar cliente: --limite va de 5s a 10m",
		"no-existe-el-client": "revisor comprobar cliente: no encuentro la orden «no-existe-el-client»",
		"--alumno Ana a":      "revisor comprobar cliente: --enviar y --alumno van juntos",
		"--paralelo 0 a":      "revisor comprobar cliente: --paralelo va de 1 a 20",
	} {
		codigo, out, errOut := ejecutar(t, nil, strings.Fields(args)...)
		if codigo != 2 || out != "" || !strings.HasPrefix(errOut, linea) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%q: código %d, salida %q, error %q", args, codigo, out, errOut)
		}
	}
}

// With --enviar, the panel is asked first: a wrong token, no token or no panel stops the run with
// one line and exit 1 before the client runs (a grading takes seconds); the right one lets it run
// and post. A panel that refuses the post at the end (here, gone during the grading) is still said.
func TestEnviarPreguntaAntes(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(panel.Nuevo(panel.Opciones{Token: "lab", TokenClase: "clase"}))
	defer srv.Close()
	cerrado := httptest.NewServer(http.NotFoundHandler())
	cerrado.Close()
	var corridas atomic.Int32
	informe := func(context.Context, examen.Opciones) (*examen.Informe, error) {
		corridas.Add(1)
		return &examen.Informe{Comprobaciones: []examen.Comprobacion{{ID: "una-escritura", Paso: true, Linea: "bien"}}}, nil
	}
	for _, c := range []struct {
		url, tok, linea string
	}{
		{srv.URL, "otro", "revisor comprobar cliente: no califico, el panel no aceptaría los resultados: el panel respondió 401: ese no es el token de la clase ni el del laboratorio: " + pizarra.PistaClase},
		{srv.URL, "", "revisor comprobar cliente: no califico, el panel no aceptaría los resultados: el panel respondió 401: publicar resultados pide"},
		{cerrado.URL, "clase", "revisor comprobar cliente: no califico, el panel no aceptaría los resultados: no llego al panel en " + cerrado.URL + " ("},
		{srv.URL + "/otra/", "clase", "revisor comprobar cliente: no califico, el panel no aceptaría los resultados: el panel respondió 404: "},
	} {
		codigo, out, errOut := ejecutar(t, informe, "--enviar", c.url, "--alumno", "Ana", "--token", c.tok, "--", "alta-segura")
		if codigo != 1 || out != "" || !strings.HasPrefix(errOut, c.linea) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("--enviar %s --token %q: código %d, salida %q, error %q", c.url, c.tok, codigo, out, errOut)
		}
	}
	if n := corridas.Load(); n != 0 {
		t.Fatalf("el cliente se calificó %d veces con un panel que no aceptaría los resultados", n)
	}
	if codigo, out, errOut := ejecutar(t, informe, "--enviar", "127.0.0.1:18084", "--alumno", "Ana", "--", "alta-segura"); codigo != 2 ||
		!strings.HasPrefix(errOut, "revisor comprobar cliente: ") || !strings.Contains(errOut, "«127.0.0.1:18084»") || out != "" {
		t.Errorf("--enviar sin http://: código %d, error %q", codigo, errOut)
	}

	codigo, out, errOut := ejecutar(t, informe, "--enviar", srv.URL, "--alumno", "Ana", "--token", "clase", "--", "alta-segura")
	if codigo != 0 || errOut != "" || !strings.Contains(out, "1 de 1") || corridas.Load() != 1 {
		t.Fatalf("con el token de la clase: código %d, salida %q, error %q, %d corridas", codigo, out, errOut, corridas.Load())
	}
	resp, err := http.Get(srv.URL + pizarra.RutaEstado)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `"nombre":"Ana"`) {
		t.Errorf("el panel no tiene a Ana: %s", b)
	}

	// The panel answers the question, then goes away while the client is graded.
	otro := httptest.NewServer(panel.Nuevo(panel.Opciones{Token: "lab", TokenClase: "clase"}))
	defer otro.Close()
	codigo, out, errOut = ejecutar(t, func(ctx context.Context, o examen.Opciones) (*examen.Informe, error) {
		otro.Close()
		return informe(ctx, o)
	}, "--enviar", otro.URL, "--alumno", "Ana", "--token", "clase", "--", "alta-segura")
	if codigo != 1 || !strings.Contains(out, "1 de 1") ||
		!strings.HasPrefix(errOut, "revisor comprobar cliente: no pude enviar los resultados al panel: no llego al panel en "+otro.URL) {
		t.Errorf("el panel se fue durante la calificación: código %d, salida %q, error %q", codigo, out, errOut)
	}
}

// The help lists every check with its premise from examen.Checks, and counts them from there.
func TestAyudaDeLasComprobaciones(t *testing.T) {
	t.Parallel()
	a := Ayuda()
	if !strings.Contains(a, fmt.Sprintf("Las %d comprobaciones", len(examen.Checks))) || !strings.Contains(a, fmt.Sprintf("se juzgan y pasan las %d", len(examen.Checks))) {
		t.Errorf("ayuda:\n%s", a)
	}
	for _, c := range examen.Checks {
		if !strings.Contains(a, "  - "+c.ID+": "+c.Premisa+".\n") {
			t.Errorf("la ayuda no dice la premisa de %s", c.ID)
		}
	}
}
