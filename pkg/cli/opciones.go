package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// errorDeOpcion turns pflag's error into a usage error naming the command and where its help is.
// An address that is not http says so in one sentence of its own, the value it refused included.
func errorDeOpcion(c *cobra.Command, err error) error {
	var invalido *pflag.InvalidValueError
	if mal, ok := esURLInvalida(err); ok && errors.As(err, &invalido) {
		return UsoMal("%s: --%s %v", c.CommandPath(), invalido.GetFlag().Name, mal)
	}
	// A mistyped long flag gets the closest ones, as a mistyped order does.
	var noExiste *pflag.NotExistError
	if errors.As(err, &noExiste) && noExiste.GetSpecifiedShortnames() == "" {
		if s := opcionesParecidas(c, noExiste.GetSpecifiedName()); len(s) > 0 {
			return UsoMal("%s: %s; ¿querías decir %s? «%s --help» muestra las opciones", c.CommandPath(), enEspanol(err),
				strings.Join(s, " o "), c.CommandPath())
		}
	}
	return UsoMal("%s: %s; «%s --help» muestra las opciones", c.CommandPath(), enEspanol(err), c.CommandPath())
}

// enEspanol says pflag's errors in Spanish; one it does not know goes as pflag wrote it.
func enEspanol(err error) string {
	var noExiste *pflag.NotExistError
	var sinValor *pflag.ValueRequiredError
	var invalido *pflag.InvalidValueError
	var sintaxis *pflag.InvalidSyntaxError
	switch {
	case errors.As(err, &noExiste):
		if noExiste.GetSpecifiedShortnames() != "" {
			return "no existe la opción -" + noExiste.GetSpecifiedName()
		}
		return "no existe la opción --" + noExiste.GetSpecifiedName()
	case errors.As(err, &sinValor):
		if sinValor.GetSpecifiedShortnames() != "" {
			return "la opción -" + sinValor.GetSpecifiedName() + " necesita un valor"
		}
		return "la opción --" + sinValor.GetSpecifiedName() + " necesita un valor"
	case errors.As(err, &invalido):
		fl := invalido.GetFlag()
		texto := fmt.Sprintf("la opción --%s ", fl.Name)
		switch t := fl.Value.Type(); {
		case t == "bool":
			return texto + fmt.Sprintf("espera true o false, no «%s»", invalido.GetValue())
		case strings.HasPrefix(t, "int") || strings.HasPrefix(t, "uint"):
			return texto + fmt.Sprintf("espera un número entero, no «%s»", invalido.GetValue())
		case strings.HasPrefix(t, "float"):
			return texto + fmt.Sprintf("espera un número, no «%s»", invalido.GetValue())
		case t == "duration":
			return texto + fmt.Sprintf("espera una duración (como 90s o 1m30s), no «%s»", invalido.GetValue())
		case t == "string":
			return texto + fmt.Sprintf("no acepta «%s»", invalido.GetValue())
		default:
			// A flag of the suite's own type explains itself, in Spanish.
			return texto + fmt.Sprintf("no acepta «%s»: %v", invalido.GetValue(), invalido.Unwrap())
		}
	case errors.As(err, &sintaxis):
		return fmt.Sprintf("la opción «%s» está mal escrita", sintaxis.GetSpecifiedFlag())
	}
	return err.Error()
}

// SinArgumentos is cobra.PositionalArgs for a command that takes no words after its name.
func SinArgumentos(c *cobra.Command, args []string) error {
	return HastaArgumentos(0)(c, args)
}

// HastaArgumentos accepts at most n words after the command's name.
func HastaArgumentos(n int) cobra.PositionalArgs {
	return func(c *cobra.Command, args []string) error {
		if len(args) > n {
			return sobra(c, args[n])
		}
		return nil
	}
}

func sobra(c *cobra.Command, palabra string) error {
	if c.HasAvailableSubCommands() {
		if s := c.SuggestionsFor(palabra); len(s) > 0 {
			return noExisteLaOrden(c, palabra, s)
		}
	}
	return UsoMal("%s: sobra «%s»; «%s --help» muestra cómo se usa", c.CommandPath(), palabra, c.CommandPath())
}

// noExisteLaOrden is a word that is not one of c's orders, with the closest ones (cobra's
// suggestions: a small edit distance or a prefix).
func noExisteLaOrden(c *cobra.Command, palabra string, sugerencias []string) error {
	texto := fmt.Sprintf("%s: no existe la orden «%s»;", c.CommandPath(), palabra)
	if len(sugerencias) > 0 {
		texto = strings.TrimSuffix(texto, ";") + "; ¿querías decir «" + strings.Join(sugerencias, "» o «") + "»?"
	}
	return UsoMal("%s «%s --help» muestra las órdenes", texto, c.CommandPath())
}

// ValidarPuerto checks a port flag's value: 0 (a free port, which the program prints) to 65535.
func ValidarPuerto(c *cobra.Command, bandera string, puerto int) error {
	if puerto < 0 || puerto > 65535 {
		return UsoMal("%s: %s va de 0 a 65535 (0: uno libre), no %d", c.CommandPath(), bandera, puerto)
	}
	return nil
}
