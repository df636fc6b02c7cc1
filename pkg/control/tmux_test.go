package control

import (
	"cursohttp/internal/prueba"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// tmuxPrivado is a tmux server of this test alone (-L), closed at the end.
func tmuxPrivado(t *testing.T) Tmux {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CURSOHTTP_CI") != "" {
			t.Fatal("falta tmux en CI (.ci/run lo instala)")
		}
		t.Skip("tmux no está instalado (apt-get install tmux)")
	}
	// bash, as a student's shell: ↑ needs a shell with history, which sh (dash) is not.
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash no está instalado")
	}
	entorno := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "SHELL=" + bash, "TERM=xterm", "ENV=/dev/null", "LANG=C.UTF-8"}
	tm := Tmux{Socket: fmt.Sprintf("cursohttp-prueba-%d-%s", os.Getpid(), strings.ReplaceAll(t.Name(), "/", "-")), Entorno: entorno}
	t.Cleanup(func() { tm.correr("kill-server") })
	return tm
}

// paneles lists the panes of a session as "name" (the lab's pane option), in order.
func paneles(t *testing.T, tm Tmux, sesion string) []string {
	t.Helper()
	out, err := tm.correr("list-panes", "-a", "-F", "#{session_name}\t#{"+nombrePanel+"}")
	if err != nil {
		t.Fatal(err)
	}
	var nombres []string
	for _, l := range strings.Split(out, "\n") {
		if s, nombre, _ := strings.Cut(l, "\t"); s == sesion {
			nombres = append(nombres, nombre)
		}
	}
	return nombres
}

func TestTmuxFueraDeTmux(t *testing.T) {
	t.Parallel()
	c, _ := nuevoControl(t)
	tm := tmuxPrivado(t)
	dir := t.TempDir()
	creada, err := c.AbrirTmux(tm, false, dir)
	if err != nil || !creada {
		t.Fatalf("AbrirTmux: %v %v", creada, err)
	}
	want := []string{"laboratorio", "revisor", "pasarela", "curl y los programas"}
	if got := paneles(t, tm, SesionTmux); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("paneles %q, se esperaban %q", got, want)
	}
	prueba.Esperar(t, "los tres servidores escuchan en sus paneles", func() bool {
		return escucha(c.Servidores[0]) && escucha(c.Servidores[1]) && escucha(c.Servidores[2])
	})
	// The fourth pane has the programs on its PATH.
	ids := strings.Split(must(t)(tm.correr("list-panes", "-t", "="+SesionTmux+":lab", "-F", "#{pane_id}")), "\n")
	tm.correr("send-keys", "-t", ids[3], "-l", "command -v revisor")
	tm.correr("send-keys", "-t", ids[3], "Enter")
	prueba.Esperar(t, "el cuarto panel encuentra revisor en su PATH", func() bool {
		out, _ := tm.correr("capture-pane", "-p", "-t", ids[3])
		if strings.Contains(out, binarios+"/revisor") {
			return true
		}
		t.Log(out)
		return false
	})

	// Ctrl+C stops the server and leaves its pane; ↑ Enter starts it again.
	tm.correr("send-keys", "-t", ids[0], "C-c")
	prueba.Esperar(t, "Ctrl+C detiene el laboratorio", func() bool { return !escucha(c.Servidores[0]) })
	// The pane's shell has the terminal back (or the pane is gone, which the count below tells).
	prueba.Esperar(t, "el shell del panel vuelve tras Ctrl+C", func() bool {
		orden, _ := tm.correr("display-message", "-p", "-t", ids[0], "#{pane_current_command}")
		return !strings.Contains(orden, "laboratorio")
	})
	if n := len(paneles(t, tm, SesionTmux)); n != 4 {
		t.Fatalf("tras Ctrl+C quedan %d paneles", n)
	}
	tm.correr("send-keys", "-t", ids[0], "Up")
	tm.correr("send-keys", "-t", ids[0], "Enter")
	prueba.Esperar(t, "↑ Enter vuelve a arrancar el laboratorio", func() bool { return escucha(c.Servidores[0]) })

	// A second run finds its session and creates nothing.
	if creada, err := c.AbrirTmux(tm, false, dir); err != nil || creada {
		t.Errorf("segunda vez: %v %v", creada, err)
	}
	if n := len(paneles(t, tm, SesionTmux)); n != 4 {
		t.Errorf("la segunda vez dejó %d paneles", n)
	}
	for _, id := range ids[:3] {
		tm.correr("send-keys", "-t", id, "C-c")
	}
	prueba.Esperar(t, "Ctrl+C los detiene", func() bool {
		return !escucha(c.Servidores[0]) && !escucha(c.Servidores[1]) && !escucha(c.Servidores[2])
	})
}

