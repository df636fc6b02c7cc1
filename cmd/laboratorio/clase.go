package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"cursohttp/pkg/cli"
	"cursohttp/pkg/curso"
	"cursohttp/pkg/matricula"
	"cursohttp/pkg/pizarra"
	"cursohttp/pkg/token"
)

// nuevaClaseCmd is «laboratorio clase»: classroom mode (issue 31).
func nuevaClaseCmd(f flujos) *cobra.Command {
	var dir, url_ string
	grupo := &cobra.Command{
		Use:   "clase",
		Short: "el modo clase: un laboratorio para toda la clase, que califica a cada alumno y lo anota en la pizarra",
		Long: `El modo clase: el profesor arranca un laboratorio para toda la clase («laboratorio clase
iniciar --lista alumnos.txt»), con su pasarela (18082), sus revisores y su pizarra (18084), a la
escucha de la red de la clase (--direccion 0.0.0.0). Cada alumno de la lista (un nombre por
línea) recibe una credencial personal, que este programa dice una vez y guarda en
lab/clase/credenciales.txt (modo 0600) para repartirla. El alumno califica su cliente con

  revisor comprobar cliente --clase http://IP-DEL-PROFESOR:18084 --credencial SU-CREDENCIAL -- ORDEN…

y su cliente no cambia: el mismo contrato (PASARELA_URL, «Authorization: Bearer escritura-a»).
El laboratorio de la clase hace la calificación, su pasarela aplica las fallas y él juzga con lo
que vieron su pasarela y su revisor; la pizarra (/clase) solo muestra lo que él juzgó. Ninguna
ruta acepta un veredicto de fuera; lo único que informa la máquina del alumno es el código de
salida de su cliente, y la pizarra lo marca así. Cada alumno es un equipo propio en el revisor
de la clase: no ve, no cambia ni estorba los servicios, llaves o calificaciones de otro.

La lista, las credenciales y cada calificación se guardan en lab/clase/clase.db (SQLite), o en
PostgreSQL con --datos postgres://…, y sobreviven a un kill -9 y a un reinicio de la base. Lo que
cambia la clase (la lista, una credencial, la pizarra) pide el token del laboratorio de la clase,
que «iniciar» guarda en lab/clase/token (0600) y que las demás órdenes leen de ahí.

«laboratorio clase predecir EJERCICIO» pregunta a toda la clase un ejercicio de «revisor
predecir»: el proyector muestra cuántos respondieron y el histograma, sin nombres; cada alumno
responde con su credencial; al revelar, el laboratorio de la clase corre el ejercicio
(«laboratorio clase predecir --help»).`,
		Example: `  laboratorio clase iniciar --lista alumnos.txt --direccion 0.0.0.0
  laboratorio clase iniciar --lista alumnos.txt --datos postgres://clase@127.0.0.1/clase
  laboratorio clase agregar "Eva Pérez"
  laboratorio clase revocar "Eva Pérez"     (su credencial deja de valer)
  laboratorio clase renovar "Eva Pérez"     (una nueva para ella)
  laboratorio clase rotar                   (una nueva para todos)
  laboratorio clase quitar "Eva Pérez"      (su fila y sus calificaciones)
  laboratorio clase limpiar                 (la pizarra, sin tocar la lista)
  laboratorio clase entrar                  (un enlace de una vez, solo para ti: la pizarra como profesor)
  laboratorio clase predecir 6.5.4-4xx      (pregunta en clase un ejercicio de «revisor predecir»)
  laboratorio clase exportar --salida notas.csv              (la pizarra, para el libro de notas)
  laboratorio clase exportar predicciones --salida pred.csv  (las respuestas de cada alumno)`,
	}
	grupo.PersistentFlags().StringVar(&dir, "dir", filepath.Join("lab", "clase"), "la carpeta de la clase: su token, la lista de credenciales y, sin --datos postgres://, su base")
	grupo.PersistentFlags().StringVar(&url_, "clase", "http://"+curso.Host+":"+strconv.Itoa(curso.PuertoPanel), "la URL de la pizarra del laboratorio de la clase (para las órdenes que le hablan)")
	grupo.AddCommand(nuevaClaseIniciar(f, &dir))
	// pedirEn sends one of the instructor's requests, with the class's token, and waits for its
	// answer at most espera.
	pedirEn := func(espera time.Duration, metodo, ruta string, cuerpo []byte) (*http.Response, error) {
		tok, err := token.LeerArchivo(filepath.Join(dir, pizarra.ArchivoTokenClase))
		if err != nil {
			return nil, fmt.Errorf("no encuentro el token de la clase en %s: ¿arrancaste «laboratorio clase iniciar» con ese --dir? (%v)", dir, err)
		}
		ctx, cancelar := context.WithTimeout(context.Background(), espera)
		req, err := http.NewRequestWithContext(ctx, metodo, strings.TrimRight(url_, "/")+ruta, bytes.NewReader(cuerpo))
		if err != nil {
			cancelar()
			return nil, err
		}
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			cancelar()
			return nil, fmt.Errorf("no llego al laboratorio de la clase en %s: %v", url_, err)
		}
		resp.Body = cuerpoYCancelar{resp.Body, cancelar}
		if resp.StatusCode/100 != 2 {
			defer resp.Body.Close()
			b, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
			return nil, fmt.Errorf("la clase respondió %d: %s", resp.StatusCode, strings.TrimSpace(string(b)))
		}
		return resp, nil
	}
	pedir := func(metodo, ruta string, cuerpo []byte) (*http.Response, error) {
		return pedirEn(30*time.Second, metodo, ruta, cuerpo)
	}
	// lista is the roster as the board shows it (nil when it cannot be read: the list of
	// credentials then keeps its lines), so that a row removed from the board's page leaves it too.
	lista := func() []string {
		resp, err := pedir(http.MethodGet, pizarra.RutaEstado, nil)
		if err != nil {
			return nil
		}
		defer resp.Body.Close()
		var e struct {
			Alumnos []struct {
				Nombre string `json:"nombre"`
			} `json:"alumnos"`
		}
		if json.NewDecoder(io.LimitReader(resp.Body, 16<<20)).Decode(&e) != nil {
			return nil
		}
		nombres := make([]string, 0, len(e.Alumnos))
		for _, a := range e.Alumnos {
			nombres = append(nombres, a.Nombre)
		}
		return nombres
	}
	// apuntar rewrites the instructor's list of credentials after a change (agregar, renovar,
	// rotar, quitar, revocar), and says the credentials made now to this terminal only: even when
	// the list cannot be written, they are not lost.
	apuntar := func(c pizarra.CambioDeCredenciales) error {
		if !c.Todas {
			c.Lista = lista()
		}
		ruta, err := pizarra.ActualizarCredenciales(dir, c)
		pizarra.DecirCredenciales(f.out, c.Nuevas, ruta)
		if err != nil {
			return fmt.Errorf("no pude reescribir %s: %v (las credenciales de arriba son las que valen)", ruta, err)
		}
		return nil
	}
	credenciales := func(resp *http.Response, todas bool) error {
		defer resp.Body.Close()
		var l []matricula.Credencial
		if err := json.NewDecoder(resp.Body).Decode(&l); err != nil {
			return err
		}
		return apuntar(pizarra.CambioDeCredenciales{Nuevas: l, Todas: todas})
	}
	conNombre := func(uso, corto string, hacer func(cmd *cobra.Command, nombre string) error) *cobra.Command {
		return &cobra.Command{Use: uso + " NOMBRE", Short: corto, Args: unNombre,
			RunE: func(cmd *cobra.Command, args []string) error { return hacer(cmd, args[0]) }}
	}
	ruta := func(formato, nombre string) string {
		return strings.Replace(formato, "{nombre}", url.PathEscape(nombre), 1)
	}
	var archivoLista string
	agregar := &cobra.Command{
		Use:   "agregar [NOMBRE…]",
		Short: "añade alumnos a la lista (o los de --lista) y dice su credencial, una vez",
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			nombres := strings.Join(args, "\n")
			if archivoLista != "" {
				b, err := os.ReadFile(archivoLista)
				if err != nil {
					return cli.UsoMal("%s: no puedo leer la lista: %v", cmd.CommandPath(), err)
				}
				nombres += "\n" + string(b)
			}
			if strings.TrimSpace(nombres) == "" {
				return cli.UsoMal("%s: ¿a quién? laboratorio clase agregar NOMBRE… (o --lista ARCHIVO)", cmd.CommandPath())
			}
			resp, err := pedir(http.MethodPost, pizarra.RutaLista, []byte(nombres))
			if err != nil {
				return err
			}
			return credenciales(resp, false)
		},
	}
	agregar.Flags().StringVar(&archivoLista, "lista", "", "un archivo con un nombre por línea")
	grupo.AddCommand(agregar,
		conNombre("revocar", "la credencial de ese alumno deja de valer (hasta «renovar»)", func(cmd *cobra.Command, n string) error {
			resp, err := pedir(http.MethodDelete, ruta(pizarra.RutaCredencial, n), nil)
			if err != nil {
				return err
			}
			resp.Body.Close()
			fmt.Fprintf(f.out, "la credencial de %s ya no vale\n", n)
			return apuntar(pizarra.CambioDeCredenciales{Quitar: []string{n}})
		}),
		conNombre("renovar", "una credencial nueva para ese alumno (la vieja deja de valer)", func(cmd *cobra.Command, n string) error {
			resp, err := pedir(http.MethodPost, ruta(pizarra.RutaCredencial, n), nil)
			if err != nil {
				return err
			}
			return credenciales(resp, false)
		}),
		conNombre("quitar", "quita a ese alumno de la lista y de la pizarra, con sus calificaciones", func(cmd *cobra.Command, n string) error {
			resp, err := pedir(http.MethodDelete, ruta(pizarra.RutaAlumnoClase, n), nil)
			if err != nil {
				return err
			}
			resp.Body.Close()
			fmt.Fprintf(f.out, "%s ya no está en la clase\n", n)
			return apuntar(pizarra.CambioDeCredenciales{Quitar: []string{n}})
		}),
		&cobra.Command{Use: "rotar", Short: "una credencial nueva para cada alumno a la vez (las viejas dejan de valer)", Args: cli.SinArgumentos,
			RunE: func(cmd *cobra.Command, _ []string) error {
				resp, err := pedir(http.MethodPost, pizarra.RutaCredenciales, nil)
				if err != nil {
					return err
				}
				return credenciales(resp, true)
			}},
		&cobra.Command{Use: "limpiar [NOMBRE]", Short: "borra las calificaciones de la pizarra (de todos, o de un alumno); la lista queda", Args: cli.HastaArgumentos(1),
			RunE: func(cmd *cobra.Command, args []string) error {
				r := pizarra.RutaCalificaciones
				if len(args) == 1 {
					r = ruta(pizarra.RutaHistorial, args[0])
				}
				resp, err := pedir(http.MethodDelete, r, nil)
				if err == nil {
					resp.Body.Close()
					fmt.Fprintln(f.out, "pizarra limpia")
				}
				return err
			}},
		nuevaClasePredecir(f, &url_, pedirEn),
		nuevaClaseExportar(f, pedir),
		&cobra.Command{Use: "entrar", Short: "un enlace de una vez, solo para ti: abre la pizarra y el proyector como profesor",
			Long: `Da un enlace de una vez para abrir en tu navegador la pizarra de la clase como profesor: esa
página, y las que abras después en ese navegador mientras corra el laboratorio de la clase,
quitan filas y limpian la pizarra, y el proyector de las predicciones muestra sus botones y las
respuestas de cada alumno por nombre. Sirve una sola vez y durante ` + strconv.Itoa(int(token.VigenciaEnlace.Minutes())) + ` minutos, y es solo para
ti: no lo proyectes ni lo compartas (quien lo abra primero entra como profesor). Se hace con el
token de --dir/token, así que solo quien arrancó la clase puede pedirlo; el laboratorio de la
clase nunca lo dice por su cuenta. El enlace sale solo en la salida estándar (para
«xdg-open "$(laboratorio clase entrar)"»); el aviso, en la de errores.

Las credenciales de los alumnos no pasan por ninguna página: las dicen agregar, renovar y rotar,
aquí, en tu terminal.`,
			Args: cli.SinArgumentos,
			RunE: func(cmd *cobra.Command, _ []string) error {
				tok, err := token.LeerArchivo(filepath.Join(dir, pizarra.ArchivoTokenClase))
				if err != nil {
					return fmt.Errorf("no encuentro el token de la clase en %s: ¿arrancaste «laboratorio clase iniciar» con ese --dir? (%v)", dir, err)
				}
				fmt.Fprintln(f.out, token.Enlace(url_, tok, time.Now()))
				fmt.Fprintf(f.err, "laboratorio clase entrar: un enlace de una vez, solo para ti (el profesor): ábrelo en tu navegador antes de %d minutos; no lo proyectes ni lo compartas\n",
					int(token.VigenciaEnlace.Minutes()))
				return nil
			}},
	)
	return grupo
}

