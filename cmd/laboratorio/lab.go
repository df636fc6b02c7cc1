package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"cursohttp/pkg/cli"
	"cursohttp/pkg/control"
	"cursohttp/pkg/token"
)

// nuevoLab is «laboratorio lab»: the lab controller, the same on every system (make lab-up and the
// other lab targets call it).
func nuevoLab(f flujos) *cobra.Command {
	var dir, bin, datosRevisor string
	var panel bool
	controlador := func() (*control.Control, error) {
		b := bin
		if b == "" {
			// The three programs live side by side: bin/ in the repository, the folder of a release.
			var err error
			if b, err = carpetaPropia(); err != nil {
				return nil, err
			}
		}
		// An instructor who exported CURSOHTTP_TOKEN or CURSOHTTP_TOKEN_ARCHIVO keeps it; else each
		// start makes its own.
		tok, err := token.Buscar("", "", os.LookupEnv)
		if err != nil {
			return nil, err
		}
		return &control.Control{Dir: dir, Bin: b, Out: f.out, Panel: panel, Datos: datosRevisor, Detenerlo: ordenDetener(dir),
			Token: tok}, nil
	}
	// hacer runs one of the controller's orders; ErrFallo was already explained, so it is exit 1
	// without another line.
	hacer := func(orden func(*cobra.Command, *control.Control) error) func(*cobra.Command, []string) error {
		return func(cmd *cobra.Command, _ []string) error {
			c, err := controlador()
			if err != nil {
				return err
			}
			if err := orden(cmd, c); err != nil {
				if errors.Is(err, control.ErrFallo) {
					return cli.Salir(cli.SalidaFallo)
				}
				return err
			}
			return nil
		}
	}
	grupo := &cobra.Command{
		Use:   "lab",
		Short: "arranca, detiene y muestra los tres servidores del curso (lo que usan make lab-up y compañía)",
		Long: `Arranca, detiene y muestra los tres servidores del curso: laboratorio (18081), revisor
(18080) y pasarela (18082). Funciona igual en Linux, macOS y Windows. Con --panel arranca
antes la página del viaje de cada petición (laboratorio panel, 18084) y los tres le mandan sus
eventos (make lab-up PANEL=1); «detener» la detiene también.

En segundo plano, cada servidor deja su bitácora en lab/<programa>.log y un archivo de estado
que solo él mantiene mientras escucha: así el laboratorio reconoce a los suyos sin adivinar y
detiene exactamente lo que arrancó. Las lecciones piden servidores recién arrancados antes de
cada serie: «laboratorio lab reiniciar» (make lab-restart).

Con --datos el revisor guarda lo que sabe (servicios, revisiones, llaves) en ese archivo (o en
esa URL postgres://…) y lo conserva entre arranques; «laboratorio lab vaciar --datos …»
(make lab-reset) lo borra y arranca de cero. Sin --datos, todo en memoria, como en el curso.`,
		Example: `  laboratorio lab arrancar       (make lab-up)
  laboratorio lab arrancar --panel   (make lab-up PANEL=1; abre http://127.0.0.1:18084)
  laboratorio lab estado         (make lab-estado)
  laboratorio lab reiniciar      (make lab-restart)
  laboratorio lab detener        (make lab-down)
  laboratorio lab primer-plano   (make lab: Ctrl+C los detiene)
  laboratorio lab arrancar --datos lab/revisor.db   (make lab-up DATOS=lab/revisor.db)
  laboratorio lab vaciar --datos lab/revisor.db     (make lab-reset DATOS=lab/revisor.db)`,
	}
	grupo.PersistentFlags().StringVar(&dir, "dir", "lab", "carpeta de las bitácoras y los archivos de estado")
	grupo.PersistentFlags().StringVar(&bin, "bin", "", "carpeta de los programas (si no se dice: la de este programa)")
	grupo.PersistentFlags().BoolVar(&panel, "panel", false, "también la página del viaje de cada petición (laboratorio panel, 18084), con los tres conectados a ella")
	grupo.PersistentFlags().StringVar(&datosRevisor, "datos", "", "el --datos del revisor: un archivo o una URL postgres://… que guarda sus datos entre arranques")
	grupo.AddCommand(
		&cobra.Command{
			Use:   "arrancar",
			Short: "arranca en segundo plano los que no corren y espera a que escuchen",
			Long: `Arranca en segundo plano los servidores que no corren y espera a que cada uno escuche.
Arranca todos o ninguno: antes de arrancar ninguno mira que los puertos estén libres, y si uno no
arranca, detiene los que esta orden arrancó. Sale con 1 si alguno no arrancó, diciendo por qué
(por ejemplo, su puerto está ocupado: dice quién lo tiene). Los que ya corrían siguen como estaban.`,
			RunE: hacer(func(cmd *cobra.Command, c *control.Control) error { return c.Arrancar(cmd.Context()) }),
		},
		&cobra.Command{
			Use:   "detener",
			Short: "detiene los servidores que arrancó y espera a que terminen",
			Long: `Detiene los servidores del laboratorio que corren (los que arrancó «laboratorio lab»), les deja
terminar las peticiones en curso y espera a que terminen. No toca ningún otro programa.`,
			RunE: hacer(func(cmd *cobra.Command, c *control.Control) error { return c.Detener(cmd.Context()) }),
		},
		&cobra.Command{
			Use:   "reiniciar",
			Short: "los detiene y los vuelve a arrancar, como piden las lecciones antes de cada serie",
			RunE:  hacer(func(cmd *cobra.Command, c *control.Control) error { return c.Reiniciar(cmd.Context()) }),
		},
		&cobra.Command{
			Use:   "vaciar",
			Short: "los detiene, borra los datos del revisor (--datos) y los arranca de cero",
			Long: `Detiene los servidores del laboratorio, borra los datos que el revisor guarda en --datos (el
archivo, o las tablas de la base postgres://…) y los vuelve a arrancar: el revisor empieza con
los seis servicios del curso, como recién instalado. Sin --datos es lo mismo que reiniciar.`,
			RunE: hacer(func(cmd *cobra.Command, c *control.Control) error { return c.Vaciar(cmd.Context()) }),
		},
		&cobra.Command{
			Use:   "estado",
			Short: "dice cuáles corren, con su pid, su dirección y su bitácora; sale con 1 si alguno no corre",
			RunE:  hacer(func(cmd *cobra.Command, c *control.Control) error { return c.Estado(cmd.Context()) }),
		},
		&cobra.Command{
			Use:   "primer-plano",
			Short: "los tres en primer plano, cada línea con el nombre de su programa; Ctrl+C los detiene",
			Long: `Los tres servidores en primer plano, en esta terminal: cada línea lleva delante el nombre
de su programa. El primer Ctrl+C (o SIGTERM) les deja terminar las peticiones en curso; el
segundo los detiene en el acto.`,
			RunE: hacer(func(cmd *cobra.Command, c *control.Control) error {
				senales := make(chan os.Signal, 4)
				signal.Notify(senales, os.Interrupt, syscall.SIGTERM)
				defer signal.Stop(senales)
				return c.PrimerPlano(senales)
			}),
		},
		&cobra.Command{
			Use:   "tmux",
			Short: "abre el laboratorio en tmux: un panel por servidor y otro para curl y los programas",
			Long: `Abre el laboratorio en tmux, como las tres terminales de las lecciones: un panel por servidor
y un cuarto panel para curl y los programas cliente (con la carpeta de los programas en el PATH).
Cada servidor corre en una shell: Ctrl+C lo detiene y el panel queda, con su bitácora; ↑ y
Enter lo vuelve a arrancar. Dentro de tmux abre una ventana nueva en tu sesión; fuera, una
sesión «laboratorio» (si ya existe y es suya, entra en ella). Nunca cierra nada.`,
			RunE: hacer(func(cmd *cobra.Command, c *control.Control) error { return abrirTmux(cmd, c, f) }),
		},
		nuevoToken(hacer, f),
		&cobra.Command{
			Use:   "enlace",
			Short: "da un enlace de una vez para actuar desde la página del panel (la falla, «Limpiar»)",
			Long: `Da un enlace de una vez al panel del laboratorio (arrancado con --panel). Ábrelo en tu
navegador: esa página, y las que abras después en ese navegador mientras el panel corra,
cambian la falla de la pasarela y limpian. Sirve una vez y durante 15 minutos; quien abra el
panel sin él solo mira. Se hace con el token de lab/token, así que solo quien arrancó el
laboratorio puede pedirlo, y no pasa por ninguna bitácora.`,
			Args: cli.SinArgumentos,
			RunE: hacer(func(cmd *cobra.Command, c *control.Control) error {
				enlace, err := c.Enlace()
				if err != nil {
					return err
				}
				fmt.Fprintln(f.out, enlace)
				return nil
			}),
		},
		&cobra.Command{
			Use:   "puertos",
			Short: "comprueba que los puertos del curso (18080-18083) están libres, como piden las escenas paso a paso (PASO=1; fuera de Linux, todas)",
			RunE:  hacer(func(cmd *cobra.Command, c *control.Control) error { return c.Puertos(cmd.Context()) }),
		},
	)
	return grupo
}

