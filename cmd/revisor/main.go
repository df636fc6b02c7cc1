// Command revisor serves the course's API on 127.0.0.1:18080 and carries the course's client
// programs as subcommands.
package main

import (
	"context"
	"fmt"
	"io"
	"net/http"

	// TZ names a zone even where the system has no zone database: retry-after --ejercicio 2 reads a
	// date in local time, and the lesson's run is on a UTC−6 machine.
	_ "time/tzdata"

	"github.com/rs/zerolog"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"cursohttp/pkg/almacen"
	"cursohttp/pkg/cli"
	"cursohttp/pkg/curso"
	"cursohttp/pkg/destinos"
	"cursohttp/pkg/grabacion"
	"cursohttp/pkg/hostil"
	"cursohttp/pkg/idempotencia"
	"cursohttp/pkg/observacion"
	"cursohttp/pkg/ordenes/agente"
	"cursohttp/pkg/ordenes/ahorro"
	"cursohttp/pkg/ordenes/comprobar"
	"cursohttp/pkg/ordenes/decidir"
	"cursohttp/pkg/ordenes/entorno"
	"cursohttp/pkg/ordenes/explicar"
	"cursohttp/pkg/ordenes/fueradetabla"
	"cursohttp/pkg/ordenes/openapi"
	"cursohttp/pkg/ordenes/portype"
	"cursohttp/pkg/ordenes/predecir"
	"cursohttp/pkg/ordenes/rafaga"
	"cursohttp/pkg/ordenes/retroceso"
	"cursohttp/pkg/ordenes/retryafter"
	"cursohttp/pkg/ordenes/revisar"
	"cursohttp/pkg/ordenes/segundosdeespera"
	"cursohttp/pkg/ordenes/sincronizar"
	"cursohttp/pkg/ordenes/tabla23"
	"cursohttp/pkg/ordenes/ventana"
	"cursohttp/pkg/revisor"
	"cursohttp/pkg/servidor"
	"cursohttp/pkg/variantes"
)

func main() { cli.Main(run) }

// run is the whole program with its arguments and streams passed in, so tests run it in-process.
// The server's and every client program's exit code come back the same way, as the command's error.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cli.Ejecutar(ctx, nuevaRaiz(entorno.NuevaFabrica(stdout, stderr)), args, stdin, stdout, stderr)
}

// descripcion opens the help of «revisor» and «revisor servir»; its route list is the route
// table's (revisor.AyudaRutas), so a route is added in one place.
var descripcion = `La API del curso, en http://127.0.0.1:18080: los servicios que observa cada equipo, sus
revisiones y su salud.

` + revisor.AyudaRutas() + `

Cada GET admite HEAD. «revisor openapi» da el documento OpenAPI con todo lo que responde cada ruta.

Las credenciales van en «Authorization: Bearer …»: lectura-a, escritura-a, escritura-b y admin.
Sin orden sirve la API, como «revisor servir»; las otras órdenes son los programas cliente del
curso. Se detiene con Ctrl+C: deja terminar las peticiones en curso.`

// nuevaRaiz builds the whole command tree from f: with no order the root serves, as «revisor
// servir» does; every other order is one of the course's client programs (pkg/ordenes/…), added
// by agregarOrdenes.
func nuevaRaiz(f *entorno.Fabrica) *cobra.Command {
	var o servidor.Opciones
	var permitidos string
	var lim limites
	var vig vigenciaLlaves
	var dat almacenDatos
	var versiones = map[*pflag.FlagSet]*variantes.Banderas{}
	banderas := func(fs *pflag.FlagSet) {
		o.Banderas(fs, curso.PuertoRevisor)
		o.BanderasDeTraza(fs)
		lim.banderas(fs)
		vig.banderas(fs)
		dat.banderas(fs)
		fs.StringVar(&permitidos, "destinos", "", "destinos ip:puerto a los que puede conectarse aunque sean privados, separados por comas")
		// Read at start-up, not a value of the flag.
		fs.Lookup("destinos").DefValue = "REVISOR_DESTINOS o " + curso.DireccionLaboratorio
		versiones[fs] = variantes.Declarar(fs, variantes.Revisor)
	}
	servir := func(c *cobra.Command, _ []string) error {
		programa, err := versiones[c.Flags()].Eleccion(f.Variable)
		if err != nil {
			return cli.UsoMal("%s: %v", c.CommandPath(), err)
		}
		return servirRevisor(c, f, o, programa, permitidos, lim, &vig, dat)
	}
	raiz := &cobra.Command{
		Use:   "revisor",
		Short: "La API del curso: los servicios observados, sus revisiones y su salud",
		Long:  descripcion + "\n\n" + variantes.Ayuda(variantes.Revisor),
		Example: `  revisor
  curl -i -H 'Authorization: Bearer lectura-a' http://127.0.0.1:18080/servicios
  revisor --puerto 0 --cabeceras-ratelimit   (un puerto libre; la primera línea dice cuál)
  revisor --leccion 4                        (el revisor de la lección 4: errores en texto)
  revisor --defecto pila                     (una versión rota de la lección 4; avisa al arrancar)
  revisor tabla23                            (un programa cliente; necesita el laboratorio)`,
		Args: cli.SinArgumentos,
		RunE: servir,
	}
	banderas(raiz.Flags())
	sub := &cobra.Command{
		Use:   "servir",
		Short: "Sirve la API (lo mismo que revisor sin orden)",
		Long:  descripcion + "\n\n" + variantes.Ayuda(variantes.Revisor),
		Example: `  revisor servir
  revisor servir --limitador deslizante --vigencia-llaves 5s
  revisor servir --leccion 4`,
		Args: cli.SinArgumentos,
		RunE: servir,
	}
	banderas(sub.Flags())
	raiz.AddCommand(sub)
	agregarOrdenes(raiz, f)
	raiz.AddCommand(ordenBorrarDatos(), ordenClase(f))
	raiz.AddCommand(openapi.NuevoCmd(f.Out), explicar.NuevoCmd(f.Out))
	cli.Preparar(raiz)
	return raiz
}

