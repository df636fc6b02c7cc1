// Command documentoapi writes the final revisor's OpenAPI document into pkg/documentoapi, which
// embeds it: the panel, the MCP server and «revisor openapi» read the document there without
// linking the revisor (issue 33), and the list of operations the problem pages name is read from
// it. The revisor builds it from its own route table and the problem catalogue; pkg/documentoapi's
// test fails when the file is not what the revisor builds now. Run it with «go generate
// ./pkg/documentoapi».
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

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

// Archivos are the files pkg/documentoapi embeds, by name: the final revisor's document, the one
// a program that does not link the revisor serves.
func Archivos() (map[string][]byte, error) {
	return map[string][]byte{"revisor.json": revisor.Documento(variantes.Eleccion{})}, nil
}
