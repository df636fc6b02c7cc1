// Package comprobar is `revisor comprobar`, the course's two checkers: `comprobar tabla`
// (fig07_04.ts, seven checks of the client's decision table, four against a hostile service it
// opens while it runs) and `comprobar idempotencia` (fig06_03.ts, five checks of Idempotency-Key).
package comprobar

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strconv"

	"cursohttp/internal/nodejs"
	"cursohttp/pkg/cli"
	"cursohttp/pkg/curso"
	"cursohttp/pkg/ordenes/comprobar/cliente"
	"cursohttp/pkg/ordenes/comprobar/delservidor"
	"cursohttp/pkg/ordenes/entorno"
	"cursohttp/pkg/servidor"
	"cursohttp/pkg/tabladecision"
	"cursohttp/pkg/variantes"

	"github.com/spf13/cobra"
)

var acciones = []tabladecision.Accion{tabladecision.Seguir, tabladecision.Corregir, tabladecision.Reautenticar, tabladecision.Esperar, tabladecision.Reconciliar, tabladecision.Rendirse}

// caso is one check: a name and a test that returns the failure text, or "" when it passes.
type caso struct {
	nombre string
	probar func(context.Context) string
}

// ComprobarTabla is fig07_04.ts: seven checks of a version of the client's decision table (the
// course's is tabladecision.Tabla{}), four of them against a hostile service that answers Problem
// Details with whatever type it is asked for. It opens that service on direccion (host:port) with
// the handler hostil only while it runs. Exit code 0 only if all seven pass, so it can be used in a
// script.
func ComprobarTabla(ctx context.Context, e entorno.Entorno, tabla tabladecision.Tabla, direccion string, hostil http.Handler) int {
	ln, err := servidor.Escuchar("comprobar tabla", servidorEn(direccion))
	if err != nil {
		var ocupado *servidor.PuertoOcupado
		if errors.As(err, &ocupado) {
			err = fmt.Errorf("no puedo abrir el servicio hostil en %s: el puerto ya está en uso; detén lo que lo ocupa o elige otro con --hostil", direccion)
		}
		return e.Fallo("comprobar tabla", err)
	}
	srv := servidor.Nuevo(hostil)
	go srv.Serve(ln) //nolint:errcheck // Close below ends it
	defer srv.Close()
	return comprobarTabla(ctx, e, tabla, "http://"+ln.Addr().String(), srv.Close)
}

// servidorEn turns host:port into the suite's listening options; a bad port becomes 0 and fails
// loudly at Listen rather than picking a random one silently.
func servidorEn(direccion string) servidor.Opciones {
	host, puerto, err := net.SplitHostPort(direccion)
	if err != nil {
		return servidor.Opciones{Direccion: direccion, Puerto: -1}
	}
	p, err := strconv.Atoi(puerto)
	if err != nil {
		p = -1
	}
	return servidor.Opciones{Direccion: host, Puerto: p}
}

