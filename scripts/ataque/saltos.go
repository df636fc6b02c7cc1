package main

import (
	"fmt"
	"os"
)

// anotarSalto leaves one part of the campaign it could not run in make test's record of what it
// skipped (CURSOHTTP_SALTOS, see scripts/saltos), so make test's last line names it too.
func anotarSalto(quien, porque string) {
	registro := os.Getenv("CURSOHTTP_SALTOS")
	if registro == "" {
		return
	}
	f, err := os.OpenFile(registro, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, "ataque:", err)
		return
	}
	fmt.Fprintf(f, "%s: %s\n", quien, porque)
	f.Close()
}
