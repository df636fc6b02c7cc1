//go:build unix

package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"

	"cursohttp/internal/contrato"
	"cursohttp/pkg/grabacion"
)

// Contratos are the revisor's two OpenAPI documents (the final program's and Lesson 4's), read
// from the built binary itself (revisor openapi), so the replayer links no server code and checks
// the document the binary carries. Each is loaded once, when a scene first needs it.
type Contratos struct {
	Bin             string
	final, leccion4 func() (*contrato.Contrato, error)
}

// NuevosContratos reads the documents from bin/revisor.
func NuevosContratos(bin string) *Contratos {
	cargar := func(args ...string) func() (*contrato.Contrato, error) {
		return sync.OnceValues(func() (*contrato.Contrato, error) {
			var salida, errores bytes.Buffer
			cmd := exec.CommandContext(context.Background(), filepath.Join(bin, "revisor"), append([]string{"openapi"}, args...)...)
			cmd.Stdout, cmd.Stderr = &salida, &errores
			if err := cmd.Run(); err != nil {
				return nil, fmt.Errorf("revisor openapi %v: %v %s", args, err, errores.String())
			}
			return contrato.Nuevo(salida.Bytes())
		})
	}
	return &Contratos{Bin: bin, final: cargar(), leccion4: cargar("--leccion", "4")}
}

// validarGrabaciones checks every response the scene's revisors recorded against their
// program's document and returns one line per response outside it. The broken versions
// (--defecto) are wrong on purpose and are not checked.
func (cs *Contratos) validarGrabaciones(escena string, grabadas []Grabada) []string {
	var diferencias []string
	for _, g := range grabadas {
		if slices.Contains(g.Linea, "--defecto") {
			continue
		}
		cargar := cs.final
		if i := slices.Index(g.Linea, "--leccion"); i >= 0 && i+1 < len(g.Linea) && g.Linea[i+1] == "4" {
			cargar = cs.leccion4
		}
		c, err := cargar()
		if err != nil {
			return append(diferencias, escena+": el documento OpenAPI no carga: "+err.Error())
		}
		f, err := os.Open(g.Archivo)
		if os.IsNotExist(err) {
			continue // it never answered
		}
		if err != nil {
			return append(diferencias, escena+": "+err.Error())
		}
		is, err := grabacion.Leer(f)
		f.Close()
		if err != nil {
			return append(diferencias, escena+": "+err.Error())
		}
		for _, i := range is {
			if i.Cortado {
				continue // the client saw a connection cut, not a response
			}
			if _, err := c.Validar(i); err != nil {
				diferencias = append(diferencias, fmt.Sprintf("%s: respuesta del revisor fuera del documento OpenAPI: %v", escena, err))
			}
		}
	}
	return diferencias
}