// comprobarTabla runs the checks against a hostile service already listening at base; cerrar closes
// it before the summary, as the course does.
func comprobarTabla(ctx context.Context, e entorno.Entorno, tabla tabladecision.Tabla, base string, cerrar func() error) int {
	lab := e.Laboratorio + "/codigo/"
	decidirDe := func(ctx context.Context, url string) (tabladecision.Decision, entorno.Respuesta, error) {
		return e.DecidirDe(ctx, tabla, url)
	}
	accionDe := func(ctx context.Context, url string) (tabladecision.Accion, error) {
		d, _, err := decidirDe(ctx, url)
		return d.Accion, err
	}
	// A request that fails, or a table that throws, is that check's failure text; the course's
	// program would crash instead (except in the fifth check, which catches it as this one does).
	casos := []caso{
		{"los 23 códigos del curso caen en una de las seis acciones", func(ctx context.Context) string {
			for _, codigo := range entorno.CodigosDelCurso {
				d, _, err := decidirDe(ctx, lab+strconv.Itoa(codigo))
				if err != nil {
					return entorno.Describir(err)
				}
				if !slices.Contains(acciones, d.Accion) {
					return fmt.Sprintf("%d dio «%s»", codigo, d.Accion)
				}
			}
			return ""
		}},
		{"corregir, reautenticar, reconciliar y rendirse nunca reintentan", func(ctx context.Context) string {
			for _, codigo := range entorno.CodigosDelCurso {
				d, _, err := decidirDe(ctx, lab+strconv.Itoa(codigo))
				if err != nil {
					return entorno.Describir(err)
				}
				if d.Accion != tabladecision.Esperar && d.Reintenta {
					return fmt.Sprintf("%d es %s y reintenta", codigo, d.Accion)
				}
			}
			return ""
		}},
		{"un type conocido afina el código: el mismo 409 es esperar o reconciliar", func(ctx context.Context) string {
			enCurso, err := accionDe(ctx, base+"/type/"+nodejs.Escapar(curso.Problemas+"llave-en-curso", nodejs.EnComponente))
			if err != nil {
				return entorno.Describir(err)
			}
			repetido, err := accionDe(ctx, base+"/type/"+nodejs.Escapar(curso.Problemas+"nombre-repetido", nodejs.EnComponente))
			if err != nil {
				return entorno.Describir(err)
			}
			if enCurso == tabladecision.Esperar && repetido == tabladecision.Reconciliar {
				return ""
			}
			return fmt.Sprintf("llave-en-curso: %s; nombre-repetido: %s", enCurso, repetido)
		}},
		{"un type que la tabla no conoce se decide por el código", func(ctx context.Context) string {
			a, err := accionDe(ctx, base+"/type/"+nodejs.Escapar("https://otro.example/problemas/nuevo", nodejs.EnComponente))
			if err != nil {
				return entorno.Describir(err)
			}
			if a == tabladecision.Reconciliar {
				return ""
			}
			return fmt.Sprintf("dio %s, se esperaba reconciliar (el 409 a secas)", a)
		}},
		{"un type heredado de Object.prototype no revienta: se decide por el código", func(ctx context.Context) string {
			// The names travel raw, as the course sends them.
			for _, nombre := range []string{"constructor", "__proto__", "toString", "hasOwnProperty"} {
				a, err := accionDe(ctx, base+"/type/"+nombre)
				if err != nil {
					return fmt.Sprintf("type %s: %s", nombre, entorno.Describir(err))
				}
				if a != tabladecision.Reconciliar {
					return fmt.Sprintf("type %s: dio %s, se esperaba reconciliar", nombre, a)
				}
			}
			return ""
		}},
		{"un código que la tabla no lista cae en el x00 de su familia", func(ctx context.Context) string {
			esperado := []struct {
				codigo int
				accion tabladecision.Accion
			}{{299, tabladecision.Seguir}, {418, tabladecision.Corregir}, {451, tabladecision.Corregir}, {507, tabladecision.Rendirse}, {599, tabladecision.Rendirse}}
			for _, x := range esperado {
				a, err := accionDe(ctx, lab+strconv.Itoa(x.codigo))
				if err != nil {
					return entorno.Describir(err)
				}
				if a != x.accion {
					return fmt.Sprintf("%d dio %s, se esperaba %s", x.codigo, a, x.accion)
				}
			}
			return ""
		}},
		{"traducir el title y el detail no cambia la decisión", func(ctx context.Context) string {
			es, err := accionDe(ctx, base+"/idioma/es")
			if err != nil {
				return entorno.Describir(err)
			}
			en, err := accionDe(ctx, base+"/idioma/en")
			if err != nil {
				return entorno.Describir(err)
			}
			if es == en && es == tabladecision.Esperar {
				return ""
			}
			return fmt.Sprintf("en español %s, en inglés %s", es, en)
		}},
	}
	bien := 0
	for _, c := range casos {
		falla := c.probar(ctx)
		if ctx.Err() != nil {
			return curso.Interrumpido // a check cut short neither passed nor failed
		}
		if falla == "" {
			bien++
			fmt.Fprintf(e.Out, "ok    %s\n", c.nombre)
			continue
		}
		fmt.Fprintf(e.Out, "FALLA %s\n      %s\n", c.nombre, falla)
	}
	if cerrar != nil {
		cerrar()
	}
	fmt.Fprintln(e.Out)
	fmt.Fprintf(e.Out, "%d de %d comprobaciones de la tabla pasaron\n", bien, len(casos))
	if bien == len(casos) {
		return 0
	}
	return 1
}

