package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// bashCompletion is where Debian's bash-completion package (which cobra's bash script uses, as
// every distribution's completions do) keeps its functions.
const bashCompletion = "/usr/share/bash-completion/bash_completion"

// The script of «revisor completion bash» works in a real bash: Tab completes a typo into the
// order, and with several choices each comes with its Spanish description.
func TestCompletarEnBash(t *testing.T) {
	if testing.Short() {
		t.Skip("compila el programa; se salta con -short")
	}
	if _, err := os.Stat(bashCompletion); err != nil {
		if os.Getenv("CURSOHTTP_CI") != "" {
			t.Fatalf("falta bash-completion en CI (.ci/run lo instala): %v", err)
		}
		t.Skip("falta bash-completion (apt-get install bash-completion)")
	}
	t.Parallel()
	dir := t.TempDir()
	if out, err := exec.Command("go", "build", "-o", dir, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	completar := func(linea string) []string {
		t.Helper()
		guion := `source ` + bashCompletion + `
source <(revisor completion bash)
COMP_LINE="` + linea + `"; COMP_POINT=${#COMP_LINE}; read -ra COMP_WORDS <<<"$COMP_LINE"
[[ $COMP_LINE == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$((${#COMP_WORDS[@]}-1)); COLUMNS=200
__start_revisor
printf '%s\n' "${COMPREPLY[@]}"`
		cmd := exec.Command("bash", "-c", guion)
		cmd.Env = append(os.Environ(), "PATH="+dir+string(os.PathListSeparator)+os.Getenv("PATH"))
		out, err := cmd.Output() // compopt complains on stderr outside a real Tab
		if err != nil {
			t.Fatalf("bash: %v\n%s", err, out)
		}
		return strings.Split(strings.TrimSpace(string(out)), "\n")
	}
	if got := completar("revisor tab"); strings.Join(got, "|") != "tabla23" {
		t.Errorf("revisor tab<Tab>: %q", got)
	}
	got := strings.Join(completar("revisor re"), "\n")
	for _, want := range []string{"retroceso", "retry-after", "revisar", "(El revisor como cliente"} {
		if !strings.Contains(got, want) {
			t.Errorf("revisor re<Tab> no ofrece %q:\n%s", want, got)
		}
	}
	if got := strings.Join(completar("revisor tabla23 --lab"), "|"); got != "--laboratorio" {
		t.Errorf("revisor tabla23 --lab<Tab>: %q", got)
	}
	// A flag's values, not file names: one completes in place, several come with their lesson.
	if got := strings.Join(completar("revisor --defecto p"), "|"); got != "pila" {
		t.Errorf("revisor --defecto p<Tab>: %q", got)
	}
	got = strings.Join(completar("revisor --defecto "), "\n")
	for _, want := range []string{"pila", "sin-huella", "(lección 4, §4.7, la pila que viaja, serie I)"} {
		if !strings.Contains(got, want) {
			t.Errorf("revisor --defecto <Tab> no ofrece %q:\n%s", want, got)
		}
	}
	if got := strings.Join(completar("revisor --leccion 7 --ejercicio "), "|"); got != "3" {
		t.Errorf("revisor --leccion 7 --ejercicio <Tab>: %q", got)
	}
	// An exercise of revisor predecir, by its ID.
	if got := strings.Join(completar("revisor predecir 6.5.4-m"), "|"); got != "6.5.4-mudo" {
		t.Errorf("revisor predecir 6.5.4-m<Tab>: %q", got)
	}
}
