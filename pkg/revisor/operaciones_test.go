package revisor

import (
	"reflect"
	"slices"
	"testing"

	"cursohttp/pkg/documentoapi"
	"cursohttp/pkg/variantes"
)

// The operations the panel, the problem pages, the MCP server and the attack campaign read back
// from the generated document (documentoapi.Operaciones) are the route table's, each with the
// problem types the table says it answers (the gate's and the handler's).
func TestLasOperacionesDelDocumentoSonLasDeLaTabla(t *testing.T) {
	t.Parallel()
	d := &documentador{}
	rs, _ := rutas(variantes.Eleccion{})
	var quiere []documentoapi.Operacion
	for _, rt := range rs {
		for _, m := range rt.metodos {
			var p []string
			for _, c := range d.problemas(rt, m) {
				p = append(p, string(c))
			}
			slices.Sort(p)
			quiere = append(quiere, documentoapi.Operacion{Metodo: m.nombre, Ruta: rutaOpenAPI(rt.patron), Problemas: p})
		}
	}
	tiene := documentoapi.Operaciones()
	for i := range tiene {
		slices.Sort(tiene[i].Problemas)
	}
	if !reflect.DeepEqual(tiene, quiere) {
		t.Errorf("las operaciones del documento no son las de la tabla de rutas (go generate ./pkg/documentoapi):\n%v\nquiero\n%v", tiene, quiere)
	}
}
