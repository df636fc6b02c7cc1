package cliente

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/spf13/cobra"

	"cursohttp/pkg/cli"
	"cursohttp/pkg/examen"
	"cursohttp/pkg/ordenes/entorno"
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
	f.Variable = func(string) (string, bool) { return "", false } // nothing from the tester's environment
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
		"--paralelo 0 a":      "revisor comprobar cliente: --paralelo va de 1 a 20",
	} {
		codigo, out, errOut := ejecutar(t, nil, strings.Fields(args)...)
		if codigo != 2 || out != "" || !strings.HasPrefix(errOut, linea) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%q: código %d, salida %q, error %q", args, codigo, out, errOut)
		}
	}
}

// The gone flags of the panel's class page (issue 40, item 9): each, alone, with its old partners
// or beside --clase, is one line that says it is gone and what to use instead, exit 2, and the
// client never runs.
func TestEnviarYaNoExiste(t *testing.T) {
	t.Parallel()
	var corridas atomic.Int32
	correr := func(_ context.Context, o examen.Opciones) (*examen.Informe, error) {
		corridas.Add(1)
		return informeDePrueba(o.Semilla, strings.Join(o.Orden, " ")), nil
	}
	for args, bandera := range map[string]string{
		"--enviar http://127.0.0.1:18084 --alumno Ana -- alta-segura":              "enviar",
		"--enviar 127.0.0.1:18084 -- alta-segura":                                  "enviar",
		"--alumno Ana -- alta-segura":                                              "alumno",
		"--token x -- alta-segura":                                                 "token",
		"--enviar http://127.0.0.1:18084":                                          "enviar",
		"--clase http://127.0.0.1:18084 --credencial c --enviar http://x -- a":     "enviar",
		"--semilla 7 --enviar=http://127.0.0.1:18084 --alumno=Ana -- python3 c.py": "enviar",
	} {
		codigo, out, errOut := ejecutar(t, correr, strings.Fields(args)...)
		quiere := "revisor comprobar cliente: --" + bandera + " ya no existe: " + SinEnviar + "\n"
		if codigo != 2 || out != "" || errOut != quiere {
			t.Errorf("%s: código %d, salida %q, error %q; se esperaba 2 y %q", args, codigo, out, errOut, quiere)
		}
	}
	if n := corridas.Load(); n != 0 {
		t.Errorf("el cliente se calificó %d veces con una bandera que ya no existe", n)
	}
	for _, s := range []string{"--clase URL --credencial C", "revisor comprobar historial"} {
		if !strings.Contains(SinEnviar, s) {
			t.Errorf("el mensaje no dice %q: %s", s, SinEnviar)
		}
	}
	if strings.Contains(Ayuda(), "--enviar") {
		t.Errorf("la ayuda sigue hablando de --enviar")
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