// ordenDetener is how the user stops the lab, in the words they started it with: make's target
// when make runs this (GNU make puts MAKELEVEL in its recipes' environment), else this program as
// they typed it (./laboratorio in a release's folder, where there is no make), with the same --dir.
func ordenDetener(dir string) string {
	if os.Getenv("MAKELEVEL") != "" {
		return "make lab-down"
	}
	orden := "laboratorio"
	if len(os.Args) > 0 {
		if b := filepath.Base(os.Args[0]); b == orden || b == orden+".exe" {
			orden = os.Args[0]
		}
	}
	orden += " lab detener"
	if dir != "lab" {
		orden += " --dir " + dir
	}
	return orden
}

// nuevoToken is «laboratorio lab token»: the token alone on a line, for a file or a pipe (on a
// command line, as $(laboratorio lab token), ps would show it to every user: issue 34.2).
func nuevoToken(hacer func(func(*cobra.Command, *control.Control) error) func(*cobra.Command, []string) error, f flujos) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "token",
		Short: "muestra el token del laboratorio, el que piden el control de la pasarela y el panel",
		Long: `Muestra el token del laboratorio que arrancó «laboratorio lab arrancar» (lo guarda en
lab/token, legible solo por quien lo arrancó): lo piden los cambios que afectan a todos, el
control de la falla de la pasarela (PUT /_pasarela/simular) y lo que cambia el panel (sus
eventos, el control, «Limpiar»), en «Authorization: Bearer …». Los servidores que arranca el
laboratorio ya lo tienen. Cada «laboratorio lab arrancar» de un laboratorio detenido hace
uno nuevo.

No lo pongas en una línea de órdenes («--token TOKEN», «-H "Authorization: Bearer $(…)"»):
cualquier usuario de la máquina la lee con ps. curl lee la cabecera de lab/autorizacion
(-H @archivo, curl 7.55 o posterior), y los programas del curso leen el token de un archivo
con --token-archivo o con CURSOHTTP_TOKEN_ARCHIVO.`,
		Example: `  curl -X PUT http://127.0.0.1:18082/_pasarela/simular -H @lab/autorizacion -d perder@0.3
  revisor --panel http://127.0.0.1:18084 --token-archivo lab/token
  export CURSOHTTP_TOKEN_ARCHIVO="$PWD/lab/token"   (alta-segura --panel … lo lee de ahí)`,
		Args: cli.SinArgumentos,
		RunE: hacer(func(cmd *cobra.Command, c *control.Control) error {
			t, err := c.LeerTokens()
			if err != nil {
				return err
			}
			fmt.Fprintln(f.out, t.Instructor)
			return nil
		}),
	}
	return cmd
}

