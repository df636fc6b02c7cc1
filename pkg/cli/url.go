package cli

import (
	"errors"
	"net/url"
	"strings"
)

// URLInvalida is a value that is not an http or https address.
type URLInvalida struct{ Valor string }

func (e *URLInvalida) Error() string { return "debe ser una dirección http, no «" + e.Valor + "»" }

// URLs reads an http or https address, or several separated by commas: the suite's one answer to
// "is this an http URL" (a scheme http or https and a host). The first that is not one is the
// error, as a *URLInvalida.
func URLs(texto string) ([]*url.URL, error) {
	var urls []*url.URL
	for _, parte := range strings.Split(texto, ",") {
		parte = strings.TrimSpace(parte)
		u, err := url.Parse(parte)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, &URLInvalida{Valor: parte}
		}
		urls = append(urls, u)
	}
	return urls, nil
}

// URL is the value of a flag that takes an http or https address (--pasarela, --panel,
// --destino): the text goes to Destino once URLs accepts it, so a bad address is refused while
// the command line is read, with the same sentence in every program. Varias accepts several
// separated by commas; Vacia accepts "" (an option that is off when empty, as --panel).
type URL struct {
	Destino       *string
	Varias, Vacia bool
}

func (u URL) String() string {
	if u.Destino == nil {
		return ""
	}
	return *u.Destino
}

func (u URL) Set(s string) error {
	if s == "" && u.Vacia {
		*u.Destino = s
		return nil
	}
	urls, err := URLs(s)
	if err != nil {
		return err
	}
	if len(urls) > 1 && !u.Varias {
		return &URLInvalida{Valor: s}
	}
	*u.Destino = s
	return nil
}

// Type names the kind of value; the help shows it as TEXTO, as any text.
func (u URL) Type() string { return "URL" }

// esURLInvalida is err's *URLInvalida, if it is one.
func esURLInvalida(err error) (*URLInvalida, bool) {
	var mal *URLInvalida
	return mal, errors.As(err, &mal)
}