// A session called «laboratorio» that the lab did not open is left alone.
func TestTmuxNoTocaUnaSesionAjena(t *testing.T) {
	t.Parallel()
	c, _ := nuevoControl(t)
	tm := tmuxPrivado(t)
	if _, err := tm.correr("new-session", "-d", "-s", SesionTmux); err != nil {
		t.Fatal(err)
	}
	if _, err := c.AbrirTmux(tm, false, t.TempDir()); !errors.Is(err, ErrSesionAjena) {
		t.Fatalf("AbrirTmux con una sesión ajena: %v", err)
	}
	if got := paneles(t, tm, SesionTmux); len(got) != 1 {
		t.Errorf("la sesión ajena tiene ahora %d paneles", len(got))
	}
}

// Inside tmux, the lab is a new window of the student's session, which keeps its own.
func TestTmuxDentroDeTmux(t *testing.T) {
	t.Parallel()
	c, _ := nuevoControl(t)
	tm := tmuxPrivado(t)
	if _, err := tm.correr("new-session", "-d", "-s", "mia", "-n", "mi-ventana"); err != nil {
		t.Fatal(err)
	}
	info := must(t)(tm.correr("display-message", "-p", "-t", "=mia", "#{socket_path},#{pid},#{session_id} #{pane_id}"))
	tmux, panel, _ := strings.Cut(info, " ")
	dentro := tm
	dentro.Entorno = append(append([]string{}, tm.Entorno...), "TMUX="+strings.Replace(tmux, ",$", ",", 1), "TMUX_PANE="+panel)
	if creada, err := c.AbrirTmux(dentro, true, t.TempDir()); err != nil || !creada {
		t.Fatalf("AbrirTmux dentro: %v %v", creada, err)
	}
	ventanas := must(t)(tm.correr("list-windows", "-t", "=mia", "-F", "#{window_name}"))
	if ventanas != "mi-ventana\nlab" {
		t.Errorf("ventanas de la sesión: %q", ventanas)
	}
	if _, err := tm.correr("has-session", "-t", "="+SesionTmux); err == nil {
		t.Error("dentro de tmux abrió otra sesión")
	}
	if got := paneles(t, tm, "mia"); len(got) != 5 {
		t.Errorf("paneles de la sesión: %q, se esperaban 1 + 4", got)
	}
	prueba.Esperar(t, "los tres servidores escuchan", func() bool {
		return escucha(c.Servidores[0]) && escucha(c.Servidores[1]) && escucha(c.Servidores[2])
	})
	tm.correr("kill-server")
	prueba.Esperar(t, "al cerrar tmux se detienen", func() bool {
		return !escucha(c.Servidores[0]) && !escucha(c.Servidores[1]) && !escucha(c.Servidores[2])
	})
}

func must(t *testing.T) func(string, error) string {
	return func(s string, err error) string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
}

func TestOrdenPanel(t *testing.T) {
	t.Parallel()
	c := &Control{Bin: "/repo/bin"}
	for _, caso := range []struct {
		dir, want string
		args      []string
	}{
		{"/repo", "bin/revisor", nil},
		{"/otra", "/repo/bin/revisor", nil},
		{"/repo", "bin/revisor --puerto 0 --destinos 'a b' 'it'\\''s'", []string{"--puerto", "0", "--destinos", "a b", "it's"}},
	} {
		if got := c.ordenPanel(Servidor{Programa: "revisor", Args: caso.args}, caso.dir); got != caso.want {
			t.Errorf("ordenPanel en %s: %q, se esperaba %q", caso.dir, got, caso.want)
		}
	}
}

// make lab-tmux in a folder without lab/ (after make clean, or an archive just unpacked) makes the
// folder for the lab's tokens, as make lab-up does, instead of «no pude guardar el token en
// lab/token» (issue 42); the tokens are readable by their owner only.
func TestLosTokensCreanSuCarpeta(t *testing.T) {
	t.Parallel()
	c := &Control{Dir: filepath.Join(t.TempDir(), "lab")}
	tokens, err := c.tokensParaArrancar()
	if err != nil {
		t.Fatal(err)
	}
	leidos, err := c.LeerTokens()
	if err != nil || leidos != tokens {
		t.Fatalf("LeerTokens: %+v %v; se guardaron %+v", leidos, err, tokens)
	}
	if info, err := os.Stat(filepath.Join(c.Dir, ArchivoToken)); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("lab/token: %v %v", info, err)
	}
}