// agregarOrdenes adds the course's client programs, one package each. comprobar tabla opens the
// laboratory's hostile service while it runs: it is handed the constructor here, so the checker's
// package does not import the bench.
func agregarOrdenes(raiz *cobra.Command, f *entorno.Fabrica) {
	raiz.AddCommand(
		tabla23.NuevoCmd(f, nil),
		revisar.NuevoCmd(f, nil),
		portype.NuevoCmd(f, nil),
		sincronizar.NuevoCmd(f, nil),
		agente.NuevoCmd(f, nil),
		comprobar.NuevoCmd(f, func() http.Handler { return hostil.Nuevo() }),
		decidir.NuevoCmd(f),
		fueradetabla.NuevoCmd(f, nil),
		ahorro.NuevoCmd(f, nil),
		retroceso.NuevoCmd(f, nil),
		ventana.NuevoCmd(f, nil),
		retryafter.NuevoCmd(f, nil),
		rafaga.NuevoCmd(f, nil),
		segundosdeespera.NuevoCmd(f, nil),
		predecir.NuevoCmd(f, nil),
	)
}

// servirRevisor checks the options, opens the store and serves it (servidor.Correr) until the
// command's context ends.
func servirRevisor(c *cobra.Command, f *entorno.Fabrica, o servidor.Opciones, programa variantes.Eleccion, texto string, lim limites, vig *vigenciaLlaves, dat almacenDatos) error {
	if err := cli.ValidarPuerto(c, "--puerto", o.Puerto); err != nil {
		return err
	}
	// A broken version says so first, every time, before anything else can scroll it away.
	if aviso := programa.Aviso(); aviso != "" {
		fmt.Fprintln(f.Err, aviso)
	}
	// Like the course: REVISOR_DESTINOS or the laboratory; --destinos wins over both.
	lista, err := destinos.Configurados(texto, f.Variable)
	if err != nil {
		return cli.UsoMal("%s: %v", c.CommandPath(), err)
	}
	ro := revisor.Opciones{Destinos: lista, Programa: programa}
	if err := lim.aplicar(&ro); err != nil {
		return cli.UsoMal("%s: %v", c.CommandPath(), err)
	}
	llaves, err := vig.opciones(f.Variable)
	if err != nil {
		return cli.UsoMal("%s: %v", c.CommandPath(), err)
	}
	alm, dondeDatos, rescate, err := dat.abrir(c.Context(), f.Variable, llaves)
	if err != nil {
		return fmt.Errorf("%s: %w", c.CommandPath(), err)
	}
	defer alm.Cerrar()
	ro.Almacen, ro.Rescate = alm, rescate
	if programa.EsDefecto(variantes.LlavesEnMemoria) {
		// Wrong on purpose: the keys in this process, written after the service in a second step.
		ro.Llaves = almacen.LlavesEnMemoria(idempotencia.Nuevo(llaves))
	}
	return servidor.Correr(c.Context(), servidor.Programa{
		Nombre: "revisor", Opciones: o, Out: f.Out, Err: f.Err, Peticiones: true, Observar: true,
		Armar: func(log zerolog.Logger, obs observacion.Observador) (http.Handler, func(), error) {
			ro.Log, ro.Observacion = log, obs
			rv := revisor.Nuevo(ro)
			// A hidden hook for the scene replayer (pkg/grabacion): with CURSOHTTP_GRABAR it also
			// copies every exchange to that file, to be checked against the OpenAPI document.
			h, cerrarGrabacion, err := grabacion.DesdeEntorno(rv, f.Variable)
			if err != nil {
				rv.Cerrar()
				return nil, nil, err
			}
			return h, func() { rv.Cerrar(); cerrarGrabacion() }, nil
		},
		Inicio: func(log zerolog.Logger, addr string) {
			log.Info().Str("direccion", addr).Msg("revisor en http://" + addr)
			if dondeDatos != "" {
				log.Info().Msg(dondeDatos)
			}
		},
	})
}