// carpetaPropia is the folder this program was started from. os.Executable reads /proc on Linux;
// where there is none (a container, a sandbox) the command line says it just as well.
func carpetaPropia() (string, error) {
	if exe, err := os.Executable(); err == nil {
		return filepath.Dir(exe), nil
	}
	exe := os.Args[0]
	if !strings.ContainsRune(exe, filepath.Separator) && !strings.ContainsRune(exe, '/') {
		var err error
		if exe, err = exec.LookPath(exe); err != nil {
			return "", fmt.Errorf("no sé en qué carpeta están los programas; dilo con --bin")
		}
	}
	return filepath.Dir(exe), nil
}

// abrirTmux is «laboratorio lab tmux»: the layout, then into it.
func abrirTmux(cmd *cobra.Command, c *control.Control, f flujos) error {
	if _, err := exec.LookPath("tmux"); err != nil {
		return fmt.Errorf("tmux no está instalado (apt-get install tmux, brew install tmux); «laboratorio lab primer-plano» (make lab) arranca los tres en esta terminal")
	}
	informes, err := c.Informes(cmd.Context())
	if err != nil {
		return err
	}
	for _, inf := range informes {
		if inf.Vivo {
			return fmt.Errorf("%s ya corre en segundo plano (pid %d); «%s» lo detiene antes de abrirlo en tmux", inf.Etiqueta(), inf.Estado.PID, c.Detenerlo)
		}
	}
	dir, err := os.Getwd()
	if err != nil {
		return err
	}
	dentro := os.Getenv("TMUX") != ""
	creada, err := c.AbrirTmux(control.Tmux{Entorno: os.Environ()}, dentro, dir)
	if err != nil {
		return err
	}
	switch {
	case dentro:
		fmt.Fprintln(f.out, "el laboratorio está en la ventana «lab» de tu sesión de tmux")
		return nil
	case !esTerminal(os.Stdin) || !esTerminal(os.Stdout):
		if creada {
			fmt.Fprintf(f.out, "sesión de tmux «%s» abierta: tmux attach -t %s\n", control.SesionTmux, control.SesionTmux)
		} else {
			fmt.Fprintf(f.out, "la sesión de tmux «%s» ya estaba abierta: tmux attach -t %s\n", control.SesionTmux, control.SesionTmux)
		}
		return nil
	}
	entrar := exec.Command("tmux", "attach-session", "-t", "="+control.SesionTmux)
	entrar.Stdin, entrar.Stdout, entrar.Stderr = os.Stdin, os.Stdout, os.Stderr
	return entrar.Run()
}

func esTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