type cuerpoYCancelar struct {
	io.ReadCloser
	cancelar func()
}

func (c cuerpoYCancelar) Close() error { c.cancelar(); return c.ReadCloser.Close() }

func nuevaClaseIniciar(f flujos, dir *string) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "iniciar [opciones de revisor clase]",
		Short: "arranca el laboratorio de la clase: su pasarela (18082), sus revisores y su pizarra (18084)",
		Long: `Arranca el laboratorio de la clase y queda en primer plano (Ctrl+C lo detiene): corre
«revisor clase» (el programa que guarda datos y sirve revisores) con las mismas opciones, y
--dir. «revisor clase --help» las dice todas: --lista (los nombres, uno por línea; añade los que
falten y dice su credencial una vez), --datos (SQLite o postgres://…), --direccion 0.0.0.0 (la
red de la clase), --puerto (la pizarra, 18084), --puerto-pasarela (18082), --revisores.`,
		Example: `  laboratorio clase iniciar --lista alumnos.txt --direccion 0.0.0.0
  laboratorio clase iniciar --lista alumnos.txt --datos postgres://clase@127.0.0.1/clase --revisores 2`,
		// Its options are «revisor clase»'s, passed on as they are: this command reads only its
		// own (--bin, --dir, --help) and takes every other word.
		DisableFlagParsing: true,
		Args:               cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			propias, resto, err := opcionesDeIniciar(cmd, args)
			if err != nil {
				return err
			}
			if propias.ayuda {
				return cmd.Help()
			}
			if propias.dir != "" {
				*dir = propias.dir
			}
			carpeta := propias.bin
			if carpeta == "" {
				if carpeta, err = carpetaPropia(); err != nil {
					return err
				}
			}
			revisor := filepath.Join(carpeta, "revisor")
			if runtime.GOOS == "windows" {
				revisor += ".exe"
			}
			c := exec.Command(revisor, append([]string{"clase", "--dir", *dir}, resto...)...)
			c.Stdin, c.Stdout, c.Stderr = os.Stdin, f.out, f.err
			if err := c.Start(); err != nil {
				return fmt.Errorf("no arranca %s: %v (el laboratorio de la clase lo sirve el revisor: ¿está junto a laboratorio?)", revisor, err)
			}
			// Ctrl+C reaches both; a SIGTERM to this one is passed on as an interrupt.
			hecho := make(chan struct{})
			go func() {
				select {
				case <-cmd.Context().Done():
					interrumpir(c.Process)
				case <-hecho:
				}
			}()
			err = c.Wait()
			close(hecho)
			var salida *exec.ExitError
			if errors.As(err, &salida) {
				return cli.Salir(salida.ExitCode())
			}
			return err
		},
	}
	// Declared for the help (and completion) only: with DisableFlagParsing, opcionesDeIniciar
	// reads them.
	cmd.Flags().String("bin", "", "la carpeta de los programas (si no se dice: la de este programa)")
	return cmd
}