// NuevoCmd is `revisor comprobar`, the group of the course's two checkers. hostil builds the
// hostile service `comprobar tabla` opens while it runs (cmd/revisor passes the one of pkg/hostil,
// hostil.Nuevo), so this package does not link the hostile server itself.
func NuevoCmd(f *entorno.Fabrica, hostil func() http.Handler) *cobra.Command {
	c := &cobra.Command{
		Use:   "comprobar",
		Short: "Comprobadores del curso: la tabla de decisión y la idempotencia",
	}
	c.AddCommand(nuevoCmdComprobarTabla(f, hostil, nil), nuevoCmdComprobarIdempotencia(f, nil), cliente.NuevoCmd(f, nil), cliente.NuevoHistorialCmd(f), delservidor.NuevoCmd(f, nil))
	return c
}

// nuevoCmdComprobarTabla is `revisor comprobar tabla`; runF nil runs ComprobarTabla with the
// hostile service hostil builds, at 127.0.0.1 and the --puerto-hostil chosen, over the course's
// table or, with --defecto sin-hasown, Lesson 7's broken one.
func nuevoCmdComprobarTabla(f *entorno.Fabrica, hostil func() http.Handler, runF func(ctx context.Context, e entorno.Entorno, tabla tabladecision.Tabla, direccion string, hostil http.Handler) int) *cobra.Command {
	if runF == nil {
		runF = ComprobarTabla
	}
	e := f.Entorno
	var puerto int
	var version *variantes.Banderas
	c := &cobra.Command{
		Use:   "tabla [opciones]",
		Short: "Siete comprobaciones de la tabla de decisión del cliente (fig07_04.ts)",
		Long: `Comprueba la tabla de decisión contra el laboratorio y contra un servicio «hostil» que abre
solo mientras corre (en 127.0.0.1:18083, o el puerto de --puerto-hostil) y que responde Problem
Details con el type que se le pida. Sale con código 0 solo si pasan las siete.

Con --defecto sin-hasown comprueba la tabla rota de la lección 7 (defectos/sin-hasown): imita un
tropiezo de JavaScript que Go no tiene. La tabla del curso busca el type en un objeto, y sin
Object.hasOwn un type «constructor» encuentra lo que todo objeto hereda de Object.prototype (una
función) en vez de una decisión; la comprobación quinta lo encuentra con el mismo TypeError.

` + variantes.Ayuda(variantes.RevisorComprobarTabla),
		Example: `  revisor comprobar tabla
  revisor comprobar tabla --defecto sin-hasown   (la tabla rota de la lección 7: 6 de 7)`,
		Args: cli.SinArgumentos,
		RunE: func(c *cobra.Command, _ []string) error {
			programa, err := version.Eleccion(f.Variable)
			if err != nil {
				return cli.UsoMal("%s: %v", c.CommandPath(), err)
			}
			// A broken version says so first, every time.
			if aviso := programa.Aviso(); aviso != "" {
				fmt.Fprintln(e.Errores(), aviso)
			}
			tabla := tabladecision.Tabla{SinHasOwn: programa.EsDefecto(variantes.SinHasOwn)}
			direccion := net.JoinHostPort(curso.Host, strconv.Itoa(puerto))
			return cli.Salir(runF(c.Context(), e.ConBases(), tabla, direccion, hostil()))
		},
	}
	entorno.ConLaboratorio(c, &e)
	c.Flags().IntVar(&puerto, "puerto-hostil", curso.PuertoHostil, "puerto del servicio hostil que se abre mientras corre")
	version = variantes.Declarar(c.Flags(), variantes.RevisorComprobarTabla)
	return c
}
