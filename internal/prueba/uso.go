package prueba

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// ArgumentosDelUso checks that every visible command under raiz (prepared as the program runs it:
// cli.Preparar) accepts the arguments its Use line names: a command whose Use says «agregar
// [NOMBRE…]» must take one name and several, and one whose flags it parses itself
// (DisableFlagParsing: «iniciar [opciones de revisor clase]») must take options and --help. Only a
// refusal of the count («sobra …») is a failure: a validator may still refuse a sample's content.
func ArgumentosDelUso(t *testing.T, raiz *cobra.Command) {
	t.Helper()
	var visitar func(c *cobra.Command)
	visitar = func(c *cobra.Command) {
		for _, args := range MuestrasDelUso(c) {
			if err := c.ValidateArgs(args); err != nil && strings.Contains(err.Error(), "sobra «") {
				t.Errorf("«%s» dice que se usa «%s», pero con %q responde: %v", c.CommandPath(), c.Use, args, err)
			}
		}
		for _, sub := range c.Commands() {
			if sub.IsAvailableCommand() {
				visitar(sub)
			}
		}
	}
	visitar(raiz)
}

// MuestrasDelUso are argument lists c's Use line allows: each word it names once (an optional one
// too), a repeated one («NOMBRE…», «<código>...») three times; a choice («[A | b]») by its first
// alternative; options only when c parses its own flags.
func MuestrasDelUso(c *cobra.Command) [][]string {
	_, resto, _ := strings.Cut(c.Use, " ")
	var args []string
	for _, g := range gruposDelUso(resto) {
		palabra := strings.TrimSpace(strings.Trim(g, "[]<>"))
		repetida := strings.HasSuffix(palabra, "…") || strings.HasSuffix(palabra, "...")
		palabra = strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(palabra, "…"), "..."))
		palabra = strings.TrimSpace(strings.Trim(palabra, "[]<>"))
		switch {
		case palabra == "" || palabra == "--":
			continue
		case strings.Contains(palabra, "opciones") || strings.HasPrefix(palabra, "-"):
			if c.DisableFlagParsing {
				args = append(args, "--una-opcion", "valor")
			}
			continue
		}
		if alternativas := strings.Split(palabra, "|"); len(alternativas) > 1 {
			palabra = strings.TrimSpace(alternativas[0])
		}
		muestra := strings.ToLower(palabra)
		args = append(args, muestra)
		if repetida {
			args = append(args, muestra, muestra)
		}
	}
	muestras := [][]string{args}
	if c.DisableFlagParsing {
		muestras = append(muestras, []string{"--help"}, append([]string{"-h"}, args...))
	}
	return muestras
}

// gruposDelUso splits what follows a command's name in its Use line into words, a bracketed group
// («[EJERCICIO | histograma]», «[--restar FECHA --restar FECHA]», «<respuesta>...») being one.
func gruposDelUso(s string) []string {
	var grupos []string
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		fin := strings.IndexByte(s, ' ')
		if cierra := map[byte]byte{'[': ']', '<': '>'}[s[0]]; cierra != 0 {
			hondo := 0
			for i := 0; i < len(s); i++ {
				switch s[i] {
				case s[0]:
					hondo++
				case cierra:
					hondo--
				}
				if hondo == 0 {
					fin = i + 1
					break
				}
			}
			for _, sufijo := range []string{"...", "…"} {
				if strings.HasPrefix(s[fin:], sufijo) {
					fin += len(sufijo)
				}
			}
		}
		if fin < 0 || fin > len(s) {
			fin = len(s)
		}
		grupos = append(grupos, s[:fin])
		s = s[fin:]
	}
	return grupos
}