// deIniciar are the options «laboratorio clase iniciar» reads itself.
type deIniciar struct {
	bin, dir string
	ayuda    bool
}

// opcionesDeIniciar takes iniciar's own options out of args (--bin, the group's --dir and
// --clase, -h/--help), as «--bin X» or «--bin=X», up to a «--»; the rest go to «revisor clase».
func opcionesDeIniciar(cmd *cobra.Command, args []string) (deIniciar, []string, error) {
	var o deIniciar
	var resto []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			resto = append(resto, args[i:]...)
			break
		}
		if a == "-h" || a == "--help" {
			o.ayuda = true
			continue
		}
		nombre, valor, conIgual := strings.Cut(a, "=")
		var destino *string
		switch nombre {
		case "--bin":
			destino = &o.bin
		case "--dir":
			destino = &o.dir
		case "--clase":
			// The board's URL is for the orders that talk to it; iniciar serves it (--puerto).
			destino = new(string)
		default:
			resto = append(resto, a)
			continue
		}
		if !conIgual {
			if i+1 >= len(args) {
				return o, nil, cli.UsoMal("%s: la opción %s necesita un valor; «%s --help» muestra las opciones", cmd.CommandPath(), nombre, cmd.CommandPath())
			}
			i++
			valor = args[i]
		}
		*destino = valor
	}
	return o, resto, nil
}

// interrumpir asks the class lab to stop as Ctrl+C would; where a process cannot be interrupted
// (Windows), it is killed.
func interrumpir(p *os.Process) {
	if p.Signal(os.Interrupt) != nil {
		p.Kill() //nolint:errcheck // already gone
	}
}

// unNombre asks for exactly one student's name.
func unNombre(c *cobra.Command, args []string) error {
	if len(args) == 0 {
		return cli.UsoMal("%s: ¿de quién? %s NOMBRE (entre comillas si lleva espacios)", c.CommandPath(), c.CommandPath())
	}
	return cli.HastaArgumentos(1)(c, args)
}
