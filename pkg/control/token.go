package control

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"cursohttp/pkg/token"
)

// The lab's token (pkg/token): one per «laboratorio lab arrancar», handed to every server it starts
// through their environment (never their command line, which any user of the machine can read),
// and kept in Dir, readable only by whoever started the lab, for «laboratorio lab token» to print.
const (
	ArchivoToken = "token" // the lab's token: the gateway's control, the panel's writes
	// ArchivoCabecera is the lab's token as a header line, for curl's -H @lab/autorizacion: a
	// token expanded into a command line ($(laboratorio lab token)) shows in ps (issue 34.2).
	ArchivoCabecera = "autorizacion"
)

// Tokens are what a lab runs with: the lab's token (the class token went with the panel's class
// page, issue 40, item 9).
type Tokens struct{ Instructor string }

// entorno is what a server started with these tokens gets besides the controller's environment.
func (t Tokens) entorno() []string {
	return append(os.Environ(), token.Variable+"="+t.Instructor)
}

func (c *Control) rutaToken(nombre string) string { return filepath.Join(c.dir(), nombre) }

// tokensParaArrancar are the tokens of the servers about to start: those of the lab already
// running, when some of its servers are (a partial start must not leave two tokens in one lab),
// else c.Token's when given (the instructor's CURSOHTTP_TOKEN), else new ones; written to Dir.
func (c *Control) tokensParaArrancar() (Tokens, error) {
	for _, s := range c.conocidos() {
		if _, vivo, _ := c.vivo(s); vivo {
			if t, err := c.LeerTokens(); err == nil {
				return t, nil
			}
			break
		}
	}
	t := Tokens{Instructor: c.Token}
	if t.Instructor == "" {
		t.Instructor = token.Nuevo()
	}
	// make lab-tmux may be the first order in a folder without lab/ (make clean removes it).
	if err := os.MkdirAll(c.dir(), 0o755); err != nil {
		return Tokens{}, fmt.Errorf("no pude crear la carpeta %s para el token: %w", c.dir(), err)
	}
	for nombre, valor := range map[string]string{ArchivoToken: t.Instructor, ArchivoCabecera: "Authorization: Bearer " + t.Instructor} {
		if err := escribirSecreto(c.rutaToken(nombre), valor+"\n"); err != nil {
			return Tokens{}, fmt.Errorf("no pude guardar el token en %s: %w", c.rutaToken(nombre), err)
		}
	}
	return t, nil
}

// escribirSecreto writes texto to ruta readable by its owner only (0600), also when ruta was there
// before with wider permissions: a fresh file, renamed over it.
func escribirSecreto(ruta, texto string) error {
	tmp, err := os.CreateTemp(filepath.Dir(ruta), filepath.Base(ruta)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil && !errors.Is(err, errors.ErrUnsupported) {
		tmp.Close()
		return err
	}
	if _, err := tmp.WriteString(texto); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), ruta)
}

// ErrSinToken: no lab was started here, so there is no token to show.
var ErrSinToken = errors.New("no hay token del laboratorio")

// LeerTokens reads the tokens the last «laboratorio lab arrancar» kept in Dir.
func (c *Control) LeerTokens() (Tokens, error) {
	b, err := os.ReadFile(c.rutaToken(ArchivoToken))
	if errors.Is(err, os.ErrNotExist) {
		return Tokens{}, fmt.Errorf("%w en %s: «laboratorio lab arrancar» lo crea", ErrSinToken, c.dir())
	}
	if err != nil {
		return Tokens{}, err
	}
	return Tokens{Instructor: strings.TrimSpace(string(b))}, nil
}

// Enlace is a one-time link to the lab's panel (issue 34, item 1): opened once in the instructor's
// browser, within token.VigenciaEnlace, it gives that browser the session that acts on the page.
// It is made here with the lab's token (lab/token), so it never passes through a log or a command
// line, and whoever can read the token can make one.
func (c *Control) Enlace() (string, error) {
	s, ok := panelEn(c.conocidos())
	if !ok {
		return "", fmt.Errorf("este laboratorio no tiene panel")
	}
	t, err := c.LeerTokens()
	if err != nil {
		return "", err
	}
	return token.Enlace(c.url(s), t.Instructor, time.Now()), nil
}

// decirEnlace says the panel's one-time link, when the panel is among servidores.
func (c *Control) decirEnlace(servidores []Servidor, t Tokens, decir func(string)) {
	s, ok := panelEn(servidores)
	if !ok {
		return
	}
	decir(fmt.Sprintf("panel: para actuar desde la página (la falla, «Limpiar»), ábrela una vez con %s (sirve una vez, durante %d minutos; «laboratorio lab enlace» da otro); %s",
		token.Enlace(c.url(s), t.Instructor, time.Now()), int(token.VigenciaEnlace/time.Minute), token.SinEnlace))
}
