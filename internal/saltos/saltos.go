// Package saltos is how a part of make test that is a program of its own (the attack campaign,
// the class at scale) says it skipped something for want of a tool: one line «who: why» in the
// record CURSOHTTP_SALTOS names, which scripts/saltos turns into make test's last line with the
// tests' own skips. Outside make test (no record) nothing is written.
package saltos

import (
	"fmt"
	"os"
	"strings"
)

// Variable names the record file.
const Variable = "CURSOHTTP_SALTOS"

// Anotar appends «quien: porque» to the record. A reason given as the tests give it («sin
// PostgreSQL: …») is grouped with theirs in the last line.
func Anotar(quien, porque string) error {
	registro := os.Getenv(Variable)
	if registro == "" {
		return nil
	}
	f, err := os.OpenFile(registro, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	// One line each, whatever the reason says.
	linea := strings.Join(strings.Fields(quien), " ") + ": " + strings.Join(strings.Fields(porque), " ")
	if _, err := fmt.Fprintln(f, linea); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
