package control

import (
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"cursohttp/pkg/token"
)

// SesionTmux is the session «laboratorio lab tmux» creates outside tmux.
const SesionTmux = "laboratorio"

// marcaTmux is the session option that says a session is ours; one without it is never touched.
const marcaTmux = "@cursohttp-lab"

// Tmux runs tmux with this environment; Socket is a private server (-L) for tests, "" the user's.
type Tmux struct {
	Socket  string
	Entorno []string
}

func (t Tmux) correr(args ...string) (string, error) {
	orden := args[0]
	if t.Socket != "" {
		args = append([]string{"-L", t.Socket}, args...)
	}
	cmd := exec.Command("tmux", args...)
	cmd.Env = t.Entorno
	out, err := cmd.Output()
	if err != nil {
		var salida *exec.ExitError
		if errors.As(err, &salida) && len(salida.Stderr) > 0 {
			return "", fmt.Errorf("tmux %s: %s", orden, strings.TrimSpace(string(salida.Stderr)))
		}
		return "", fmt.Errorf("tmux %s: %w", orden, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// ErrSesionAjena is a session called SesionTmux that this lab did not create.
var ErrSesionAjena = errors.New("ya hay una sesión de tmux «" + SesionTmux + "» que no abrió el laboratorio: no la toco; cámbiale el nombre (tmux rename-session -t " + SesionTmux + " otro) o ciérrala tú")

// AbrirTmux lays the lab out in tmux as the lessons' terminals: one pane per server, each in a
// shell with the server's command typed in it (Ctrl+C stops the server and keeps the pane and its
// log; ↑ Enter starts it again), and a fourth pane for curl and the client programs, with the
// programs' folder on its PATH. Inside tmux (dentro) it is a new window of the current
// session; outside, a new session SesionTmux. It returns false, and creates nothing, when that
// session is already there and ours (the caller attaches to it); a session of that name that is
// not ours is ErrSesionAjena. It never closes anything.
func (c *Control) AbrirTmux(t Tmux, dentro bool, dir string) (bool, error) {
	bin, err := filepath.Abs(c.Bin)
	if err != nil {
		return false, err
	}
	// The lab's tokens reach the panes' shells through tmux's -e (the environment, never a line
	// typed on screen), and so every server started in them.
	tokens, err := c.tokensParaArrancar()
	if err != nil {
		return false, err
	}
	conTokens := []string{"-e", token.Variable + "=" + tokens.Instructor}
	var primero string
	if dentro {
		primero, err = t.correr(append([]string{"new-window", "-n", "lab", "-c", dir, "-P", "-F", "#{pane_id}"}, conTokens...)...)
	} else {
		if _, err := t.correr("has-session", "-t", "="+SesionTmux); err == nil {
			if marca, _ := t.correr("show-options", "-t", "="+SesionTmux+":", "-qv", marcaTmux); marca == "1" {
				return false, nil
			}
			return false, ErrSesionAjena
		}
		primero, err = t.correr(append([]string{"new-session", "-d", "-s", SesionTmux, "-n", "lab", "-x", "200", "-y", "50",
			"-c", dir, "-P", "-F", "#{pane_id}"}, conTokens...)...)
		if err == nil {
			_, err = t.correr("set-option", "-t", "="+SesionTmux+":", marcaTmux, "1")
		}
	}
	if err != nil {
		return false, err
	}
	servidores := c.servidores()
	paneles := []string{primero}
	for len(paneles) < len(servidores)+1 {
		id, err := t.correr(append([]string{"split-window", "-t", paneles[len(paneles)-1], "-c", dir, "-P", "-F", "#{pane_id}"}, conTokens...)...)
		if err != nil {
			return false, err
		}
		paneles = append(paneles, id)
		// Even the panes out after each split, so a small window still has room for the next.
		if _, err := t.correr("select-layout", "-t", primero, "tiled"); err != nil {
			return false, err
		}
	}
	for _, o := range [][]string{
		{"set-option", "-w", "-t", primero, "pane-border-status", "top"},
		{"set-option", "-w", "-t", primero, "pane-border-format", " #{" + nombrePanel + "} "},
	} {
		if _, err := t.correr(o...); err != nil {
			return false, err
		}
	}
	for i, s := range servidores {
		if _, err := t.correr("set-option", "-p", "-t", paneles[i], nombrePanel, s.Etiqueta()); err != nil {
			return false, err
		}
		// Typed, not run by tmux: the shell stays when the server ends, and keeps it in its history.
		if _, err := t.correr("send-keys", "-t", paneles[i], "-l", c.ordenPanel(s, dir)); err != nil {
			return false, err
		}
		if _, err := t.correr("send-keys", "-t", paneles[i], "Enter"); err != nil {
			return false, err
		}
	}
	// The fourth pane gets the programs on its PATH by a line typed in it: a login shell (what tmux
	// starts) resets PATH from the system's profile, so tmux's own -e would not last. This line
	// works in sh, bash, zsh and fish alike.
	ultimo := paneles[len(paneles)-1]
	if _, err := t.correr("set-option", "-p", "-t", ultimo, nombrePanel, "curl y los programas"); err != nil {
		return false, err
	}
	if _, err := t.correr("send-keys", "-t", ultimo, "-l", `export PATH="`+bin+`:$PATH"`); err != nil {
		return false, err
	}
	if _, err := t.correr("send-keys", "-t", ultimo, "Enter"); err != nil {
		return false, err
	}
	_, err = t.correr("select-pane", "-t", ultimo)
	return true, err
}

// nombrePanel is the pane option its border shows.
const nombrePanel = "@lab-panel"

// ordenPanel is the command line typed in a server's pane: the binary as a student would type it
// (bin/revisor from the repository), then its arguments.
func (c *Control) ordenPanel(s Servidor, dir string) string {
	bin := c.binario(s.Programa)
	if abs, err := filepath.Abs(bin); err == nil {
		bin = abs
		if rel, err := filepath.Rel(dir, abs); err == nil && !strings.HasPrefix(rel, "..") {
			bin = rel
		}
	}
	partes := []string{citar(bin)}
	for _, a := range s.Args {
		partes = append(partes, citar(a))
	}
	return strings.Join(partes, " ")
}

var sinCitar = regexp.MustCompile(`^[A-Za-z0-9_./:=@%+,-]+$`)

// citar quotes a word for a POSIX shell when it needs it.
func citar(s string) string {
	if sinCitar.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
