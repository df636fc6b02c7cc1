package delservidor

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

func TestOrdenServidor(t *testing.T) {
	t.Parallel()
	var vista OpcionesServidor
	falso := func(_ context.Context, o OpcionesServidor) ([]examen.Comprobacion, error) {
		vista = o
		return []examen.Comprobacion{{ID: "repite-la-respuesta", Paso: true, Linea: "bien"}, {ID: "misma-llave-otro-cuerpo", Linea: "mal", Detalles: []string{"dio 201"}}}, nil
	}
	ejecutar := func(args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		raiz := &cobra.Command{Use: "revisor"}
		comprobar := &cobra.Command{Use: "comprobar"}
		comprobar.AddCommand(NuevoCmd(entorno.NuevaFabrica(&out, &errOut), falso))
		raiz.AddCommand(comprobar)
		return cli.Ejecutar(context.Background(), raiz, append([]string{"comprobar", "servidor"}, args...), nil, &out, &errOut), out.String(), errOut.String()
	}
	codigo, out, _ := ejecutar("http://127.0.0.1:28080/", "--vigencia", "2s")
	quiero := "ok    repite-la-respuesta     bien\nFALLA misma-llave-otro-cuerpo mal\n      dio 201\n\n1 de 2 comprobaciones del servidor pasaron\n"
	if codigo != 1 || out != quiero || vista.Base != "http://127.0.0.1:28080/" || vista.Vigencia.String() != "2s" {
		t.Errorf("código %d, opciones %+v, salida:\n%s", codigo, vista, out)
	}
	codigo, out, _ = ejecutar("--json")
	var v struct{ Pasaron, Total int }
	if err := json.Unmarshal([]byte(out), &v); err != nil || codigo != 1 || v.Pasaron != 1 || v.Total != 2 || vista.Base != "http://127.0.0.1:18080" {
		t.Errorf("--json: %v, código %d, base %s, %s", err, codigo, vista.Base, out)
	}
	codigo, _, errOut := ejecutar("--vigencia", "-1s")
	if codigo != 2 || !strings.HasPrefix(errOut, "revisor comprobar servidor: --vigencia va de 0") {
		t.Errorf("código %d, %q", codigo, errOut)
	}
}
