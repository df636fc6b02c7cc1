// Package sincronizar is `revisor sincronizar`, fig07_02.ts: the scene's sync script written
// right, and Lesson 7's broken one that reads the detail.
package sincronizar

import (
	"bytes"
	"context"
	"fmt"
	"slices"

	"cursohttp/internal/nodejs"
	"cursohttp/pkg/cli"
	"cursohttp/pkg/ordenes/entorno"
	"cursohttp/pkg/tabladecision"
	"cursohttp/pkg/variantes"

	"github.com/spf13/cobra"
)

// consecuencia is what fig07_02.ts's script would do with each action. It only says it.
func consecuencia(a tabladecision.Accion) string {
	switch a {
	case tabladecision.Seguir:
		return "listo, sigue con el siguiente"
	case tabladecision.Corregir:
		return "no repite: corrige la petición"
	case tabladecision.Reautenticar:
		return "no repite: pide una credencial válida"
	case tabladecision.Esperar:
		return "repite más tarde, con la misma llave (cada alta lleva la suya)"
	case tabladecision.Reconciliar:
		return "relee el servicio que ya existe y compara con el que quería crear"
	case tabladecision.Rendirse:
		return "se detiene y avisa a una persona; no vuelve a intentarlo"
	}
	return "undefined"
}

type altaDeLista struct {
	nombre, url, credencial string
}

// Sincronizar is fig07_02.ts: the scene's sync script written right. Each alta carries its own
// Idempotency-Key, and each answer is decided by status, Retry-After and type; the body is read only
// for the type, never for title or detail.
func Sincronizar(ctx context.Context, e entorno.Entorno) int {
	return sincronizar(ctx, e, e.DecidirRespuesta)
}

// SincronizarLeyendoLaFrase is Lesson 7's broken script (defectos/lee-la-frase/fig07_02.ts, S15):
// the same eight altas, decided by searching the detail's words. Three of the eight decisions
// change, and a detail written in other words (exercise 3) changes another.
func SincronizarLeyendoLaFrase(ctx context.Context, e entorno.Entorno) int {
	return sincronizar(ctx, e, decidirPorLaFrase)
}

func sincronizar(ctx context.Context, e entorno.Entorno, decidir func(entorno.Respuesta) tabladecision.Decision) int {
	lab := e.Laboratorio + entorno.Codigo200
	altas := []altaDeLista{
		{"agenda", lab, ""},
		{"agenda", lab, ""},
		{"nomina2 (no existe aún)", lab, ""},
		{"nomina2 (no existe aún)", lab, ""},
		{"cuenta", "ftp://cuentas", ""},
		{"metadatos", "http://169.254.169.254/latest/meta-data/", ""},
		{"sin-permiso", lab, "lectura-a"},
		{"sin-credencial", lab, "inventada"},
	}
	for _, a := range altas {
		credencial := a.credencial
		if credencial == "" {
			credencial = "escritura-a"
		}
		r, err := e.Alta(ctx, credencial, e.Llave(), a.nombre, a.url)
		if err != nil {
			return e.Fallo("sincronizar", err)
		}
		d := decidir(r)
		tipo, hay := entorno.TypeDe(r)
		if !hay {
			tipo = "(sin Problem Details)"
		}
		fmt.Fprintln(e.Out, a.nombre)
		fmt.Fprintf(e.Out, "  respondió %d %s\n", r.Codigo, tipo)
		fmt.Fprintf(e.Out, "  acción: %s — %s\n", d.Accion, consecuencia(d.Accion))
	}
	return 0
}

// frases are the broken script's searches, in its order: the first whose words the detail contains
// decides, and a detail none recognises is rendirse.
var frases = []struct {
	palabras []string
	accion   tabladecision.Accion
}{
	{[]string{"no existe"}, tabladecision.Rendirse},
	{[]string{"ya existe"}, tabladecision.Reconciliar},
	{[]string{"credencial"}, tabladecision.Reautenticar},
	{[]string{"no se pueden cumplir", "no se conecta"}, tabladecision.Corregir},
}

