package eventos

import "net/url"

// ValidarPanel checks a program's --panel: empty (no events), or an http URL.
func ValidarPanel(valor string) error {
	if valor == "" {
		return nil
	}
	u, err := url.Parse(valor)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return errPanel(valor)
	}
	return nil
}

type errPanel string

func (e errPanel) Error() string {
	return "--panel debe ser una dirección http, no «" + string(e) + "»"
}
