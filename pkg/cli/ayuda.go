package cli

import (
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// ayuda is -h and --help: the command's description, then its usage, on stdout.
func ayuda(c *cobra.Command, _ []string) {
	w := c.OutOrStdout()
	texto := c.Long
	if texto == "" {
		texto = c.Short
	}
	if texto = strings.TrimRightFunc(texto, unicode.IsSpace); texto != "" {
		fmt.Fprintf(w, "%s\n\n", texto)
	}
	escribirUso(w, c)
}

// anchoOrden is the narrowest column of order names; a longer name still gets two spaces after it.
const anchoOrden = 9

// escribirUso writes how to call c: its usage lines, examples, orders and options.
func escribirUso(w io.Writer, c *cobra.Command) error {
	esGrupo := c.Annotations[anotacionGrupo] != ""
	fmt.Fprintf(w, "Uso:\n")
	if !esGrupo {
		linea := c.Use
		if c.HasParent() {
			linea = c.Parent().CommandPath() + " " + linea
		}
		if !strings.Contains(linea, "[opciones]") {
			linea += " [opciones]"
		}
		fmt.Fprintf(w, "  %s\n", linea)
	}
	if c.HasAvailableSubCommands() {
		fmt.Fprintf(w, "  %s <orden> [opciones]\n", c.CommandPath())
	}
	if c.HasExample() {
		fmt.Fprintf(w, "\nEjemplos:\n%s\n", strings.TrimRightFunc(c.Example, unicode.IsSpace))
	}
	if c.HasAvailableSubCommands() {
		ancho := anchoOrden
		for _, sub := range c.Commands() {
			if sub.IsAvailableCommand() {
				ancho = max(ancho, len([]rune(sub.Name()))+1)
			}
		}
		fmt.Fprintf(w, "\nÓrdenes:\n")
		for _, sub := range c.Commands() {
			if sub.IsAvailableCommand() {
				fmt.Fprintf(w, "  %-*s %s\n", ancho, sub.Name(), sub.Short)
			}
		}
	}
	fmt.Fprintf(w, "\nOpciones:\n")
	var filas [][2]string
	ancho := 0
	c.InheritedFlags() // merges the root's --help into c.Flags()
	c.Flags().VisitAll(func(fl *pflag.Flag) {
		if fl.Hidden {
			return
		}
		nombre := "    --" + fl.Name
		if fl.Shorthand != "" {
			nombre = "-" + fl.Shorthand + ", --" + fl.Name
		}
		if v := queEspera(fl); v != "" {
			nombre += " " + v
		}
		filas = append(filas, [2]string{nombre, fl.Usage + porOmision(fl)})
		ancho = max(ancho, len([]rune(nombre)))
	})
	for _, f := range filas {
		fmt.Fprintf(w, "  %-*s  %s\n", ancho, f[0], f[1])
	}
	if c.HasAvailableSubCommands() {
		fmt.Fprintf(w, "\n«%s <orden> --help» explica cada orden.\n", c.CommandPath())
	}
	return nil
}

// queEspera names, in the help, the kind of value a flag takes; a bool takes none.
func queEspera(fl *pflag.Flag) string {
	switch t := fl.Value.Type(); {
	case t == "bool":
		return ""
	case strings.HasPrefix(t, "int") || strings.HasPrefix(t, "uint") || strings.HasPrefix(t, "float"):
		return "NÚMERO"
	case t == "duration" || t == "duración":
		return "DURACIÓN"
	default:
		return "TEXTO"
	}
}

// porOmision is the suite's one wording for a flag's default, « (si no se dice: X)», empty for a
// bool or when there is no default. A flag whose default comes from somewhere else says so in its
// DefValue («REVISOR_DESTINOS o 127.0.0.1:18081»).
func porOmision(fl *pflag.Flag) string {
	if fl.Value.Type() == "bool" || fl.DefValue == "" {
		return ""
	}
	return " (si no se dice: " + fl.DefValue + ")"
}
