// Command fallas writes pkg/fallas/modos.go from the gateway's table of fault modes
// (pasarela.Modos), so the leaf the shells' completion and the panel read cannot drift from what
// the gateway parses. Run it with «go generate ./pkg/pasarela».
package main

import (
	"flag"
	"fmt"
	"os"

	"cursohttp/pkg/pasarela"
)

func main() {
	salida := flag.String("salida", "modos.go", "el archivo que escribe")
	flag.Parse()
	if err := os.WriteFile(*salida, pasarela.FuenteDeFallas(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "fallas:", err)
		os.Exit(1)
	}
}
