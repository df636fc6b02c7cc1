package main

import (
	"fmt"
	"os"

	"cursohttp/internal/saltos"
)

// anotarSalto leaves one part of the campaign it could not run in make test's record of what it
// skipped (internal/saltos), so make test's last line names it too.
func anotarSalto(quien, porque string) {
	if err := saltos.Anotar(quien, porque); err != nil {
		fmt.Fprintln(os.Stderr, "ataque:", err)
	}
}
