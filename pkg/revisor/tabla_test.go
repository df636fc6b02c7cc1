package revisor

import (
	"slices"
	"testing"

	"cursohttp/pkg/variantes"
)

// programas are every revisor rutas builds: each lesson's and each variant's.
func programas() []variantes.Eleccion {
	ps := []variantes.Eleccion{{}, {Leccion: 4}}
	for i := range variantes.Catalogo {
		if v := &variantes.Catalogo[i]; v.Programa == variantes.Revisor {
			ps = append(ps, variantes.Eleccion{Leccion: v.Leccion, Variante: v})
		}
	}
	return ps
}

// nombrePrograma is how a command line asks for p.
func nombrePrograma(p variantes.Eleccion) string {
	if p.Variante != nil {
		return "revisor " + p.Variante.Opcion()
	}
	if p.EnLeccion4() {
		return "revisor --leccion 4"
	}
	return "revisor"
}

// Each method of the route table carries its OpenAPI operation (documentado): a route added
// without one fails here, not in the document a student reads.
func TestCadaMetodoTieneSuOperacion(t *testing.T) {
	t.Parallel()
	for _, p := range programas() {
		rs, _ := rutas(p)
		programa := nombrePrograma(p)
		ids := map[string]string{}
		for _, rt := range rs {
			for _, m := range rt.metodos {
				nombre := m.nombre + " " + rutaOpenAPI(rt.patron)
				op := m.doc
				if op.id == "" || op.etiqueta == "" || op.resumen == "" || op.descripcion == "" || len(op.exitos) == 0 {
					t.Errorf("%s: %s no dice su operación (id, etiqueta, resumen, descripcion y algún éxito): .documentado(operacionDoc{…}) en rutas", programa, nombre)
					continue
				}
				// HEAD's twin of a GET is id+"Cabeza": no two operationIds may meet.
				for _, id := range []string{op.id, op.id + "Cabeza"} {
					if otro, ok := ids[id]; ok {
						t.Errorf("%s: el operationId %s es de %s y de %s", programa, id, otro, nombre)
					}
					ids[id] = nombre
				}
				for _, c := range op.soloLeccion6 {
					if !slices.Contains(op.problemas, c) {
						t.Errorf("%s: %s: soloLeccion6 nombra %s, que no está en sus problemas", programa, nombre, c)
					}
				}
			}
		}
	}
}
