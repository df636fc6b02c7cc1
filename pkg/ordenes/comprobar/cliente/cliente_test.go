package cliente

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"cursohttp/pkg/cli"
	"cursohttp/pkg/examen"
	"cursohttp/pkg/ordenes/entorno"
)

func ejecutar(t *testing.T, correr func(context.Context, examen.Opciones) (*examen.Informe, error), args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	raiz := &cobra.Command{Use: "revisor"}
	comprobar := &cobra.Command{Use: "comprobar"}
	comprobar.AddCommand(NuevoCmd(entorno.NuevaFabrica(&out, &errOut), correr))
	raiz.AddCommand(comprobar)
	codigo := cli.Ejecutar(context.Background(), raiz, append([]string{"comprobar", "cliente"}, args...), nil, &out, &errOut)
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
