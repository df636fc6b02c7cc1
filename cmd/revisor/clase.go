package main

import (
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"cursohttp/pkg/basesql"
	"cursohttp/pkg/clase"
	"cursohttp/pkg/cli"
	"cursohttp/pkg/curso"
	"cursohttp/pkg/ordenes/entorno"
	"cursohttp/pkg/token"
	"cursohttp/pkg/topes"
)

// ordenClase is «revisor clase»: the class lab's server (issue 31), which «laboratorio clase
// iniciar» runs. It lives in the revisor, the one program that keeps data and serves revisors.
func ordenClase(f *entorno.Fabrica) *cobra.Command {
	var o clase.OpcionesIniciar
	var lista string
	cmd := &cobra.Command{
		Use:   "clase",
		Short: "El laboratorio de la clase: su pasarela, sus revisores y su pizarra (lo arranca «laboratorio clase iniciar»)",
		Long: `El laboratorio de la clase, en primer plano (Ctrl+C lo detiene): la pasarela de la clase
(--puerto-pasarela, 18082), a la que apuntan los clientes de los alumnos; su pizarra y la ruta
de las calificaciones (--puerto, 18084), la URL que cada alumno da a «revisor comprobar cliente
--clase»; y sus revisores (--revisores), que escuchan solo en 127.0.0.1 y solo responden a su
pasarela. Cada alumno es un equipo propio en ellos. Con --lista añade los nombres que falten y
dice su credencial una vez (también en --dir/credenciales.txt, 0600). Lo guarda todo en
--dir/clase.db, o en PostgreSQL con --datos postgres://…. También pregunta a la clase los
ejercicios de «revisor predecir» («laboratorio clase predecir»): el proyector en
/clase/prediccion/proyector, la página de los alumnos en /clase/predecir. «laboratorio clase
--help» explica el modo clase entero.`,
		Args: cli.SinArgumentos,
		RunE: func(c *cobra.Command, _ []string) error {
			if err := cli.ValidarPuerto(c, "--puerto", o.Servidor.Puerto); err != nil {
				return err
			}
			if err := cli.ValidarPuerto(c, "--puerto-pasarela", o.PuertoPasarela); err != nil {
				return err
			}
			if o.Revisores < 1 || o.Revisores > 8 {
				return cli.UsoMal("%s: --revisores va de 1 a 8", c.CommandPath())
			}
			if o.Revisores > 1 && !basesql.EsPostgres(o.Datos) {
				return cli.UsoMal("%s: varios revisores comparten sus servicios en PostgreSQL: --revisores %d va con --datos postgres://…", c.CommandPath(), o.Revisores)
			}
			if o.Limite < 5*time.Second || o.Limite > 10*time.Minute {
				return cli.UsoMal("%s: --limite va de 5s a 10m", c.CommandPath())
			}
			if lista != "" {
				a, err := os.Open(lista)
				if err != nil {
					return cli.UsoMal("%s: no puedo leer la lista: %v", c.CommandPath(), err)
				}
				o.Nombres, err = clase.LeerLista(a)
				a.Close()
				if err != nil {
					return cli.UsoMal("%s: no puedo leer la lista: %v", c.CommandPath(), err)
				}
			}
			if !c.Flags().Changed("tope-conexiones") {
				// A class is many clients at once: four times a lab server's cap; each student's own
				// (--tope-por-cliente) unchanged.
				o.Servidor.TopeConexiones = 4 * topes.Conexiones
			}
			o.Out, o.Err = f.Out, f.Err
			return clase.Iniciar(c.Context(), o)
		},
	}
	o.Servidor.Banderas(cmd.Flags(), curso.PuertoPanel)
	cmd.Flags().StringVar(&o.Dir, "dir", filepath.Join("lab", "clase"), "la carpeta de la clase: su token, la lista de credenciales y, sin --datos postgres://, su base")
	cmd.Flags().StringVar(&lista, "lista", "", "la lista de la clase: un nombre por línea (se añaden los que falten)")
	cmd.Flags().StringVar(&o.Datos, "datos", "", "dónde se guarda la clase: un archivo SQLite (si no se dice: --dir/clase.db) o una URL postgres://…, que también guarda los servicios de sus revisores")
	cmd.Flags().IntVar(&o.PuertoPasarela, "puerto-pasarela", curso.PuertoPasarela, "el puerto de la pasarela de la clase")
	cmd.Flags().IntVar(&o.Revisores, "revisores", 1, "cuántos revisores detrás de la pasarela (más de uno, con --datos postgres://…)")
	cmd.Flags().StringVar(&o.Pasarela, "pasarela-publica", "", "la URL de la pasarela tal como la alcanzan los alumnos (si no se dice: la máquina que usó cada alumno en --clase, con --puerto-pasarela)")
	cmd.Flags().DurationVar(&o.Limite, "limite", topes.LimiteCliente, "cuánto puede durar cada corrida de un cliente")
	cmd.Flags().StringVar(&o.Servidor.Token, "token", "", "el token del laboratorio de la clase (si no se dice: el de --dir/token, o uno nuevo que se guarda ahí)")
	cmd.Flags().StringVar(&o.Servidor.TokenArchivo, "token-archivo", "", token.AyudaArchivo)
	return cmd
}