// decidirPorLaFrase is the broken script's decision, wrong on purpose: a 2xx goes on, and anything
// else is decided by the words of the detail (JSON.parse(body).detail as a string; "" when the body
// is not JSON or has none), searched without case as /…/i does. The motive is the detail itself.
func decidirPorLaFrase(r entorno.Respuesta) tabladecision.Decision {
	if r.OK() {
		return tabladecision.Decision{Accion: tabladecision.Seguir, Motivo: "salió bien"}
	}
	detail := ""
	if v, err := nodejs.DecodificarJSON([]byte(nodejs.Texto(r.Cuerpo))); err == nil {
		if o, ok := v.(nodejs.Objeto); ok {
			if d, hay := o.Valor("detail"); hay && d != nil {
				detail = nodejs.CadenaJSON(d)
			}
		}
	}
	accion := tabladecision.Rendirse
	for _, f := range frases {
		if slices.ContainsFunc(f.palabras, func(p string) bool { return contieneSinMayusculas(detail, p) }) {
			accion = f.accion
			break
		}
	}
	return tabladecision.Decision{Accion: accion, Motivo: detail, Reintenta: accion == tabladecision.Esperar}
}

// contieneSinMayusculas is /palabras/i.test(texto) for a pattern of ASCII letters and spaces. A
// regular expression without the u flag folds case as toUpperCase does but never maps a character
// beyond ASCII onto an ASCII one, so only ASCII letters fold: «ſ» is not «s» (Go's (?i) would say
// it is), and no byte of a multi-byte UTF-8 sequence is ASCII.
func contieneSinMayusculas(texto, palabras string) bool {
	b := []byte(texto)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return bytes.Contains(b, []byte(palabras))
}

// NuevoCmd is `revisor sincronizar`; runF nil runs Sincronizar or, with --defecto
// lee-la-frase, SincronizarLeyendoLaFrase.
func NuevoCmd(f *entorno.Fabrica, runF func(context.Context, entorno.Entorno) int) *cobra.Command {
	var version *variantes.Banderas
	var programa variantes.Eleccion
	c := entorno.Armar(f, &cobra.Command{
		Use:   "sincronizar [opciones]",
		Short: "El guion de sincronización bien escrito: decide con la tabla, no con la frase (fig07_02.ts)",
		Long: `Da de alta ocho servicios, cada uno con su propia Idempotency-Key, y dice qué haría con cada
respuesta. Decide con el código, Retry-After y el type; no lee ni el title ni el detail.
Necesita el revisor y el laboratorio recién arrancados.

Con --defecto lee-la-frase es el guion roto de la lección 7 (defectos/lee-la-frase/fig07_02.ts):
decide buscando palabras en el detail, y tres de las ocho decisiones cambian.

` + variantes.Ayuda(variantes.RevisorSincronizar),
		Example: `  revisor sincronizar
  revisor sincronizar --defecto lee-la-frase   (el guion roto de la lección 7; avisa al empezar)`,
		Args: cli.SinArgumentos,
		PreRunE: func(c *cobra.Command, _ []string) (err error) {
			if programa, err = version.Eleccion(f.Variable); err != nil {
				return cli.UsoMal("%s: %v", c.CommandPath(), err)
			}
			// A broken version says so first, every time.
			if aviso := programa.Aviso(); aviso != "" {
				fmt.Fprintln(f.Errores(), aviso)
			}
			return nil
		},
	}, runF, func(ctx context.Context, e entorno.Entorno) int {
		if programa.EsDefecto(variantes.LeeLaFrase) {
			return SincronizarLeyendoLaFrase(ctx, e)
		}
		return Sincronizar(ctx, e)
	}, entorno.ConRevisor, entorno.ConLaboratorio)
	version = variantes.Declarar(c.Flags(), variantes.RevisorSincronizar)
	return c
}
