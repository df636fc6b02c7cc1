// Command documentoapi writes the revisor's OpenAPI documents and its list of operations into
// pkg/documentoapi, which embeds them: the panel, the MCP server and «revisor openapi» read the
// document there without linking the revisor (issue 33). The revisor builds them from its own
// route table and the problem catalogue; pkg/documentoapi's test fails when the files are not what
// the revisor builds now. Run it with «go generate ./pkg/documentoapi».
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"cursohttp/pkg/documentoapi"
	"cursohttp/pkg/revisor"
	"cursohttp/pkg/variantes"
)

func main() {
	salida := flag.String("salida", ".", "la carpeta de pkg/documentoapi")
	flag.Parse()
	archivos, err := Archivos()
	if err == nil {
		for nombre, datos := range archivos {
			if err = os.WriteFile(filepath.Join(*salida, nombre), datos, 0o644); err != nil {
				break
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "documentoapi:", err)
		os.Exit(1)
	}
}

// Archivos are the files pkg/documentoapi embeds, by name.
func Archivos() (map[string][]byte, error) {
	var ops []documentoapi.Operacion // the type the leaf reads them back into
	for _, o := range revisor.Operaciones(variantes.Eleccion{}) {
		p := make([]string, len(o.Problemas))
		for i, c := range o.Problemas {
			p[i] = string(c)
		}
		ops = append(ops, documentoapi.Operacion{Metodo: o.Metodo, Ruta: o.Ruta, Problemas: p})
	}
	lista, err := json.MarshalIndent(ops, "", "  ")
	if err != nil {
		return nil, err
	}
	return map[string][]byte{
		"revisor.json":          revisor.Documento(variantes.Eleccion{}),
		"revisor-leccion4.json": revisor.Documento(variantes.Eleccion{Leccion: 4}),
		"operaciones.json":      append(lista, '\n'),
	}, nil
}
